"""The patterns goalfile's modules compile at import are made from goalfile/patterntable.py by
the goalfile program (goalfile.patterncache): each the pattern re.compile makes, the table what
`python -m goalfile.patterncache` writes from the modules as they are, and a real goalfile
process compiles none of them."""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]
import re
import subprocess
import sys
from pathlib import Path

from goalfile import patterntable
from goalfile.patterncache import TABLE
from tests.test_light_commands import met_goal

WRITE = f"{Path(sys.executable).name} -m goalfile.patterncache"


def test_the_table_is_what_the_modules_compile_now() -> None:
    """A pattern changed, added or removed in a module, with the table not written again, is
    compiled at every start (the table has no entry for it): this names the command."""
    code = "from goalfile.patterncache import table_text; print(table_text(), end='')"
    done = subprocess.run(  # a fresh process: every module is imported, so each compiles
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    table = Path(patterntable.__file__).with_name(TABLE).read_text(encoding="utf-8")
    assert done.stdout == table, f"goalfile/{TABLE} is out of date: run `{WRITE}`"
    assert len(patterntable.PATTERNS) > 50


def test_each_entry_makes_the_pattern_re_compile_makes() -> None:
    assert sys.version_info[:2] == patterntable.VERSION, f"written for another Python: `{WRITE}`"
    assert (_sre.MAGIC, _sre.CODESIZE) == (patterntable.MAGIC, patterntable.CODESIZE)
    for pattern, flags, compiled, groups, names, code in patterntable.PATTERNS:
        index: list[str | None] = [None] * (groups + 1)
        for name, number in names.items():
            index[number] = name
        made = _sre.compile(
            pattern, compiled, memoryview(code).cast("I").tolist(), groups, names, tuple(index)
        )
        expected = re.compile(pattern, flags)
        assert made == expected, pattern  # the engine compares flags, pattern and code
        assert (made.groups, made.groupindex, made.flags) == (
            expected.groups,
            expected.groupindex,
            expected.flags,
        )


# run as the `goalfile` program, reporting at exit the patterns that goalfile's modules
# compiled at their top level
_REPORT = """
import atexit, sys
from re import _compiler
compile_ = _compiler.compile
made = []
def recording(pattern, flags=0):
    caller = sys._getframe(1)
    while caller is not None and caller.f_globals.get("__name__") in ("re", "functools"):
        caller = caller.f_back
    if caller is not None and caller.f_code.co_name == "<module>":
        module = caller.f_globals.get("__name__", "")
        if module.startswith("goalfile"):
            made.append(f"{module}: {pattern}")
    return compile_(pattern, flags)
_compiler.compile = recording
atexit.register(lambda: print("compiled:", repr(made), file=sys.stderr))
sys.argv = ["goalfile", *sys.argv[1:]]
from goalfile.__main__ import run
run()
"""


def test_a_one_row_verify_and_status_compile_no_module_pattern(tmp_path: Path) -> None:
    """Each compiled 35 or more patterns at import (about 16 M instructions for verify)."""
    goal = met_goal(tmp_path)
    for args in (["verify", "--no-write", str(goal)], ["status", str(goal)]):
        done = subprocess.run(
            [sys.executable, "-c", _REPORT, *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        reported = [line for line in done.stderr.splitlines() if line.startswith("compiled: ")]
        assert reported == ["compiled: []"], (args, done.stderr[-3000:])
