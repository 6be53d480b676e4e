"""The criteria table read row by row: the same rows and cells as markdown-it's own token
stream, however big the table.

goalfile's Markdown parser keeps a table's body rows as the text of their cells (one token for
the whole body) and reads a cell as inline Markdown only when its meaning needs it. These tests
hold that reading to markdown-it's full token stream (the GFM table rule on, every cell parsed
inline) on random tables, on cells full of escapes and code spans, and on a big table read at
once against the same rows read by markdown-it in small tables.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from conftest import RULE, goal_text, run_goalfile
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from goalfile import parse
from goalfile.model import Criterion, Kind
from goalfile.parse import parse_goal

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# what markdown-it gives, with no help from goalfile
REFERENCE = MarkdownIt("commonmark").enable("table")

# characters that make a cell mean something else than its text, and plain ones
CELL_ALPHABET = st.sampled_from(
    [*list("ab c\\`*_[]()!<>&;#~:-/=.\"'|"), "\\|", "``", "&amp;", "<b>", "[x]", "ü", "\t"]
)
CELLS = st.lists(CELL_ALPHABET, max_size=12).map("".join)


def reference_rows(source: str) -> list[tuple[int, list[Token]]]:
    """The body rows of the first table markdown-it finds: (0-based line, inline tokens)."""
    rows: list[tuple[int, list[Token]]] = []
    in_body = False
    current: list[Token] | None = None
    line = 0
    for token in REFERENCE.parse(source):
        if token.type == "tbody_open":
            in_body = True
        elif token.type == "tbody_close":
            break
        elif in_body and token.type == "tr_open":
            current, line = [], token.map[0] if token.map else -1
        elif in_body and token.type == "inline" and current is not None:
            current.append(token)
        elif in_body and token.type == "tr_close" and current is not None:
            rows.append((line, current))
            current = None
    return rows


def goalfile_rows(source: str, width: int) -> list[tuple[int, list[str]]]:
    """The body rows of the first table, as goalfile's parser keeps them."""
    tokens = parse._markdown().parse(source)
    body = next((t for t in tokens if t.type == parse.TABLE_ROWS), None)
    if body is None:
        return []
    cells: list[str] = body.meta["cells"]
    first = body.map[0]
    return [
        (first + index, cells[index * width : (index + 1) * width])
        for index in range(len(cells) // width)
    ]


def reference_check_text(token: Token | None, *, as_rendered: bool = False) -> tuple[str, bool]:
    """A cell's text as goalfile read it from markdown-it's full token stream."""
    if token is None:
        return "", False
    children = [
        c for c in (token.children or []) if not (c.type == "text" and not c.content.strip())
    ]
    if len(children) == 1 and children[0].type == "code_inline":
        return children[0].content, True
    if as_rendered:
        return parse.rendered(token).strip(), False
    return token.content.strip(), False


def table(header: Sequence[str], rows: Sequence[Sequence[str]], *, pipes: bool = True) -> str:
    def line(cells: Sequence[str]) -> str:
        inner = " | ".join(cells)
        return f"| {inner} |" if pipes else inner

    return "\n".join([line(header), line(["---"] * len(header)), *(line(r) for r in rows)])


@st.composite
def documents(draw: st.DrawFn) -> str:
    """A table with random cells (missing, extra, escaped pipes, code spans), maybe indented,
    in a list item or a quote, followed by what may or may not end it, with link references
    that its cells may use."""
    width = draw(st.integers(1, 5))
    header = [f"h{n}" for n in range(width)]
    rows = [
        draw(st.lists(CELLS, min_size=max(0, width - 2), max_size=width + 2))
        for _ in range(draw(st.integers(0, 6)))
    ]
    text = table(header, rows, pipes=draw(st.booleans()))
    indent = draw(st.sampled_from(["", " ", "   ", "> ", "- "]))
    if indent:
        cont = "  " if indent == "- " else indent
        lines = text.split("\n")
        text = "\n".join([indent + lines[0], *(cont + x for x in lines[1:])])
    after = draw(
        st.sampled_from(
            [
                "",
                "\n",
                "\nplain text | b",
                "\n> quote",
                "\n# head",
                "\n```\ncode\n```",
                "\n- item",
                "\n    indented",
                "\n***",
                "\n<div>",
                "\n| a | b |",
            ]
        )
    )
    refs = draw(st.sampled_from(["", "[x]: /url\n\n", "\n\n[a]: <b>"]))
    return refs + text + after if not refs.startswith("\n") else text + after + refs


def header_width(source: str) -> int:
    """How many columns the first table has (0 when markdown-it finds none)."""
    width = 0
    for token in REFERENCE.parse(source):
        if token.type == "th_open":
            width += 1
        elif token.type == "thead_close":
            break
    return width


def outside_body(tokens: Sequence[Token]) -> list[tuple[str, object, str]]:
    """Every token but those of table body rows (what goalfile keeps as one token)."""
    kept: list[tuple[str, object, str]] = []
    in_body = False
    for token in tokens:
        if token.type == "tbody_close":
            in_body = False
        if not in_body and token.type != parse.TABLE_ROWS:
            kept.append((token.type, token.map, token.content))
        if token.type == "tbody_open":
            in_body = True
    return kept


@PROPERTY
@given(documents())
@example("| a | b |\n|---|---|\n| `x \\| y` | c \\| d |\n| e |\n| f | g | h |")
@example("| a |\n| - |\n| `` ` `` |\n|  ` a ` |\n| `  ` |\n| \\`x\\` |")
@example("[x]: /u\n\n| a |\n|---|\n| [x] |\n| [y] |")
def test_the_rows_and_cells_are_markdown_its(source: str) -> None:
    """Where the table ends, each row's line and each cell's text (escaped pipes, code
    spans, missing and extra cells) are those of markdown-it's token stream, and every other
    token is the same."""
    width = header_width(source)
    expected = reference_rows(source)
    got = goalfile_rows(source, width) if width else []
    assert got == [(line, [cell.content for cell in cells]) for line, cells in expected]
    assert outside_body(parse._markdown().parse(source)) == outside_body(REFERENCE.parse(source))


@PROPERTY
@given(
    CELLS, st.booleans(), st.sampled_from([{}, {"references": {"X": {"href": "/u", "title": ""}}}])
)
@example("`a \\| b`", True, {})
@example("`` a ` b ``", True, {})
@example("` `", True, {})
@example("`  a  `", True, {})
@example("\\`a`", True, {})
@example("[x]", True, {"references": {"X": {"href": "/u", "title": ""}}})
@example("a\\.b", True, {})
def test_a_cell_reads_as_markdown_it_parses_it(
    cell: str, as_rendered: bool, env: Mapping[str, Any]
) -> None:
    """The text of a check or expected cell: read directly when it needs no inline parse, by
    markdown-it otherwise; either way what markdown-it's full parse of the cell gives."""
    content = REFERENCE.parse(f"| h |\n|---|\n| {cell} |")
    cells = [t for t in content if t.type == "inline"][1:]
    if not cells:  # the cell text ended the table (e.g. a lone `|`): nothing to compare
        return
    token = cells[0]
    # the full parse, with the document's link references
    full = REFERENCE.parseInline(token.content, dict(env))[0]
    assert parse._check_text(token.content, env, as_rendered=as_rendered) == (
        reference_check_text(full, as_rendered=as_rendered)
    )


def random_cell(rng: random.Random) -> str:
    pieces = ["ab", " ", "\\|", "`x \\| y`", "*e*", "[l]", "a\\.b", "&amp;", "`c`", "_u_", "~"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))


def random_rows(count: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    rows = []
    for n in range(1, count + 1):
        kind = rng.choice(["deterministic", "review", "", "Deterministic"])
        check = rng.choice([f"`test -f out/{n}`", f"`grep -q x \\| y {n}`", random_cell(rng)])
        expected = rng.choice(["exit 0", 'exit 0; stdout contains "a\\|b"', random_cell(rng)])
        rows.append([f"C{n}", f"row {n} {random_cell(rng)}", check, expected, kind])
    return rows


def reference_criteria(rows: Sequence[Sequence[str]]) -> list[tuple[object, ...]]:
    """What goalfile made of these rows when markdown-it's token stream gave them: parsed
    as small tables of a hundred rows each, every cell through markdown-it's inline parser."""
    header = ["id", "criterion", "check", "expected", "kind"]
    out: list[tuple[object, ...]] = []
    for first in range(0, len(rows), 100):
        chunk = rows[first : first + 100]
        for _, cells in reference_rows(table(header, chunk)):
            by_name = dict(zip(header, cells, strict=True))
            kind_text = by_name["kind"].content.strip() or "deterministic"
            shown = kind_text.lower() != Kind.REVIEW.value
            check, is_code = reference_check_text(by_name["check"], as_rendered=shown)
            expected, _ = reference_check_text(by_name["expected"], as_rendered=shown)
            out.append(
                (
                    by_name["id"].content.strip(),
                    by_name["criterion"].content.strip(),
                    check,
                    is_code,
                    expected,
                    reference_check_text(by_name["check"])[0],
                    reference_check_text(by_name["expected"])[0],
                    tuple((name, cell.content.strip()) for name, cell in by_name.items()),
                )
            )
    return out


def mine(criteria: Sequence[Criterion]) -> list[tuple[object, ...]]:
    literal = re.compile(r"/(.*)/")  # `\|` in a /REGEX/ is a literal `|`: not in these rows
    assert not any(literal.search(c.expected) for c in criteria)
    return [
        (
            c.id,
            c.criterion,
            c.check,
            c.check_is_code,
            c.expected,
            c.source_check,
            c.source_expected,
            tuple(c.cells),
        )
        for c in criteria
    ]


def goal_with_rows(lines: Sequence[str], *, status: str = "active") -> str:
    """A goal file whose criteria table has these rows (cells joined, pipes at either end)."""
    rows = "".join(f"| {line} |\n" for line in lines)
    return goal_text(slug="big", status=status, rows=()).replace(f"{RULE}\n", f"{RULE}\n{rows}")


def test_a_big_table_reads_as_markdown_it_reads_its_rows_in_small_tables() -> None:
    rows = random_rows(20_000, seed=15)
    text = goal_with_rows([" | ".join(r) for r in rows])
    goal = parse_goal(text, path="big.md")
    assert len(goal.criteria) == len(rows)
    assert mine(goal.criteria) == reference_criteria(rows)
    first = text.split("\n").index("| " + " | ".join(rows[0]) + " |") + 1
    assert [c.line for c in goal.criteria] == list(range(first, first + len(rows)))


def test_lint_names_the_line_of_a_bad_row_at_the_end_of_a_big_table(tmp_path: Path) -> None:
    """The real command on a 20,000-row goal: a row near the end with a missing cell is
    named by its line, and every other row is read."""
    rows = [f"C{n} | row {n} | `test -f out/{n}` | exit 0 | deterministic" for n in range(20_000)]
    rows[-2] = "C19998 | row | `true`"
    path = tmp_path / "big.md"
    path.write_text(goal_with_rows(rows, status="draft"))
    line = path.read_text().split("\n").index("| C19998 | row | `true` |") + 1
    done = run_goalfile("lint", path, cwd=tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"big.md:{line}:1: error: the row has 3 cells but the header has 5" in (
        done.stdout + done.stderr
    )


def test_a_table_inside_a_non_goal_gives_a_non_goal_for_each_cell() -> None:
    """Each cell's inline token of a table in a non-goals list item counted as a non-goal;
    the body rows, now read as text, still do (the non-goals are part of the contract)."""
    text = goal_text(slug="ng", non_goals=("a table:",)).replace(
        "- a table:\n",
        "- a table:\n\n  | h | i |\n  |---|---|\n  | `a` \\| b | *c* |\n  |  | [x] |\n- after\n\n"
        "[x]: /u\n",
    )
    goal = parse_goal(text, path="ng.md")
    # what markdown-it's token stream gives: every inline token inside the list items
    reference = [
        token
        for token in REFERENCE.parse(text.split("## Non-goals\n")[1].split("\n## ")[0])
        if token.type == "inline" and token.content.strip()
    ]
    assert [" ".join(parse.rendered(t, code_marks=True).split()) for t in reference] == list(
        goal.non_goals
    )
    assert goal.non_goals == ("a table:", "h", "i", "`a` | b", "c", "x", "after")
    assert goal.source_non_goals == ("a table:", "h", "i", "`a` | b", "*c*", "[x]", "after")
