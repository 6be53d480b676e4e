"""Peak memory of ``goalfile verify --no-write`` on a check that prints 1 GB.

The verify runs in a wrapper Python process (bench/verify_peak.py, a child of this one) that
reports its own peak RSS (``VmHWM``). This process also reads ``RUSAGE_CHILDREN`` after
waiting for that child: it covers the wrapper and every descendant it waited for, the check's
``sh``, ``yes`` and ``head`` included, but a maximum is a maximum of single processes, and
those three are tiny.

    .venv/bin/python bench/bench_memory.py [--bytes 1000000000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WRAPPER = Path(__file__).with_name("verify_peak.py")

GOAL = """---
slug: memory
status: draft
created: 2026-11-30
budget:
  iterations: 1
  tokens: null
iterations_used: 0
tokens_used: 0
timeout: 600
---
# Goal: verify reads {size} bytes of output in bounded memory

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | a lot of output | `yes \\| head -c {size}` | exit 0 | deterministic |

## Iterations

## Lessons
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bytes", type=int, default=1_000_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        goal = Path(folder) / "memory.md"
        goal.write_text(GOAL.format(size=args.bytes), encoding="utf-8")
        report = Path(folder) / "report.json"
        began = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, str(WRAPPER), str(report), str(goal)],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        out, err = child.communicate()
        took = time.perf_counter() - began
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        measured = json.loads(report.read_text())
    document = json.loads(out) if out.strip() else {}
    rows = document.get("rows") or [{}]
    seen = (rows[0].get("output") or {}).get("stdout_bytes")
    print(f"check output: {seen:,} bytes" if seen is not None else f"no JSON document: {err}")
    print(f"summary: {document.get('summary')}")
    print(f"exit status: {measured['exit']}  (wall time {took:.1f} s)")
    print(f"peak RSS of the verify process (VmHWM): {measured['maxrss_kib'] / 1024:.1f} MiB")
    print(f"peak RSS of any waited-for child (RUSAGE_CHILDREN): {children / 1024:.1f} MiB")
    print(f"pid {os.getpid()}, python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
