"""goalfile's module-level regular expressions, made from their compiled form at start.

Every ``re.compile`` that a goalfile module runs at import parses its pattern and compiles it
in Python (``re._parser``, ``re._compiler``) at every start of a process: 92 patterns, about
16 M instructions for the 35 a one-row ``verify`` compiles, a quarter of what it costs beyond
importing its libraries (docs/performance.md). :data:`goalfile.patterntable.PATTERNS` holds
what ``re._compiler.compile`` hands the regular-expression engine for each (its code, flags and
groups), written by ``python -m goalfile.patterncache``; :func:`preload` makes each pattern
from it with the engine's own constructor and puts it in ``re``'s cache under the key
``re.compile`` looks for, so that the module's own ``re.compile`` finds it there.

The pattern made is the one ``re.compile`` makes (equal by the engine's comparison, which
compares the code; tests/test_pattern_cache.py checks every entry). Only an interpreter whose
engine reads the same code takes the table (the same minor version, engine ``MAGIC`` and code
size); any other compiles as before, and so does a pattern the table does not hold (a module
changed since the table was written). The goalfile program preloads (:mod:`goalfile.cli`, once
``--version`` and ``--help``, which compile nothing, are answered); a program that imports
goalfile's modules compiles them as before."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start
if TYPE_CHECKING:
    from types import FrameType

TABLE = "patterntable.py"


def preload() -> None:
    """Put the table's patterns into ``re``'s cache, when this interpreter can take them."""
    from goalfile import patterntable

    if sys.version_info[:2] != patterntable.VERSION or sys.byteorder != "little":
        return
    import _sre  # type: ignore[import-not-found]  # the regular-expression engine
    import re

    if (_sre.MAGIC, _sre.CODESIZE) != (patterntable.MAGIC, patterntable.CODESIZE):
        return
    cache = re._cache  # type: ignore[attr-defined]  # re.compile's: (type, pattern, flags)
    make = _sre.compile
    for pattern, flags, compiled, groups, names, code in patterntable.PATTERNS:
        index: list[str | None] = [None] * (groups + 1)
        for name, number in names.items():
            index[number] = name
        code_list = memoryview(code).cast("I").tolist()
        cache[str, pattern, flags] = make(pattern, compiled, code_list, groups, names, tuple(index))


def entry(pattern: str, flags: int) -> tuple[str, int, int, int, dict[str, int], bytes]:
    """The table's entry for ``pattern`` with ``flags``: what ``re._compiler.compile`` (Python
    3.11's) hands ``_sre.compile``, the code as native unsigned ints."""
    from array import array
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    state = parsed.state
    return (
        pattern,
        flags,
        flags | state.flags,
        state.groups - 1,
        dict(state.groupdict),
        (array("I", code).tobytes()),
    )


def module_patterns() -> list[tuple[str, int]]:
    """Every pattern text and flags that importing goalfile's modules compiles (in import
    order, each once): those ``re.compile`` runs at import, in a module of goalfile."""
    import importlib
    import pkgutil
    import re

    import goalfile

    found: list[tuple[str, int]] = []
    compile_ = re._compile  # type: ignore[attr-defined]

    def recording(pattern: object, flags: object) -> object:
        if isinstance(pattern, str):
            key = (pattern, int(flags))  # type: ignore[call-overload]
            caller: FrameType | None = sys._getframe(1)
            while caller is not None and caller.f_globals.get("__name__") in ("re", "functools"):
                caller = caller.f_back
            module = caller.f_globals.get("__name__", "") if caller is not None else ""
            if module.startswith("goalfile.") and key not in found:
                found.append(key)
        return compile_(pattern, flags)

    re._compile = recording  # type: ignore[attr-defined]
    try:
        for module in pkgutil.walk_packages(goalfile.__path__, "goalfile."):
            if module.name not in ("goalfile.__main__", "goalfile.patterntable"):
                importlib.import_module(module.name)
    finally:
        re._compile = compile_  # type: ignore[attr-defined]
    return found


def table_text() -> str:
    """The text of goalfile/patterntable.py for this interpreter and goalfile's modules now."""
    import _sre

    lines = [
        '"""Written by ``python -m goalfile.patterncache`` (see :mod:`goalfile.patterncache`):',
        "each module-level pattern of goalfile's as ``re._compiler.compile`` hands it to the",
        "engine: the pattern, its flags, the flags compiled, the number of groups, the named",
        'groups and the code (unsigned ints of the engine\'s code size, little-endian)."""',
        "",
        f"VERSION = {tuple(sys.version_info[:2])!r}",
        f"MAGIC = {_sre.MAGIC!r}",
        f"CODESIZE = {_sre.CODESIZE!r}",
        "PATTERNS: tuple[tuple[str, int, int, int, dict[str, int], bytes], ...] = (",
    ]
    for pattern, flags in module_patterns():
        text, flags, compiled, groups, names, code = entry(pattern, flags)
        lines.append(f"    ({text!r}, {flags}, {compiled}, {groups}, {names!r},")
        hexed = code.hex()
        lines.append("     bytes.fromhex(")
        lines.extend(f'         "{hexed[at : at + 80]}"' for at in range(0, len(hexed), 80))
        lines.append("     )),")
    lines.append(")")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    from pathlib import Path

    Path(__file__).with_name(TABLE).write_text(table_text(), encoding="utf-8")
