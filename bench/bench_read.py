"""Read time of a goal file: an empty ledger vs. 5,000 ledger entries.

Reading a goal must not cost more as its ``## Iterations`` ledger grows (the ledger is skipped,
never handed to the Markdown parser). Prints the median and best read time of each file and the
ratio of the medians.

    .venv/bin/python bench/bench_read.py [--entries 5000] [--repeat 30]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from goalfile.files import load_goal

ROOT = Path(__file__).resolve().parents[1]
SKILL = ROOT / "tests" / "data" / "parse" / "skill-format.md"


def entry(n: int) -> str:
    return (
        f"### Iteration {n} (2026-11-30) by verify-goal\n"
        "| id | verdict | command | exit | evidence |\n"
        "|----|---------|---------|------|----------|\n"
        f"| C1 | unmet | `pytest tests/auth -q` | 1 | `{n} failed, 41 passed in 3.1s` |\n"
        "| C2 | met | `git diff --stat main -- tests/auth/fixtures` | 0 | (no output) |\n"
        "| R1 | unmet | `docs/auth.md` | - | not reviewed: C1 is not met |\n"
        "\n"
        "C1 output (exit 0 expected, got 1; stdout, last 1 of 1 lines):\n"
        "\n"
        f"    {n} failed, 41 passed in 3.1s\n"
        "\n"
        "status: active\n"
    )


def timings(path: Path, repeat: int) -> list[float]:
    load_goal(path)  # warm up: imports, the Markdown parser, the file cache
    found = []
    for _ in range(repeat):
        began = time.perf_counter()
        load_goal(path)
        found.append(time.perf_counter() - began)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    text = SKILL.read_text(encoding="utf-8")
    ledger = "\n".join(entry(n) for n in range(args.entries))
    big = text.replace("## Iterations\n", "## Iterations\n\n" + ledger, 1)
    with tempfile.TemporaryDirectory() as folder:
        empty_path, big_path = Path(folder) / "empty.md", Path(folder) / "big.md"
        empty_path.write_text(text, encoding="utf-8")
        big_path.write_text(big, encoding="utf-8")
        assert load_goal(big_path).criteria == load_goal(empty_path).criteria
        empty, full = timings(empty_path, args.repeat), timings(big_path, args.repeat)
    size = len(big.encode("utf-8"))
    print(f"repetitions: {args.repeat}")
    for label, values, nbytes in (
        ("empty ledger", empty, len(text.encode("utf-8"))),
        (f"{args.entries} entries", full, size),
    ):
        print(
            f"{label:>14}: median {statistics.median(values) * 1000:8.3f} ms, "
            f"best {min(values) * 1000:8.3f} ms  ({nbytes:,} bytes)"
        )
    print(
        f"ratio (median, {args.entries} entries / empty): "
        f"{statistics.median(full) / statistics.median(empty):.2f}"
    )


if __name__ == "__main__":
    main()
