"""The newest approval of a ledger is found from the index of entry headings and a search for
the tightened-contract note, without a step for each entry; it must be the entry a walk of
every entry, newest first, finds (the way it was found before), whatever the ledger holds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import contract, ledger, parse
from goalfile.model import Entry


def newest_approval(text: str, region: tuple[int, int]) -> Entry | None:
    """The newest approval entry, as goalfile finds it (from the index of headings)."""
    head = contract._newest_approval_head(text, region)
    return ledger.read(text, head) if head is not None else None


def walked(text: str, region: tuple[int, int]) -> Entry | None:
    """The newest approval entry, as a walk of every entry finds it."""
    head = contract._newest_head_by_heads(text, region)
    return ledger.read(text, head) if head is not None else None


PIECES = [
    "### Iteration 1 (2026-12-01) by activate",
    "### Iteration 2 (2026-12-01 10:30) by verify-goal",
    "### Iteration 3 (2026-12-01) by stop-hook",
    "### Iteration 4 (2026-12-01) by review",
    "### Iteration 5 (2026-12-01) by verify-goal  ",
    "### iteration 6 (2026-12-01) by activate",
    "contract tightened: C2 added",
    "contract tightened:",
    " contract tightened: C3 added",
    "contract: 0123456789ab",
    "| C1 | met | 0 | `true` | ok |",
    "status: active",
    "```",
    "~~~",
    "text",
    "",
]


def goal(ledger: list[str], after: bool, newline: str) -> str:
    text = "\n".join(
        [
            "---",
            "slug: g",
            "---",
            "# Goal: g",
            "",
            "## Iterations",
            *ledger,
            *(["## Lessons", "contract tightened: C9 added"] if after else []),
            "",
        ]
    )
    return text.replace("\n", newline)


@settings(max_examples=800, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=40),
    st.booleans(),
    st.sampled_from(["\n", "\r\n"]),
)
def test_the_newest_approval_is_the_one_a_walk_of_every_entry_finds(
    ledger: list[str], after: bool, newline: str
) -> None:
    text = goal(ledger, after, newline)
    region = parse.ledger_region(text)
    assert region is not None
    assert newest_approval(text, region) == walked(text, region)


def test_an_approval_before_three_thousand_verify_entries_is_found() -> None:
    entries = ["### Iteration 0 (2026-12-01) by activate", "contract: 0123456789ab"]
    for number in range(1, 3001):
        entries += [f"### Iteration {number} (2026-12-01) by verify-goal", "status: active"]
    entries[2 * 1500 + 1] = "contract tightened: C2 added"  # iteration 1500 pinned a tightening
    text = goal(entries, after=True, newline="\n")
    region = parse.ledger_region(text)
    assert region is not None
    found = newest_approval(text, region)
    assert found is not None
    assert (found.iteration, found.by) == (1500, "verify-goal")
    entries[2 * 1500 + 1] = "status: active"
    text = goal(entries, after=True, newline="\n")
    region = parse.ledger_region(text)
    assert region is not None
    found = newest_approval(text, region)
    assert found is not None
    assert (found.iteration, found.by, found.contract) == (0, "activate", "0123456789ab")
