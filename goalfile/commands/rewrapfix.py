"""The fix for a goal file a formatter rewrapped (lint's `entry-rewrapped`), for the copy git
holds of it.

Lint's own fix, `git checkout -- PATH`, undoes a change the working tree holds and the index
does not. After `git add` it puts back the rewrapped file the index holds, and after a commit
the one HEAD holds: run as written, it changes nothing, and the next commit is stopped again.
Here git's copies are read: when the index holds the file rewrapped, the fix names the copy
to take instead, HEAD's, or else the newest commit's that holds it as goalfile wrote it, as a
command that works as written, after the formatter's setting that keeps paragraphs (else a
pre-commit hook that runs it rewraps the file again at the next commit).
"""

from __future__ import annotations

import os
from pathlib import Path

from goalfile.files import ENCODING, ERRORS
from goalfile.lint import REWRAP_KEEP, rewrapped_text
from goalfile.shellword import shell_word

# commits of the file looked at for one that holds it unwrapped, newest first
SEARCHED_COMMITS = 200


def _rewrapped(blob: bytes) -> bool:
    return rewrapped_text(blob.decode(ENCODING, ERRORS))


def rewrapped_hint(path: str, *, cwd: Path) -> str | None:
    """The fix for the rewrapped goal file at ``path`` (as the person named it, from ``cwd``)
    when git's index holds it rewrapped too; None when lint's own fix works as written (the
    index holds it unwrapped), or git holds no copy of it."""
    from goalfile.commands.gitgoals import copies, tracked_file
    from goalfile.commands.gittop import repository_top
    from goalfile.gitrepo import git_blobs, git_path_commits
    from goalfile.gitrun import GitUnreadable

    named = cwd / path
    where = Path(os.path.realpath(named.parent)) / named.name
    top = repository_top(where.parent)
    if top is None:
        return None
    word = shell_word(path)
    try:
        entry = tracked_file(top, where)
        if entry is None or entry.flagged:
            return None
        head, index = copies({where: entry}).get(where, (None, None))
        if index is not None and not _rewrapped(index):
            return None
        if head is not None and not _rewrapped(head):
            return (
                f"{REWRAP_KEEP}; the formatter's change is staged, so put back the file HEAD "
                f"holds, in the index and the working tree: `git checkout HEAD -- {word}` "
                f"(entries written since that commit go with it; `goalfile verify {word}` "
                "then runs the checks again)"
            )
        commits = git_path_commits(str(top), entry.relative, limit=SEARCHED_COMMITS)
        blobs = git_blobs(str(top), [f"{commit}:{entry.relative}" for commit in commits])
    except GitUnreadable:
        return None
    for commit, blob in zip(commits, blobs, strict=True):
        if blob is not None and not _rewrapped(blob):
            short = commit[:12]
            message = shell_word(f"{entry.relative}: the ledger as goalfile wrote it")
            return (
                f"{REWRAP_KEEP}; the formatter's change was committed, so put back the file "
                f"as commit {short} holds it, the newest commit that holds it unwrapped, and "
                f"commit it: `git checkout {short} -- {word} && git commit -m {message} -- "
                f"{word}` (entries written since go with it; `goalfile verify {word}` then "
                "runs the checks again)"
            )
    return (
        f"{REWRAP_KEEP}; no commit of the last {len(commits)} that changed {word} holds it "
        "unwrapped (`git log -p -- "
        f"{word}` shows them), so only a copy of the file from before the formatter ran gives "
        "back its entries"
    )
