"""`goalfile verify`: run every check as a real process, judge it, and ledger the result."""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from goalfile import contract, ledger
from goalfile.commands import workdir
from goalfile.commands.checking import Tails, check_row
from goalfile.commands.context import Context
from goalfile.commands.githints import require_valid_here
from goalfile.errors import ExitCode, GoalfileError, Refused, UsageError, interrupted
from goalfile.files import goal_lock, load_goal, read_text, write_atomic
from goalfile.handedit import limit_in_force, reopen_notes, reopened_from
from goalfile.lint import require_rows_filled_in
from goalfile.model import Criterion, Entry, Goal, Kind, RowResult, Status, Verdict
from goalfile.parse import ledger_region, parse_goal
from goalfile.progress import STREAK_BY, decide_status, same_runs, stall_limit
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name
from goalfile.value import Value, replace

if TYPE_CHECKING:
    from goalfile.accounting import TokenMeter
    from goalfile.commands.parallel import Pool

SCHEMA_VERSION = 1
DEFAULT_JUDGE_TIMEOUT = 120.0
STATUS_EXIT = {
    Status.MET: ExitCode.OK,
    Status.ACTIVE: ExitCode.UNMET,
    Status.BLOCKED: ExitCode.BLOCKED,
    Status.EXHAUSTED: ExitCode.EXHAUSTED,
    Status.PAUSED: ExitCode.UNMET,
    Status.DRAFT: ExitCode.UNMET,
}


class Progress(Protocol):
    """What the terminal shows while checks run. Every method may do nothing."""

    def begin(self, rows: Sequence[Criterion], *, unbounded: frozenset[str] = frozenset()) -> None:
        """``rows`` in the order they run; ``unbounded``: the ids of the checks no time limit
        applies to (no row or frontmatter `timeout`, no `--time-limit`)."""

    def started(self, row: Criterion) -> None: ...

    def tick(self, row: Criterion, elapsed: float) -> None: ...

    def finished(self, result: RowResult, tails: Tails | None) -> None: ...


class NoProgress:
    def begin(self, rows: Sequence[Criterion], *, unbounded: frozenset[str] = frozenset()) -> None:
        pass

    def started(self, row: Criterion) -> None:
        pass

    def tick(self, row: Criterion, elapsed: float) -> None:
        pass

    def finished(self, result: RowResult, tails: Tails | None) -> None:
        pass


class VerifyOptions(Value):
    """How ``verify`` runs: the goal, whether it writes, where token usage comes from, time
    limits, the judge, the lock wait and the checks run at once."""

    __slots__ = (
        "expect",
        "jobs",
        "judge",
        "judge_timeout",
        "lock_wait",
        "path",
        "then",
        "time_limit",
        "tokens_used",
        "transcript",
        "write",
    )

    def __init__(
        self,
        *,
        path: str,
        write: bool = True,
        tokens_used: Callable[[], int | None] = lambda: None,
        transcript: str | None = None,
        time_limit: float | None = None,
        judge: str | None = None,
        judge_timeout: float = DEFAULT_JUDGE_TIMEOUT,
        lock_wait: float = 600.0,
        jobs: int = 1,
        then: Callable[[VerifyResult, str, Goal], tuple[str, Goal]] | None = None,
        expect: str | None = None,
    ) -> None:
        self.path: Final = path
        self.write: Final = write
        self.tokens_used: Final = tokens_used
        self.transcript: Final = transcript  # a host session transcript; usage is read from it
        self.time_limit: Final = time_limit  # seconds for the whole goal
        self.judge: Final = judge  # command that judges review rows without a review
        self.judge_timeout: Final = judge_timeout
        self.lock_wait: Final = lock_wait
        # deterministic checks run at the same time; 1 = table order, one by one
        self.jobs: Final = jobs
        # more edits made in the same locked write, after the entry (the Stop hook's next
        # iteration): given the result, the text about to be written and the goal it reads as,
        # the text to write instead and its goal
        self.then: Final = then
        # the goal file's text as the caller (the Stop hook) judged it: another text read here
        # (a file renamed into its place since) is refused, so what runs is what was judged
        self.expect: Final = expect


class VerifyResult(Value):
    """What a run found: each row's result and output, the status, the summary line and the
    entry it wrote (or would have written)."""

    __slots__ = (
        "entry_text",
        "file_status",
        "iteration",
        "missing_cwd",
        "path",
        "reason",
        "rows",
        "setup_notes",
        "slug",
        "status",
        "summary",
        "tails",
        "tokens_used",
        "written",
    )

    def __init__(
        self,
        *,
        path: str,
        slug: str,
        iteration: int,
        rows: tuple[RowResult, ...],
        status: Status,
        reason: str | None,
        summary: str,
        written: bool,
        tokens_used: int | None,
        tails: Mapping[str, Tails],
        entry_text: str,
        missing_cwd: tuple[str, str] | None = None,
        file_status: Status | None = None,
        setup_notes: tuple[str, ...] = (),
    ) -> None:
        self.path: Final = path
        self.slug: Final = slug
        self.iteration: Final = iteration
        self.rows: Final = rows
        self.status: Final = status
        self.reason: Final = reason
        self.summary: Final = summary
        self.written: Final = written
        self.tokens_used: Final = tokens_used
        self.tails: Final = tails
        self.entry_text: Final = entry_text
        self.missing_cwd: Final = missing_cwd  # the goal's cwd is not there: message, fix
        # the status the file holds (it differs when not written)
        self.file_status: Final = file_status
        self.setup_notes: Final = setup_notes  # an unmet row the machine, not the work, keeps unmet

    @property
    def exit_code(self) -> ExitCode:
        return STATUS_EXIT[self.status]

    @property
    def unwritten_note(self) -> str | None:
        """For a run that wrote nothing, when the summary's status is not the file's: a note
        that says so, since the summary line reads as the goal's new status."""
        if self.written or self.file_status is None or self.file_status is self.status:
            return None
        return (
            f"note: nothing was written (--no-write): {file_name(self.path)} is still "
            f"{self.file_status.value}; `status: {self.status.value}` below is what this run "
            "judged, not the file's status"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": SCHEMA_VERSION,
            "goal": self.path,
            "slug": self.slug,
            "iteration": self.iteration,
            "status": self.status.value,
            "reason": self.reason,
            "written": self.written,
            "file_status": (self.file_status or self.status).value,
            "tokens_used": self.tokens_used,
            "rows": [
                {
                    "id": row.id,
                    "verdict": row.verdict.value,
                    "command": row.command,
                    "exit": row.exit,
                    "evidence": row.evidence,
                    "why": list(row.reasons),
                    "elapsed": row.elapsed,
                    "output": (
                        {
                            "stdout_tail": list(self.tails[row.id].stdout),
                            "stderr_tail": list(self.tails[row.id].stderr),
                            "stdout_head": list(self.tails[row.id].stdout_head),
                            "stderr_head": list(self.tails[row.id].stderr_head),
                            "stdout_bytes": self.tails[row.id].stdout_bytes,
                            "stderr_bytes": self.tails[row.id].stderr_bytes,
                        }
                        if row.id in self.tails
                        else None
                    ),
                }
                for row in self.rows
            ],
            "summary": self.summary,
            "missing_cwd": (
                None
                if self.missing_cwd is None
                else {"message": self.missing_cwd[0], "fix": self.missing_cwd[1]}
            ),
            "notes": list(self.setup_notes),
            "exit_code": int(self.exit_code),
        }


def working_directory(goal: Goal) -> Path:
    """Where the checks run: see :mod:`goalfile.commands.workdir`."""
    return workdir.decide(goal).path


def require_approved_workdir(goal: Goal, *, cwd: Path) -> workdir.WorkDir:
    """The working directory, refused when the newest approval recorded another one; its fix
    names paths as a command run in ``cwd`` reaches them."""
    found = workdir.decide(goal)
    approval = contract.last_approval(goal.text, path=goal.path)
    gap = workdir.uncovered(found, approval[0] if approval is not None else None)
    if gap is None:
        return found
    line = goal.key_line("contract") or goal.key_line("status")
    if gap.outer is not None:
        raise Refused(
            f"the checks would run in {found.describe()}, a repository nested inside the "
            f"work tree of {gap.outer}; the newest approval entry (iteration "
            f"{gap.approval.iteration}) names no working directory, as entries written before "
            "goalfile recorded one do, so it did not approve this one; nothing was run",
            file=goal.path,
            line=line,
            hint=f"remove the nested repository ({found.path / '.git'}) if it is not meant to "
            "be there, or have a person approve the working directory with "
            f"`goalfile activate --reapprove {shell_word(goal.path)} --reason TEXT`, which records "
            "it",
        )
    why = f", from {found.path / '.git'}" if found.source is workdir.Source.GIT else ""
    raise Refused(
        f"the checks would run in {found.describe()}{why}, but the newest approval entry "
        f"(iteration {gap.approval.iteration}) approved `{gap.approved}`, "
        "relative to the goal file; nothing was run",
        file=goal.path,
        line=line,
        hint=f"{_move_back(goal.path, found, gap.approved, cwd)}remove what moved it (a `.git` "
        "file or folder between the goal and the repository's top), or have a person approve "
        f"the new one with `goalfile activate --reapprove {shell_word(goal.path)} --reason TEXT`",
    )


def _move_back(path: str, found: workdir.WorkDir, approved: str | None, cwd: Path) -> str:
    """For a goal approved one level under the repository's top (`..`, as in goals/) and
    found elsewhere (copied or moved to the top, or deeper): the move that puts it back under
    goals/, when nothing is in the way there; else nothing."""
    if approved != ".." or found.source is not workdir.Source.GIT:
        return ""
    goals = found.path / "goals"
    if (goals / Path(path).name).exists() or (goals.exists() and not goals.is_dir()):
        return ""
    target = os.path.relpath(goals, cwd)
    where = shell_word(target if target.endswith("/") else target + "/")
    return (
        "the goal file is not where it was approved (one folder under the repository's top): "
        f"move it back, `mkdir -p -- {shell_word(target)} && mv -- {shell_word(path)} {where}`; "
        "or "
    )


def verify(options: VerifyOptions, ctx: Context, progress: Progress | None = None) -> VerifyResult:
    show = progress or NoProgress()
    # a run that writes nothing reads the goal as `status` does, without the lock: a write
    # replaces the file by a rename, so a read sees the old file or the new one, never a mix
    lock: contextlib.AbstractContextManager[None] = (
        goal_lock(
            options.path, command="goalfile verify", wait=options.lock_wait, on_wait=ctx.notify
        )
        if options.write
        else contextlib.nullcontext()
    )
    with lock:
        goal = load_goal(options.path)
        if options.expect is not None and goal.text != options.expect:
            raise Refused(
                "the goal file changed while the Stop hook read it: it is not the file the "
                "hook judged a moment before (another file was put at its path); nothing was "
                "run",
                file=goal.path,
                hint=f"`goalfile verify --no-write {shell_word(goal.path)}` runs its checks",
            )
        # a draft's checks can be tried before its end state and non-goals are written
        trial = not options.write and goal.status is Status.DRAFT
        if trial:
            require_rows_filled_in(goal)
        require_valid_here(
            goal, cwd=ctx.cwd, besides=frozenset({"placeholder"}) if trial else frozenset()
        )
        if options.write and goal.status is not Status.ACTIVE:
            raise Refused(
                f"the goal is {goal.status.value}, not active; nothing was run",
                file=goal.path,
                line=goal.key_line("status"),
                hint=_not_active_hint(goal),
            )
        if options.write:
            _require_ledger_status(goal)
        pin = contract.require_pin(goal)
        tightened = contract.tightening(goal)  # accepted, and pinned by this entry
        where = require_approved_workdir(goal, cwd=ctx.cwd)
        meter = _meter(goal, options)
        try:
            run = _run_rows(goal, options, ctx, show, meter, where.path)
        except KeyboardInterrupt as exc:
            raise interrupted(
                exc, "interrupted: checks ended, the goal file is untouched"
            ) from None
        entry = Entry(
            iteration=goal.iterations_used,
            date=ctx.today,
            by=ledger.VERIFY_BY,
            rows=run.rows,
            status=run.status,
            contract=contract.short(pin),
            notes=(
                "",
                *reopen_notes(goal),
                where.note(),
                *_judge_note(run.rows, options.judge),
                *(
                    ("", *contract.tightened_notes(tightened, _run_contract(goal)))
                    if tightened
                    else ()
                ),
            ),
        )
        if run.status is Status.ACTIVE and options.write:
            run = _check_stall(goal, entry, run)
            entry = replace(entry, status=run.status)
        summary = ledger.summary_line(
            slug=goal.slug,
            iteration=goal.iterations_used,
            rows=run.rows,
            status=run.status,
            reason=run.reason,
        )
        entry_lines = ledger.render_entry(entry, status_reason=run.reason)
        result = VerifyResult(
            path=goal.path,
            slug=goal.slug,
            iteration=goal.iterations_used,
            rows=run.rows,
            status=run.status,
            reason=run.reason,
            summary=summary,
            written=options.write,
            tokens_used=run.tokens,
            tails=run.tails,
            entry_text="\n".join(entry_lines),
            missing_cwd=workdir.missing_cwd(
                goal, where, blocked=options.write and run.status is Status.BLOCKED
            ),
            file_status=run.status if options.write else goal.status,
            setup_notes=_setup_notes(goal, run.rows, ctx, where.path),
        )
        if options.write:
            then = None if options.then is None else functools.partial(options.then, result)
            _write(goal, entry_lines, run, meter, pin=pin if tightened else None, then=then)
        return result


def _run_contract(goal: Goal) -> contract.Contract:
    """The goal's contract with its rows in the order this run ran them: what a tightening
    entry records (only the rows it adds take their place from it)."""
    ordered, _ = run_order(goal)
    return replace(contract.contract_of(goal), order=tuple(row.id for row in ordered))


def _setup_notes(
    goal: Goal, rows: Sequence[RowResult], ctx: Context, workdir: Path
) -> tuple[str, ...]:
    """Notes on unmet rows that no work on the code can meet (pytest not installed for the
    Python a check names, a package under `src/` that is not installed for the Python that runs
    pytest, or that it imports from an installed copy), for the console."""
    unmet = [(r.id, r.command, r.exit) for r in rows if r.verdict is Verdict.UNMET]
    notes: tuple[str, ...] = ()
    said = [
        (r.id, r.command, r.exit)
        for r in rows
        if r.verdict is Verdict.UNMET and r.exit == "1" and "No module named pytest" in r.evidence
    ]  # a test run that failed is asked nothing
    if said:
        from goalfile.commands import pytestmissing

        notes += pytestmissing.unmet_notes(said, shell=goal.shell, cwd=workdir, env=ctx.env)
    asked = [row for row in unmet if row not in said]
    if any(status in ("1", "2", "4") for _, _, status in asked):  # srclayout.ELSEWHERE
        from goalfile.commands.srclayout import unmet_notes

        notes += unmet_notes(asked, shell=goal.shell, cwd=workdir, env=ctx.env)
    told = {note.split(": ", 2)[1] for note in notes}  # one cause a row, as `new` tells it
    tested = [row for row in unmet if row[0] not in told and row[2] in ("1", "3", "4")]
    if tested:  # pytestplugins: a plugin the project's pytest configuration needs
        from goalfile.commands import pytestplugins

        notes += pytestplugins.unmet_notes(tested, shell=goal.shell, cwd=workdir, env=ctx.env)
    return notes


def _judge_note(rows: Sequence[RowResult], judge: str | None) -> tuple[str, ...]:
    """Name the judge command in the entry when it decided a row, so a reader can weigh it."""
    if judge is None:
        return ()
    from goalfile.commands.reviewing import JUDGE_LABEL

    decided = any(
        row.evidence_label == JUDGE_LABEL or row.evidence.startswith("judge") for row in rows
    )
    if not decided:
        return ()
    return ("", f"judged by: {ledger.code_span(judge)}")


def _require_ledger_status(goal: Goal) -> None:
    """Refuse a status that differs from the newest status the ledger records: it was edited
    by hand (e.g. an exhausted goal set back to active), and a run would launder it."""
    region = ledger_region(goal.text)
    if region is None:
        return
    entry = ledger.newest_status(goal.text, *region)
    if reopened_from(goal) is not None:
        return  # a hand edit toward more work: accepted, and the entry records it
    if entry is not None and entry.status is not None and entry.status is not goal.status:
        raise Refused(
            f"the frontmatter says `{goal.status.value}`, but the ledger's newest status "
            f"(iteration {entry.iteration}, by {entry.by}) is `{entry.status.value}`; "
            "nothing was run",
            file=goal.path,
            line=goal.key_line("status"),
            hint=f"set `status: {entry.status.value}` back; "
            + _not_active_hint(replace(goal, status=entry.status)),
        )


def _check_stall(goal: Goal, entry: Entry, run: _Run) -> _Run:
    """Blocked when the last ``stall_limit`` verify runs had the same verdicts and evidence."""
    region = ledger_region(goal.text)
    limit = stall_limit(goal.meta)
    previous = (
        ledger.newest_first(goal.text, *region, by=STREAK_BY) if region is not None else iter(())
    )
    if same_runs(entry, previous) >= limit:
        return replace(run, status=Status.BLOCKED, reason=f"no progress in {limit} verify runs")
    return run


def _not_active_hint(goal: Goal) -> str:
    from goalfile.commands.hints import status_hint

    again = f"`goalfile verify --no-write {shell_word(goal.path)}` runs the checks without writing"
    hint = status_hint(goal, goal.path)
    return hint if goal.status is Status.MET else f"{hint} (or {again})"


class _Run(Value):
    """The rows' results, the status they decide and the tokens used."""

    __slots__ = ("reason", "rows", "status", "tails", "tokens")

    def __init__(
        self,
        *,
        rows: tuple[RowResult, ...],
        status: Status,
        reason: str | None,
        tokens: int | None,
        tails: dict[str, Tails],
    ) -> None:
        self.rows: Final = rows
        self.status: Final = status
        self.reason: Final = reason
        self.tokens: Final = tokens
        self.tails: Final = tails


def _meter(goal: Goal, options: VerifyOptions) -> TokenMeter | None:
    if options.transcript is None:
        return None
    from goalfile.accounting import TokenMeter

    return TokenMeter(goal=goal, transcript=options.transcript)


def run_order(goal: Goal) -> tuple[tuple[Criterion, ...], frozenset[str]]:
    """The rows in the order they run, and the ids of those the newest approval records.

    The approved rows come first, in the approval's order (:func:`goalfile.contract.last_approval`),
    then every other row (added since: a tightening, accepted without a person), in table order.
    A goal whose approval records no rows, or that has none, runs in table order.
    """
    approved = contract.approved_order(goal)
    if approved is None:
        return goal.criteria, frozenset(row.id for row in goal.criteria)
    by_id = {row.id: row for row in goal.criteria}
    first = tuple(by_id[rid] for rid in approved if rid in by_id)
    ids = frozenset(row.id for row in first)
    return (*first, *(row for row in goal.criteria if row.id not in ids)), ids


def _run_rows(
    goal: Goal,
    options: VerifyOptions,
    ctx: Context,
    show: Progress,
    meter: TokenMeter | None,
    folder: Path,
) -> _Run:
    ordered, approved = run_order(goal)
    show.begin(
        ordered,
        unbounded=frozenset(
            row.id
            for row in ordered
            if row.kind is Kind.DETERMINISTIC
            and row.timeout is None
            and goal.timeout is None
            and options.time_limit is None
        ),
    )
    deadline = ctx.clock() + options.time_limit if options.time_limit is not None else None
    impossible = impossible_rows(goal)
    results: dict[str, RowResult] = {}
    tails: dict[str, Tails] = {}
    stop: tuple[Status, str] | None = None
    tokens: int | None = None
    token_limit = limit_in_force(goal, "tokens")  # the ledger's, never a limit typed by hand

    def record(result: RowResult, tail: Tails | None = None) -> None:  # in this thread only
        results[result.id] = result
        if tail is not None:
            tails[result.id] = tail
        show.finished(result, tail)

    env = {**ctx.env, "GOALFILE_GOAL": str(Path(goal.path).resolve())}

    def check(row: Criterion, ticks: Progress) -> tuple[RowResult, Tails | None]:
        return check_row(
            goal,
            row,
            workdir=folder,
            env=env,
            deadline=deadline,
            clock=ctx.clock,
            on_tick=lambda elapsed: ticks.tick(row, elapsed),
        )

    def review(phase: Sequence[Criterion]) -> None:
        """Decide the review rows of ``phase`` once its checks have ended."""
        nonlocal stop, tokens
        if stop is None and any(r.kind is Kind.REVIEW and r.id not in results for r in phase):
            tokens = _usage(goal, options, meter)
            stop = _budget_stop(token_limit, tokens)
        failing = [  # in table order, however the checks finished
            row.id
            for row in goal.criteria
            if row.id in results and results[row.id].verdict in (Verdict.UNMET, Verdict.ERROR)
        ]
        for row in phase:
            if row.kind is not Kind.REVIEW or row.id in results:
                continue
            if failing or stop is not None:
                verb = "is" if len(failing) == 1 else "are"
                why = (
                    f"not reviewed: {', '.join(failing)} {verb} {_worst(results, failing)}"
                    if failing
                    else f"not reviewed: {stop[1] if stop else ''}"
                )
                record(RowResult.not_run(row, Verdict.UNMET, why))
                continue
            show.started(row)
            record(_review(row, goal, results, options, ctx, workdir=folder, deadline=deadline))

    # the approved rows are run and judged (reviews too) before any row added since runs
    phases = (
        tuple(row for row in ordered if row.id in approved),
        tuple(row for row in ordered if row.id not in approved),
    )
    pool = _pool(options.jobs, goal, ctx, show, record)
    try:
        for phase in phases:
            for row in phase:
                if row.id in impossible:
                    record(
                        RowResult.not_run(
                            row, Verdict.IMPOSSIBLE, f"marked impossible: {impossible[row.id]}"
                        )
                    )
                    continue
                if row.kind is Kind.REVIEW:
                    continue
                if pool is not None:
                    pool.wait(pool.size - 1)  # the budget is read when a check can really start
                if stop is None:
                    tokens = _usage(goal, options, meter)
                    stop = _budget_stop(token_limit, tokens)
                if stop is not None:
                    record(RowResult.not_run(row, Verdict.UNMET, f"not run: {stop[1]}"))
                    continue
                if deadline is not None and ctx.clock() >= deadline:
                    cut = RowResult.not_run(row, Verdict.ERROR, "not run: goal time limit reached")
                    record(replace(cut, cut_short=True))
                    continue
                if pool is None:
                    show.started(row)
                    record(*check(row, show))
                else:
                    show.started(row)  # in this thread, as the check starts
                    pool.start(row.id, functools.partial(check, row, _Cancellable(pool)))
            if pool is not None:
                pool.wait()
            review(phase)
    except BaseException:
        if pool is not None:
            pool.cancel()
        raise
    rows = tuple(results[row.id] for row in goal.criteria)  # listed in table order
    status, reason = decide_status(rows)
    if stop is not None:
        status, reason = stop
    return _Run(rows=rows, status=status, reason=reason, tokens=tokens, tails=tails)


def _review(
    row: Criterion,
    goal: Goal,
    results: Mapping[str, RowResult],
    options: VerifyOptions,
    ctx: Context,
    *,
    workdir: Path,
    deadline: float | None,
) -> RowResult:
    """A review row's verdict, once every deterministic row is met."""
    from goalfile.commands.reviewing import Judging, decide_review

    judging = Judging(
        goal=goal,
        workdir=workdir,
        env=ctx.env,
        judge=options.judge,
        judge_timeout=options.judge_timeout,
        clock=ctx.clock,
        deadline=deadline,
    )
    return decide_review(row, [results[r.id] for r in goal.criteria if r.id in results], judging)


class _Cancellable(NoProgress):
    """A worker's progress: nothing is drawn from a worker, but each tick may end the check."""

    def __init__(self, pool: Pool[tuple[RowResult, Tails | None]]) -> None:
        self._pool = pool

    def tick(self, row: Criterion, elapsed: float) -> None:
        self._pool.stop_if_cancelled()


def _pool(
    jobs: int,
    goal: Goal,
    ctx: Context,
    show: Progress,
    record: Callable[[RowResult, Tails | None], None],
) -> Pool[tuple[RowResult, Tails | None]] | None:
    """The pool for ``--jobs`` above 1 (None runs the checks one at a time, in this thread)."""
    if jobs <= 1:
        return None
    from goalfile.commands.parallel import Pool

    rows = {row.id: row for row in goal.criteria}

    def on_wait(running: dict[str, float]) -> None:
        key, since = min(running.items(), key=lambda item: item[1])
        show.tick(rows[key], ctx.clock() - since)

    return Pool(
        jobs,
        on_done=lambda key, done: record(*done),
        on_wait=on_wait,
        clock=ctx.clock,
    )


def _usage(goal: Goal, options: VerifyOptions, meter: TokenMeter | None) -> int | None:
    """Tokens used so far; the recorded figure is cumulative, so it never goes down."""
    measured = meter.poll() if meter is not None else options.tokens_used()
    if measured is None and not options.write:
        # a re-check (CI) judges the budget on the recorded usage; `null` records none
        return goal.tokens_used if goal.tokens_measured else None
    return None if measured is None else max(measured, goal.tokens_used)


def impossible_rows(goal: Goal) -> dict[str, str]:
    """Rows marked impossible (frontmatter ``impossible: {ID: reason}``) that a ``by
    impossible`` entry of the ledger backs: a mark typed by hand without one is not honoured
    (the row runs), as ``goalfile impossible`` writes both."""
    from goalfile.handedit import impossible_backed, marked_impossible

    marked = marked_impossible(goal)
    if not marked:
        return {}
    backed = impossible_backed(goal)
    return {key: value for key, value in marked.items() if key in backed}


def _worst(results: Mapping[str, RowResult], ids: Sequence[str]) -> str:
    verdicts = {results[i].verdict for i in ids}
    return "in error" if verdicts == {Verdict.ERROR} else "not met"


def _budget_stop(limit: int | None, tokens: int | None) -> tuple[Status, str] | None:
    """Whether the token budget stops the run: ``limit`` is the one in force (the ledger's,
    see :func:`goalfile.handedit.limit_in_force`), ``tokens`` the usage measured so far."""
    if limit is None:
        return None
    if tokens is None:
        return (
            Status.BLOCKED,
            f"token budget of {limit} set but usage cannot be measured: pass --tokens-used, "
            "--transcript or GOALFILE_TOKENS_USED",
        )
    if tokens >= limit:
        return Status.EXHAUSTED, f"token budget reached: {tokens} of {limit} used"
    return None


def _replaced_because(loaded: Goal, current: Goal) -> str | None:
    """Why ``current`` is not the goal that was loaded, or None when it still is.

    A person may edit the goal during a run; another goal, or the same goal with a ledger
    that no longer starts with the entries the run was based on, is not that goal.
    """
    if current is loaded:  # the file is unchanged (its text compared whole)
        return None
    if current.slug != loaded.slug:
        return f"its slug is now `{current.slug}`, not `{loaded.slug}`"
    before = ledger_region(loaded.text)
    after = ledger_region(current.text)
    if before is None:
        return None
    old = loaded.text[before[0] : before[1]].rstrip()
    if after is None or not current.text.startswith(old, after[0], after[1]):
        return "its ledger is not the one the run started from"
    return None


def _edited_because(loaded: Goal, current: Goal) -> str | None:
    """How the contract, its pin or the status of ``current`` differ from those the run
    started from, or None when they are the same: results judged under one contract or
    status must not be written into a file that now says another."""
    if current.status is not loaded.status:
        return f"its status is now `{current.status.value}`, not `{loaded.status.value}`"
    if contract.pinned(current) != contract.pinned(loaded):
        return "its `contract:` pin changed"
    before, after = contract.contract_of(loaded), contract.contract_of(current)
    if before.digest() != after.digest():
        from goalfile.contractdiff import changes

        found = changes(before, after)
        listed = "; ".join(change.describe() for change in found[:3])
        more = f"; and {len(found) - 3} more" if len(found) > 3 else ""
        return f"its contract is not the one the run started from: {listed or 'changed'}{more}"
    return None


def _error_blocker(rows: Sequence[RowResult]) -> str:
    errors = [row for row in rows if row.verdict is Verdict.ERROR]
    first = errors[0] if errors else None
    if first is None:
        return "blocked"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return ledger.clean_line(f"{first.id} error: {first.evidence}{more}")


def _write(
    loaded: Goal,
    entry_lines: Sequence[str],
    run: _Run,
    meter: TokenMeter | None,
    *,
    pin: str | None = None,
    then: Callable[[str, Goal], tuple[str, Goal]] | None = None,
) -> None:
    """Re-read the file (a person may have edited it during the run) and apply our edits,
    unless it is no longer the goal that was run; ``then`` makes more edits in the same
    write."""
    from goalfile import edit  # here: a run that writes nothing edits no text

    path = loaded.path
    not_written = "the results of this run were not written"
    try:
        text = read_text(path)
    except UsageError as exc:
        reason = exc.message.removeprefix(f"{path}: ")
        what = "was removed" if not os.path.lexists(path) else f"became unreadable ({reason})"
        raise Refused(
            f"the goal file {what} during the run; {not_written}",
            file=path,
            hint=f"`git checkout -- {shell_word(path)}` puts back the file git has; then verify",
        ) from None
    try:
        current = loaded if text == loaded.text else parse_goal(text, path=path)
        text = current.text  # one copy of an unchanged file in memory, not two
    except GoalfileError as exc:
        raise Refused(
            f"the goal file was replaced during the run by a file that is not a valid goal "
            f"({exc.location() or path}: {exc.message}); {not_written}",
            file=path,
            line=exc.line,
            hint=f"`git checkout -- {shell_word(path)}` puts back the file git has (or fix it by "
            "hand), to verify again",
        ) from None
    changed = _replaced_because(loaded, current)
    if changed is not None:
        raise Refused(
            f"the goal file was replaced during the run ({changed}); {not_written}",
            file=path,
            again="verifies the goal that is there now",
        )
    edited = _edited_because(loaded, current)
    if edited is not None:
        raise Refused(
            f"the goal file was edited during the run ({edited}); {not_written}",
            file=path,
            line=current.key_line("status"),
            again="judges it as it is now (edit a goal only while no verify runs)",
        )
    try:
        if meter is not None:
            text = meter.apply(text)  # the accounting table only; status and usage are as read
        text = edit.append_to_section(text, "Iterations", entry_lines)
        if current.status is not run.status:
            text = edit.set_value(text, "status", run.status.value)
        if run.status is Status.BLOCKED:
            text = edit.set_value(text, "blocker", run.reason or _error_blocker(run.rows))
        if run.tokens is not None and (
            run.tokens > current.tokens_used or not current.tokens_measured
        ):
            text = edit.set_value(text, "tokens_used", run.tokens)
        if pin is not None:  # a tightened contract, pinned by the entry just appended
            text = edit.set_value(text, "contract", pin)
        written = edit.check_written(current, text)
    except GoalfileError as exc:
        exc.file = exc.file or path
        exc.message = exc.message.replace("nothing was written", not_written)
        raise
    if then is not None:
        text, written = then(text, written)
    write_atomic(path, text, parsed=written)
