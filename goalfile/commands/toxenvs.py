"""Which tox environments a `tox -e ENV` check asks for that its tox.ini defines nowhere.

tox 4 refuses an environment name made of a factor that its configuration never names:
`tox -e doc` where tox.ini has `docs` prints "provided environments not found in configuration
file" and exits 254. tox ran to its end, so verify judges the row `unmet`, until tox.ini
defines it. This reads tox.ini as text (it runs nothing: tox itself would load a `toxfile.py`
of the repository, and build the package) and takes as known every factor of: the names its
`envlist` expands to (`py{310,311}-x`, `py3{10-13}`), its `[testenv:NAME]` sections, and the
conditional settings of [tox] and the testenv sections (`coverage: coverage report`). A name is
named only when one of its factors is none of those and no Python tox finds by name (`py312`,
`pypy3`, `3.13t`). A check
that gives tox another configuration (`-c`, `--root`), a folder with no tox.ini or with a
toxfile.py (a plugin may add environments), and an ini it cannot read are left alone.
"""

from __future__ import annotations

import configparser
import itertools
import re
from collections.abc import Sequence
from pathlib import Path

from goalfile.commands.projectfile import read_whole

# the factors tox takes for a Python of that name, as tox 4 reads them
_PYTHON = re.compile(
    r"(?:pypy|py|cpython|jython|graalpy|rustpython|ironpython|)"
    r"(?:(?:\d(?:\.\d+(?:\.\d+)?)?|\d+)t?d?)?|alpha|beta|rc\.\d+"
)
_RUNS = frozenset({"run", "r", "run-parallel", "p", "exec", "e", "legacy", "le"})
_ELSEWHERE = frozenset({"-c", "--conf", "--root", "--workdir"})
_CONDITION = re.compile(r"^\s*([\w.{},!-]+):(?:\s|$)")
_BRACES = re.compile(r"\{([^{}]*)\}")
_RANGE = re.compile(r"(\d+)-(\d+)")


def asked(words: Sequence[str]) -> list[str] | None:
    """The environments a tox command asks for with `-e`; None when it is none, asks for none,
    or reads another configuration."""
    if not words:
        return None
    rest = list(words[1:])
    if Path(words[0]).name != "tox":
        if not (re.fullmatch(r"python[0-9.]*", Path(words[0]).name) and rest[:2] == ["-m", "tox"]):
            return None
        rest = rest[2:]
    if rest and not rest[0].startswith("-"):
        if rest[0] not in _RUNS:
            return None
        rest = rest[1:]
    envs: list[str] = []
    at = 0
    while at < len(rest) and rest[at] != "--":
        word = rest[at]
        if word.split("=", 1)[0] in _ELSEWHERE:
            return None
        if word == "-e" and at + 1 < len(rest):
            envs.extend(rest[at + 1].split(","))
            at += 1
        elif word.startswith("-e") and len(word) > 2:
            envs.extend(word[2:].lstrip("=").split(","))
        at += 1
    envs = [env.strip() for env in envs if env.strip()]
    return envs or None


def undefined(words: Sequence[str], folder: Path) -> list[str] | None:
    """The environments the tox command ``words`` asks for that the tox.ini of ``folder``
    defines nowhere; None when there are none or it cannot be told."""
    envs = asked(words)
    if envs is None or (folder / "toxfile.py").exists():
        return None
    factors = _known_factors(folder / "tox.ini")
    if factors is None:
        return None
    gone = [
        env
        for env in envs
        if env != "ALL"
        and not env.startswith(".pkg")
        and any(f not in factors and not _PYTHON.fullmatch(f) for f in env.split("-"))
    ]
    return gone or None


def _known_factors(ini: Path) -> set[str] | None:
    """Every factor tox.ini names (see the module's text); None when it cannot be read."""
    data = read_whole(ini)
    if data is None:
        return None
    parser = configparser.RawConfigParser(interpolation=None)  # strict, as tox reads it
    try:
        parser.read_string(data.decode("utf-8"))
    except (configparser.Error, UnicodeDecodeError):
        return None
    names: list[str] = []
    if parser.has_section("tox"):
        for key in ("envlist", "env_list"):
            value = parser.get("tox", key, fallback="")
            names += [item for line in value.splitlines() for item in _items(line)]
    for section in parser.sections():
        if section.startswith("testenv:"):
            names.append(section.split(":", 1)[1].strip())
        if section in ("tox", "testenv") or section.startswith("testenv:"):
            for _, value in parser.items(section):
                for line in value.splitlines():
                    condition = _CONDITION.match(line)
                    if condition is not None:
                        names += condition.group(1).replace("!", "").split(",")
    factors: set[str] = set()
    for name in names:
        expanded = _expand(name.strip())
        if expanded is None:
            return None
        factors.update(part for each in expanded for part in each.split("-"))
    return factors


def _items(line: str) -> list[str]:
    """The comma-separated items of one envlist line, keeping the commas inside braces."""
    items: list[str] = []
    current: list[str] = []
    depth = 0
    for char in line.split("#", 1)[0]:
        depth += (char == "{") - (char == "}")
        if char == "," and depth == 0:
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    items.append("".join(current))
    return [item.strip() for item in items if item.strip()]


def _expand(name: str) -> list[str] | None:
    """The names a generative name expands to (`py{310,311}-x` → `py310-x`, `py311-x`; a range
    `{10-13}` → 10, 11, 12, 13); None for braces it cannot read."""
    pieces: list[list[str]] = []
    at = 0
    for found in _BRACES.finditer(name):
        pieces.append([name[at : found.start()]])
        choices: list[str] = []
        for choice in found.group(1).split(","):
            numbers = _RANGE.fullmatch(choice.strip())
            if numbers is not None and int(numbers[2]) - int(numbers[1]) < 100:
                choices += [str(n) for n in range(int(numbers[1]), int(numbers[2]) + 1)]
            else:
                choices.append(choice.strip())
        pieces.append(choices)
        at = found.end()
    pieces.append([name[at:]])
    if any(char in "{}" for piece in pieces for text in piece for char in text):
        return None
    return ["".join(chosen) for chosen in itertools.product(*pieces)]
