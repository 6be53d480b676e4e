"""Lint's fixes that depend on the state git is in, given for it.

Lint reads a goal's text alone, so two of its fixes assume a state of git: the undo of a
rewrapped ledger (`entry-rewrapped`) assumes the formatter's change is unstaged, and the
rebuild of an entry two runs share (`entry-merged`) assumes a merge commit. Where git is in
another state, the command that prints the fix (lint, so the pre-commit hook; verify; plan;
status) gives the one :mod:`goalfile.commands.rewrapfix` or :mod:`goalfile.commands.mergefix`
reads from git instead, so it works as written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from goalfile.errors import GoalFileInvalid
from goalfile.lint import require_valid
from goalfile.model import Finding, Goal
from goalfile.value import replace


def _by_code() -> dict[str, tuple[str, Callable[..., str | None]]]:
    """Lint's code, the words its fix holds, and the fix for git's state. The two fixes' modules
    are imported only here, for a finding or an error that has such a fix: a goal that lint
    passes (every verify, lint, plan and status of a valid goal) loads neither."""
    from goalfile.commands.mergefix import MERGED_SIDES, merged_hint
    from goalfile.commands.rewrapfix import rewrapped_hint
    from goalfile.lint import REWRAP_UNSTAGED

    return {
        "entry-rewrapped": (REWRAP_UNSTAGED, rewrapped_hint),
        "entry-merged": (MERGED_SIDES, merged_hint),
    }


_CODES = frozenset({"entry-rewrapped", "entry-merged"})


def with_git_hint(finding: Finding, *, path: str, cwd: Path) -> Finding:
    """``finding`` with the fix for git's state, when lint's assumes another (``path`` as the
    person named the file, from ``cwd``)."""
    if finding.code not in _CODES:
        return finding
    known = _by_code()[finding.code]
    hint = known[1](path, cwd=cwd)
    return finding if hint is None else replace(finding, hint=hint)


def error_with_git_hint(exc: GoalFileInvalid, *, path: str, cwd: Path) -> GoalFileInvalid:
    """The error a command gives for such a finding, with the fix for git's state."""
    if exc.hint is None:
        return exc
    for words, hint_for in _by_code().values():
        if words in exc.hint:
            hint = hint_for(path, cwd=cwd)
            if hint is not None:
                exc.hint = hint
            break
    return exc


def require_valid_here(goal: Goal, *, cwd: Path, besides: frozenset[str] = frozenset()) -> None:
    """:func:`goalfile.lint.require_valid`, with the fix for git's state
    (:func:`error_with_git_hint`)."""
    try:
        require_valid(goal, besides=besides)
    except GoalFileInvalid as exc:
        raise error_with_git_hint(exc, path=goal.path, cwd=cwd) from None
