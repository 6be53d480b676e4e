"""The search that indexes a text's heading lines (``ledger._scan_headings``) finds exactly
what the matches of the engine's own search for its pattern (``ledger._HEADINGS_RE.finditer``)
say: it looks for each `#` with ``str.find``, matches an entry heading's own pattern there
(``ledger._HEADING_RE``) and the whole pattern otherwise, and hands the rest of the text to
the engine's search once too many `#` start no match."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import ledger

LINES = [
    "",
    "#",
    "# Goal: x",
    "## Iterations",
    "## Lessons",
    "##",
    "###",
    "### Iteration 3 (2026-12-01) by verify-goal",
    "### Iteration 12 (2026-12-01 10:20) by activate",
    "### Iteration 12 (2026-12-01T10:20:30) by goalfile-hook\r",
    "### Iteration 4 (2026-12-01) by verify-goal \t\r\r",
    "### Iteration x (2026-12-01) by verify-goal",
    "### iteration 3 (2026-12-01) by verify-goal",
    "#### Iteration 3 (2026-12-01) by verify-goal",
    "# Iteration 5",
    "## iteration notes",
    "#iteration",
    " # x",
    "  ## Iteration 2 (2026-12-01) by verify-goal",
    "   ### Iteration 2 (2026-12-01) by verify-goal",
    "    # x",
    "\t# x",
    "a # b",
    "see https://example.com/a#b and #c",
    "x ### Iteration 3 (2026-12-01) by verify-goal",
    "```text",
    "```",
    "~~~",
    "| C1 | unmet | `cat #x` | 0 | `#` |",
]

texts = st.lists(st.sampled_from(LINES), max_size=40).flatmap(
    lambda lines: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda end: end.join(lines))
)
noise = st.text(alphabet="#\n\r \tIiteration0123456789()-:T by.~`x", max_size=300)


def engine_index(
    text: str, start: int, end: int, *, unfenced: bool
) -> tuple[list[int], list[tuple[int, tuple[str, ...]]], list[int]]:
    """The index made from every match of the engine's search, one at a time."""
    sections: list[int] = []
    found: list[tuple[int, tuple[str, ...]]] = []
    lookalikes: list[int] = []
    fences = None if unfenced else ledger.fence_bounds(text)
    for match in ledger._HEADINGS_RE.finditer(text, start + 1, end):
        groups = match.groups("")
        if groups[2]:
            if fences is None or not ledger.in_bounds(fences, match.start()):
                found.append((match.start(), groups[2:6]))
        elif groups[0]:
            sections.append(match.start())
            if groups[1]:
                lookalikes.append(match.start())
        elif groups[6]:
            lookalikes.append(match.start())
        else:
            lookalikes.append(text.rfind("\n", 0, match.start()) + 1)
    return sections, found, lookalikes


def both(text: str, pos: int, end: int) -> None:
    start = max(pos - 1, 0)  # the newline before the first line searched
    for unfenced in (True, False):
        expected = engine_index(text, start, end, unfenced=unfenced)
        assert ledger._scan_headings(text, start, end, unfenced=unfenced) == expected


@settings(max_examples=1500, deadline=None)
@given(st.one_of(texts, noise), st.data())
def test_the_heading_search_finds_the_engines_matches(text: str, data: st.DataObject) -> None:
    pos = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(pos, len(text)))
    both(text, 0, len(text))
    both(text, pos, end)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=10), st.integers(0, 200))
def test_a_text_of_many_stray_hashes_is_searched_by_the_engine_alike(
    lines: list[str], strays: int
) -> None:
    """Past the stray `#` allowed, the engine's search takes the rest: the same matches."""
    text = "\n" + "\n".join(["a # b #c"] * strays + lines + ["x#"] * strays + lines)
    both(text, 0, len(text))
    both(text, 1, len(text))


def test_the_search_hands_over_after_the_stray_hashes_allowed() -> None:
    heading = "### Iteration 1 (2026-12-01) by verify-goal"
    text = "\n" + "#" * (ledger._MISSES_ALLOWED + 5) + "\n" + heading + "\n## Lessons\n"
    both(text, 1, len(text))
    sections, found, _ = ledger._scan_headings(text, 0, len(text), unfenced=True)
    assert (len(sections), [at for at, _ in found]) == (1, [text.index(heading)])
