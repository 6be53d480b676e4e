"""The focus the Stop hook honours, for the views that show it (the status line, ``status``).

The hook honours a recorded focus (`goalfile focus`) only on a goal file inside the repository
that loads, is `active`, and whose `active` the ledger backs; otherwise it looks at every active
goal. A view that honoured any focus would show what the hook does not look at: a decoy of the
same slug in a folder git ignores, focused and met, read `goal auth (met)` on the status line
while `goals/auth.md` was active and unmet. So the views ask the hook's own rule.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from goalfile.value import Compared

__all__ = ["HookFocus", "hook_focus"]


class HookFocus(Compared):
    """The recorded focus (relative to the repository's top, as written) and, when the hook
    honours it, the goal file it looks at; else why it does not."""

    __slots__ = ("honoured", "recorded", "why_not")

    def __init__(self, *, recorded: str | None, honoured: Path | None, why_not: str | None) -> None:
        self.recorded: Final = recorded
        self.honoured: Final = honoured
        self.why_not: Final = why_not


def hook_focus(root: Path) -> HookFocus:
    """The focus of the working tree at ``root`` as the Stop hook reads it."""
    # imported here: most views have no focus to ask about
    from goalfile.commands.focus import recorded_focus
    from goalfile.commands.hookrules.focus import focused_goal

    focus = recorded_focus(root)
    if focus is None:
        return HookFocus(recorded=None, honoured=None, why_not=None)
    notes: list[str] = []
    try:
        honoured = focused_goal(root, notes, {}, [])
    except Exception as exc:  # as the hook: a focus record no rule foresaw is ignored
        why = f"the Stop hook cannot read the focus record ({type(exc).__name__}: {exc})"
        return HookFocus(recorded=focus.goal, honoured=None, why_not=why)
    if honoured is not None and Path(honoured).is_file():
        return HookFocus(recorded=focus.goal, honoured=Path(honoured), why_not=None)
    why = notes[-1] if notes else "the Stop hook does not look at it"
    return HookFocus(recorded=focus.goal, honoured=None, why_not=why.split("\n")[0])


def shown_path(path: Path, root: Path) -> str:
    """``path`` relative to the repository's top, as the status line names a goal."""
    try:
        return os.path.relpath(path, root)
    except ValueError:
        return str(path)
