"""Read a repository's history as committed: the files of a named revision (``--against``).

Every way git cannot be run, and every revision that names no commit (or more than one thing),
is a :class:`~goalfile.errors.UsageError` whose fix names what to do. git itself is run by
:mod:`goalfile.gitrun`.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from goalfile.gitrun import GitTimedOut, _git_in, git_environment
from goalfile.goalfolders import GOAL_FOLDERS
from goalfile.run import first_message_line

if TYPE_CHECKING:
    import subprocess

    from goalfile.errors import UsageError


_FETCH_CI = "in CI, check out with fetch-depth: 0 so the base branch is there"


_FETCH_HINT = f"`git branch --all` lists the branches to name; fetch one first ({_FETCH_CI})"


def git_show(
    *, ref: str, path: str, cwd: str, env: Mapping[str, str] | None = None
) -> bytes | None:
    """The bytes of ``path`` at the git revision ``ref`` (``git show REF:./PATH``, run in ``cwd``).

    ``path`` is relative to ``cwd``. None when the path does not exist at ``ref`` (or is not a
    file there). Raises :class:`~goalfile.errors.UsageError` when ``ref`` names no commit of the
    repository, when ``cwd`` is not inside a git repository, when git cannot be run, or when
    an object on the way is not what its name says (:func:`_read`). Blobs are shown as stored:
    no textconv, no smudge filter.
    """
    git = _history_git(cwd, env)
    commit = _commit(git, ref, cwd)
    whole = _from_top(git, path)
    shown = f"{ref}:{whole}"
    found = _entry_at(git, commit, whole, shown)
    if found is None or found[0] not in ("100644", "100755", "120000"):
        return None
    return _read(git, [found[1]], shown)[found[1]][1]


def git_is_link(*, ref: str, path: str, cwd: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether the git revision ``ref`` holds a symbolic link (mode 120000) at ``path``
    (relative to ``cwd``); raises as :func:`git_show` does."""
    git = _history_git(cwd, env)
    commit = _commit(git, ref, cwd)
    whole = _from_top(git, path)
    found = _entry_at(git, commit, whole, f"{ref}:{whole}")
    return found is not None and found[0] == "120000"


def git_tree_goal_paths(*, ref: str, cwd: str, folders: Sequence[str] = GOAL_FOLDERS) -> list[str]:
    """The ``*.md`` files under ``folders`` (``goals/`` and ``.zetetic/goals/``) of ``cwd`` at
    the git revision ``ref``, as committed, relative to ``cwd``, each name as git stores it (no
    C quoting, no splitting at spaces). Read from the trees themselves, each checked against
    its name (a tree written over without a goal's entry would hide it from `git ls-tree`).
    Raises :class:`~goalfile.errors.UsageError` as :func:`git_show` does."""
    from goalfile.gitobjects import tree_entries

    git = _history_git(cwd, None)
    commit = _commit(git, ref, cwd)
    prefix = _prefix(git)
    found: list[bytes] = []
    for folder in folders:
        full = _from_top(git, folder, prefix=prefix)
        if full is None:
            from goalfile.errors import UsageError

            raise UsageError(f"git ls-tree {ref} failed: {folder} is outside the repository")
        top = _entry_at(git, commit, full, f"{ref}:{folder}")
        if top is None or top[0] != "40000":
            continue
        level = [(full.encode("utf-8", "surrogateescape"), top[1])]
        while level:  # one `git cat-file --batch` per depth
            trees = _read(git, [oid for _, oid in level], f"{ref}:{folder}")
            below: list[tuple[bytes, str]] = []
            for at, oid in level:
                kind, raw = trees[oid]
                entries = tree_entries(raw, len(oid) // 2) if kind == "tree" else None
                for mode, name, child in entries or []:
                    whole = at + b"/" + name if at else name
                    if mode == "40000":
                        below.append((whole, child))
                    else:
                        found.append(whole)
            level = below
    start = prefix.encode("utf-8", "surrogateescape")
    names = [os.fsdecode(name[len(start) :]) for name in found if name.startswith(start)]
    return [name for name in dict.fromkeys(names) if name.endswith(".md")]


def _prefix(git: Callable[..., subprocess.CompletedProcess[bytes]]) -> str:
    """Where git runs, from the top of its work tree (``sub/``, or empty at the top)."""
    from goalfile.errors import UsageError

    done = git("rev-parse", "--show-prefix")
    if done.returncode != 0:
        raise UsageError(f"git rev-parse failed: {first_message_line(done.stderr)}")
    return os.fsdecode(done.stdout.rstrip(b"\n"))


def _from_top(
    git: Callable[..., subprocess.CompletedProcess[bytes]], path: str, *, prefix: str | None = None
) -> str | None:
    """``path`` (relative to where git runs) from the top of the work tree, normalised
    (empty for the top itself); None when it leads out of the work tree."""
    whole = posixpath.normpath((_prefix(git) if prefix is None else prefix) + path)
    if whole == ".":
        return ""
    return None if whole == ".." or whole.startswith(("../", "/")) else whole


def _tree_of(git: Callable[..., subprocess.CompletedProcess[bytes]], commit: str) -> str:
    """The tree ``commit`` names, read and checked as :func:`_read` does."""
    from goalfile.gitobjects import points_at

    obj = _read(git, [commit], f"{commit}^{{commit}}")[commit]
    tree = points_at((commit, *obj))
    if obj[0] != "commit" or tree is None:
        raise forged_error(f"{commit}^{{commit}}", f"the object {commit} is no commit git writes")
    return tree


def _entry_at(
    git: Callable[..., subprocess.CompletedProcess[bytes]], commit: str, path: str | None,
    shown: str,
) -> tuple[str, str] | None:  # fmt: skip
    """``(mode, object)`` of the entry at ``path`` (from the top) in ``commit``'s tree,
    found by reading the commit and each tree on the way, each checked against its name;
    None when the commit holds nothing there (or ``path`` is None: out of the work tree)."""
    from goalfile.gitobjects import tree_entries

    if path is None:
        return None
    oid = _tree_of(git, commit)
    if not path:
        return ("40000", oid)
    parts = path.split("/")
    for depth, part in enumerate(parts):
        kind, raw = _read(git, [oid], shown)[oid]
        entries = tree_entries(raw, len(oid) // 2) if kind == "tree" else None
        if entries is None:
            raise forged_error(shown, f"the object {oid} on the way is no tree git writes")
        key = part.encode("utf-8", "surrogateescape")
        entry = next(((mode, child) for mode, name, child in entries if name == key), None)
        if entry is None:
            return None
        if depth == len(parts) - 1:
            return entry
        if entry[0] != "40000":
            return None  # a file on the way: nothing below it
        oid = entry[1]
    return None


def _read(
    git: Callable[..., subprocess.CompletedProcess[bytes]], ids: Sequence[str], shown: str
) -> dict[str, tuple[str, bytes]]:
    """``(type, bytes)`` of each object ``ids`` names, from one ``git cat-file --batch``, each
    checked against its name: git does not hash an object when it reads it, so a file under
    ``.git/objects`` written over by hand would be read as the approved copy (``shown`` names
    what was being read, for the error)."""
    from goalfile.errors import UsageError
    from goalfile.gitobjects import hash_fault, parse_batch

    asked = list(dict.fromkeys(ids))
    done = git("cat-file", "--batch", data="".join(f"{oid}\n" for oid in asked).encode("ascii"))
    if done.returncode != 0:
        raise UsageError(f"git cat-file failed: {first_message_line(done.stderr)}")
    objects = parse_batch(done.stdout, asked)
    if objects is None:
        raise UsageError("git cat-file --batch ended early")
    found: dict[str, tuple[str, bytes]] = {}
    for oid in asked:
        obj = objects.get(oid)
        if obj is None:
            raise forged_error(shown, f"git's objects lack {oid}, which a tree or commit names")
        why = hash_fault(obj)
        if why is not None or obj[0] != oid:
            raise forged_error(shown, why or f"git gave {obj[0]} when asked for {oid}")
        found[oid] = (obj[1], obj[2])
    return found


def forged_error(shown: str, why: str) -> UsageError:
    """The error for a copy git holds that its objects do not back: the fix is git's own
    check, which names the object."""
    from goalfile.errors import UsageError

    return UsageError(
        f"git's objects do not hold what their names say, for {shown}: {why} (an object file "
        "under .git/objects written over by hand or deleted; git reads one all the same); "
        "nothing was compared",
        hint="`git fsck` names each such object; delete the file it names and fetch the "
        "object again (`git fetch --refetch` from a remote that holds it), or run audit in a "
        "fresh clone",
    )


def _history_git(
    cwd: str, env: Mapping[str, str] | None
) -> Callable[..., subprocess.CompletedProcess[bytes]]:
    """``git ARGS`` run in ``cwd`` on history as committed: a replace ref (`git replace`)
    could show another contract. Every way git cannot be run is a usage error."""
    from goalfile.errors import UsageError

    if not os.path.isdir(cwd):
        raise UsageError(f"{cwd} is not a folder; git cannot run there")
    history_env = git_environment(env)

    def git(*args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        try:
            return _git_in(cwd, ["--no-replace-objects", *args], history_env, data=data)
        except FileNotFoundError:
            raise UsageError(
                "git is not installed (or not on PATH); --against needs it",
                hint="`goalfile audit` checks the ledgers alone, without --against and git",
            ) from None
        except GitTimedOut as exc:
            raise UsageError(str(exc)) from None
        except (OSError, ValueError) as exc:
            raise UsageError(f"git cannot be run in {cwd}: {exc}") from None

    return git


def _commit(git: Callable[..., subprocess.CompletedProcess[bytes]], ref: str, cwd: str) -> str:
    """The commit ``ref`` names in the repository at ``cwd``; a usage error when it names
    none, or when ``cwd`` is in no repository."""
    from goalfile.errors import UsageError

    if not ref.strip() or ref.startswith("-"):
        raise UsageError(f"{ref!r} is not a git revision", hint=_FETCH_HINT)
    inside = git("rev-parse", "--git-dir")
    if inside.returncode != 0:
        raise UsageError(
            f"{cwd} is not inside a git repository: {first_message_line(inside.stderr)}",
            hint="run it in a clone of the repository, or check the ledgers alone, without "
            "--against: `goalfile audit`",
        )
    commit = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if commit.returncode != 0:
        raise _unknown_ref(git, ref)
    meanings = ref_meanings(git, ref, cwd)
    if len(meanings) > 1:
        from goalfile.shellword import shell_word

        name = _ref_name(ref)
        refs = [m for m in meanings if m.startswith("refs/")]
        full = next((m for m in refs if m.startswith(("refs/remotes/", "refs/heads/"))), None)
        message = (
            f"the git revision {ref!r} is ambiguous: {name!r} names "
            + " and ".join(meanings)
            + " (git takes the first, so a tag or branch pushed under that name would decide "
            "what is compared)"
        )
        if full is not None and full + ref[len(name) :] != ref:
            from goalfile.errors import MeantOther

            raise MeantOther(  # the CLI boundary writes the command line with the full ref
                message,
                given=ref,
                instead=full + ref[len(name) :],
                hint=f"`git log -1 --oneline {shell_word(full + ref[len(name) :])}` shows the "
                "commit the full ref names, the revision to give instead",
                why=f" names the {'branch' if full.startswith('refs/heads/') else 'remote branch'}"
                " alone",
            )
        # a pseudo-ref such as HEAD, or a commit, shadowed by a ref of that name
        raise UsageError(
            message,
            hint=f"delete the ref that shadows it: `git update-ref -d {shell_word(refs[-1])}`",
        )
    return commit.stdout.decode("ascii", errors="replace").strip()


_BASE_BRANCHES = ("main", "master", "trunk", "develop")


def _unknown_ref(git: Callable[..., subprocess.CompletedProcess[bytes]], ref: str) -> UsageError:
    """The error for an ``--against`` revision that names no commit, with the branch of this
    repository it most likely meant (one of the same last name, `master` for `main`, a
    remote-tracking one) in its place: the CLI boundary makes the fix the same command line
    with that revision. Else the fix is how to list the branches."""
    from goalfile.errors import MeantOther, UsageError
    from goalfile.shellword import shell_word

    message = f"unknown git revision {ref!r}"
    name = _ref_name(ref)
    listed = git("for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes")
    refs = listed.stdout.decode("utf-8", "surrogateescape").splitlines()
    heads = [r.removeprefix("refs/heads/") for r in refs if r.startswith("refs/heads/")]
    remotes = [
        r.removeprefix("refs/remotes/")
        for r in refs
        if r.startswith("refs/remotes/") and not r.endswith("/HEAD")
    ]
    last = name.rsplit("/", 1)[-1]
    meant: str | None = None
    for pool in (heads, remotes):
        same = [branch for branch in pool if branch.rsplit("/", 1)[-1] == last]
        if len(same) == 1:
            meant = same[0]
            break
    if meant is None and last in _BASE_BRANCHES:
        bases = [b for b in _BASE_BRANCHES if b in heads] or [
            branch for branch in remotes if branch.rsplit("/", 1)[-1] in _BASE_BRANCHES
        ]
        meant = bases[0] if len(bases) == 1 else None
    if meant is None or meant == name or listed.returncode != 0:
        return UsageError(message, hint=_FETCH_HINT)
    why = f" ({name!r} is no branch here; {meant!r} is); {_FETCH_CI}"
    return MeantOther(
        message,
        given=ref,
        instead=meant + ref[len(name) :],
        hint=f"`git log -1 --oneline {shell_word(meant + ref[len(name) :])}` shows the commit "
        f"it names, the revision to give instead{why}",
        why=why,
    )


_REF_END = re.compile(r"[~^:]|@\{|[*?\[\\]")


_PSEUDO_REF = re.compile(r"[A-Z][A-Z0-9_]*")


_HEX = re.compile(r"[0-9a-fA-F]{4,64}")


def _ref_name(ref: str) -> str:
    """The name at the start of a revision: ``origin/main`` of ``origin/main~2``."""
    end = _REF_END.search(ref)
    return ref[: end.start()] if end else ref


def ref_meanings(
    git: Callable[..., subprocess.CompletedProcess[bytes]], ref: str, cwd: str
) -> list[str]:
    """Everything the name at the start of ``ref`` names, in the order git tries them
    (gitrevisions(7)): a pseudo-ref such as ``HEAD``, ``refs/NAME``, ``refs/tags/NAME``,
    ``refs/heads/NAME``, ``refs/remotes/NAME``, ``refs/remotes/NAME/HEAD``, and the commit a
    hexadecimal name abbreviates. More than one means git chose by that order alone: a tag
    ``origin/main`` comes before the remote-tracking branch ``refs/remotes/origin/main``."""
    name = _ref_name(ref)
    if not name or name.startswith("-"):
        return []
    found: list[str] = []
    if _PSEUDO_REF.fullmatch(name):  # HEAD, FETCH_HEAD: a file in the git folder
        where = git("rev-parse", "--git-path", name)
        path = os.fsdecode(where.stdout.strip())
        if where.returncode == 0 and os.path.isfile(os.path.join(cwd, path)):
            found.append(name)
    candidates = [
        name if name.startswith("refs/") else f"refs/{name}",
        f"refs/tags/{name}",
        f"refs/heads/{name}",
        f"refs/remotes/{name}",
        f"refs/remotes/{name}/HEAD",
    ]
    if name.startswith("refs/"):
        candidates.insert(1, f"refs/{name}")
    listed = git("for-each-ref", "--format=%(refname)", "--", *dict.fromkeys(candidates))
    if listed.returncode == 0:
        present = set(listed.stdout.decode("utf-8", "surrogateescape").splitlines())
        if name.startswith("refs/") and name in present:
            # a full ref that exists is itself: git takes it first, and no ref pushed under
            # another name (a tag `refs/remotes/origin/main`) can shadow it
            return [name]
        found += [c for c in dict.fromkeys(candidates) if c in present and c not in found]
    if found and _HEX.fullmatch(name):
        objects = git("rev-parse", f"--disambiguate={name}")
        if objects.returncode == 0 and objects.stdout.strip():
            found.append(f"the commit {name}")
    return found
