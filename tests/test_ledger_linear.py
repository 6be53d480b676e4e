"""Reading a goal file takes time linear in its lines, whatever they hold: the readers of
backslash escapes and code spans (`ledger._unescape`, `ledger.unquote`) and of line-ending
`\\r`s in the body (`parse._CR_AT_LINE_END`) give exactly what the regular expressions they
replace gave, and the re-joining of a row's code spans cut at a `|`
(`parse.rejoin_code_spans`) what its reading of the whole joined cell again after each `|` gave
(hypothesis, with the old readings as the reference), and a real goalfile
process answers on a file with a 100 KB line made to make those expressions backtrack: the
commands that read the ledger, and the Stop hook (recorded host input, a real git repository)
within its own time limit.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import (
    clean_env,
    git,
    goal_text,
    make_git_repo,
    row,
    run_goalfile,
    stop_input,
    write_goal,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import ledger, parse

WAIT = 40.0  # seconds a command gets: it answers in well under one; the old reading took minutes

# the readings as they were: one regular expression each
OLD_ESCAPE_OR_SPAN = re.compile(r"\\([!-/:-@\[-`{-~])|(`+)(?!`).*?(?<!`)\2(?!`)")
OLD_CODE_SPAN = re.compile(r"(`+)(.*?)\1", re.S)
OLD_CR_AT_LINE_END = re.compile(r"\r+(?=\n)|\r+\Z")


def old_unescape(text: str) -> str:
    return OLD_ESCAPE_OR_SPAN.sub(lambda m: m.group(1) if m.group(1) else m.group(0), text)


def old_unquote(cell: str) -> str:
    cell = cell.strip()
    match = OLD_CODE_SPAN.fullmatch(cell)
    if match:
        inner = match.group(2)
        if inner.startswith(" ") and inner.endswith(" ") and inner.strip(" "):
            inner = inner[1:-1]
        cell = inner
    return cell.replace("\\|", "|")


def _old_opens_span(text: str) -> bool:
    opened = 0
    for run in re.finditer(r"`+", text):
        if not opened:
            opened = len(run.group())
        elif len(run.group()) == opened:
            opened = 0
    return bool(opened)


def old_rejoin_code_spans(cells: list[str]) -> list[str]:
    out: list[str] = []
    pos = 0
    while pos < len(cells):
        cell = cells[pos]
        pos += 1
        while _old_opens_span(cell) and pos < len(cells):
            cell += "|" + cells[pos]
            pos += 1
        out.append(cell)
    return out


PIECES = st.one_of(
    st.integers(1, 7).map(lambda k: "`" * k),
    st.sampled_from(
        ["\\", "\\`", "\\\\", "\\a", "\\|", "\\*", "a", "b c", " ", "\r", "\n", "\r\n", "|", "é"]
    ),
)
LINES = st.one_of(
    st.lists(PIECES, max_size=40).map("".join),
    st.text(alphabet="`\\a \r\n|!", max_size=60),
)


@settings(max_examples=1000, deadline=None)
@given(LINES)
def test_unescape_reads_as_the_regular_expression_did(text: str) -> None:
    assert ledger.unescaped(text) == old_unescape(text)
    assert ledger.shown_text(text) == old_unescape(text)


@settings(max_examples=1000, deadline=None)
@given(LINES)
def test_unquote_and_the_line_end_cr_read_as_the_regular_expressions_did(text: str) -> None:
    assert ledger.unquote(text) == old_unquote(text)
    assert parse._CR_AT_LINE_END.sub("", text) == OLD_CR_AT_LINE_END.sub("", text)


@settings(max_examples=1000, deadline=None)
@given(LINES)
def test_code_spans_cut_at_a_pipe_are_rejoined_as_the_old_reading_did(text: str) -> None:
    cells = parse.split_row(text)
    assert parse.rejoin_code_spans(cells) == old_rejoin_code_spans(cells)


def test_the_examples_that_tell_the_readings_apart() -> None:
    """What each part of the reading decides, by example (each checked against the old)."""
    cases = {
        "a \\* b": "a * b",  # an escape outside a span is consumed
        "`\\*` \\*": "`\\*` *",  # inside a span it is kept
        "\\`\\*` \\*": "`*` *",  # an escaped backtick opens no span
        "``\\*` \\*": "``\\*` *",  # the run from its second backtick opens (as the old did)
        "`` \\* ``` \\*": "`` * ``` *",  # a longer run does not close
        "`\\*\n` \\*": "`*\n` *",  # a span ends at its line
        "`\\*\r` \\*": "`\\*\r` *",  # `\r` is on the line
        "``\\*": "``*",  # never closed: text
    }
    for text, shown in cases.items():
        assert old_unescape(text) == shown, text
        assert ledger.unescaped(text) == shown, text
    assert ledger.unquote("``a`b``") == old_unquote("``a`b``") == "a`b"
    assert ledger.unquote("```") == old_unquote("```") == "`"


# --- a real goalfile on a real file ---------------------------------------------------------

GROWING = "\\*" + "".join("`" * k + "a" for k in range(1, 450))  # 100 KB: cubic for the old
CARRIAGE = "x" + "\r" * 100_000 + "y"  # quadratic for the old line-end reading


def timed(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = run_goalfile(*args, cwd=cwd, timeout=WAIT)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository whose committed goal goals/real.md is active and unmet."""
    root = make_git_repo(tmp_path / "project")
    write_goal(
        root / "goals", goal_text(slug="real", rows=(row("C1", "false", "exit 0"),)), "real.md"
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def with_line(path: Path, line: str) -> None:
    """``line`` as a paragraph of the goal's activate entry (before its status line)."""
    text = path.read_text(encoding="utf-8")
    status = "\nstatus: active\ncontract:"
    marked = text.replace(status, f"\n{line}\n{status}", 1)
    assert marked != text
    path.write_bytes(marked.encode("utf-8"))


def test_the_commands_that_read_the_ledger_answer_on_a_line_of_backtick_runs(
    project: Path,
) -> None:
    made = timed("new", "own", "x", "--check", "true", "--expected", "exit 0",
                 "--non-goal", "n", "--activate", cwd=project)  # fmt: skip
    assert made.returncode == 0, made.stderr
    path = project / "goals" / "own.md"
    with_line(path, GROWING)
    for args in (("status", "goals/own.md"), ("audit", "goals/own.md"), ("log", "goals/own.md")):
        done = timed(*args, cwd=project)
        assert done.returncode in (0, 1), (args, done.stderr)
    done = timed("verify", "--no-write", "goals/own.md", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_verdict_row_whose_command_cell_is_backticks_is_read(project: Path) -> None:
    """A verify entry's command cell of 600 KB of backticks (quadratic for the old reading)."""
    path = project / "goals" / "real.md"
    assert timed("verify", "goals/real.md", cwd=project).returncode == 1
    text = path.read_text(encoding="utf-8")
    cell = "`" * 300_000 + "a" + "`" * 299_999
    changed = re.sub(r"(?m)^(\| C1 +\| unmet +\| )`false`", lambda m: m.group(1) + cell, text)
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    assert timed("log", "goals/real.md", cwd=project).returncode == 0


def test_a_row_of_pipes_after_an_unclosed_backtick_is_read(project: Path) -> None:
    """A criteria row that ends in a backtick and 100,000 `|` (quadratic for the old re-joining
    of code spans: lint took minutes): refused at its line, quickly."""
    path = project / "goals" / "real.md"
    text = path.read_text(encoding="utf-8")
    changed = re.sub(r"(?m)^(\| C1 \|.*)$", lambda m: m.group(1) + "`" + "|" * 100_000, text)
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    for args in (("lint", "goals/real.md"), ("lint", "--fix", "goals/real.md")):
        done = timed(*args, cwd=project)
        assert done.returncode == 3, (args, done.stderr[:2000])
        assert "goals/real.md:19:1: error: the row has 100005 cells" in done.stderr, args
    assert timed("status", "goals/real.md", cwd=project).returncode in (0, 3)
    assert path.read_text(encoding="utf-8") == changed


def test_a_body_line_of_carriage_returns_is_read(project: Path) -> None:
    path = project / "goals" / "real.md"
    text = path.read_text(encoding="utf-8")
    path.write_bytes(text.replace("\n## Non-goals", f"\n{CARRIAGE}\n\n## Non-goals", 1).encode())
    done = timed("lint", "goals/real.md", cwd=project)
    assert done.returncode in (0, 1, 3), done.stderr
    assert timed("status", "goals/real.md", cwd=project).returncode in (0, 1)


def test_the_stop_hook_answers_in_time_on_its_own_goal_with_such_a_line(project: Path) -> None:
    """The agent's own goal, in a folder git ignores, carries the line in its activate entry:
    the hook reads it (and the committed goal) and answers with the committed goal's block,
    well within its 10 s; the agent's goal, which git does not hold, is named and not run."""
    (project / ".git" / "info" / "exclude").write_text("goals/.cache/\n", encoding="utf-8")
    made = timed("new", "easy", "x", "--dir", "goals/.cache", "--check", "true",
                 "--expected", "exit 0", "--non-goal", "n", "--activate", cwd=project)  # fmt: skip
    assert made.returncode == 0, made.stderr
    with_line(project / "goals" / ".cache" / "easy.md", GROWING)
    assert git(project, "status", "--porcelain") == ""
    done = subprocess.run(
        [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude", "--timeout", "10"],
        cwd=project, env=clean_env(), input=stop_input(project), capture_output=True, text=True,
        timeout=WAIT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "\nverify-goal real iteration 1: C1 unmet" in reason, answer
    assert reason.startswith("goalfile did not run the checks of goals/.cache/easy.md: "), answer
    assert "did not answer within its time limit" not in answer["reason"]
