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
(:mod:`goalfile.commands.makeoperands`). Nothing is guessed beyond those shapes, and a command
the shell would expand (`$`, a glob) is left alone.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from goalfile.run import probe

_EXPANDED = set("$`*?[{~")
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
    """The command's words, or None when the shell could make them something else (an
    expansion, an operator, a quote that does not close)."""
    if any(char in command for char in "|;&<>()\n"):
        return None
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return None
    if any(_EXPANDED & set(word) for word in words):
        return None
    return words


def pytest_paths(command: str) -> list[str]:
    """The test paths (file or folder, without a `::` node id) a pytest command names."""
    words = _words(command)
    if not words:
        return []
    if Path(words[0]).name in ("pytest", "py.test"):
        rest = words[1:]
    elif Path(words[0]).name.startswith(_PYTHONS) and words[1:3] == ["-m", "pytest"]:
        rest = words[3:]
    else:
        return []
    paths: list[str] = []
    skip = False
    for word in rest:
        if skip:
            skip = False
        elif word in _PYTEST_VALUE:
            skip = True
        elif word.startswith("--") and "=" not in word and word not in _PYTEST_FLAGS:
            skip = True  # a plugin's option may take the next word (`--html report/r.html`)
        elif not word.startswith("-") and ("/" in word or word.split("::")[0].endswith(".py")):
            paths.append(word.split("::")[0])
    return paths


def git_revisions(command: str) -> list[str]:
    """The revisions a `git diff` (`log`, `show`, ...) command names before its `--`; none
    when it has no `--` (git alone then tells a revision from a path), nor when it names
    another repository than the one where the checks run (`-C`, `--git-dir`, `--work-tree`)."""
    words = _words(command)
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
    checks: Sequence[tuple[str, str]], *, shell: str, cwd: Path, env: Mapping[str, str]
) -> dict[str, str]:
    """Of ``(id, command)`` pairs, what each names that is not there in ``cwd``: one line per
    id, saying what and what verify will make of it; the line of something the work may make
    (a file, a module, a make target) ends with :data:`UNTIL_WRITTEN`."""
    from goalfile.commands import fileoperands, makeoperands, pyoperands

    found: dict[str, str] = {}
    python = pyoperands.not_there(
        {cid: _words(command) or [] for cid, command in checks}, shell=shell, cwd=cwd, env=env
    )
    for cid, command in checks:
        gone = [path for path in pytest_paths(command) if not there(cwd / path)]
        if gone:
            found[cid] = (
                f"{cid}: pytest is given {_named(gone)}, which is not there where the checks "
                f"run: pytest exits 4 (its usage error), and verify judges the row `unmet` "
                f"{UNTIL_WRITTEN}"
            )
            continue
        unknown = [rev for rev in git_revisions(command) if not _is_commit(rev, shell, cwd, env)]
        if unknown:
            found[cid] = (
                f"{cid}: git knows no commit {_named(unknown)} where the checks run (`git "
                "branch --all` lists the branches): git exits 128, and verify judges the row "
                "`unmet`"
            )
            continue
        words = _words(command) or []
        if cid in python:
            kind, names, status = python[cid]
            found[cid] = (
                f"{cid}: {Path(words[0]).name} is given {_named(names)}, which is no {kind} "
                f"where the checks run: it exits {status}, and verify judges the row `unmet` "
                f"{UNTIL_WRITTEN}"
            )
            continue
        files = [path for path in fileoperands.named_files(words) or [] if not there(cwd / path)]
        if files:
            found[cid] = (
                f"{cid}: {Path(words[0]).name} is given {_named(files)}, which is not there where "
                f"the checks run: {fileoperands.outcome(words)} {UNTIL_WRITTEN}"
            )
            continue
        make = makeoperands.no_rule(words, cwd)
        if make is not None:
            makefile, targets = make
            what = (
                f"no rule of its {makefile} makes {_named(targets)}"
                if makefile is not None
                else "make finds no makefile (GNUmakefile, makefile or Makefile)"
            )
            found[cid] = (
                f"{cid}: {what} where the checks run: make exits 2, and verify judges the row "
                f"`unmet` {UNTIL_WRITTEN}"
            )
    return found


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
