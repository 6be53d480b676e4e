"""The goal files git tracks in a repository, in its index and in HEAD, for the Stop hook.

A goal file the working tree does not show is still the repository's goal while git tracks
it: deleting it, renaming it out of ``goals/``, removing it from the index (`git rm`), or
hiding it with `git update-index --skip-worktree` or ``--assume-unchanged`` (after which `git
status` and `git diff` show nothing) is no way to let an agent stop. One ``git ls-files`` per
repository lists them (:func:`goalfile.gitrepo.git_tracked`); the goal files git tracks are also
the ones the hook verifies before the others.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from goalfile import ledger
from goalfile.commands.gittop import holds_git
from goalfile.goalfolders import GOAL_FOLDERS
from goalfile.shellword import moved_aside, shell_word
from goalfile.value import Compared

PATHSPECS = GOAL_FOLDERS
_BLANK_LINES_RE = re.compile(r"(?:[ \t]*\r?\n)*")


# written out on goalfile.value: a dataclass compiled its methods at every start of `activate`
class Tracked(Compared):
    """One goal file git tracks, as the index and HEAD hold it."""

    __slots__ = ("assume_unchanged", "in_index", "relative", "root", "skip_worktree")

    def __init__(
        self,
        *,
        root: Path,
        relative: str,
        in_index: bool,
        skip_worktree: bool = False,
        assume_unchanged: bool = False,
    ) -> None:
        self.root: Final = root  # the repository's top
        self.relative: Final = relative  # as git names it, from the top: goals/auth.md
        self.in_index: Final = in_index  # False: only HEAD holds it (`git rm`, `git rm --cached`)
        self.skip_worktree: Final = skip_worktree
        self.assume_unchanged: Final = assume_unchanged

    @property
    def flagged(self) -> bool:
        """Marked so that `git status` and `git diff` do not show the working file."""
        return self.skip_worktree or self.assume_unchanged


def parse_listing(data: bytes, *, root: Path) -> dict[str, Tracked]:
    """The goal files (``*.md``) of a ``git ls-files -v -z --with-tree=HEAD`` listing, by the
    path git names. A tag in lower case marks assume-unchanged, ``S`` skip-worktree; ``M``
    alone is a file HEAD holds and the index does not (or an unmerged one)."""
    found: dict[str, Tracked] = {}
    for record in data.split(b"\0"):
        if len(record) < 3 or record[1:2] != b" ":
            continue
        tag = chr(record[0])
        relative = os.fsdecode(record[2:])
        if not relative.endswith(".md"):
            continue
        before = found.get(relative)
        in_index = tag.upper() != "M"
        found[relative] = Tracked(
            root=root,
            relative=relative,
            in_index=in_index or (before is not None and before.in_index),
            skip_worktree=tag.upper() == "S" or (before is not None and before.skip_worktree),
            assume_unchanged=tag.islower() or (before is not None and before.assume_unchanged),
        )
    return found


def tracked_goals(root: Path) -> dict[Path, Tracked]:
    """The goal files git tracks in the repository at ``root`` (keyed by ``root / path``);
    empty when ``root`` holds no ``.git`` (an empty ``.git`` folder is none:
    :func:`goalfile.commands.gittop.holds_git`). Raises :class:`goalfile.gitrun.GitUnreadable`
    when ``root`` holds a ``.git`` and git cannot list it (a broken index or ``.git``, a
    repository format git does not know, a HEAD that names no commit while branches exist):
    that is never "git tracks nothing"."""
    if not holds_git(root):
        return {}
    from goalfile.gitrepo import git_head_trees, git_tracked

    data = git_tracked(str(root), PATHSPECS)
    git_head_trees(str(root), PATHSPECS)  # the trees that listing read are HEAD's own
    return {root / relative: entry for relative, entry in parse_listing(data, root=root).items()}


def tracked_file(root: Path, path: Path) -> Tracked | None:
    """git's entry for the one goal file at ``path`` in the repository at ``root``, wherever
    in it the file lies (``plans/x.md``, named with ``--goal`` or focused, as well as a file
    under the goal folders): the file's own path is the pathspec (taken literally, so ``*`` or
    ``:`` in a name match only that name). None when git does not track it, or ``root`` holds
    no ``.git``. Raises :class:`goalfile.gitrun.GitUnreadable` as :func:`tracked_goals` does."""
    if not holds_git(root):
        return None
    try:
        relative = path.relative_to(root).as_posix()
    except ValueError:
        return None
    from goalfile.gitrepo import git_head_trees, git_tracked

    data = git_tracked(str(root), [f":(literal){relative}"])
    parent = relative.rpartition("/")[0]  # the trees on the way to it are HEAD's own
    git_head_trees(str(root), [parent] if parent else [])
    return parse_listing(data, root=root).get(relative)


def copies(
    entries: Mapping[Path, Tracked], *, index_ids: dict[Path, str] | None = None
) -> dict[Path, tuple[bytes | None, bytes | None]]:
    """The bytes HEAD and the index hold for each tracked goal file of ``entries`` that the
    working tree shows (a file, or a symlink), by path: one ``git cat-file --batch`` per
    repository for both. None where one of them holds no such file (a goal added since HEAD;
    one removed from the index). The Stop hook holds the working file to the copy it must
    continue (:func:`reference`) and runs only a contract one of them approves
    (:mod:`goalfile.approvalcopy`). ``index_ids``, when given, gets the object id of each
    copy the index holds, by path. Raises :class:`goalfile.gitrun.GitUnreadable`."""
    from goalfile.gitrepo import git_blobs, git_index_ids
    from goalfile.gitrun import GitUnreadable

    by_root: dict[Path, list[tuple[Path, Tracked]]] = {}
    for path, entry in entries.items():
        if not entry.flagged and os.path.lexists(path):
            by_root.setdefault(entry.root, []).append((path, entry))
    found: dict[Path, tuple[bytes | None, bytes | None]] = {}
    for root, pairs in by_root.items():
        names = [
            name
            for _, entry in pairs
            for name in (f"HEAD:{entry.relative}", f":0:{entry.relative}")
        ]
        ids: dict[str, str] = {}
        blobs = git_blobs(str(root), names, ids=ids)
        staged = git_index_ids(str(root), [entry.relative for _, entry in pairs])
        for at, (path, entry) in enumerate(pairs):
            lacked = blobs[2 * at + 1] is None and "\n" not in entry.relative  # (not asked)
            if lacked and entry.relative in staged:
                raise GitUnreadable(  # its file deleted from .git/objects: not "none staged"
                    f"git's objects do not hold what their names say, for :0:{entry.relative}: "
                    f"the index names {staged[entry.relative]} for it, which git's objects lack",
                    forged=True,
                )
            found[path] = (blobs[2 * at], blobs[2 * at + 1])
            if index_ids is not None and f":0:{entry.relative}" in ids:
                index_ids[path] = ids[f":0:{entry.relative}"]
    return found


def reference(entry: Tracked, head: bytes | None, index: bytes | None) -> tuple[str, bytes] | None:
    """The copy a tracked goal file's working copy must continue, with where git holds it:
    HEAD's blob, else, for a file the index holds and HEAD does not, the index's. HEAD moved to
    a branch whose tree lacks the goal (`git symbolic-ref HEAD refs/heads/main`, nothing
    checked out) leaves the index holding it: the goal continues what git staged. None when
    neither holds it."""
    if head:
        return "HEAD", head
    if index and entry.in_index:
        return "the index", index
    return None


# an entry placed among those HEAD holds: the hook counts entries by place, so a `by pause`
# entry dated yesterday put before HEAD's last entry (a `by stop-hook` entry, which has no
# status line) read as one git holds, and the stop was let go without a word
_INSERTED = "entry-inserted"


def departure(before: str, now: str, ref: str = "HEAD") -> str | None:
    """How the goal text ``now`` fails to extend ``before``, the text ``ref`` (HEAD, or the
    index) holds at its path:
    another slug, or a ledger entry HEAD holds that is gone, rewritten or moved, or a new entry
    placed among them instead of after them (see
    :func:`goalfile.audit.ledger_growth`); None when it extends it (entries appended, the
    status and counters updated, the text edited elsewhere)."""
    if now == before:
        return None
    from goalfile.parse import frontmatter_meta

    was, meta = _slug(frontmatter_meta(before)), frontmatter_meta(now)
    if was is not None and meta is not None and _slug(meta) != was:
        return f"its slug is {_slug(meta) or 'missing'}, where {ref}'s is {was}"
    from goalfile.parse import ledger_region

    old = ledger_region(before)
    if old is None:
        return None
    new = ledger_region(now)
    if new is not None and now.startswith(before[old[0] : old[1]], new[0]):
        # the usual case: entries appended to the ledger HEAD holds; lines after its last
        # entry that begin no entry (a heading no reader takes) would be read as part of
        # that entry: a rewrite, as audit says, which the comparison below names
        rest = now[new[0] + old[1] - old[0] : new[1]]
        if _begins_entry(rest) or next(ledger.heads(before, *old), None) is None:
            return None
    from goalfile.audit import blocks, ledger_growth

    growth = ledger_growth("", blocks(before), blocks(now), ref)
    for finding in growth.findings:
        if finding.code in ("entry-deleted", "entry-rewritten", "entry-moved", _INSERTED):
            return f"its ledger does not extend {ref}'s: {finding.entry}: {finding.message}"
    return None


def _begins_entry(text: str) -> bool:
    """Whether ``text``, what follows a ledger's last entry, is blank or begins (after blank
    lines) with an entry heading goalfile reads."""
    first = _BLANK_LINES_RE.match(text)
    rest = text[first.end() :] if first is not None else text
    return rest.strip() == "" or ledger.is_heading(rest.split("\n", 1)[0])


def _slug(meta: Mapping[str, object] | None) -> str | None:
    """The ``slug`` of frontmatter keys YAML read (None without one, or without frontmatter
    that reads: the loader holds such a file)."""
    value = None if meta is None else meta.get("slug")
    return None if value is None or value == "" else str(value)


def hidden(path: Path, entry: Tracked) -> bool:
    """Whether the working tree fails to show the tracked goal file at ``path``: it is gone
    (or no longer a file), or git is told not to look at it."""
    return entry.flagged or not path.is_file()


def standing(path: Path) -> str | None:
    """What stands at a tracked goal file's ``path`` that `git checkout` would delete to put
    the file back (a folder, with whatever is in it; a FIFO, socket or device), said for a
    reason; None when nothing is there, or a file or a symlink is."""
    import stat

    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return None
    return "a FIFO, socket or device"


def restore_command(path: Path, entry: Tracked, *, here: Path) -> str:
    """The command that makes the working tree show the goal file again, run as written from
    the session's folder ``here``: the marks cleared, and a missing file checked out from the
    index (or from HEAD, when the index no longer holds it). A file that is there is never
    checked out over: it may hold entries written since; and a folder (or a special file)
    standing at its path is moved into a new temporary folder first, since git would delete
    it and whatever it holds."""
    git = git_from(entry.root, here)
    name = shell_word(entry.relative)
    steps = []
    if entry.skip_worktree:
        steps.append(f"{git} update-index --no-skip-worktree -- {name}")
    if entry.assume_unchanged:
        steps.append(f"{git} update-index --no-assume-unchanged -- {name}")
    if not path.is_file():
        if standing(path) is not None:  # the entry itself, never what a link above it names
            there = os.path.realpath(path.parent) + os.sep + path.name
            steps.append(moved_aside(shell_word(os.path.relpath(there, here))))
        source = "" if entry.in_index else " HEAD"
        steps.append(f"{git} checkout{source} -- {name}")
    return " && ".join(steps)


def checkout_command(entry: Tracked, *, here: Path, source: str = "HEAD") -> str:
    """The command that puts back the goal file ``source`` (HEAD, or the index) holds at
    ``entry``'s path, run as written from the session's folder ``here`` (it replaces what the
    working tree holds there)."""
    ref = " HEAD" if source == "HEAD" else ""
    return f"{git_from(entry.root, here)} checkout{ref} -- {shell_word(entry.relative)}"


def git_from(root: Path, here: Path) -> str:
    """``git``, run as written from the folder ``here``, on the repository whose top is
    ``root``: with ``-C`` and the relative path when they differ."""
    if root.resolve() == here.resolve():
        return "git"
    return f"git -C {shell_word(os.path.relpath(root.resolve(), here))}"


def kept_ledger(before: str, now: str, ref: str = "HEAD") -> tuple[str, int, int] | None:
    """``now`` with the entries of the ledger ``before`` holds (the copy ``ref``, HEAD or the
    index, holds) put back as ``before`` holds them, every entry ``now`` holds after them kept
    as it is, and the rest of ``now`` (frontmatter, criteria, what follows the ledger) left as
    it is; with the count of entries put back and of entries kept. None when ``now``'s first
    entries are not ``before``'s, heading for heading (an entry removed, moved, or its heading
    changed: which entries were written after ``before`` cannot be told), when ``now`` is not
    the goal ``before`` is (:func:`_same_goal`: another slug, other criteria), when nothing
    would change, or when the result would still not continue ``before``."""
    from goalfile.parse import ledger_region

    old, new = ledger_region(before), ledger_region(now)
    if old is None or new is None or not _same_goal(before, now):
        return None
    was, found = _entry_heads(before, old), _entry_heads(now, new)
    if len(found) < len(was) or [f for _, f in found[: len(was)]] != [f for _, f in was]:
        return None
    cut = found[len(was)][0] if len(found) > len(was) else new[1]
    kept = before[old[0] : old[1]]
    if cut < new[1] and not kept.endswith("\n\n"):
        kept = kept.rstrip("\n") + "\n\n"  # a blank line before the first entry kept
    text = now[: new[0]] + kept + now[cut:]
    if text == now or departure(before, text, ref) is not None:
        return None
    return text, len(was), len(found) - len(was)


def would_drop_entries(before: str, now: str) -> bool:
    """Whether a checkout of ``before`` over ``now`` would drop entries of the same goal
    (:func:`_same_goal`): the ledger of ``now`` holds more entries than ``before``'s. Another
    goal's file copied over it (another slug, or other criteria) holds no entry of this goal."""
    from goalfile.parse import ledger_region

    if not _same_goal(before, now):
        return False
    old, new = ledger_region(before), ledger_region(now)
    if new is None:
        return False
    return len(_entry_heads(now, new)) > (len(_entry_heads(before, old)) if old else 0)


def unlike(before: str, now: str) -> str:
    """Why :func:`kept_ledger` cannot tell the entries of ``before`` in ``now`` apart, in
    words: another slug, a contract other than ``before``'s (a criterion, a non-goal or a
    run setting changed: the entries could be another goal's), or the entry headings."""
    from goalfile.parse import frontmatter_meta

    was, slug = _slug(frontmatter_meta(before)), _slug(frontmatter_meta(now))
    if was != slug:
        return f"its slug is {slug or 'missing'}, not {was or 'missing'}: another goal's file"
    if not _same_goal(before, now):
        return (
            "its criteria, non-goals or run settings differ from that copy's, so its entries "
            "could be another goal's (a changed criterion needs `goalfile activate --reapprove` "
            "after the checkout)"
        )
    return "an entry heading changed or removed"


def _same_goal(before: str, now: str) -> bool:
    """Whether ``now`` is the goal ``before`` is: the same slug, and the same contract (criteria,
    non-goals, run settings), so that its entries are this goal's."""
    from goalfile import contract
    from goalfile.errors import GoalfileError
    from goalfile.parse import frontmatter_meta, parse_goal

    if _slug(frontmatter_meta(before)) != _slug(frontmatter_meta(now)):
        return False
    try:
        was, goal = parse_goal(before, path="before"), parse_goal(now, path="now")
    except GoalfileError:
        return False
    return contract.digest(was) == contract.digest(goal)


def _entry_heads(text: str, region: tuple[int, int]) -> list[tuple[int, tuple[str, str, str, str]]]:
    """The entry heading lines of the ledger at ``region`` of ``text``: offset and fields."""
    from goalfile import ledger

    return [(at, f) for at, f in ledger.headings(text).entries if region[0] <= at < region[1]]


SAVED = ".goalfile-saved"  # the suffix of the copy of a goal file kept before a checkout


def saved_checkout(entry: Tracked, *, here: Path, source: str = "HEAD") -> str:
    """:func:`checkout_command`, after a copy of the working file is kept beside it
    (``PATH.goalfile-saved``, else ``PATH.goalfile-saved-2``, ... when an earlier hold kept
    one; never over an earlier one), so that what the working file held that git's copy does
    not (entries written since) is not lost."""
    shown = os.path.relpath(entry.root.resolve() / entry.relative, here)
    suffix, number = SAVED, 1
    while os.path.lexists(entry.root / (entry.relative + suffix)):  # kept at an earlier hold
        number += 1
        suffix = f"{SAVED}-{number}"
    saved = shell_word(shown + suffix)
    return (
        f"[ ! -e {saved} ] && cp -- {shell_word(shown)} {saved} && "
        f"{checkout_command(entry, here=here, source=source)}"
    )
