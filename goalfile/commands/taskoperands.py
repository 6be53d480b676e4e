"""Whether the tox environment, nox session or npm, yarn or pnpm script a check asks for is
defined, where the checks will run: the task-runner shape of :mod:`goalfile.commands.operands`.

`tox -e doc` where tox.ini (or tox.toml, ...) defines `docs` exits 254
(:mod:`goalfile.commands.toxenvs`), `nox -s test` where noxfile.py defines `tests` exits 3
("Sessions not found"; so does `lint-3.11` where `lint` has `python="3.12"`, and `cover-3.12`
where `cover` has no `python=`), `yarn run lnit` and `pnpm run lnit` exit 1, `npm run lnit`
exits 1 ("Missing script"): each ran to its end, so verify judges the row `unmet` until the work
defines it. Each is read from its file as text (noxfile.py through Python's parser, never run:
it is the project's code); a file that is not there or cannot be read whole, a check that names
another file or folder (`nox -f`, `npm --prefix`, a workspace), `npm run --if-present`, and a
noxfile that could make sessions any other way (a session made outside a decorator, a name not
written out, an import of a module of the project) are left alone.
"""

from __future__ import annotations

import ast
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from goalfile.commands.projectfile import read_whole
from goalfile.value import Compared

_NOX_SESSIONS = frozenset({"-s", "-e", "--session", "--sessions"})
# another noxfile, or Pythons added to the sessions' own (`--extra-pythons 3.13`)
_NOX_ELSEWHERE = frozenset(
    {"-f", "--noxfile", "--noxfile-path", "--extra-pythons", "--extra-python", "-P",
     "--force-pythons", "--force-python"}
)  # fmt: skip


# written out on goalfile.value: a dataclass compiled its methods at every start of `activate`
class _Manager(Compared):
    """How a package manager runs a script of package.json, and what it says when it cannot."""

    __slots__ = ("elsewhere", "no_project", "no_script", "run", "short")

    def __init__(
        self,
        run: frozenset[str],
        short: dict[str, str],
        elsewhere: tuple[str, ...],
        no_project: str,
        no_script: str,
    ) -> None:
        self.run: Final = run  # `npm run X`
        self.short: Final = short  # `npm test` runs the script `test`
        # options naming another folder or package, or --if-present
        self.elsewhere: Final = elsewhere
        self.no_project: Final = no_project
        self.no_script: Final = no_script  # NAME: the script


# `yarn X` and `pnpm X` run a binary of node_modules/.bin when there is no script X: only
# `run` and `test` are read for them
_MANAGERS = {
    "npm": _Manager(
        frozenset({"run", "run-script", "rum", "urn"}),
        {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop"},
        ("--prefix", "-w", "--workspace", "--workspaces", "-ws", "--if-present", "-C"),
        '"Could not read package.json", exit 254',
        '"Missing script", exit 1',
    ),
    "pnpm": _Manager(
        frozenset({"run", "run-script"}),
        {"test": "test", "t": "test", "tst": "test"},
        (
            "-C",
            "--dir",
            "--filter",
            "-F",
            "-r",
            "--recursive",
            "-w",
            "--workspace-root",
            "--if-present",
            "--parallel",
            "--stream",
        ),
        '"No package.json ... was found", exit 1',
        '"Missing script: NAME", exit 1',
    ),
    "yarn": _Manager(
        frozenset({"run"}),
        {"test": "test"},
        ("--cwd", "--if-present"),
        '"Couldn\'t find a package.json file", exit 1',
        'saying Command "NAME" not found (Yarn 2 and later: Couldn\'t find a script named "NAME"), '
        "exit 1",
    ),
}


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
        if _nox_without_noxfile(words, folder):
            return (
                'there is no noxfile.py in the folder nox runs in: nox stops, "Failed to load '
                'Noxfile ... no such file exists", exit 2, and verify judges the row `unmet`'
            )
        sessions = _nox_undefined(words, folder)
        if sessions:
            gone, known = sessions
            return (
                f"noxfile.py defines no session {_named(gone)}{known}: nox stops, "
                '"Sessions not found", exit 3, and verify judges the row `unmet`'
            )
    manager = _MANAGERS.get(program)
    if manager is not None:
        if _npm_script(words, folder, manager) is not None and not _npm_prefix(folder):
            return (
                f"{program} finds no package.json in the folder it runs in or one above it: "
                f"{program} stops, {manager.no_project}, and verify judges the row `unmet`"
            )
        script = _npm_undefined(words, folder, manager)
        if script is not None:
            said = manager.no_script.replace("NAME", script)
            return (
                f"package.json has no script `{script}`: {program} stops, {said}, and verify "
                "judges the row `unmet`"
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


def _nox_undefined(words: Sequence[str], folder: Path) -> tuple[list[str], str] | None:
    """The sessions ``words`` asks for that noxfile.py does not define, and for those typed
    with a Python the session does not have (`lint-3.11`), the names it has."""
    asked: list[str] = []
    taking = False
    for word in words[1:]:
        if word == "--":
            break
        if _nox_option(word) in _NOX_ELSEWHERE:
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
    gone = [name for name in asked if not any(_nox_names(name, d, v) for d, v in defined.items())]
    if not gone:
        return None
    known = []
    for session, pythons in defined.items():
        if pythons is not None and any(name.startswith(f"{session}-") for name in gone):
            names = [session, *(f"{session}-{version}" for version in pythons)]
            known.append(f"`{session}` runs as {' or '.join(f'`{n}`' for n in names)}")
    return gone, f" ({'; '.join(known)})" if known else ""


def _nox_names(name: str, session: str, pythons: tuple[str, ...] | None) -> bool:
    """Whether ``name`` names the session ``session``, of the Pythons ``pythons`` (None: not
    known): nox names it `tests`, one of its Pythons `tests-3.12` (and no other), one of its
    parametrized runs `tests-3.12(x=1)`."""
    if pythons is None:
        return name == session or name.startswith((f"{session}-", f"{session}("))
    bases = (session, *(f"{session}-{version}" for version in pythons))
    return any(name == base or name.startswith(f"{base}(") for base in bases)


def _nox_pythons(
    value: ast.expr, lists: dict[str, tuple[str, ...] | None]
) -> tuple[str, ...] | None:
    """The Pythons a session's `python=` gives (a string, a list or tuple of strings, or a
    module-level name bound once to one); () for none (None, True, False); None when it is
    anything else."""
    if isinstance(value, ast.Constant) and (value.value is None or isinstance(value.value, bool)):
        return ()
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return (value.value,)
    if isinstance(value, ast.List | ast.Tuple) and all(
        isinstance(item, ast.Constant) and isinstance(item.value, str) for item in value.elts
    ):
        return tuple(str(item.value) for item in value.elts if isinstance(item, ast.Constant))
    if isinstance(value, ast.Name):
        return lists.get(value.id)
    return None


def _module_lists(tree: ast.Module) -> dict[str, tuple[str, ...] | None]:
    """The Pythons of each name the file binds once, at its top level, to a string or a list or
    tuple of strings, and never changes (`PYTHONS.append(...)`)."""
    bound: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bound[node.id] = bound.get(node.id, 0) + 1
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            bound[node.value.id] = 2  # a method of it may change it
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound.update((name, 2) for name in node.names)
    lists: dict[str, tuple[str, ...] | None] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and bound.get(target.id) == 1:
                lists[target.id] = _nox_pythons(node.value, {})
    return lists


def _nox_sessions(noxfile: Path) -> dict[str, tuple[str, ...] | None] | None:
    """The session names the decorators of ``noxfile`` give, each with its Pythons (None when
    they are not known); None when it could make other sessions."""
    text = _read(noxfile)
    if text is None:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # the last two: nested deep
        return None
    decorators: set[int] = set()
    names: dict[str, tuple[str, ...] | None] = {}
    lists = _module_lists(tree)
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
            pythons: tuple[str, ...] | None = () if call is None or not call.args else None
            for keyword in call.keywords if call is not None else ():
                if keyword.arg == "name":
                    name = keyword.value.value if isinstance(keyword.value, ast.Constant) else 0
                elif keyword.arg in ("python", "py"):
                    pythons = _nox_pythons(keyword.value, lists)
                elif keyword.arg is None:
                    return None  # **options: the name may be in them
            if not isinstance(name, str):
                return None
            if _parametrizes_python(node) or name in names:
                pythons = None
            names[name] = pythons
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_session(node.func) and id(node) not in decorators:
            return None  # a session made by a call
    return names


def _parametrizes_python(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a `parametrize` of the session may give it its Python (`"python"`)."""
    return any(
        isinstance(decorator, ast.Call)
        and any(
            isinstance(arg, ast.Constant) and "python" in str(arg.value)
            for arg in (*decorator.args[:1], *(k.value for k in decorator.keywords))
        )
        for decorator in node.decorator_list
    )


def _is_session(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "session" and isinstance(node.value, ast.Name)
    return isinstance(node, ast.Name) and node.id == "session"


def _outside(module: str | None) -> bool:
    """Whether ``module`` comes from outside the project (nox, or Python's own library)."""
    top = (module or "").split(".")[0]
    return top in ("nox", "nox_uv") or top in sys.stdlib_module_names


def _nox_option(word: str) -> str:
    """The option a word of a nox command gives: `--noxfile=X` is `--noxfile`, and `-fX` is
    `-f` with its value attached, as nox's parser reads a short option."""
    if word.startswith("--"):
        return word.split("=", 1)[0]
    return word[:2] if word.startswith("-") else word


def _nox_without_noxfile(words: Sequence[str], folder: Path) -> bool:
    """Whether the nox command ``words`` loads a noxfile.py (its own folder's: nox does not
    look above it) that is not there."""
    for word in words[1:]:
        if word == "--":
            break
        if _nox_option(word) in (*_NOX_ELSEWHERE, "--version", "--help", "-h"):
            return False
    return not os.path.lexists(folder / "noxfile.py")


# what makes a folder a project for npm (package.json, node_modules), or pnpm (its other forms)
_PROJECT_FILES = ("package.json", "node_modules", "package.json5", "package.yaml")


def _npm_prefix(folder: Path) -> bool:
    """Whether npm finds a project folder from ``folder``: the nearest one, there or above it,
    with a package.json or a node_modules (npm runs in that one)."""
    for place in (folder, *folder.parents):
        if any(os.path.lexists(place / name) for name in _PROJECT_FILES):
            return True
    return False


def _npm_script(words: Sequence[str], folder: Path, manager: _Manager) -> str | None:
    """The script the package manager's command ``words`` runs from package.json (`npm test`,
    `npm run lint`); None for any other command, or one that names another folder."""
    rest = [word for word in words[1:]]
    if any(word.split("=", 1)[0] in manager.elsewhere for word in rest) or "--" in rest[:1]:
        return None
    plain = [word for word in rest if not word.startswith("-")]
    if not plain:
        return None
    if plain[0] in manager.run:
        script = plain[1] if len(plain) >= 2 else None
    elif plain[0] in manager.short:
        script = manager.short[plain[0]]
        if script == "start" and (folder / "server.js").exists():
            return None  # npm start runs `node server.js` then
    else:
        return None
    if (
        script is not None
        and words[0] != "npm"
        and (folder / "node_modules" / ".bin" / script).exists()
    ):
        return None  # yarn and pnpm run the binary of that name then
    return script


def _npm_undefined(words: Sequence[str], folder: Path, manager: _Manager) -> str | None:
    script = _npm_script(words, folder, manager)
    if script is None:
        return None
    text = _read(folder / "package.json")
    if text is None:
        return None
    try:
        package = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        return None
    if not isinstance(package, dict):
        return None
    scripts = package.get("scripts", {})
    if not isinstance(scripts, dict) or script in scripts:
        return None
    return script
