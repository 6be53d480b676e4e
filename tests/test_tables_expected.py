"""Criteria tables and `expected` texts as people type them: a `|` that cuts a code span, a
missing cell, `exits 0`, `exit code 0`, `empty`, commas between clauses; and `lint --fix`, which
writes them the canonical way without touching the ledger or the contract digest."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import git, run_goalfile

GOAL = "goals/t.md"
HEAD = (
    "| id | criterion | check | expected | kind |\n|----|-----------|-------|----------|------|\n"
)


def goal(rows: str, *, status: str = "draft", ledger: str = "") -> str:
    return f"""---
slug: t
status: {status}
created: 2026-11-30
budget:
  iterations: 5
  tokens: null
iterations_used: 1
tokens_used: 0
---
# Goal: the rows hold

## Acceptance criteria
{HEAD}{rows}
## Iterations
{ledger}
## Lessons
"""


def project(tmp_path: Path, text: str) -> Path:
    repo = tmp_path / "repo"
    (repo / "goals").mkdir(parents=True)
    (repo / GOAL).write_text(text)
    git(repo, "init", "-q")
    return repo


def gf(repo: Path, *args: str, code: int) -> str:
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done.stdout + done.stderr


# the refine-goal skill's own example row, and `cmd || true`, written without escapes
SPLIT_ROWS = (
    "| C1 | no skips | `printf 'ok\\nSKIPPED x\\n' | grep -c SKIPPED` | exit 0; prints 1 "
    "| deterministic |\n"
    "| C2 | lint runs | `false || true` | exit 0 | deterministic |\n"
)


def test_a_code_span_cut_by_a_pipe_is_refused_until_lint_fix_escapes_it(tmp_path: Path) -> None:
    # GitHub splits such a row at the `|` and shows other cells than goalfile reads (a check
    # `sh -c 'echo 3 failed; exit 1' | exit 0 | true` showed as check `sh -c ...` and expected
    # `exit 0`), so it is an error: activate and verify refuse it, with `lint --fix` as the fix
    repo = project(tmp_path, goal(SPLIT_ROWS))
    out = gf(repo, "lint", GOAL, code=3)
    assert out.count("error: a `|` inside a code span splits the row into") == 2, out
    assert "unknown kind" not in out
    assert f"`goalfile lint --fix {GOAL}` does it" in out
    gf(repo, "activate", GOAL, code=3)
    before = (repo / GOAL).read_text()
    (repo / GOAL).write_text(before.replace("status: draft", "status: active"))
    out = gf(repo, "verify", GOAL, code=3)
    assert "a `|` inside a code span splits the row" in out
    (repo / GOAL).write_text(before)

    out = gf(repo, "lint", "--fix", GOAL, code=0)
    assert out.count("escaped `|` in a code span") == 2
    after = (repo / GOAL).read_text()
    assert "| `printf 'ok\\nSKIPPED x\\n' \\| grep -c SKIPPED` |" in after
    assert "| `false \\|\\| true` |" in after
    changed = [
        number
        for number, (old, new) in enumerate(zip(before.split("\n"), after.split("\n"), strict=True))
        if old != new
    ]
    assert changed == [15, 16]  # the two rows; nothing else
    assert "a `|` inside a code span" not in gf(repo, "lint", GOAL, code=0)
    gf(repo, "activate", GOAL, code=0)
    out = gf(repo, "verify", GOAL, code=0)
    assert "C1 met, C2 met; status: met" in out
    gf(repo, "audit", GOAL, code=0)


def test_lint_fix_of_a_cut_code_span_keeps_an_active_goals_pinned_contract(
    tmp_path: Path,
) -> None:
    # a goal approved before this was an error: the escape changes no digest, so the fix
    # needs no new approval
    fixed = SPLIT_ROWS.replace("' | grep", "' \\| grep").replace("|| true", "\\|\\| true")
    repo = project(tmp_path, goal(fixed))
    gf(repo, "activate", GOAL, code=0)
    text = (repo / GOAL).read_text()
    pinned = re.search(r"(?m)^contract: .*$", text)
    assert pinned is not None
    (repo / GOAL).write_text(text.replace(fixed, SPLIT_ROWS))
    gf(repo, "verify", "--no-write", GOAL, code=3)
    gf(repo, "lint", "--fix", GOAL, code=0)
    after = (repo / GOAL).read_text()
    assert re.search(r"(?m)^contract: .*$", after)[0] == pinned[0]  # type: ignore[index]
    assert fixed in after
    gf(repo, "verify", "--no-write", GOAL, code=0)
    gf(repo, "audit", GOAL, code=0)


def test_a_row_with_a_missing_cell_is_reported_as_such(tmp_path: Path) -> None:
    rows = (
        "| C1 | ok | `true` | exit 0 | deterministic |\n| C2 | short | `true` | deterministic |\n"
    )
    repo = project(tmp_path, goal(rows))
    out = gf(repo, "lint", GOAL, code=3)
    assert (
        f"{GOAL}:17:1: error: the row has 4 cells but the header has 5 "
        '(id, criterion, check, expected, kind); its cells: "C2", "short", "`true`", '
        '"deterministic"'
    ) in out
    assert "expected" not in out.split("its cells")[1].split("\n", 1)[1]  # no bad-expected
    gf(repo, "lint", "--fix", GOAL, code=3)  # a person decides which cell is missing


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("exits 0", "exit 0"),
        ("exit code 0", "exit 0"),
        ("exit status 0", "exit 0"),
        ("Exit Code 0", "exit 0"),
        ("empty", "output empty"),
        ("exit 0, output empty", "exit 0; output empty"),
        ('exits 0, stdout lacks "a,b", empty', 'exit 0; stdout lacks "a,b"; output empty'),
    ],
)
def test_expected_as_people_type_it_is_read_and_fixed(
    tmp_path: Path, written: str, canonical: str
) -> None:
    rows = f"| C1 | quiet | `true` | {written} | deterministic |\n"
    repo = project(tmp_path, goal(rows))
    out = gf(repo, "lint", GOAL, code=0)
    assert f"expected `{written}` is read as `{canonical}`" in out
    gf(repo, "activate", GOAL, code=0)
    assert "C1 met; status: met" in gf(repo, "verify", GOAL, code=0)
    before = (repo / GOAL).read_text()
    out = gf(repo, "lint", "--fix", GOAL, code=0)
    assert f"expected `{written}` → `{canonical}`" in out
    after = (repo / GOAL).read_text()
    assert after == before.replace(f"| {written} |", f"| {canonical} |")
    assert "read as" not in gf(repo, "lint", GOAL, code=0)
    # same contract digest: the pin still holds, and the met status is still backed
    gf(repo, "verify", "--no-write", GOAL, code=0)
    gf(repo, "audit", GOAL, code=0)


def test_the_fix_keeps_a_code_span_around_expected(tmp_path: Path) -> None:
    repo = project(tmp_path, goal("| C1 | quiet | `true` | `exits 0` | deterministic |\n"))
    gf(repo, "lint", "--fix", GOAL, code=0)
    assert "| C1 | quiet | `true` | `exit 0` | deterministic |" in (repo / GOAL).read_text()


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("exit0", "exit 0"),
        ("exit == 0", "exit 0"),
        ('stdot contains "x"', 'stdout contains "x"'),
        ("stdout contains passed", 'stdout contains "passed"'),
        ("output is empty", "output empty"),
        ('exit 0; stdout contians "ok"', 'stdout contains "ok"'),
    ],
)
def test_anything_else_unknown_gets_a_did_you_mean(
    tmp_path: Path, written: str, meant: str
) -> None:
    repo = project(tmp_path, goal(f"| C1 | x | `true` | {written} | deterministic |\n"))
    out = gf(repo, "lint", GOAL, code=3)
    assert f"did you mean `{meant}`?" in out
    before = (repo / GOAL).read_text()
    gf(repo, "lint", "--fix", GOAL, code=3)
    assert (repo / GOAL).read_text() == before  # a guess is never written


def test_lint_fix_json_lists_the_fixes_it_made(tmp_path: Path) -> None:
    """`lint --fix --json`: each file's rewrites, line by line, in the JSON document."""
    repo = project(
        tmp_path, goal(SPLIT_ROWS + "| C3 | quiet | `true` | exits 0 | deterministic |\n")
    )
    (repo / "goals" / "clean.md").write_text(
        goal("| C1 | ok | `true` | exit 0 | deterministic |\n")
    )
    before = (repo / GOAL).read_text()

    done = run_goalfile("lint", "--fix", "--json", GOAL, "goals/clean.md", cwd=repo)

    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["fix"] is True
    first, clean = report["files"]
    assert first["path"] == GOAL
    assert first["fixed"] == [
        {"line": 16, "id": "C1", "change": "escaped `|` in a code span"},
        {"line": 17, "id": "C2", "change": "escaped `|` in a code span"},
        {"line": 18, "id": "C3", "change": "expected `exits 0` → `exit 0`"},
    ]
    assert first["fix_refused"] is None
    assert (clean["path"], clean["fixed"], clean["fix_refused"]) == ("goals/clean.md", [], None)
    after = (repo / GOAL).read_text()
    assert after != before and "| exit 0 | deterministic |" in after.split("\n")[17]
    # the findings are those of the file as fixed: nothing left to fix
    assert not [f for f in first["findings"] if "splits the row" in f["message"]]
    # nothing left to do: an empty list; without --fix, no `fixed` key
    again = json.loads(run_goalfile("lint", "--fix", "--json", GOAL, cwd=repo).stdout)
    assert again["files"][0]["fixed"] == []
    plain = json.loads(run_goalfile("lint", "--json", GOAL, cwd=repo).stdout)
    assert plain["fix"] is False and "fixed" not in plain["files"][0]


def test_lint_fix_json_says_why_a_fix_was_refused(tmp_path: Path) -> None:
    """A pin made from the cells' source text (tests/data/legacy, an approval that recorded no
    rows): the fix would move the cell, so nothing is written, and the JSON says why."""
    legacy = Path(__file__).parent / "data" / "legacy" / "unrecorded-pin.md"
    repo = project(tmp_path, legacy.read_text())
    before = (repo / GOAL).read_bytes()

    done = run_goalfile("lint", "--fix", "--json", GOAL, cwd=repo)

    (item,) = json.loads(done.stdout)["files"]
    assert (repo / GOAL).read_bytes() == before
    assert item["fixed"] == []
    refused = item["fix_refused"]
    assert refused is not None, item
    assert refused["message"].startswith("the `contract:` pin was made from the cells' source")
    assert refused["hint"] == (
        f"have a person re-approve the contract as Markdown shows it first: "
        f"`goalfile activate --reapprove {GOAL} --reason TEXT`"
    )
