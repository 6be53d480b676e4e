"""goalfile.commands.toxenvs on tox.ini read as text (the real tox runs in
tests/test_operands_pluggy.py)."""

from __future__ import annotations

from pathlib import Path

from goalfile.commands.toxenvs import undefined

INI = """[tox]
env_list = py3, lint
labels =
    check: lint

[testenv]
deps =
    cov: coverage

[testenv:lint]
commands = python -c pass

[flake8]
per-file-ignores =
    docs: E501
"""


def test_a_factor_of_a_conditional_setting_in_tox_or_testenv_is_defined(tmp_path: Path) -> None:
    """Fails before the change for `check`: tox 4 (4.67) takes the factors of conditional
    settings in [tox] too (`tox config -e check` answers `env_name = check`), and not those
    of another tool's section ([flake8]'s `docs:`, "provided environments not found")."""
    (tmp_path / "tox.ini").write_text(INI, encoding="utf-8")
    assert undefined(["tox", "-e", "check"], tmp_path) is None
    assert undefined(["tox", "-e", "py3-cov,lint"], tmp_path) is None
    found = undefined(["tox", "-e", "docs,nothere"], tmp_path)
    assert found is not None and found.envs == ["docs", "nothere"]
