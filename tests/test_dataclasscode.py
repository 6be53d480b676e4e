"""The value classes' methods that come compiled with the package (goalfile.dataclasscode): each
is the code of the text ``dataclasses`` would compile, made with the globals it would use, the
module holds every text the light commands build, and it is the one the generator writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from goalfile import dataclasscode, dataclassmethods
from tests.test_light_commands import met_goal

MODULE = Path(dataclassmethods.__file__)


def _env() -> dict[str, str]:
    """The environment of the processes here: bytecode may be written (the methods are read
    from the compiled module only; see test_without_bytecode_the_methods_are_compiled_as_before)."""
    drop = ("GOALFILE_", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
    return {k: v for k, v in os.environ.items() if not k.startswith(drop)}


def _python(script: str, *args: str, cwd: Path | None = None) -> str:
    env = _env()
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode in (0, 2), done.stderr[-3000:]
    return done.stdout


def _shape(code: types.CodeType) -> tuple[object, ...]:
    """What a code object does, without where its text was (file and line numbers)."""
    consts = tuple(
        _shape(const) if isinstance(const, types.CodeType) else (type(const), const)
        for const in code.co_consts
    )
    return (
        code.co_code,
        consts,
        code.co_names,
        code.co_varnames,
        code.co_freevars,
        code.co_cellvars,
        code.co_flags,
        code.co_name,
        code.co_qualname,
        code.co_argcount,
        code.co_posonlyargcount,
        code.co_kwonlyargcount,
        code.co_stacksize,
        code.co_exceptiontable,
    )


def test_each_method_is_the_code_of_its_text() -> None:
    assert len(dataclassmethods.CODE) > 100
    for text, code in dataclassmethods.CODE.items():
        # as dataclasses compiles it: without this file's `annotations` future, as exec there
        compiled = compile(text, "<string>", "exec", dont_inherit=True)
        (made,) = [const for const in compiled.co_consts if isinstance(const, types.CodeType)]
        assert _shape(code) == _shape(made), text


def test_the_module_is_the_one_the_generator_writes() -> None:
    """Fails when a value class of dataclasscode.MODULES changed (or one was added) and the
    module was not written again: `python -m goalfile.dataclasscode` writes it."""
    if sys.version_info[:2] == dataclassmethods.PYTHON:
        script = (
            "import sys\nfrom goalfile.dataclasscode import written\nsys.stdout.write(written())"
        )
        assert _python(script) == MODULE.read_text(encoding="utf-8"), (
            "goalfile/dataclassmethods.py is not current: run `python -m goalfile.dataclasscode`"
        )
    else:  # another Python writes other texts: dataclasses is left as it is
        script = (
            "import dataclasses\nfrom goalfile.dataclasscode import install\n"
            "before = getattr(dataclasses, '_create_fn', None)\ninstall()\n"
            "print(getattr(dataclasses, '_create_fn', None) is before)"
        )
        assert _python(script).strip() == "True"


# run as the `goalfile` program, reporting at exit the goalfile modules whose texts it compiled
# and what the installed methods of a class are made of
_REPORT = """
import atexit, json, sys
def report():
    from goalfile import dataclasscode
    import goalfile.model as model
    init = model.Goal.__init__
    print("report:", json.dumps({
        "missed": sorted(set(dataclasscode.MISSED)),
        "globals": init.__globals__ is vars(model),
        "module": init.__module__,
        "qualname": init.__qualname__,
        "file": init.__code__.co_filename,
    }), file=sys.stderr)
atexit.register(report)
sys.argv = ["goalfile", *sys.argv[1:]]
from goalfile.__main__ import run
run()
"""


def _report(args: list[str], cwd: Path) -> dict[str, object]:
    env = _env()
    done = subprocess.run(
        [sys.executable, "-c", _REPORT, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("report: ")]
    assert lines, done.stdout + done.stderr
    found: dict[str, object] = json.loads(lines[-1].removeprefix("report: "))
    return found


def test_the_light_commands_compile_no_method_of_a_goalfile_class(tmp_path: Path) -> None:
    goal = met_goal(tmp_path)
    for args in (["verify", "--no-write", str(goal)], ["status", str(goal)]):
        found = _report(args, tmp_path)
        assert found["missed"] == [], (args, found)
        # the method is the class module's, as the one dataclasses compiles: its globals, its
        # module and its qualified name (only where its text was differs)
        assert found["globals"] is True
        assert found["module"] == "goalfile.model"
        assert found["qualname"] == "Goal.__init__"
        assert found["file"] == str(MODULE)


def test_a_class_whose_text_is_not_kept_is_compiled_as_before(tmp_path: Path) -> None:
    script = """
import dataclasses
from goalfile import dataclasscode
dataclasscode.install()
@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int = 2
point = Point(1)
try:
    point.x = 3
except dataclasses.FrozenInstanceError as error:
    print("frozen:", error)
print(point == Point(1, 2), hash(point) == hash(Point(1, 2)), repr(point))
print(Point.__init__.__code__.co_filename, dataclasscode.MISSED)
"""
    assert _python(script, cwd=tmp_path).splitlines() == [
        "frozen: cannot assign to field 'x'",
        "True True Point(x=1, y=2)",
        "<string> []",  # compiled by dataclasses; not a goalfile class
    ]


def test_the_installed_methods_behave_as_those_compiled() -> None:
    script = """
import dataclasses, sys
installed = sys.argv[1] == "yes"
if installed:
    from goalfile import dataclasscode
    dataclasscode.install()
from goalfile.model import Budget, Finding, Severity
budget = Budget(iterations=3)
out = [repr(budget == Budget(iterations=3)), repr(budget == Budget(tokens=3))]
try:
    budget.tokens = 5
except dataclasses.FrozenInstanceError as error:
    out.append(str(error))
try:
    del budget.iterations
except dataclasses.FrozenInstanceError as error:
    out.append(str(error))
try:
    Budget(3)
except TypeError as error:
    out.append(str(error))
finding = Finding(severity=Severity.ERROR, line=2, code="x", message="m")
out.append(repr(dataclasses.replace(finding, line=3).line))
out.append(repr(Budget.__init__.__annotations__))
out.append(repr(Budget.__init__.__defaults__) + repr(Budget.__init__.__kwdefaults__))
if installed:
    out.append(repr(Budget.__init__.__code__.co_filename.endswith("dataclassmethods.py")))
print("\\n".join(out))
"""
    plain = _python(script, "no").splitlines()
    installed = _python(script, "yes").splitlines()
    assert installed[:-1] == plain
    assert installed[-1] == "True"


def test_without_bytecode_the_methods_are_compiled_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Compiling goalfile/dataclassmethods.py itself at every start would cost more than the
    texts it holds: where Python writes no bytecode, the module is used only when a compiled
    copy at least as new as its source is there."""
    source = tmp_path / "dataclassmethods.py"
    source.write_text("PYTHON = (3, 11)\n", encoding="utf-8")
    cached = tmp_path / "__pycache__" / f"dataclassmethods.{sys.implementation.cache_tag}.pyc"
    monkeypatch.setattr(dataclasscode, "__file__", str(tmp_path / "dataclasscode.py"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert dataclasscode._compiled()  # the first import writes it
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert not dataclasscode._compiled()  # none there
    cached.parent.mkdir()
    cached.write_bytes(b"")
    os.utime(cached, (1_000, 1_000))
    assert not dataclasscode._compiled()  # older than its source
    os.utime(cached, (4_000_000_000, 4_000_000_000))
    assert dataclasscode._compiled()
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "elsewhere"))
    assert not dataclasscode._compiled()  # not in the folder beside the module


def test_the_program_without_bytecode_leaves_dataclasses_as_they_are(tmp_path: Path) -> None:
    goal = met_goal(tmp_path)
    env = {**_env(), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-c", _REPORT, "status", str(goal)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("report: ")]
    assert lines, done.stdout + done.stderr
    assert json.loads(lines[-1].removeprefix("report: "))["file"] == "<string>"
