"""`goalfile statusline`: the line Claude Code shows under its prompt, for the goal this working
tree focuses on (`goalfile focus`) when the Stop hook honours the focus, else its active goal,
named by its path; and `goalfile init --statusline`, which registers it in
.claude/settings.json.

The status JSON Claude Code writes on stdin only tells where the session is (``workspace``,
``cwd``); nothing else is read from it. A status line must never get in the way: input that
is not JSON, a goal file that cannot be read or no goal at all print a short line or nothing,
and the exit is 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from goalfile import hostjson, statusline
from goalfile.commands.context import Context
from goalfile.commands.focus import read_focus
from goalfile.commands.focusrule import hook_focus, shown_path
from goalfile.commands.status import discover, last_entry
from goalfile.commands.workdir import repository_top
from goalfile.errors import GoalfileError
from goalfile.files import load_goal
from goalfile.handedit import budget_in_force, iterations_in_use
from goalfile.model import Goal, Status
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name


def session_folder(raw: str, ctx: Context) -> Path:
    """The folder of the session: workspace.current_dir, else cwd, else ours."""
    try:
        data = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        data = {}
    if isinstance(data, dict):
        workspace = data.get("workspace")
        for value in (
            workspace.get("current_dir") if isinstance(workspace, dict) else None,
            data.get("cwd"),
        ):
            if isinstance(value, str) and value and Path(value).is_dir():
                return Path(value)
    return ctx.cwd


def status_text(raw: str, ctx: Context) -> str:
    """The line for the goal the Stop hook looks at first: the focused goal when the hook
    honours the focus (:mod:`goalfile.commands.focusrule`), else the first active goal, else a
    focused goal that is not active (nothing is then held); each named by its path."""
    folder = session_folder(raw, ctx)
    root = repository_top(folder) or folder
    focus = hook_focus(root)
    if focus.honoured is not None:
        shown = shown_path(focus.honoured, root)
        try:
            goal = load_goal(str(focus.honoured))
        except GoalfileError:
            return f"goal {file_name(shown)}: unreadable (`goalfile lint {shell_word(shown)}`)"
        return _line(goal, shown)
    active: list[Goal] = []
    for path in discover(root):
        try:
            goal = load_goal(path)
        except GoalfileError:
            continue
        if goal.status is Status.ACTIVE:
            active.append(goal)
    if active:
        first = active[0]
        return _line(first, shown_path(Path(first.path), root), others=len(active) - 1)
    recorded = read_focus(root)
    if recorded is None or not (root / recorded.goal).is_file():
        return ""
    try:
        goal = load_goal(str(root / recorded.goal))
    except GoalfileError:
        named = file_name(recorded.goal)
        return f"goal {named}: unreadable (`goalfile lint {shell_word(recorded.goal)}`)"
    return _line(goal, recorded.goal)


def _line(goal: Goal, shown: str, *, others: int = 0) -> str:
    """The line of ``goal``; a `met` typed by hand, which the ledger does not back (`status`
    refuses it, the hook holds the agent on it), is said to be one."""
    from goalfile.handedit import unbacked_met

    unbacked = "status met typed by hand, not backed by verify" if unbacked_met(goal) else None
    return statusline.line(
        goal,
        last_entry(goal),
        others=others,
        used=iterations_in_use(goal),
        budget=budget_in_force(goal),
        name=shown,
        status=unbacked,
    )


@dataclass(frozen=True, kw_only=True)
class StatuslineRegistration:
    path: str
    changed: bool
    other: str | None  # the command of a status line that was there and is kept

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "changed": self.changed, "kept_other": self.other}


def register(*, root: Path) -> StatuslineRegistration:
    """Merge our statusLine into ``root``/.claude/settings.json (another one is kept)."""
    path = root / ".claude" / "settings.json"
    document, text = hostjson.load(path)
    merged = statusline.merge(
        hostjson.top_object(document, what="the settings file", file=str(path))
    )
    if merged.changed:
        hostjson.write_atomic(path, hostjson.render(merged.document, like=text or ""))
    return StatuslineRegistration(path=str(path), changed=merged.changed, other=merged.other)
