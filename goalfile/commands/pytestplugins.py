"""Whether the Python that runs a pytest check can import the plugins the project's pytest
configuration needs: the plugin shape of :mod:`goalfile.commands.operands`.

A project's configuration can ask for a plugin its test environment installs (tox, nox, a
requirements file) and a new user's Python lacks. An option of the plugin's in `addopts` (`-n
auto`: pytest-xdist; `--cov`: pytest-cov) is an unrecognized argument without it: pytest exits 4
(its usage error) before any test runs. `asyncio_mode` without pytest-asyncio is only an unknown
key to pytest, and every `async def` test fails ("async def functions are not natively
supported"). Either way pytest prints only its own error and verify judges the row `unmet`: no
work on the code can meet it. The configuration is the file pytest reads (the first of
`pytest.ini`, `.pytest.ini`, `pyproject.toml` with `[tool.pytest.ini_options]`, `tox.ini` with
`[pytest]`, `setup.cfg` with `[tool:pytest]`, in the folder the check runs in, then each folder
above it), with the options the check gives; the Python is asked as
:mod:`goalfile.commands.pyoperands` asks (-S, nothing of the project run, an interpreter the
repository holds not asked). A check that points pytest at another configuration (`-c`, `-o`,
`--rootdir`) or loads a plugin by name (`-p`) is left alone (:func:`srclayout.interpreter`).
"""

from __future__ import annotations

import configparser
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from goalfile.commands.projectfile import read_whole
from goalfile.value import Value

if TYPE_CHECKING:
    from goalfile.commands.shellparts import Part

# the plugins a configuration is read for: the module each is imported as, the name pip
# installs it by, and its options
_OPTIONS = {
    "xdist": ("pytest-xdist", ("-n", "--numprocesses", "--dist", "--maxprocesses")),
    "pytest_cov": ("pytest-cov", ("--cov", "--cov-report", "--cov-branch", "--cov-config",
                                  "--cov-fail-under", "--cov-append", "--no-cov")),
    "pytest_timeout": ("pytest-timeout", ("--timeout", "--timeout-method")),
    "pytest_rerunfailures": ("pytest-rerunfailures", ("--reruns", "--reruns-delay")),
    "flaky": ("flaky", ("--no-flaky-report", "--force-flaky")),
}  # fmt: skip
_KEYS = {  # ini keys that need a plugin
    "asyncio_mode": ("pytest_asyncio", "pytest-asyncio"),
    "asyncio_default_fixture_loop_scope": ("pytest_asyncio", "pytest-asyncio"),
}
_FILES = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
_SECTIONS = {"pytest.ini": "pytest", ".pytest.ini": "pytest", "tox.ini": "pytest",
             "setup.cfg": "tool:pytest"}  # fmt: skip
# pytest's exits without a plugin: tests failed (an async test), a plugin a conftest.py loads
# could not be imported (coverage's imports xdist), an unrecognized argument
STATUSES = ("1", "3", "4")


class Need(Value):
    """A plugin the configuration (or the check) asks for: its module, the name pip installs it
    by, what asks for it (`-n` in the `addopts` in `pyproject.toml`), and whether pytest refuses
    that without it (an option; an ini key under `--strict-config`), else only warns."""

    __slots__ = ("asked", "module", "option", "package")

    def __init__(self, module: str, package: str, asked: str, option: bool) -> None:
        self.module: Final = module
        self.package: Final = package
        self.asked: Final = asked
        self.option: Final = option


def configuration(folder: Path) -> tuple[Path, Mapping[str, str]] | None:
    """The file pytest reads its configuration from when it runs in ``folder``, and its ini
    values (as text); None when there is none or it cannot be read."""
    for place in (folder, *folder.parents):
        for name in _FILES:
            data = read_whole(place / name)
            if data is None:
                continue
            values = _values(name, data)
            if values is not None:
                return place / name, values
    return None


def _values(name: str, data: bytes) -> Mapping[str, str] | None:
    text = data.decode("utf-8", "replace")
    if name == "pyproject.toml":
        import tomllib

        try:
            table = tomllib.loads(text).get("tool", {}).get("pytest", {})
        except (tomllib.TOMLDecodeError, AttributeError):
            return None
        if not isinstance(table, dict) or not table:
            return None
        options = table.get("ini_options", table)  # pytest 9 reads [tool.pytest] itself too
        if not isinstance(options, dict):
            return None
        return {
            key: " ".join(map(str, value)) if isinstance(value, list) else str(value)
            for key, value in options.items()
        }
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    section = _SECTIONS[name]
    if not parser.has_section(section):
        return {} if name in ("pytest.ini", ".pytest.ini") else None  # pytest.ini is always it
    return dict(parser.items(section))


def needs(words: Sequence[str], folder: Path) -> list[Need]:
    """The plugins the pytest command ``words`` (its options after the program) run in
    ``folder`` needs, by what its configuration and its own options ask for."""
    found = configuration(folder)
    values: Mapping[str, str] = {}
    asked_in = ""
    if found is not None:
        path, values = found
        asked_in = f" in `{_shown(path, folder)}`"
    try:
        addopts = shlex.split(values.get("addopts", ""))
    except ValueError:
        addopts = []
    result: list[Need] = []
    for module, (package, options) in _OPTIONS.items():
        for where, given in ((f"the `addopts`{asked_in}", addopts), ("the check", list(words))):
            word = next((w for w in given if _is_option(w, options)), None)
            if word is not None:
                result.append(Need(module, package, f"`{word}` in {where}", True))
                break
    strict = "--strict-config" in (*addopts, *words) or values.get("strict_config", "").lower() in (
        "true",
        "1",
    )
    for key, (module, package) in _KEYS.items():
        if key in values and module not in {need.module for need in result}:
            said = " ".join(values[key].split())  # with --strict-config, a usage error
            result.append(Need(module, package, f"`{key} = {said}`{asked_in}", strict))
    return result


def _is_option(word: str, options: Sequence[str]) -> bool:
    name = word.split("=", 1)[0]
    if name in options:
        return True
    # a short option with its value joined (`-n4`, `-nauto`)
    return any(len(o) == 2 and word.startswith(o) and len(word) > 2 for o in options)


def _shown(path: Path, folder: Path) -> str:
    import os

    return os.path.relpath(path, folder)


def missing(
    cid: str, words: Sequence[str], *, shell: str, folder: Path, env: Mapping[str, str]
) -> tuple[str, list[Need]] | None:
    """The Python the pytest command ``words`` (check ``cid``, run in ``folder``) runs with and
    the plugins it needs that Python cannot import; None when there are none, for any other
    command, and when that cannot be told."""
    from goalfile.commands import pyoperands, srclayout

    python = srclayout.interpreter(words, env)
    if python is None:
        return None
    rest = words[3:] if words[1:3] == ["-m", "pytest"] else words[1:]
    wanted = needs(rest, folder)
    if not wanted or not pyoperands.outside(python, folder, env):
        return None
    asked = [f"{cid}m:{need.module}" for need in wanted]
    lines = pyoperands.not_found(python, asked, shell=shell, cwd=folder, env=env)
    if not lines:
        return None
    gone = {line.partition("\t")[0].partition(":")[2] for line in lines if line.partition("\t")[1]}
    lacking = [need for need in wanted if need.module in gone]
    return (python, lacking) if lacking else None


def install(python: str, needs: Sequence[Need], folder: Path, here: Path | None) -> str:
    """The command that installs the plugins ``needs`` for ``python`` (named as the check in
    ``folder`` names it), typed in ``here``."""
    from goalfile.commands.srclayout import python_from

    return f"{python_from(python, folder, here)} -m pip install " + " ".join(
        dict.fromkeys(need.package for need in needs)
    )


def outcome(needs: Sequence[Need]) -> str:
    """What pytest does without the plugins ``needs``."""
    if any(need.option for need in needs):
        return "pytest stops at its usage error, exit 4, before any test runs"
    return "pytest fails each `async def` test (async def functions are not natively supported)"


def said(cid: str, python: str, lacking: Sequence[Need], where: str) -> str:
    """What the plugins ``lacking`` are, who asks for them and that ``python`` cannot import
    them: the start of the note `new`, `activate` and `verify` print."""
    names = " and ".join(f"{need.package} ({need.asked})" for need in lacking)
    return f"{cid}: the tests need {names}, which `{python}` cannot import {where}"


def line(
    cid: str, python: str, lacking: Sequence[Need], where: str, folder: Path, here: Path | None
) -> str:
    """The note `new` and `activate` print, without its `note: `."""
    return (
        f"{said(cid, python, lacking, where)}: {outcome(lacking)}, and verify judges the row "
        f"`unmet` until `{install(python, lacking, folder, here)}` installs "
        f"{'it' if len(lacking) == 1 else 'them'}"
    )


def unmet_notes(
    rows: Sequence[tuple[str, str, str]], *, shell: str, cwd: Path, env: Mapping[str, str]
) -> tuple[str, ...]:
    """For the ``(id, command, exit)`` of rows a verify run found unmet: one note each whose
    pytest lacks a plugin its configuration needs, with the command that installs it (what
    pytest printed without it is shown above the note)."""
    from goalfile.commands.shellparts import first_found

    def find(cid: str, part: Part) -> tuple[str, list[Need]] | None:
        return missing(cid, part.words, shell=shell, folder=part.folder, env=env)

    return tuple(
        f"note: {said(cid, python, lacking, 'where the checks run')}; "
        f"`{install(python, lacking, part.folder, cwd)}` (where the checks run) installs "
        f"{'it' if len(lacking) == 1 else 'them'}"
        for cid, part, (python, lacking) in first_found(rows, STATUSES, cwd, find)
    )
