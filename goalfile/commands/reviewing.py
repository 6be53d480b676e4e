"""How verify decides a review row: a recorded review, else the judge, else not reviewed."""

from __future__ import annotations

import contextlib
import os
import shlex
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from goalfile import judge, settings
from goalfile.artifacts import ARTIFACT_LIMIT, covers, read_artifact, resolve_artifact
from goalfile.errors import GoalfileError
from goalfile.handedit import iterations_in_use
from goalfile.model import Criterion, Goal, RowResult, Verdict
from goalfile.parse import ledger_region, review_artifact
from goalfile.review import latest_review, quote_present
from goalfile.value import replace

JUDGE_LABEL = "judge:"


@dataclass(frozen=True, kw_only=True)
class Judging:
    goal: Goal
    workdir: Path
    env: Mapping[str, str]
    judge: str | None  # the judge command, if any
    judge_timeout: float
    clock: Callable[[], float]
    deadline: float | None


def decide_review(row: Criterion, done: Sequence[RowResult], how: Judging) -> RowResult:
    goal = how.goal
    region = ledger_region(goal.text)
    # the iteration the ledger backs: an `iterations_used` typed back to an older iteration
    # does not make that iteration's reviews count again
    current = iterations_in_use(goal)
    found = (
        latest_review(goal.text, region, row_id=row.id, iteration=current)
        if region is not None
        else None
    )
    if found is not None:
        return _from_review(row, found.verdict, found.artifact, found.quote, found.reason, how)
    if how.judge:
        return _from_judge(row, done, how)
    return RowResult.not_run(
        row, Verdict.UNMET, f"not reviewed: no review recorded for iteration {current}"
    )


def _from_review(
    row: Criterion, verdict: Verdict, artifact: str, quote: str, reason: str, how: Judging
) -> RowResult:
    if verdict is not Verdict.MET:
        return RowResult.not_run(row, Verdict.UNMET, f"review: unmet: {reason}")
    named = review_artifact(row)
    try:
        target = resolve_artifact(how.workdir, artifact)
        if named is not None and not covers(resolve_artifact(how.workdir, named), target):
            return RowResult.not_run(
                row,
                Verdict.UNMET,
                f"not reviewed: the review read {artifact}, but {row.id} names {named}",
            )
        text, _ = read_artifact(target)
    except GoalfileError as exc:
        return RowResult.not_run(
            row, Verdict.UNMET, f"review quote cannot be checked: {exc.message}"
        )
    if not quote_present(quote, text):
        return RowResult.not_run(row, Verdict.UNMET, f"review quote no longer found in {artifact}")
    return RowResult.not_run(row, Verdict.MET, quote, quoted=True, label="review:")


def _from_judge(row: Criterion, done: Sequence[RowResult], how: Judging) -> RowResult:
    artifact = review_artifact(row) or ""
    try:
        target = resolve_artifact(how.workdir, artifact)
        text, truncated = read_artifact(target, limit=ARTIFACT_LIMIT)
    except GoalfileError as exc:
        return RowResult.not_run(row, Verdict.ERROR, f"judge not run: {exc.message}")
    data = judge.packet(
        goal=how.goal,
        row=row,
        artifact=artifact,
        artifact_text=text,
        truncated=truncated,
        results=done,  # every row decided so far, the review rows judged before this one too
    )
    try:
        raw = _run_judge(data, row, how)
        full_text, _ = read_artifact(target)
        reply = judge.parse_reply(raw, artifact_text=full_text)
    except judge.JudgeRejected as exc:
        rejected = RowResult.not_run(row, Verdict.ERROR, f"judge error: {exc}")
        return replace(rejected, cut_short=isinstance(exc, _JudgeCutShort))
    if reply.verdict is Verdict.MET:
        return RowResult.not_run(row, Verdict.MET, reply.quote, quoted=True, label=JUDGE_LABEL)
    return RowResult.not_run(row, Verdict.UNMET, f"judge: unmet: {reply.reason}")


class _JudgeCutShort(judge.JudgeRejected):
    """The goal's time limit ended the judge's run before it replied."""


def _run_judge(data: bytes, row: Criterion, how: Judging) -> bytes:
    from goalfile.run import CheckSpec, Ending, run_check

    assert how.judge is not None
    handle, packet_path = tempfile.mkstemp(prefix="goalfile-judge-", suffix=".json")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        reply = bytearray()
        overflow = False

        def collect(stream: str, chunk: bytes) -> None:
            nonlocal overflow
            if stream == "stdout":
                room = judge.REPLY_LIMIT - len(reply)
                overflow = overflow or len(chunk) > room
                reply.extend(chunk[: max(room, 0)])

        spec = CheckSpec(
            command=f"exec < {shlex.quote(packet_path)}\n{how.judge}",
            shell=settings.shell(how.goal),
            cwd=str(how.workdir),
            env={
                **how.env,
                "GOALFILE_GOAL": str(Path(how.goal.path).resolve()),
                "GOALFILE_CRITERION": row.id,
            },
            timeout=how.judge_timeout,
        )
        outcome = run_check(spec, on_output=collect, deadline=how.deadline, clock=how.clock)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(packet_path)
    if outcome.ending is Ending.TIMEOUT and outcome.goal_limit:
        raise _JudgeCutShort("the judge had not replied when the goal's time limit was reached")
    if outcome.ending is Ending.TIMEOUT:
        raise judge.JudgeRejected(f"the judge timed out after {how.judge_timeout:g}s")
    if outcome.ending is Ending.NOT_STARTED:
        raise judge.JudgeRejected(f"the judge could not start: {outcome.message}")
    if outcome.ending is Ending.SIGNALLED:
        raise judge.JudgeRejected(f"the judge was killed by signal {outcome.signal}")
    if outcome.exit_status != 0:
        last = next((line for line in reversed(outcome.stderr.tail) if line.strip()), "")
        detail = f": {last.strip()}" if last else ""
        raise judge.JudgeRejected(f"the judge exited {outcome.exit_status}{detail}")
    if overflow:
        raise judge.JudgeRejected(f"the judge's reply is longer than {judge.REPLY_LIMIT} bytes")
    return bytes(reply)
