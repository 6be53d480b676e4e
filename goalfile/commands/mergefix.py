"""The fix for a verify entry that holds the rows of two runs (lint's `entry-merged`), for
the state git is in.

Lint's fix names the two sides of a merge commit, `HEAD^1` and `HEAD^2`. While git has not
finished (the conflict resolved by deleting its markers, not yet committed) HEAD is the tip
of one side and has no second parent: `git show HEAD^2:./PATH` fails, and `HEAD^1` is the
file one commit before that side's. The same holds during and after a rebase or a
cherry-pick, which make no merge commit. Here git's state is read, and the fix names the
sides it holds: HEAD and MERGE_HEAD (REBASE_HEAD, CHERRY_PICK_HEAD) while git is at it, the
merge commit's parents after it, and for a rebase or cherry-pick already committed, the
commit before HEAD and the log of the file. Where no commit before HEAD holds the file (a
first commit, or the one that added it), `git checkout HEAD^1 -- PATH` fails: no copy git
holds has the entry as one run wrote it, and the fix says what a person does instead.
"""

from __future__ import annotations

import os
from pathlib import Path

from goalfile.shellword import shell_word, show_command

# what git names the other side while it stops with a conflict, and what it is doing then
_UNDER_WAY = (
    ("MERGE_HEAD", "the merge"),
    ("REBASE_HEAD", "the rebase"),
    ("CHERRY_PICK_HEAD", "the cherry-pick"),
)

MERGED_SIDES = "rebuild the file from the merge's two sides"  # in lint's fix


def merged_hint(path: str, *, cwd: Path) -> str | None:
    """The fix for the goal file at ``path`` (as the person named it, from ``cwd``) whose
    newest verify entry two runs share, for the sides git holds now; None when lint's own fix
    names them (HEAD is a merge commit, nothing under way) or git cannot be read."""
    from goalfile.commands.gittop import repository_top
    from goalfile.gitrepo import git_blobs, git_commits_named, git_rebasing
    from goalfile.gitrun import GitUnreadable

    named = cwd / path
    where = Path(os.path.realpath(named.parent)) / named.name
    top = repository_top(where.parent)
    if top is None:
        return None
    relative = Path(os.path.relpath(where, os.path.realpath(top))).as_posix()
    try:
        found = git_commits_named(
            str(top), [*(name for name, _ in _UNDER_WAY), "HEAD^2", "ORIG_HEAD"]
        )
        if "REBASE_HEAD" in found and not git_rebasing(str(top)):
            del found["REBASE_HEAD"]  # left behind by a rebase that is done
        before = git_blobs(str(top), [f"HEAD^1:{relative}"])[0]  # the file one commit back
    except GitUnreadable:
        return None
    word = shell_word(path)
    tail = (
        f"then `goalfile verify {word}`; and take `merge=union` off goal files in "
        ".gitattributes (see docs/lifecycle.md, Merging a goal file)"
    )
    for name, doing in _UNDER_WAY:
        if name in found:
            return (
                f"{doing} is not finished, so rebuild the file from the two sides git holds: "
                f"one side's file whole (`git checkout HEAD -- {word}`), then the entries "
                f"only the other side has (`{show_command(name, path)}` shows its "
                f"file) appended after its last entry, {tail}"
            )
    if "HEAD^2" in found:
        return None
    if before is None:
        return (
            "no commit before HEAD holds the file (HEAD is the first commit, or the one that "
            "added it), so no copy git holds has that entry as one run wrote it: a person "
            "keeps the rows of the run that wrote the entry (or deletes the entry whole) and "
            "commits the file, "
            f"{tail}"
        )
    rebased = (
        f"after a rebase, `{show_command('ORIG_HEAD', path)}` shows that file; "
        if "ORIG_HEAD" in found
        else ""
    )
    return (
        "HEAD is no merge commit (a rebase or a cherry-pick made it, or the rows were "
        "copied), so rebuild the file from the file before it, whole (`git checkout HEAD^1 "
        f"-- {word}`), then append after its last entry the entries the replayed commit "
        f"added, as its own branch holds them ({rebased}`git log -p -- {word}` shows each "
        f"commit's entries), {tail}"
    )
