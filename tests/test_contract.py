"""goalfile.contract and goalfile.contractdiff: the digest's normalisation, the recorded approval,
and classified changes."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalfile import contract, contractdiff, ledger
from goalfile.contract import Contract, ContractRow
from goalfile.contractdiff import ChangeKind
from goalfile.errors import Refused
from goalfile.model import Entry
from goalfile.parse import parse_goal

COLUMNS = ("id", "criterion", "check", "expected", "kind", "timeout")

# --- writing goal files from rows, plainly or with cosmetic differences --------------------


@dataclasses.dataclass(frozen=True)
class Clause:
    """One clause of `expected`, as parts so it can be written in several cosmetic ways."""

    words: tuple[str, ...]  # keywords and operands; a quoted TEXT is one word

    def write(self, *, upper: bool, gap: str) -> str:
        keywords = {"exit", "nonzero", "stdout", "stderr", "output", "contains", "lacks", "empty"}
        out = [w.upper() if upper and w in keywords else w for w in self.words]
        return gap.join(out)


@dataclasses.dataclass(frozen=True)
class Row:
    id: str
    criterion: str
    check: str
    clauses: tuple[Clause, ...]
    kind: str  # "deterministic" or "review"
    timeout: int | None


def expected_text(clauses: Sequence[Clause], *, sep: str = "; ", upper: bool = False) -> str:
    return sep.join(c.write(upper=upper, gap=" ") for c in clauses)


def cell_code(command: str) -> str:
    return ledger.code_span(command)


def render(
    rows: Sequence[Row],
    non_goals: Sequence[str],
    *,
    columns: Sequence[str] = COLUMNS,
    pad: int = 1,
    rule: str = "---",
    sep: str = "; ",
    upper: bool = False,
    kind_case: str = "lower",
    timeout_style: str = "int",
    non_goal_gap: str = " ",
) -> str:
    def cells(row: Row) -> dict[str, str]:
        kind = row.kind
        if kind_case == "title":
            kind = kind.title()
        elif kind_case == "blank" and kind == "deterministic":
            kind = ""
        timeout = ""
        if row.timeout is not None:
            timeout = {
                "int": f"{row.timeout}",
                "float": f"{row.timeout}.0",
                "s": f"{row.timeout}s",
            }[timeout_style]
        return {
            "id": row.id,
            "criterion": row.criterion,
            "check": cell_code(row.check),
            "expected": expected_text(row.clauses, sep=sep, upper=upper),
            "kind": kind,
            "timeout": timeout,
        }

    space = " " * pad
    header = "|" + "|".join(f"{space}{name}{space}" for name in columns) + "|"
    line = "|" + "|".join(rule for _ in columns) + "|"
    body = [
        "|" + "|".join(f"{space}{cells(row)[name]}{space}" for name in columns) + "|"
        for row in rows
    ]
    goals = [f"-{non_goal_gap}{non_goal_gap.join(item.split(' '))}" for item in non_goals]
    return "\n".join(
        [
            "---",
            "slug: demo",
            "status: active",
            "created: 2026-11-30",
            "budget:",
            "  iterations: 5",
            "  tokens: null",
            "iterations_used: 1",
            "tokens_used: 0",
            "---",
            "# Goal: the checks pass",
            "",
            "## Non-goals",
            *goals,
            "",
            "## Acceptance criteria",
            header,
            line,
            *body,
            "",
            "## Iterations",
            "",
            "## Lessons",
            "",
        ]
    )


def digest_of(text: str) -> str:
    return contract.digest(parse_goal(text, path="goal.md"))


# --- strategies ---------------------------------------------------------------------------

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8)
QUOTED = WORD.map(lambda w: f'"{w}"')
STREAM = st.sampled_from(["stdout", "stderr", "output"])

CLAUSES = st.one_of(
    st.integers(0, 255).map(lambda n: Clause(("exit", str(n)))),
    st.integers(0, 255).map(lambda n: Clause(("exit", "!=", str(n)))),
    st.just(Clause(("exit", "nonzero"))),
    st.tuples(STREAM, QUOTED).map(lambda t: Clause((t[0], "contains", t[1]))),
    st.tuples(STREAM, QUOTED).map(lambda t: Clause((t[0], "lacks", t[1]))),
    STREAM.map(lambda s: Clause((s, "empty"))),
)
CHECK = st.lists(
    st.text(alphabet="abcdefghij-.=/>'\"|", min_size=1, max_size=6), min_size=1, max_size=4
).map(" ".join)
NON_GOAL = st.lists(WORD, min_size=1, max_size=4).map(" ".join)


@st.composite
def goals(draw: st.DrawFn) -> tuple[list[Row], list[str]]:
    count = draw(st.integers(1, 5))
    ids = draw(st.lists(st.integers(1, 30), min_size=count, max_size=count, unique=True))
    rows = [
        Row(
            id=f"C{n}",
            criterion=draw(NON_GOAL),
            check=draw(CHECK),
            clauses=tuple(draw(st.lists(CLAUSES, min_size=1, max_size=3))),
            kind=draw(st.sampled_from(["deterministic", "review"])),
            timeout=draw(st.one_of(st.none(), st.integers(1, 10_000))),
        )
        for n in ids
    ]
    non_goals = draw(st.lists(NON_GOAL, max_size=3, unique=True))
    return rows, non_goals


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the digest ---------------------------------------------------------------------------


@SETTINGS
@given(
    goal=goals(),
    data=st.data(),
)
def test_cosmetic_edits_keep_the_digest(
    goal: tuple[list[Row], list[str]], data: st.DataObject
) -> None:
    rows, non_goals = goal
    plain = digest_of(render(rows, non_goals))
    columns = data.draw(st.permutations(COLUMNS))
    shuffled = data.draw(st.permutations(rows))
    reordered_goals = data.draw(st.permutations(non_goals))
    cosmetic = render(
        shuffled,
        reordered_goals,
        columns=columns,
        pad=data.draw(st.integers(1, 4)),
        rule=data.draw(st.sampled_from(["---", ":---", "---:", ":-:", " --- ", "-"])),
        sep=data.draw(st.sampled_from(["; ", ";", " ;  ", " and ", "  AND  "])),
        upper=data.draw(st.booleans()),
        kind_case=data.draw(st.sampled_from(["lower", "title", "blank"])),
        timeout_style=data.draw(st.sampled_from(["int", "float", "s"])),
        non_goal_gap=data.draw(st.sampled_from([" ", "  ", "\t"])),
    )
    assert digest_of(cosmetic) == plain
    # the criterion's prose is not part of the contract either
    reworded = [dataclasses.replace(r, criterion=r.criterion + " now") for r in rows]
    assert digest_of(render(reworded, non_goals)) == plain


def _semantic_edits(rows: list[Row], non_goals: list[str], pick: int) -> list[tuple[str, str]]:
    """(what, text) for one semantic edit of each kind, applied to row ``pick``."""
    target = rows[pick % len(rows)]

    def with_row(new: Row | None) -> list[Row]:
        return [r for r in rows if r is not target] + ([new] if new is not None else [])

    edits: list[tuple[str, list[Row], list[str]]] = [
        ("check", with_row(dataclasses.replace(target, check=target.check + " x")), non_goals),
        (
            "expected: clause added",
            with_row(
                dataclasses.replace(
                    target, clauses=(*target.clauses, Clause(("stdout", "contains", '"zz9"')))
                )
            ),
            non_goals,
        ),
        (
            "expected: clause dropped",
            with_row(dataclasses.replace(target, clauses=target.clauses[:-1]))
            if len(target.clauses) > 1
            else with_row(
                dataclasses.replace(target, clauses=(Clause(("stderr", "contains", '"zz9"')),))
            ),
            non_goals,
        ),
        (
            "kind",
            with_row(
                dataclasses.replace(
                    target, kind="review" if target.kind == "deterministic" else "deterministic"
                )
            ),
            non_goals,
        ),
        (
            "timeout",
            with_row(
                dataclasses.replace(
                    target, timeout=7 if target.timeout is None else target.timeout + 1
                )
            ),
            non_goals,
        ),
        ("timeout removed", with_row(dataclasses.replace(target, timeout=None)), non_goals)
        if target.timeout is not None
        else ("skip", rows, non_goals),
        ("id", with_row(dataclasses.replace(target, id=target.id + "a")), non_goals),
        ("row removed", with_row(None), non_goals) if len(rows) > 1 else ("skip", rows, non_goals),
        (
            "row added",
            [*rows, dataclasses.replace(target, id="C99")],
            non_goals,
        ),
        ("non-goal added", rows, [*non_goals, "also this"]),
    ]
    if non_goals:
        edits.append(("non-goal removed", rows, non_goals[1:]))
        edits.append(("non-goal changed", rows, [non_goals[0] + "x", *non_goals[1:]]))
    return [(what, render(r, g)) for what, r, g in edits if what != "skip"]


@SETTINGS
@given(goal=goals(), pick=st.integers(0, 10))
def test_every_semantic_edit_changes_the_digest(
    goal: tuple[list[Row], list[str]], pick: int
) -> None:
    rows, non_goals = goal
    plain = digest_of(render(rows, non_goals))
    for what, text in _semantic_edits(rows, non_goals, pick):
        assert digest_of(text) != plain, what


def test_digest_format_and_short() -> None:
    rows = [Row("C1", "works", "true", (Clause(("exit", "0")),), "deterministic", None)]
    full = digest_of(render(rows, ["nothing else"]))
    assert full.startswith("sha256:") and len(full) == len("sha256:") + 64
    assert contract.short(full) == full[7:19]


# --- the approval record ------------------------------------------------------------------


@SETTINGS
@given(goal=goals())
def test_the_recorded_approval_reads_back_as_the_same_contract(
    goal: tuple[list[Row], list[str]],
) -> None:
    rows, non_goals = goal
    parsed = parse_goal(render(rows, non_goals), path="goal.md")
    approved = contract.contract_of(parsed)
    entry = Entry(
        iteration=0,
        date="2026-11-30",
        by="activate",
        notes=("contract approved", "", *contract.approval_lines(approved)),
        contract=contract.short(approved.digest()),
    )
    lines = ledger.render_entry(entry)
    back = ledger.parse_entry(lines)
    assert back is not None and back.rows == ()  # the approved rows are not verdict rows
    assert contract.recorded(back) == approved
    assert approved.digest() == contract.digest(parsed)


def test_an_entry_without_a_table_records_nothing() -> None:
    entry = Entry(iteration=0, date="2026-11-30", by="activate", notes=("contract approved: C1",))
    assert contract.recorded(entry) is None


def test_hostile_cells_survive_the_record() -> None:
    row = ContractRow(
        id="C1",
        check="printf '%s' \"a|b\" | grep -c '`x``' \\| cat",
        expected='stdout contains "a|b"; exit 0',
        kind="deterministic",
        timeout=2.5,
    )
    approved = Contract(rows=(row,), non_goals=("`x` | y", "status: met"))
    lines = ledger.render_entry(
        Entry(
            iteration=1,
            date="2026-11-30",
            by="activate",
            notes=tuple(contract.approval_lines(approved)),
        )
    )
    assert not any(line.startswith("status:") for line in lines)
    back = ledger.parse_entry(lines)
    assert back is not None
    assert contract.recorded(back) == approved


# --- classified changes -------------------------------------------------------------------


def _row(expected: str = "exit 0", **fields: object) -> ContractRow:
    base: dict[str, object] = {
        "id": "C2",
        "check": "git diff --stat main -- fixtures",
        "expected": contract.normal_expected(expected),
        "kind": "deterministic",
        "timeout": None,
    }
    base.update(fields)
    return ContractRow(**base)  # type: ignore[arg-type]


def _diff(old: ContractRow | None, new: ContractRow | None) -> contractdiff.Change:
    before = Contract(rows=(old,) if old else (), non_goals=())
    after = Contract(rows=(new,) if new else (), non_goals=())
    (change,) = contractdiff.changes(before, after)
    return change


def test_the_brief_example_reads_as_written() -> None:
    change = _diff(_row("exit 0; output empty"), _row("exit 0"))
    assert change.loosened
    assert change.kinds == (ChangeKind.CLAUSE_DROPPED,)
    assert change.describe() == (
        "C2 expected: `exit 0; output empty` → `exit 0` (loosened: clause dropped `output empty`)"
    )


@pytest.mark.parametrize(
    ("old", "new", "kind", "effect"),
    [
        ("exit 0; output empty", "output empty", ChangeKind.EXIT_DROPPED, "loosened"),
        ("exit 0", "exit != 1", ChangeKind.EXIT_WIDENED, "loosened"),
        ("exit 0", "exit nonzero", ChangeKind.EXIT_WIDENED, "loosened"),
        ("exit nonzero", "exit 3", ChangeKind.CLAUSE_ADDED, "tightened"),
        (
            'exit 0; stdout contains "42 passed"',
            'exit 0; stdout contains "passed"',
            ChangeKind.CONTAINS_WEAKER,
            "loosened",
        ),
        ('exit 0; stdout contains "passed"', "exit 0", ChangeKind.CONTAINS_WEAKER, "loosened"),
        (
            'exit 0; stdout contains "passed"',
            "exit 0; stdout matches /pass/",
            ChangeKind.CONTAINS_WEAKER,
            "loosened",
        ),
        (
            'exit 0; stdout contains "passed"',
            'exit 0; output contains "passed"',
            ChangeKind.CONTAINS_WEAKER,
            "loosened",
        ),
        (
            'exit 0; output contains "passed"',
            'exit 0; stdout contains "3 passed"',
            ChangeKind.CLAUSE_ADDED,
            "tightened",
        ),
        (
            'exit 0; stdout contains "ok"',
            'exit 0; prints "all ok"',
            ChangeKind.CLAUSE_ADDED,
            "tightened",
        ),
        ('exit 0; stdout lacks "error"', "exit 0", ChangeKind.CLAUSE_DROPPED, "loosened"),
        (
            'exit 0; stdout lacks "err"',
            'exit 0; stdout lacks "error"',
            ChangeKind.CLAUSE_DROPPED,
            "loosened",
        ),
        (
            'exit 0; stdout lacks "error"',
            'exit 0; output lacks "err"',
            ChangeKind.CLAUSE_ADDED,
            "tightened",
        ),
        (
            'exit 0; stdout lacks "error"',
            "exit 0; output empty",
            ChangeKind.CLAUSE_ADDED,
            "tightened",
        ),
        (
            "exit 0; stdout matches /a+/",
            "exit 0; stdout matches /a?b/",
            ChangeKind.CLAUSE_DROPPED,
            "loosened",
        ),
        ('prints "7"', 'prints "8"', ChangeKind.CLAUSE_DROPPED, "loosened"),
        (
            'exit 0; stdout contains "a"',
            'stdout contains "a"; exit 0',
            ChangeKind.EXPECTED_CHANGED,
            "changed",
        ),
    ],
)
def test_expected_changes_are_classified(old: str, new: str, kind: ChangeKind, effect: str) -> None:
    change = _diff(_row(old), _row(new))
    assert change.field == "expected"
    assert kind in change.kinds, change.describe()
    assert change.effect == effect, change.describe()


def test_row_and_field_changes_are_classified() -> None:
    removed = _diff(_row(), None)
    assert (removed.kinds, removed.effect) == ((ChangeKind.ROW_REMOVED,), "loosened")
    assert removed.describe().startswith("C2 removed: deterministic row, check `git diff")
    added = _diff(None, _row())
    assert (added.kinds, added.effect) == ((ChangeKind.ROW_ADDED,), "tightened")
    check = _diff(_row(), _row(check="true"))
    assert (check.kinds, check.effect) == ((ChangeKind.CHECK_CHANGED,), "changed")
    assert "`git diff --stat main -- fixtures` → `true`" in check.describe()
    review = _diff(_row(), _row(kind="review"))
    assert (review.kinds, review.effect) == ((ChangeKind.KIND_REVIEW,), "loosened")
    back = _diff(_row(kind="review"), _row())
    assert (back.kinds, back.effect) == ((ChangeKind.KIND_CHANGED,), "tightened")
    raised = _diff(_row(timeout=60.0), _row(timeout=600.0))
    assert (raised.kinds, raised.effect) == ((ChangeKind.TIMEOUT_RAISED,), "loosened")
    assert raised.describe() == "C2 timeout: `60` → `600` (loosened: timeout raised)"
    lowered = _diff(_row(timeout=60.0), _row(timeout=6.0))
    assert (lowered.kinds, lowered.effect) == ((ChangeKind.TIMEOUT_LOWERED,), "tightened")
    dropped = _diff(_row(timeout=60.0), _row(timeout=None))
    assert (dropped.kinds, dropped.effect) == ((ChangeKind.TIMEOUT_RAISED,), "loosened")


def test_non_goal_changes() -> None:
    rows = (_row(),)
    found = contractdiff.changes(
        Contract(rows=rows, non_goals=("a", "b")), Contract(rows=rows, non_goals=("b", "c"))
    )
    assert [(c.kinds, c.effect) for c in found] == [
        ((ChangeKind.NON_GOAL_REMOVED,), "loosened"),
        ((ChangeKind.NON_GOAL_ADDED,), "tightened"),
    ]
    assert found[0].describe() == "non-goal removed: a (loosened: non-goal removed)"


def test_no_change_no_changes() -> None:
    approved = Contract(rows=(_row(),), non_goals=("x",))
    assert contractdiff.changes(approved, approved) == ()


# --- the pin ------------------------------------------------------------------------------


def _pinned_goal(expected_now: str) -> str:
    rows = [
        Row(
            "C2",
            "quiet",
            "cat quiet.txt",
            (Clause(("exit", "0")), Clause(("output", "empty"))),
            "deterministic",
            None,
        )
    ]
    text = render(rows, ["nothing"])
    approved = contract.contract_of(parse_goal(text, path="goal.md"))
    entry = ledger.render_entry(
        Entry(
            iteration=0,
            date="2026-11-30",
            by="activate",
            notes=("contract approved: C2", "", *contract.approval_lines(approved)),
            contract=contract.short(approved.digest()),
        )
    )
    text = text.replace("## Iterations\n", "## Iterations\n\n" + "\n".join(entry) + "\n")
    text = text.replace("tokens_used: 0\n", f"tokens_used: 0\ncontract: {approved.digest()}\n")
    return text.replace("| exit 0; output empty |", f"| {expected_now} |")


def test_require_pin_passes_an_unchanged_contract() -> None:
    goal = parse_goal(_pinned_goal("exit 0; output empty"), path="goal.md")
    assert contract.require_pin(goal) == contract.pinned(goal)


def test_require_pin_names_each_changed_row_and_field() -> None:
    goal = parse_goal(_pinned_goal("exit 0"), path="goal.md")
    with pytest.raises(Refused) as caught:
        contract.require_pin(goal)
    message = caught.value.message
    assert "nothing was run" in message
    assert "C2 expected: `exit 0; output empty` → `exit 0` (loosened: clause dropped" in message
    assert caught.value.line == goal.key_line("contract")
    assert "--reapprove goal.md" in (caught.value.hint or "")


TEXTS = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20
) | st.sampled_from(["", "exit 0", 'out "é" \\ |', "\udcff"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.builds(
            ContractRow,
            id=TEXTS,
            check=TEXTS,
            expected=TEXTS,
            kind=st.sampled_from(["deterministic", "review"]),
            timeout=st.none() | st.floats(min_value=0.001, max_value=1e6),
        ),
        max_size=5,
    ),
    st.lists(TEXTS, max_size=3),
    st.lists(st.tuples(st.sampled_from(["cwd", "shell", "timeout"]), TEXTS), max_size=3),
)
def test_the_digest_is_sha256_of_the_canonical_json_of_the_whole_contract(
    rows: list[ContractRow], non_goals: list[str], run_settings: list[tuple[str, str]]
) -> None:
    """As docs/trust.md defines it, whether hashed at once or a row at a time."""
    import hashlib
    import json

    found = Contract(rows=tuple(rows), non_goals=tuple(non_goals), settings=tuple(run_settings))
    document: dict[str, object] = {
        "criteria": [row.to_json() for row in rows],
        "non_goals": list(non_goals),
    }
    if run_settings:
        document["settings"] = dict(run_settings)
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    wanted = hashlib.sha256(canonical.encode("utf-8", "surrogateescape")).hexdigest()
    assert found.digest() == "sha256:" + wanted
