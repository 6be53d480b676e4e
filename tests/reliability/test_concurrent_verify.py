"""Sixteen `goalfile verify` processes on one goal at the same time lose nothing.

Each run's check bumps a counter file (read, add one, write: a race if two checks overlapped)
and prints the new number, which becomes the row's evidence. The check fails, so the goal
stays active, and the evidence differs every run, so no run counts as "no progress".

DESIGN §5/§6: a verify entry carries the current ``iterations_used`` (only ``plan`` advances
it), so the sixteen entry headings all say ``Iteration 1``; what tells the runs apart, and
must come out distinct and consecutive (1..16, in ledger order), is the run number each one
recorded.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from reliability_support import (
    activate,
    goal_text,
    make_repo,
    no_traceback,
    run_goalfile,
    start_goalfile,
    verify_headings,
    write_goal,
)

RUNS = 16
SUMMARY = "verify-goal demo iteration 1: C1 unmet; status: active"
COUNTER_CHECK = (
    'n=$(( $(cat "$COUNTER" 2>/dev/null || echo 0) + 1 )); '
    'echo "$n" > "$COUNTER"; echo "run $n at $(date +%s%N)"; exit 1'
)
EVIDENCE = re.compile(r"^\| C1 +\| unmet +\| .* \| 1 +\| `run (\d+) at \d+` *\|\r?$", re.M)
ROW_HEADER = re.compile(r"(?m)^\| id +\| verdict +\| command +\| exit +\| evidence +\|$")


def test_sixteen_concurrent_verifies_each_write_one_whole_entry(tmp_path: Path) -> None:
    """16 parallel runs: 16 exit 1 with the summary line, 16 complete entries whose run numbers
    are 1..16 in ledger order (no entry lost, none interleaved, no two checks overlapped), the
    frontmatter unchanged, the file still a valid goal, and a reader polling the file all along
    never saw a partial one."""
    repo = make_repo(tmp_path / "repo")
    counter = repo / "counter"
    path = write_goal(repo / "goals", goal_text(rows=[("C1", COUNTER_CHECK, "exit 0")]))
    activate(path, repo)
    before = path.read_text(encoding="utf-8")

    env = {"COUNTER": str(counter)}
    head = before.split("\n## Lessons")[0]
    seen: list[str] = []  # what a reader saw that is not a whole goal file
    done = threading.Event()

    def read_all_along() -> None:
        """Readers (an editor, `git diff`, an agent) only ever see a whole file."""
        count = 0
        while not done.is_set():
            text = path.read_text(encoding="utf-8")
            now = len(verify_headings(text))
            if not (text.startswith(head) and text.endswith("## Lessons\n")) or now < count:
                seen.append(text)
            count = max(count, now)
            done.wait(0.005)

    reader = threading.Thread(target=read_all_along)
    reader.start()
    try:
        procs = [start_goalfile("verify", path, cwd=repo, env=env) for _ in range(RUNS)]
        outputs = [proc.communicate(timeout=120) for proc in procs]
    finally:
        done.set()
        reader.join()
    assert not seen, f"a reader saw a partial file:\n{seen[0]}"

    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert "Traceback" not in err, err
        assert proc.returncode == 1, f"exit {proc.returncode}\n{out}\n{err}"
        assert out.rstrip("\n").split("\n")[-1] == SUMMARY, out
    assert counter.read_text().strip() == str(RUNS)

    text = path.read_text(encoding="utf-8")
    assert text.startswith(head), "the text before the new entries changed"
    assert verify_headings(text) == [1] * RUNS, "not one verify entry per run"
    numbers = [int(n) for n in EVIDENCE.findall(text)]
    assert sorted(numbers) == list(range(1, RUNS + 1)), f"runs lost or doubled: {numbers}"
    assert numbers == list(range(1, RUNS + 1)), f"entries out of run order: {numbers}"

    ledger = text.split("\n## Iterations\n", 1)[1].split("\n## Lessons", 1)[0]
    entries = re.split(r"\n(?=### Iteration )", ledger.strip("\n"))
    verify_entries = [e for e in entries if e.split("\n", 1)[0].endswith("by verify-goal")]
    assert len(verify_entries) == RUNS
    for entry in verify_entries:  # each entry whole: table header, its row, its status line
        assert len(ROW_HEADER.findall(entry)) == 1, entry
        assert len(EVIDENCE.findall(entry)) == 1, entry
        assert entry.rstrip("\n").split("\n")[-2:] == ["status: active", "contract: " + _pin(text)]
    assert text.endswith("## Lessons\n")

    frontmatter = text.split("\n---\n", 1)[0]
    assert frontmatter == before.split("\n---\n", 1)[0], "verify changed the frontmatter"

    linted = run_goalfile("lint", path, cwd=repo)
    no_traceback(linted)
    assert linted.returncode == 0, linted.stderr
    status = run_goalfile("status", path, cwd=repo)
    no_traceback(status)
    assert status.returncode == 0, status.stderr
    assert "demo: active" in status.stdout, status.stdout


def _pin(text: str) -> str:
    """The short contract digest the activate entry recorded (verify entries repeat it)."""
    found = re.search(r"^contract: ([0-9a-f]{12})$", text, re.M)
    assert found is not None, "no contract line in the ledger"
    return found.group(1)
