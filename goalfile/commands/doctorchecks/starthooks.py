"""Is goalfile's session-start hook (:mod:`goalfile.starthook`) registered for each host with
hook settings? Without it the session's first stop has no record to compare with, and a branch
moved before it (criteria loosened, re-approved and committed; a commit set as the branch by
hand) is taken as the person's (docs/trust.md, "A branch moved before a session's first stop").
"""

from __future__ import annotations

from pathlib import Path

from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import INIT_HOOKS, Check, Finding
from goalfile.commands.doctorchecks.settingsfiles import load_settings, settings_files, shown_from
from goalfile.errors import GoalfileError
from goalfile.hostprotocol import HostAgent
from goalfile.starthook import START_EVENT, sound_start


def start_findings(root: Path, ctx: Context) -> list[Finding]:
    """One finding per host: ``ok`` naming the file that registers the start hook, else a
    problem whose fix registers it (`goalfile init` adds it beside the Stop hook); none for a
    host whose project settings file is not there or cannot be read (the Stop hook's finding
    says so, with its fix)."""
    found: list[Finding] = []
    for agent in START_EVENT:
        check = Check(agent.value, "start")
        where = _registered_in(root, agent, ctx)
        if where is not None:
            found.append(check.ok(detail=f"{START_EVENT[agent]} hook in {where}"))
            continue
        files = settings_files(root, agent, ctx.env)
        project = files[0]
        elsewhere = _stop_elsewhere(files[1:], agent) if agent is HostAgent.CODEX else None
        if elsewhere is not None and not project.exists():
            # `goalfile init` adds no .codex/hooks.json beside a Stop hook declared there, and
            # writes the start hook into that file instead
            named = shown_from(elsewhere, ctx)
            found.append(
                check.problem(
                    detail=f"{named} declares the Stop hook and no file Codex reads registers "
                    f"`goalfile hook start` under SessionStart: Codex {_UNRECORDED}",
                    fix=INIT_HOOKS,
                )
            )
            continue
        if not project.exists() or not _readable(project):  # the Stop hook's finding names
            continue  # the file, with this fix or what to mend by hand
        shown = shown_from(project, ctx)
        found.append(
            check.problem(
                detail=f"{shown} registers no `goalfile hook start` under "
                f"{START_EVENT[agent]}: {_NAME[agent]} {_UNRECORDED}",
                fix=INIT_HOOKS,
            )
        )
    return found


_UNRECORDED = (
    "takes no record at a session's start, so its first stop compares with nothing (a branch "
    "moved before it, criteria loosened and committed, is taken as the person's)"
)
_NAME = {HostAgent.CLAUDE: "Claude Code", HostAgent.CODEX: "Codex", HostAgent.GEMINI: "Gemini CLI"}


def _registered_in(root: Path, agent: HostAgent, ctx: Context) -> str | None:
    """The first settings file the host reads hooks from that registers the start hook."""
    for path in settings_files(root, agent, ctx.env):
        try:
            document, text = load_settings(path)
        except GoalfileError:  # named by the Stop hook's findings
            continue
        if text is not None and sound_start(document, agent):
            return shown_from(path, ctx)
    return None


def _readable(path: Path) -> bool:
    try:
        load_settings(path)
    except GoalfileError:
        return False
    return True


def _stop_elsewhere(files: list[Path], agent: HostAgent) -> Path | None:
    """The first of ``files`` (Codex's other hook files) that declares goalfile's Stop hook."""
    from goalfile.hookentries import hook_entries
    from goalfile.hostjson import EVENT, is_ours

    for path in files:
        try:
            document, text = load_settings(path)
        except GoalfileError:
            continue
        if text is not None and any(
            is_ours(hook.command) for hook in hook_entries(document, EVENT[agent])
        ):
            return path
    return None
