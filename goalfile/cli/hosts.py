"""Host integration commands: init, focus, doctor, skills install/list (``hook stop`` is in
goalfile.cli.hook)."""

from __future__ import annotations

import os
from typing import Any

import click

from goalfile.cli.base import boundary, context, emit_json, err, json_option, main
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name
from goalfile.words import counted

# --- init -----------------------------------------------------------------------------------


@main.command()
@click.option(
    "--slug",
    default="first-goal",
    show_default=True,
    help="Slug of the first draft goal (written only when no goal file exists yet).",
)
@click.option("--no-goal", is_flag=True, help="Do not write a first draft goal.")
@click.option("--no-skills", is_flag=True, help="Do not install the skills.")
@click.option(
    "--no-hooks",
    is_flag=True,
    help="Do not register the Stop hooks (Claude Code, Codex, Gemini CLI) or install the pi "
    "extension.",
)
@click.option(
    "--mcp",
    is_flag=True,
    help="Also register `goalfile mcp` in .mcp.json, .gemini/settings.json and "
    ".codex/config.toml (needs the optional extra `goalfile[mcp]`: `goalfile mcp` prints the "
    "command that installs it).",
)
@click.option(
    "--trust-codex",
    is_flag=True,
    help="Also trust the Codex Stop hook in $CODEX_HOME/config.toml (else ~/.codex), as "
    "Codex's /hooks screen does; Codex skips an untrusted project hook. Needs `codex` on PATH.",
)
@click.option(
    "--statusline",
    "with_statusline",
    is_flag=True,
    help="Also show the goal in Claude Code's status line: merges `goalfile statusline` "
    "into .claude/settings.json (a status line already there is kept).",
)
@json_option
@boundary
def init(
    slug: str,
    no_goal: bool,
    no_skills: bool,
    no_hooks: bool,
    mcp: bool,
    trust_codex: bool,
    with_statusline: bool,
    as_json: bool,
) -> int:
    """Set up this repository: goals/ with a draft goal, the skills in .agents/skills/ and
    .claude/skills/, the Stop hook in .claude/settings.json, .codex/hooks.json and
    .gemini/settings.json (AfterAgent), and the pi extension in .pi/extensions/goalfile/.

    Idempotent: running it again changes nothing. A settings file that is not valid JSON is
    reported (file, line, column) and left untouched (exit 3).
    """
    from goalfile.commands.init import init as run

    result = run(
        ctx=context(),
        slug=slug,
        goal=not no_goal,
        skills=not no_skills,
        hooks=not no_hooks,
        mcp=mcp,
        trust_codex=trust_codex,
    )
    line, line_error = _statusline(with_statusline)
    again = _init_again(
        slug,
        {
            "--no-goal": no_goal,
            "--no-skills": no_skills,
            "--no-hooks": no_hooks,
            "--mcp": mcp,
            "--trust-codex": trust_codex,
            "--statusline": with_statusline,
        },
    )
    for error in (*result.errors, *([line_error] if line_error is not None else [])):
        # a file to mend first: this init again is the fix, once it is mended
        if error.again is not None:
            then = f"{error.hint}, then " if error.hint else ""
            error.hint, error.again = f"{then}`{again}` {error.again}", None
        elif error.hint is not None and error.hint.endswith("then run this again"):
            error.hint = f"{error.hint.removesuffix('this again')}`{again}` again"
    if as_json:
        document = result.to_json()
        if line is not None:
            document["statusline"] = line.to_json()
        emit_json(document)
    else:
        if result.goal:
            click.echo(f"wrote {result.goal} (status: draft)")
        elif result.existing_goals and not no_goal:
            found = counted(len(result.existing_goals), "goal file")
            click.echo(f"goals: {found} found; none written")
        if result.skills is not None:
            _echo_skills(result.skills, installing=True)
        for hook in result.hooks:
            if hook.timeouts:
                for change in hook.timeouts:
                    click.echo(f"fixed {hook.path}: {change}")
            elif any(e.file == hook.path for e in result.errors):
                continue  # what is wrong there is said below
            else:
                what = "registered the Stop hook in" if hook.changed else "Stop hook already in"
                click.echo(f"{what} {hook.path}")
            if hook.start_changed:
                click.echo(f"registered the session-start hook in {hook.path}")
        if result.pi is not None:
            if result.pi.kept:
                click.echo(
                    f"{result.pi.path}: differs from the one goalfile ships; kept (`rm -r "
                    f"{shell_word(result.pi.path)} && goalfile init` installs the shipped one)"
                )
            elif result.pi.created:
                click.echo(f"installed the pi extension in {result.pi.path}")
            else:
                click.echo(f"pi extension already in {result.pi.path}")
            _echo_former_pi_extension(result.pi)
        for server in result.mcp:
            what = "registered `goalfile mcp` in" if server.changed else "`goalfile mcp` already in"
            click.echo(f"{what} {server.path}")
        for key in result.codex_trusted:
            click.echo(f"trusted the Codex hook {key}")
        if line is not None:
            if line.other is not None:
                click.echo(f"{line.path}: a status line is set already (`{line.other}`); kept")
            elif line.changed:
                click.echo(f"registered the status line in {line.path}")
            else:
                click.echo(f"status line already in {line.path}")
        changed = result.changed or (line is not None and line.changed)
        if not changed and not result.errors:
            click.echo("nothing to change")
    said: set[str] = set()  # the status line reads the settings file the hook did
    for error in (*result.errors, *([line_error] if line_error is not None else [])):
        if error.render() not in said:
            said.add(error.render())
            err(f"goalfile: {error.render()}")
    codex = [h for h in result.hooks if h.agent.value == "codex" and (h.changed or h.start_changed)]
    if codex and not trust_codex and not as_json:
        import shutil

        trusting = "or run `goalfile init --no-goal --trust-codex`"
        if shutil.which("codex", path=context().env.get("PATH")) is None:  # it would refuse
            trusting = "or, once `codex` is on PATH (it is not now), run " + trusting[7:]
        err(
            f"note: Codex skips the hooks in {codex[0].path} until you trust them: start "
            "`codex` here, open `/hooks` and trust `goalfile hook stop --agent codex` and "
            f"`goalfile hook start --agent codex`, {trusting}; `codex exec` runs it "
            "untrusted only with `--dangerously-bypass-hook-trust`. `goalfile doctor` checks it."
        )
    if result.mcp and not as_json:
        _note_mcp_support()
    if not as_json and not result.errors and _outside_git():
        from goalfile.gitrun import refused_owner

        safe = refused_owner(str(context().cwd))
        err(
            f"note: git refuses the repository at {file_name(safe)}: another user owns it "
            '(git\'s "detected dubious ownership"), so goalfile reads it as no repository and '
            "the Stop hook holds the agent until git reads it; if you trust it: "
            f"`git config --global --add safe.directory {shell_word(safe)}`"
            if safe is not None
            else "note: this folder is in no git repository: a goal's ledger is meant to be "
            "reviewed in git, and `goalfile focus` and `goalfile audit --against` need one; "
            "`git init` makes one"
        )
    if result.goal and not as_json:
        err(
            f"next: describe the goal in {result.goal} (the goal skill guides an agent through "
            f"it), then `goalfile lint {shell_word(result.goal)}` and `goalfile activate "
            f"{shell_word(result.goal)}`"
        )
    if line_error is not None:
        return max(int(result.exit_code), int(line_error.exit_code))
    return int(result.exit_code)


# --- focus ----------------------------------------------------------------------------------


@main.command()
@click.argument("path", required=False, type=click.Path())
@click.option(
    "--clear",
    is_flag=True,
    help="End the focus: the Stop hook verifies every active goal again. A goal outside "
    "goals/ that a focus named stays held until it is met or paused.",
)
@json_option
@boundary
def focus(path: str | None, clear: bool, as_json: bool) -> int:
    """Record PATH as the goal this working tree's sessions work on; without PATH, show it.

    The Stop hook then verifies the focused goal first and names only it while it holds the
    agent; once it would let the agent stop, every other active goal is verified too. The focus is
    kept in the working tree's git folder (.git/goalfile-focus.json): git does not track it and
    other worktrees have their own. A goal outside goals/ and .zetetic/goals/ that a focus names
    is held from then on until it is met or paused, also once the focus is cleared or moved.
    """
    from goalfile.commands.focus import clear_focus, set_focus, show_focus
    from goalfile.errors import UsageError

    if path is not None and clear:
        raise UsageError("give PATH or --clear, not both")
    ctx = context()
    if clear:
        result = clear_focus(ctx=ctx)
    elif path is not None:
        result = set_focus(path=path, ctx=ctx)
    else:
        result = show_focus(ctx=ctx)
    if as_json:
        emit_json(result.to_json())
    elif clear:
        click.echo("focus cleared" if result.changed else "no focus was set")
    elif result.focus is None:
        click.echo("no focus: the Stop hook verifies every active goal")
    else:
        click.echo(
            f"focus: {file_name(result.focus.goal)} ({result.status}, since {result.focus.since})"
        )
    if path is not None and result.status not in (None, "active") and not as_json:
        err(
            f"note: {file_name(result.focus.goal if result.focus else path)} is {result.status}; "
            "until it is active, the Stop hook verifies every active goal, as without a focus"
        )
    if not as_json:
        for held in result.held:
            err(
                f"note: {file_name(held)} stays held: it lies outside goals/ and a focus named it, "
                "so the Stop hook holds this working tree to it until it is met, also once the "
                "focus is cleared or moved (a person ends that with "
                f"`goalfile pause {shell_word(held)}`)"
            )
    return 0


# --- doctor ---------------------------------------------------------------------------------


@main.command()
@click.option(
    "--fix-timeouts",
    is_flag=True,
    help="First bring each goalfile Stop hook whose host timeout is below its --timeout into "
    "line: where the settings name the host's timeout, the command's --timeout becomes it; "
    "where they name none (the host's default is lower), the --timeout is written as the "
    "host's timeout. Then check as usual.",
)
@click.option(
    "--fix-hooks",
    is_flag=True,
    help="First make each goalfile Stop hook a host reads one that holds the agent: a hook "
    "whose command only holds the words `goalfile hook stop` (`> /dev/null`, `echo ...`, "
    '`exit 0; ...`, a --goal naming no file), or whose entry runs it otherwise ("async"), '
    'is taken out and the hook registered in its place; Claude Code\'s "disableAllHooks" is '
    "taken out of its settings files. Then check as usual.",
)
@click.option(
    "--remove-other-stop-hooks",
    is_flag=True,
    help="First take every Stop hook that is not goalfile's (Gemini CLI: AfterAgent) out of "
    "the project's own settings files (.claude/settings.json, .claude/settings.local.json, "
    ".codex/hooks.json, .gemini/settings.json), printing each: a host runs them beside "
    "goalfile's, and one answering {\"continue\": false} ends the session. The user's and an "
    "administrator's files, and hooks of other events, are never edited. Then check as usual.",
)
@json_option
@boundary
def doctor(
    fix_timeouts: bool, fix_hooks: bool, remove_other_stop_hooks: bool, as_json: bool
) -> int:
    """Check that each host will really hold its agent to the goal in this repository.

    For Claude Code, Codex and Gemini CLI: the hook file is there, valid, and registers
    `goalfile hook stop` in the one shape that holds the agent (`[PATH/]goalfile hook stop`
    and its own options, nothing the shell reads as more than words, no "async" entry; in
    every settings file the host reads, and no "disableAllHooks" for Claude Code; for Codex:
    once, among .codex/hooks.json, a [[hooks.Stop]] table in .codex/config.toml, and the
    user's hooks.json and config.toml, which Codex all reads); `goalfile` is on the PATH the
    host passes to its hooks; for Codex, the hook is trusted in the user's config.toml (asked
    of `codex app-server`; without `codex` on PATH:
    "cannot tell"); the time each host gives a goalfile Stop hook (in the project's and the
    user's settings) is not below the hook's own --timeout, since a host kills a hook at its
    timeout and lets the agent stop unheard. Also: the skills in .agents/skills/ and
    .claude/skills/ are current and valid. And no other hook can end the session whatever the
    Stop hook answers: a Stop hook that is not goalfile's (in the project's, the user's or an
    administrator's settings), or a switch that turns hooks off or keeps only managed ones
    (Claude Code's managed "disableAllHooks" and "allowManagedHooksOnly", Codex's
    `[features] hooks = false`, Gemini CLI's "hooksConfig"). And what `init` wrote (the hook
    files, the pi extension, the skills) is committed: a clone or another worktree has only
    what is committed. Each problem comes with the command that fixes it, or says what to
    edit by hand; when one or two commands fix most of them (in a fresh repository: `goalfile
    init --no-goal`, then the commit), the report leads with those.

    Exit 0 when nothing is wrong (an "unknown" is not wrong), 1 when something is.
    """
    from goalfile.commands.doctor import doctor as run
    from goalfile.commands.doctorchecks.text import report

    result = run(
        ctx=context(),
        fix=fix_timeouts,
        fix_hooks_too=fix_hooks,
        remove_other_stop_hooks=remove_other_stop_hooks,
    )
    if as_json:
        emit_json(result.to_json())
        return int(result.exit_code)
    for line in report(result):
        click.echo(line)
    return int(result.exit_code)


def _note_mcp_support() -> None:
    """The note that `goalfile mcp`, just registered, cannot start here: the optional MCP
    support is not installed (with the pip command that installs it beside this goalfile)."""
    import sys

    from goalfile.cli.mcp import MCP_REQUIREMENT
    from goalfile.commands.doctormcp import installed

    if installed():
        return
    err(
        "note: `goalfile mcp` needs the optional MCP support, which is not installed: the "
        "hosts cannot start the server registered above until `"
        f"{shell_word(sys.executable)} -m pip install {shell_word(MCP_REQUIREMENT)}` "
        "installs it beside this goalfile (the extra `goalfile[mcp]`)"
    )


def _outside_git() -> bool:
    from goalfile.commands.gittop import repository_top

    return repository_top(context().cwd) is None


def _init_again(slug: str, flags: dict[str, bool]) -> str:
    """The `goalfile init` command line this run was (its flags as given, on or off), to run
    again once a file is fixed."""
    words = ["goalfile", "init"]
    if slug != "first-goal" and not flags["--no-goal"]:
        words += ["--slug", shell_word(slug)]
    return " ".join(words + [flag for flag, on in flags.items() if on])


def _statusline(wanted: bool) -> tuple[Any, Any]:
    """Register `goalfile statusline` at the git top level (else here), when asked: the
    registration, or the error that left the settings file untouched."""
    if not wanted:
        return None, None
    from goalfile.commands.statusline import register
    from goalfile.commands.workdir import repository_top
    from goalfile.errors import GoalfileError

    cwd = context().cwd
    try:
        done = register(root=repository_top(cwd) or cwd)
    except GoalfileError as exc:
        return None, exc
    shown = os.path.relpath(done.path, cwd)
    return type(done)(path=shown, changed=done.changed, other=done.other), None


# --- skills ---------------------------------------------------------------------------------


@main.group(cls=click.Group)
def skills() -> None:
    """Install the goalfile skills for coding agents, and show what is installed."""


def _target_help() -> str:
    return (
        "Where: `agents` (.agents/skills/: Codex, Cursor, Gemini CLI, pi, OpenCode), "
        "`claude` (.claude/skills/), `all`, or a folder path."
    )


def _echo_former_pi_extension(pi: Any) -> None:
    """What init did with ``.pi/extensions/goalfile.ts``, the file goalfile shipped before: pi
    loads a ``.ts`` through jiti's file cache, where any process can put what pi runs."""
    if pi.former == "removed":
        click.echo(f"removed {pi.former_path}, goalfile's former pi extension")
    elif pi.former == "kept":
        click.echo(
            f"{pi.former_path}: differs from the pi extension goalfile shipped before; kept, and "
            "pi still loads it, through a cache any process can write "
            f"(`rm {shell_word(pi.former_path)}` removes it)"
        )


def _echo_skills(result: Any, *, installing: bool) -> None:
    for location in result.locations:
        user = location.scope is not None and location.scope.value == "user"
        if not installing and user and all(s.state.value == "missing" for s in location.skills):
            # the user's folders are optional (a project install serves its repository): one
            # line, not a "missing" per skill that reads like a fault
            click.echo(
                f"{location.path}: none installed (optional; `goalfile skills install --user` "
                "installs them for every repository)"
            )
            continue
        for skill in location.skills:
            what = skill.action.value if installing and skill.action else skill.state.value
            if installing and skill.action and skill.action.value == "skipped":
                what = "kept: modified locally (`goalfile skills install --force` replaces it)"
            click.echo(f"{location.path}/{skill.name}: {what}")


@skills.command("install")
@click.option(
    "--project/--user",
    "project",
    default=True,
    help="Install under the project (git top level, else here; default) or under $HOME.",
)
@click.option("--target", default="all", show_default=True, help=_target_help())
@click.option("--force", is_flag=True, help="Replace installed skills that were modified.")
@json_option
@boundary
def skills_install(project: bool, target: str, force: bool, as_json: bool) -> int:
    """Copy the shipped skills into the agents' skills folders; idempotent.

    A skill changed after installation is kept unless --force is given.
    """
    from goalfile.commands.skills import Scope, install

    scope = Scope.PROJECT if project else Scope.USER
    result = install(ctx=context(), scope=scope, target=target, force=force)
    if as_json:
        emit_json(result.to_json())
    else:
        _echo_skills(result, installing=True)
    for path, name in result.skipped:
        err(f"goalfile: {path}/{name} was modified after installation; kept (use --force)")
    return 0


@skills.command("list")
@click.option(
    "--project/--user",
    "project",
    default=None,
    help="Only the project's or only the user's skills (default: both).",
)
@click.option("--target", default="all", show_default=True, help=_target_help())
@json_option
@boundary
def skills_list(project: bool | None, target: str, as_json: bool) -> int:
    """Show each installed skill and whether it is current, outdated, modified or missing."""
    from goalfile.commands.skills import Scope, list_skills

    scopes = (
        (Scope.PROJECT, Scope.USER)
        if project is None
        else ((Scope.PROJECT,) if project else (Scope.USER,))
    )
    result = list_skills(ctx=context(), scopes=scopes, target=target)
    if as_json:
        emit_json(result.to_json())
    else:
        _echo_skills(result, installing=False)
        _next_install(result, target=target, user=project is False)
    return 0


def _next_install(result: Any, *, target: str, user: bool) -> None:
    """The install command for what `skills list` found missing, outdated or modified (the
    user's folders only when --user asked for them: most install under the project)."""
    states = {
        skill.state.value
        for location in result.locations
        if user or location.scope is None or location.scope.value != "user"
        for skill in location.skills
    }
    command = ["goalfile", "skills", "install"]
    if user:
        command.append("--user")
    if target != "all":
        from goalfile.shellword import shell_word

        command += ["--target", shell_word(target)]
    if states & {"missing", "outdated"}:
        err(f"next: `{' '.join(command)}` installs what is missing or outdated")
    if "modified" in states:
        err(f"next: `{' '.join([*command, '--force'])}` also replaces what was modified")
