"""The check that no heading line of a text is in a fenced block (``ledger.is_unfenced``) gives
the answer of the pattern it stands for (``ledger._UNFENCED_RE``) on every text.

Above half a megabyte the check lets a second pattern (``ledger._unfenced_lines_re``) take
the lines it knows in fewer steps and hands the rest to the first. Each property here holds
that path, called directly on small texts, to the first pattern's own answer: on texts of
the lines that decide it (fences of backticks and tildes, indented or not, with info strings,
longer or with trailing characters, blocks that never close, headings and tildes inside
blocks, CR and CRLF endings) and on random strings of the characters those lines are made of.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from goalfile import ledger
from goalfile.model import Entry, RowResult, Status, Verdict

OUTSIDE = [
    "",
    "text",
    "| C1  | unmet   | `cat left.txt` | 0    | `3000` |",
    "C1 output (exit 0 expected, got 1; stdout, last 1 of 1 lines):",
    "### Iteration 3 (2026-12-01) by verify-goal",
    "# Goal: x",
    "#",
    "status: active",
    "a```b",
    "a ~~~ b",
    " x",
    "  # x",
    "   x",
    "    x",
    "     ```",
    "    ~~~",
    " ",
    "   ",
    "    ",
    "\r",
    "\t```",
    "`x` y",
    "`",
    "``",
    "``x",
    "~",
    "~~",
    "~x",
    " ~ x",
    "  `x`",
    " ```",
    "  ```text",
    "   ~~~ x",
    "~~~",
    "~~~~",
]
OPENING = ["```text", "```", "```python", "```text\r", "```c#", "```a~b", "``` x`y", "````"]
OPENING += ["```\r\r", "``` "]
INSIDE = ["    2", "", "\r", "text", "a`b", "a#b", "x ~ y", " # x", "  `x`", "# x", "`x`", "~"]
INSIDE += ["### Iteration 3 (2026-12-01) by plan", "   ```", "    ```", " ~~~", "~~~", "  ", "```x"]
INSIDE += ["``", "    ### Iteration 3 (2026-12-01) by plan", "\t```"]
CLOSING = ["```", "```\r", "``` ", "````", "```x", "```\r\r", " ```", "~~~", None]


@st.composite
def fenced_texts(draw: st.DrawFn) -> str:
    """Lines outside blocks and blocks, mostly as goalfile writes them, with every line that
    changes the answer somewhere among them."""
    stray = draw(st.integers(min_value=0, max_value=3))  # how far the lines may stray
    lines: list[str] = []
    for _ in range(draw(st.integers(min_value=0, max_value=10))):
        if draw(st.booleans()):
            pool = OUTSIDE if stray > 1 else OUTSIDE[:10]
            lines += draw(st.lists(st.sampled_from(pool), max_size=3))
            continue
        lines.append(draw(st.sampled_from(OPENING if stray > 2 else OPENING[:3])))
        lines += draw(st.lists(st.sampled_from(INSIDE if stray else INSIDE[:5]), max_size=4))
        closing = draw(st.sampled_from(CLOSING if stray > 2 else CLOSING[:2]))
        if closing is not None:
            lines.append(closing)
    text = "\n".join(lines)
    ending = draw(st.sampled_from(["\n", "\r\n", "mixed"]))
    if ending == "\r\n":
        return text.replace("\n", "\r\n")
    if ending == "mixed":
        return re.sub("\n", lambda _: draw(st.sampled_from(["\n", "\r\n"])), text)
    return text


def by_pattern(text: str, pos: int = 0, end: int | None = None) -> bool:
    end = len(text) if end is None else end
    return ledger._UNFENCED_RE.fullmatch(text, pos, end) is not None


def by_lines(text: str, pos: int = 0, end: int | None = None) -> bool:
    return ledger._unfenced_by_lines(text, pos, len(text) if end is None else end)


def by_split(text: str, pos: int = 0, end: int | None = None) -> bool:
    return ledger._unfenced_by_split(text, pos, len(text) if end is None else end)


def answered_alike(text: str, pos: int = 0, end: int | None = None) -> bool:
    """The second pattern's answer and :func:`ledger.is_unfenced`'s (which answers a text
    without three backticks or tildes in a row by searching for them) are the pattern's, and
    the split (:func:`ledger._unfenced_by_split`) says unfenced only when the pattern does."""
    expected = by_pattern(text, pos, end)
    return (
        by_lines(text, pos, end) == expected
        and ledger.is_unfenced(text, pos, end) == expected
        and (expected or not by_split(text, pos, end))
    )


@settings(max_examples=1500, deadline=None)
@given(fenced_texts())
def test_the_lines_pattern_answers_as_the_whole_pattern(text: str) -> None:
    assert answered_alike(text)


TRICKY = [
    "a\n```text\n    2\n```\nb",
    "a\n``` x`y\n    2\n```\nb",
    "a\n```text\n    2\n```x\nb\n```",
    "a\n```text\n    2\n````\nb\n```",
    "a\n```text\n  `x`\n```\nb",
    "a\n```text\n  ```\n```\nb",
    "a\n```text\n# x\n```\nb",
    "a\n```text\n    2",
    "a\n```text\n\n\n    2\n\n```\r\n\nb",
    "a\n```\r\r\n```\nb",
    "a\n~~~\nb\n~~~",
    "a\n  ```\nb\n```",
    "a\n  `x`\nb",
    "a\n``\nb",
    "```\nb\n```",
    "a\n```\n```\n```\n```",
]


def test_lines_that_decide_the_answer_are_answered_alike() -> None:
    for text in TRICKY:
        for newline in ("\n", "\r\n"):
            written = text.replace("\n", newline)
            assert answered_alike(written), written


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet="`~# \n\rax", max_size=120))
def test_any_string_of_fence_characters_is_answered_alike(text: str) -> None:
    assert answered_alike(text)


@settings(max_examples=800, deadline=None)
@given(fenced_texts(), st.data())
def test_a_span_from_a_newline_to_the_end_of_a_line_is_answered_alike(
    text: str, data: st.DataObject
) -> None:
    """As an edit's touched lines are checked: from the newline before them (or the start) to
    the end of the last one."""
    starts = [0, *(at for at, char in enumerate(text) if char == "\n")]
    ends = [*(at for at, char in enumerate(text) if char == "\n"), len(text)]
    pos = data.draw(st.sampled_from(starts))
    end = data.draw(st.sampled_from([at for at in ends if at >= pos]))
    assert answered_alike(text, pos, end)


def long_ledger(entries: int, *, quoted: bool = True) -> str:
    """A goal whose ledger is entries as verify writes them, each row's output in a block
    (with ``quoted`` False, met rows that quote no output: no fence line at all)."""
    rows = tuple(
        RowResult(
            id=f"C{n}",
            verdict=Verdict.UNMET,
            command="cat left.txt",
            exit="0",
            evidence="3000",
            excerpt=("3000",) if quoted else (),
            excerpt_label="exit 0 expected, got 1" if quoted else "",
        )
        for n in range(1, 9)
    )
    lines = ["---", "slug: g", "status: active", "---", "# Goal: g", "", "## Iterations", ""]
    for number in range(1, entries + 1):
        entry = Entry(
            iteration=number,
            date="2026-12-02",
            by=ledger.VERIFY_BY,
            rows=rows,
            status=Status.ACTIVE,
        )
        lines += [*ledger.render_entry(entry), ""]
    return "\n".join([*lines, "## Lessons", ""])


def test_a_long_ledger_as_verify_writes_it_is_taken_whole_by_the_lines_pattern() -> None:
    """The point of the second pattern: a ledger as goalfile writes it, in either line ending,
    is matched by it to its end (its last newline), and the first pattern reads nothing
    more."""
    text = long_ledger(300)
    assert text.count("\n```") > 2_000
    for newline in ("\n", "\r\n"):
        written = text.replace("\n", newline)
        reached = ledger._unfenced_lines_re().match(written)
        assert reached is not None and written[reached.end() :] == "\n"
        assert by_lines(written) is by_pattern(written) is True


def test_a_long_ledger_is_answered_alike_whatever_it_holds() -> None:
    """Above the size from which :func:`ledger.is_unfenced` takes the second pattern: a block
    that holds a heading, a tilde fence, a block that never closes, a longer closing fence,
    an indented fence outside a block, each at the start, in the middle or at the end."""
    text = long_ledger(1_000)
    assert len(text) > ledger._UNFENCED_LINES_FROM
    assert ledger.is_unfenced(text)
    middle = text.index("\n### Iteration 500 ")
    for odd in (
        "```text\n    ### Iteration 9 (2026-12-01) by plan\n```",
        "~~~\nx\n~~~",
        "```text\n    2",
        "```text\n    2\n````",
        "```text\n    2\n```x",
        "  ```\nx",
        "```text\n  `x`\n# x\n```",
        "```text\n  `x`\n```",
        "  `x`",
    ):
        for at in (text.index("\n## Iterations"), middle, len(text)):
            changed = f"{text[:at]}\n{odd}{text[at:]}"
            assert ledger.is_unfenced(changed) == by_pattern(changed), (odd, at)


def test_a_ledger_without_fence_lines_is_answered_alike_whatever_is_added() -> None:
    """A ledger that quotes no output holds no fence marker, and :func:`ledger.is_unfenced`
    answers it by searching for the markers: one fence line, block or look-alike added at its
    start, in its middle or at its end is found and read as the pattern reads it."""
    text = long_ledger(1_000, quoted=False)
    assert len(text) > ledger._UNFENCED_LINES_FROM and "```" not in text and "~" not in text
    assert ledger.is_unfenced(text) is by_pattern(text) is True
    middle = text.index("\n### Iteration 500 ")
    for odd in (
        "```text\n    ### Iteration 9 (2026-12-01) by plan\n```",
        "```text\n# x\n```",
        "~~~\nx",
        "~~~\n# x\n~~~",
        "```",
        "  ```",
        "   ~~~",
        "``\n~~\n# x",
        "x ~~~ and ``` on one line",
    ):
        for at in (text.index("\n## Iterations"), middle, len(text)):
            changed = f"{text[:at]}\n{odd}{text[at:]}"
            assert ledger.is_unfenced(changed) == by_pattern(changed), (odd, at)


@st.composite
def written_texts(draw: st.DrawFn) -> tuple[str, bool]:
    """Texts in the form goalfile writes (blocks opened by three backticks and an info string,
    closed by three backticks, their lines from ``safe``), and whether a line outside that
    form was put in: a line that strays anywhere, of any kind above."""
    safe = ["    2", "", "text", "a`b", "a#b", "x ~ y", " # x", "  `x`", "\r"]
    lines, strayed = ["a"], False
    crlf = draw(st.booleans())  # every line ended by CR LF (a closing line has no CR of its own)
    for _ in range(draw(st.integers(min_value=0, max_value=8))):
        lines += draw(st.lists(st.sampled_from(OUTSIDE[:8]), max_size=2))
        lines.append(draw(st.sampled_from(["```text", "```", "``` a~b", "```text\r"])))
        lines += draw(st.lists(st.sampled_from(safe), max_size=3))
        lines.append(draw(st.sampled_from(["```"] if crlf else ["```", "```\r"])))
        if draw(st.integers(min_value=0, max_value=4)) == 0:
            pool = OUTSIDE + OPENING + INSIDE + [line for line in CLOSING if line]
            lines.insert(draw(st.integers(1, len(lines))), draw(st.sampled_from(pool)))
            strayed = True
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n", "\nb"]))
    if crlf:
        text = text.replace("\n", "\r\n")
    return text, strayed


@settings(max_examples=1500, deadline=None)
@given(written_texts())
def test_the_split_says_unfenced_only_when_the_pattern_does(drawn: tuple[str, bool]) -> None:
    """The split answers unfenced only for texts the pattern matches whole, and answers every
    text in the form goalfile writes."""
    text, strayed = drawn
    assert answered_alike(text)
    if not strayed:
        assert by_split(text) is by_pattern(text) is True


def test_a_long_ledger_as_verify_writes_it_is_taken_by_the_split() -> None:
    """The bench's form, in either line ending, above the size from which
    :func:`ledger.is_unfenced` tries the split."""
    text = long_ledger(1_000)
    assert len(text) > ledger._UNFENCED_LINES_FROM
    for newline in ("\n", "\r\n"):
        written = text.replace("\n", newline)
        assert by_split(written) is by_pattern(written) is True


MARKDOWN = MarkdownIt("commonmark").enable("table")  # built once: building it is most of a run


@settings(max_examples=800, deadline=None)
@given(written_texts())
def test_the_blocks_the_split_reads_are_markdown_its(drawn: tuple[str, bool]) -> None:
    """Where the split says unfenced, markdown-it (as goalfile configures it) reads the same
    blocks: each from a line of three backticks to the next such line, the lines outside
    them (a heading among them) outside every block."""
    # markdown-it ends a line at a lone CR and goalfile does not: the text without its CRs,
    # not a filter, which left too few texts to draw from (hypothesis's filter_too_much)
    text = drawn[0].replace("\r", "")
    if not by_split(text):
        return
    runs = [at for at, line in enumerate(text.split("\n")) if line.startswith("```")]
    tokens = MARKDOWN.parse(text)
    fences = [(token.map[0], token.map[1] - 1) for token in tokens if token.type == "fence"]
    assert fences == list(zip(runs[0::2], runs[1::2], strict=True))
