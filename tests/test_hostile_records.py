"""Hostile ledger records and goal files read safely or are refused cleanly: numbers int() cannot
read (a 5000-digit iteration or limit, a superscript digit), an approval record that lists an id
twice, a budget entry placed above the approval, a goal file larger than the size limit. Each is
a real goalfile process on a real goal file in a real git repository: no traceback, and lint
agrees with the commands that act on the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git, make_git_repo, run_goalfile

GOAL = "goals/real.md"
ROW = "| C1  | deterministic | `test -f done.txt` | `exit 0` | -       |"
BIG = "1" * 5000


def activated(tmp_path: Path) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "real", "tests pass", "--check", "test -f done.txt", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    return repo


def replace_once(repo: Path, old: str, new: str) -> None:
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def hook_stop(repo: Path) -> dict[str, object]:
    stdin = json.dumps(
        {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop", "stop_hook_active": False}
    )
    done = run_goalfile("hook", "stop", cwd=repo, input=stdin)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    answer = json.loads(done.stdout.strip() or "{}")
    assert isinstance(answer, dict)
    return answer


COMMANDS = [
    ("lint", GOAL),
    ("status", GOAL),
    ("status", "--json"),
    ("audit", GOAL),
    ("audit", "--against", "HEAD", GOAL),
    ("verify", "--no-write", GOAL),
    ("plan", GOAL),
    ("activate", "--reapprove", GOAL, "--reason", "x"),
]

VARIANTS = {
    "heading": ("### Iteration 0 (", f"### Iteration {BIG} ("),
    "heading-19-digits": ("### Iteration 0 (", "### Iteration 1234567890123456789 ("),
    "heading-arabic-indic": ("### Iteration 0 (", "### Iteration \u0661 ("),
    "approved": ("budget approved: iterations 5", f"budget approved: iterations {BIG}"),
    "raised": (
        "## Iterations\n\n",
        "## Iterations\n\n### Iteration 0 (2026-12-02) by budget\n\n"
        f"budget.iterations: 5 → {BIG}\n\n",
    ),
    "superscript": (
        "## Iterations\n\n",
        "## Iterations\n\n### Iteration 0 (2026-12-02) by budget\n\nbudget.iterations: ² → 5\n\n",
    ),
    "duplicate-row": (ROW, ROW + "\n" + ROW.replace("| -       |", "| 5       |")),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_hostile_numbers_and_records_never_give_a_traceback(tmp_path: Path, variant: str) -> None:
    repo = activated(tmp_path)
    replace_once(repo, *VARIANTS[variant])
    codes = {}
    for command in COMMANDS:
        done = run_goalfile(*command, cwd=repo)
        assert "Traceback" not in done.stdout + done.stderr, (command, done.stderr[-2000:])
        assert done.returncode in {0, 1, 3}, (command, done.returncode, done.stderr[-2000:])
        codes[command[0]] = done.returncode
    # lint refuses exactly what verify refuses (a file verify cannot act on is one lint flags)
    assert (codes["lint"] == 3) == (codes["verify"] == 3), codes
    hook_stop(repo)


def test_an_approval_record_listing_an_id_twice_is_refused_naming_the_entry(
    tmp_path: Path,
) -> None:
    repo = activated(tmp_path)
    replace_once(repo, *VARIANTS["duplicate-row"])
    for command in (
        ("verify", "--no-write", GOAL),
        ("activate", "--reapprove", GOAL, "--reason", "x"),
    ):
        done = run_goalfile(*command, cwd=repo)
        assert done.returncode == 3, done.stderr
        assert "Iteration 0 (" in done.stderr and "C1 twice" in done.stderr, done.stderr
        assert "fix:" in done.stderr
    done = run_goalfile("lint", GOAL, cwd=repo)
    assert done.returncode == 3, done.stdout
    assert "C1 twice" in done.stdout + done.stderr
    audit = run_goalfile("audit", GOAL, cwd=repo)
    assert audit.returncode == 1 and "approval-record-invalid" in audit.stdout, audit.stdout


def test_a_heading_whose_number_int_cannot_read_is_a_lint_error(tmp_path: Path) -> None:
    repo = activated(tmp_path)
    replace_once(repo, *VARIANTS["heading"])
    done = run_goalfile("lint", GOAL, cwd=repo)
    assert done.returncode == 3
    shown = done.stdout + done.stderr
    assert f"{GOAL}:30:" in shown and "### Iteration N (YYYY-MM-DD) by WHO" in shown


def test_a_superscript_old_limit_records_nothing(tmp_path: Path) -> None:
    repo = activated(tmp_path)
    replace_once(repo, *VARIANTS["superscript"])
    done = run_goalfile("status", "--json", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "5" in done.stdout and "iterations" in done.stdout


FORGED_ABOVE = {
    "iterations": "budget.iterations: 0 → 0",
    "tokens": "budget.tokens: 1 → 1",
    "iterations-lowered": "budget.iterations: 2 → 3",
}


@pytest.mark.parametrize("forged", sorted(FORGED_ABOVE))
def test_a_budget_entry_above_the_approval_records_nothing(tmp_path: Path, forged: str) -> None:
    """A `by budget` entry placed above the first `by activate` entry was the first record of
    the limit: `0 → 0` ended the goal `exhausted` at the first stop, `1 → 1` made verify end it
    for its token use, `2 → 3` lowered 5 to 3."""
    repo = activated(tmp_path)
    (repo / "app.txt").write_text("x\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "work")
    replace_once(
        repo,
        "## Iterations\n\n",
        f"## Iterations\n\n### Iteration 0 (2026-12-02) by budget\n\n{FORGED_ABOVE[forged]}\n\n",
    )
    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 0 and "budget-unbacked" not in lint.stdout, lint.stdout
    (shown,) = json.loads(run_goalfile("status", "--json", GOAL, cwd=repo).stdout)["goals"]
    assert shown["iterations"]["budget"] == 5 and shown["tokens"]["budget"] is None, shown
    assert shown["warnings"] == [], shown
    audit = run_goalfile("audit", GOAL, cwd=repo)
    assert "budget-unbacked" not in audit.stdout, audit.stdout
    answer = hook_stop(repo)
    assert answer.get("decision") == "block", answer
    text = (repo / GOAL).read_text(encoding="utf-8")
    assert "\nstatus: active" in text and "status: exhausted" not in text


def test_a_budget_line_that_does_not_raise_lowers_nothing_after_the_approval(
    tmp_path: Path,
) -> None:
    """In a ledger older than the `budget approved:` line the first `by budget` entry's old
    value is the limit; one that does not raise (`1 → 1`) is no such record."""
    repo = activated(tmp_path)
    replace_once(repo, "budget approved: iterations 5, tokens unbounded\n", "")
    text = (repo / GOAL).read_text(encoding="utf-8")
    (repo / GOAL).write_text(
        text.replace(
            "\n## Lessons",
            "### Iteration 0 (2026-12-02) by budget\n\nbudget.iterations: 1 → 1\n\n## Lessons",
        ),
        encoding="utf-8",
    )
    status = run_goalfile("status", GOAL, cwd=repo)
    assert status.returncode == 0, status.stderr
    assert "iterations 0/5" in status.stdout, status.stdout


def _capped_memory() -> None:  # the goalfile process: at most 4 GiB of address space
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


@pytest.mark.parametrize("size", [1 << 40, (64 << 20) + 1])
def test_a_goal_file_above_the_size_limit_is_refused_from_its_size(
    tmp_path: Path, size: int
) -> None:
    """A sparse 1 TiB goals/big.md (no disk space, nothing in git) ended status, audit and lint
    in a MemoryError: read_regular allocated its whole size. It is refused from fstat, naming
    the file and the limit, and the Stop hook holds the agent on it."""
    repo = activated(tmp_path)
    big = repo / "goals" / "big.md"
    with big.open("wb") as handle:
        handle.truncate(size)
    shown = f"{size:,} bytes, larger than the 64 MiB"
    for command in (
        ("status",),
        ("status", "--json"),
        ("audit", "goals"),
        ("lint", "goals/big.md"),
        ("verify", "goals/big.md"),
    ):
        done = run_goalfile(*command, cwd=repo, preexec_fn=_capped_memory)
        out = done.stdout + done.stderr
        assert "Traceback" not in out, (command, out[-2000:])
        assert done.returncode == 3, (command, done.returncode, out[-2000:])
        assert "big.md" in out and shown in out, (command, out[-2000:])
    stdin = json.dumps(
        {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop", "stop_hook_active": False}
    )
    done = run_goalfile("hook", "stop", cwd=repo, input=stdin, preexec_fn=_capped_memory)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block" and "big.md" in answer["reason"], answer
    assert shown in answer["reason"], answer
    assert big.stat().st_size == size  # nothing was written to it
