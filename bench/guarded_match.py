"""What guarding `matches` searches costs a one-row verify: two copies of goalfile side by side.

    .venv/bin/python bench/guarded_match.py OLD_ROOT NEW_ROOT [--runs N]

OLD_ROOT and NEW_ROOT are folders holding a ``goalfile`` package (e.g. ``git archive REV
goalfile | tar -x -C /tmp/old``). For each of two one-row goals (a pattern that is read and not
guarded, and one whose search is guarded), ``verify --no-write`` runs N times with each root
first on ``PYTHONPATH``, alternating, and the medians of the CPU time (the process and its
children, the guarded search's fork included) and of the elapsed time are printed. Bytecode is
written on the first run of each, so later runs do not compile. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = """---
slug: {slug}
status: draft
created: 2026-11-30
budget:
  iterations: 5
  tokens: null
iterations_used: 0
tokens_used: 0
---
# Goal: x

## Non-goals
- nothing

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | c | `{check}` | `{expected}` | deterministic |

## Iterations

## Lessons
"""
GOALS = {
    "plain": (
        "printf '12 passed in 0.5s\\n'",
        r"exit 0; stdout matches /^\d+ passed in [0-9.]+s$/",
    ),
    "guarded": ("printf 'aaaa\\n'", "exit 0; stdout matches /^(a+)+$/"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--runs", type=int, default=31)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env = {k: v for k, v in env.items() if not k.startswith("GOALFILE_")}
    roots = {"old": args.old.resolve(), "new": args.new.resolve()}
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
        (repo / "goals").mkdir()
        for slug, (check, expected) in GOALS.items():
            (repo / "goals" / f"{slug}.md").write_text(
                GOAL.format(slug=slug, check=check, expected=expected)
            )
            done = subprocess.run(
                [sys.executable, "-m", "goalfile", "activate", f"goals/{slug}.md"],
                cwd=repo, env={**env, "PYTHONPATH": str(roots["new"])}, capture_output=True,
            )  # fmt: skip
            if done.returncode != 0:
                print(done.stderr.decode(), file=sys.stderr)
                return 2
        found: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for slug in GOALS:
            for run in range(args.runs + 1):  # the first, untimed, writes the bytecode
                for name, root in roots.items():
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    start = time.perf_counter()
                    done = subprocess.run(
                        [sys.executable, "-m", "goalfile", "verify", "--no-write",
                         f"goals/{slug}.md"],
                        cwd=repo, env={**env, "PYTHONPATH": str(root)}, capture_output=True,
                    )  # fmt: skip
                    wall = time.perf_counter() - start
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    if done.returncode != 0:
                        print(done.stdout.decode() + done.stderr.decode(), file=sys.stderr)
                        return 2
                    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                    if run:
                        found.setdefault((slug, name), []).append((cpu, wall))
    for (slug, name), times in sorted(found.items()):
        cpu = statistics.median(c for c, _ in times) * 1000
        wall = statistics.median(w for _, w in times) * 1000
        print(f"{slug:8} {name}: CPU {cpu:.1f} ms, elapsed {wall:.1f} ms (median of {len(times)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
