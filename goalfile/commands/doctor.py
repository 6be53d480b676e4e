"""`goalfile doctor`: is this repository set up so that each host really holds its agent to
the goal? Each finding is ``ok``, ``problem`` (with the command that fixes it) or ``unknown``
(goalfile cannot tell, and says why).

Checked, for each host with a hook file (Claude Code, Codex, Gemini CLI):

* the hook file (``.claude/settings.json``, ``.codex/hooks.json``, ``.gemini/settings.json``)
  is there, is valid JSON and registers ``goalfile hook stop``; for Codex, a Stop hook declared
  in a ``config.toml`` (the project's ``.codex/config.toml`` or the user's) counts as well, and
  one declared in more than one of its files is a problem: Codex runs each of them;
* each goalfile Stop hook, in every settings file a host reads hooks from, is in the one
  shape that runs goalfile's hook and hands its answer to the host (:mod:`goalfile.hookshape`:
  not ``goalfile hook stop > /dev/null``, ``echo goalfile hook stop``, an ``"async"`` entry),
  and no Claude Code settings file sets ``disableAllHooks``; ``goalfile doctor --fix-hooks``
  repairs them;
* goalfile's session-start hook (``goalfile hook start``, :mod:`goalfile.starthook`) is
  registered under ``SessionStart`` in a file each host reads hooks from: without it the
  session's first stop has no record to compare with;
* the program the registered command starts (``goalfile``) is on the PATH the host will use
  (this process's PATH: hosts pass theirs on to hooks);
* Codex only: the hook is trusted in the user's ``config.toml``; Codex skips an untrusted
  project hook without a word. Only ``codex app-server`` knows the hash to compare, so without
  ``codex`` on PATH the answer is "cannot tell";
* the time each host gives a goalfile Stop hook, in every settings file it reads hooks from
  (Claude Code: ``.claude/settings.json``, ``.claude/settings.local.json`` and the user's
  ``settings.json``; Codex: ``hooks.json`` and ``config.toml`` in ``.codex/`` and in
  ``$CODEX_HOME``; Gemini CLI:
  ``.gemini/settings.json`` and ``~/.gemini/settings.json``), is not below the hook's own
  ``--timeout`` (:mod:`goalfile.hosttimeouts`): a host kills a hook at its timeout and lets
  the agent stop unheard. ``goalfile doctor --fix-timeouts`` brings each such hook into line;
* no other hook can let the agent stop whatever the Stop hook answers
  (:mod:`goalfile.otherhooks`): a hook that is not goalfile's at a host's stop event, in the
  project's, the user's or an administrator's settings
  (:func:`goalfile.commands.doctorchecks.settingsfiles.managed_files`), is a problem (``goalfile
  doctor --remove-other-stop-hooks`` takes those of the project's own JSON files out), one at
  another event is ``unknown``, and a switch that turns hooks off or keeps only managed ones is a
  problem; a Codex hook turned off in ``/hooks`` is reported with its trust;
* no variable a host's settings give the hook decides which ``goalfile`` it starts, how the
  host starts it, or what it does (:mod:`goalfile.hostenv`: Claude Code's ``env``, a Gemini
  CLI hook entry's ``env``; ``PATH``, Python's, a shell's, ``GOALFILE_*``, ``GIT_*``, Claude
  Code's ``CLAUDE_CODE_SHELL_PREFIX`` and its other hook and shell variables); for ``PATH`` the
  program it resolves to is named beside this goalfile. ``--fix-hooks`` takes them out of the
  project's own files; one in the ``.env`` file Gemini CLI loads is ``unknown``;
* pi: goalfile's extension ``.pi/extensions/goalfile/`` is there and is the one goalfile
  ships, the former ``.pi/extensions/goalfile.ts`` is gone (pi loads a ``.ts`` through jiti's
  file cache; an entry there that pi would run instead is named, :mod:`goalfile.jiticache`),
  the project's path lets Node import the ``.mjs`` as it is (else it goes through that cache
  too), and no other extension is loaded beside it (:mod:`goalfile.piothers`);
* the skills in ``.agents/skills/`` and ``.claude/skills/`` are installed, current and valid
  (a ``SKILL.md`` whose frontmatter names the skill and describes it);
* what `goalfile init` wrote (the hook files, the pi extension, the skills) is committed as it
  is: a clone or another worktree has only what is committed
  (:mod:`goalfile.commands.doctorchecks.committed`).

Each check is a module of :mod:`goalfile.commands.doctorchecks`; this module runs them in turn.
"""

from __future__ import annotations

from goalfile import hostjson
from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.codextrust import codex_trust_findings, trust_codex
from goalfile.commands.doctorchecks.committed import commit_all, commit_findings
from goalfile.commands.doctorchecks.finding import INIT_HOOKS, DoctorResult, Finding, Health
from goalfile.commands.doctorchecks.hookenv import (
    cap_env_findings,
    gemini_dotenv_findings,
    hook_env_findings,
)
from goalfile.commands.doctorchecks.lead import INIT, lead
from goalfile.commands.doctorchecks.otherstop import fix_other_hooks, other_hook_findings
from goalfile.commands.doctorchecks.pi import pi_findings
from goalfile.commands.doctorchecks.registration import hook_findings
from goalfile.commands.doctorchecks.shape import fix_hooks, hidden_settings_findings, shape_findings
from goalfile.commands.doctorchecks.skills import skill_findings
from goalfile.commands.doctorchecks.starthooks import start_findings
from goalfile.commands.doctorchecks.timeouts import fix_timeouts, timeout_findings
from goalfile.commands.workdir import repository_top
from goalfile.hostjson import HostAgent

__all__ = ["DoctorResult", "Finding", "Health", "doctor", "trust_codex"]


def doctor(
    *,
    ctx: Context,
    fix: bool = False,
    fix_hooks_too: bool = False,
    remove_other_stop_hooks: bool = False,
) -> DoctorResult:
    root = repository_top(ctx.cwd) or ctx.cwd
    fixed = fix_hooks(root, ctx) if fix_hooks_too else []
    fixed += fix_other_hooks(root, ctx) if remove_other_stop_hooks else []
    fixed += fix_timeouts(root, ctx) if fix else []
    findings: list[Finding] = []
    for agent in hostjson.SETTINGS:
        found, commands = hook_findings(root, agent, ctx)
        findings += found
        if agent is HostAgent.CODEX and commands:
            findings += codex_trust_findings(root, ctx)
    findings += start_findings(root, ctx)
    findings += shape_findings(root, ctx)
    findings += hidden_settings_findings(root, ctx)
    findings += other_hook_findings(root, ctx)
    findings += hook_env_findings(root, ctx)
    findings += cap_env_findings(ctx)
    findings += gemini_dotenv_findings(root, ctx)
    findings += timeout_findings(root, ctx)
    findings += pi_findings(root, ctx)
    findings += skill_findings(root, ctx)
    findings += commit_findings(root, ctx)
    from goalfile.commands.doctormcp import mcp_findings

    findings += mcp_findings(root)
    commits = [f.fix for f in findings if f.check == "commit" and f.health is Health.PROBLEM]
    first = lead(
        tuple(findings),
        commit=commits[0] if commits else None,
        commit_after={
            INIT: commit_all(root, ctx, skills=True),
            INIT_HOOKS: commit_all(root, ctx, skills=False),
        },
    )
    return DoctorResult(
        root=str(root),
        findings=tuple(findings),
        fixed=tuple(fixed),
        first=first.commands,
        covered=first.covers,
    )
