"""`goalfile log` and `goalfile audit --format markdown` on a goal with a regression, a
re-approval and reopenings, made by real goalfile commands; checked against golden files
(``GOALFILE_REGOLD=1`` rewrites them)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import DATA, copy_of, git, made_once, recent_days, run_goalfile

GOLDEN = DATA / "log"
FIXED_DATE = "2026-11-30"


def ok(repo: Path, *args: str, code: int = 0) -> str:
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done.stdout


def _story(repo: Path, env: dict[str, str]) -> None:
    (repo / "goals").mkdir()
    (repo / "README.md").write_text("says hello\n")
    goal = "goals/demo.md"
    ok(
        repo, "new", "demo", "a and b exist", "--check", "test -f a", "--expected", "exit 0",
        "--check", "test -f b", "--expected", "exit 0", "--review", "README.md=says hello",
        "--non-goal", "README.md stays", "--tokens", "1000", "--activate",
    )  # fmt: skip
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "approved")
    git(repo, "tag", "approved")
    ok(repo, "verify", "--tokens-used", "10", goal, code=1)  # 1: all unmet
    (repo / "a").touch()
    ok(repo, "verify", "--tokens-used", "20", goal, code=1)  # 2: C1 met
    (repo / "b").touch()
    ok(repo, "review", goal, "R1", "--artifact", "README.md", "--quote", "says hello",
       "--verdict", "met")  # fmt: skip
    ok(repo, "verify", "--tokens-used", "30", goal)  # 3: met
    path = repo / goal
    path.write_text(
        path.read_text().replace(
            "| `test -f b` | exit 0 |", "| `test -f b` | exit 0; output empty |"
        )
    )
    ok(repo, "activate", "--reapprove", goal, "--reason", "b must print nothing")
    (repo / "a").unlink()
    ok(repo, "verify", "--tokens-used", "40", goal, code=1)  # 4: C1 regressed
    ok(repo, "verify", "--tokens-used", "2000", goal, code=5)  # 5: exhausted, rows not run
    ok(repo, "budget", goal, "--tokens", "5000")  # reopened by the budget
    (repo / "a").touch()
    ok(repo, "verify", "--tokens-used", "2100", goal)  # 6: met


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _story)


@pytest.fixture
def storied(tmp_path: Path, made: Path) -> Path:
    """A goal that went unmet → met, was re-approved (met → active), regressed, ran out of
    tokens, was reopened by `budget`, and was met again (a copy of the repository where that
    happened once for the module)."""
    return copy_of(made, tmp_path / "repo")


def golden(name: str, text: str) -> None:
    """``text`` with today's date as FIXED_DATE equals the golden file ``name``."""
    for day in recent_days():
        text = text.replace(day, FIXED_DATE).replace(f"· {day[5:]} ", f"· {FIXED_DATE[5:]} ")
        text = text.replace(f" {day[5:]}\n", f" {FIXED_DATE[5:]}\n").replace(
            f" {day[5:]} ", f" {FIXED_DATE[5:]} "
        )
    path = GOLDEN / name
    if os.environ.get("GOALFILE_REGOLD"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_log_text_markdown_and_json_are_golden(storied: Path) -> None:
    golden("demo.txt", ok(storied, "log", "goals/demo.md"))
    golden("demo.md", ok(storied, "log", "--format", "markdown", "goals/demo.md"))
    document = json.loads(ok(storied, "log", "--json", "goals/demo.md"))
    golden("demo.json", json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def test_the_grid_marks_what_happened(storied: Path) -> None:
    (item,) = json.loads(ok(storied, "log", "--json"))["goals"]
    columns = item["columns"]
    assert [c["status"] for c in columns] == [
        "active", "active", "met", "active", "exhausted", "met",
    ]  # fmt: skip
    # C1 regressed in run 4; in run 5 nothing ran (tokens): not judged, so no regression
    assert [c["regressed"] for c in columns] == [[], [], [], ["C1"], [], []]
    kinds = [[e["kind"] for e in c["events_before"]] for c in columns]
    assert kinds == [["approved"], [], [], ["re-approved", "reopened"], [], ["reopened"]]
    assert columns[5]["events_before"][0]["by"] == "budget"


def test_a_goal_reopened_by_hand_is_marked() -> None:
    from goalfile.history import build
    from goalfile.model import Entry, RowResult, Status, Verdict

    def run(verdict: Verdict, status: Status) -> Entry:
        result = RowResult(id="C1", verdict=verdict, command="true", exit="0", evidence="x")
        return Entry(iteration=1, date=FIXED_DATE, by="verify-goal", rows=(result,), status=status)

    item = build(
        [run(Verdict.MET, Status.MET), run(Verdict.UNMET, Status.ACTIVE)],
        path="g.md",
        slug="g",
        status="active",
        criteria=["C1"],
    )
    (event,) = item.columns[1].before
    assert (event.kind, event.by) == ("reopened", "hand")
    assert item.columns[1].regressed == frozenset({"C1"})
    assert item.columns[1].marks == "O"


def test_audit_markdown_is_golden(storied: Path) -> None:
    golden("audit.md", ok(storied, "audit", "--format", "markdown", "goals/demo.md"))
    against = ok(storied, "audit", "--format", "markdown", "--against", "approved", "goals/demo.md")
    golden("audit-against.md", against)


def test_block_and_resume_are_status_changes(repo: Path) -> None:
    from tests.conftest import goal_text, row, write_goal

    write_goal(repo / "goals", goal_text(rows=(row("C1", "false", "exit 0"),)))
    ok(repo, "verify", "goals/demo.md", code=1)
    ok(repo, "block", "goals/demo.md", "--reason", "the API is down", "--tried", "a retry")
    ok(repo, "resume", "goals/demo.md", "--resolved", "the API is back")
    ok(repo, "verify", "goals/demo.md", code=1)
    (item,) = json.loads(ok(repo, "log", "--json"))["goals"]
    before = item["columns"][1]["events_before"]
    assert [(e["kind"], e["by"]) for e in before] == [("status", "block"), ("status", "resume")]
    assert before[0]["text"].startswith("active → blocked")
    assert before[1]["text"].startswith("blocked → active")
    text = ok(repo, "log")
    assert "before #2: S block (iteration 1, " in text


def test_a_reason_is_shown_as_it_was_given_not_as_markdown_source(repo: Path) -> None:
    """The entry holds the reason escaped for Markdown (`\\*x\\*`); `log` shows `*x*`."""
    from tests.conftest import goal_text, row, write_goal

    write_goal(repo / "goals", goal_text(rows=(row("C1", "false", "exit 0"),)))
    ok(repo, "verify", "goals/demo.md", code=1)
    reason = "the *API* is down [x] snake_case"
    ok(repo, "block", "goals/demo.md", "--reason", reason, "--tried", "a retry")
    assert "\\*API\\*" in (repo / "goals" / "demo.md").read_text(encoding="utf-8")
    (item,) = json.loads(ok(repo, "log", "--json"))["goals"]
    (event,) = item["events_after"]
    assert event["text"] == f"active → blocked: blocker: {reason}", event


def test_a_reopening_shows_the_reason_the_person_gave(repo: Path) -> None:
    """`reopen --reason` writes `reopened (was met)` and then `reason: ...`; the log showed
    the first line only, so a reviewer reading the grid never saw why."""
    from tests.conftest import goal_text, row, write_goal

    write_goal(repo / "goals", goal_text(rows=(row("C1", "true", "exit 0"),)))
    ok(repo, "verify", "goals/demo.md")
    ok(repo, "reopen", "goals/demo.md", "--reason", "C1 passed on a *stale* build")
    (item,) = json.loads(ok(repo, "log", "--json"))["goals"]
    (event,) = item["events_after"]
    assert (event["kind"], event["by"]) == ("reopened", "reopen")
    assert event["text"] == "met → active: reopened (was met); reason: C1 passed on a *stale* build"
    assert "reason: C1 passed on a *stale* build" in ok(repo, "log")


def test_the_markdown_log_shows_a_reason_as_it_was_given(repo: Path) -> None:
    """`log --format markdown` wrote the reason's text as Markdown source: `*stale*` showed
    in italics and `<img src=...>` as an image in the pull request (a reason is anyone's
    text). GitHub's renderer (cmark-gfm) now shows the characters given."""
    import html
    import re

    import cmarkgfm
    from cmarkgfm.cmark import Options

    from tests.conftest import goal_text, row, write_goal

    write_goal(repo / "goals", goal_text(rows=(row("C1", "true", "exit 0"),)))
    ok(repo, "verify", "goals/demo.md")
    reason = "C1 passed on a *stale* build <img src=x> [see](y) a_b_c `z` & \\ |"
    ok(repo, "reopen", "goals/demo.md", "--reason", reason)
    page = cmarkgfm.github_flavored_markdown_to_html(
        ok(repo, "log", "--format", "markdown"), options=Options.CMARK_OPT_UNSAFE
    )
    [item] = [li for li in re.findall(r"<li>(.*?)</li>", page) if "reopen" in li]
    assert "<img" not in item and "<em>" not in item and "<a " not in item, item
    assert html.unescape(item).endswith(f"reason: {reason}"), item
