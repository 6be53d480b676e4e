"""Whether the tox environment, nox session or npm script a check asks for is defined, where the
checks will run: the task-runner shape of :mod:`goalfile.commands.operands`.

`tox -e doc` where tox.ini (or tox.toml, ...) defines `docs` exits 254
(:mod:`goalfile.commands.toxenvs`), `nox -s test` where noxfile.py defines `tests` exits 3
("Sessions not found"), `npm run lnit` exits 1 ("Missing script"): each ran to its end, so
verify judges the row `unmet` until the work defines it. Each is read from its file as text
(noxfile.py through Python's parser, never run: it is the project's code); a file that is not
there or cannot be read whole, a check that names another file or folder (`nox -f`, `npm
--prefix`, a workspace), `npm run --if-present`, and a noxfile that could make sessions any
other way (a session made outside a decorator, a name not written out, an import of a module of
the project) are left alone.
"""

from __future__ import annotations

import ast
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from goalfile.commands.projectfile import read_whole

_NOX_SESSIONS = frozenset({"-s", "-e", "--session", "--sessions"})
_NOX_ELSEWHERE = frozenset({"-f", "--noxfile", "--noxfile-path"})
_NPM_RUN = frozenset({"run", "run-script", "rum", "urn"})
_NPM_SHORT = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop"}
_NPM_ELSEWHERE = ("--prefix", "-w", "--workspace", "--workspaces", "-ws", "--if-present", "-C")


def undefined(words: Sequence[str], folder: Path) -> str | None:
    """What the tox, nox or npm command ``words`` asks for that is defined nowhere in
    ``folder``, said for a note (with what the runner does then); None otherwise."""
    from goalfile.commands import toxenvs

    if not words:
        return None
    program = Path(words[0]).name
    tox = toxenvs.undefined(words, folder)
    if tox is not None:
        return (
            f"{tox.file} defines no environment {_named(tox.envs)} ({tox.where}): tox stops, "
            '"provided environments not found in configuration file", exit 254, and verify '
            "judges the row `unmet`"
        )
    if program == "nox":
        sessions = _nox_undefined(words, folder)
        if sessions:
            return (
                f'noxfile.py defines no session {_named(sessions)}: nox stops, "Sessions not '
                'found", exit 3, and verify judges the row `unmet`'
            )
    if program == "npm":
        script = _npm_undefined(words, folder)
        if script is not None:
            return (
                f'package.json has no script `{script}`: npm stops, "Missing script", exit 1, '
                "and verify judges the row `unmet`"
            )
    return None


def _named(things: Sequence[str]) -> str:
    return ", ".join(f"`{thing}`" for thing in things)


def _read(path: Path) -> str | None:
    data = read_whole(path)
    try:
        return None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _nox_undefined(words: Sequence[str], folder: Path) -> list[str] | None:
    asked: list[str] = []
    taking = False
    for word in words[1:]:
        if word == "--":
            break
        if word.split("=", 1)[0] in _NOX_ELSEWHERE:
            return None
        if word.startswith("-"):
            name, eq, value = word.partition("=")
            taking = name in _NOX_SESSIONS
            if taking and eq:
                asked.append(value)
                taking = False
        elif taking:
            asked.append(word)
    if not asked:
        return None
    defined = _nox_sessions(folder / "noxfile.py")
    if defined is None:
        return None
    gone = [
        name
        for name in asked
        if not any(name == d or name.startswith((f"{d}-", f"{d}(")) for d in defined)
    ]
    return gone or None


def _nox_sessions(noxfile: Path) -> set[str] | None:
    """The session names the decorators of ``noxfile`` give; None when it could make others."""
    text = _read(noxfile)
    if text is None:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    decorators: set[int] = set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or not _outside(node.module)):
            return None
        if isinstance(node, ast.Import) and not all(_outside(a.name) for a in node.names):
            return None
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call is not None else decorator
            if not _is_session(target):
                continue
            decorators.add(id(decorator))
            name: object = node.name
            for keyword in call.keywords if call is not None else ():
                if keyword.arg == "name":
                    name = keyword.value.value if isinstance(keyword.value, ast.Constant) else 0
                elif keyword.arg is None:
                    return None  # **options: the name may be in them
            if not isinstance(name, str):
                return None
            names.add(name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_session(node.func) and id(node) not in decorators:
            return None  # a session made by a call
    return names


def _is_session(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "session" and isinstance(node.value, ast.Name)
    return isinstance(node, ast.Name) and node.id == "session"


def _outside(module: str | None) -> bool:
    """Whether ``module`` comes from outside the project (nox, or Python's own library)."""
    top = (module or "").split(".")[0]
    return top in ("nox", "nox_uv") or top in sys.stdlib_module_names


def _npm_undefined(words: Sequence[str], folder: Path) -> str | None:
    rest = [word for word in words[1:]]
    if any(word.split("=", 1)[0] in _NPM_ELSEWHERE for word in rest) or "--" in rest[:1]:
        return None
    plain = [word for word in rest if not word.startswith("-")]
    if not plain:
        return None
    if plain[0] in _NPM_RUN:
        if len(plain) < 2:
            return None
        script = plain[1]
    elif plain[0] in _NPM_SHORT:
        script = _NPM_SHORT[plain[0]]
        if script == "start" and (folder / "server.js").exists():
            return None  # npm start runs `node server.js` then
    else:
        return None
    text = _read(folder / "package.json")
    if text is None:
        return None
    try:
        package = json.loads(text)
    except ValueError:
        return None
    if not isinstance(package, dict):
        return None
    scripts = package.get("scripts", {})
    if not isinstance(scripts, dict) or script in scripts:
        return None
    return script
