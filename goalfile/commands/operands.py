"""Whether the paths, modules, targets and revisions a new check names are there, where the
checks will run.

A check whose program reports its own usage error ran to its end, so its row is `unmet`, not
`error` (docs/format.md, Verdicts): `pytest tests/test_versoin.py` exits 4 on a path that does
not exist, `git diff main -- src` exits 128 in a repository whose branch is `master`. Such a
row is met only once the work makes what it names (a new test file), else never, and
correcting it needs a re-approval. `new` and `activate` name what they see of it first, as a
note: the test paths a pytest check names that are not there, the revisions a git check
compares with that name no commit, the scripts, modules and unittest names a Python check gives
that are not there (:mod:`goalfile.commands.pyoperands`), the files a linter or a script
runner reads (:mod:`goalfile.commands.fileoperands`), and the make targets no rule makes
(:mod:`goalfile.commands.makeoperands`), and the tox environments, nox sessions and npm scripts
no file there defines (:mod:`goalfile.commands.taskoperands`). A check of several commands (`A &&
B`, `sh -c 'TEXT'`, `cd DIR && ...`) is read command by command, with its globs expanded as the
shell does (:mod:`goalfile.commands.shellparts`). Nothing is guessed beyond those shapes, and a
command the shell would make something else (`$`, braces, a pipe) is left alone.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from goalfile.commands import shellparts
from goalfile.run import probe

_PYTHONS = ("python", "python3")
# pytest options whose value is the next word (a path-looking value is not a test path)
_PYTEST_VALUE = frozenset(
    {
        "-k", "-m", "-p", "-n", "-c", "-o", "-W", "-r", "--tb", "--rootdir", "--confcutdir",
        "--basetemp", "--deselect", "--ignore", "--ignore-glob", "--junit-xml", "--junitxml",
        "--cov", "--cov-report", "--cov-config", "--durations", "--maxfail", "--log-file",
        "--override-ini", "--import-mode", "--capture", "--dist", "--numprocesses",
    }
)  # fmt: skip
# pytest's long options that take no value: a path after one of them is a test path
_PYTEST_FLAGS = frozenset(
    {
        "--lf", "--last-failed", "--ff", "--failed-first", "--nf", "--new-first", "--sw",
        "--stepwise", "--co", "--collect-only", "--exitfirst", "--quiet", "--verbose",
        "--showlocals", "--runxfail", "--pdb", "--trace", "--disable-warnings", "--no-header",
        "--no-summary", "--strict-markers", "--strict-config", "--cache-clear", "--doctest-modules",
        "--setup-only", "--setup-show", "--fixtures", "--markers", "--version", "--help",
    }
)  # fmt: skip
_GIT_COMPARES = frozenset({"diff", "log", "show", "rev-list", "shortlog", "whatchanged"})
_GIT_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"})
_GIT_ELSEWHERE = frozenset({"-C", "--git-dir", "--work-tree"})  # another repository's commits
# the options of `git diff`, `git log`, ... whose value may be the next word (`-n 5`,
# `--author Bob`): that word is no revision
_GIT_COMPARE_VALUE = frozenset(
    {
        "-n", "-l", "-S", "-G", "-O", "-I", "--max-count", "--skip", "--author", "--committer",
        "--grep", "--since", "--until", "--after", "--before", "--since-as-filter", "--min-age",
        "--max-age", "--diff-filter", "--encoding", "--date", "--output", "--exclude", "--glob",
        "--anchored", "--find-object", "--ignore-matching-lines", "--skip-to", "--rotate-to",
        "--src-prefix", "--dst-prefix", "--line-prefix", "--word-diff-regex",
        "--inter-hunk-context", "--diff-algorithm", "--stat-width", "--ws-error-highlight",
    }
)  # fmt: skip


def _words(command: str) -> list[str] | None:
    """The words of the simple command ``command``, or None when the shell could make them
    something else (an expansion, an operator, a quote that does not close)."""
    lexed = shellparts.lex(command)
    if lexed is None or len(lexed) != 1 or any(globbed for _, globbed in lexed[0]):
        return None
    return [word for word, _ in lexed[0]]


def pytest_paths(command: str) -> list[str]:
    """The test paths (file or folder, without a `::` node id) a pytest command names (`pytest`,
    `python -m pytest`, `coverage run -m pytest`)."""
    return _pytest_paths(_words(command) or [])


def _pytest_paths(words: Sequence[str]) -> list[str]:
    if not words:
        return []
    if Path(words[0]).name in ("pytest", "py.test"):
        rest = words[1:]
    elif Path(words[0]).name.startswith(_PYTHONS) and words[1:3] == ["-m", "pytest"]:
        rest = words[3:]
    elif Path(words[0]).name == "coverage" and words[1:2] == ["run"] and "-m" in words:
        at = words.index("-m")  # coverage run [--branch ...] -m pytest ...
        if words[at + 1 : at + 2] != ["pytest"]:
            return []
        rest = words[at + 2 :]
    else:
        return []
    paths: list[str] = []
    skip = False
    if "--pyargs" in rest:
        return []  # its words may be modules too
    for word in rest:
        if skip:
            skip = False
        elif word in _PYTEST_VALUE:
            skip = True
        elif word.startswith("--") and "=" not in word and word not in _PYTEST_FLAGS:
            skip = True  # a plugin's option may take the next word (`--html report/r.html`)
        elif not word.startswith("-") and word.split("::")[0]:
            paths.append(word.split("::")[0])  # pytest takes each word for a path
    return paths


def git_revisions(command: str) -> list[str]:
    """The revisions a `git diff` (`log`, `show`, ...) command names before its `--`; none
    when it has no `--` (git alone then tells a revision from a path), nor when it names
    another repository than the one where the checks run (`-C`, `--git-dir`, `--work-tree`)."""
    return _git_revisions(_words(command) or [])


def _git_revisions(words: Sequence[str]) -> list[str]:
    if not words or Path(words[0]).name != "git":
        return []
    at = 1
    while at < len(words) and words[at].startswith("-"):  # git's own options
        if words[at].split("=", 1)[0] in _GIT_ELSEWHERE:
            return []
        at += 2 if words[at] in _GIT_VALUE else 1
    if at >= len(words) or words[at] not in _GIT_COMPARES or "--" not in words[at:]:
        return []
    before = words[at + 1 : words.index("--", at)]
    if any("~" in word for word in before):
        return []  # HEAD~1: left to git, as any word the shell could have expanded
    revisions: list[str] = []
    value = False
    for word in before:
        if value or word.startswith("-"):
            value = word in _GIT_COMPARE_VALUE
            continue
        for part in word.replace("...", "..").split(".."):
            if part:
                revisions.append(part)
    return revisions


UNTIL_WRITTEN = "until the work makes it"  # ends the line of what the work may make


def missing(
    checks: Sequence[tuple[str, str]],
    *,
    shell: str,
    cwd: Path,
    env: Mapping[str, str],
    here: Path | None = None,
) -> dict[str, str]:
    """Of ``(id, command)`` pairs, what each names that is not there in ``cwd``: one line per
    id, saying what and what verify will make of it; the line of something the work may make
    (a file, a module, a make target) ends with :data:`UNTIL_WRITTEN`. A check of several
    commands (`A && B`, `sh -c 'TEXT'`, `cd DIR && ...`) is read command by command
    (:mod:`goalfile.commands.shellparts`); the first that names something not there is told."""
    from goalfile.commands import pyoperands

    split = {cid: shellparts.parts(command, cwd) or [] for cid, command in checks}
    python = pyoperands.not_there(
        {
            f"{cid}#{at}": part.words
            for cid, found in split.items()
            for at, part in enumerate(found)
            if not part.moved  # asked in the folder the checks run in only
        },
        shell=shell,
        cwd=cwd,
        env=env,
    )
    lines: dict[str, str] = {}
    for cid, found in split.items():
        for at, part in enumerate(found):
            try:
                line = _part_line(cid, part, python.get(f"{cid}#{at}"), shell, cwd, env, here)
            except (OSError, ValueError):  # a name the system refuses: nothing is told
                line = None
            if line is not None:
                lines[cid] = line
                break
    return lines


def _part_line(
    cid: str,
    part: shellparts.Part,
    python: tuple[str, list[str], str] | None,
    shell: str,
    cwd: Path,
    env: Mapping[str, str],
    here: Path | None = None,
) -> str | None:
    """The note's line for one simple command of check ``cid``, or None when all it names is
    there (or that cannot be told)."""
    from goalfile.commands import (
        fileoperands,
        makeoperands,
        pytestmissing,
        pytestplugins,
        srclayout,
        taskoperands,
        toxpython,
        toxrunner,
    )

    words, folder = part.words, part.folder
    where = "where the checks run" if folder == cwd else f"in `{_shown(folder, cwd)}`"

    def named(things: Sequence[str]) -> str:
        text = _named(things)
        if part.unmatched & set(things):
            text += " (a pattern that matches no file there, which the shell gives as it is)"
        return text + _from_there(things, folder, here)

    if part.gone_folder is not None:
        return (
            f"{cid}: `cd {part.gone_folder}` names a folder that is not there {where}: cd "
            f"fails, the commands after it do not run, and verify judges the row `unmet` "
            f"{UNTIL_WRITTEN}"
        )
    python_without = pytestmissing.missing(cid, words, shell=shell, folder=folder, env=env)
    if python_without is not None:  # pytest never gets to the paths or the package it names
        return pytestmissing.line(cid, python_without, where)
    gone = [path for path in _pytest_paths(words) if not there(folder / path)]
    if gone:
        return (
            f"{cid}: pytest is given {named(gone)}, which is not there {where}: pytest exits "
            f"4 (its usage error), and verify judges the row `unmet` {UNTIL_WRITTEN}"
        )
    src = srclayout.imports(cid, words, shell=shell, folder=folder, env=env)
    if src is not None and src[1]:
        runs, names, _ = src
        conftest = srclayout.conftest_importing(words, folder, names)
        fails = (
            "each test module that imports it fails (ModuleNotFoundError), pytest exits 2"
            if conftest is None
            else f"`{conftest}`, which imports it, cannot be loaded (ModuleNotFoundError), "
            "pytest exits 4"
        )
        return (
            f"{cid}: pytest runs with `{runs}`, which cannot import {_named(names)}, the "
            f"package under `src/` {where}: it is not installed there, so {fails}, and verify "
            f"judges the row `unmet` until `{srclayout.install(runs, folder, here)}` "
            f"{srclayout.INSTALL_FIX}"
        )
    plugins = pytestplugins.missing(cid, words, shell=shell, folder=folder, env=env)
    if plugins is not None:  # pytest stops, or fails each async test, before the code matters
        return pytestplugins.line(cid, *plugins, where, folder, here)
    unknown = [rev for rev in _git_revisions(words) if not _is_commit(rev, shell, folder, env)]
    if unknown:
        return (
            f"{cid}: git knows no commit {_named(unknown)} {where} (`git branch --all` lists "
            "the branches): git exits 128, and verify judges the row `unmet`"
        )
    if python is not None:
        kind, names, status = python
        return (
            f"{cid}: {Path(words[0]).name} is given {named(names)}, which is no {kind} {where}: "
            f"it exits {status}, and verify judges the row `unmet` {UNTIL_WRITTEN}"
        )
    files = [path for path in fileoperands.named_files(words) or [] if not there(folder / path)]
    if files:
        return (
            f"{cid}: {Path(words[0]).name} is given {named(files)}, which is not there {where}: "
            f"{fileoperands.outcome(words)} {UNTIL_WRITTEN}"
        )
    make = makeoperands.no_rule(words, folder)
    if make is not None:
        return (
            f"{cid}: {make} {where}: make exits 2, and verify judges the row `unmet` "
            f"{UNTIL_WRITTEN}"
        )
    task = taskoperands.undefined(words, folder)
    if task is not None:
        return f"{cid}: {task} {UNTIL_WRITTEN}"
    runner = toxrunner.missing(words, shell=shell, folder=folder, env=env)
    if runner is not None:
        return toxrunner.line(cid, runner)
    pythons = toxpython.not_there(words, shell=shell, folder=folder, env=env)
    if pythons:
        versions = ", ".join(pythons)
        return (
            f"{cid}: tox finds no Python {versions} {where} (neither the Python tox runs with "
            f"nor a `python{pythons[0]}`, `python3` or `python` on PATH runs as {versions}): "
            'it fails that environment, "could not find python interpreter", exit 1 (with '
            "skip_missing_interpreters it skips it and judges the run by the others), and "
            f"verify never meets the row through it until a Python {versions} is on PATH, or "
            "the check names one that is"
        )
    if src is not None:  # all under src/ import, some from a copy outside the repository
        runs, _, elsewhere = src
        copies = ", ".join(f"`{name}` from `{place}`" for name, place in elsewhere.items())
        return (
            f"{cid}: pytest runs with `{runs}`, which imports {copies}, not the package under "
            f"`src/` {where}: the tests check that installed copy, not this repository's code, "
            f"and a change under `src/` changes no verdict until "
            f"`{srclayout.install(runs, folder, here)}` {srclayout.INSTALL_FIX}"
        )
    return None


def _from_there(things: Sequence[str], folder: Path, here: Path | None) -> str:
    """For paths not there in ``folder`` (where the command runs) but there in ``here`` (where
    the person typed it): their names from ``folder``, the words the check needs."""
    if here is None or here.resolve() == folder.resolve():
        return ""
    meant = []
    for thing in things:
        if os.path.isabs(thing) or not there(here / thing) or not (here / thing).exists():
            return ""
        meant.append(os.path.relpath(here / thing, folder))
    where = os.path.relpath(folder, here)
    said = _named(meant)
    return f" (it is there from here, but the checks run in `{where}`: there it is {said})"


def _shown(folder: Path, cwd: Path) -> str:
    try:
        return str(folder.relative_to(cwd))
    except ValueError:
        return str(folder)


def _named(things: Sequence[str]) -> str:
    return ", ".join(f"`{thing}`" for thing in things)


def there(path: Path) -> bool:
    """Whether ``path`` is there; True when that cannot be told (a name too long for the
    system, a folder that cannot be read): only a path known to be missing is named."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except (OSError, ValueError):
        return True
    return True


def _is_commit(revision: str, shell: str, cwd: Path, env: Mapping[str, str]) -> bool:
    """Whether ``revision`` names a commit in the repository at ``cwd``; True when that
    cannot be told (git or the shell could not be run)."""
    word = shlex.quote(f"{revision}^{{commit}}")
    answered = probe(
        shell=shell,
        command=f'git rev-parse --verify --quiet {word} >/dev/null 2>&1; echo "$?"',
        cwd=str(cwd),
        env=env,
    )
    if answered is None or answered[0] != 0:
        return True
    status = answered[1].decode("ascii", "replace").strip()
    return status != "1"
