"""The command group, the JSON option, and the one error boundary.

:func:`boundary` is the one place that turns a :class:`~goalfile.errors.GoalfileError` into a
message and an exit code.
"""

from __future__ import annotations

import functools
import json
import math
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from goalfile import __version__
from goalfile.errors import (
    NOTED_SIGNALS,
    GoalfileError,
    Terminated,
    UsageError,
    interrupt_message,
    interrupted,
)
from goalfile.termsafe import file_name

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CODES_HELP = (
    "Exit codes: 0 met/success, 1 active with unmet rows, 2 usage error, 3 refused or invalid "
    "goal file (file untouched), 4 blocked, 5 exhausted, 130 interrupted (Ctrl-C), 143 "
    "terminated (SIGTERM)."
)

if TYPE_CHECKING:
    from pathlib import Path


class Seconds(click.FloatRange):
    """A number of seconds within a range, and finite: `nan` passes every comparison of a
    range, and `inf` or `nan` as a time limit is no limit at all (or a traceback below)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds.", param, ctx)
        return number


def emit_json(document: dict[str, object]) -> None:
    """The one JSON document of a command on stdout, as UTF-8 whatever the text in it: a byte
    of a name that is not UTF-8 (kept as a lone surrogate) is written as its ``\\udcXX``
    escape, which a JSON reader takes back as that character, not as a raw byte that is no
    UTF-8 (or, on a strict stdout, a traceback)."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    if not text.isascii():
        import re

        text = re.sub("[\ud800-\udfff]", lambda found: f"\\u{ord(found.group()):04x}", text)
    click.echo(text)


def err(message: str, fix: str | None = None) -> None:
    """``message`` on stderr, with its ``fix`` line under it in the same write: a host that
    reads stdout and stderr from two pipes (Codex's tool output) shows them in the order they
    arrive, and a line of stdout came between a warning and its fix."""
    text = message if not fix else f"{message}\n  fix: {fix}"
    if "$'" in text and any(
        line.lstrip().startswith(("fix: ", "next: ")) and "$'" in line for line in text.splitlines()
    ):  # a name with a control character or a byte that is not UTF-8 (shellword.shell_word)
        text += f"\n  {ANSI_C_SHELLS}"
    click.echo(text, err=True)


ANSI_C_SHELLS = "shell: run it in bash, zsh or ksh; sh and dash do not read `$'...'` quotes"
"""The line under a printed fix or next step that names a file in ANSI-C quotes: the only
one-line form of such a name without a command substitution, which POSIX sh lacks."""


def _tolerant_output() -> None:
    """Text from a goal file may hold bytes that are not UTF-8 (kept as surrogates so they
    survive a rewrite); printing them must not fail, whatever the terminal's encoding."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    from goalfile.termsafe import wrap_standard_streams

    wrap_standard_streams()  # text from a goal file never drives the terminal


def boundary(func: F) -> F:
    """Run a command; errors become a message on stderr (and a JSON document) and an exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        _tolerant_output()
        previous = signal.getsignal(signal.SIGTERM)
        previous_int = signal.getsignal(signal.SIGINT)

        def on_term(signum: int, frame: object) -> None:
            raise Terminated

        # A handler's exception that lands in code Python runs on the side (a weakref callback
        # of the import system, a __del__) is printed as "Exception ignored" and lost, and the
        # command would go on to its normal end: kept here, and honoured when it returns.
        swallowed: list[KeyboardInterrupt] = []
        previous_hook = sys.unraisablehook

        def on_unraisable(unraisable: Any) -> None:
            if isinstance(unraisable.exc_value, KeyboardInterrupt):
                swallowed.append(unraisable.exc_value)
            else:
                previous_hook(unraisable)

        sys.unraisablehook = on_unraisable
        try:
            # Installed inside the try: `signal.signal` runs a handler for a signal that is
            # already pending before it returns, and the first one installed may then raise.
            signal.signal(signal.SIGTERM, on_term)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            if NOTED_SIGNALS:  # came while goalfile was starting: honoured now
                raise Terminated if NOTED_SIGNALS[0] == signal.SIGTERM else KeyboardInterrupt
            code = func(*args, **kwargs)
            if swallowed:
                raise swallowed[0]
        except GoalfileError as exc:
            name_the_meant_file(exc)
            wait_longer(exc)
            err(f"goalfile: {exc.render()}")
            if as_json:
                emit_json({"schema_version": 1, "error": exc.to_json()})
            sys.exit(int(exc.exit_code))
        except KeyboardInterrupt as exc:
            _exit_interrupted(exc, as_json=as_json)
        except Exception as exc:
            # An interrupt raised inside a lazy import can come back wrapped (a class body's
            # __set_name__ turns it into a RuntimeError): it is still an interrupt, not a bug.
            cause = _interrupt_in_chain(exc)
            if cause is None:
                raise
            _exit_interrupted(cause, as_json=as_json)
        finally:
            late = _restore_handlers(previous, previous_int)
            sys.unraisablehook = previous_hook
        if late is not None:  # came after the command's last step, while its handlers were put back
            _exit_interrupted(late, as_json=as_json)
        sys.exit(int(code or 0))

    return wrapper  # type: ignore[return-value]


GUESS_IS_SAFE = frozenset({"lint", "status", "log", "audit", "verify"})
"""Commands that may be pointed at a goal file whose name is only close to the one typed: they
read it, or (verify) record only what its checks do, and decide nothing for a person."""


_WORDS = "goalfile.words"  # the key of the group's words in click's shared ctx.meta


def typed_words(ctx: click.Context | None = None) -> list[str]:
    """The words after `goalfile` on this run's command line, as the group was given them
    (``ctx``, else the current context): a run in-process (``main(ARGS)``, click's CliRunner)
    has them there and not in ``sys.argv``, which is read only where no context records them.
    The fixes that repeat the command line, and the --json of a usage error, read these."""
    ctx = ctx if ctx is not None else click.get_current_context(silent=True)
    words = ctx.meta.get(_WORDS) if ctx is not None else None
    return list(words) if isinstance(words, list) else sys.argv[1:]


def name_the_meant_file(exc: GoalfileError) -> None:
    """A word of the command line that cannot be right (a goal file that is not there, a slug
    in capitals), where the user most likely meant another: the fix becomes this very command
    line with that word in its place, so it works as written (``goalfile verify
    goals/auth.md`` for ``goalfile verify auth``). A goal file whose name is only close to
    the one given may be another goal: it becomes the fix only of a command that records no
    decision (:data:`GUESS_IS_SAFE`); any other keeps its "did you mean" hint, with nothing to
    run, so no budget, approval or verdict lands on a goal nobody named."""
    from goalfile.errors import MeantOther, NoSuchGoalFile

    if not isinstance(exc, MeantOther) or exc.instead is None:
        return
    if isinstance(exc, NoSuchGoalFile) and exc.guessed:
        ctx = click.get_current_context(silent=True)
        if ctx is None or ctx.info_name not in GUESS_IS_SAFE:
            return
    words = typed_words()
    given, instead = exc.given, exc.instead

    def meant(word: str) -> str:  # the word itself, or a long option's `--name=` value
        if word == given:
            return instead
        name, equals, value = word.partition("=")
        return f"{name}={instead}" if equals and word.startswith("--") and value == given else word

    if sum(meant(word) != word for word in words) != 1:
        return
    from goalfile.shellword import shell_word

    line = ["goalfile", *(meant(word) for word in words)]
    exc.hint = "`" + " ".join(shell_word(word) for word in line) + "`" + exc.why


def without_option(words: list[str], name: str) -> list[str]:
    """``words`` (a command line after `goalfile`) without the option ``name`` and its value
    (``--name VALUE`` or ``--name=VALUE``), before a ``--``."""
    end = words.index("--") if "--" in words else len(words)
    kept: list[str] = []
    options = iter(words[:end])
    for word in options:
        if word == name:
            next(options, None)  # its value
        elif not word.startswith(f"{name}="):
            kept.append(word)
    return [*kept, *words[end:]]


def wait_longer(exc: GoalfileError) -> None:
    """An error whose fix is this very command line (``exc.again``: once what has changed), as
    typed, which then works as written: a goal another goalfile process held for all of the
    wait, a file that grew while it was read; after the command ``exc.hint`` names, when it
    names one (a folder made writable). Verify's, kept out by a lock, is its command line
    with a --lock-wait long enough to wait for the other (``--lock-wait 1200`` for the default
    600)."""
    from goalfile.errors import Locked

    ctx = click.get_current_context(silent=True)
    if exc.again is None or ctx is None:
        return
    from goalfile.shellword import shell_word

    words = typed_words()
    if not isinstance(exc, Locked) or ctx.info_name != "verify":
        line = " ".join(shell_word(word) for word in ["goalfile", *words])
        again = f"`{line}` {exc.again}".rstrip()
        exc.hint = f"{exc.hint}, then {again}" if exc.hint else again  # the hint's step first
        return
    raised = f"{max(2 * exc.wait, exc.wait + 600):g}"
    end = words.index("--") if "--" in words else len(words)
    kept = without_option(words[:end], "--lock-wait")  # the options before `--`
    typed = ["goalfile", *kept, "--lock-wait", raised, *words[end:]]
    exc.hint = "`" + " ".join(shell_word(word) for word in typed) + "` waits longer for it"


def _restore_handlers(term: Any, interrupt: Any) -> KeyboardInterrupt | None:
    """Put back the handlers the command replaced. A signal that landed after the command's
    last step is run by `signal.signal` itself, with the command's handler, which raises: it is
    returned, and the handlers are put back all the same. None when no signal came."""
    late: KeyboardInterrupt | None = None
    while True:
        try:
            signal.signal(signal.SIGTERM, term)
            signal.signal(signal.SIGINT, interrupt)
        except KeyboardInterrupt as exc:
            late = late or exc
            continue
        return late


def _interrupt_in_chain(exc: BaseException) -> KeyboardInterrupt | None:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _exit_interrupted(exc: KeyboardInterrupt, *, as_json: bool) -> NoReturn:
    error = interrupted(exc, interrupt_message())
    err(f"goalfile: {error.render()}")
    if as_json:
        emit_json({"schema_version": 1, "error": error.to_json()})
    sys.exit(int(error.exit_code))


def context() -> Any:
    from goalfile.commands.context import Context

    try:
        return Context.from_process(notify=err)
    except FileNotFoundError:  # the shell's folder deleted: os.getcwd() has no answer
        raise UsageError(
            "the current folder is gone (deleted while the shell was in it); nothing was read",
            hint='`cd ..`, or `cd -- "$PWD"` once the folder is made again',
        ) from None


json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON document (schema_version 1)."
)


def in_project_option(*, approved: bool) -> Callable[[F], F]:
    """``--in-project``, with the help of the commands that run checks (``approved``) or not."""
    also = (
        ", or one whose criteria no approval entry committed at HEAD records (activate, then "
        "commit)"
        if approved
        else ""
    )
    return click.option(
        "--in-project",
        "in_project_flag",
        is_flag=True,
        help="Refuse a goal file that is not one of this project's (under goals/ or "
        f".zetetic/goals/ of the repository, as `goalfile status` lists them){also}. The MCP "
        "and pi tools pass it.",
    )


def in_project(paths: tuple[str, ...] | list[str], wanted: bool, *, approved: bool = False) -> None:
    """With ``--in-project``, refuse every path that is not a goal file of this project; with
    ``approved`` too (the commands that run checks), one no person approved with activate."""
    if not wanted:
        return
    from goalfile.commands.focus import project_goal

    ctx = context()
    for path in paths:
        project_goal(path=path, ctx=ctx)
        if approved:
            from goalfile.commands.focus import committed_copy
            from goalfile.contract import require_approval, require_committed_approval
            from goalfile.files import load_goal

            goal = load_goal(path)
            require_approval(goal)
            committed, shown = committed_copy(path=path, ctx=ctx)
            require_committed_approval(goal, committed, shown=shown)


def _json_usage_error(exc: click.UsageError) -> None:
    """click prints the usage and the error on stderr and exits 2; a program that asked for
    --json gets its one JSON document on stdout too, as for every other error."""
    if "--json" not in typed_words(exc.ctx):
        return
    names: list[str] = []
    at = exc.ctx
    while at is not None and at.parent is not None:  # the root is goalfile
        names.insert(0, at.info_name or "")
        at = at.parent
    where = " ".join(["goalfile", *names])
    emit_json(
        {
            "schema_version": 1,
            "error": {
                "message": exc.format_message(),
                "file": None,
                "line": None,
                "column": None,
                "hint": f"`{where} --help`",
                "exit_code": exc.exit_code,
            },
        }
    )


def _every_missing_option(exc: click.UsageError) -> click.UsageError | None:
    """click names one missing required option at a time (`block` said `Missing option
    '--reason'`, then, once given, `Missing option '--tried'`): an error naming each required
    option of the command that the command line does not give, when more than one is missing;
    None otherwise."""
    if not isinstance(exc, click.MissingParameter) or exc.ctx is None:
        return None
    given = [arg.split("=", 1)[0] for arg in typed_words(exc.ctx)]
    missing = [
        param.opts[0]
        for param in exc.ctx.command.params
        if isinstance(param, click.Option)
        and param.required
        and not any(opt in given for opt in (*param.opts, *param.secondary_opts))
    ]
    if len(missing) < 2:
        return None
    named = ", ".join(f"'{opt}'" for opt in missing[:-1]) + f" and '{missing[-1]}'"
    return click.UsageError(f"Missing options {named}.", ctx=exc.ctx)


class _Group(click.Group):
    """The ``goalfile`` group. Its commands are registered by the modules of this package,
    each imported when one of its commands is asked for (a run imports only the module of the
    command it runs); listing them imports all of them."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            _register(cmd_name)
        command = super().get_command(ctx, cmd_name)
        if command is not None and command.short_help is None:
            command.short_help = SUMMARIES.get(cmd_name)
        if command is not None:
            _add_examples(command, cmd_name)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as exc:
            meant = MEANT.get(args[0]) if args else None
            if meant is None:
                raise
            said = " or ".join(f"{name!r} ({_what(name)})" for name in meant)
            raise click.exceptions.NoSuchCommand(
                args[0], message=f"No such command {args[0]!r}. Did you mean {said}?", ctx=ctx
            ) from exc

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            every = _every_missing_option(exc)
            if every is not None:
                _json_usage_error(every)
                raise every from None
            _json_usage_error(exc)
            raise

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_WORDS] = list(args)  # for typed_words
        try:  # the group's own options: `goalfile --json status` is a wrong command line too
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            _json_usage_error(exc)
            raise

    def list_commands(self, ctx: click.Context) -> list[str]:
        _register(None)
        # the life of a goal: by module as MODULES lists them, then in the order each module
        # added its commands (whichever module a run happened to import first)
        return sorted(self.commands, key=lambda name: _rank(self.commands[name]))


def _rank(command: click.Command) -> int:
    module = module_of(command)
    return MODULES.index(module) if module in MODULES else len(MODULES)


def module_of(command: click.Command) -> str:
    """The module of this package that defines ``command`` (``core``, ``hosts``...)."""
    module = getattr(command.callback, "__module__", None) or ""
    return module.rpartition(".")[2]


SUMMARIES = {
    "new": "Write goals/SLUG.md: a draft, or active with --activate",
    "lint": "Check goal files against every rule of the format",
    "activate": "Approve a draft: make it active and pin its contract",
    "verify": "Run every check, judge each row, append the ledger entry",
    "status": "Show where each goal stands, with its next step",
    "plan": "Check the plan serves every criterion; use an iteration",
    "review": "Record a review of a review row, quoting its artifact",
    "refine": "Append a backlog: one item per row not met",
    "block": "Mark the goal blocked by an external dependency",
    "resume": "Reopen a paused goal, or a blocked one with --resolved",
    "reopen": "Set a met, blocked, exhausted or paused goal back to active",
    "pause": "Pause an active goal until `goalfile resume`",
    "impossible": "Mark a criterion impossible: the goal can never be met",
    "budget": "Raise a goal's iteration or token limits (a person only)",
    "audit": "Check each goal's status is backed by its ledger (for CI)",
    "restore": "Put back the ledger entries git holds; keep those since",
    "init": "Set up goals/, the skills and the Stop hooks in a repository",
    "focus": "Make PATH the goal the Stop hook holds this working tree to",
    "doctor": "Check that each host will really hold its agent to the goal",
    "skills": "Install the agent skills, and show what is installed",
    "hook": "Entry points for the hosts' hooks (the Stop hook)",
    "mcp": "Serve goalfile's goal tools to MCP clients over stdio",
    "completion": "Print the shell completion script (bash, zsh or fish)",
    "log": "Show each goal's history as a grid of verify runs",
    "statusline": "Claude Code's status line for this working tree's goal",
}
"""Each command's line in `goalfile --help`: whole, where click would cut the first sentence of
its help to fit ("Write the goal file goals/SLUG.md, a draft unless...")."""


EXAMPLES = {
    "lint": ("goalfile lint", "goalfile lint goals/auth.md --fix", "goalfile lint --json goals"),
    "activate": (
        "goalfile activate goals/auth.md",
        'goalfile activate --reapprove goals/auth.md --reason "C2 also runs the slow tests"',
    ),
    "verify": (
        "goalfile verify goals/auth.md",
        "goalfile verify --no-write",
        "goalfile verify goals/auth.md --json",
    ),
    "status": ("goalfile status", "goalfile status goals/auth.md --json"),
    "plan": ("goalfile plan goals/auth.md",),
    "review": (
        "goalfile review goals/auth.md R1 --artifact docs/auth.md --verdict met "
        '--quote "tokens are rotated on every use"',
    ),
    "refine": ('goalfile refine goals/auth.md --lesson "the fixtures need a database"',),
    "block": (
        'goalfile block goals/auth.md --reason "the staging database is down" '
        '--tried "a local database: the tests need staging data"',
    ),
    "resume": (
        "goalfile resume goals/auth.md",
        'goalfile resume goals/auth.md --resolved "the staging database is up"',
    ),
    "reopen": ('goalfile reopen goals/auth.md --reason "C3 was added"',),
    "pause": ('goalfile pause goals/auth.md --reason "back on Monday"',),
    "impossible": ('goalfile impossible goals/auth.md C2 --reason "the API was removed"',),
    "budget": ("goalfile budget goals/auth.md --iterations 10",),
    "audit": ("goalfile audit", "goalfile audit --against origin/main --format markdown"),
    "restore": ("goalfile restore goals/auth.md",),
    "init": ("goalfile init", "goalfile init --mcp --statusline"),
    "focus": ("goalfile focus goals/auth.md", "goalfile focus", "goalfile focus --clear"),
    "doctor": ("goalfile doctor", "goalfile doctor --fix-hooks"),
    "skills": ("goalfile skills list", "goalfile skills install --project"),
    "skills install": ("goalfile skills install", "goalfile skills install --project --force"),
    "skills list": ("goalfile skills list --project --json",),
    "hook": ("goalfile hook stop --agent claude --timeout 600",),
    "hook stop": ("goalfile hook stop --agent codex --timeout 600",),
    "hook start": ("goalfile hook start --agent claude",),
    "mcp": ("goalfile mcp",),
    "completion": (
        "goalfile completion bash >> ~/.bashrc",
        "goalfile completion fish > ~/.config/fish/completions/goalfile.fish",
    ),
    "log": ("goalfile log", "goalfile log goals/auth.md --json"),
    "statusline": ("goalfile statusline",),
}
"""Command lines shown under each command's help (`new` shows its own in its text): each one
runs as written in a project with goals/auth.md (tests/test_cli_help.py parses every one)."""


def _add_examples(command: click.Command, name: str) -> None:
    """Put ``name``'s examples (and its subcommands') under its help, before an epilog."""
    for sub, shown in [(command, name)] + [
        (each, f"{name} {key}") for key, each in getattr(command, "commands", {}).items()
    ]:
        lines = EXAMPLES.get(shown)
        if lines and not (sub.epilog or "").startswith("\b\nExamples:"):
            examples = "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)
            sub.epilog = examples + (f"\n\n{sub.epilog}" if sub.epilog else "")


def _what(name: str) -> str:
    """What command ``name`` does, as a clause: its summary up to a colon, the first letter
    in lower case ("write goals/SLUG.md")."""
    text = SUMMARIES[name].split(":")[0]
    return text[:1].lower() + text[1:]


MEANT = {
    "check": ("verify", "lint"),
    "run": ("verify",),
    "test": ("verify",),
    "show": ("status",),
    "list": ("status",),
    "ls": ("status",),
    "create": ("new",),
    "add": ("new",),
    "approve": ("activate",),
    "history": ("log",),
}
"""Verbs a person new to goalfile reaches for, and the commands that do what they mean: named
when such a word is given as a command (click's own guess goes by spelling only)."""

MODULES = ("core", "lifecycle", "trust", "hosts", "hook", "mcp", "views")
"""The modules of this package that register commands, in the order of the commands' list."""


def _register(name: str | None) -> None:
    """Import the module that registers command ``name`` (every such module for None, or for a
    name the table of goalfile.cli.helptext does not know)."""
    from goalfile.cli.helptext import COMMANDS

    # __import__, as an import statement does (importlib.import_module would leave the module
    # out of Python's import-time log, which tests read)
    module = dict(COMMANDS).get(name) if name is not None else None
    if module is not None:
        __import__(f"goalfile.cli.{module}")
        if name in main.commands:
            return
    for module in MODULES:
        __import__(f"goalfile.cli.{module}")


@click.group(
    cls=_Group, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES_HELP
)
@click.version_option(__version__, "--version", prog_name="goalfile")
def main() -> None:
    """Goal files whose acceptance checks really run.

    A goal is a Markdown file: frontmatter with status and budget, one end state, non-goals,
    and a table of acceptance criteria, each a shell check with an expected result. `verify`
    runs every check as a real process and appends the verdicts to the file's ledger.
    """


def stage_active(path: str, *, approved: bool = False) -> None:
    """Say on stderr how the goal at ``path``, just made active (or its contract ``approved``),
    was put in git's index (see :mod:`goalfile.commands.staging`); nothing when git already
    tracks it and nothing was approved."""
    from goalfile.commands.staging import stage_active as stage

    said = stage(path, cwd=context().cwd, approved=approved)
    if said is not None:
        err(said)


def commit_top(path: str) -> Path:
    """The top of the git repository that holds the goal at ``path``, which `--commit` needs:
    asked before anything is written, so that a refusal leaves the goal as it was."""
    import os
    from pathlib import Path

    from goalfile.commands.gittop import repository_top

    folder = Path(os.path.realpath(context().cwd / path)).parent
    while not folder.is_dir() and folder != folder.parent:  # `new` makes goals/ itself
        folder = folder.parent
    top = repository_top(folder)
    if top is None:
        raise UsageError(
            f"{file_name(path)} is in no git repository; --commit commits it in one, and nothing "
            "was written",
            hint="git init",
        )
    return top


def commit_active(path: str, *, text: str, slug: str, top: Path) -> str:
    """Commit the goal at ``path`` as approved (``text``, as activate wrote it: see
    :mod:`goalfile.approvalcommit`), say so on stderr and return the commit; when git cannot,
    stage it as the commands without --commit do, and raise."""
    from goalfile.approvalcommit import commit_approved

    try:
        done = commit_approved(
            path=str(context().cwd / path), text=text, top=top, message=f"goal: {slug}"
        )
    except UsageError:
        stage_active(path, approved=True)
        raise
    err(done.said())
    return done.commit
