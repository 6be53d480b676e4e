"""The methods ``dataclasses`` writes for goalfile's value classes, compiled with the package
instead of at every start of the goalfile program.

For each class, ``@dataclass`` writes the source text of every method it adds (``__init__``;
``__setattr__`` and ``__delattr__`` of a frozen class; ``__eq__``, ``__hash__``...) and compiles
it with ``exec``: a one-row ``verify`` compiled 117 such texts, 5 to 10 ms of a start of about
100 (see docs/performance.md, the tenth pass). :mod:`goalfile.dataclassmethods` holds the texts
of the classes of :data:`MODULES` (those a one-row verify, ``status`` and the Stop hook on a met
goal build), each written out as the function definition it is, so that Python compiles it
once into the module's bytecode cache, as it compiles every module. The goalfile program calls
:func:`install` before it loads a command; ``dataclasses`` then takes the compiled code of a
text the module holds, with the globals it would have compiled the text with, and compiles any
other text as before. The classes are the same: same methods, same code, same globals.

Only under the Python version the module was written for (``dataclasses`` writes other texts
in other versions, and has no ``_create_fn`` from 3.13 on), and only in the goalfile program:
importing goalfile as a library changes nothing in ``dataclasses``.

``python -m goalfile.dataclasscode`` writes the module again; ``tests/test_dataclasscode.py``
fails when it is not current, and checks that each definition compiles from its text to the same
code.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

# the modules whose classes' methods are kept: those a one-row verify, status and the Stop hook
# on a met goal import (tests/test_dataclasscode.py checks that those commands compile no text
# of a goalfile class)
MODULES = (
    "goalfile.model",
    "goalfile.ledger",
    "goalfile.handedit",
    "goalfile.expect",
    "goalfile.contract",
    "goalfile.gfmview",
    "goalfile.hidden",
    "goalfile.run",
    "goalfile.tail",
    "goalfile.gitdeadline",
    "goalfile.hookwatch",
    "goalfile.commands.context",
    "goalfile.commands.checking",
    "goalfile.commands.workdir",
    "goalfile.commands.verify",
    "goalfile.commands.status",
    "goalfile.commands.focus",
    "goalfile.commands.focusrule",
    "goalfile.commands.hook",
)
MISSED: list[str] = []  # the modules of the goalfile classes whose texts were compiled here


def text(name: str, args: Iterable[str], body: Iterable[str], names: Iterable[str]) -> str:
    """The text ``dataclasses._create_fn`` compiles for a method ``name`` with the arguments
    ``args`` and the lines ``body``, made by a function whose arguments are ``names`` (its
    ``locals``, with ``_return_type`` last when a return type is given)."""
    returns = "->_return_type" if "_return_type" in names else ""
    lines = "\n".join(f"  {line}" for line in body)
    method = f" def {name}({','.join(args)}){returns}:\n{lines}"
    return f"def __create_fn__({', '.join(names)}):\n{method}\n return {name}"


def install() -> None:
    """Have ``dataclasses`` take the methods of :mod:`goalfile.dataclassmethods` instead of
    compiling their texts (once per process; nothing under another Python version)."""
    if not _compiled():
        return
    import dataclasses

    from goalfile import dataclassmethods

    original = getattr(dataclasses, "_create_fn", None)
    if sys.version_info[:2] != dataclassmethods.PYTHON or original is None:
        return
    if getattr(original, "__module__", None) == __name__:
        return  # installed already
    creator = _creator(original, dataclassmethods.CODE, dataclasses.MISSING)
    dataclasses._create_fn = creator  # type: ignore[attr-defined]


def _compiled() -> bool:
    """Whether importing :mod:`goalfile.dataclassmethods` reads its compiled bytecode: when
    Python may not write any (``PYTHONDONTWRITEBYTECODE``, as in a source tree run so), only
    if a cached copy at least as new as the module is there. Compiling the module's source
    at every start would cost more than the texts it holds (17 ms against 5 to 10)."""
    if not sys.dont_write_bytecode:
        return True  # the first import writes it, if it is not there already
    import os

    folder = os.path.dirname(__file__)
    source = os.path.join(folder, "dataclassmethods.py")
    cached = os.path.join(
        folder, "__pycache__", f"dataclassmethods.{sys.implementation.cache_tag}.pyc"
    )
    try:
        return sys.pycache_prefix is None and os.stat(cached).st_mtime >= os.stat(source).st_mtime
    except OSError:
        return False


def _creator(original: Callable[..., Any], code: dict[str, Any], missing: object) -> Any:
    """A ``dataclasses._create_fn`` that takes the code of a text in ``code`` and hands any
    other to ``original``."""
    from types import FunctionType

    def _create_fn(
        name: str,
        args: Iterable[str],
        body: Iterable[str],
        *,
        globals: dict[str, Any] | None = None,  # (dataclasses' own names)
        locals: dict[str, Any] | None = None,
        return_type: object = missing,
    ) -> Any:
        given = {} if locals is None else locals
        names = [*given] if return_type is missing else [*given, "_return_type"]
        found = code.get(text(name, args, body, names)) if globals is not None else None
        if found is None or globals is None:
            if globals is not None and str(globals.get("__name__")).startswith("goalfile."):
                MISSED.append(str(globals["__name__"]))
            return original(
                name, args, body, globals=globals, locals=locals, return_type=return_type
            )
        if return_type is not missing:
            given["_return_type"] = return_type  # as the original does with its locals
        return FunctionType(found, globals)(**given)

    return _create_fn


def written() -> str:
    """The text of goalfile/dataclassmethods.py for the classes of :data:`MODULES`, as this
    Python's ``dataclasses`` writes their methods (to run in a process that has imported none
    of them yet)."""
    import dataclasses
    import importlib

    texts: dict[str, None] = {}
    original = dataclasses._create_fn  # type: ignore[attr-defined]

    def recording(name: str, args: Any, body: Any, **options: Any) -> Any:
        globals_ = options.get("globals") or {}
        if globals_.get("__name__") in MODULES:
            names = [*(options.get("locals") or {})]
            if options.get("return_type", dataclasses.MISSING) is not dataclasses.MISSING:
                names.append("_return_type")
            texts.setdefault(text(name, args, body, names), None)
        return original(name, args, body, **options)

    dataclasses._create_fn = recording  # type: ignore[attr-defined]
    try:
        for module in MODULES:
            importlib.import_module(module)
    finally:
        dataclasses._create_fn = original  # type: ignore[attr-defined]
    version = sys.version_info[:2]
    out = [
        '"""The methods ``dataclasses`` writes for the value classes of goalfile\'s light',
        "commands, each written out as the definition of the text it compiles (see",
        ":mod:`goalfile.dataclasscode`). Written by ``python -m goalfile.dataclasscode``: do not",
        'edit."""',
        "",
        "# mypy: ignore-errors",
        "",
        f"PYTHON = {version!r}",
        "CODE = {}",
    ]
    for source in texts:
        out += ["", source, f"CODE[{source!r}] = __create_fn__.__code__"]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    from pathlib import Path

    target = Path(__file__).with_name("dataclassmethods.py")
    target.write_text(written(), encoding="utf-8")
    print(f"wrote {target}")
