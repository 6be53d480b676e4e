"""The CPU time of a Stop hook run whose session record names a long transcript.

    .venv/bin/python bench/transcript_stop.py [--megabytes 50] [--repeats 3] [--tree DIR ...]

A repository holds one active goal whose check fails; a transcript in Claude Code's shape
(a shell tool call and its result per pair of lines, every call answered) is ``--megabytes``
long. A first `goalfile hook stop` takes the session's record with that transcript; each
measured run then puts the record, the goal file and the transcript back as that stop left
them, appends one more answered tool call, and runs `goalfile hook stop` once more, marked
continuing: it reads the record and asks the transcript whether the host's hook took it
(goalfile.recordbind), then verifies the goal. A row is the median CPU time (user + system) of
that run and of every process it starts. Each ``--tree`` is a source folder whose `goalfile`
package is run (``PYTHONPATH``), the trees measured alternately in one run; none: the installed
goalfile. Prints one Markdown table. Uses only the standard library and goalfile itself.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SESSION = "bench-session"
NEW = ("--check", "test -f ok", "--expected", "exit 0", "--activate", "--commit")


def transcript(path: Path, size: int) -> int:
    """Write a Claude Code transcript of at least ``size`` bytes; the number of tool calls."""
    calls = 0
    with path.open("w", encoding="utf-8") as handle:
        while handle.tell() < size:
            calls += 1
            handle.write(tool_call(calls))
    return calls


def tool_call(number: int) -> str:
    key = f"toolu_{number:08d}"
    command = {"command": f"grep -n x {number}"}
    use = {"type": "tool_use", "id": key, "name": "Bash", "input": command}
    said = {"type": "text", "text": "Looking at the sources. " * 20}
    answer = {"tool_use_id": key, "type": "tool_result", "content": "src/x.py:1: x\n" * 60}
    stamp = "2026-12-04T12:00:00.000Z"
    call = {"type": "assistant", "timestamp": stamp,
            "message": {"role": "assistant", "content": [said, use]}}  # fmt: skip
    result = {"type": "user", "timestamp": stamp, "message": {"role": "user", "content": [answer]}}
    return json.dumps(call) + "\n" + json.dumps(result) + "\n"


def run(argv: list[str], cwd: Path, env: dict[str, str], stdin: str = "") -> float:
    """Run ``argv``; the CPU seconds it and its children took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, cwd=cwd, env=env, input=stdin.encode(), capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=50.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tree", action="append", default=[], type=Path)
    args = parser.parse_args(argv)
    trees: list[Path | None] = [tree.resolve() for tree in args.tree] or [None]
    root = Path(tempfile.mkdtemp(prefix="goalfile-transcript-stop-"))
    try:
        table = measure(root, trees, int(args.megabytes * 1e6), args.repeats)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(table)
    return 0


def measure(root: Path, trees: list[Path | None], size: int, repeats: int) -> str:
    base = {key: value for key, value in os.environ.items() if not key.startswith("GOALFILE_")}
    goalfile = [sys.executable, "-m", "goalfile"]
    repo = root / "repo"
    repo.mkdir()
    for argv in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "config", "user.email", "bench@example.invalid"],
        ["git", "config", "user.name", "bench"],
        [*goalfile, "new", "demo", "ok exists", *NEW],
    ):
        run(argv, repo, base)
    goal = repo / "goals" / "demo.md"
    written = root / "transcript.jsonl"
    calls = transcript(written, size)
    rows = []
    kept: dict[int, bytes] = {}
    pristine_goal = goal.read_bytes()
    for index, tree in enumerate(trees):  # the first stop of each: its record taken
        goal.write_bytes(pristine_goal)  # each tree's stops verify the goal as the other's did
        env = {**base, "XDG_STATE_HOME": str(root / f"state{index}")}
        if tree is not None:
            env["PYTHONPATH"] = str(tree)
        shutil.copyfile(written, root / f"t{index}.jsonl")
        hook = [*goalfile, "hook", "stop", "--agent", "claude"]
        run(hook, repo, env, stop_input(root / f"t{index}.jsonl", repo, active=False))
        shutil.copytree(root / f"state{index}", root / f"state{index}.kept")
        kept[index] = goal.read_bytes()
    times: dict[int, list[float]] = {index: [] for index in range(len(trees))}
    for _ in range(repeats):
        for index, tree in enumerate(trees):
            env = {**base, "XDG_STATE_HOME": str(root / f"state{index}")}
            if tree is not None:
                env["PYTHONPATH"] = str(tree)
            shutil.rmtree(root / f"state{index}")
            shutil.copytree(root / f"state{index}.kept", root / f"state{index}")
            goal.write_bytes(kept[index])
            path = root / f"t{index}.jsonl"
            shutil.copyfile(written, path)
            with path.open("a", encoding="utf-8") as handle:
                handle.write(tool_call(calls + 1))
            hook = [*goalfile, "hook", "stop", "--agent", "claude"]
            times[index].append(run(hook, repo, env, stop_input(path, repo, active=True)))
    goal.write_bytes(pristine_goal)
    first = statistics.median(times[0])
    measure = f"CPU s of `hook stop`, {size / 1e6:.0f} MB transcript, {calls} calls"
    lines = [
        f"| goalfile | {measure} | ratio |",
        "|---|---:|---:|",
    ]
    for index, tree in enumerate(trees):
        median = statistics.median(times[index])
        lines.append(f"| {tree or 'installed'} | {median:.2f} | {median / first:.2f} |")
    rows.extend(lines)
    return "\n".join(rows)


def stop_input(path: Path, repo: Path, *, active: bool) -> str:
    return json.dumps(
        {
            "session_id": SESSION,
            "transcript_path": str(path),
            "cwd": str(repo),
            "hook_event_name": "Stop",
            "stop_hook_active": active,
        }
    )


if __name__ == "__main__":
    sys.exit(main())
