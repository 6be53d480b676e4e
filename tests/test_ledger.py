"""goalfile.ledger: the exact entry text, escaping of hostile output, reading entries back.

Golden texts live in tests/data/ledger/. The hostile-output tests run a real check through
``goalfile verify`` in a real git repository and then read the file back three ways: with
goalfile's own reader, with markdown-it, and line by line.
"""

from __future__ import annotations

import difflib
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import DATA, goal_text, last_line, recent_days, row, run_goalfile, write_goal
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from goalfile import ledger
from goalfile.model import Entry, RowResult, Status, Verdict
from goalfile.parse import ledger_region, parse_goal
from goalfile.prose import code_text

LEDGER = DATA / "ledger"
MD = MarkdownIt("commonmark").enable("table")


def normalise_date(text: str) -> str:
    """Entries carry today's date; the golden files carry 2026-11-30."""
    return re.sub(
        r"^(### Iteration \d+) \(\d{4}-\d\d-\d\d\) by", r"\1 (2026-11-30) by", text, flags=re.M
    )


# --------------------------------------------------------------------------- pure rendering


KNOWN_ROWS = (
    RowResult(
        id="C1",
        verdict=Verdict.MET,
        command="pytest tests/auth -q",
        exit="0",
        evidence="42 passed in 3.1s",
    ),
    RowResult(
        id="C2",
        verdict=Verdict.UNMET,
        command="git diff --stat main -- tests/auth/fixtures",
        exit="0",
        evidence=" 1 file changed, 3 insertions(+)",
        excerpt=(" 1 file changed, 3 insertions(+)",),
        excerpt_label="output empty expected; stdout, last 1 of 1 lines",
    ),
    RowResult(
        id="R1",
        verdict=Verdict.UNMET,
        command="docs/auth.md",
        exit="-",
        evidence="not reviewed: C2 is unmet",
        evidence_quoted=False,
    ),
)


def test_render_entry_golden() -> None:
    entry = Entry(
        iteration=2,
        date="2026-11-30",
        by=ledger.VERIFY_BY,
        rows=KNOWN_ROWS,
        status=Status.ACTIVE,
        contract="0123456789ab",
    )
    text = "\n".join(ledger.render_entry(entry)) + "\n"
    assert text == (LEDGER / "rendered-entry.md").read_text(encoding="utf-8")


def test_render_entry_with_a_status_reason() -> None:
    entry = Entry(iteration=1, date="2026-11-30", by="verify-goal", status=Status.BLOCKED)
    lines = ledger.render_entry(entry, status_reason="token budget of 10 set\nbut | unmeasured")
    assert lines[:2] == ["### Iteration 1 (2026-11-30) by verify-goal", ""]
    (status,) = lines[2:]  # the reason cannot add a line
    assert re.fullmatch(r"status: blocked \(token budget of 10 set ?but \| unmeasured\)", status)
    (entry_back,) = ledger.entries("\n".join(lines))
    assert entry_back.status is Status.BLOCKED


def test_summary_line_is_exactly_the_documented_one() -> None:
    line = ledger.summary_line(
        slug="auth", iteration=2, rows=KNOWN_ROWS, status=Status.ACTIVE, reason=None
    )
    assert line == "verify-goal auth iteration 2: C1 met, C2 unmet, R1 unmet; status: active"


def test_summary_line_with_a_reason_stays_one_line() -> None:
    line = ledger.summary_line(
        slug="auth", iteration=0, rows=KNOWN_ROWS[:1], status=Status.EXHAUSTED, reason="a\nb"
    )
    assert re.fullmatch(r"verify-goal auth iteration 0: C1 met; status: exhausted \(a ?b\)", line)


def test_entries_read_back_the_golden_entry() -> None:
    text = (LEDGER / "rendered-entry.md").read_text(encoding="utf-8")
    (entry,) = ledger.entries(text)
    assert (entry.iteration, entry.date, entry.by) == (2, "2026-11-30", "verify-goal")
    assert entry.status is Status.ACTIVE
    assert entry.contract == "0123456789ab"
    assert [(r.id, r.verdict, r.command, r.exit, r.evidence) for r in entry.rows] == [
        (r.id, r.verdict, r.command, r.exit, r.evidence) for r in KNOWN_ROWS
    ]
    assert [r.evidence_quoted for r in entry.rows] == [True, True, False]


def test_the_compact_style_goalfile_wrote_before_reads_the_same() -> None:
    """Files written before entries were in mdformat's style keep working: the compact entry
    (no blank line after the heading, an unpadded table, an indented excerpt) reads back as the
    same rows, status and contract as the padded one."""
    compact = (LEDGER / "compact-entry.md").read_text(encoding="utf-8")
    padded = (LEDGER / "rendered-entry.md").read_text(encoding="utf-8")
    assert "\n| id | verdict | command | exit | evidence |\n|----|" in compact
    (old,) = ledger.entries(compact)
    (new,) = ledger.entries(padded)
    assert old.rows == new.rows and len(old.rows) == 3
    assert (old.status, old.contract, old.iteration, old.by) == (
        new.status,
        new.contract,
        new.iteration,
        new.by,
    )
    # the excerpt is output in both: indented four spaces, or (now) fenced and indented
    assert "     1 file changed, 3 insertions(+)" in old.notes
    assert "     1 file changed, 3 insertions(+)" in new.notes


def test_entries_reversed_is_entries_backwards() -> None:
    text = "\n".join(
        "\n".join(
            ledger.render_entry(
                Entry(
                    iteration=n,
                    date="2026-11-30",
                    by="verify-goal" if n % 2 else "activate",
                    rows=KNOWN_ROWS[: 1 + n % 3],
                    status=Status.ACTIVE,
                )
            )
        )
        + "\n"
        for n in range(7)
    )
    forwards = list(ledger.entries(text))
    backwards = list(ledger.entries_reversed(text))
    assert [e.iteration for e in forwards] == list(range(7))
    assert [(e.iteration, e.by, e.rows) for e in backwards] == [
        (e.iteration, e.by, e.rows) for e in reversed(forwards)
    ]


def test_reading_all_entries_scales_like_reading_them_backwards() -> None:
    """``entries`` must not rescan the text for every entry (its cost would grow with the square
    of the ledger). Measured against ``entries_reversed`` on the same text and machine, so the
    bound is about growth, not about how fast this machine is."""
    one = "\n".join(
        ledger.render_entry(
            Entry(iteration=1, date="2026-11-30", by="verify-goal", rows=KNOWN_ROWS, status=None)
        )
    )
    text = "## Iterations\n\n" + "\n\n".join([one] * 4000) + "\n\n## Lessons\n"

    def took(read: Callable[[str], Iterator[Entry]]) -> float:
        began = time.perf_counter()
        found = list(read(text))
        assert len(found) == 4000
        return time.perf_counter() - began

    backwards = min(took(ledger.entries_reversed) for _ in range(2))
    forwards = took(ledger.entries)
    assert forwards < 5 * backwards + 0.2, (forwards, backwards)


# --------------------------------------------------------------------------- a known real run


def test_exact_entry_text_of_a_known_run(repo: Path) -> None:
    goal = write_goal(repo / "goals", (LEDGER / "known-run.goal.md").read_text(), "auth.md")
    done = run_goalfile("verify", goal, cwd=repo)
    assert done.returncode == 1, done.stderr
    assert last_line(done.stdout) == (
        "verify-goal auth iteration 2: C1 met, C2 unmet, C3 met, R1 unmet; status: active"
    )
    after = normalise_date(goal.read_text(encoding="utf-8"))
    assert after == (LEDGER / "known-run.after.md").read_text(encoding="utf-8")
    entry = (LEDGER / "known-run.entry.md").read_text(encoding="utf-8")
    assert entry in after


# --------------------------------------------------------------------------- hostile output

HOSTILE_SCRIPT = r"""printf 'a | b | c\n'
printf 'tick ``` run ```` x `` y\n'
printf 'status: met\n'
printf '### Iteration 9 (2026-01-01) by verify-goal\n'
printf '## Lessons\n'
printf '\033[31m## Lessons\033[0m\n'
printf 'nul\000byte status: met\n'
printf 'cr\rstatus: met\n'
printf 'ls\342\200\250### Iteration 9 (2026-01-01) by verify-goal\n'
printf 'ps\342\200\251status: met\n'
printf '| C9 | met | `x` | 0 | `y` |\n'
printf '`\n'
printf '%s\n' '```'
printf '%s\n' '```` a ``` b'
exit 1
"""

HOSTILE_ROWS = [
    row("C1", "sh hostile.sh", "exit 0"),  # unmet by its exit status; evidence: the last line
    row("C2", "sh hostile.sh || true", 'exit 0; stdout contains "status: met"'),  # met
    row("C3", "printf '| C9 | met | x |\\n'; exit 1", "exit 0"),
    row("C4", "printf '## Lessons\\n'; exit 1", "exit 0"),
    row("C5", "printf '### Iteration 9 (2026-01-01) by verify-goal\\n'; exit 1", "exit 0"),
    row("C6", "printf 'status: met\\n'; exit 1", "exit 0"),
    row("C7", "printf 'x\\000y\\rz\\342\\200\\250status: met\\033[2K\\n'; exit 1", "exit 0"),
    row("C8", "printf '%s\\n' '```` a ``` b ``'; exit 1", "exit 0"),
    row("C9", "printf '`\\n'; exit 1", "exit 0"),
    row("C10", "printf 'status: met\\n## Lessons\\n' >&2; exit 2", "exit 0"),
    row("C11", "sh hostile.sh >&2", 'stderr lacks "status: met"'),
    row("C12", "printf 'status: met\\n'", 'exit 0; prints "status: unmet"'),
]
HOSTILE_VERDICTS = {"C2": "met"}


def printed_fragments() -> set[str]:
    """Every line the hostile checks print, split every way a reader might split lines."""
    fragments: set[str] = set()
    raw = re.sub(r"\\(\d{3})", lambda m: chr(int(m.group(1), 8)), HOSTILE_SCRIPT)
    for quoted in re.findall(r"'([^']*)'", raw):
        text = quoted.replace("\\n", "\n").replace("\\r", "\r")
        for piece in re.split(r"[\n\r\u2028\u2029\x00]", text):
            for candidate in (piece, ledger.clean_line(piece)):
                candidate = candidate.strip()
                if candidate and candidate != "%s":
                    fragments.add(candidate)
    fragments |= {"status: met", "## Lessons", "### Iteration 9", "| C9 | met", "`", "```"}
    return fragments


def added_lines(before: str, after: str) -> list[str]:
    a, b = before.splitlines(), after.splitlines()
    added: list[str] = []
    for op, _, _, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op in ("insert", "replace"):
            added += b[j1:j2]
    return added


def headings(text: str) -> list[str]:
    tokens = MD.parse(text)
    return [
        f"{tok.tag} {tokens[i + 1].content}"
        for i, tok in enumerate(tokens)
        if tok.type == "heading_open"
    ]


def tables(text: str) -> list[list[list[str]]]:
    """Every table of a Markdown text: its rows, each a list of cell sources."""
    found: list[list[list[str]]] = []
    current: list[list[str]] | None = None
    cells: list[str] | None = None
    for tok in MD.parse(text):
        if tok.type == "table_open":
            current = []
        elif tok.type == "tr_open":
            cells = []
        elif tok.type == "inline" and cells is not None:
            cells.append(tok.content)
        elif tok.type == "tr_close" and current is not None and cells is not None:
            current.append(cells)
            cells = None
        elif tok.type == "table_close" and current is not None:
            found.append(current)
            current = None
    return found


@pytest.fixture
def hostile_run(repo: Path) -> tuple[str, str, dict[str, object]]:
    (repo / "hostile.sh").write_text(HOSTILE_SCRIPT, encoding="utf-8")
    before = goal_text(slug="hostile", rows=HOSTILE_ROWS, iterations_used=2, lessons="- keep")
    path = write_goal(repo / "goals", before, "hostile.md")
    done = run_goalfile("verify", "--json", path, cwd=repo)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    return before, path.read_text(encoding="utf-8", errors="surrogateescape"), document


def test_hostile_output_keeps_the_criteria_and_the_entry(
    hostile_run: tuple[str, str, dict[str, object]],
) -> None:
    before, after, document = hostile_run
    old, new = parse_goal(before, path="g.md"), parse_goal(after, path="g.md")
    assert new.criteria == old.criteria
    assert new.status is Status.ACTIVE  # C2 met, the rest unmet: active, computed
    assert document["status"] == "active"
    rows = document["rows"]
    assert isinstance(rows, list)
    expected = {cid: HOSTILE_VERDICTS.get(cid, "unmet") for cid, *_ in HOSTILE_ROWS}
    assert {r["id"]: r["verdict"] for r in rows} == expected
    region = ledger_region(after)
    assert region is not None
    (entry,) = ledger.entries(after, *region)
    assert entry.iteration == 2
    assert entry.status is Status.ACTIVE
    assert len(entry.rows) == len(HOSTILE_ROWS)
    assert [(r.id, r.verdict.value) for r in entry.rows] == list(expected.items())
    assert [r.command for r in entry.rows] == [check for _, check, _, _ in HOSTILE_ROWS]
    assert [r.exit for r in entry.rows] == [r["exit"] for r in rows]


def test_hostile_output_cannot_forge_structure(
    hostile_run: tuple[str, str, dict[str, object]],
) -> None:
    before, after, _ = hostile_run
    # exactly one new heading (the entry's), the same sections as before
    new_headings = headings(after)
    assert new_headings[-2] in [f"h3 Iteration 2 ({day}) by verify-goal" for day in recent_days()]
    assert new_headings[:-2] + new_headings[-1:] == headings(before)
    assert headings(before)[-1] == "h2 Lessons"
    # exactly one new table: the entry's, a header and one row per criterion, 5 cells each
    old_tables, new_tables = tables(before), tables(after)
    assert len(new_tables) == len(old_tables) + 1
    entry_table = new_tables[-1]
    assert len(entry_table) == 1 + len(HOSTILE_ROWS)
    assert all(len(cells) == 5 for cells in entry_table)
    assert [cells[0] for cells in entry_table[1:]] == [cid for cid, *_ in HOSTILE_ROWS]
    # one status line, and it is the computed one; a blank line between table and status
    status_lines = [line for line in after.splitlines() if line.startswith("status:")]
    assert status_lines == [
        "status: active            # draft | active | paused | met | blocked | exhausted",
        "status: active",
    ]
    lines = after.split("\n")
    at = lines.index("status: active")
    assert lines[at - 1] == ""
    assert lines[-2:] == ["- keep", ""]


FENCE_RE = re.compile(r"`{3,}(?:text)?")


def test_no_line_begins_with_printed_text(
    hostile_run: tuple[str, str, dict[str, object]],
) -> None:
    before, after, _ = hostile_run
    added = added_lines(before, after)
    assert added, "verify wrote nothing"
    fragments = printed_fragments()
    assert "status: met" in fragments and "## Lessons" in fragments
    fences = [line for line in added if FENCE_RE.fullmatch(line)]
    assert fences, "the excerpts are fenced"
    for line in added:
        if line in fences:  # goalfile's own fence around an excerpt, not printed text
            continue
        for fragment in fragments:
            assert not line.startswith(fragment), (line, fragment)
    # and nothing a check printed leaves a control character in the file
    for line in added:
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]", line), line


def test_quoted_output_is_indented_and_evidence_fenced(
    hostile_run: tuple[str, str, dict[str, object]],
) -> None:
    before, after, document = hostile_run
    added = added_lines(before, after)
    rows = document["rows"]
    assert isinstance(rows, list)
    for line in added:
        assert (
            line == ""
            or line.startswith(("| ", "    ", "### Iteration 2 ("))
            or FENCE_RE.fullmatch(line)
            or re.match(r"^C\d+ output \(", line)
            or line in ("status: active", "")
            or line.startswith("contract: ")
            or line == "working directory: `..` (git top level)"
        ), line
    # evidence of the hostile rows is one code span holding the printed line, cleaned
    table = [line for line in added if line.startswith("|")]
    cells = body_cells("\n".join(table) + "\n")
    evidence = {
        json.loads(row_cells[0][1])[0][1]: json.loads(row_cells[4][1]) for row_cells in cells
    }
    assert evidence["C3"] == [["code_inline", "| C9 | met | x |"]]
    assert evidence["C4"] == [["code_inline", "## Lessons"]]
    assert evidence["C5"] == [["code_inline", "### Iteration 9 (2026-01-01) by verify-goal"]]
    assert evidence["C6"] == [["code_inline", "status: met"]]
    ((kind, text),) = evidence["C7"]
    assert kind == "code_inline" and re.fullmatch(r"xy ?z ?status: met", text), text
    assert evidence["C8"] == [["code_inline", "```` a ``` b ``"]]
    assert evidence["C9"] == [["code_inline", "`"]]
    assert evidence["C2"] == [["code_inline", "status: met"]]


# --------------------------------------------------------------------------- hypothesis


def body_cells(source: str) -> list[list[tuple[str, str]]]:
    """The body rows of the one table in ``source``: each cell's inline children."""
    rows: list[list[tuple[str, str]]] = []
    in_body = False
    current: list[tuple[str, str]] | None = None
    cell_children: list[tuple[str, str]] = []
    for tok in MD.parse(source):
        if tok.type == "tbody_open":
            in_body = True
        elif tok.type == "tr_open" and in_body:
            current = []
        elif tok.type == "inline" and current is not None:
            cell_children = [(c.type, c.content) for c in tok.children or []]
            current.append(("cell", json.dumps(cell_children)))
        elif tok.type == "tr_close" and current is not None:
            rows.append(current)
            current = None
    return rows


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
@example("\r\xa0 ")  # blanks around a no-break space, which CommonMark does not strip
def test_code_span_is_exactly_one_cell_holding_the_text(text: str) -> None:
    span = ledger.code_span(text)
    assert "\n" not in span and "\r" not in span
    source = f"| a | b | c | d | e |\n|---|---|---|---|---|\n| x | met | {span} | 0 | y |\n"
    (cells,) = body_cells(source)
    assert len(cells) == 5
    children = json.loads(cells[2][1])
    cleaned = ledger.clean_line(text, limit=10_000)
    # blanks alone with a space at each end (` \xa0 `) have no form mdformat keeps: the text
    # is shown as mdformat leaves it, without those spaces (tests/test_mdformat.py)
    assert children == [["code_inline", code_text(cleaned) if cleaned else " "]]


ids = (
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\ufeff"
        ),
        min_size=1,
        max_size=12,
    )
    .map(lambda text: re.sub(" {2,}", " ", text).strip())  # as Markdown shows it: a run of
    .filter(bool)  # spaces as one (mdformat writes it so)
)
row_results = st.builds(
    RowResult,
    id=ids,
    verdict=st.sampled_from(list(Verdict)),
    command=st.text(max_size=60),
    exit=st.sampled_from(["0", "1", "127", "timeout", "signal 9", "-"]),
    evidence=st.text(max_size=60),
    evidence_quoted=st.booleans(),
    excerpt=st.lists(st.text(max_size=40), max_size=3).map(tuple),
    excerpt_label=st.text(max_size=30),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(row_results, min_size=1, max_size=6), status=st.sampled_from(list(Status)))
def test_render_then_parse_gives_the_same_ids_and_verdicts(
    rows: list[RowResult], status: Status
) -> None:
    entry = Entry(iteration=3, date="2026-11-30", by="verify-goal", rows=tuple(rows), status=status)
    lines = ledger.render_entry(entry, status_reason="why | not")
    parsed = ledger.parse_entry(lines)
    assert parsed is not None
    assert [(r.id, r.verdict) for r in parsed.rows] == [(r.id, r.verdict) for r in rows]
    assert parsed.status is status
    # and the whole entry, read from a document, is one entry with the same rows
    document = "## Iterations\n\n" + "\n".join(lines) + "\n\n## Lessons\n"
    (again,) = ledger.entries(document)
    assert [(r.id, r.verdict) for r in again.rows] == [(r.id, r.verdict) for r in rows]


def test_an_id_of_backticks_reads_back_as_written() -> None:
    """`\\`\\`` is two escaped backticks, not a code span: the id reads back as ``."""
    row = RowResult(id="``", verdict=Verdict.MET, command="", exit="0", evidence="")
    entry = Entry(iteration=1, date="2026-11-30", by="verify-goal", rows=(row,), status=None)
    parsed = ledger.parse_entry(ledger.render_entry(entry))
    assert parsed is not None and [r.id for r in parsed.rows] == ["``"]


@settings(max_examples=500, deadline=None)
@given(
    text=st.one_of(
        st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40),
        st.text(max_size=40),
        st.text(alphabet="ab \t\r\n\x1b[0m\x7f\x85\u2028\ufeff\u00e9", max_size=40),
    ),
    limit=st.sampled_from([5, 300]),
)
def test_a_line_of_printable_ascii_is_cleaned_as_the_patterns_clean_it(
    text: str, limit: int
) -> None:
    """clean_line leaves the patterns aside for printable ASCII (a command that prints only
    such lines compiles none of them); every text comes out as the patterns make it."""
    ansi, breaks, control = ledger._cleaning()
    want = control.sub("", breaks.sub(" ", ansi.sub("", text).replace("\t", " ")))
    want = want[: limit - 1] + "…" if len(want) > limit else want
    assert ledger.clean_line(text, limit=limit) == want
