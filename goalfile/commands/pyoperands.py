"""Whether the script, module or test names a Python check gives are there, where the checks
will run: the Python shapes of :mod:`goalfile.commands.operands`.

`python scripts/nope.py` exits 2 (can't open file), `python -m nosuchmodule` exits 1 (No module
named ...), `python -m unittest tests.test_nope` exits 1 (an ImportError it reports as a failed
test), `python -m unittest discover tests/nope` exits 1: each ran to its end, so verify judges
the row `unmet`, never `error`, until the file or module is there. A unittest name given from a
sub-folder (`test_apis` for `tests/test_apis.py`, while the checks run at the git top level) is
the same. What a Python check gives is read from its words; whether a module is there is asked
of the check's own interpreter, in the folder the checks run in, by `importlib.util.find_spec`
of the top-level name (which imports nothing) and then by the files of that package, with -S
(site would run the `import` lines of the `.pth` files of a virtual environment made in the
repository; their path lines are read instead): no code of the project runs, and an interpreter the
repository holds (`./python`, one found through a PATH entry inside it; followed through symbolic
links, as a virtual environment's `python` links to one outside) is not asked at all. A name whose
first part is there but whose next part is no module of the package's folder may be a class of its
`__init__.py`: it is named only when that file does not hold the word. Anything else (`-c`, an
expansion, a pipeline) is left alone.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from goalfile.run import PROBE_OUTPUT_MAX, probe
from goalfile.value import Value

_PYTHON = re.compile(r"python(?:[0-9]+(?:\.[0-9]+)?)?")
_INTERPRETER_VALUE = frozenset({"-W", "-X", "--check-hash-based-pycs"})  # the value follows
_UNITTEST_VALUE = frozenset({"-k", "--durations"})
_DISCOVER_VALUE = {"-s": "start", "--start-directory": "start", "-t": "top"}
_DISCOVER_VALUE |= {"--top-level-directory": "top", "-p": "", "--pattern": "", "-k": ""}
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")

# Run by the check's interpreter (with -S) with the repository's top and the names as
# arguments: prints each name that is not there, with the part that is not. Runs nothing of
# the project. Without -S, site would run each `import` line of the .pth files of a virtual
# environment made in the repository (`.venv/bin/python` links to a Python outside it, and
# its site-packages are the repository's files): the paths its site-packages give are added
# here, by site's own rules, and a .pth inside the repository is read for its path lines
# alone (one that imports: the answer cannot be told, and nothing is printed but `?`). The
# folder the checks run in ('' for -c) is taken off the path while this imports what it uses,
# and put back for the lookups, as `python -m` puts it first; find_spec of a top-level name
# only asks the finders, and the parts after it are looked up as files.
_FIND = r"""
import sys
here = sys.path[:1] == [""]  # not with PYTHONSAFEPATH, nor then for `python -m`
del sys.path[:here]
import importlib.machinery as m, importlib.util as u, os, re, site
shim = (r"import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os\.environ\.get\(var, '\w+'\) "
        r"== 'local'; enabled and __import__\('_distutils_hack'\)\.add_shim\(\);")
top = os.path.realpath(sys.argv[1])
prefixes, user = [sys.prefix, sys.exec_prefix], True
bin = os.path.dirname(os.path.abspath(sys.executable))
for cfg in (os.path.join(bin, "pyvenv.cfg"), os.path.join(os.path.dirname(bin), "pyvenv.cfg")):
    if os.path.isfile(cfg):  # a virtual environment, read as site.venv reads it
        system = False
        with open(cfg, encoding="utf-8") as f:
            for line in f:
                key, eq, value = line.partition("=")
                if eq and key.strip().lower() == "include-system-site-packages":
                    system = value.strip().lower() == "true"
        prefixes = [os.path.dirname(bin)] + (prefixes if system else [])
        user = system
        break
user = user and site.check_enableusersite()
dirs = site.getsitepackages(prefixes) + ([site.getusersitepackages()] if user else [])
for place in dirs:
    if not os.path.isdir(place):
        continue
    if os.path.commonpath([top, os.path.realpath(place)]) != top:
        site.addsitedir(place)
        continue
    sys.path.append(place)
    for pth in sorted(n for n in os.listdir(place) if n.endswith(".pth")):
        try:
            with open(os.path.join(place, pth), encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, ValueError):
            continue
        for line in lines:
            if line.rstrip() == "import _virtualenv" or re.fullmatch(shim, line.rstrip()):
                continue  # virtualenv's and setuptools' own: they put nothing on the path
            if line.startswith(("import ", "import\t")):
                print("?")
                sys.exit(0)
            if line.strip() and not line.startswith("#"):
                sys.path.append(os.path.join(place, line.rstrip()))
sys.path[:0] = [os.getcwd()] * here
suffixes = m.all_suffixes()
for name in sys.argv[2:]:
    tag, _, dotted = name.partition(":")
    kind = tag[-1:]
    parts = dotted.split(".")
    try:
        spec = u.find_spec(parts[0])
    except Exception:
        continue
    if spec is None:
        print(name + "\t" + parts[0])
        continue
    if kind == "s":  # where it is imported from, when that is outside the repository
        found = list(spec.submodule_search_locations or []) or [spec.origin or ""]
        where = os.path.realpath(found[0]) if os.path.isabs(found[0]) else ""
        if where and os.path.commonpath([top, where]) != top:
            print(name + "\t@" + where)
        continue
    places = list(spec.submodule_search_locations or [])
    for at, part in enumerate(parts[1:], 1):
        if not places:
            break
        inits = [os.path.join(p, "__init__.py") for p in places]
        found = [p for p in places if os.path.isdir(os.path.join(p, part))]
        module = any(os.path.isfile(os.path.join(p, part + s)) for p in places for s in suffixes)
        if module:
            places = []
        elif found:
            places = [os.path.join(p, part) for p in found]
        else:
            said = False
            for init in inits:
                try:
                    with open(init, "rb") as f:
                        said = said or part.encode() in f.read(1 << 20)
                except OSError:
                    pass
            if kind == "m" or not said:
                print(name + "\t" + ".".join(parts[: at + 1]))
            break
"""


# written out on goalfile.value: a dataclass compiled its methods at every start of `activate`
class PythonOperands(Value):
    """What a Python check gives that must be there: files (scripts, unittest paths,
    discover folders) and dotted names (`-m` modules, unittest names); filled in as the
    command's words are read."""

    __slots__ = ("interpreter", "modules", "paths", "script", "tests")

    def __init__(self, *, interpreter: str) -> None:
        self.interpreter = interpreter
        self.script: str | None = None  # python FILE
        self.paths: list[str] = []  # unittest's files and discover folders
        self.modules: list[str] = []  # python -m MODULE
        self.tests: list[str] = []  # unittest names: a module, then attributes


def python_operands(words: Sequence[str]) -> PythonOperands | None:
    """What the Python command ``words`` gives; None when it is none or cannot be read."""
    if not words or not _PYTHON.fullmatch(Path(words[0]).name):
        return None
    found = PythonOperands(interpreter=words[0])
    at = 1
    while at < len(words) and words[at].startswith("-") and words[at] not in ("-", "-m"):
        word = words[at]
        if word == "--":
            at += 1
            break
        if word in _INTERPRETER_VALUE:
            at += 2
            continue
        if word.startswith("--") or (word[1] not in "WX" and ("c" in word or "m" in word)):
            return None  # -c runs text, -mMODULE, a long option such as --version
        at += 1
    if at >= len(words) or words[at] == "-":
        return None
    if words[at] != "-m":
        found.script = words[at]
        return found
    if at + 1 >= len(words) or not _DOTTED.fullmatch(words[at + 1]):
        return None
    module, rest = words[at + 1], list(words[at + 2 :])
    if module == "pytest":
        return None  # :func:`goalfile.commands.operands.pytest_paths`
    found.modules.append(module)
    if module == "unittest":
        found.modules.clear()
        _unittest(rest, found)
    return found


def _unittest(args: list[str], found: PythonOperands) -> None:
    """The test names, paths and discover folders of `python -m unittest ARGS`."""
    if args[:1] == ["discover"]:
        given: dict[str, str] = {}
        positional: list[str] = []
        skip = ""
        for word in args[1:]:
            if skip:
                if skip in ("start", "top"):
                    given.setdefault(skip, word)
                skip = ""
            elif word in _DISCOVER_VALUE:
                skip = _DISCOVER_VALUE[word] or "value"
            elif not word.startswith("-"):
                positional.append(word)
        if "start" not in given and positional:
            given["start"] = positional[0]
        if "top" not in given and len(positional) > 2:
            given["top"] = positional[2]
        found.paths.extend(given[key] for key in ("start", "top") if key in given)
        return
    value = False
    for word in args:
        if value:
            value = False
        elif word in _UNITTEST_VALUE:
            value = True
        elif word.startswith("-"):
            continue
        elif word.endswith(".py") or "/" in word:
            found.paths.append(word)  # unittest takes a file's path for its module
        elif _DOTTED.fullmatch(word):
            found.tests.append(word)


def not_there(
    commands: Mapping[str, Sequence[str]], *, shell: str, cwd: Path, env: Mapping[str, str]
) -> dict[str, tuple[str, list[str], str]]:
    """For each Python command of ``commands`` (by id): what kind of thing it gives that is not
    there in ``cwd`` (`file`, `file or folder`, `module`), those things, and the exit status the
    command then ends with; an id whose things are all there, or cannot be told, is left out.
    The modules are asked of each interpreter once, for all its commands."""
    from goalfile.commands.operands import there

    found: dict[str, tuple[str, list[str], str]] = {}
    asked: dict[str, list[str]] = {}  # interpreter -> tagged names (`C1m:pkg.mod`)
    for cid, words in commands.items():
        given = python_operands(words)
        if given is None:
            continue
        if given.script is not None:
            if not there(cwd / given.script):
                found[cid] = ("file", [given.script], "2 (can't open file)")
            continue
        gone = [path for path in given.paths if not there(cwd / path)]
        if gone:
            found[cid] = ("file or folder", gone, "1 (an ImportError)")
            continue
        names = [f"{cid}m:{name}" for name in given.modules]
        names += [f"{cid}t:{name}" for name in given.tests]
        if names and outside(given.interpreter, cwd, env):
            asked.setdefault(given.interpreter, []).extend(names)
    for interpreter, names in asked.items():
        lines = not_found(interpreter, names, shell=shell, cwd=cwd, env=env)
        if lines is None:
            continue
        missing: dict[str, dict[str, list[str]]] = {}
        for line in lines:
            name, tab, part = line.partition("\t")
            tag = name.partition(":")[0]
            if tab and tag[-1:] in ("m", "t"):
                missing.setdefault(tag[:-1], {}).setdefault(tag[-1], []).append(part)
        for cid, kinds in missing.items():
            if "m" in kinds:
                found[cid] = ("module", kinds["m"], "1 (No module named ...)")
            else:
                status = "1 (an ImportError, which unittest counts as an error)"
                found[cid] = ("module", kinds["t"], status)
    return found


def not_found(
    interpreter: str, names: Sequence[str], *, shell: str, cwd: Path, env: Mapping[str, str]
) -> list[str] | None:
    """Asks ``interpreter`` (run in ``cwd``, as the check runs it) which of the tagged dotted
    ``names`` (`C1m:pkg.mod`; a tag ending in `m` is a module) are not there: one line each,
    `NAME<TAB>PART` with the first part that is not; None when that cannot be told. A tag
    ending in `s` names a top-level module asked where it is imported from: `NAME<TAB>PART`
    when it is not there, `NAME<TAB>@PATH` (its folder, or its file) when it is found outside
    the repository."""
    from goalfile.commands.gittop import repository_top

    top = str(repository_top(cwd) or cwd)
    words = [interpreter, "-S", "-c", _FIND, top, *names]
    command = " ".join(map(shlex.quote, words))
    answered = probe(shell=shell, command=command, cwd=str(cwd), env=env)
    if answered is None or answered[0] != 0 or len(answered[1]) >= PROBE_OUTPUT_MAX:
        return None  # cannot be told (or the answer was cut short)
    if answered[1].startswith(b"?"):
        return None  # a .pth in the repository imports: what it would add cannot be told
    return answered[1].decode("utf-8", "surrogateescape").splitlines()


def outside(interpreter: str, cwd: Path, env: Mapping[str, str]) -> bool:
    """Whether the interpreter the check names is a Python from outside the repository (or
    ``cwd``), found where the shell finds it and followed through symbolic links (a virtual
    environment in the repository links to one outside): only such a one is asked about
    modules. A goal
    is read by `new` and `activate` before a person approves its checks, and an interpreter the
    repository holds (`./python`, a PATH entry inside it) could be anything its author wrote."""
    import os
    import shutil

    from goalfile.commands.gittop import repository_top

    if "/" in interpreter:
        found: str | None = os.path.join(cwd, interpreter)  # the same when it is absolute
    else:
        path = env.get("PATH", os.defpath)
        if any(not os.path.isabs(entry) for entry in path.split(os.pathsep)):
            return False  # an entry such as `.` or `bin` is found from the folder the checks run in
        found = shutil.which(interpreter, path=path)
    if found is None:
        return False
    top = (repository_top(cwd) or cwd).resolve()
    where = Path(os.path.realpath(found))  # a virtual environment's python: the one it links to
    if not _PYTHON.fullmatch(where.name):
        return False  # a link to another program
    return where != top and top not in where.parents
