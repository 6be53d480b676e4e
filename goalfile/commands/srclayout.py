"""Whether the Python that runs a pytest check can import the project's package kept under
`src/`: the src-layout shape of :mod:`goalfile.commands.operands`.

A package under `src/` (`src/NAME/__init__.py`, `src/NAME.py`) is importable only once it is
installed (`python -m pip install -e .`), unless pytest's configuration puts `src` on the path
itself. Until then every test module that imports it fails to collect (`ModuleNotFoundError: No
module named 'NAME'`), pytest exits 2, and verify judges the row `unmet`: no work on the code
can meet it. A copy installed for that Python (an older release from PyPI, in its
site-packages) is the other trap: pytest imports it, the tests check it, and no change under
`src/` changes a verdict; a broken `src/` can be met. The Python is the check's own (`python
-m pytest`), or the one a `pytest` script's `#!` line names; it is asked as
:mod:`goalfile.commands.pyoperands` asks (-S, nothing of the project run, an interpreter the
repository holds not asked). A check is left alone when anything could put `src` on the path
another way: a `pythonpath` setting in any file pytest reads its configuration from, a
`conftest.py` at the top or one folder down that names `sys.path`, or pytest options that
change the configuration or the import (`-c`, `-o`, `--rootdir`, `--pyargs`, `-p` but to turn a
plugin off); and when the folder has no project file for pip to install.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from goalfile.commands.projectfile import read_whole

STATUSES = ("2", "4")  # pytest's exits for a test module, or a conftest.py, that cannot import
ELSEWHERE = ("1", *STATUSES)  # and for tests that failed: an installed copy was tested
INSTALL_FIX = "installs it"  # ends the line of a package that is there but not installed
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
PYTHON = re.compile(r"python(?:[0-9]+(?:\.[0-9]+)?)?")  # python, python3, python3.12
_CONFIG = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
_PROJECT = ("pyproject.toml", "setup.py", "setup.cfg")
_ELSEWHERE = ("-c", "-o", "--override-ini", "--rootdir", "--pyargs", "-p", "--config-file")


def interpreter(words: Sequence[str], env: Mapping[str, str]) -> str | None:
    """The Python that runs the pytest command ``words``: `python -m pytest`'s own, or the
    one the `#!` line of the `pytest` script found on PATH names; None for any other command,
    or an option that could put `src` on the path."""
    if not words:
        return None
    if PYTHON.fullmatch(Path(words[0]).name) and words[1:3] == ["-m", "pytest"]:
        found: str | None = words[0]
        rest = words[3:]
    elif Path(words[0]).name == "pytest":
        found = shebang(words[0], env)
        rest = words[1:]
    else:
        return None
    for at, word in enumerate(rest):
        plugin = rest[at + 1] if word == "-p" and at + 1 < len(rest) else word[2:]
        if word.startswith("-p") and plugin.startswith("no:"):
            continue  # a plugin turned off
        if word.split("=", 1)[0] in _ELSEWHERE or word.startswith("-p"):
            return None
    return found


def shebang(program: str, env: Mapping[str, str]) -> str | None:
    """The Python the `#!` line of ``program`` (found on the PATH of ``env``) names: an
    absolute path, or a name after `/usr/bin/env`; None for any other."""
    import shutil

    path = program if "/" in program else shutil.which(program, path=env.get("PATH", os.defpath))
    if path is None or not os.path.isabs(path):
        return None
    try:
        with open(path, "rb") as handle:
            first = handle.readline(512)
    except OSError:
        return None
    words = first[2:].decode("utf-8", "replace").split() if first.startswith(b"#!") else []
    if len(words) == 2 and Path(words[0]).name == "env":
        words = words[1:]  # #!/usr/bin/env python3
    if len(words) != 1 or not PYTHON.fullmatch(Path(words[0]).name):
        return None
    return words[0]


def packages(folder: Path) -> list[str]:
    """The importable names under ``folder``/src, when nothing could put src on the path
    another way and there is a project file to install; else none."""
    src = folder / "src"
    if not src.is_dir() or not any((folder / name).is_file() for name in _PROJECT):
        return []
    for name in _CONFIG:
        data = read_whole(folder / name)
        if data is not None and b"pythonpath" in data:
            return []
    conftests = [folder / "conftest.py", *folder.glob("*/conftest.py")]
    for conftest in conftests:
        data = read_whole(conftest)
        if data is not None and b"sys.path" in data:
            return []
    names = []
    try:
        entries = sorted(os.listdir(src))
    except OSError:
        return []
    for entry in entries:
        stem = entry.removesuffix(".py")
        if not _IDENTIFIER.fullmatch(stem) or stem == "conftest":
            continue
        if entry.endswith(".py") and (src / entry).is_file():
            names.append(stem)
        elif stem == entry and (src / entry / "__init__.py").is_file():
            names.append(entry)
    return names


def not_installed(
    cid: str, words: Sequence[str], *, shell: str, folder: Path, env: Mapping[str, str]
) -> tuple[str, list[str]] | None:
    """The Python the pytest command ``words`` runs with and the packages under `src/` it
    cannot import, when there are any; None otherwise or when that cannot be told."""
    found = imports(cid, words, shell=shell, folder=folder, env=env)
    return (found[0], found[1]) if found is not None and found[1] else None


def imports(
    cid: str, words: Sequence[str], *, shell: str, folder: Path, env: Mapping[str, str]
) -> tuple[str, list[str], dict[str, str]] | None:
    """The Python the pytest command ``words`` runs with, the packages under `src/` it cannot
    import, and those it imports from outside the repository (by name: where from), when
    there are any; None otherwise or when that cannot be told. A package found elsewhere is
    an installed copy: the tests check it, and a change under `src/` changes no verdict."""
    from goalfile.commands import pyoperands

    python = interpreter(words, env)
    if python is None:
        return None
    names = packages(folder)
    if not names or not pyoperands.outside(python, folder, env):
        return None
    asked = [f"{cid}s:{name}" for name in names]
    lines = pyoperands.not_found(python, asked, shell=shell, cwd=folder, env=env)
    gone: list[str] = []
    elsewhere: dict[str, str] = {}
    for line in lines or ():
        name, tab, part = line.partition("\t")
        if tab and part.startswith("@"):
            elsewhere[name.partition(":")[2]] = part[1:]
        elif tab:
            gone.append(part)
    return (python, gone, elsewhere) if gone or elsewhere else None


def conftest_importing(words: Sequence[str], folder: Path, names: Sequence[str]) -> str | None:
    """The `conftest.py` pytest loads for the command ``words`` (run in ``folder``) that
    imports one of ``names``, as a path from ``folder``: pytest cannot load it and exits 4
    (its usage error), before it collects any test module. The files looked at are the one at
    the top and those of the folders down to each test path the command gives, or, when it
    gives none, those one and two folders down; None when none of them imports one."""
    from goalfile.commands.operands import pytest_paths

    given = pytest_paths(" ".join(map(shlex.quote, words)))
    found = [folder / "conftest.py"]
    for path in given:
        parts = Path(path).parts
        found += [folder.joinpath(*parts[:end], "conftest.py") for end in range(1, len(parts) + 1)]
    if not given:
        found += sorted(folder.glob("*/conftest.py")) + sorted(folder.glob("*/*/conftest.py"))
    imports = re.compile(
        rb"^[ \t]*(?:from|import)[ \t]+(?:%s)\b" % b"|".join(map(str.encode, names)), re.M
    )
    for conftest in dict.fromkeys(found):
        data = read_whole(conftest)
        if data is not None and imports.search(data):
            return os.path.relpath(conftest, folder)
    return None


def install(python: str, folder: Path, here: Path | None) -> str:
    """The command that installs the project of ``folder`` (where the checks run) for
    ``python``, typed in ``here`` (where the person is; else ``folder``)."""
    from goalfile.shellword import shell_word

    start = here if here is not None else folder
    target = os.path.relpath(folder, start)
    return f"{python_from(python, folder, here)} -m pip install -e {shell_word(target)}"


def python_from(python: str, folder: Path, here: Path | None) -> str:
    """``python`` as the check run in ``folder`` names it, as a word typed in ``here`` (where
    the person is; else ``folder``)."""
    from goalfile.shellword import shell_word

    start = here if here is not None else folder
    if "/" in python and not os.path.isabs(python):  # from where the checks run
        python = os.path.relpath(os.path.join(folder, python), start)
        python = python if "/" in python else f"./{python}"
    return shell_word(python)


def unmet_notes(
    rows: Sequence[tuple[str, str, str]], *, shell: str, cwd: Path, env: Mapping[str, str]
) -> tuple[str, ...]:
    """For the ``(id, command, exit)`` of rows a verify run found unmet with pytest's exit 2
    (collection errors) or 4 (a conftest.py it could not load): one note each whose pytest
    cannot import the package under `src/`, with the command that installs it (run where the
    checks run); and with those exits or 1 (tests failed), one note each whose pytest imported
    it from a copy outside the repository, with the same command."""
    from goalfile.commands.shellparts import Part, first_found

    def find(cid: str, part: Part) -> tuple[str, list[str], dict[str, str]] | None:
        return imports(cid, part.words, shell=shell, folder=part.folder, env=env)

    notes = []
    for cid, part, (python, names, elsewhere) in first_found(rows, ELSEWHERE, cwd, find):
        installs = f"`{install(python, part.folder, cwd)}` (where the checks run) installs it"
        status = next(status for rid, _, status in rows if rid == cid)
        if not names and elsewhere:
            copies = ", ".join(f"`{name}` from `{place}`" for name, place in elsewhere.items())
            notes.append(
                f"note: {cid}: pytest ran with `{python}`, which imports {copies}, not the "
                "package under `src/`: the tests checked that installed copy, not this "
                f"repository's code; {installs}"
            )
            continue
        if not names or status not in STATUSES:
            continue
        names_said = ", ".join(f"`{name}`" for name in names)
        conftest = conftest_importing(part.words, part.folder, names)
        fails = (
            "a test module that imports it cannot be collected"
            if conftest is None
            else f"`{conftest}`, which imports it, cannot be loaded"
        )
        notes.append(
            f"note: {cid}: pytest ran with `{python}`, which cannot import {names_said}, "
            f"the package under `src/`: nothing installed it there, and {fails}; {installs}"
        )
    return tuple(notes)
