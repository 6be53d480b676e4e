"""The ledger-length rows of bench/run.py as instruction counts, measured in one run.

    .venv/bin/python bench/instructions.py [--entries 3000] [--only verify,status,...]
                                           [--unpinned-only] [--keep DIR] [--goals DIR]

Each command of the rows (``verify --no-write``, ``status``, ``hook stop``, ``plan``,
``review``) runs once under ``valgrind --tool=callgrind`` on the goal with a long ledger and
once on the same goal with an empty ledger, after one untimed warm-up of each (which writes the
bytecode), with ``PYTHONHASHSEED=0``. A row is the instructions of every Python process the
command starts (the Stop hook's guard and its working process; the checks' ``sh`` and ``cat``
are left out: they are the same for both goals), and their ratio. Instruction counts do not move
with the load of the machine, where wall and CPU time do. ``--goals DIR`` reuses the goals a
run with ``--keep DIR`` made. Prints one Markdown table.

Needs valgrind; uses bench/run.py's goals and commands and the installed goalfile.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import run  # bench/run.py, beside this script

LABELS = ("verify --no-write", "status", "hook stop", "plan", "review")


def instructions(command: run.Command, out: Path) -> int:
    """The instructions of the Python processes of one run of ``command`` under callgrind."""
    # every command reads the working copy: reset it, as a writing command left it
    shutil.copyfile(command.cwd / "pristine.md", command.cwd / "goal.md")
    out.mkdir(parents=True)
    argv = (
        "valgrind",
        "--tool=callgrind",
        "--trace-children=yes",
        f"--callgrind-out-file={out}/callgrind.%p",
        *command.argv,
    )
    env = {**run.ENV, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        argv, cwd=command.cwd, env=env, input=command.stdin, capture_output=True, check=False
    )
    run.expect_exit(command, done)
    total = 0
    for path in out.iterdir():
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        cmd = next((line for line in lines if line.startswith("cmd:")), "")
        if "python" not in cmd and "goalfile" not in cmd:
            continue  # a check's sh or cat
        summary = [line for line in lines if line.startswith(("summary:", "totals:"))]
        total += int(summary[0].split()[1])
    return total


def goals(root: Path, entries: int, kinds: tuple[bool, ...]) -> dict[str, tuple[Path, Path]]:
    made = {}
    for pinned in kinds:
        kind = "pinned" if pinned else "unpinned"
        run.progress(f"making the {kind} goals: {entries:,} entries")
        made[kind] = run.length_goals(root / "length", entries, pinned)
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--entries", type=int, default=run.FULL.length)
    parser.add_argument("--only", help=f"comma-separated commands (of {', '.join(LABELS)})")
    parser.add_argument("--unpinned-only", action="store_true")
    parser.add_argument("--keep", type=Path, help="make the goals in DIR and keep them")
    parser.add_argument("--goals", type=Path, help="the goals a run with --keep DIR made")
    parser.add_argument("--jobs", type=int, default=2, help="runs under callgrind at once")
    args = parser.parse_args(argv)
    labels = args.only.split(",") if args.only else list(LABELS)
    kinds = (False,) if args.unpinned_only else (True, False)
    with tempfile.TemporaryDirectory(prefix="goalfile-instructions-") as folder:
        scratch = Path(folder)
        if args.goals is not None:
            made = {
                kind: (
                    args.goals / "length" / kind / "empty" / "pristine.md",
                    args.goals / "length" / kind / "grown" / "pristine.md",
                )
                for kind in ("pinned", "unpinned")[2 - len(kinds) :]
            }
        else:
            root = args.keep if args.keep is not None else scratch / "goals"
            made = goals(root, args.entries, kinds)
        work = []
        for kind, (empty, grown) in made.items():
            commands = dict(run.length_commands(grown)), dict(run.length_commands(empty))
            for label in labels:
                for which, command in zip(("long", "empty"), commands, strict=True):
                    work.append((kind, label, which, command[label]))
        for *_, command in work:  # the warm-up: bytecode written, caches filled
            shutil.copyfile(command.cwd / "pristine.md", command.cwd / "goal.md")
            run.run_once(command)

        def count(index: int) -> int:
            kind, label, which, command = work[index]
            run.progress(f"callgrind: {kind} {label}, {which}")
            return instructions(command, scratch / "out" / str(index))

        # the writing commands of one goal share its working copy: one goal's runs in turn
        by_goal: dict[Path, list[int]] = {}
        for index, (*_, command) in enumerate(work):
            by_goal.setdefault(command.cwd, []).append(index)
        counts: dict[int, int] = {}
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for indexes, got in zip(
                by_goal.values(),
                pool.map(lambda indexes: [count(i) for i in indexes], by_goal.values()),
                strict=True,
            ):
                counts.update(zip(indexes, got, strict=True))
    print("| row | long ledger | empty ledger | added | ratio |")
    print("|-----|-------------|--------------|-------|-------|")
    for index in range(0, len(work), 2):
        kind, label, _, _ = work[index]
        long, empty = counts[index], counts[index + 1]
        print(
            f"| {kind}: {label} | {long / 1e6:,.1f} M | {empty / 1e6:,.1f} M "
            f"| +{(long - empty) / 1e6:,.1f} M | {long / empty:.3f}× |"
        )
    print(f"\n{args.entries:,} entries; python {sys.version.split()[0]}; {os.uname().machine}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
