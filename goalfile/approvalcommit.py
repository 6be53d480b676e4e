"""Commit the very bytes a person approved (`activate --commit`, `new --activate --commit`).

`git commit PATH` after `activate` commits whatever the working tree holds at that moment: an
agent that runs while its person approves could put its own goal there between the listing
and the commit. Here the approved text is written as a blob (no clean filter: git stores these
bytes), placed over HEAD's tree in an index of its own, committed with ``git commit-tree``
and moved onto HEAD only if HEAD has not moved meanwhile (``git update-ref HEAD NEW OLD``).
The working tree is never read, and the person's own index changes only at the goal's path.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from goalfile.errors import UsageError
from goalfile.files import ENCODING, ERRORS
from goalfile.gitrepo import git_index_entry, git_write_blob
from goalfile.gitrun import GitTimedOut, GitUnreadable, _git_clean, _git_in
from goalfile.run import first_message_line
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name
from goalfile.value import Compared

_NO_COMMIT = "0" * 40


# written out on goalfile.value: a dataclass compiled its methods at every start of `activate`
class Committed(Compared):
    __slots__ = ("commit", "names")

    def __init__(self, commit: str, names: tuple[str, ...]) -> None:
        self.commit: Final = commit
        self.names: Final = names  # the paths committed, as git names them from the top

    def said(self) -> str:
        return (
            f"committed {' and '.join(self.names)} as approved (commit {self.commit[:12]}): "
            "the bytes the approval wrote, whatever the working tree holds now"
        )


def commit_approved(*, path: str, text: str, top: Path, message: str) -> Committed:
    """Commit ``text`` (the goal as activate wrote it) at ``path`` on top of HEAD in the
    repository whose top is ``top``; a goal named through a symlink commits the file it leads
    to, and the link when HEAD does not hold it. Raises :class:`UsageError` when git cannot."""
    named = Path(path).absolute()
    real = Path(os.path.realpath(named))
    try:
        name = real.relative_to(top.resolve()).as_posix()
    except ValueError:
        raise UsageError(
            f"{file_name(path)} leads out of the repository at {top}; --commit commits inside it "
            "only",
            hint=f"git -C {top} status",
        ) from None
    git = _runner(top)
    head = _head(git)
    entries = [
        (_mode(git, head, name) or "100644", _blob(top, text.encode(ENCODING, ERRORS)), name)
    ]
    link = link_name(named, top)
    if link is not None and link != name and (head is None or _mode(git, head, link) is None):
        target = os.fsencode(os.readlink(_parent_real(named) / named.name))
        entries.append(("120000", _blob(top, target), link))
    commit = _commit(git, head, entries, message)
    for mode, blob, entry in entries:  # the person's index agrees with HEAD at these paths
        # (best effort: the commit is made; a locked index only leaves `git status` showing it)
        with contextlib.suppress(GitUnreadable):
            git_index_entry(str(top), mode=mode, blob=blob, name=entry)
    shown = _ok(git("cat-file", "blob", f"{commit}:{name}"))
    if shown != text.encode(ENCODING, ERRORS):
        raise UsageError(f"git holds other bytes at {commit[:12]}:{name} than were approved")
    return Committed(commit=commit, names=tuple(entry for _, _, entry in entries))


Git = Callable[..., tuple[int, bytes, bytes]]


def _runner(top: Path, index: str | None = None) -> Git:
    # as every git command of goalfile: of the repository at ``top``, whatever GIT_DIR,
    # GIT_INDEX_FILE... the environment holds, and with no replace refs
    env: Mapping[str, str] = _git_clean()
    if index is not None:
        env = {**env, "GIT_INDEX_FILE": index}

    def git(*args: str, data: bytes | None = None) -> tuple[int, bytes, bytes]:
        try:
            done = _git_in(str(top), ["--no-replace-objects", *args], env, data=data)
        except FileNotFoundError:
            raise UsageError("git is not installed (or not on PATH); --commit needs it") from None
        except GitTimedOut as exc:
            raise UsageError(str(exc)) from None
        except (OSError, ValueError) as exc:
            raise UsageError(f"git cannot be run in {top}: {exc}") from None
        return done.returncode, done.stdout, done.stderr

    return git


def _ok(done: tuple[int, bytes, bytes]) -> bytes:
    code, out, errors = done
    if code != 0:
        raise UsageError(f"git failed: {first_message_line(errors)}; nothing was committed")
    return out


def _head(git: Git) -> str | None:
    code, out, _ = git("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    return out.decode("ascii").strip() if code == 0 else None  # None: no commit yet


def _mode(git: Git, head: str | None, name: str) -> str | None:
    if head is None:
        return None
    out = _ok(git("ls-tree", "-z", head, "--", name))
    fields = out.split(b" ", 1)
    return fields[0].decode("ascii") if out and fields[0] in (b"100644", b"100755") else None


def _blob(top: Path, data: bytes) -> str:
    try:
        return git_write_blob(str(top), data)
    except GitUnreadable as exc:
        raise _failed(exc) from None


def _failed(exc: GitUnreadable) -> UsageError:
    return UsageError(f"git failed: {exc}; nothing was committed")


def _commit(git: Git, head: str | None, entries: list[tuple[str, str, str]], message: str) -> str:
    with tempfile.TemporaryDirectory(prefix="goalfile-commit-") as folder:
        index = str(Path(folder) / "index")
        toplevel = _ok(git("rev-parse", "--show-toplevel")).decode().strip()
        own = _runner(Path(toplevel), index)
        if head is not None:
            _ok(own("read-tree", head))
        for mode, blob, name in entries:
            try:
                git_index_entry(toplevel, mode=mode, blob=blob, name=name, index=index)
            except GitUnreadable as exc:
                raise _failed(exc) from None
        tree = _ok(own("write-tree")).decode("ascii").strip()
    parents = ["-p", head] if head is not None else []
    code, out, errors = git("commit-tree", tree, *parents, "-m", message)
    if code != 0:
        raise UsageError(
            f"git could not write the commit: {first_message_line(errors)}; nothing was "
            "committed (the goal is approved and staged)",
            hint="give git your name and e-mail, as git asks (`git config user.name "
            '"Your Name"`, `git config user.email you@example.com`), then commit what is '
            f"staged: `git commit -m {shell_word(message)}`",
        )
    commit = out.decode("ascii").strip()
    moved = git(
        "update-ref", "-m", "goalfile: commit the approved goal", "HEAD", commit, head or _NO_COMMIT
    )
    if moved[0] != 0:
        raise UsageError(
            f"HEAD moved while the approved goal was committed ({first_message_line(moved[2])}); "
            "nothing was committed",
            hint="git log -1 && git status",
        )
    return commit


def _parent_real(path: Path) -> Path:
    return Path(os.path.realpath(path.parent))


def link_name(path: Path, top: Path) -> str | None:
    """The goal path ``path`` as git names it from the repository's ``top`` when it is a
    symlink there (`goals/first-goal.md -> ../notes/first-goal.md`), else None: the link is
    staged, and committed, as well as the file it leads to."""
    itself = _parent_real(path) / path.name
    if not itself.is_symlink() or not itself.is_relative_to(top.resolve()):
        return None
    return itself.relative_to(top.resolve()).as_posix()
