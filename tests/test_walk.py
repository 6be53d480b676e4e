"""The first hour on a real project: the more-itertools sdist, from `goalfile new ...
--activate` to `met`, with every message checked against the files and every hint run.

The sdist is downloaded once with pip into a cache outside the repository
($GOALFILE_TEST_CACHE, else ~/.cache/goalfile-tests); the test fails if it cannot be fetched.
Each verify runs one test class of the project's suite, so the walk stays fast.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pytest
from filelock import FileLock

from goalfile import ledger
from goalfile.parse import ledger_region, parse_goal
from tests.conftest import git, last_line, make_git_repo, run_goalfile
from tests.test_hints import run_hints

PROJECT = "more-itertools"
VERSION = "11.2.1"
GOAL = "goals/take-fix.md"
TEST = "python -m pytest -q -p no:cacheprovider tests/test_recipes.py -k TakeTests"
GOOD = "    return list(islice(iterable, n))\n"
BROKEN = "    return list(islice(iterable, n + 1))\n"


def cache() -> Path:
    folder = Path(
        os.environ.get("GOALFILE_TEST_CACHE") or Path.home() / ".cache" / "goalfile-tests"
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def sdist(project: str = PROJECT, version: str = VERSION, name: str = "") -> Path:
    """The sdist of ``project`` ``version`` (file ``name``, else more-itertools' own),
    downloaded into the cache first when it is not there yet: under a file lock and into a
    temporary folder renamed into place, so test processes running side by side (pytest -n, or
    two sessions) neither download it twice nor read half a file."""
    folder = cache()
    name = name or f"more_itertools-{VERSION}.tar.gz"
    if (folder / name).is_file():
        return folder / name
    with FileLock(str(folder / f".{name}.lock"), timeout=600):
        if not (folder / name).is_file():
            with tempfile.TemporaryDirectory(prefix=f".{name}.", dir=folder) as staging:
                done = subprocess.run(
                    [sys.executable, "-m", "pip", "download", "--no-binary", ":all:",
                     "--no-deps", f"{project}=={version}", "-d", staging],
                    capture_output=True, text=True, timeout=300, check=False,
                )  # fmt: skip
                fetched = Path(staging) / name
                assert fetched.is_file(), (
                    f"could not download the {project} {version} sdist with pip into {folder}; "
                    f"this test needs it (or put {name} there by hand):\n"
                    f"{done.stdout}{done.stderr}"
                )
                fetched.replace(folder / name)
    return folder / name


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with tarfile.open(sdist()) as archive:
        archive.extractall(tmp_path, filter="data")
    root = tmp_path / f"more_itertools-{VERSION}"
    make_git_repo(root)
    recipes = root / "more_itertools" / "recipes.py"
    text = recipes.read_text()
    assert GOOD in text
    recipes.write_text(text.replace(GOOD, BROKEN, 1))  # the bug the goal is about
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "more-itertools with a bug in take()")
    return root


def env(project: Path) -> dict[str, str]:
    """The project's checks run with this test's Python first on PATH (pytest is there)."""
    return {"PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"}


def goalfile(project: Path, *args: str, code: int) -> subprocess.CompletedProcess[str]:
    done = run_goalfile(*args, cwd=project, env=env(project), timeout=300)
    assert done.returncode == code, (args, done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


def newest(project: Path) -> ledger.Entry:
    text = (project / GOAL).read_text()
    region = ledger_region(text)
    assert region is not None
    return next(ledger.entries_reversed(text, *region))


def check_verify_output(project: Path, done: subprocess.CompletedProcess[str]) -> None:
    """Each verdict line and the summary say what the ledger recorded, and the file's status
    is the summary's."""
    entry = newest(project)
    goal = parse_goal((project / GOAL).read_text(), path=GOAL)
    summary = last_line(done.stdout)
    rows = ", ".join(f"{r.id} {r.verdict.value}" for r in entry.rows)
    assert summary == f"verify-goal take-fix iteration 0: {rows}; status: {goal.status.value}"
    for result in entry.rows:
        line = next(x for x in done.stdout.splitlines() if x.startswith(f"{result.id} "))
        assert line.startswith(f"{result.id} {result.verdict.value}")


def test_from_a_sentence_to_met_on_more_itertools(project: Path, tmp_path: Path) -> None:
    hinted: list[str] = []

    def hints_work(done: subprocess.CompletedProcess[str]) -> None:
        """Every hint this output names works as written, on a copy of the project now."""
        hinted.extend(run_hints(project, done, tmp_path, env=env(project)))

    created = goalfile(
        project, "new", "take-fix", "take() returns the first n items and its tests pass",
        "--criterion", "the take tests pass", "--check", TEST,
        "--expected", 'exit 0; stdout contains " passed"; stdout lacks "failed"',
        "--criterion", "the tests are not touched", "--check", "git diff --stat HEAD -- tests",
        "--expected", "exit 0; output empty",
        "--review", "more_itertools/recipes.py=take returns islice(iterable, n) as a list",
        "--non-goal", "tests/ stays unchanged", "--iterations", "3", "--activate",
        code=0,
    )  # fmt: skip
    hints_work(created)
    # "wrote ... (status: active; 3 criteria approved, contract pinned)" is true
    assert created.stdout.strip() == (
        f"wrote {GOAL} (status: active; 3 criteria approved, contract pinned)"
    )
    goal = parse_goal((project / GOAL).read_text(), path=GOAL)
    assert goal.status.value == "active" and len(goal.criteria) == 3
    assert str(goal.meta["contract"]).startswith("sha256:")
    assert "FILL IN" not in goal.text
    assert created.stderr.splitlines()[-1] == (
        f"next: work toward the end state; `goalfile verify {GOAL}` decides"
    )
    assert created.stderr.startswith(f"staged {GOAL} (git add)"), created.stderr

    # 1. the bug is there: C1 unmet, and the console says why, truthfully
    first = goalfile(project, "verify", GOAL, code=1)
    hints_work(first)
    check_verify_output(project, first)
    really = subprocess.run(
        TEST, shell=True, cwd=project, env={**os.environ, **env(project)},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert really.returncode == 1
    failed = re.search(r"^(\d+ failed, \d+ passed)", really.stdout.splitlines()[-1])
    assert failed is not None
    assert "failed" in really.stdout  # what the reason below says was found
    c1 = next(x for x in first.stdout.splitlines() if x.startswith("C1 "))
    assert re.fullmatch(
        r'C1 unmet \(\d+\.\ds\): exit 0 expected, got 1; stdout lacks "failed": found in '
        r"stdout; last line: 2 failed, 2 passed, 141 deselected in [\d.]+s",
        c1,
    ), c1
    assert failed.group(1) == "2 failed, 2 passed"
    assert f"│ {really.stdout.splitlines()[0]}" in first.stdout  # the head of the output
    assert "│ 2 failed, 2 passed, 141 deselected in " in first.stdout  # and its summary
    assert "│ E       AssertionError: Lists differ: [0] != []" in first.stdout  # the cause
    r1 = next(x for x in first.stdout.splitlines() if x.startswith("R1 "))
    assert r1 == "R1 unmet: not reviewed: C1 is not met"
    as_json = json.loads(goalfile(project, "verify", "--no-write", "--json", GOAL, code=1).stdout)
    assert as_json["rows"][0]["why"][0] == "exit 0 expected, got 1"

    # 2. the fix: every deterministic row met; the review row waits for a review
    recipes = project / "more_itertools" / "recipes.py"
    recipes.write_text(recipes.read_text().replace(BROKEN, GOOD, 1))
    second = goalfile(project, "verify", GOAL, code=1)
    hints_work(second)
    check_verify_output(project, second)
    status = goalfile(project, "status", GOAL, code=0)
    hints_work(status)
    assert "C1   met" in status.stdout and "R1   unmet" in status.stdout

    # 3. the review, with a quote that is in the file, then met
    review = goalfile(
        project, "review", GOAL, "R1", "--artifact", "more_itertools/recipes.py",
        "--quote", "return list(islice(iterable, n))", "--verdict", "met", code=0,
    )  # fmt: skip
    hints_work(review)
    done = goalfile(project, "verify", GOAL, code=0)
    hints_work(done)
    check_verify_output(project, done)
    assert last_line(done.stdout) == (
        "verify-goal take-fix iteration 0: C1 met, C2 met, R1 met; status: met"
    )
    hints_work(goalfile(project, "audit", GOAL, code=0))
    hints_work(goalfile(project, "status", GOAL, code=0))
    log = json.loads(goalfile(project, "log", "--json", GOAL, code=0).stdout)
    columns = log["goals"][0]["columns"]
    assert [[c["verdicts"][key] for c in columns] for key in ("C1", "C2", "R1")] == [
        ["unmet", "met", "met"],
        ["met", "met", "met"],
        ["unmet", "unmet", "met"],
    ]
    assert [c["status"] for c in columns] == ["active", "active", "met"]

    assert hinted == [
        f"goalfile verify {GOAL}",  # after new --activate
        # status, once C1 and C2 are met: the review R1 waits for, then the verify
        f"goalfile review {GOAL} R1 --artifact more_itertools/recipes.py --verdict met "
        "--quote PASSAGE",
        f"goalfile verify {GOAL}",
        f"goalfile audit {GOAL}",  # status of the met goal
    ], hinted
