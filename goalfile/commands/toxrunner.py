"""Whether a `tox -e ENV` check's environment needs a runner that only the tox-uv plugin
provides, and the tox that runs the check has no tox-uv: the tox-plugin shape of
:mod:`goalfile.commands.operands`.

A tox.ini (or setup.cfg's [tox:tox]) that gives an environment `runner = uv-venv-runner`,
`uv-venv-lock-runner` or `uv-venv-pep-517-runner` (attrs and structlog do) makes a tox without
tox-uv stop at once: "runner 'uv-venv-lock-runner' for environment 'py312-tests' is not
available (plugin may not be installed)", exit 254. tox ran to its end, so verify judges the
row `unmet`, and no work on the code meets it. The runner is read from the environment's own
`[testenv:ENV]` section, else from `[testenv]`; a value with a factor condition, a section
whose name tox expands (`[testenv:py3{9,10}-tests]`) that could be the environment's, a
configuration that names tox-uv (its `requires` makes tox provision it), a `toxfile.py`, the
TOML forms, and a tox whose Python its `#!` line does not name are left alone. Whether tox-uv
is there is asked of tox's Python as :mod:`goalfile.commands.toxpython` asks it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

_UV_RUNNER = re.compile(r"uv-venv(?:-[a-z0-9]+)*-runner")


def needs_uv(words: Sequence[str], folder: Path) -> tuple[str, str, str] | None:
    """For the tox command ``words`` run in ``folder``: the configuration file, the first
    environment it asks for whose runner is tox-uv's, and that runner; None when there is
    none or that cannot be told."""
    from goalfile.commands import toxenvs
    from goalfile.commands.projectfile import read_whole

    envs = toxenvs.asked(words)
    if not envs or (folder / "toxfile.py").exists():
        return None
    name = toxenvs.configuration_file(folder)
    if name not in ("tox.ini", "setup.cfg"):
        return None
    data = read_whole(folder / name)
    if data is None or b"tox-uv" in data or b"tox_uv" in data:
        return None
    parser = toxenvs.parse_ini(data.decode("utf-8-sig", "replace"))
    if parser is None:
        return None
    base = "testenv"  # in setup.cfg too
    sections: dict[str, str] = {}  # environment name -> its own section
    for title in parser.sections():
        if title.startswith(f"{base}:"):
            names = toxenvs.expand(title.removeprefix(f"{base}:").strip())
            if names is None:
                return None  # a section whose names cannot be told may be the environment's
            sections.update(dict.fromkeys(names, title))
    for env in envs:
        for section in (sections.get(env), base):
            if section is None or not parser.has_option(section, "runner"):
                continue
            runner = parser.get(section, "runner").strip()
            if _UV_RUNNER.fullmatch(runner):
                return name, env, runner
            break  # the environment's runner is another
    return None


def missing(
    words: Sequence[str], *, shell: str, folder: Path, env: Mapping[str, str]
) -> tuple[str, str, str] | None:
    """:func:`needs_uv`'s answer when the tox that runs ``words`` cannot import tox_uv; None
    when it can, and when that cannot be told."""
    from goalfile.commands import pyoperands, srclayout

    found = needs_uv(words, folder)
    if found is None:
        return None
    tox = words[0] if Path(words[0]).name != "tox" else srclayout.shebang(words[0], env)
    if tox is None:
        return None
    lines = pyoperands.not_found(tox, ["Tm:tox_uv"], shell=shell, cwd=folder, env=env)
    if lines is None or not any(line.startswith("Tm:tox_uv\t") for line in lines):
        return None
    return found


def line(cid: str, found: tuple[str, str, str]) -> str:
    """The note `new` and `activate` print, without its `note: `."""
    name, env, runner = found
    return (
        f"{cid}: {name} gives `{env}` the runner `{runner}`, which only the tox-uv plugin "
        'provides, and the tox that runs the check cannot import it: tox exits 254 ("runner '
        '... is not available"), and verify judges the row `unmet` until tox-uv is installed '
        "beside tox"
    )
