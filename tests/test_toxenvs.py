"""goalfile.commands.toxenvs on tox.ini read as text (the real tox runs in
tests/test_operands_pluggy.py)."""

from __future__ import annotations

import subprocess
import sys
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


_UNDEFINED = (
    "import sys; from pathlib import Path; from goalfile.commands.toxenvs import undefined; "
    "print(undefined(['tox', '-e', 'nothere'], Path(sys.argv[1])))"
)


def test_an_envlist_of_billions_of_names_is_not_expanded(tmp_path: Path) -> None:
    """Hung before the change: a generative envlist name of seven braces of thirty choices
    each (tox.ini), or a `product` of seven lists of thirty (tox.toml), was expanded to its
    22 billion names for `new`'s note, which then never came. The TOML product's factors are
    its lists' values (`nothere` is none); the ini name is not told (its factors join the
    text around the braces)."""
    choices = ",".join(f"a{n}" for n in range(30))
    ini, toml = tmp_path / "ini", tmp_path / "toml"
    ini.mkdir()
    toml.mkdir()
    (ini / "tox.ini").write_text(
        "[tox]\nenvlist = " + "-".join([f"{{{choices}}}"] * 7) + "\n", encoding="utf-8"
    )
    group = "[" + ",".join(f'"a{n}"' for n in range(30)) + "]"
    (toml / "tox.toml").write_text(
        "env_list = [{product = [" + ",".join([group] * 7) + "]}]\n", encoding="utf-8"
    )
    for folder, said in ((ini, "None"), (toml, "Undefined(file='tox.toml'")):
        done = subprocess.run(
            [sys.executable, "-c", _UNDEFINED, str(folder)],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert done.stdout.startswith(said), done.stdout
        assert "envs=['nothere']" in done.stdout or said == "None"
