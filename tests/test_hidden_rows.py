"""Criteria rows and sections that Markdown reads as part of a code block, an HTML block or
another container are not rows or sections to anyone: the real mdformat closes a fenced block
left open at the end of the file and keeps an HTML comment left open as it is, so the rows
under the opening line and the sections after it silently stop being criteria and sections.
goalfile refuses such a file (lint's ``hidden-structure``) instead of approving and verifying
only the rows it still sees. Real mdformat, real goalfile processes, real files in a real git
repository."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import clean_env, frontmatter, git, run_goalfile, stop_input

MDFORMAT = Path(sys.executable).parent / "mdformat"
FENCE = "`" * 3
GOAL = "goals/g.md"

HEAD = (
    frontmatter("g")
    + """# Goal: the suite passes

## Non-goals
- nothing outside this repository changes

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | one | `true` | exit 0 | deterministic |
"""
)
ROWS = """| C2 | two | `test -f README.md` | exit 0 | deterministic |
| R1 | docs | `README.md` | says what the project is | review |
"""
TAIL = """
## Plan

## Iterations

## Lessons
"""

# what a draft's author may leave after the first row; each hides C2 and R1 from Markdown
DRAFTS = {
    "fence left open": HEAD + f"{FENCE}\n" + ROWS + TAIL,
    "html comment left open": HEAD + "<!--\n" + ROWS + TAIL,
    "rows indented after a blank line": HEAD
    + "\n"
    + "".join(f"    {line}\n" for line in ROWS.splitlines())
    + TAIL,
    "block quote": HEAD + "> C2 is new\n" + ROWS + TAIL,
    "list item": HEAD + "- C2 is new\n" + ROWS + TAIL,
    "blank line": HEAD + "\n" + ROWS + TAIL,
}


def mdformat(folder: Path, *paths: str) -> None:
    """The real mdformat CLI, as a pre-commit hook runs it."""
    assert MDFORMAT.exists(), f"{MDFORMAT} is missing: install the test extras"
    done = subprocess.run(
        [str(MDFORMAT), *paths], cwd=folder, env=clean_env(), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def formatted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each draft as the real mdformat writes it (one run for all of them)."""
    folder = tmp_path_factory.mktemp("drafts")
    names = {case: f"{index}.md" for index, case in enumerate(sorted(DRAFTS))}
    for case, name in names.items():
        (folder / name).write_text(DRAFTS[case], encoding="utf-8")
    mdformat(folder, *names.values())
    return {case: (folder / name).read_text(encoding="utf-8") for case, name in names.items()}


def write(repo: Path, text: str) -> Path:
    (repo / "README.md").write_text("goalfile: says what the project is\n", encoding="utf-8")
    path = repo / GOAL
    path.write_text(text, encoding="utf-8")
    return path


def findings(repo: Path) -> tuple[int, list[dict[str, object]]]:
    done = run_goalfile("lint", "--json", GOAL, cwd=repo)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)["files"][0]["findings"]


def hidden(found: list[dict[str, object]]) -> list[dict[str, object]]:
    return [f for f in found if f["code"] == "hidden-structure"]


def refused(repo: Path, path: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command refuses (exit 3) with a hidden-structure message and writes nothing."""
    before = (repo / path).read_bytes()
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == 3, (args, done.stdout + done.stderr)
    assert "Traceback" not in done.stderr
    assert (repo / path).read_bytes() == before, args
    return done


@pytest.mark.parametrize("case", sorted(DRAFTS))
def test_rows_mdformat_leaves_inside_a_container_are_refused(
    repo: Path, formatted: dict[str, str], case: str
) -> None:
    text = formatted[case]
    assert text != DRAFTS[case]  # mdformat did rewrite it
    path = write(repo, text)
    assert "| C2 | two |" in text and "| R1 | docs |" in text  # the rows are still written
    row_line = text.split("\n").index(next(x for x in text.split("\n") if "| C2 | two" in x)) + 1

    code, found = findings(repo)
    assert code == 3, found
    [finding] = hidden(found)
    assert finding["severity"] == "error" and finding["line"] == row_line, finding
    assert "rows C2, R1" in str(finding["message"]), finding
    assert str(finding["hint"]).strip(), finding

    # approving the draft would pin C1 alone: activate refuses, and so does verify of the same
    # file made active by hand, naming the hidden rows
    done = refused(repo, GOAL, "activate", GOAL)
    assert "C2, R1" in done.stderr, done.stderr
    path.write_text(text.replace("status: draft", "status: active"), encoding="utf-8")
    done = refused(repo, GOAL, "verify", GOAL)
    assert f"{GOAL}:{row_line}:1: lines {row_line}" in done.stderr, done.stderr
    assert "C2, R1" in done.stderr and "fix: " in done.stderr, done.stderr
    assert "verify-goal" not in done.stdout


def fix_command(repo: Path) -> str:
    done = run_goalfile("lint", GOAL, cwd=repo)
    found = re.search(r"put the rows back under the criteria table: `([^`]+)`", done.stderr)
    assert found is not None, done.stderr
    return found.group(1)


@pytest.mark.parametrize(
    "case", ["fence left open", "html comment left open", "rows indented after a blank line"]
)
def test_the_printed_fix_puts_the_rows_back(
    repo: Path, formatted: dict[str, str], case: str
) -> None:
    """After mdformat, the `fix:` command, run as printed, gives back a goal whose three rows
    are criteria again, and its sections."""
    path = write(repo, formatted[case])
    fixed = subprocess.run(
        fix_command(repo), shell=True, cwd=repo, env=clean_env(), capture_output=True, text=True
    )
    assert fixed.returncode == 0, fixed.stderr
    assert sorted(p.name for p in path.parent.iterdir()) == ["g.md"]  # no backup left
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.stdout.strip().endswith("C1 met, C2 met, R1 unmet; status: active"), (
        done.stdout + done.stderr
    )
    # the entry went into the one `## Iterations` section, before `## Lessons`
    text = path.read_text(encoding="utf-8")
    assert text.count("## Iterations") == 1
    assert text.index("by verify-goal") < text.index("## Lessons")


def test_a_fence_left_open_in_the_plan_hides_the_sections_after_it(repo: Path) -> None:
    """No row is hidden, but mdformat's closing fence at the end of the file makes
    `## Iterations` and `## Lessons` code: every command refuses, and the Stop hook holds."""
    text = HEAD + ROWS + TAIL.replace("## Plan\n", f"## Plan\n\n{FENCE}sh\nmake all\n")
    text = text.replace("status: draft", "status: active")
    write(repo, text)
    mdformat(repo, GOAL)
    formatted = (repo / GOAL).read_text(encoding="utf-8")
    assert formatted.rstrip().endswith(FENCE)  # mdformat closed the block at the end
    lines = formatted.split("\n")
    iterations = lines.index("## Iterations") + 1

    code, found = findings(repo)
    assert code == 3, found
    [finding] = hidden(found)
    assert finding["line"] == iterations, finding
    assert "`## Iterations`, `## Lessons`" in str(finding["message"]), finding
    for args in (("verify", GOAL), ("plan", GOAL)):
        done = refused(repo, GOAL, *args)
        assert f"{GOAL}:{iterations}:" in done.stderr, done.stderr

    # the fix, run as printed (the stray opening line and the closing line go)
    hint = str(finding["hint"])
    command = re.search(r"delete both lines: `([^`]+)`", hint)
    assert command is not None, hint
    subprocess.run(command.group(1), shell=True, cwd=repo, env=clean_env(), check=True)
    code, found = findings(repo)
    assert code == 0, found


def test_the_stop_hook_holds_the_agent_on_hidden_rows(
    repo: Path, formatted: dict[str, str]
) -> None:
    text = formatted["fence left open"].replace("status: draft", "status: active")
    path = write(repo, text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    before = path.read_bytes()
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=repo, input=stop_input(repo))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    assert "C2, R1" in answer["reason"], answer["reason"]
    assert path.read_bytes() == before


# A goal may show a table or a goal file as an example: in its end state, or in the lessons
# of a file that has every section the example names. That stays valid, formatted or not.
EXAMPLE = f"""{FENCE}markdown
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C9 | example | `true` | exit 0 | deterministic |

## Plan

## Iterations
{FENCE}
"""


@pytest.mark.parametrize("where", ["end state", "lessons"])
def test_an_example_table_outside_the_criteria_section_is_no_finding(
    repo: Path, where: str
) -> None:
    text = HEAD + ROWS + TAIL
    if where == "end state":
        text = text.replace(
            "\n## Non-goals", f"\nThe rows look like this:\n\n{EXAMPLE}\n## Non-goals"
        )
    else:
        text += f"\n{EXAMPLE}"
    text = text.replace("status: draft", "status: active")
    path = write(repo, text)
    mdformat(repo, GOAL)
    assert path.read_text(encoding="utf-8") != text  # mdformat did rewrite it
    code, found = findings(repo)
    assert code == 0 and not hidden(found), found
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.stdout.strip().endswith("C1 met, C2 met, R1 unmet; status: active"), (
        done.stdout + done.stderr
    )


# Found by inserting block openers at random lines of the example goals and formatting them:
# the id column need not be the first, and a block in the ledger can hide a later section.
REORDERED = (
    frontmatter("g")
    + """# Goal: the columns come in any order

## Acceptance criteria
| kind | expected | check | criterion | id |
|------|----------|-------|-----------|----|
| deterministic | exit 0 | `true` | one | C1 |
<div>
| deterministic | exit 0 | `test -f README.md` | two | C2 |

## Iterations

## Lessons
"""
)


def test_a_row_whose_id_is_in_the_last_column_is_found_hidden(repo: Path) -> None:
    path = write(repo, REORDERED)
    mdformat(repo, GOAL)
    text = path.read_text(encoding="utf-8")
    assert "<div>" in text and "| two | C2 |" in text
    code, found = findings(repo)
    assert code == 3, found
    [finding] = hidden(found)
    message = str(finding["message"])
    assert "criteria row C2 but is" in message and "an HTML block" in message, message
    refused(repo, GOAL, "activate", GOAL)


def test_a_fence_left_open_in_the_ledger_hides_the_lessons(repo: Path) -> None:
    """A note with a stray fence in the newest entry: mdformat closes the block at the end, and
    `## Lessons` is code."""
    write(repo, HEAD + ROWS + TAIL + "- keep the suite fast\n")
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("\n## Lessons", f"\n{FENCE}\nnote from the agent\n\n## Lessons"),
        encoding="utf-8",
    )
    mdformat(repo, GOAL)
    lines = path.read_text(encoding="utf-8").split("\n")
    lessons = lines.index("## Lessons") + 1
    code, found = findings(repo)
    assert code == 3, found
    [finding] = hidden(found)
    assert finding["line"] == lessons and "`## Lessons`" in str(finding["message"]), finding
    done = refused(repo, GOAL, "verify", GOAL)
    assert f"{GOAL}:{lessons}:" in done.stderr, done.stderr


def test_an_html_comment_left_open_before_the_ledger_is_refused(repo: Path) -> None:
    """goalfile reads the ledger as text, past the comment; GitHub shows nothing after `<!--`,
    so the entries verify writes would be hidden from every reviewer."""
    write(repo, HEAD + ROWS + TAIL)
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("## Plan\n", "## Plan\n\n<!-- first draft of the plan\n- step one\n"),
        encoding="utf-8",
    )
    mdformat(repo, GOAL)
    lines = path.read_text(encoding="utf-8").split("\n")
    opened = lines.index("<!-- first draft of the plan") + 1
    code, found = findings(repo)
    assert code == 3, found
    [finding] = hidden(found)
    assert finding["line"] == opened, finding
    assert "the ledger under `## Iterations`" in str(finding["message"]), finding
    done = refused(repo, GOAL, "verify", GOAL)
    assert f"{GOAL}:{opened}:" in done.stderr, done.stderr

    command = re.search(r"delete line \d+ that opens it: `([^`]+)`", str(finding["hint"]))
    assert command is not None, finding
    subprocess.run(command.group(1), shell=True, cwd=repo, env=clean_env(), check=True)
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.stdout.strip().endswith("C1 met, C2 met, R1 unmet; status: active"), (
        done.stdout + done.stderr
    )


@pytest.mark.parametrize("indents", [("\t", "\t"), ("  \t", "    "), ("    ", "\t")])
def test_the_printed_fix_unindents_rows_indented_with_a_tab(
    repo: Path, indents: tuple[str, str]
) -> None:
    """CommonMark reads a leading tab (after up to three spaces) as an indented code block,
    as four spaces: the fix took the blank line away but not the tab, and lint then printed
    another fix of the same kind, which did not work either."""
    rows = "".join(
        f"{indent}{line}\n" for indent, line in zip(indents, ROWS.splitlines(), strict=True)
    )
    path = write(repo, HEAD + "\n" + rows + TAIL)
    code, found = findings(repo)
    assert code == 3 and hidden(found), found
    fixed = subprocess.run(
        ["sh", "-c", fix_command(repo)], cwd=repo, env=clean_env(), capture_output=True, text=True
    )
    assert fixed.returncode == 0, fixed.stderr
    assert sorted(p.name for p in path.parent.iterdir()) == ["g.md"]  # no backup left
    assert path.read_text(encoding="utf-8") == HEAD + ROWS + TAIL
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 criteria approved" in done.stdout, done.stdout + done.stderr
