"""A project file nested thousands deep (package.json, tox.toml, noxfile.py) is no file the
notes of `new` and `activate` can read, and no traceback: `goalfile new --check "npm run
build"`, `--check "tox -e lint"` and `--check "nox -s x"` raised RecursionError out of
json.loads and tomllib.loads, and MemoryError out of ast.parse.
The readers on real files, and the real `goalfile new`."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_goalfile

from goalfile.commands import taskoperands, toxenvs

DEEP = 100_000


def test_a_package_json_nested_deep_is_unread(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text("[" * DEEP + "\n", encoding="utf-8")
    assert taskoperands.undefined(["npm", "run", "build"], tmp_path) is None


@pytest.mark.parametrize("name", ["tox.toml", "pyproject.toml"])
def test_a_tox_toml_nested_deep_is_unread(tmp_path: Path, name: str) -> None:
    prefix = "[tool.tox]\n" if name == "pyproject.toml" else ""
    (tmp_path / name).write_text(f"{prefix}env_list = " + "[" * DEEP + "\n", encoding="utf-8")
    assert toxenvs.undefined(["tox", "-e", "lint"], tmp_path) is None


def test_a_noxfile_nested_deep_is_unread(tmp_path: Path) -> None:
    (tmp_path / "noxfile.py").write_text("x = " + "not " * DEEP + "1\n", encoding="utf-8")
    assert taskoperands.undefined(["nox", "-s", "x"], tmp_path) is None


def test_new_notes_nothing_of_a_file_nested_deep(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text("[" * DEEP + "\n", encoding="utf-8")
    done = run_goalfile(
        "new", "web", "site builds", "--check", "npm run build", "--expected", "exit 0",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
