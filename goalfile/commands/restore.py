"""`goalfile restore PATH`: put back the ledger entries of the copy of a goal file that git
holds (HEAD's, else the index's) as git holds them, and keep every entry written after them.

The Stop hook holds an agent whose goal file no longer continues git's copy: a ledger entry
rewritten (`sed -i 's/status: active/status: met/'` over the whole file). `git checkout --
PATH` puts git's copy back and drops every entry written since it was staged or committed
(verify entries, and the iterations they back, which would go back to the budget). This
rewrites only the entries git's copy holds, from that copy, and leaves the rest of the file as
it is (the frontmatter, the criteria, the entries written since), except a frontmatter
`status:` the mended ledger does not back (the `met` that `sed` typed), which is set back to
the status it backs, on that line alone. A file it cannot mend so (an entry heading changed or
removed, another goal's file, a criterion changed) is refused, file untouched, with the command
that keeps a copy of the file before it checks git's out.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from goalfile import edit
from goalfile.commands.context import Context
from goalfile.commands.gitgoals import departure, kept_ledger, saved_checkout, unlike
from goalfile.commands.mutate import update_goal
from goalfile.errors import Refused
from goalfile.files import parse_text
from goalfile.handedit import backed_status
from goalfile.model import Goal, Status
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name


@dataclass(frozen=True, kw_only=True)
class RestoreResult:
    path: str
    source: str  # HEAD, or the index
    restored: int  # the entries of git's copy, put back as git holds them
    kept: int  # the entries written after them, kept as they are
    status: tuple[str, str] | None = None  # a status the ledger did not back, and the one set

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "path": self.path,
            "source": self.source,
            "restored": self.restored,
            "kept": self.kept,
            "status": None
            if self.status is None
            else {"was": self.status[0], "now": self.status[1]},
        }


def restore(*, path: str, ctx: Context) -> RestoreResult:
    """Mend the goal file at ``path`` as the module says; raises :class:`Refused`."""
    from goalfile.commands.gitgoals import copies, reference, tracked_file
    from goalfile.commands.gittop import repository_top
    from goalfile.files import ENCODING, ERRORS

    named = ctx.cwd / path
    if named.is_dir():  # the usage error every command gives a folder, with its fix
        from goalfile.files import read_text

        read_text(path if os.path.isabs(path) else named)
    where = Path(os.path.realpath(named.parent)) / named.name
    top = repository_top(where.parent)
    entry = tracked_file(top, where) if top is not None else None
    found = None
    if entry is not None and not os.path.islink(where):
        head, index = copies({where: entry}).get(where, (None, None))
        found = reference(entry, head, index)
    if entry is None or found is None:
        raise Refused(
            f"git holds no copy of {file_name(path)} that goalfile can restore from (neither its "
            "index nor HEAD holds the file); nothing was written",
            file=path,
        )
    source, blob = found
    before = blob.decode(ENCODING, ERRORS)

    def change(text: str, goal: Goal) -> tuple[str, RestoreResult]:
        if departure(before, text, source) is None:
            raise Refused(
                f"{path} continues the goal {source} holds; there is nothing to restore",
                file=path,
                hint=(
                    f"`goalfile verify {shell_word(path)}` verifies it"
                    if goal.status is Status.ACTIVE  # verify refuses any other status
                    else f"`goalfile status {shell_word(path)}` names the next step for a "
                    f"{goal.status.value} goal"
                ),
            )
        mended = kept_ledger(before, text, source)
        if mended is None:
            raise Refused(
                f"the entries of the goal {source} holds cannot be told apart from those "
                f"written after them in {path} ({unlike(before, text)}); nothing was written",
                file=path,
                hint=f"`{saved_checkout(entry, here=ctx.cwd, source=source)}` keeps a copy "
                f"of the file, then puts back the goal {source} holds",
            )
        mended_text, restored, kept = mended
        # a status the mended ledger does not back (the `met` the same `sed` typed into the
        # frontmatter) is set back to the one it backs, on the status line alone
        status = backed_status(parse_text(path, mended_text))
        was = goal.status.value
        changed = status is not None and status.value != was
        if status is not None and changed:
            mended_text = edit.set_value(mended_text, "status", status.value)
        return mended_text, RestoreResult(
            path=path,
            source=source,
            restored=restored,
            kept=kept,
            status=(was, status.value) if status is not None and changed else None,
        )

    return update_goal(path, ctx, command="goalfile restore", change=change)
