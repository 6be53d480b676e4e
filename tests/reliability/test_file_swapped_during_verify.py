"""The goal file deleted or replaced while `goalfile verify` runs: the results are not written.

The check touches a "started" marker and then waits for a "go" file, so the test changes the
goal file exactly while the check runs, and lets it finish afterwards. ``verify`` then must
refuse to write: exit 3, a message that names the file and says it was deleted or replaced
during the run and the results were not written, the replacing file byte-for-byte as the test
wrote it, no file created at a deleted path, and no temporary file left in the folder.

A replacement is what an editor, ``git checkout`` or another tool does: a new file renamed over
the old path. "Rewritten ledger" is a copy of the goal whose ledger lost its earlier verify
entry; it is also written in place (same inode), since what matters is that verify would append
its entry to a ledger that no longer holds the one it read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from reliability_support import (
    activate,
    goal_text,
    make_repo,
    run_goalfile,
    start_goalfile,
    wait_for,
    write_goal,
)

Swap = Callable[[Path, str], bytes | None]  # (goal path, its text) -> the bytes it now holds


def _rename_over(path: Path, text: str) -> bytes:
    fresh = path.with_name(".replacement.md")
    fresh.write_text(text, encoding="utf-8")
    os.replace(fresh, path)
    return path.read_bytes()


def delete(path: Path, text: str) -> None:
    path.unlink()


def other_goal(path: Path, text: str) -> bytes:
    other = goal_text(slug="another-goal", status="active", rows=[("C9", "true", "exit 0")])
    return _rename_over(path, other)


def _without_first_verify_entry(text: str) -> str:
    rewritten, count = re.subn(
        r"### Iteration \d+ \([^)]*\) by verify-goal\n.*?(?=### Iteration |\n## Lessons)",
        "",
        text,
        count=1,
        flags=re.S,
    )
    assert count == 1, "the goal has no earlier verify entry to drop"
    return rewritten


def rewritten_ledger(path: Path, text: str) -> bytes:
    return _rename_over(path, _without_first_verify_entry(text))


def rewritten_ledger_in_place(path: Path, text: str) -> bytes:
    with open(path, "r+", encoding="utf-8", newline="") as handle:
        handle.write(_without_first_verify_entry(text))
        handle.truncate()
    return path.read_bytes()


def half_written(path: Path, text: str) -> bytes:
    """What a crashed editor or an interrupted copy leaves: the first 40 bytes of the goal."""
    return _rename_over(path, text[:40])


SWAPS: dict[str, Swap] = {
    "deleted": delete,
    "replaced-by-another-goal": other_goal,
    "replaced-by-a-half-written-copy": half_written,
    "replaced-by-a-copy-with-a-rewritten-ledger": rewritten_ledger,
    "ledger-rewritten-in-place": rewritten_ledger_in_place,
}


@pytest.mark.parametrize("swap", list(SWAPS))
def test_verify_does_not_write_into_a_swapped_goal_file(tmp_path: Path, swap: str) -> None:
    """The swap happens while the check runs; verify refuses to write its results anywhere."""
    repo = make_repo(tmp_path / "repo")
    started, go = repo / "started", repo / "go"
    check = (
        f"touch {started}; while [ ! -e {go} ]; do sleep 0.02; done; "
        'echo "run at $(date +%s%N)"; exit 1'
    )
    path = write_goal(
        repo / "goals", goal_text(rows=[("C1", check, "exit 0")], extra=["timeout: 60"])
    )
    activate(path, repo)
    go.touch()
    first = run_goalfile("verify", path, cwd=repo)  # an earlier entry, for the ledger rewrite
    assert first.returncode == 1, first.stderr
    started.unlink()
    go.unlink()

    proc = start_goalfile("verify", path, cwd=repo)
    try:
        wait_for(started.exists, what="the check to start")
        listing = sorted(os.listdir(path.parent))
        now = SWAPS[swap](path, path.read_text(encoding="utf-8"))
        go.touch()
        out, err = proc.communicate(timeout=60)
    finally:
        go.touch()
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)

    assert "Traceback" not in out + err, err
    if now is None:
        assert not path.exists(), "verify created a new file at the deleted path"
        listing = [name for name in listing if name != path.name]
    else:
        assert path.read_bytes() == now, "verify wrote into the file that replaced the goal"
    assert sorted(os.listdir(path.parent)) == listing, "a file was left next to the goal"
    assert err.startswith("goalfile: "), err
    assert str(path) in err, f"the message does not name the file:\n{err}"
    assert re.search(r"deleted|replaced|removed|moved|rewritten|changed", err), err
    assert "not written" in err, f"the message does not say the results were not written:\n{err}"
    assert proc.returncode == 3, f"exit {proc.returncode}\n{out}\n{err}"
