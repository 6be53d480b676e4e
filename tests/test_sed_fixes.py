"""Every `fix:` that edits lines of a goal file is one `sed -i` command, and running it loses
nothing: a file next to the goal that has the backup's name (``FILE.orig``, which
``git mergetool`` leaves beside a conflicted file) is neither replaced nor deleted. The printed
fixes used to be ``sed -i.orig ... FILE && rm FILE.orig``, which took the user's ``FILE.orig``
for the backup and removed it. Real goalfile processes, real files, the fix run by ``sh`` as
printed."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import clean_env, run_goalfile
from test_hidden_rows import FENCE, HEAD, TAIL

ROW = "| C2 | two | `true` | exit 0 | deterministic |\n"
NOTES = "my notes from the last merge\n"


def hidden_rows(folder: Path, name: str) -> str:
    """A draft whose second row a fenced block left open hides (lint's hidden-structure)."""
    (folder / name).write_text(HEAD + f"\n{FENCE}\n" + ROW + f"{FENCE}\n" + TAIL, "utf-8")
    return "put the rows back under the criteria table"


def unclosed_fence(folder: Path, name: str) -> str:
    """A draft with a code block that never closes (lint's unclosed-fence: delete a line)."""
    (folder / name).write_text(HEAD + ROW + TAIL + f"\n{FENCE}\nsome code\n", "utf-8")
    return "or delete line"


def typed_met(folder: Path, name: str) -> str:
    """An approved goal whose status was typed `met` (met-unbacked: set the status back)."""
    (folder / name).write_text(HEAD + ROW + TAIL, "utf-8")
    done = run_goalfile("activate", "--", name, cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    path = folder / name
    path.write_text(path.read_text("utf-8").replace("status: active", "status: met"), "utf-8")
    return "only `goalfile verify` writes `met`"


def typed_budget(folder: Path, name: str) -> str:
    """An approved goal whose iteration limit was raised by hand (set the value back)."""
    (folder / name).write_text(HEAD + ROW + TAIL, "utf-8")
    done = run_goalfile("activate", "--", name, cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    path = folder / name
    path.write_text(path.read_text("utf-8").replace("iterations: 5", "iterations: 9"), "utf-8")
    return "budget.iterations is 9, but the ledger records 5"


CASES: dict[str, Callable[[Path, str], str]] = {
    "hidden rows put back": hidden_rows,
    "an unclosed fence's line deleted": unclosed_fence,
    "a typed met set back": typed_met,
    "a typed budget set back": typed_budget,
}


def printed_fix(folder: Path, name: str, finding: str) -> str:
    """The sed command lint prints for the finding whose message or hint holds ``finding``."""
    done = run_goalfile("lint", "--", name, cwd=folder)
    out = done.stdout + done.stderr
    assert finding in out, out
    tail = out[out.index(finding) :]
    found = re.search(r"`([^`]*sed -i[^`]*)`", tail)
    assert found is not None, out
    return found.group(1)


def sh(command: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", "-c", command],
        cwd=folder,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", ["g.md", "-g.md"])
def test_the_printed_fix_keeps_the_users_orig_file(tmp_path: Path, case: str, name: str) -> None:
    """The fix works as written (also for a path that starts with `-`, which `sed` and `rm`
    would take for an option) and the user's FILE.orig is still there, unchanged."""
    finding = CASES[case](tmp_path, name)
    orig = tmp_path / f"{name}.orig"
    orig.write_text(NOTES, encoding="utf-8")
    fix = printed_fix(tmp_path, name, finding)

    done = sh(fix, tmp_path)
    assert done.returncode == 0, (fix, done.stderr)
    assert orig.read_text(encoding="utf-8") == NOTES, fix
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, orig.name]), fix
    again = run_goalfile("lint", "--", name, cwd=tmp_path)
    assert finding not in again.stdout + again.stderr, (fix, again.stdout + again.stderr)


@pytest.mark.parametrize("case", CASES)
def test_the_printed_fix_refuses_while_a_file_has_the_backups_name(
    tmp_path: Path, case: str
) -> None:
    """A file that has the name of the fix's own backup is never replaced or deleted: the fix
    changes nothing and fails, and runs once that file is moved away."""
    finding = CASES[case](tmp_path, "g.md")
    goal = tmp_path / "g.md"
    before = goal.read_bytes()
    fix = printed_fix(tmp_path, "g.md", finding)
    backup = re.search(r"rm -- (\S+)$", fix)
    assert backup is not None, fix
    kept = tmp_path / backup.group(1)
    assert kept.parent == tmp_path and kept.name.startswith("g.md."), fix
    kept.write_text(NOTES, encoding="utf-8")

    done = sh(fix, tmp_path)
    assert done.returncode != 0, fix
    assert goal.read_bytes() == before
    assert kept.read_text(encoding="utf-8") == NOTES

    kept.rename(tmp_path / "moved")
    done = sh(fix, tmp_path)
    assert done.returncode == 0, (fix, done.stderr)
    assert goal.read_bytes() != before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.md", "moved"], fix
