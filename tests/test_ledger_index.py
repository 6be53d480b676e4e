"""The ledger's bounds and its index of entries agree with a plain reading of the whole text.

The bounds and the index are found by searches that skip the lines between headings; each
property here compares them with a reference that reads every line (the way goalfile read the
ledger before it kept an index), on texts built from the lines that matter: headings of every
level, entry headings good and malformed, fences of both kinds and their look-alikes, table
rows and status lines.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import contract, edit, handedit, ledger, parse, progress
from goalfile.errors import GoalfileError
from goalfile.model import Entry, Status
from goalfile.value import replace

LINES = [
    "",
    "text",
    "# Goal: a title",
    "## Iterations",
    "## iterations ##",
    "## Lessons",
    "#\tH1 with a tab",
    "### Iteration 1 (2026-11-30) by verify-goal",
    "### Iteration 2 (2026-12-01) by activate",
    "### Iteration 3 (2026-12-01) by plan",
    "### Iteration 4 (2026-12-01) by review",
    "### Iteration 5 (2026-12-01) by resume  ",
    "### Iteration x (2026-12-01) by verify-goal",
    "### Iteration 6 (2026-12-01) by verify-goal\r",
    "### Iteration 8 (2026-12-01 10:30) by verify-goal",
    "### Iteration 9 (2026-12-01T10:30:15) by activate",
    "### Iteration 9 (2026-12-01 7:30) by activate",
    "#### Iteration 7 (2026-12-01) by verify-goal",
    "# Iteration 3",
    "## ITERATION",
    " ## iteration 5",
    "   #iteration",
    "| C1 | met | `true` | 0 | `ok` |",
    "| C1 | unmet | `false` | 1 | `no` |",
    "status: active",
    "status: blocked (stuck)",
    "status: nonsense",
    "contract: abcdef123456",
    "```",
    "```python",
    "``` not` closing",
    "   ```",
    "    ```",
    "~~~",
    "~~~~",
    " ~~~ x",
    "text ``` in the middle",
    "`````",
    "    status: active",
]

texts = st.lists(st.sampled_from(LINES), max_size=40).map("\n".join)


def reference_outside_fences(text: str, pos: int) -> Iterator[int]:
    """H1/H2 heading lines outside fenced blocks: one search that stops at every newline."""
    scan = re.compile(r"\n(?:(?P<heading>#{1,2}[ \t])| {0,3}(?:```|~~~))")
    fence: str | None = None
    while True:
        found = scan.search(text, pos)
        if found is None:
            return
        line = found.start() + 1
        pos = found.end()
        if found.group("heading"):
            if fence is None:
                yield line
            continue
        marker = parse.fence_re().match(text, line)
        if marker is None:
            continue
        pos = marker.end()
        if fence is None:
            fence = marker.group("fence")
        elif (
            marker.group("fence")[0] == fence[0]
            and len(marker.group("fence")) >= len(fence)
            and not marker.group("rest").strip()
        ):
            fence = None


@settings(max_examples=400, deadline=None)
@given(texts, st.integers(min_value=0, max_value=50))
def test_heading_lines_outside_fences_are_those_a_full_scan_finds(text: str, pos: int) -> None:
    pos = min(pos, len(text))
    found = [line for line, _ in parse._outside_fences(text, pos)]
    assert found == list(reference_outside_fences(text, pos))


def reference_entries_newest_first(text: str, start: int, end: int) -> list[Entry]:
    return list(reversed(list(ledger.entries(text, start, end))))


def without_line(entry: Entry) -> Entry:
    return replace(entry, line=0)


@settings(max_examples=400, deadline=None)
@given(texts, st.booleans())
def test_the_index_gives_the_entries_a_full_parse_gives(body: str, ledger_first: bool) -> None:
    check_index(body, ledger_first)


def check_index(body: str, ledger_first: bool) -> None:
    head = "---\nslug: g\n---\n" if ledger_first else "# Goal: g\n\n"
    text = f"{head}## Iterations\n{body}"
    region = parse.ledger_region(text)
    assert region is not None
    expected = [without_line(e) for e in reference_entries_newest_first(text, *region)]
    assert [without_line(e) for e in ledger.newest_first(text, *region)] == expected
    assert [without_line(e) for e in ledger.entries_reversed(text, *region)] == expected
    streak_entries = [
        without_line(e) for e in ledger.newest_first(text, *region, by=progress.STREAK_BY)
    ]
    assert streak_entries == [e for e in expected if e.by in progress.STREAK_BY]
    for who in ("activate", "verify-goal", "plan", "review", "nobody"):
        wanted = next((e for e in expected if e.by == who), None)
        got = ledger.newest(text, *region, by=(who,))
        assert (without_line(got) if got else None) == wanted
    with_status = next((e for e in expected if e.status is not None), None)
    got = ledger.newest_status(text, *region)
    assert (without_line(got) if got else None) == with_status
    assert progress.ledger_streak(text) == progress.recorded_streak(expected)
    heads = [head.iteration for head in ledger.heads(text, *region)]
    assert ledger.iterations(text, *region) == heads == [e.iteration for e in expected]


@settings(max_examples=200, deadline=None)
@given(texts)
def test_a_text_that_begins_with_an_entry_is_indexed_from_its_first_line(body: str) -> None:
    text = f"### Iteration 9 (2026-12-01) by activate\n{body}"
    expected = [without_line(e) for e in reference_entries_newest_first(text, 0, len(text))]
    assert [without_line(e) for e in ledger.newest_first(text)] == expected
    for by in (("activate",), ("verify-goal", "resume"), ("plan", "review", "activate")):
        chosen = [without_line(e) for e in ledger.newest_first(text, by=by)]
        assert chosen == [e for e in expected if e.by in by]


def test_the_newest_approval_of_a_long_unpinned_ledger_reads_no_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    verify_entry = ledger.render_entry(
        Entry(iteration=1, date="2026-12-01", by=ledger.VERIFY_BY, status=Status.ACTIVE)
    )
    text = "# Goal: g\n\n## Iterations\n" + "\n".join(verify_entry * 3000) + "\n## Lessons\n"
    region = parse.ledger_region(text)
    assert region is not None
    read: list[object] = []
    real = ledger.parse_entry
    monkeypatch.setattr(ledger, "parse_entry", lambda *a, **k: read.append(a) or real(*a, **k))
    assert contract.last_approval(text) is None
    assert ledger.newest(text, *region, by=("refine",)) is None
    assert read == []
    assert ledger.newest(text, *region, by=(ledger.VERIFY_BY,)) is not None
    assert len(read) == 1


@settings(max_examples=300, deadline=None)
@given(texts, st.data())
def test_the_lines_of_a_goal_leave_the_ledger_blank_as_a_list_would(
    body: str, data: st.DataObject
) -> None:
    text = f"---\nslug: g\n---\n# Goal: g\n\n## Iterations\n{body}\n## Lessons\nend"
    bounds = parse.ledger_bounds(text)
    assert bounds is not None
    start, _, end = bounds
    expected = [
        *text[:start].split("\n")[:-1],
        *[""] * text.count("\n", start, end),
        *text[end:].split("\n"),
    ]
    lines = parse._lines(text, bounds)
    assert len(lines) == len(expected)
    assert list(lines) == expected
    size = len(expected)
    first = data.draw(st.integers(min_value=-size - 2, max_value=size + 2))
    stop = data.draw(st.integers(min_value=-size - 2, max_value=size + 2))
    assert lines[first:stop] == expected[first:stop]
    if -size <= first < size:
        assert lines[first] == expected[first]


@settings(max_examples=400, deadline=None)
@given(
    texts,
    st.lists(st.sampled_from(["", "after", "## Lessons", "## Plan", "# Other"]), max_size=4),
    st.lists(st.sampled_from(LINES), min_size=1, max_size=4),
    st.booleans(),
    st.sampled_from(["", "\n", "\n\n", "\r\n"]),
)
def test_an_entry_is_appended_to_the_ledger_as_a_line_by_line_edit_would(
    body: str, tail: list[str], block: list[str], crlf: bool, end: str
) -> None:
    text = "---\nslug: g\n---\n# Goal: g\n\n## Iterations\n" + body + "\n".join(["", *tail]) + end
    if crlf:
        text = text.replace("\n", "\r\n")
    expected = edit._append_by_lines(text, "Iterations", block, ("lessons",))
    assert edit.append_to_section(text, "Iterations", block) == expected


LIKE_LINES = [
    *LINES,
    "### iteration 3",
    "   ## ITERATION 4 (2026-12-01) by verify-goal",
    "    ### Iteration 5 (2026-12-01) by verify-goal",
    "#Iteration",
    "####### Iteration 6",
    "## Iterations",
    "# iterationx",
]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(LIKE_LINES), max_size=30).map("\n".join),
    st.integers(min_value=0, max_value=60),
    st.integers(min_value=0, max_value=60),
)
def test_heading_like_lines_are_those_the_anchored_pattern_finds(
    text: str, start: int, length: int
) -> None:
    start = min(start, len(text))
    end = min(start + length, len(text))
    found = ledger.heading_like_re().finditer(text, start, end)
    expected = [(m.start(), m.group(0)) for m in found]
    assert list(ledger.heading_like_lines(text, start, end)) == expected


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from([*LINES, "  ``` x`y", "~~~ ```", "x ~~~", "   ~~~~", ""]), max_size=30)
)
def test_fence_marks_are_those_the_newline_pattern_finds(lines: list[str]) -> None:
    text = "\n".join(lines)
    expected = [(m.start(), m.group(0)) for m in ledger._fence_mark_re().finditer(text)]
    assert [(m.start(), m.group(0)) for m in ledger.fence_marks(text)] == expected


# fence lines of backticks at the margin only, as goalfile and mdformat write them: the texts
# whose blocks one pattern matches whole (ledger.margin_blocks)
MARGIN_LINES = [
    *(line for line in LINES if "~" not in line and not line.startswith(" ")),
    "```text",
    "````",
    "````text",
    "```` ",
    "```\r",
    "```text\r",
    "``` \t",
    "```\x1c",
    "``` x`y",
    "````` `",
    "    987654",
    "    ```",  # indented four spaces: not a fence line
    "text ```",
    "  indented text",
]
margin_texts = st.lists(st.sampled_from(MARGIN_LINES), max_size=40).map("\n".join)


@settings(max_examples=500, deadline=None)
@given(margin_texts)
def test_blocks_matched_whole_are_those_each_fence_line_opens_and_closes(text: str) -> None:
    blocks = ledger.margin_blocks(text)
    assert blocks is not None
    assert ledger.fenced_spans(text) == ledger.spans_by_marks(text)
    bounds, open_from = blocks
    closed = ledger.spans_by_marks(text)
    assert list(bounds) == [at for span in closed for at in span]
    assert list(ledger.fence_bounds(text)) == list(bounds)
    for pos in range(len(text) + 1):
        assert ledger.in_bounds(bounds, pos) == ledger.in_spans(closed, pos)
    # a block that never closes starts at the first fence line after the last closed block
    # that is not a backtick line with a backtick after its marker
    after = closed[-1][1] if closed else 0
    opening = next(
        (
            m.start() + 1
            for m in ledger.fence_marks(text)
            if m.start() >= after and "`" not in m.group(2)
        ),
        None,
    )
    assert open_from == opening


@settings(max_examples=500, deadline=None)
@given(margin_texts, st.integers(min_value=0, max_value=50))
def test_heading_lines_outside_margin_fences_are_those_a_full_scan_finds(
    text: str, pos: int
) -> None:
    pos = min(pos, len(text))
    found = [line for line, _ in parse._outside_fences(text, pos)]
    assert found == list(reference_outside_fences(text, pos))


@settings(max_examples=300, deadline=None)
@given(margin_texts, st.booleans())
def test_the_index_of_a_ledger_with_margin_fences_gives_a_full_parse(
    body: str, ledger_first: bool
) -> None:
    check_index(body, ledger_first)


def test_a_tilde_or_indented_fence_line_is_read_line_by_line() -> None:
    for line in ("~~~", " ```", "   ~~~~ x", "  ```text"):
        text = f"a\n```\nb\n{line}\nc\n```\nd"
        assert ledger.margin_blocks(text) is None
        assert ledger.fenced_spans(text) == ledger.spans_by_marks(text)
        spans = ledger.spans_by_marks(text)
        assert list(ledger.fence_bounds(text)) == [at for span in spans for at in span]
    for text in ("a ~~~ b\n```\nc\n```", "a\n    ```\n```\nb\n```"):
        assert ledger.margin_blocks(text) is not None


# fenced output as goalfile and mdformat write it (a block per row, opened by three backticks
# and an info string, closed by three backticks), with every line that makes a text need its
# blocks found after all: headings and fences inside a block, longer or indented fences, an
# info string with a backtick, a closing line with blanks, a block that never closes
OUTSIDE_LINES = [*MARGIN_LINES, "~~~", " ```", "   ~~~ x", "  ```text"]
OPENING_LINES = ["```text", "```text", "```", "```python", "```text\r", "``` x`y", "````"]
INSIDE_LINES = ["    2", "    2", "", "text", "    ### Iteration 3 (2026-12-01) by plan"]
INSIDE_LINES += ["# Goal: x", "## Lessons", "### Iteration 3 (2026-12-01) by plan", "```text"]
INSIDE_LINES += ["   ```", "~~~"]
CLOSING_LINES = ["```", "```", "```", "```\r", "``` ", "````", "```x", None]


@st.composite
def fenced_ledgers(draw: st.DrawFn) -> str:
    """A ledger of fenced output: mostly what the search without blocks (`unfenced`) reads."""
    odd = draw(st.integers(min_value=0, max_value=3))  # how far a line may stray
    lines: list[str] = []
    for _ in range(draw(st.integers(min_value=0, max_value=12))):
        if draw(st.booleans()):
            pool = OUTSIDE_LINES if odd > 2 else LINES[:20]
            lines.append(draw(st.sampled_from(pool)))
            continue
        lines.append(draw(st.sampled_from(OPENING_LINES[: 3 + 2 * odd])))
        inside = INSIDE_LINES[: 3 + 3 * odd]
        lines += draw(st.lists(st.sampled_from(inside), max_size=3))
        closing = draw(st.sampled_from(CLOSING_LINES[: 3 + 2 * odd]))
        if closing is not None:
            lines.append(closing)
    text = "\n".join(lines)
    return re.sub(r"(?<!\r)\n", "\r\n", text) if draw(st.booleans()) else text


@settings(max_examples=600, deadline=None)
@given(fenced_ledgers(), st.booleans(), st.integers(min_value=0, max_value=80))
def test_a_ledger_read_without_its_blocks_is_indexed_as_by_its_blocks(
    body: str, ledger_first: bool, pos: int
) -> None:
    """When no heading line of a text can be in a fenced block (ledger._UNFENCED_RE), its
    headings are indexed without finding its blocks: the same sections, entries and bounds, and
    the same heading lines outside fences from any offset, as read by its blocks."""
    head = "---\nslug: g\n---\n" if ledger_first else "# Goal: g\n\n"
    text = f"{head}## Iterations\n{body}\n## Lessons\nend"
    index = read_whole(text)
    copy = (text + "x")[:-1]
    unfenced = ledger.headings(copy).unfenced
    if unfenced:  # read by its blocks: every block closes, no heading line is in one
        blocks = ledger.margin_blocks(copy)
        assert blocks is not None and blocks[1] is None
        sections, entries, lookalikes = ledger._scan_headings(copy, 0, len(copy))
        assert not any(ledger.in_bounds(blocks[0], line) for line in sections)
        by_blocks = ledger._indexed(tuple(sections), tuple(entries), tuple(lookalikes))
        assert index[2:5] == (by_blocks.sections, by_blocks.entries, by_blocks.by_command)
        assert index[6] == by_blocks.lookalikes
    pos = min(pos, len(text))
    found = [line for line, _ in parse._outside_fences(copy, pos)]
    assert found == list(reference_outside_fences(copy, pos))
    check_index(body, ledger_first)


def test_output_fenced_as_goalfile_writes_it_is_read_without_its_blocks() -> None:
    entry = ledger.render_entry(
        Entry(
            iteration=1,
            date="2026-12-01",
            by=ledger.VERIFY_BY,
            status=Status.ACTIVE,
            notes=("C1 output:",),
        )
    )
    block = ["", "C1 output (exit 0 expected, got 1):", "", "```text", "    2", "```", ""]
    body = "\n".join([*entry, *block] * 50)
    for newline in ("\n", "\r\n"):
        text = f"---\nslug: g\n---\n# Goal: g\n\n## Iterations\n{body}\n## Lessons\n"
        text = text.replace("\n", newline)
        read_whole(text)
        assert ledger.headings(text).unfenced
        assert len(ledger.headings(text).entries) == 50
        assert text[parse.ledger_bounds(text)[2] :].startswith("## Lessons")


def read_whole(text: str) -> tuple[object, ...]:
    """The index of ``text`` read from scratch: caches emptied, a copy no edit made."""
    for cached in (
        ledger.margin_blocks,
        ledger.fence_bounds,
        ledger.fenced_spans,
        ledger.headings,
        parse.ledger_bounds,
    ):
        cached.cache_clear()
    copy = (text + "x")[:-1]
    blocks = ledger.margin_blocks(copy)
    index = ledger.headings(copy)
    return (
        None if blocks is None else (list(blocks[0]), blocks[1]),
        list(ledger.fence_bounds(copy)),
        index.sections,
        index.entries,
        index.by_command,
        parse.ledger_bounds(copy),
        index.lookalikes,
    )


def read_edited(text: str) -> tuple[object, ...]:
    blocks = ledger.margin_blocks(text)
    index = ledger.headings(text)
    return (
        None if blocks is None else (list(blocks[0]), blocks[1]),
        list(ledger.fence_bounds(text)),
        index.sections,
        index.entries,
        index.by_command,
        parse.ledger_bounds(text),
        index.lookalikes,
    )


EDIT_LINES = st.lists(st.sampled_from([*MARGIN_LINES, "~~~", " ```", "## Lessons"]), max_size=6)


@st.composite
def edited_texts(draw: st.DrawFn) -> tuple[str, str]:
    """A goal's text and the text a chain of edits made of it, each recorded with
    ledger.spliced: an entry appended to the ledger, a frontmatter value set, or any lines
    replaced by others."""
    lines = draw(st.sampled_from([MARGIN_LINES, LINES, None]))
    if lines is None:
        body = draw(fenced_ledgers())
    else:
        body = "\n".join(draw(st.lists(st.sampled_from(lines), max_size=30)))
    tail = "\n".join(draw(st.lists(st.sampled_from(["", "## Lessons", "```", "text"]), max_size=3)))
    text = f"---\nslug: g\nstatus: active\n---\n# Goal: g\n\n## Iterations\n{body}\n{tail}"
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    first = text
    read_edited(first)  # indexed as a command reads it before it edits
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        kind = draw(st.sampled_from(["append", "set", "splice"]))
        if kind == "append":
            block = draw(EDIT_LINES.filter(bool))
            text = edit.append_to_section(text, "Iterations", block)
        elif kind == "set":
            with contextlib.suppress(ValueError, GoalfileError):  # a splice cut the frontmatter
                text = edit.set_value(text, "iterations_used", draw(st.integers(0, 10**6)))
        else:
            start = draw(st.integers(min_value=0, max_value=len(text)))
            end = draw(st.integers(min_value=start, max_value=len(text)))
            inserted = "\n".join(draw(EDIT_LINES))
            new = text[:start] + inserted + text[end:]
            text = ledger.spliced(text, new, start, len(text) - end)
    return first, text


@settings(max_examples=600, deadline=None)
@given(edited_texts())
def test_an_edited_text_is_indexed_as_the_same_text_read_whole(texts: tuple[str, str]) -> None:
    """The index of an edited text, made from the old text's index and the lines the edit
    touched, is the index of the same text read from scratch."""
    _, new = texts
    edited = read_edited(new), parsed(new)
    assert edited == (read_whole(new), parsed((new + "x")[:-1]))


def parsed(text: str) -> object:
    try:
        return parse.parse_goal(text, path="g.md")
    except GoalfileError as exc:
        return exc.render()


@settings(max_examples=300, deadline=None)
@given(edited_texts())
def test_an_edited_text_is_made_of_its_pieces(texts: tuple[str, str]) -> None:
    """The pieces an edited text is written from (spans of the text the edits began with,
    and what they wrote) make exactly that text."""
    _, new = texts
    found = ledger.pieces_of(new)
    if found is None:  # no edit, or one made by lines: written as a whole
        return
    base, pieces = found
    made = "".join(base[p[0] : p[1]] if isinstance(p, tuple) else p for p in pieces)
    assert made == new


@settings(max_examples=200, deadline=None)
@given(edited_texts())
def test_an_edited_text_is_written_as_its_bytes(tmp_path_factory, texts) -> None:  # type: ignore[no-untyped-def]
    """A text the edits made of the one written last is written from that text's bytes and
    what the edits wrote: the file holds the edited text's bytes exactly, and reads back as it."""
    from goalfile import files

    first, new = texts
    path = tmp_path_factory.mktemp("w") / "g.md"
    goal = parse.parse_goal(GOAL_TEXT, path=str(path))
    files.write_atomic(path, first, parsed=goal)  # kept as the bytes last written there
    files.write_atomic(path, new)
    assert path.read_bytes() == new.encode("utf-8", "surrogateescape")
    assert files.read_text(path) == new


GOAL_TEXT = """---
slug: g
status: active
---
# Goal: g

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | it runs | `true` | exit 0 | deterministic |

## Iterations
"""


@settings(max_examples=600, deadline=None)
@given(fenced_ledgers(), st.sampled_from(["", "```", "~~~", "a: ```x"]))
def test_an_unclosed_fence_is_found_without_the_blocks_as_with_them(
    body: str, in_frontmatter: str
) -> None:
    """A text read without its blocks (ledger._UNFENCED_RE) has no unclosed fenced block: the
    answer given without matching its blocks is the one its blocks give."""
    text = f"---\nslug: g\n{in_frontmatter}\n---\n# Goal: g\n\n## Iterations\n{body}\n## Lessons\n"
    read_whole(text)
    assert parse.unclosed_fence(text) == parse._unclosed_after(text, parse._body_start(text))
    edited = edit.append_to_section(text, "Iterations", ["```", "out", "```", "x"])
    read_edited(edited)  # indexed from the text it was edited from
    assert parse.unclosed_fence(edited) == parse._unclosed_after(edited, parse._body_start(edited))


def backed(text: str) -> int | None:
    """The iterations the ledger of ``text`` backs, as the commands ask it of a goal."""
    goal = replace(parse.parse_goal(GOAL_TEXT, path="g.md"), text=text)
    return handedit.backed_iterations(goal)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_the_iterations_backed_after_an_edit_are_those_of_the_text_read_whole(
    data: st.DataObject,
) -> None:
    """The count of iterations the ledger backs, asked of a text and then of each text a chain
    of edits made of it (made from the answer for the text before when the edit only added
    after its last entry), is the count of the same text read from scratch."""
    lines = data.draw(st.sampled_from([MARGIN_LINES, LINES, None]))
    if lines is None:
        body = data.draw(fenced_ledgers())
    else:
        body = "\n".join(data.draw(st.lists(st.sampled_from(lines), max_size=30)))
    tail = data.draw(st.sampled_from(["", "## Lessons", "```", "## Lessons\ntext"]))
    text = f"---\nslug: g\nstatus: active\n---\n# Goal: g\n\n## Iterations\n{body}\n{tail}"
    entries = st.lists(st.sampled_from([line for line in LINES if "Iteration" in line]))
    for _ in range(data.draw(st.integers(min_value=0, max_value=3))):
        read_edited(text)  # indexed as a command reads it before it edits
        assert backed(text) == handedit._backed((text + "x")[:-1])
        kind = data.draw(st.sampled_from(["append", "set", "splice"]))
        if kind == "append":
            block = data.draw(entries.filter(bool)) + data.draw(EDIT_LINES)
            text = edit.append_to_section(text, "Iterations", block)
        elif kind == "set":
            with contextlib.suppress(ValueError, GoalfileError):  # a splice cut the frontmatter
                text = edit.set_value(text, "iterations_used", data.draw(st.integers(0, 10**6)))
        else:
            start = data.draw(st.integers(min_value=0, max_value=len(text)))
            end = data.draw(st.integers(min_value=start, max_value=len(text)))
            inserted = "\n".join(data.draw(EDIT_LINES))
            new = text[:start] + inserted + text[end:]
            text = ledger.spliced(text, new, start, len(text) - end)
    read_edited(text)
    assert backed(text) == handedit._backed((text + "x")[:-1])


def test_the_iterations_backed_after_an_appended_entry_are_counted_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Stop hook asks the count of the goal it read and of the text its verify writes (an
    entry appended): the second is counted on from the first, the ledger not walked again."""
    heads = "\n\n".join(f"### Iteration {n} (2026-12-01) by verify-goal\n\ntext" for n in range(9))
    text = (
        f"---\nslug: g\nstatus: active\n---\n# Goal: g\n\n## Iterations\n\n{heads}\n\n## Lessons\n"
    )
    assert backed(text) == 8
    entry = ["### Iteration 8 (2026-12-02) by stop-hook", "", "text", ""]
    edited = edit.append_to_section(text, "Iterations", entry)
    monkeypatch.setattr(handedit, "_backed", lambda text: pytest.fail("the ledger was read whole"))
    assert backed(edited) == 8
    next_one = edit.append_to_section(
        edited, "Iterations", ["### Iteration 9 (2026-12-02) by plan"]
    )
    assert backed(next_one) == 9
