"""The core commands: new, lint, activate, verify, status."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from goalfile.cli.base import (
    Seconds,
    boundary,
    commit_active,
    commit_top,
    context,
    emit_json,
    err,
    in_project,
    in_project_option,
    json_option,
    main,
    name_the_meant_file,
    stage_active,
    typed_words,
)
from goalfile.errors import UsageError
from goalfile.model import BUDGET_LIMIT_MAX
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name
from goalfile.words import counted

if TYPE_CHECKING:
    from goalfile.commands.verify import VerifyResult

# --- new ----------------------------------------------------------------------------------

_COMMIT_HELP = (
    "Commit the goal as approved, on top of HEAD, at once: the bytes activate wrote and "
    "listed, not what the working tree holds by the time a person types `git commit` (an "
    "agent running meanwhile could have put its own goal there). Runs no commit hooks."
)


def _seconds(value: str | None) -> float | None:
    """The `--timeout` of `new`: a positive, finite number of seconds (`90`, `1.5`, `90s`)."""
    import math

    from goalfile.errors import MeantOther

    if value is None:
        return None
    try:
        seconds = float(value.strip().removesuffix("s"))
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise MeantOther(
            f"--timeout {value!r} is not a positive number of seconds; nothing was written",
            given=value,
            instead="600",
            hint="",  # the command line with `--timeout 600` (the CLI boundary writes it)
        )
    return seconds


def _by_check(checks: Sequence[str], expected: Sequence[str]) -> list[str | None] | None:
    """The --expected that follows each --check on the command line as typed (before the
    next --check), None for a --check followed by none: `--check A --check B --expected X`
    is A with none, B with X, as `--help` says each pairs. None when an --expected comes
    before any --check (the rows pair by count then: `--expected X --check A` is A with X, and
    build_rows refuses counts that differ), or the line cannot be read so. With as
    many --expected as --check, one that follows another (`--check A --expected X --expected
    Y --check B`) is refused: read in turn, Y was B's expected result, which B never had."""
    words, at = typed_words(), 0
    pairs: list[str | None] = []
    values: list[str] = []
    misplaced: str | None = None
    while at < len(words):
        word = words[at]
        if word == "--":
            break
        name, equals, value = word.partition("=")
        if name not in ("--check", "--expected"):
            at += 1
            continue
        if not equals:
            if at + 1 >= len(words):
                return None
            value = words[at + 1]
        at += 1 if equals else 2
        if name == "--check":
            pairs.append(None)
            continue
        if not pairs:  # before any --check: the rows pair by count (`--expected X --check A`)
            return None
        values.append(value)
        if pairs[-1] is not None:  # after another --expected
            misplaced = value if misplaced is None else misplaced
        else:
            pairs[-1] = value
    if len(pairs) != len(checks) or values != list(expected):
        return None  # not the line this run was given
    if misplaced is None:
        return pairs
    if len(checks) != len(expected):
        return None
    from goalfile.commands.new import NEW_HELP

    raise UsageError(
        f"--expected {shell_word(misplaced)} follows another --expected: each "
        "--expected belongs to the --check it follows, and describes its passing run (a "
        "--check without one is left to fill in); nothing was written",
        hint=NEW_HELP,
    )


def _as_draft() -> str:
    """This very `goalfile new` command line without --activate and --commit: the fix when
    --activate lacks a part, which writes the draft with `FILL IN:` there, as written."""
    words = [word for word in typed_words() if word not in ("--activate", "--commit")]
    return "`" + " ".join(shell_word(word) for word in ["goalfile", *words]) + "`"


def _limit(value: str | None) -> int | None:
    if value is None or value.lower() in ("null", "none", "unbounded"):
        return None
    try:
        number = int(value.replace("_", ""))
    except ValueError:
        raise UsageError(f"{value!r} is not a whole number or `null`") from None
    if number <= 0:
        raise UsageError(f"{value!r}: a budget must be positive, or `null` for unbounded")
    if number > BUDGET_LIMIT_MAX:
        raise UsageError(
            f"{value!r}: a budget is at most {BUDGET_LIMIT_MAX} (18 digits, the most a ledger "
            "entry records), or `null` for unbounded"
        )
    return number


@main.command()
@click.argument("slug")
@click.argument("end_state_arg", metavar="[END_STATE]", required=False)
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False),
    help="Folder for the goal file (default: goals/ of the git top level, else of the "
    "current folder).",
)
@click.option(
    "--end-state", help="The one measurable end state (the `# Goal:` heading); or END_STATE."
)
@click.option(
    "--check",
    "checks",
    multiple=True,
    metavar="CMD",
    help="A check command (rows C1, C2, ...); repeat, each followed by its --expected.",
)
@click.option(
    "--expected",
    "expected",
    multiple=True,
    metavar="TEXT",
    help="What a passing run of the --check before it looks like, e.g. 'exit 0'.",
)
@click.option(
    "--criterion",
    "criteria",
    multiple=True,
    help="What the --check at the same place asserts (default: its command); repeat.",
)
@click.option(
    "--review",
    "reviews",
    multiple=True,
    metavar="PATH=WHAT",
    help="A review row (R1, R2, ...): the artifact a reviewer reads and what it must show; repeat.",
)
@click.option(
    "--non-goal", "non_goals", multiple=True, help="Something that must stay unchanged; repeat."
)
@click.option(
    "--iterations",
    default="5",
    show_default=True,
    help="Iteration budget, or `null` for unbounded.",
)
@click.option(
    "--tokens", default="null", show_default=True, help="Token budget, or `null` for unbounded."
)
@click.option(
    "--timeout",
    metavar="SECONDS",
    help="Seconds each check may run (the frontmatter `timeout`); a check still running then "
    "is ended and its row is `error`. Default: no limit.",
)
@click.option(
    "--activate",
    "activate_now",
    is_flag=True,
    help="Activate the goal at once (its contract pinned); refused, with nothing written, "
    "when the end state or a check is missing.",
)
@click.option("--commit", "commit_now", is_flag=True, help=f"With --activate: c{_COMMIT_HELP[1:]}")
@json_option
@boundary
def new(
    slug: str,
    end_state_arg: str | None,
    directory: str | None,
    end_state: str | None,
    checks: tuple[str, ...],
    expected: tuple[str, ...],
    criteria: tuple[str, ...],
    reviews: tuple[str, ...],
    non_goals: tuple[str, ...],
    iterations: str,
    tokens: str,
    timeout: str | None,
    activate_now: bool,
    commit_now: bool,
    as_json: bool,
) -> int:
    """Write the goal file goals/SLUG.md, a draft unless --activate; never overwrites.

    \b
    goalfile new auth "pytest tests/auth passes" \\
      --check "pytest tests/auth -q" --expected 'exit 0; stdout contains "passed"' \\
      --check "ruff check ." --expected "exit 0" --non-goal "tests/fixtures stay" --activate

    Whatever the options do not give is written as `FILL IN: ...`: lint warns about it in a
    draft, and activate refuses it.
    """
    from goalfile.commands.new import build_rows, new_goal

    if end_state_arg is not None and end_state is not None and end_state_arg != end_state:
        raise UsageError(
            "END_STATE and --end-state differ; give the end state once",
            hint=f'goalfile new {shell_word(slug)} "END STATE"',
        )
    if commit_now and not activate_now:
        raise UsageError(
            "--commit commits an approved goal; it goes with --activate",
            hint=f'goalfile new {shell_word(slug)} "END STATE" --check CMD --expected TEXT '
            "--activate --commit",
        )
    folder = directory if directory is not None else "goals"
    top = commit_top(f"{folder}/{slug}.md") if commit_now else None
    seconds = _seconds(timeout)
    paired: Sequence[str | None] = expected
    if checks and len(checks) >= len(expected):  # a --check given no --expected: FILL IN there
        paired = _by_check(checks, expected) or expected
    rows = build_rows(checks=checks, expected=paired, criteria=criteria, reviews=reviews)
    result = new_goal(
        slug=slug,
        directory=directory,
        ctx=context(),
        end_state=end_state_arg if end_state_arg is not None else end_state,
        iterations=_limit(iterations),
        tokens=_limit(tokens),
        timeout=seconds,
        rows=rows,
        non_goals=non_goals,
        activate=activate_now,
        draft_command=_as_draft() if activate_now else None,
    )
    commit = None
    if result.status == "active" and top is not None:
        commit = commit_active(result.path, text=result.text, slug=slug, top=top)
    elif result.status == "active":
        stage_active(result.path, approved=True)
    if as_json:
        emit_json({**result.to_json(), **({"commit": commit} if commit else {})})
    elif result.status == "active":
        click.echo(
            f"wrote {file_name(result.path)} (status: active; "
            f"{_criteria(len(result.criteria))} approved, contract pinned)"
        )
        err(f"next: work toward the end state; `goalfile verify {shell_word(result.path)}` decides")
    else:
        click.echo(f"wrote {file_name(result.path)} (status: draft)")
        if result.missing:
            err(
                f"next: fill in {', '.join(result.missing)} in {file_name(result.path)}, then "
                f"`goalfile activate {shell_word(result.path)}`"
            )
        else:
            err(f"next: `goalfile activate {shell_word(result.path)}` pins the contract")
    for note in (result.outside, result.not_found_note(), *result.operand_notes()):
        if note is not None and not as_json:
            err(note)
    for finding in () if as_json else result.warnings:  # as lint shows them
        where = ":".join(
            str(p) for p in (file_name(result.path), finding.line, finding.column) if p
        )
        err(f"{where}: warning: {finding.message}", finding.hint)
    return 0


# --- lint ---------------------------------------------------------------------------------


def goal_paths(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The PATH arguments, a folder standing for every ``*.md`` under it (one with none stays,
    to be reported), or every goal under goals/ and .zetetic/goals/ (said on stderr)."""
    if paths:
        from goalfile.commands.folders import expand

        return tuple(found for path in paths for found in (expand([path]) or [path]))
    from goalfile.commands.status import default_paths

    found = tuple(default_paths(context().cwd))
    if not found:
        _no_goal_yet()
    return found


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--fix",
    is_flag=True,
    help="First rewrite what keeps its meaning: escape a `|` that splits a code span, write "
    "`expected` synonyms the canonical way. One write per file; the ledger is not touched. "
    "With --json, each file lists its rewrites under `fixed`.",
)
@json_option
@boundary
def lint(paths: tuple[str, ...], fix: bool, as_json: bool) -> int:
    """Check goal files against every rule of the format (default: every goal under goals/
    and .zetetic/goals/). A folder stands for every *.md under it. Exit 0 clean, 3 with
    errors."""
    from goalfile.commands.lint import fix_paths, lint_paths

    paths = goal_paths(paths)
    ctx = context()
    fixes = fix_paths(paths, ctx) if fix else None
    for path, outcome in (fixes or {}).items():
        for line in outcome.lines():
            err(f"{file_name(path)}: fixed {line}")
    result = lint_paths(paths, fixes, cwd=ctx.cwd)
    for report in result.reports:
        if report.fatal is not None:
            name_the_meant_file(report.fatal)
    if as_json:
        emit_json(result.to_json())
        return int(result.exit_code)
    for report in result.reports:
        if report.fatal is not None:
            err(f"{report.fatal.render()}")
        for finding in report.findings:
            where = ":".join(
                str(p) for p in (file_name(report.path), finding.line, finding.column) if p
            )
            err(f"{where}: {finding.severity.value}: {finding.message}", finding.hint)
        if report.ok:
            warnings = len(report.findings)
            click.echo(
                f"{file_name(report.path)}: ok"
                + (f" ({counted(warnings, 'warning')})" if warnings else "")
            )
        else:
            click.echo(f"{file_name(report.path)}: invalid")
    return int(result.exit_code)


# --- activate -----------------------------------------------------------------------------


@main.command()
@click.argument("path", type=click.Path())
@click.option(
    "--reapprove",
    is_flag=True,
    help="Approve a changed contract of a goal past its draft: ledger the rows added, "
    "removed and changed (old → new, loosened ones marked) and re-pin it.",
)
@click.option("--reason", help="Why the contract changed (with --reapprove); ledgered.")
@click.option("--commit", "commit_now", is_flag=True, help=_COMMIT_HELP)
@json_option
@boundary
def activate(
    path: str, reapprove: bool, reason: str | None, commit_now: bool, as_json: bool
) -> int:
    """Make a draft goal active, only when lint passes; ledgered with the approved rows.

    An active goal whose ledger records no approval (written by hand) is approved the same
    way. The goal file is staged (git add): the Stop hook runs only approved checks git holds.

    With --reapprove, approve a changed contract: a met goal goes back to active, any other
    status is kept.
    """
    from goalfile.commands.activate import activate as run

    if reason is not None and not reapprove:
        raise UsageError(
            "--reason goes with --reapprove",
            hint=f"goalfile activate --reapprove {shell_word(path)} --reason TEXT",
        )
    top = commit_top(path) if commit_now else None
    result = run(path=path, ctx=context(), reapprove=reapprove, reason=reason)
    commit = None
    if top is not None:
        commit = commit_active(path, text=result.text, slug=result.slug, top=top)
    else:
        stage_active(path, approved=True)
    if as_json:
        emit_json({**result.to_json(), **({"commit": commit} if commit else {})})
    elif result.reapproved:
        for change in result.changes:
            err(f"  {change.describe()}")
        for line in result.approved_lines():
            err(line)
        click.echo(
            f"{file_name(path)}: contract re-approved ({counted(len(result.changes), 'change')}); "
            f"status: {result.status.value}"
        )
    else:
        for line in result.approved_lines():
            err(line)
        click.echo(f"{file_name(path)}: active ({_criteria(len(result.criteria))} approved)")
    return 0


# --- verify -------------------------------------------------------------------------------


def _tokens_source(tokens_used: int | None, env: dict[str, str]) -> Callable[[], int | None]:
    if tokens_used is not None:
        value = tokens_used
    else:
        raw = env.get("GOALFILE_TOKENS_USED", "").strip()
        if not raw:
            return lambda: None
        try:
            value = int(raw)
        except ValueError:
            raise UsageError(
                f"GOALFILE_TOKENS_USED={raw!r} is not a whole number (the tokens used so far)",
                hint="`unset GOALFILE_TOKENS_USED`",
                again="",
            ) from None
    if value < 0:
        raise UsageError("token usage cannot be negative")
    return lambda: value


@main.command()
@click.argument("path", required=False, type=click.Path())
@click.option(
    "--no-write",
    is_flag=True,
    help="Run the checks on a goal of any status; write nothing; exit by the result.",
)
@click.option(
    "--tokens-used",
    type=click.IntRange(min=0),
    help="Tokens used so far (else $GOALFILE_TOKENS_USED).",
)
@click.option(
    "--transcript",
    type=click.Path(dir_okay=False),
    help="The host session's transcript (Claude Code, Codex, Gemini CLI or pi): token usage is "
    "read from it before each check and recorded under `## Token accounting`.",
)
@click.option(
    "--time-limit",
    type=Seconds(min=0, min_open=True),
    help="Seconds for the whole goal; a check still running then is ended, and it and any left "
    "no time to start are error rows, which block the goal (try a limit with --no-write).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Deterministic checks run at the same time. Only for checks that do not share files "
    "or ports; the entry, summary line and exit code are those of a one-by-one run.",
)
@click.option(
    "--lock-wait",
    type=Seconds(min=0),
    default=600,
    show_default=True,
    help="Seconds to wait for another goalfile process holding this goal (a --no-write run "
    "takes no lock).",
)
@click.option(
    "--tail",
    "tail_lines",
    type=click.IntRange(min=0),
    help="Output lines shown from the start and from the end of each unmet or error row's "
    "output (default: all kept lines on a terminal, 40 of each otherwise).",
)
@click.option(
    "--judge",
    "judge_command",
    help="Command that judges review rows with no recorded review (else $GOALFILE_JUDGE); "
    "it reads one JSON packet on stdin and prints one JSON object.",
)
@click.option(
    "--judge-timeout",
    type=Seconds(min=0, min_open=True),
    default=120,
    show_default=True,
    help="Seconds the judge may take per review row.",
)
@in_project_option(approved=True)
@json_option
@boundary
def verify(
    path: str | None,
    no_write: bool,
    tokens_used: int | None,
    transcript: str | None,
    time_limit: float | None,
    jobs: int,
    lock_wait: float,
    tail_lines: int | None,
    judge_command: str | None,
    judge_timeout: float,
    in_project_flag: bool,
    as_json: bool,
) -> int:
    """Run every check as a real process, judge each row, and append the ledger entry.

    Prints one summary line last, verbatim, e.g.
    `verify-goal auth iteration 2: C1 met, C2 unmet; status: active`. With --no-write and no
    PATH, checks every goal under goals/ and .zetetic/goals/ (exit: the highest of theirs).
    """
    from goalfile.commands.verify import VerifyOptions
    from goalfile.commands.verify import verify as run

    if transcript is not None and tokens_used is not None:
        from goalfile.cli.base import typed_words, without_option
        from goalfile.shellword import shell_word

        kept = without_option(typed_words(), "--tokens-used")
        raise UsageError(
            "--transcript and --tokens-used both report token usage; pass one",
            hint="`" + " ".join(shell_word(word) for word in ["goalfile", *kept]) + "` reads "
            "the usage from the transcript",
        )
    if in_project_flag and path is None:  # every goal would run, approved or not
        raise UsageError(
            "--in-project verifies one goal file: pass its PATH",
            hint="list the project's goal files with `goalfile status --in-project`",
        )
    in_project([path] if path is not None else [], in_project_flag, approved=True)
    ctx = context()
    if path is None:
        return _verify_all(no_write=no_write, as_json=as_json, ctx=ctx, lines=tail_lines)
    options = VerifyOptions(
        path=path,
        write=not no_write,
        tokens_used=_tokens_source(tokens_used, dict(ctx.env)),
        transcript=transcript,
        time_limit=time_limit,
        lock_wait=lock_wait,
        jobs=jobs,
        judge=judge_command or ctx.env.get("GOALFILE_JUDGE") or None,
        judge_timeout=judge_timeout,
    )
    from goalfile.cli.console import console_for

    progress = None if as_json else console_for(env=ctx.env, lines=tail_lines)
    result = run(options, ctx, progress)
    if as_json:
        emit_json(result.to_json())
    else:
        if not result.written and not no_write:
            err("nothing was written")
        _say_missing_cwd(result)
        for note in result.setup_notes:
            err(note)
        if result.unwritten_note is not None:
            err(result.unwritten_note)
        _say_blocked_next(result, path)
        click.echo(result.summary)
    return int(result.exit_code)


def _say_blocked_next(result: VerifyResult, path: str) -> None:
    """On stderr, for a run that wrote `blocked` because a check could not run: what to do,
    which `status` would say (the next verify is refused until the goal is resumed)."""
    from goalfile.model import Status, Verdict

    failed = [row.id for row in result.rows if row.verdict is Verdict.ERROR]
    if result.written and result.status is Status.BLOCKED and failed:
        err(
            f"next: {', '.join(failed)} could not run, which blocks the goal: remove the cause, "
            f"then `goalfile resume {shell_word(path)} --resolved TEXT` and verify again"
        )


def _say_missing_cwd(result: VerifyResult) -> None:
    """On stderr: the goal's `cwd:` names a folder that is not there, and the fix."""
    if result.missing_cwd is not None:
        message, fix = result.missing_cwd
        err(f"goalfile: {message}", fix)


def _criteria(count: int) -> str:
    return f"{count} criterion" if count == 1 else f"{count} criteria"


def _no_goal_yet() -> None:
    from goalfile.commands.hints import NEW_GOAL

    err("no goal files found under goals/ or .zetetic/goals/")
    err(f"  next: write one with {NEW_GOAL}, or set up the repository with `goalfile init`")


def _verify_all(*, no_write: bool, as_json: bool, ctx: Any, lines: int | None) -> int:
    """`verify --no-write` without PATH: every goal, one after the other."""
    from goalfile.cli.console import console_for
    from goalfile.commands.status import default_paths
    from goalfile.commands.verify import VerifyOptions
    from goalfile.commands.verify import verify as run
    from goalfile.errors import GoalfileError

    found = default_paths(ctx.cwd)
    if not no_write:
        from goalfile.commands.hints import verify_which

        raise UsageError(
            "name the goal to verify; only --no-write checks every goal at once",
            hint=verify_which(ctx.cwd, found),
        )
    if not found:
        _no_goal_yet()
    code = 0
    documents: list[dict[str, object]] = []
    for path in found:
        options = VerifyOptions(path=path, write=False, tokens_used=_tokens_source(None, ctx.env))
        try:
            result = run(options, ctx, None if as_json else console_for(env=ctx.env, lines=lines))
        except GoalfileError as exc:
            err(f"goalfile: {exc.render()}")
            documents.append({"goal": path, "error": exc.to_json()})
            code = max(code, int(exc.exit_code))
            continue
        documents.append(result.to_json())
        code = max(code, int(result.exit_code))
        if not as_json:
            _say_missing_cwd(result)
            for note in result.setup_notes:
                err(note)
            if result.unwritten_note is not None:
                err(result.unwritten_note)
            click.echo(result.summary)
    if as_json:
        emit_json({"schema_version": 1, "goals": documents, "exit_code": code})
    return code


# --- status -------------------------------------------------------------------------------


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@in_project_option(approved=False)
@json_option
@boundary
def status(paths: tuple[str, ...], in_project_flag: bool, as_json: bool) -> int:
    """Show each goal's status, budget use and latest verdicts (default: goals/ and
    .zetetic/goals/). A folder stands for every *.md under it."""
    from goalfile.commands.status import status as run

    in_project(paths, in_project_flag)
    result = run(paths=goal_paths(paths) if paths else (), ctx=context())
    for item in result.goals:
        if item.error is not None:
            name_the_meant_file(item.error)
    if as_json:
        emit_json(result.to_json())
        return int(result.exit_code)
    if not result.goals:
        _no_goal_yet()
    if result.focus:
        held = "the Stop hook verifies this goal first while it is active"
        click.echo(f"focus: {file_name(result.focus)} ({held})")
    elif result.focus_ignored:
        ignored = file_name(result.focus_ignored)
        click.echo(f"focus: {ignored} (ignored by the Stop hook: {result.focus_why})")
    for item in result.goals:
        if item.goal is None:
            assert item.error is not None
            err(item.error.render())
            continue
        click.echo(_status_text(item))
        for warning in item.warnings:  # as lint shows them
            where = file_name(item.path) + (f":{warning.line}" if warning.line else "")
            err(f"{where}: warning: {warning.message}", warning.hint)
    return int(result.exit_code)


def _status_text(item: Any) -> str:
    goal = item.goal

    def of(used: int, limit: int | None) -> str:
        return f"{used}/{limit}" if limit is not None else f"{used} (unbounded)"

    budget = item.budget  # the limits the ledger records, not ones typed by hand
    # `tokens_used: null` means not measured, which is not 0
    tokens = (
        of(goal.tokens_used, budget.tokens)
        if goal.tokens_measured
        else "not measured "
        + (f"(budget {budget.tokens})" if budget.tokens is not None else "(unbounded)")
    )
    lines = [
        f"{goal.slug}: {goal.status.value}  ({file_name(item.path)})",
        f"  end state: {goal.end_state}",
        f"  iterations {of(item.iterations_used, budget.iterations)}, tokens {tokens}",
    ]
    if item.blocker:
        lines.append(f"  blocker: {item.blocker}")
    for row_id, reason in item.impossible:
        lines.append(f"  impossible: {row_id}: {reason}")
    verdicts = {row.id: row for row in item.last_verify.rows} if item.last_verify else {}
    if item.last_verify:
        # a streak of 0: an entry since the run (a budget raised, a resume) began a new count
        streak = (
            f"; same result {counted(item.stall_count, 'time')} in a row"
            if item.stall_count
            else ""
        )
        lines.append(
            f"  last verify: iteration {item.last_verify.iteration} ({item.last_verify.date})"
            + streak
        )
    for row in goal.criteria:
        seen = verdicts.get(row.id)
        verdict = seen.verdict.value if seen else "not verified"
        lines.append(f"  {row.id:<4} {verdict:<12} {row.criterion}")
    lines.append(f"  next: {item.next_step}")
    return "\n".join(lines)
