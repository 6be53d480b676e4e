"""What git says of the goal files the Stop hook looks at (:class:`GitView`): those it tracks,
those whose working copy does not continue the copy HEAD (or the index) holds, the copies
themselves, and the repositories git could not list.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Final

from goalfile.commands.gittop import holds_git
from goalfile.errors import GoalfileError
from goalfile.files import read_text, real_path
from goalfile.goalfolders import under_goal_folder
from goalfile.value import Value

if TYPE_CHECKING:
    from goalfile.commands.gitgoals import Tracked


def held_tracked(roots: list[Path], notes: list[str]) -> GitView:
    """What git says of the goals outside the goal folders recorded as held in ``roots``
    (asked by each file's own path, as for a focused one)."""
    from goalfile.commands.focusheld import held

    git = GitView(tracked={}, swapped={}, failed={})
    for root in roots:
        for relative in held(root, notes):
            path = Path(os.path.normpath(root / relative))
            if path.is_relative_to(root) and not under_goal_folder(path, root):
                git = merged(git, tracked_goal(str(path), [root]))
    return git


class GitView(Value):
    """What git says of the goal files of the repositories the hook looks at."""

    __slots__ = ("copies", "failed", "index_ids", "repositories", "staged", "swapped", "tracked")

    def __init__(
        self,
        *,
        tracked: dict[Path, Tracked],
        swapped: dict[Path, str],
        failed: dict[Path, Exception],
        staged: frozenset[Path] = frozenset(),
        copies: dict[Path, tuple[bytes | None, bytes | None]] | None = None,
        repositories: frozenset[Path] = frozenset(),
        index_ids: dict[Path, str] | None = None,
    ) -> None:
        self.tracked: Final = tracked  # the goal files git tracks
        # tracked goal files whose working copy does not extend HEAD's
        self.swapped: Final = swapped
        self.failed: Final = failed  # repositories git could not list, with its error
        self.staged: Final = staged  # of ``swapped``: compared with the index's copy
        # what HEAD and the index hold of each tracked goal file the working tree shows, and the
        # tops of the repositories asked: a goal file in one of them is run only when a copy git
        # holds approves its contract (:func:`goalfile.commands.hookrules.approval.unapproved_hold`)
        self.copies: Final[dict[Path, tuple[bytes | None, bytes | None]]] = (
            {} if copies is None else copies
        )
        self.repositories: Final = repositories
        # the object id of each copy of ``copies`` the index holds: a goal only staged is put
        # back from it when a checkout or a reset took it away (the session's record keeps it)
        self.index_ids: Final[dict[Path, str]] = {} if index_ids is None else index_ids

    def staged_only(self) -> dict[Path, str]:
        """The object id of each goal file's copy the index holds where HEAD holds none."""
        return {
            path: oid
            for path, oid in self.index_ids.items()
            if self.copies.get(path, (None, None))[0] is None
        }


def tracked_in(roots: list[Path]) -> GitView:
    """The goal files git tracks in each repository at ``roots`` (one `git ls-files` each),
    innermost repository first; those whose working file is not a continuation of the one
    HEAD holds (one `git cat-file --batch` each, :func:`_swapped`); and the repositories git
    could not list (a broken index, an unknown repository format, a HEAD that names no
    commit while branches exist), which hold the agent: that is never "git tracks nothing"."""
    from goalfile.commands.gitgoals import tracked_goals

    return _gathered([(root, partial(tracked_goals, root)) for root in roots])


def _gathered(listings: list[tuple[Path, Callable[[], Mapping[Path, Tracked]]]]) -> GitView:
    """:class:`GitView` from the goal files each repository's listing gives (a repository top,
    and the call that lists its tracked goal files by the path the hook names them with): each
    listed file is tracked, one whose working file does not continue HEAD's copy is swapped,
    and a repository whose listing or HEAD's copies git cannot read has failed."""
    from goalfile.commands.gitgoals import copies, reference
    from goalfile.gitrun import GitUnreadable

    found: dict[Path, Tracked] = {}
    swapped: dict[Path, str] = {}
    failed: dict[Path, Exception] = {}
    staged: set[Path] = set()
    held: dict[Path, tuple[bytes | None, bytes | None]] = {}
    ids: dict[Path, str] = {}
    for top, listing in listings:
        try:
            listed = listing()
            for path, entry in listed.items():
                found.setdefault(path, entry)
            both = copies(listed, index_ids=ids) if listed else {}
        except GitUnreadable as exc:
            failed.setdefault(top, exc)
            continue
        for path, (head, index) in both.items():
            held.setdefault(path, (head, index))
            ref = reference(listed[path], head, index)
            why = _swapped(path, ref[1], ref[0]) if ref is not None else None
            if why is not None and path not in swapped:
                swapped[path] = why
                if ref is not None and ref[0] != "HEAD":
                    staged.add(path)
    tops = frozenset(top for top, _ in listings if holds_git(top))
    return GitView(
        tracked=found,
        swapped=swapped,
        failed=failed,
        staged=frozenset(staged),
        copies=held,
        repositories=tops,
        index_ids=ids,
    )


def merged(first: GitView, then: GitView) -> GitView:
    """What git says in ``first`` and in ``then``; ``first`` wins where both speak."""
    return GitView(
        tracked={**then.tracked, **first.tracked},
        swapped={**then.swapped, **first.swapped},
        failed={**then.failed, **first.failed},
        staged=(then.staged - first.swapped.keys()) | first.staged,
        copies={**then.copies, **first.copies},
        repositories=first.repositories | then.repositories,
        index_ids={**then.index_ids, **first.index_ids},
    )


def tracked_goal(goal: str, roots: list[Path]) -> GitView:
    """:func:`tracked_in` for the goal file ``--goal`` names, keyed by the path
    :func:`goalfile.commands.hookrules.discover.goal_paths` gives it: a relative one in each
    repository at ``roots`` (it is resolved against each of them), an absolute one in the repository
    that holds it. Named outright or not, a goal file git tracks must be there, seen by git, and
    continue the one HEAD holds, and a repository git cannot list holds the agent; the other goal
    files of the repositories are not looked at."""
    from goalfile.commands.gittop import repository_top

    given = Path(goal).expanduser()
    places: list[tuple[Path, Path, Path]] = []  # (repository top, key, path as git names it)
    if given.is_absolute():
        folder = given.parent
        while not folder.is_dir() and folder.parent != folder:
            folder = folder.parent
        top = repository_top(folder)
        if top is not None:
            real = real_path(given.parent) / given.name  # the file itself, never what it links to
            if real.is_relative_to(top):
                places.append((top, given, real))
    else:
        places = [(root, root / given, Path(os.path.normpath(root / given))) for root in roots]
    places = [place for place in places if holds_git(place[0])]
    if not places:  # outside git: nothing to ask it
        return GitView(tracked={}, swapped={}, failed={})
    from goalfile.commands.gitgoals import tracked_file

    def listing(top: Path, key: Path, path: Path) -> dict[Path, Tracked]:
        entry = tracked_file(top, path)  # asked of the file itself: it may lie outside goals/
        return {} if entry is None else {key: entry}

    return _gathered([(top, partial(listing, top, key, path)) for top, key, path in places])


def _swapped(path: Path, blob: bytes, ref: str = "HEAD") -> str | None:
    """How the working file at a tracked goal's ``path`` fails to be the goal ``ref`` (HEAD,
    or the index when HEAD holds none) holds there as ``blob``
    (:func:`goalfile.commands.gitgoals.departure`): a symlink where HEAD has
    another thing, another goal copied over it, a committed ledger entry gone or rewritten.
    None when it extends HEAD's goal, or when it does not read (the loader holds it)."""
    from goalfile.commands.gitgoals import departure
    from goalfile.files import ENCODING, ERRORS

    if os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:
            return None  # not a symlink any more: the loader reads what is there
        if os.fsencode(target) == blob:
            return None  # HEAD holds this same symlink
        return f"it is a symlink (to {target}), which is not what {ref} holds there"
    try:
        text = read_text(path)
    except GoalfileError:
        return None
    from goalfile.parse import conflict_markers

    if conflict_markers(text):  # a merge git has not finished: the loader holds it (its fix
        return None  # keeps both sides' entries, where HEAD's file alone would drop theirs)
    return departure(blob.decode(ENCODING, ERRORS), text, ref)


def departs(path: Path, text: str, entry: Tracked, git: GitView) -> tuple[str, str] | None:
    """How the goal ``text``, read from the tracked goal file at ``path``, fails to continue
    the copy git holds (:func:`goalfile.commands.gitgoals.reference`), with that copy's name
    (``HEAD``, ``the index``); None when it continues it, when git gave no copy to compare
    with, or when the path is the very symlink git holds there. A symlink put there since the
    hook compared the file (the text just read came through it) is no continuation."""
    from goalfile.commands.gitgoals import departure, reference
    from goalfile.files import ENCODING, ERRORS
    from goalfile.parse import conflict_markers

    both = git.copies.get(path)
    ref = reference(entry, *both) if both is not None else None
    if ref is None:
        return None
    if os.path.islink(path):  # a link now: the one git holds there, or one put there meanwhile
        try:
            target = os.readlink(path)
        except OSError:  # a file again: the text read through it was still not this one's
            target = None
        if target is not None and os.fsencode(target) == ref[1]:
            return None
        return (ref[0], f"it is a symlink (to {target}), which is not what {ref[0]} holds there")
    if conflict_markers(text):
        return None
    why = departure(ref[1].decode(ENCODING, ERRORS), text, ref[0])
    return None if why is None else (ref[0], why)


def keeping(path: Path, entry: Tracked, git: GitView) -> str | None:
    """How the fix of a tracked goal file that does not continue git's copy keeps what the
    working file holds: "restore" when `goalfile restore` can put back git's entries and keep
    those written since (:func:`goalfile.commands.gitgoals.kept_ledger`); "save" when it
    cannot and a checkout would drop entries of the goal the working file holds
    (:func:`goalfile.commands.gitgoals.would_drop_entries`); None otherwise (a link, another
    goal's file, nothing a checkout would lose)."""
    from goalfile.commands.gitgoals import kept_ledger, reference, would_drop_entries
    from goalfile.files import ENCODING, ERRORS

    found = reference(entry, *git.copies.get(path, (None, None)))
    if found is None or os.path.islink(path):
        return None
    try:
        now = read_text(path)
    except GoalfileError:
        return None
    before = found[1].decode(ENCODING, ERRORS)
    if kept_ledger(before, now, found[0]) is not None:
        return "restore"
    return "save" if would_drop_entries(before, now) else None


def entries_git_holds(path: Path, entry: Tracked | None, git: GitView | None = None) -> int | None:
    """How many ledger entries HEAD's copy of the tracked goal file at ``path`` has: the
    entries after them are new since, whatever their headings say. 0 when only git's index
    holds the file (anyone with a shell can stage entries: none of them counts as held). None
    when git tracks no such file, or cannot give it (the date rule of
    :func:`goalfile.commands.hookrules.statusrules.ended_today` then decides). The copies ``git``
    read already are taken from it, without asking git again."""
    if entry is None:
        return None
    from goalfile import ledger
    from goalfile.files import ENCODING, ERRORS
    from goalfile.gitrepo import git_blobs
    from goalfile.gitrun import GitUnreadable
    from goalfile.parse import ledger_region

    copy = git.copies.get(path) if git is not None else None
    if copy is not None:
        head, index = copy
    else:
        try:
            blobs = git_blobs(str(entry.root), [f"HEAD:{entry.relative}", f":{entry.relative}"])
        except GitUnreadable:
            return None
        head, index = blobs
    if head is None:  # only git's index holds it: anyone with a shell can stage entries
        return 0 if index is not None and entry.in_index else None
    text = head.decode(ENCODING, ERRORS)
    region = ledger_region(text)
    return len(ledger.iterations(text, *region)) if region is not None else 0
