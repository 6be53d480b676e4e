"""One deterministic row: run its check as a real process and judge it (DESIGN §4).

The verdict follows the exit, the signal or the timeout, and the `expected` clauses, which
judge the output while it streams; the evidence and the excerpt come from the kept tail.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Final, Literal

from goalfile import ledger, settings
from goalfile.model import Criterion, Goal, RowResult, Verdict
from goalfile.testcount import TestCount, asks_for_listing, runners
from goalfile.value import Value, replace

MATCH_TIME_LIMIT = 30.0
"""Seconds the guarded ``matches`` searches of one run of a row may take in all, when neither
the row nor the goal sets a time limit (see :class:`MatchGuard`)."""


class MatchGuard:
    """Runs the ``matches`` searches of a row so that they end in time (:mod:`goalfile.expect`'s
    ``Guard``): one that could backtrack without end in a forked child, which is killed when
    the row's searches have used up their time, and the others here, in the main thread, under
    a timer (``here`` says whether this thread can: elsewhere every search that could backtrack
    goes to the child). The time is the row's limit (its ``timeout`` cell, else the goal's
    ``timeout:``), no more than what is left of the goal's time limit, else
    :data:`MATCH_TIME_LIMIT`; it is counted apart from the check's own run. The searches in the
    child share it; each search here may take it whole (they go a block of output at a time,
    and one that is slow is slow at once). ``cut_short``
    says that a search ran out of time because the goal's time limit was up."""

    def __init__(
        self,
        *,
        timeout: float | None,
        deadline: float | None,
        clock: Callable[[], float],
        on_tick: Callable[[float], None] | None = None,
    ) -> None:
        from goalfile.run import can_time_here

        self._clock = clock
        self._on_tick = on_tick
        self._started = clock()
        self._deadline = deadline
        self._seconds = timeout if timeout is not None else MATCH_TIME_LIMIT
        self._what = (
            "the row's time limit"
            if timeout is not None
            else "goalfile's limit for the searches of a row without a time limit"
        )
        self._left = self._seconds
        self.cut_short = False
        self.here = can_time_here()

    def __call__(self, work: Callable[[], bytes]) -> bytes:
        from goalfile.run import call_bounded

        on_tick = self._on_tick
        if on_tick is None:
            return self._within(work, call_bounded, spend=True)

        def poll() -> None:  # the row's progress, which a cancelled --jobs worker stops at
            on_tick(self._clock() - self._started)

        return self._within(work, functools.partial(call_bounded, poll=poll), spend=True)

    def run_here(self, work: Callable[[], bytes]) -> bytes:
        from goalfile.run import call_timed

        return self._within(work, call_timed, spend=False)

    def _within(
        self, work: Callable[[], bytes], call: Callable[..., bytes | None], *, spend: bool
    ) -> bytes:
        from goalfile.expect import MatchTimedOut
        from goalfile.run import BoundedCallFailed

        start = self._clock()
        left, seconds, what = self._left, self._seconds, self._what
        goal_limit = self._deadline is not None and self._deadline - start < left
        if goal_limit:
            assert self._deadline is not None
            left = self._deadline - start
            seconds, what = max(left, 0.0), "what was left of the goal's time limit"
        try:
            answer = call(work, timeout=left) if left > 0 else None
        except (OSError, BoundedCallFailed) as exc:
            raise MatchTimedOut(
                "not searched",
                failed=f"the search's process could not run ({exc}); nothing was judged",
            ) from None
        if spend:
            self._left -= self._clock() - start
        if answer is None:
            self.cut_short = goal_limit
            raise MatchTimedOut("the search ran out of time", seconds=seconds, what=what)
        return answer


class Tails(Value):
    """The kept tail of a check's output, for the terminal."""

    __slots__ = (
        "stderr",
        "stderr_bytes",
        "stderr_head",
        "stdout",
        "stdout_bytes",
        "stdout_head",
        "truncated",
    )

    def __init__(
        self,
        *,
        stdout: tuple[str, ...],
        stderr: tuple[str, ...],
        stdout_bytes: int,
        stderr_bytes: int,
        truncated: bool,
        stdout_head: tuple[str, ...] = (),
        stderr_head: tuple[str, ...] = (),
    ) -> None:
        self.stdout: Final = stdout
        self.stderr: Final = stderr
        self.stdout_bytes: Final = stdout_bytes
        self.stderr_bytes: Final = stderr_bytes
        self.truncated: Final = truncated
        self.stdout_head: Final = stdout_head  # the first lines, when the tail does not hold them
        self.stderr_head: Final = stderr_head


def check_row(
    goal: Goal,
    row: Criterion,
    *,
    workdir: Path,
    env: Mapping[str, str],
    deadline: float | None,
    clock: Callable[[], float],
    on_tick: Callable[[float], None],
) -> tuple[RowResult, Tails | None]:
    """Run one deterministic row's check and judge it: its result, and the kept tail of its
    output (None when nothing ran)."""
    from goalfile.expect import Evaluator, parse_expected
    from goalfile.run import CheckSpec, Ending, run_check, syntax_error

    expectation = parse_expected(row.expected)  # lint parsed it already: cached
    child_env = {**env, "GOALFILE_CRITERION": row.id}  # GOALFILE_GOAL is set by the caller
    if "PATH" in env:
        child_env["PATH"] = absolute_path(env["PATH"])
    spec = CheckSpec(
        command=settings.command(row),  # what the contract digests, and nothing else
        shell=settings.shell(goal),
        cwd=str(workdir),
        env=child_env,
        timeout=row.timeout if row.timeout is not None else goal.timeout,
    )
    not_a_shell = shell_problem(spec.shell, cwd=spec.cwd, env=env)
    if not_a_shell is not None:
        return RowResult(
            id=row.id,
            verdict=Verdict.ERROR,
            command=row.check,
            exit="-",
            evidence=not_a_shell,
            evidence_quoted=False,
            why=(not_a_shell,),
        ), None
    guard = MatchGuard(timeout=spec.timeout, deadline=deadline, clock=clock, on_tick=on_tick)
    evaluator = Evaluator(expectation, guard=guard)
    listing = asks_for_listing(spec.command)
    started = runners(spec.command)
    pytest = "pytest" in started
    tests = {
        "stdout": TestCount(listing=listing, pytest=pytest),
        "stderr": TestCount(listing=listing, pytest=pytest),
    }

    def on_output(name: str, data: bytes) -> None:
        stream: Literal["stdout", "stderr"] = "stderr" if name == "stderr" else "stdout"
        evaluator.feed(stream, data)
        tests[stream].feed(data)

    outcome = run_check(
        spec,
        on_output=on_output,
        deadline=deadline,
        on_tick=on_tick,
        clock=clock,
    )
    tail = Tails(
        stdout=outcome.stdout.tail,
        stderr=outcome.stderr.tail,
        stdout_bytes=outcome.stdout.total_bytes,
        stderr_bytes=outcome.stderr.total_bytes,
        truncated=outcome.stdout.truncated or outcome.stderr.truncated,
        stdout_head=outcome.stdout.head,
        stderr_head=outcome.stderr.head,
    )

    def make(verdict: Verdict, exit_text: str, evidence: str, quoted: bool) -> RowResult:
        return RowResult(
            id=row.id,
            verdict=verdict,
            command=row.check,
            exit=exit_text,
            evidence=evidence,
            evidence_quoted=quoted,
            elapsed=round(outcome.elapsed, 3),
        )

    if outcome.ending is Ending.EXITED and outcome.exit_status != 0:
        # A check is one line, and a shell parses a whole line before it runs any of it: a
        # syntax error ran nothing and exited non-zero. Only then is the shell asked (`-n`).
        problem = syntax_error(shell=spec.shell, command=spec.command, cwd=spec.cwd, env=child_env)
        if problem is not None:
            return RowResult(
                id=row.id,
                verdict=Verdict.ERROR,
                command=row.check,
                exit="-",
                evidence=f"shell syntax error: {problem}",
                evidence_quoted=True,
                why=(f"shell syntax error: {problem}",),
            ), None
    if outcome.ending is Ending.NOT_STARTED:
        return replace(
            make(Verdict.ERROR, "-", outcome.message, False), why=(outcome.message,)
        ), tail
    if outcome.ending is Ending.TIMEOUT:
        result = replace(
            make(Verdict.ERROR, "timeout", outcome.message, False), cut_short=outcome.goal_limit
        )
        return _with_excerpt(result, tail, ()), tail
    if outcome.ending is Ending.SIGNALLED:
        # it did not run to its end, so it cannot be met (DESIGN §4); the clauses still say why
        signal = outcome.signal or 0
        judgement = evaluator.finish(128 + signal)
        if judgement.error is not None:
            return _not_judged(
                make(Verdict.ERROR, f"signal {signal}", "", False), judgement.error, guard, tail
            ), tail
        failures = (f"killed by signal {signal}", *judgement.failures)
        return _unmet(make, f"signal {signal}", judgement.evidence, failures, tail), tail
    status = outcome.exit_status if outcome.exit_status is not None else -1
    judgement = evaluator.finish(status)
    exit_text = str(status)
    if status in (126, 127) and status not in expectation.named_exit_statuses:
        what = "command not found" if status == 127 else "command could not be executed"
        last = ledger.clean_line(_last_line(outcome.stderr.tail) or _last_line(outcome.stdout.tail))
        result = make(Verdict.ERROR, exit_text, f"{what}: {last}" if last else what, bool(last))
        result = replace(result, why=(f"exit {status}: {what}" + (f": {last}" if last else ""),))
        return _with_excerpt(result, tail, ()), tail
    if judgement.error is not None:
        result = make(Verdict.ERROR, exit_text, "", False)
        return _not_judged(result, judgement.error, guard, tail), tail
    if judgement.holds and (said := _no_test_ran(tests.values())) is not None:
        # `cargo test NAME` whose NAME matches no test, pytest's every test skipped: exit 0
        failures = (_NO_TEST_RAN,)
        return _unmet(make, exit_text, ledger.clean_line(said), failures, tail), tail
    if judgement.holds and status == 0 and (silent := _silent(started, tests.values())):
        # `cargo test -q` through a `runner` that runs nothing, pytest's `-p no:terminal`
        failures = (_SILENT.format(runner=silent),)
        return _unmet(make, exit_text, judgement.evidence, failures, tail), tail
    if judgement.holds:
        return make(
            Verdict.MET, exit_text, judgement.evidence or "(no output)", bool(judgement.evidence)
        ), tail
    return _unmet(make, exit_text, judgement.evidence, judgement.failures, tail), tail


_NO_TEST_RAN: Final = (
    "no test ran: the test run's summary counts no test passed or failed (a test name that "
    "matches none, or every test skipped, ignored or marked xfail)"
)


_SILENT: Final = (
    "no test ran: the check runs {runner} and its output shows no test run's summary "
    "(output sent elsewhere, a plugin or `runner` that prints or runs nothing); "
    "let the summary line through to the output"
)


def _silent(started: frozenset[str], counts: Iterable[TestCount]) -> str | None:
    """The first runner the command starts (:func:`runners`) of which no line was seen."""
    seen = set().union(*(count.kinds for count in counts))
    return next((name for name in sorted(started) if name not in seen), None)


def _no_test_ran(counts: Iterable[TestCount]) -> str | None:
    """The first summary line of a test run, when the streams hold some and none counts a
    test that ran, or that of a pytest or unittest session that ran none."""
    seen = []
    for count in counts:
        count.finish()
        if count.first is not None:
            seen.append(count)
    idle = [count for count in seen if count.idle is not None]
    if idle:
        return idle[0].evidence
    if not seen or any(count.ran for count in seen):
        return None
    return seen[0].evidence


def absolute_path(value: str) -> str:
    """``PATH`` without its empty and relative entries, which the shell looks up in the check's
    working directory, the work tree: with `PATH=:/usr/bin` (as `PATH=$EXTRA:$PATH` makes it
    when `EXTRA` is unset) a check's `git` was a program left there, untracked and excluded."""
    kept = [entry for entry in value.split(os.pathsep) if os.path.isabs(entry)]
    return os.pathsep.join(kept) or os.defpath  # an empty PATH is one entry: the folder itself


_probed: dict[tuple[object, ...], str | None] = {}
_probe_lock = threading.Lock()


def shell_problem(shell: str, *, cwd: str, env: Mapping[str, str]) -> str | None:
    """Why ``shell`` is no shell (it did not run the probe as a shell does), or None; asked once
    per shell file and process (a long-lived server asks again when the file changed). The
    default shell is not asked: it is the system's. A shell that cannot be started is not
    judged here: the check's own start says why."""
    if shell == settings.DEFAULT_SHELL:
        return None
    try:
        found = os.stat(shell)
        key: tuple[object, ...] = (shell, found.st_dev, found.st_ino, found.st_mtime_ns)
    except (OSError, ValueError):
        return None  # it cannot start either: the check's start says so
    with _probe_lock:  # rows run in threads with --jobs: one probe per shell
        if key not in _probed:
            from goalfile.run import probe

            answer = probe(shell=shell, command=settings.PROBE_COMMAND, cwd=cwd, env=env)
            _probed[key] = None if answer is None else settings.probe_problem(*answer, shell)
        return _probed[key]


def _unmet(
    make: Callable[[Verdict, str, str, bool], RowResult],
    exit_text: str,
    evidence: str,
    failures: Sequence[str],
    tail: Tails,
) -> RowResult:
    """An unmet row: the decisive output line, or, when the check printed nothing, the reason."""
    if evidence:
        result = make(Verdict.UNMET, exit_text, evidence, True)
        return _with_excerpt(replace(result, why=tuple(failures)), tail, failures)
    reason = "; ".join(failures) or "(no output)"
    result = make(Verdict.UNMET, exit_text, f"{reason} (no output)", False)
    return _with_excerpt(replace(result, why=tuple(failures)), tail, ())


def _not_judged(result: RowResult, reason: str, guard: MatchGuard, tail: Tails) -> RowResult:
    """An error row whose output could not be judged: a ``matches`` search ran out of time
    (cut short when the goal's time limit was what it ran out of)."""
    judged = replace(result, evidence=reason, why=(reason,), cut_short=guard.cut_short)
    return _with_excerpt(judged, tail, ())


def _last_line(lines: Sequence[str]) -> str:
    for line in reversed(lines):
        if line.strip():
            return line.strip()
    return ""


def _with_excerpt(result: RowResult, tail: Tails, failures: Sequence[str]) -> RowResult:
    out, out_total = ledger.excerpt(tail.stdout)
    err, err_total = ledger.excerpt(tail.stderr)
    if out and err:
        out, err = out[-10:], err[-10:]
    parts = [*failures]
    if out:
        parts.append(f"stdout, last {len(out)} of {out_total} lines")
    if err:
        parts.append(f"stderr, last {len(err)} of {err_total} lines")
    if not out and not err:
        if not failures:
            return result
        parts.append("no output")
    return replace(result, excerpt=(*out, *err), excerpt_label="; ".join(parts))
