"""Run ``goalfile verify --no-write --json GOAL`` in this process and record its peak memory.

    python bench/verify_peak.py REPORT.json GOAL.md

Writes ``{"exit": CODE, "maxrss_kib": PEAK}`` to REPORT.json; the JSON document of verify goes
to stdout. Used by bench/run.py and by the memory test in tests/test_verify.py.
"""

import json
import runpy
import sys


def peak_kib() -> int:
    # VmHWM is this process's own peak; ru_maxrss would also count the parent it was forked
    # from, because Linux carries that figure across execve
    with open("/proc/self/status") as status:
        return int(next(x for x in status if x.startswith("VmHWM:")).split()[1])


def main() -> None:
    report, goal = sys.argv[1], sys.argv[2]
    sys.argv = ["goalfile", "verify", "--no-write", "--json", goal]
    code = None
    try:
        runpy.run_module("goalfile", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code
    with open(report, "w") as handle:
        json.dump({"exit": code, "maxrss_kib": peak_kib()}, handle)


if __name__ == "__main__":
    main()
