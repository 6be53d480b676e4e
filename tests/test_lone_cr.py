"""A carriage return that ends no line (a lone CR) is a line ending to Markdown (CommonMark,
GitHub, an editor's preview) and not to goalfile, whose lines end at ``\\n``. A goal file
holding one is refused (``lone-cr``) and ``lint --fix`` writes each as the line break Markdown
reads; until then goalfile reads every row on the line markdown-it parsed it from, never from
another line (one inside an HTML comment further down). Real goalfile processes on real files in
a real git repository; markdown-it (goalfile's own dependency) stands for the Markdown view."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import frontmatter, run_goalfile
from markdown_it import MarkdownIt

GOAL = (
    frontmatter("build", created="2026-12-02")
    + """# Goal: the build leaves `ok` in the tree
SHIFT
## Non-goals
- `tests/` stays unchanged.

## Acceptance criteria
| id | criterion | check | expected |
|----|-----------|-------|----------|
| C1 | ok is built | `test -f ok` | exit 0 |

## Plan
<!--
| C1 | ok is built | `test -f ok || true` | exit 0 |
-->

## Token accounting

## Iterations

## Lessons
"""
)


def shifted(newline: str = "\n") -> str:
    """The goal with an empty HTML comment of lone CRs above the table: one line for goalfile,
    as many more for Markdown as there are lines from the row down to the hidden one."""
    lines = GOAL.split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("| C1 | ok is built | `test"))
    hidden = next(i for i, line in enumerate(lines) if "|| true" in line)
    text = GOAL.replace("SHIFT", "<!--" + "\r" * (hidden - row) + "-->")
    return text.replace("\n", newline)


def shown_check(text: str) -> str:
    """The check cell of C1 as a Markdown view renders it (markdown-it, GFM tables)."""
    html = MarkdownIt("commonmark").enable("table").render(text.split("---", 2)[2])
    found = re.search(r"<td>C1</td>\s*<td>[^<]*</td>\s*<td>(.*?)</td>", html, re.S)
    assert found is not None, html
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_a_lone_cr_refuses_the_goal_naming_file_line_and_the_fix(tmp_path: Path) -> None:
    (tmp_path / "goals").mkdir()
    path = tmp_path / "goals" / "build.md"
    path.write_bytes(shifted().encode())
    assert shown_check(shifted()) == "test -f ok"

    lint = run_goalfile("lint", "--json", "goals/build.md", cwd=tmp_path)
    assert lint.returncode == 3, lint.stdout + lint.stderr
    findings = json.loads(lint.stdout)["files"][0]["findings"]
    lone = [f for f in findings if f["code"] == "lone-cr"]
    assert len(lone) == 1, findings
    assert (lone[0]["severity"], lone[0]["line"], lone[0]["column"]) == ("error", 12, 5)
    assert lone[0]["hint"].startswith("`goalfile lint --fix goals/build.md`")
    # the row is read where markdown-it read it: the strict check, not the hidden one
    assert not [f for f in findings if f["code"] == "span-pipe"], findings

    for command in ("activate", "verify"):
        done = run_goalfile(command, "goals/build.md", cwd=tmp_path)
        assert done.returncode == 3, done.stdout + done.stderr
        assert "goals/build.md:12:5:" in done.stderr and "lone CR" in done.stderr
        assert "|| true" not in done.stdout + done.stderr
    assert path.read_bytes() == shifted().encode()  # untouched

    # the fix as printed works, keeps what Markdown shows, and the goal then runs that
    fixed = run_goalfile("lint", "--fix", "goals/build.md", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "line 12: lone carriage returns written as line breaks" in fixed.stderr
    data = path.read_bytes()
    assert b"\r" not in data and data.count(b"\n") == shifted().count("\n") + shifted().count("\r")
    assert shown_check(data.decode()) == "test -f ok"
    assert run_goalfile("activate", "goals/build.md", cwd=tmp_path).returncode == 0
    verify = run_goalfile("verify", "goals/build.md", cwd=tmp_path)
    assert verify.returncode == 1, verify.stdout + verify.stderr
    assert verify.stdout.rstrip().endswith("C1 unmet; status: active")
    assert "test -f ok || true" not in path.read_text(encoding="utf-8").split("## Iterations")[1]


def test_the_fix_of_a_crlf_file_writes_crlf_line_breaks(tmp_path: Path) -> None:
    (tmp_path / "goals").mkdir()
    path = tmp_path / "goals" / "build.md"
    path.write_bytes(shifted("\r\n").encode())
    assert run_goalfile("lint", "goals/build.md", cwd=tmp_path).returncode == 3
    fixed = run_goalfile("lint", "--fix", "goals/build.md", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") and b"\r\r" not in data
    assert shown_check(data.decode()) == "test -f ok"


def test_line_ending_carriage_returns_are_no_lone_cr(tmp_path: Path) -> None:
    """CRLF and CR CR LF line endings (and carriage returns at the end of the file) end a line
    for goalfile too: not a lone CR."""
    (tmp_path / "goals").mkdir()
    path = tmp_path / "goals" / "build.md"
    text = GOAL.replace("SHIFT\n", "").replace("\n## Plan", "\r\r\n## Plan")
    path.write_bytes((text.replace("\n", "\r\n") + "\r").encode())
    done = run_goalfile("lint", "--json", "goals/build.md", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "lone-cr" not in done.stdout


def test_a_lone_cr_in_the_ledger_is_left_as_it_is(tmp_path: Path) -> None:
    """The ledger is never read as Markdown: a lone CR there shifts nothing goalfile reads."""
    (tmp_path / "goals").mkdir()
    path = tmp_path / "goals" / "build.md"
    text = GOAL.replace("SHIFT\n", "").replace("## Iterations\n", "## Iterations\n\na\rnote\n")
    path.write_bytes(text.encode())
    done = run_goalfile("lint", "--json", "goals/build.md", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "lone-cr" not in done.stdout
    assert run_goalfile("lint", "--fix", "goals/build.md", cwd=tmp_path).returncode == 0
    assert path.read_bytes() == text.encode()
