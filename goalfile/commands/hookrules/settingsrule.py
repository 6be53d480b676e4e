"""An active goal whose `cwd` or `shell` no system call takes: the hold, with the command
that deletes the line or sets back the value approved.
"""

from __future__ import annotations

from goalfile.commands.hookrules.outcome import GoalOutcome, hold_once
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.errors import GoalfileError
from goalfile.model import Goal

_DELETED = {
    "cwd": "the checks then run at the git top level",
    "shell": "the checks then run in /bin/sh",
}


_INSTEAD = {  # what else the agent may write on the line
    "cwd": "a folder relative to the goal file",
    "shell": "the absolute path of a shell",
}


def bad_path(goal: Goal, shown: str, stop: StopInput) -> GoalOutcome | None:
    """An active goal whose `cwd` or `shell` holds a NUL or another control character, which no
    system call takes, a `shell` that is not an absolute path of printable ASCII without spaces,
    or a `cwd` with whitespace at an end (a lint error, so verify refuses the goal): it holds
    the agent like a file that does not load, naming the file and line, with the command that
    deletes the key's lines (a value YAML continues on indented lines goes with them)."""
    from goalfile.handedit import delete_lines_command, set_key_command
    from goalfile.parse import path_problem
    from goalfile.settings import cwd_problem, shell_problem

    also = {"cwd": cwd_problem, "shell": shell_problem}
    for key, then in _DELETED.items():
        value = goal.meta.get(key)
        why = (path_problem(value) or also[key](value)) if isinstance(value, str) else None
        first = goal.key_line(key)
        if why is None or first is None or not 1 < first < goal.frontmatter_end:
            continue
        lines = goal.text.split("\n")  # lines as sed and the line numbers count them
        last = first
        while last + 1 < goal.frontmatter_end and lines[last][:1] in ("", " ", "\t"):
            last += 1  # lines[last] is line last + 1: a continuation of the value, or blank
        approved = _approved_setting(goal, key)
        if approved is None:
            fix = delete_lines_command(shown, first, last)
            does = f"deletes the `{key}:` line ({then})"
            instead = f" (or write {_INSTEAD[key]} there)"
        else:  # the goal was approved with one: deleting the line would change the contract
            fix = set_key_command(shown, first, key, _sed_value(approved)).strip("`")
            if last > first:  # the lines the value was continued on go
                fix = f"{delete_lines_command(shown, first + 1, last).strip('`')} && {fix}"
            fix = f"`{fix}`"
            does = f"sets the `{key}:` line back to `{approved}`, the value approved"
            instead = ""
        return hold_once(
            shown,
            "invalid",
            f"goalfile could not read {shown}: {shown}:{first}: {key} {value!r} {why}\n"
            f"  fix: {fix} {does}",
            f"Run the fix as written{instead}, never by giving up the goal; the next stop "
            "verifies it.",
            stop,
        )
    return None


_PLAIN_SETTING = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/.+=:,-")
"""The characters of a value YAML reads as itself (it starts with a letter, digit, `_`, `/` or
`.`) and a sed replacement takes as it is, once `/` is escaped."""


def _approved_setting(goal: Goal, key: str) -> str | None:
    """The ``cwd`` or ``shell`` the goal's newest approval recorded, when it recorded one that
    a printed `sed` can write back (None when it recorded none, or cannot be read)."""
    from goalfile.contract import last_approval

    try:
        found = last_approval(goal.text, path=goal.path)
    except GoalfileError:
        return None
    if found is None or found[1] is None:
        return None
    value = dict(found[1].settings).get(key)
    if value is None or not value or not _PLAIN_SETTING.issuperset(value) or value[0] in "+=:,-":
        return None
    return value


def _sed_value(value: str) -> str:
    return value.replace("/", "\\/")
