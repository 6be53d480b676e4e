"""The words of a hold on a goal verify found unmet or blocked: the summary line, each row
not met with its evidence and, while they fit, its output. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from goalfile.commands.hookrules.outcome import REASON_LIMIT, clip
from goalfile.model import RowResult, Verdict
from goalfile.shellword import shell_word

if TYPE_CHECKING:
    from goalfile.commands.verify import VerifyResult


def block_reason(
    result: VerifyResult,
    *,
    shown_path: str,
    review_ids: frozenset[str] = frozenset(),
    limit: int = REASON_LIMIT,
) -> str:
    """The summary line, then each unmet or error row's evidence, the notes on rows no work on
    the code can meet (a package under `src/` not installed), and output while it fits."""
    head = [
        result.summary,
        "",
        f"The goal in {shown_path} is not met, so this turn goes on. Fix the work, never the "
        "criteria, the ledger or the status; the next stop re-runs `goalfile verify` "
        "(see the refine-goal skill).",
    ]
    failing = [row for row in result.rows if row.verdict is not Verdict.MET]
    rows = [f"- {r.id} {r.verdict.value} (exit {r.exit}): {evidence(r)}" for r in failing]
    if failing and all(row.id in review_ids for row in failing):
        head.append(
            "Only review rows remain: record each review with `goalfile review` "
            "(see the verify-goal skill)."
        )
    text = "\n".join([*head, "", "Not met:", *rows]) if rows else "\n".join(head)
    if result.setup_notes:
        text += "\n\n" + "\n".join(result.setup_notes)
    if len(text) > limit:
        return clip(text, limit)
    for row in failing:  # add output excerpts while they fit
        if not row.excerpt:
            continue
        block = "\n".join(
            [f"{row.id} output ({row.excerpt_label}):", *(f"    {line}" for line in row.excerpt)]
        )
        if len(text) + 2 + len(block) > limit:
            break
        text += "\n\n" + block
    return text


def evidence(row: RowResult) -> str:
    from goalfile.explain import why_line

    return why_line(row)


def cwd_fix(result: VerifyResult) -> str:
    """The lines `goalfile verify` prints when the goal's `cwd:` names a folder that is not
    there (its file and line, and the fix), each after a line break; else ""."""
    if result.missing_cwd is None:
        return ""
    message, fix = result.missing_cwd
    return f"\n{message}\n  fix: {fix}"


def block_words(
    summary: str, rows: Sequence[RowResult], reason: str | None, shown: str
) -> tuple[str, str]:
    """What a hold on a block a verify run wrote says: the summary line and each row not met
    (an error, or an unmet row the stall guard saw again), then what to do about it."""
    errors = [row for row in rows if row.verdict is Verdict.ERROR]
    failing = [  # a row not run (a token budget that stopped the run) says nothing more
        row
        for row in rows
        if row.verdict is Verdict.ERROR or (row.verdict is Verdict.UNMET and row.exit != "-")
    ]
    listed = "".join(
        f"\n- {r.id} {r.verdict.value} (exit {r.exit}): {evidence(r)}" for r in failing
    )
    if errors:
        cause = (
            "a check could not be judged. Fix the cause in the work (a command the check runs "
            "that is missing, exits 126 or 127, or outlasts its time limit)"
        )
    elif reason and reason.startswith("no progress"):
        cause = (
            f"{reason}. Fix the cause in the work (the rows not met: the same verify run "
            "repeated without a change blocks the goal)"
        )
    else:
        cause = f"{reason or 'verify blocked it'}. Fix the cause"
    resume = f"`goalfile resume {shell_word(shown)} --resolved TEXT`"
    return f"goalfile: {summary}{listed}", (
        f"{shown} is blocked: {cause}, never the check, its time limit, the criteria or the "
        f"status; then {resume} makes the goal active again and the next stop verifies it. "
        "If only a person can fix it (a tool to install, a check that needs more time), stop "
        "and say so."
    )
