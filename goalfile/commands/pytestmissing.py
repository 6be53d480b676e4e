"""Whether the Python a `python -m pytest` check names can import pytest at all: the shape of
:mod:`goalfile.commands.operands` that is about the machine, not the check.

A Python without pytest (a fresh virtual environment, the system's `python3`) runs
`python -m pytest ...` to its end at once: "No module named pytest", exit 1, before any test
runs. The shell found the command, so verify judges the row `unmet`, never `error`
(docs/format.md, Verdicts), and no work on the code meets it. `new` and `activate` say so
first, in place of the notes on test paths or a package under `src/` (pytest never gets to
them), and verify says it again after a run whose row exited 1. The Python is asked as
:mod:`goalfile.commands.pyoperands` asks (-S, nothing of the project run, an interpreter the
repository holds not asked).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from goalfile.commands.srclayout import PYTHON


def interpreter(words: Sequence[str]) -> str | None:
    """The Python of the command ``words`` when it is `PYTHON -m pytest ...`; else None."""
    if len(words) >= 3 and PYTHON.fullmatch(Path(words[0]).name) and words[1:3] == ["-m", "pytest"]:
        return words[0]
    return None


def missing(
    cid: str, words: Sequence[str], *, shell: str, folder: Path, env: Mapping[str, str]
) -> str | None:
    """The Python of the `python -m pytest` command ``words`` (check ``cid``, run in
    ``folder``) when it cannot import pytest; None when it can, for any other command, and
    when that cannot be told."""
    from goalfile.commands import pyoperands

    python = interpreter(words)
    if python is None or not pyoperands.outside(python, folder, env):
        return None
    lines = pyoperands.not_found(python, [f"{cid}m:pytest"], shell=shell, cwd=folder, env=env)
    return python if lines else None


def line(cid: str, python: str, where: str) -> str:
    """The note `new` and `activate` print, without its `note: ` (they add how to correct
    the check)."""
    return (
        f"{cid}: `{python}` cannot import pytest {where} (it is not installed for that "
        f"Python): `{python} -m pytest` exits 1 (No module named pytest) before any test runs, "
        "and verify judges the row `unmet` until pytest is installed for that Python, or the "
        "check names a Python that has it"
    )


def unmet_notes(
    rows: Sequence[tuple[str, str, str]], *, shell: str, cwd: Path, env: Mapping[str, str]
) -> tuple[str, ...]:
    """For the ``(id, command, exit)`` of rows a verify run found unmet with exit 1: one note
    each whose `python -m pytest` cannot import pytest."""
    from goalfile.commands import shellparts

    notes = []
    for cid, command, status in rows:
        if status != "1":
            continue
        for part in shellparts.parts(command, cwd) or []:
            try:
                python = missing(cid, part.words, shell=shell, folder=part.folder, env=env)
            except (OSError, ValueError):
                python = None
            if python is not None:
                notes.append(
                    f"note: {cid}: `{python}` cannot import pytest where the checks run: no "
                    "test ran, and no work on the code meets the row until pytest is "
                    "installed for that Python, or the check names a Python that has it"
                )
                break
    return tuple(notes)
