"""Where the test suite's CPU goes: a pytest plugin, and a summary of what it recorded.

    PYTHONPATH=bench SUITE_CPU=/tmp/cpu .venv/bin/python -m pytest -p suite_cpu -n 2 tests/x.py
    python bench/suite_cpu.py /tmp/cpu

For each test (setup, call and teardown together) the plugin writes one JSON line to a file of
its worker's own in the folder ``SUITE_CPU``: the CPU seconds of the pytest process itself and
of the child processes it waited for (``getrusage``), and the CPU of each child by kind
(``goalfile verify``, ``git``, ``host claude``...), read from ``wait4`` when the child is
reaped. A child's figure includes its own waited-for children (a host CLI's hooks, a verify's
checks). CPU, not wall time: on a shared machine the wall time of a test says more about its
neighbours than about the test. A module fixture's cost falls to the test that first asks for
it; a child that is killed and never reaped is not counted.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_kinds: dict[int, str] = {}
_spent: dict[str, list[float]] = {}


def kind(args: Any) -> str:
    """What a child process is, from its command line."""
    if isinstance(args, (str, bytes)):
        words = os.fsdecode(args).split()
        return "shell " + (words[0].rsplit("/", 1)[-1] if words else "?")
    argv = [os.fsdecode(a) for a in args]
    if not argv:
        return "?"
    name = argv[0].rsplit("/", 1)[-1]
    if name == "nsenter" and len(argv) > 3:  # a host CLI in its network namespace
        return " ".join(["host", argv[3].rsplit("/", 1)[-1], *argv[4:5]])
    if "goalfile" in argv[:3] or any(a.endswith("/goalfile") for a in argv[:1]):
        at = next((i for i, a in enumerate(argv) if a.endswith("goalfile")), 0)
        command = next((a for a in argv[at + 1 :] if not a.startswith("-")), "")
        return f"goalfile {command}"
    if name.startswith("python") and len(argv) > 2 and argv[1] == "-m":
        return f"python -m {argv[2]}"
    if name in ("sh", "bash") and len(argv) > 2:
        words = argv[-1].split()
        return f"{name} " + (words[0].rsplit("/", 1)[-1] if words else "")
    return name


def _reaped(pid: int, usage: resource.struct_rusage) -> None:
    name = _kinds.pop(pid, None)
    if name is not None:
        spent = _spent.setdefault(name, [0, 0.0])
        spent[0] += 1
        spent[1] += usage.ru_utime + usage.ru_stime


def _waitpid(pid: int, options: int) -> tuple[int, int]:
    if pid <= 0:
        return _plain_waitpid(pid, options)
    found, status, usage = os.wait4(pid, options)
    if found == pid:
        _reaped(found, usage)
    return found, status


_plain_waitpid = os.waitpid
_plain_init = subprocess.Popen.__init__


def _init(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
    _plain_init(self, *args, **kwargs)
    _kinds[self.pid] = kind(self.args)


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def pytest_configure(config: Any) -> None:
    if not os.environ.get("SUITE_CPU"):
        raise SystemExit("suite_cpu: set SUITE_CPU to the folder the records go to")
    os.waitpid = _waitpid  # subprocess reaps with os.waitpid, and _internal_poll with a default
    poll = subprocess.Popen._internal_poll  # type: ignore[attr-defined]
    defaults = list(poll.__defaults__)
    defaults[1] = _waitpid
    poll.__defaults__ = tuple(defaults)
    subprocess.Popen.__init__ = _init  # type: ignore[method-assign]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    folder = Path(os.environ["SUITE_CPU"])
    folder.mkdir(parents=True, exist_ok=True)
    _spent.clear()
    own, children = _cpu()
    started = time.monotonic()
    yield
    own_after, children_after = _cpu()
    record = {
        "id": item.nodeid,
        "wall": time.monotonic() - started,
        "self": own_after - own,
        "children": children_after - children,
        "kinds": _spent,
    }
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(folder / f"{worker}-{os.getpid()}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def summary(folder: Path, top: int = 40) -> str:
    records = [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.open()]
    cpu = [r["self"] + r["children"] for r in records]
    lines = [
        f"{len(records)} tests, {sum(cpu):.0f} CPU-s "
        f"(pytest {sum(r['self'] for r in records):.0f}, "
        f"children {sum(r['children'] for r in records):.0f})",
        "",
        "CPU-s  tests  file",
    ]
    by_file: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for record, spent in zip(records, cpu, strict=True):
        entry = by_file[record["id"].split("::")[0]]
        entry[0] += 1
        entry[1] += spent
    for name, (count, spent) in sorted(by_file.items(), key=lambda x: -x[1][1])[:top]:
        lines.append(f"{spent:6.1f} {count:5.0f}  {name}")
    lines += ["", "CPU-s  processes  kind"]
    kinds: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for record in records:
        for name, (count, spent) in record["kinds"].items():
            kinds[name] += spent
            counts[name] += count
    for name, spent in kinds.most_common(top):
        lines.append(f"{spent:6.1f} {counts[name]:9d}  {name}")
    lines += ["", "CPU-s  test"]
    for spent, record in sorted(zip(cpu, records, strict=True), key=lambda x: -x[0])[:top]:
        lines.append(f"{spent:6.1f}  {record['id']}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(Path(sys.argv[1])))
