"""Which tox environments a `tox -e ENV` check asks for that its configuration defines nowhere.

tox 4 refuses an environment name made of a factor that its configuration never names:
`tox -e doc` where it defines `docs` prints "provided environments not found in configuration
file" and exits 254. tox ran to its end, so verify judges the row `unmet`, until the
configuration defines it. The configuration is the first of the files tox 4 takes, in its order:
tox.ini, setup.cfg with a [tox:tox] section, pyproject.toml with a [tool.tox] table (its
`legacy_tox_ini` text read as a tox.ini), tox.toml. It is read as text (nothing is run: tox
itself would load a `toxfile.py` of the repository, and build the package) and every factor of
these is taken as known: for the ini forms, the names its `envlist` expands to
(`py{310,311}-x`, `py3{10-13}`), its `[testenv:NAME]` sections, and the conditional settings of
its core section and the testenv sections (`coverage: coverage report`); for the TOML forms,
the names of its `env_list` (a `product` of lists and ranges expanded), its `env` tables and
the environments of its `env_base` tables. A name is named only when one of its factors is none
of those and no Python tox finds by name (`py312`, `pypy3`, `3.13t`). A check that gives tox
another configuration (`-c`, `--root`), a folder with none of these or with a toxfile.py (a
plugin may add environments), a file tox would take that cannot be read, and a TOML shape not
read here are left alone.
"""

from __future__ import annotations

import configparser
import itertools
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

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
MAX_NAMES = 10_000  # names a generative envlist name may expand to before it is not told


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


class Undefined(NamedTuple):
    """The environments a check asks for that ``file`` (tox's configuration) defines nowhere,
    and where in it tox looks for them (for the note)."""

    file: str
    where: str
    envs: list[str]


_INI_WHERE = "a [testenv:NAME] section or a factor of a setting"


def undefined(words: Sequence[str], folder: Path) -> Undefined | None:
    """The environments the tox command ``words`` asks for that the tox configuration of
    ``folder`` defines nowhere; None when there are none or it cannot be told."""
    envs = asked(words)
    if envs is None or (folder / "toxfile.py").exists():
        return None
    found = _configuration(folder)
    if found is None:
        return None
    file, where, factors = found
    gone = [
        env
        for env in envs
        if env != "ALL"
        and not env.startswith(".pkg")
        and any(f not in factors and not _PYTHON.fullmatch(f) for f in env.split("-"))
    ]
    return Undefined(file, where, gone) if gone else None


def configuration_file(folder: Path) -> str | None:
    """The name of the file tox 4 takes its configuration from in ``folder``; None when there
    is none or it cannot be read."""
    found = _configuration(folder)
    return None if found is None else found[0]


def _configuration(folder: Path) -> tuple[str, str, set[str]] | None:
    """The file tox 4 takes its configuration from in ``folder``, where it names environments,
    and every factor it names; None when there is none, or the one tox takes cannot be read."""
    ini = folder / "tox.ini"
    if ini.exists():
        text = _text(ini)
        factors = None if text is None else _ini_factors(text, "tox")
        return None if factors is None else ("tox.ini", f"in its envlist, {_INI_WHERE}", factors)
    setup = folder / "setup.cfg"
    if setup.exists():
        text = _text(setup)
        parser = None if text is None else parse_ini(text)
        if parser is None:
            return None  # tox stops on a setup.cfg it cannot read
        if parser.has_section("tox:tox"):
            factors = _ini_factors(text or "", "tox:tox")
            where = f"in the envlist of [tox:tox], {_INI_WHERE}"
            return None if factors is None else ("setup.cfg", where, factors)
    pyproject = folder / "pyproject.toml"
    if pyproject.exists():
        table = _toml(pyproject)
        if table is None:
            return None
        tool = table.get("tool")
        tox = tool.get("tox") if isinstance(tool, dict) else None
        if isinstance(tox, dict) and set(tox) - {"legacy_tox_ini"}:
            factors = _toml_factors(tox)
            where = "in [tool.tox]'s env_list, a [tool.tox.env.NAME] table or an env_base"
            return None if factors is None else ("pyproject.toml", where, factors)
        if isinstance(tox, dict) and "legacy_tox_ini" in tox:
            legacy = tox["legacy_tox_ini"]
            factors = _ini_factors(legacy, "tox") if isinstance(legacy, str) else None
            where = f"in the envlist of its tool.tox.legacy_tox_ini, {_INI_WHERE}"
            return None if factors is None else ("pyproject.toml", where, factors)
    toml = folder / "tox.toml"
    if toml.exists():
        table = _toml(toml)
        factors = None if table is None else _toml_factors(table)
        where = "in its env_list, an [env.NAME] table or an env_base"
        return None if factors is None else ("tox.toml", where, factors)
    return None


def _text(path: Path) -> str | None:
    data = read_whole(path)
    try:
        return None if data is None else data.decode("utf-8-sig")  # as tox reads it
    except UnicodeDecodeError:
        return None


def parse_ini(text: str) -> configparser.RawConfigParser | None:
    """The ini-form configuration ``text`` as tox reads it; None when it does not parse."""
    parser = configparser.RawConfigParser(interpolation=None)  # strict, as tox reads it
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return parser


def _toml(path: Path) -> dict[str, object] | None:
    import tomllib

    text = _text(path)
    try:
        return None if text is None else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):  # Recursion: arrays nested deep
        return None


def _ini_factors(text: str, core: str) -> set[str] | None:
    """Every factor an ini configuration names, its core section ``core`` (see the module's
    text); None when it cannot be read."""
    parser = parse_ini(text)
    if parser is None:
        return None
    names: list[str] = []
    if parser.has_section(core):
        for key in ("envlist", "env_list"):
            value = parser.get(core, key, fallback="")
            names += [item for line in value.splitlines() for item in _items(line)]
    # the sections tox takes conditional settings from: the core one, the [testenv:NAME]
    # ones, and [testenv] under the core's prefix ([tox:testenv] in setup.cfg, where a plain
    # [testenv]'s are not taken)
    prefix = f"{core.split(':', 1)[0]}:" if ":" in core else ""
    for section in parser.sections():
        if section.startswith("testenv:"):
            names.append(section.split(":", 1)[1].strip())
        under = section[len(prefix) :] if section.startswith(prefix) else ""
        if section in (core, f"{prefix}testenv") or under.startswith("testenv:"):
            for _, value in parser.items(section):
                for line in value.splitlines():
                    condition = _CONDITION.match(line)
                    if condition is not None:
                        names += condition.group(1).replace("!", "").split(",")
    factors: set[str] = set()
    for name in names:
        expanded = expand(name.strip())
        if expanded is None:
            return None
        factors.update(part for each in expanded for part in each.split("-"))
    return factors


def _toml_factors(table: dict[str, object]) -> set[str] | None:
    """Every factor a TOML configuration (tox.toml, or pyproject.toml's [tool.tox]) names:
    of its env_list, its env tables and its env_base tables; None for a shape not read here."""
    names: list[str] = []
    env_list = table.get("env_list", [])
    if not isinstance(env_list, list):
        return None
    for item in env_list:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, dict) and set(item) == {"product"}:
            found = _product_factors(item["product"], prefix=None)
            if found is None:
                return None
            names += found
        else:
            return None
    envs = table.get("env", {})
    if not isinstance(envs, dict):
        return None
    names += [name for name in envs if isinstance(name, str)]
    bases = table.get("env_base", {})
    if not isinstance(bases, dict):
        return None
    for base, config in bases.items():
        factors = config.get("factors") if isinstance(config, dict) else None
        if not isinstance(factors, list):
            return None
        if factors and all(isinstance(f, str) for f in factors):
            names += [base, *factors]
            continue
        found = _product_factors(factors, prefix=base)
        if found is None:
            return None
        names += found
    return {part for name in names for part in (name, *name.split("-"))}


def _product_factors(groups: object, prefix: str | None) -> list[str] | None:
    """The factors of the names a `product` of factor groups makes (each a list of names, or a
    range `{prefix = "py3", start = 10, stop = 13}`), joined by `-`: each group's values, none
    when a group is empty (the product makes no name); None for another shape. The names
    themselves are not made: seven groups of thirty are 22 billion of them."""
    if not isinstance(groups, list):
        return None
    values: list[list[str]] = [[prefix]] if prefix is not None else []
    for group in groups:
        if isinstance(group, list) and all(isinstance(v, str) for v in group):
            values.append(list(group))
        elif (
            isinstance(group, dict)
            and set(group) == {"prefix", "start", "stop"}
            and isinstance(group["prefix"], str)
            and all(type(group[k]) is int for k in ("start", "stop"))
            and 0 <= group["stop"] - group["start"] < 100
        ):
            values.append(
                [f"{group['prefix']}{n}" for n in range(group["start"], group["stop"] + 1)]
            )
        else:
            return None
    return [] if not all(values) else [value for group in values for value in group]


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


def expand(name: str) -> list[str] | None:
    """The names a generative name expands to (`py{310,311}-x` → `py310-x`, `py311-x`; a range
    `{10-13}` → 10, 11, 12, 13); None for braces it cannot read, or more than
    :data:`MAX_NAMES` names."""
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
    if math.prod(len(piece) for piece in pieces) > MAX_NAMES:
        return None  # seven braces of thirty choices are 22 billion names: not told
    return ["".join(chosen) for chosen in itertools.product(*pieces)]
