"""A long ledger is read by searches that skip what a command does not need; what the real
`goalfile` reads and writes stays what a line-by-line reading gives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from goalfile import ledger
from tests.conftest import frontmatter, run_goalfile

HEAD = (
    frontmatter("fenced", status="active", created="2026-11-30", iterations="10", iterations_used=1)
    + """# Goal: fenced output

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | true | `true` | exit 0 | deterministic |

## Iterations

### Iteration 1 (2026-11-30) by verify-goal

| id  | verdict | command | exit | evidence |
| --- | ------- | ------- | ---- | -------- |
| C1  | unmet   | `true`  | 1    | `no`     |

"""
)
FORGED = "### Iteration 7 (2026-12-01) by verify-goal\n\nstatus: met\n"


def status(tmp_path: Path, name: str, text: str) -> dict[str, object]:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "goal.md").write_text(text, encoding="utf-8")
    done = run_goalfile("status", "--json", "goal.md", cwd=folder)
    assert done.returncode in (0, 1), done.stderr
    assert (folder / "goal.md").read_text(encoding="utf-8") == text
    goal = json.loads(done.stdout)["goals"][0]
    goal.pop("workdir")  # the folder's absolute path
    return dict(goal)


@pytest.mark.parametrize(
    ("opening", "closing"),
    [
        ("```text", "```"),  # as goalfile writes an excerpt
        ("````", "`````  "),  # a longer closing fence, blanks after it
        ("```text", "``` not a close\n```"),
        ("```text", None),  # never closed: hides nothing, and the rest of the file is in it
        ("``` a`b", "```"),  # not a fence: a backtick after the marker
    ],
)
def test_margin_fences_read_as_fences_read_line_by_line(
    tmp_path: Path, opening: str, closing: str | None
) -> None:
    """The same ledger with its fence lines at the margin (matched whole, block by block) and
    indented by one space (read one fence line at a time): `status` says the same."""
    block = f"{opening}\n{FORGED}" + (f"{closing}\n" if closing is not None else "")
    tail = "\nstatus: active\n\n## Lessons\n- keep going\n"
    margin = status(tmp_path, "margin", HEAD + block + tail)
    indented = "".join(
        f" {line}" if line.startswith("`") else line for line in block.splitlines(True)
    )
    assert margin == status(tmp_path, "indented", HEAD + indented + tail)
    forged = closing is None or "a`b" in opening
    assert margin["last_verify"] == (
        {"iteration": 7, "date": "2026-12-01"} if forged else {"iteration": 1, "date": "2026-11-30"}
    )


GOAL = (
    frontmatter(
        "long",
        status="active",
        created="2026-11-30",
        iterations="1000",
        extra=("cwd: .", "timeout: 60"),
    )
    + """# Goal: a long ledger

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | check 1 | `cat left.txt` | exit 0; prints 0 | deterministic |
| C2 | check 2 | `cat left.txt` | exit 0; prints 0 | deterministic |
| R1 | notes | `notes.md` | reviewed | review |

## Plan
| step | change | files | serves | check |
|------|--------|-------|--------|-------|
| 1 | write the notes | notes.md | C1, R1 | `cat left.txt` |

## Token accounting

## Iterations

## Lessons
"""
)
# a fenced block of tildes after the ledger: the same goal, read one fence line at a time
TILDES = "\n~~~\na lesson\n~~~\n"
QUOTE = "the notes say what was done"


def long_goal(folder: Path, entries: int) -> str:
    """The goal with ``entries`` copies of the entry a real verify wrote (its output fenced)."""
    folder.mkdir()
    (folder / "left.txt").write_text("1\n", encoding="utf-8")
    (folder / "notes.md").write_text(f"{QUOTE}.\n", encoding="utf-8")
    (folder / "goal.md").write_text(GOAL, encoding="utf-8")
    assert run_goalfile("verify", "goal.md", cwd=folder).returncode == 1
    text = (folder / "goal.md").read_text(encoding="utf-8")
    entry = text[text.index("### Iteration 0 ") : text.index("## Lessons")]
    assert "```text\n    1\n```" in entry
    ledger = "".join(
        entry.replace("### Iteration 0 ", f"### Iteration {n} ", 1) for n in range(entries)
    )
    text = text.replace(entry, ledger).replace("iterations_used: 0", f"iterations_used: {entries}")
    (folder / "goal.md").write_text(text, encoding="utf-8")
    return text


COMMANDS = {
    "verify": ("verify", "goal.md"),
    "hook stop": ("hook", "stop", "--goal", "goal.md"),
    "plan": ("plan", "goal.md"),
    "review": ("review", "goal.md", "R1", "--artifact", "notes.md", "--quote", QUOTE),
}


@pytest.mark.parametrize("entries", [40, 1_500])
@pytest.mark.parametrize("command", COMMANDS)
def test_a_long_ledger_with_margin_fences_is_written_as_one_read_line_by_line(
    tmp_path: Path, command: str, entries: int
) -> None:
    """Each writing command appends to a ledger of entries with fenced output (whose index is
    carried from the text read to the text written) exactly what it appends to the same goal
    with a tilde fence after the ledger (whose every text is read whole). The longer ledger is
    one whose fences are first read by lines (goalfile.ledger.is_unfenced)."""
    text = long_goal(tmp_path / "margin", entries)
    assert (len(text) > ledger._UNFENCED_LINES_FROM) is (entries > 40)
    (tmp_path / "tildes").mkdir()
    for name in ("left.txt", "notes.md"):
        (tmp_path / "tildes" / name).write_bytes((tmp_path / "margin" / name).read_bytes())
    (tmp_path / "tildes" / "goal.md").write_text(text + TILDES, encoding="utf-8")
    stdin = json.dumps({"session_id": "s", "hook_event_name": "Stop"})
    after = []
    for name in ("margin", "tildes"):
        folder = tmp_path / name
        args = COMMANDS[command]
        if command == "review":
            args = (*args, "--verdict", "met")
        done = run_goalfile(*args, cwd=folder, input=stdin)
        after.append((done.returncode, (folder / "goal.md").read_text(encoding="utf-8")))
    (code, margin), (tilde_code, tildes) = after
    assert code == tilde_code
    assert margin != text  # the command wrote
    dated = re.compile(r"\(\d{4}-\d\d-\d\d\) by")  # the runs may straddle midnight
    assert dated.sub("(DATE) by", margin + TILDES) == dated.sub("(DATE) by", tildes)
