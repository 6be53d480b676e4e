"""What changed between two contracts, field by field, and whether each change loosened,
tightened or only changed it: what a re-approval shows, what ``verify`` refuses and
``audit`` reports. Kept apart from :mod:`goalfile.contract` because a run whose contract still
matches its pin compares nothing: ``verify`` loads this module only when the pin does not
match (or the goal changed during the run), and ``activate`` and ``audit`` when they compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Final, Literal

from goalfile.contract import Contract, ContractRow, Effect, number_text, order_change
from goalfile.errors import GoalfileError
from goalfile.expect import ExitClause, Expectation, format_clause, format_expected, parse_expected
from goalfile.expecttext import EmptyClause, MatchClause, PrintsClause, TextClause
from goalfile.ledger import line_code
from goalfile.value import Compared

if TYPE_CHECKING:
    from goalfile.expect import Clause

__all__ = [
    "Change",
    "ChangeKind",
    "changes",
    "compare_expected",
    "describe_row",
    "implies",
    "order_changed",
]


class ChangeKind(StrEnum):
    ROW_ADDED = "row-added"
    ROW_REMOVED = "row-removed"
    CHECK_CHANGED = "check-changed"
    EXIT_DROPPED = "exit-clause-dropped"
    EXIT_WIDENED = "exit-widened"
    CONTAINS_WEAKER = "contains-weaker"
    CLAUSE_DROPPED = "clause-dropped"
    CLAUSE_ADDED = "clause-added"
    EXPECTED_CHANGED = "expected-changed"
    TIMEOUT_RAISED = "timeout-raised"
    TIMEOUT_LOWERED = "timeout-lowered"
    TIMEOUT_CHANGED = "timeout-changed"
    KIND_REVIEW = "kind-changed-to-review"
    KIND_CHANGED = "kind-changed"
    NON_GOAL_REMOVED = "non-goal-removed"
    NON_GOAL_ADDED = "non-goal-added"
    SETTING_CHANGED = "run-setting-changed"
    ORDER_CHANGED = "run-order-changed"


class Change(Compared):
    """One change between two contracts: a row added or removed, a field, or a non-goal."""

    __slots__ = ("effect", "field", "kinds", "new", "old", "reasons", "row")

    def __init__(
        self,
        *,
        row: str | None,
        field: Literal[
            "row", "check", "expected", "kind", "timeout", "non-goal", "setting", "order"
        ],
        old: str | None,
        new: str | None,
        kinds: tuple[ChangeKind, ...],
        effect: Effect,
        reasons: tuple[str, ...],
    ) -> None:
        self.row: Final = row  # criterion id; None for a non-goal
        self.field: Final = field
        self.old: Final = old
        self.new: Final = new
        self.kinds: Final = kinds
        self.effect: Final = effect
        self.reasons: Final = reasons

    @property
    def loosened(self) -> bool:
        return self.effect == "loosened"

    def describe(self) -> str:
        """One line, e.g. ``C2 expected: `exit 0; output empty` → `exit 0` (loosened: …)``."""
        why = f" ({self.effect}: {'; '.join(self.reasons)})" if self.reasons else ""
        if self.field == "setting":
            was, now = self.old or "(default)", self.new or "(default)"
            return f"run setting {self.row}: {was} → {now}{why}"
        if self.field == "order":
            return f"run order: {self.old} → {self.new}{why}"
        if self.field == "non-goal":
            text = self.old if self.new is None else self.new
            return f"non-goal {'removed' if self.new is None else 'added'}: {text}{why}"
        if self.field == "row":
            shown = self.old if self.new is None else self.new
            verb = "removed" if self.new is None else "added"
            return f"{self.row} {verb}: {shown}{why}"
        old = line_code(self.old or "") if self.old is not None else "-"
        new = line_code(self.new or "") if self.new is not None else "-"
        return f"{self.row} {self.field}: {old} → {new}{why}"

    def to_json(self) -> dict[str, object]:
        return {
            "row": self.row,
            "field": self.field,
            "old": self.old,
            "new": self.new,
            "kinds": [kind.value for kind in self.kinds],
            "effect": self.effect,
            "loosened": self.loosened,
            "reasons": list(self.reasons),
            "text": self.describe(),
        }


ORDER_REASON = "an approved row now runs before another, so it can prepare what that row checks"


def order_changed(old: Sequence[str], new: Sequence[str]) -> Change | None:
    """The change of run order from the approved order ``old`` to ``new`` (ids), or None."""
    moved = order_change(old, new)
    if moved is None:
        return None
    return Change(
        row=None,
        field="order",
        old=", ".join(moved[0]),
        new=", ".join(moved[1]),
        kinds=(ChangeKind.ORDER_CHANGED,),
        effect="changed",
        reasons=(ORDER_REASON,),
    )


def describe_row(row: ContractRow) -> str:
    timeout = "" if row.timeout is None else f", timeout {number_text(row.timeout)}s"
    return (
        f"{row.kind} row, check {line_code(row.check)}, expected {line_code(row.expected)}{timeout}"
    )


def changes(old: Contract, new: Contract) -> tuple[Change, ...]:
    """Every difference from ``old`` to ``new``: rows by id, then fields, then non-goals."""
    found: list[Change] = []
    old_ids = {row.id for row in old.rows}
    new_ids = {row.id for row in new.rows}
    for rid in sorted(old_ids | new_ids):
        before, after = old.row(rid), new.row(rid)
        if after is None and before is not None:
            found.append(
                Change(
                    row=rid,
                    field="row",
                    old=describe_row(before),
                    new=None,
                    kinds=(ChangeKind.ROW_REMOVED,),
                    effect="loosened",
                    reasons=("row removed",),
                )
            )
        elif before is None and after is not None:
            found.append(
                Change(
                    row=rid,
                    field="row",
                    old=None,
                    new=describe_row(after),
                    kinds=(ChangeKind.ROW_ADDED,),
                    effect="tightened",
                    reasons=("row added",),
                )
            )
        elif before is not None and after is not None:
            found += _row_changes(before, after)
    for item in old.non_goals:
        if item not in new.non_goals:
            found.append(
                Change(
                    row=None,
                    field="non-goal",
                    old=item,
                    new=None,
                    kinds=(ChangeKind.NON_GOAL_REMOVED,),
                    effect="loosened",
                    reasons=("non-goal removed",),
                )
            )
    before_settings, after_settings = dict(old.settings), dict(new.settings)
    for key in sorted(set(before_settings) | set(after_settings)):
        was, now = before_settings.get(key), after_settings.get(key)
        if was != now:
            tighter = (
                key == "timeout"
                and was is not None
                and now is not None
                and (float(now) < float(was))
            )
            found.append(
                Change(
                    row=key,
                    field="setting",
                    old=was,
                    new=now,
                    kinds=(ChangeKind.SETTING_CHANGED,),
                    effect="tightened" if tighter else "loosened",
                    reasons=(
                        ("a shorter time limit",)
                        if tighter
                        else (f"`{key}` decides where or how every check runs",)
                    ),
                )
            )
    for item in new.non_goals:
        if item not in old.non_goals:
            found.append(
                Change(
                    row=None,
                    field="non-goal",
                    old=None,
                    new=item,
                    kinds=(ChangeKind.NON_GOAL_ADDED,),
                    effect="tightened",
                    reasons=("non-goal added",),
                )
            )
    return tuple(found)


def _row_changes(before: ContractRow, after: ContractRow) -> list[Change]:
    found: list[Change] = []
    rid = before.id
    if before.check != after.check:
        found.append(
            Change(
                row=rid,
                field="check",
                old=before.check,
                new=after.check,
                kinds=(ChangeKind.CHECK_CHANGED,),
                effect="changed",
                reasons=("check changed; compare the commands, it may be weaker",),
            )
        )
    if before.expected != after.expected:
        kinds, effect, reasons = compare_expected(before.expected, after.expected)
        found.append(
            Change(
                row=rid,
                field="expected",
                old=before.expected,
                new=after.expected,
                kinds=kinds,
                effect=effect,
                reasons=reasons,
            )
        )
    if before.kind != after.kind:
        to_review = after.kind == "review"
        found.append(
            Change(
                row=rid,
                field="kind",
                old=before.kind,
                new=after.kind,
                kinds=(ChangeKind.KIND_REVIEW if to_review else ChangeKind.KIND_CHANGED,),
                effect="loosened" if to_review else "tightened",
                reasons=(
                    "kind changed to review: a reviewer, not a command, decides it"
                    if to_review
                    else f"kind changed to {after.kind}",
                ),
            )
        )
    if before.timeout != after.timeout:
        found.append(_timeout_change(rid, before.timeout, after.timeout))
    return found


def _timeout_change(rid: str, old: float | None, new: float | None) -> Change:
    shown_old = None if old is None else number_text(old)
    shown_new = None if new is None else number_text(new)
    if old is not None and new is not None:
        raised = new > old
        return Change(
            row=rid,
            field="timeout",
            old=shown_old,
            new=shown_new,
            kinds=(ChangeKind.TIMEOUT_RAISED if raised else ChangeKind.TIMEOUT_LOWERED,),
            effect="loosened" if raised else "tightened",
            reasons=("timeout raised" if raised else "timeout lowered",),
        )
    return Change(
        row=rid,
        field="timeout",
        old=shown_old,
        new=shown_new,
        kinds=(ChangeKind.TIMEOUT_RAISED if new is None else ChangeKind.TIMEOUT_CHANGED,),
        effect="loosened" if new is None else "changed",
        reasons=(
            "row timeout removed: the goal's timeout (or none) applies"
            if new is None
            else "row timeout set where the goal's timeout applied",
        ),
    )


# --- comparing two `expected` texts -------------------------------------------------------

_ALL_STATUSES = frozenset(range(256))
_SOURCES = {"stdout": frozenset({"stdout"}), "stderr": frozenset({"stderr"})}
_BOTH = frozenset({"stdout", "stderr"})


def _sources(stream: str) -> frozenset[str]:
    return _SOURCES.get(str(stream), _BOTH)


def _accepted(clauses: Sequence[Clause]) -> frozenset[int]:
    """The exit statuses every exit clause of ``clauses`` accepts (all when there is none)."""
    accepted = _ALL_STATUSES
    for clause in clauses:
        if not isinstance(clause, ExitClause):
            continue
        if clause.op == "nonzero":
            accepted = accepted - {0}
        elif clause.op == "!=":
            accepted = accepted - {clause.value or 0}
        else:
            accepted = accepted & {clause.value or 0}
    return accepted


def implies(stronger: Clause, weaker: Clause) -> bool:
    """Whether ``stronger`` holding always means ``weaker`` holds (exit clauses excluded)."""
    if stronger == weaker:
        return True
    if isinstance(weaker, TextClause) and not weaker.negate:
        if isinstance(stronger, TextClause) and not stronger.negate:
            return (
                _sources(stronger.stream) <= _sources(weaker.stream)
                and weaker.text in stronger.text
            )
        if isinstance(stronger, PrintsClause):
            return "stdout" in _sources(weaker.stream) and weaker.text in stronger.text
        return False
    if isinstance(weaker, TextClause):  # lacks
        if isinstance(stronger, TextClause) and stronger.negate:
            return (
                _sources(stronger.stream) >= _sources(weaker.stream)
                and stronger.text in weaker.text
            )
        if isinstance(stronger, EmptyClause):
            return _sources(stronger.stream) >= _sources(weaker.stream) and bool(
                weaker.text.strip()
            )
        return False
    if isinstance(weaker, EmptyClause):
        return isinstance(stronger, EmptyClause) and _sources(stronger.stream) >= _sources(
            weaker.stream
        )
    if isinstance(weaker, MatchClause):
        return (
            isinstance(stronger, MatchClause)
            and stronger.pattern == weaker.pattern
            and _sources(stronger.stream) <= _sources(weaker.stream)
        )
    return False


def _parsed(text: str) -> Expectation | None:
    try:
        return parse_expected(text)
    except GoalfileError:
        return None


def compare_expected(old: str, new: str) -> tuple[tuple[ChangeKind, ...], Effect, tuple[str, ...]]:
    """Classify the change of an ``expected`` text: kinds, effect, and the reasons."""
    before, after = _parsed(old), _parsed(new)
    if before is None or after is None:
        return (
            (ChangeKind.EXPECTED_CHANGED,),
            "changed",
            ("expected changed; one side does not parse, so its strength cannot be compared",),
        )
    kinds: list[ChangeKind] = []
    reasons: list[str] = []
    old_exit, new_exit = _accepted(before.clauses), _accepted(after.clauses)
    old_exits = [c for c in before.clauses if isinstance(c, ExitClause)]
    new_exits = [c for c in after.clauses if isinstance(c, ExitClause)]
    if not new_exit <= old_exit:
        if not new_exits:
            kinds.append(ChangeKind.EXIT_DROPPED)
            shown = "; ".join(format_clause(c) for c in old_exits)
            reasons.append(f"exit clause dropped `{shown}`: the exit status is no longer judged")
        else:
            kinds.append(ChangeKind.EXIT_WIDENED)
            gained = sorted(new_exit - old_exit)
            sample = ", ".join(str(s) for s in gained[:3]) + (", …" if len(gained) > 3 else "")
            reasons.append(
                f"exit accepts statuses the old clause rejected ({sample}): "
                f"`{format_expected(Expectation(tuple(old_exits)))}` → "
                f"`{format_expected(Expectation(tuple(new_exits)))}`"
            )
    for clause in before.clauses:
        if isinstance(clause, ExitClause):
            continue
        if any(implies(other, clause) for other in after.clauses):
            continue
        if isinstance(clause, TextClause) and not clause.negate:
            kinds.append(ChangeKind.CONTAINS_WEAKER)
            reasons.append(_weaker_contains(clause, after.clauses))
        else:
            kinds.append(ChangeKind.CLAUSE_DROPPED)
            reasons.append(f"clause dropped `{format_clause(clause)}`")
    if kinds:
        return tuple(dict.fromkeys(kinds)), "loosened", tuple(reasons)
    added = [
        clause
        for clause in after.clauses
        if not isinstance(clause, ExitClause)
        and not any(implies(other, clause) for other in before.clauses)
    ]
    if added or new_exit < old_exit:
        reasons = [f"clause added `{format_clause(clause)}`" for clause in added]
        if new_exit < old_exit:
            reasons.append("exit accepts fewer statuses")
        return (ChangeKind.CLAUSE_ADDED,), "tightened", tuple(reasons)
    return (
        (ChangeKind.EXPECTED_CHANGED,),
        "changed",
        ("the same clauses, written differently",),
    )


def _weaker_contains(clause: Clause, after: Sequence[Clause]) -> str:
    assert isinstance(clause, TextClause)
    was = format_clause(clause)
    for other in after:
        if isinstance(other, TextClause) and not other.negate and other.text in clause.text:
            if _sources(other.stream) <= _sources(clause.stream):
                return f"`contains` text shortened: `{was}` → `{format_clause(other)}`"
            return f"`contains` weaker: `{was}` → `{format_clause(other)}`"
        if isinstance(other, TextClause) and not other.negate and clause.text in other.text:
            return f"`contains` stream widened: `{was}` → `{format_clause(other)}`"
    for other in after:
        if isinstance(other, MatchClause) and (_sources(other.stream) & _sources(clause.stream)):
            return f"`contains` turned into something weaker: `{was}` → `{format_clause(other)}`"
    return f"`contains` removed: `{was}`"
