"""The digest of the contract a goal holds, computed from the goal without building the
contract (goalfile.contractdigest, what the Stop hook computes at every stop on a met goal), is
the contract's digest (goalfile.contract) and the SHA-256 of the canonical JSON document the
contract's docstring describes, for any rows, non-goals and run settings; and an `expected`
text is normalised as the expected-language formatter prints it, `exit N` included, without
loading that language for `exit N`."""

from __future__ import annotations

import hashlib
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalfile import contract, contractdigest
from goalfile.errors import GoalfileError
from goalfile.expect import format_expected, parse_expected
from goalfile.parse import parse_goal
from tests.test_contract import Clause, Row, goals, render

EXPECTED = [
    "exit 0",
    "exit 255",
    "exit 256",
    "exit 007",
    "exit  0",
    " exit 0\t",
    "exit 0\n",
    "EXIT 0",
    "Exit 3",
    "exit 0;",
    "exit 0 and stdout empty",
    "exit -1",
    "exit +1",
    "exit 1e3",
    "exit",
    "exit \u0663",
    "exit\u00a00",
    "exit 0\u00a0",
    "exit nonzero",
    'stdout contains "x"',
    "prints 0",
    "no such clause",
    "",
]
SETTING_LINES = ["", "cwd: .\n", "cwd: sub/../sub\n", "shell: /bin/bash\n", "timeout: 30\n"]
SETTING_LINES += ["timeout: 0.5\n", "cwd: ./x\nshell: /bin/sh\ntimeout: 7\n"]


def by_the_document(goal_contract: contract.Contract) -> str:
    """The digest as the contract's docstring defines it: one JSON document, hashed whole."""
    document: dict[str, object] = {
        "criteria": [row.to_json() for row in goal_contract.rows],
        "non_goals": list(goal_contract.non_goals),
    }
    if goal_contract.settings:
        document["settings"] = dict(goal_contract.settings)
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def as_formatted(text: str) -> str:
    """`normal_expected` as the contract defined it before the digest had a module of its own."""
    try:
        return format_expected(parse_expected(text))
    except GoalfileError:
        return " ".join(text.split())


def test_an_expected_text_is_normalised_as_the_formatter_prints_it() -> None:
    for text in EXPECTED:
        assert contractdigest.normal_expected(text) == as_formatted(text), repr(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    goal=goals(),
    expected=st.lists(st.sampled_from(EXPECTED), max_size=5),
    setting=st.sampled_from(SETTING_LINES),
    twice=st.booleans(),
)
def test_the_goals_digest_is_the_contracts(
    goal: tuple[list[Row], list[str]], expected: list[str], setting: str, twice: bool
) -> None:
    rows, non_goals = goal
    rows = [
        Row(
            id=row.id,
            criterion=row.criterion,
            check=row.check,
            clauses=(Clause((text,)),) if text.strip() and "|" not in text else row.clauses,
            kind=row.kind,
            timeout=row.timeout,
        )
        for row, text in zip(rows, [*expected, *[""] * len(rows)], strict=False)
    ]
    if twice:  # an id listed twice, once without a time limit
        rows.append(Row(rows[0].id, "again", rows[0].check, rows[0].clauses, rows[0].kind, None))
    text = render(rows, non_goals).replace("tokens_used: 0\n", f"tokens_used: 0\n{setting}")
    parsed = parse_goal(text, path="goal.md")
    held = contract.contract_of(parsed)
    assert contractdigest.digest(parsed) == held.digest() == by_the_document(held)
    assert contract.digest(parsed) == held.digest()
