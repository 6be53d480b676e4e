"""Whether the files a linter or a script runner check names are there, where the checks will
run: the shape of :mod:`goalfile.commands.operands` for programs that read the paths they are
given.

`flake8 markdown/nope.py` reports E902 and exits 1, `mypy src/nope.py` exits 2, `node nope.js`
exits 1, `sh tools/nope.sh` exits 2 where sh is dash: each ran to its end, so verify judges the
row `unmet` until the file is there. `bash tools/nope.sh` exits 127, the status a shell gives a
command it did not find, so verify judges that row `error`, which blocks the goal. Only a word
that looks like a path is taken for one (it holds a `/` or ends in a source file's suffix), and
not the word after a long option that may take a value (`--output-file out/report.txt`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

_LINTERS = frozenset(
    {"flake8", "pyflakes", "pycodestyle", "mypy", "pylint", "black", "isort", "shellcheck"}
)
_RUFF_READS = frozenset({"check", "format"})
_RUNNERS = frozenset({"sh", "bash", "dash", "zsh", "node"})  # each runs the script it is given
_SUFFIXES = (".py", ".pyi", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts")
# long options of these programs that take no value: the word after one is a path
_FLAGS = frozenset(
    {
        "--check", "--diff", "--fix", "--no-fix", "--strict", "--quiet", "--verbose",
        "--show-source", "--statistics", "--count", "--preview", "--exit-zero",
        "--ignore-missing-imports", "--pretty", "--no-cache", "--exit-non-zero-on-fix",
        "--check-only", "--errors-only", "--fast", "--show-error-codes", "--warn-unused-ignores",
        "--disallow-untyped-defs", "--no-error-summary",
    }
)  # fmt: skip


# short options of these programs that may take the next word (`ruff check -o out/r.txt`,
# `mypy -c TEXT`, `shellcheck -e SC1091`): that word is not read as a path
_SHORT_VALUE = frozenset({"-o", "-c", "-m", "-p", "-j", "-l", "-t", "-e", "-x", "-W", "-f", "-s"})


def named_files(words: Sequence[str]) -> list[str] | None:
    """The paths the linter or script runner command ``words`` reads; None when it is none of
    them (or a runner given text to run: `sh -c`, `node -e`)."""
    if not words:
        return None
    program = Path(words[0]).name
    rest = list(words[1:])
    if program == "ruff":
        if not rest or rest[0] not in _RUFF_READS:
            return None
        rest = rest[1:]
    elif program in _RUNNERS:
        options = [word for word in rest if word.startswith("-")]
        if program == "node" and any(o in ("-e", "-p", "--eval", "--print") for o in options):
            return None
        if program != "node" and any(o[1:2] != "-" and "c" in o for o in options):
            return None  # sh -c TEXT, bash -ec TEXT
        script = next((word for word in rest if not word.startswith("-")), None)
        return [script] if script is not None and _looks_like_path(script) else []
    elif program not in _LINTERS:
        return None
    paths: list[str] = []
    value = False
    for word in rest:
        if value:
            value = False
        elif word.startswith("--"):
            value = "=" not in word and word not in _FLAGS
        elif word in _SHORT_VALUE:
            value = True
        elif not word.startswith("-") and _looks_like_path(word):
            paths.append(word)
    return paths


def _looks_like_path(word: str) -> bool:
    return "/" in word or word.endswith(_SUFFIXES)


def outcome(words: Sequence[str]) -> str:
    """What the command ``words`` does when a file :func:`named_files` names is not there, and
    what verify makes of it, for a note."""
    program = Path(words[0]).name
    if program in ("bash", "zsh"):
        return (
            f"{program} exits 127, the status of a command not found, and verify judges the row "
            "`error`, which blocks the goal,"
        )
    if program in ("sh", "dash"):
        return (
            f"{program} exits 2 (127 where it is bash: an `error` row, which blocks the goal), "
            "and verify judges the row `unmet`"
        )
    return (
        "it reports its own error (an exit status other than 0), and verify judges the row `unmet`"
    )
