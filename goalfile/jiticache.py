"""The entries of jiti's file cache that pi would run in place of a source file.

pi (0.73.1) loads a TypeScript extension with jiti (2.7.0), which transpiles it and keeps the
output in ``$TMPDIR/jiti`` (Node's ``os.tmpdir()``: ``TMPDIR``, ``TMP``, ``TEMP``, else
``/tmp``). The entry of a source is named after its folder, its name without the suffix, and
the first 8 hex digits of the md5 of its path; jiti uses an entry in place of transpiling when
its text ends with `` /* v9-T */`` and a newline, T the first 16 hex digits of the md5 of the
source's text. Any process of the user can compute both and write the entry, so an entry that
would be used is named, whoever wrote it.

An ES module (``.mjs``) is imported by Node as it is: jiti neither transpiles nor caches it,
unless Node's import of it fails. jiti hands Node the bare path, which Node reads as a URL, so
a path that holds ``#``, ``?``, ``%``, a tab or a line break names another file, the import
fails, and jiti transpiles the module and caches it like any other (:func:`imported_as_is`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from goalfile.errors import GoalfileError
from goalfile.files import read_regular

__all__ = ["URL_BREAKERS", "cache_dir", "entries_used", "imported_as_is"]

CACHE_VERSION = "9"  # jiti 2.7.0
URL_BREAKERS = "#?%\t\n\r"  # read as a URL's fragment, query, escape, or dropped


def imported_as_is(module: Path) -> bool:
    """Whether pi's jiti imports the ES module at ``module`` (its absolute path) natively, with
    no transpile and no cache: its path holds none of :data:`URL_BREAKERS`."""
    return not any(char in str(module) for char in URL_BREAKERS)


def cache_dir(env: Mapping[str, str]) -> Path:
    """Where jiti keeps its cache for pi: ``os.tmpdir()`` of pi's environment, then ``jiti``."""
    for name in ("TMPDIR", "TMP", "TEMP"):
        given = env.get(name)
        if given:
            base = given.rstrip("/") or "/"
            return Path(base) / "jiti"
    return Path("/tmp") / "jiti"


def _md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def _names(source: Path) -> list[str]:
    name = source.name
    stem = name[: name.rfind(".")] if name.rfind(".") > 0 else name
    key = _md5(str(source).encode("utf-8"))[:8]
    return [
        f"{source.parent.name}-{stem}{maps}{interop}.{key}.{kind}"
        for maps in ("", "+map")
        for interop in ("", ".i")
        for kind in ("mjs", "cjs")
    ]


def entries_used(source: Path, env: Mapping[str, str]) -> list[Path]:
    """The cache entries for ``source`` (an absolute path, as pi names it) that jiti would run
    instead of transpiling it: they end with the tag of its present text."""
    try:
        text = read_regular(source, what="pi extension")
    except (OSError, GoalfileError):
        return []
    tag = f" /* v{CACHE_VERSION}-{_md5(text)[:16]} */\n".encode()
    folder = cache_dir(env)
    found = []
    for name in _names(source):
        entry = folder / name
        try:
            if entry.is_file() and read_regular(entry, what="jiti cache entry").endswith(tag):
                found.append(entry)
        except (OSError, GoalfileError):
            continue
    return found
