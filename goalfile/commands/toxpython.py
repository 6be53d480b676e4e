"""Whether a Python that a `tox -e ENV` check's environment names is there, where the checks
run: `tox -e py312` (`py3.12`, `3.12`, `cpython3.12`) needs a Python 3.12, and tox 4 finds one
as virtualenv does: the Python tox itself runs with, else a `python3.12`, `python3` or `python`
in a PATH entry that runs and is that version. Without one tox fails the environment ("could
not find python interpreter", exit 1), or with skip_missing_interpreters skips it and judges
the run by the other environments: the row is never met through it. Each candidate is run
as tox would run it (`-c` printing its version), in tox's order, until every version wanted
is found; a pyenv shim of a version not selected fails and counts as none. A check is left
alone when anything else could choose the Python: a `toxfile.py`, a `basepython`/
`base_python` setting or tox-uv named in the configuration, tox-uv installed beside tox (uv
finds and downloads Pythons its own way), or a tox whose Python its `#!` line does not name.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from goalfile.commands.projectfile import read_whole

_VERSION = re.compile(r"(?:py|cpython)(\d)\.?(\d+)|(\d)\.(\d+)")
_OTHER_CHOICE = (b"basepython", b"base_python", b"tox-uv", b"tox_uv")


def wanted(words: Sequence[str], folder: Path) -> list[str]:
    """The Python versions (`3.12`) the environments of the tox command ``words`` name, when
    nothing else could choose their Python."""
    from goalfile.commands import toxenvs

    envs = toxenvs.asked(words)
    if envs is None or (folder / "toxfile.py").exists():
        return []
    name = toxenvs.configuration_file(folder)
    data = None if name is None else read_whole(folder / name)
    if data is None or any(word in data for word in _OTHER_CHOICE):
        return []
    versions: list[str] = []
    for env in envs:
        for factor in env.split("-"):
            found = _VERSION.fullmatch(factor)
            if found is not None:
                major, minor = found.group(1) or found.group(3), found.group(2) or found.group(4)
                version = f"{major}.{int(minor)}"
                if version not in versions:
                    versions.append(version)
    return versions


def not_there(
    words: Sequence[str], *, shell: str, folder: Path, env: Mapping[str, str]
) -> list[str]:
    """Of the Python versions the tox command ``words`` needs, those tox finds no Python of
    where the checks run; none when that cannot be told."""
    from goalfile.commands import pyoperands, srclayout
    from goalfile.run import probe

    versions = wanted(words, folder)
    if not versions:
        return []
    tox = words[0] if Path(words[0]).name != "tox" else srclayout.shebang(words[0], env)
    if tox is None:
        return []
    lines = pyoperands.not_found(tox, ["Tm:tox_uv"], shell=shell, cwd=folder, env=env)
    if lines is None or not any(line.startswith("Tm:tox_uv\t") for line in lines):
        return []  # tox-uv is there (or that cannot be told)
    names = " ".join(shlex.quote(f"python{v}") for v in versions) + " python3 python"
    show = shlex.quote('import sys; print("%d.%d" % sys.version_info[:2])')
    # each candidate is run until every version has been found, and no further: a pyenv shim
    # takes a tenth of a second or more, and a PATH may hold dozens of them
    need = shlex.quote(f" {' '.join(versions)} ")
    command = (
        f'need={need}; seen() {{ v=$("$1" -c {show} 2>/dev/null) || return 0; '
        'echo "$v"; case "$need" in *" $v "*) need="${need%%" $v "*} ${need#*" $v "}";; esac; '
        '[ "$need" != " " ] || { echo end; exit 0; }; }; '
        f"seen {shlex.quote(tox)}; IFS=:; for d in $PATH; do "
        f'for n in {names}; do p="$d/$n"; '
        f'if [ -f "$p" ] && [ -x "$p" ]; then seen "$p"; fi; done; done; '
        "echo end"
    )
    answered = probe(shell=shell, command=command, cwd=str(folder), env=env)
    if answered is None or answered[0] != 0:
        return []
    found = answered[1].decode("ascii", "replace").split()
    if found[-1:] != ["end"]:
        return []  # cut short
    return [version for version in versions if version not in found]
