"""An entry heading outside `## Iterations` is an error (`entry-outside-ledger`). The agent
copied its last verify entry under `## Lessons`, every verdict `met`, `status: met`, and
committed it: GitHub (cmark-gfm, its parser) showed that entry as the file's last, where a
reviewer looks for the newest result, while goalfile read no entry there: lint said ok,
`status` active, `audit --against` was clean and CI's re-run skips an active goal. Real
goalfile processes on a real repository."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import git, make_git_repo, run_goalfile


def active_goal(tmp_path: Path, check: str) -> Path:
    """A repository whose active goal goals/auth.md has one row, ``check`` expected to exit 0."""
    root = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "auth", "ok", "--check", check, "--expected", "exit 0", "--non-goal", "n",
        "--activate", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return root


def forged(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "repo")
    (root / "run_tests.sh").write_text('echo "2 passed, 1 failed"\n', encoding="utf-8")
    git(root, "add", "run_tests.sh")
    git(root, "commit", "-qm", "tests")
    git(root, "branch", "-M", "main")
    done = run_goalfile(
        "new", "auth", "suite passes", "--check", "sh run_tests.sh", "--expected",
        'exit 0; stdout lacks "failed"', "--non-goal", "tests stay", "--activate", "--commit",
        cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(root, "checkout", "-qb", "agent")
    assert run_goalfile("verify", "goals/auth.md", cwd=root).returncode == 1
    path = root / "goals" / "auth.md"
    text = path.read_text("utf-8")
    start = text.index("### Iteration 0 (", text.index("by activate") + 5)
    entry = text[start : text.index("## Lessons")]
    fake = entry.replace("| unmet   |", "| met     |").replace("status: active", "status: met")
    fake = fake.replace("Iteration 0", "Iteration 1")
    path.write_text(text.replace("## Lessons", "## Lessons\n\n" + fake), "utf-8")
    git(root, "commit", "-qam", "auth works")
    return root


def _findings(root: Path) -> tuple[subprocess.CompletedProcess[str], list[dict[str, object]]]:
    """`goalfile lint --json goals/auth.md` in ``root``, and its entry-outside-ledger findings."""
    done = run_goalfile("lint", "--json", "goals/auth.md", cwd=root)
    found = [f for f in json.loads(done.stdout)["files"][0]["findings"]
             if f["code"] == "entry-outside-ledger"]  # fmt: skip
    return done, found


def _run_the_one_fix(root: Path) -> None:
    """Lint finds one entry-outside-ledger error; its fix is run as written."""
    done, found = _findings(root)
    assert len(found) == 1 and found[0]["severity"] == "error", done.stdout
    fix = re.search(r"`([^`]*)`", str(found[0]["hint"]))
    assert fix is not None
    subprocess.run(fix.group(1), shell=True, cwd=root, check=True)  # works as written


def test_an_entry_typed_under_the_lessons_is_refused_and_reported(tmp_path: Path) -> None:
    """Before, lint said ok and the audit exited 0."""
    import cmarkgfm

    root = forged(tmp_path)
    path = root / "goals" / "auth.md"
    html = cmarkgfm.github_flavored_markdown_to_html(path.read_text("utf-8").split("---", 2)[2])
    last = html[html.rindex("<h3>") :]  # what GitHub shows last: the typed entry, met
    assert "by verify-goal" in last and "<td>met</td>" in last and "status: met" in last
    heading = next(
        n for n, text in enumerate(path.read_text("utf-8").split("\n"), 1)
        if text.startswith("### Iteration 1 (")
    )  # fmt: skip
    done, found = _findings(root)
    assert [(f["severity"], f["line"]) for f in found] == [("error", heading)], done.stdout
    verify = run_goalfile("verify", "goals/auth.md", cwd=root)
    assert verify.returncode == 3 and f"goals/auth.md:{heading}:" in verify.stderr, verify.stderr
    audit = run_goalfile("audit", "--against", "refs/heads/main", cwd=root)
    assert audit.returncode == 1 and "entry-outside-ledger" in audit.stdout, audit.stdout

    fix = re.search(r"fix: `([^`]*)`", audit.stdout)
    assert fix is not None, audit.stdout
    subprocess.run(fix.group(1), shell=True, cwd=root, check=True)  # works as written
    assert "status: met" not in path.read_text("utf-8")
    assert path.read_text("utf-8").rstrip().endswith("## Lessons")
    assert run_goalfile("lint", "goals/auth.md", cwd=root).returncode == 0
    git(root, "commit", "-qam", "entry gone")
    assert run_goalfile("audit", "--against", "refs/heads/main", cwd=root).returncode == 0


@pytest.mark.parametrize(
    "heading",
    [
        "### Iteration 1 (2026-12-03) by verify-goal ###",
        "#### Iteration 1 (2026-12-03) by verify-goal",
        "> ### Iteration 1 (2026-12-03) by verify-goal",
        "**Iteration 1 (2026-12-03) by verify-goal**",
        "Iteration 1 (2026-12-03) by verify-goal\n---",
        "lesson: C1 is met now",  # the entry's table and its status line alone
    ],
)
def test_what_shows_as_an_entry_in_any_markup_is_refused(tmp_path: Path, heading: str) -> None:
    """Headings goalfile does not read as entry headings show as entries on GitHub all the
    same; so does a `status: met` line under a verdict table."""
    root = active_goal(tmp_path, "false")
    path = root / "goals" / "auth.md"
    typed = (
        f"\n{heading}\n\n| id | verdict | command | exit | evidence |\n|---|---|---|---|---|\n"
        "| C1 | met | `false` | 0 | `ok` |\n\nstatus: met\n"
    )
    path.write_text(path.read_text("utf-8") + typed, "utf-8")
    _run_the_one_fix(root)
    assert "status: met" not in path.read_text("utf-8").split("## Lessons")[1]


def test_an_entry_typed_as_a_quote_after_the_newest_entry_is_refused(tmp_path: Path) -> None:
    """Inside the ledger, a quote holding an entry heading, a table of `met` and `status: met`
    showed on GitHub as the newest entry, and goalfile read its lines as text of the verify
    entry above it (active): lint said ok."""
    root = active_goal(tmp_path, "false")
    assert run_goalfile("verify", "goals/auth.md", cwd=root).returncode == 1
    path = root / "goals" / "auth.md"
    quoted = (
        "> ### Iteration 1 (2026-12-03) by verify-goal\n>\n> | id | verdict | command | exit "
        "| evidence |\n> |---|---|---|---|---|\n> | C1 | met | `false` | 0 | `ok` |\n>\n"
        "> status: met\n\n## Lessons"
    )
    path.write_text(path.read_text("utf-8").replace("## Lessons", quoted), "utf-8")
    done, found = _findings(root)
    assert len(found) == 1 and "in a quote" in str(found[0]["message"]), done.stdout
    assert run_goalfile("verify", "goals/auth.md", cwd=root).returncode == 3


def test_the_fixes_of_two_entries_run_in_order_delete_nothing_else(tmp_path: Path) -> None:
    """Fails before the change: each entry had a sed of its own line numbers, so the second,
    run after the first as printed, deleted the lines the first moved up (the lesson)."""
    root = active_goal(tmp_path, "false")
    path = root / "goals" / "auth.md"
    typed = "".join(
        f"\n### Iteration {n} (2026-12-03) by verify-goal\n\n| id | verdict | command | exit "
        "| evidence |\n|---|---|---|---|---|\n| C1 | met | `false` | 0 | `ok` |\n\nstatus: met\n"
        for n in (1, 2)
    )
    path.write_text(path.read_text("utf-8") + typed + "\n### Notes\n\n- keep this\n", "utf-8")
    done = run_goalfile("lint", "goals/auth.md", cwd=root)
    fixes = re.findall(r"fix: `([^`]*)`", done.stderr)
    assert fixes and done.stderr.count("shows as a ledger entry outside") == 2, done.stderr
    for fix in fixes:  # every printed command, in order, as an agent runs them
        subprocess.run(fix, shell=True, cwd=root, check=True)
    text = path.read_text("utf-8")
    assert "- keep this" in text and "### Notes" in text and "status: met" not in text, text
    assert run_goalfile("lint", "goals/auth.md", cwd=root).returncode == 0


def test_an_entry_quoted_in_a_fenced_block_is_no_entry(tmp_path: Path) -> None:
    """A plan or a lesson may quote an entry in a code block: GitHub shows it as code."""
    root = active_goal(tmp_path, "true")
    path = root / "goals" / "auth.md"
    quoted = "\n```markdown\n### Iteration 3 (2026-12-01) by verify-goal\n\nstatus: met\n```\n"
    path.write_text(path.read_text("utf-8") + quoted, "utf-8")
    done = run_goalfile("lint", "goals/auth.md", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert run_goalfile("verify", "goals/auth.md", cwd=root).returncode == 0


@pytest.mark.parametrize(
    ("heading", "status"),
    [("### IteRation 1 (2026-12-03) by verify-goal", "status: met"), ("lesson", "StAtus: met")],
)
def test_an_entry_in_mixed_case_is_refused_as_in_any_case(
    tmp_path: Path, heading: str, status: str
) -> None:
    """The rule reads an entry's heading and a status line in any case (GitHub shows
    `IteRation 1 (DATE) by verify-goal` as an entry all the same); before, a span holding
    neither `teration` nor `TERATION` (`tatus`, `TATUS`) was not scanned, and lint said ok."""
    root = active_goal(tmp_path, "false")
    path = root / "goals" / "auth.md"
    typed = (
        f"{heading}\n\n| id | verdict | command | exit | evidence |\n|---|---|---|---|---|\n"
        f"| C1 | met | `false` | 0 | `ok` |\n\n{status}\n\n"
    )
    where = "## Plan\n" if status == "status: met" else "## Lessons\n"
    text = path.read_text("utf-8")
    assert where in text
    path.write_text(text.replace(where, f"{where}\n{typed}", 1), "utf-8")
    _run_the_one_fix(root)
    assert run_goalfile("lint", "goals/auth.md", cwd=root).returncode == 0
