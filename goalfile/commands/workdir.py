"""Where a goal's checks run, and which rule decided it (DESIGN §10).

The working directory is the frontmatter ``cwd`` (relative to the goal file) if set; else
the top of the git work tree that holds the goal; else the folder that holds the ``.zetetic/``
or ``goals/`` folder above the goal; else the goal's own folder.

The git top level comes from git itself (``git rev-parse --show-toplevel``), asked only in
folders that hold a ``.git`` and accepted only when git names that very folder as the top of
a work tree: an empty or broken ``.git`` file or folder planted between the goal and the real
top does not move the checks. A ``.git`` that git accepts (a repository the agent created)
would; that is why every approval entry records the working directory, relative to the goal
file, and ``verify`` refuses to run where the approval did not say. An approval written
before goalfile recorded it names none; it covers the working directory found now unless that
is a repository nested inside another work tree (:func:`uncovered`), which a re-approval must
record first.
"""

from __future__ import annotations

import os
import re
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Final

from goalfile import settings
from goalfile.commands.gittop import git_top as git_top
from goalfile.commands.gittop import repository_top as repository_top
from goalfile.commands.gittop import work_trees as work_trees
from goalfile.model import Entry, Goal
from goalfile.prose import inline_code, span_text
from goalfile.value import Value

if TYPE_CHECKING:  # built only when the approval does not cover it (goalfile.commands.uncovered)
    from goalfile.commands.uncovered import Uncovered

LABEL = "working directory:"


class Source(StrEnum):
    CWD = "cwd"
    GIT = "git top level"
    ZETETIC = "folder holding .zetetic/"
    GOALS = "folder holding goals/"
    GOAL_FOLDER = "goal's folder"


class WorkDir(Value):
    """Where the checks run, why there, and the folder relative to the goal file's."""

    __slots__ = ("path", "relative", "source")

    def __init__(self, *, path: Path, source: Source, relative: str) -> None:
        self.path: Final = path
        self.source: Final = source
        self.relative: Final = relative  # from the goal file's folder, with `/`: `..`, `.`, `../..`

    def describe(self) -> str:
        """As an entry records it: `` `..` (git top level) ``."""
        return f"{inline_code(self.relative)} ({self.source.value})"

    def note(self) -> str:
        return f"{LABEL} {self.describe()}"

    def to_json(self) -> dict[str, object]:
        return {"path": str(self.path), "relative": self.relative, "source": self.source.value}


def decide(goal: Goal) -> WorkDir:
    """Where the checks of ``goal`` run.

    Raises :class:`~goalfile.errors.Refused` when the goal file is reached through a symbolic
    link (to the file or to a folder on its path) and the place the link leads to would put
    the checks somewhere else than the place the link lies in: a link into another repository
    would let its files decide the verdicts (see docs/trust.md)."""
    folder = Path(goal.path).resolve().parent
    found = _decide_from(goal, folder)
    named = Path(os.path.abspath(goal.path)).parent
    if named != folder:
        there = _decide_from(goal, named)
        if there.path.resolve() != found.path:
            _refuse_link(goal, found, there)
    return found


def _decide_from(goal: Goal, folder: Path) -> WorkDir:
    where = settings.cwd(goal)  # the value the contract digests, normalised as it is there
    if where is not None:
        path, source = (folder / where).resolve(), Source.CWD
    else:
        top = git_top(str(folder))
        if top is not None:
            path, source = Path(top).resolve(), Source.GIT
        else:
            path, source = _marker_folder(folder)
    relative = Path(os.path.relpath(path, folder)).as_posix()
    return WorkDir(path=path, source=source, relative=relative)


def _refuse_link(goal: Goal, found: WorkDir, there: WorkDir) -> None:
    from goalfile.errors import Refused
    from goalfile.shellword import shell_word

    link = _first_link(Path(goal.path))
    target = link.resolve()
    # unlink, not rm: Claude Code's shell tool refuses `rm` of a link to a folder
    fix = f"unlink -- {shell_word(str(link))} && "
    fix += f"mv -- {shell_word(str(target))} {shell_word(str(link))}"
    raise Refused(
        f"the goal file is reached through a symbolic link, {link} -> {target}; its checks "
        f"would run in {found.path}, not in {there.path}, where the link lies; nothing was run",
        file=goal.path,
        hint=f"put what the link points to where the link is: `{fix}`",
    )


def _first_link(path: Path) -> Path:
    """The link on ``path`` nearest its root (the goal file itself when no folder is one)."""
    for part in reversed((path, *path.parents)):
        if part.is_symlink():
            return part
    return path


def enclosing(found: WorkDir) -> Path | None:
    """The top of the work tree that holds ``found`` when ``found`` is the top of a repository
    nested inside it (a submodule, or one made with `git init goals` inside the project);
    None when it is not, or when ``found`` is not a git top level at all."""
    if found.source is not Source.GIT or found.path.parent == found.path:
        return None
    outer = git_top(str(found.path.parent))
    return Path(outer) if outer is not None else None


def uncovered(found: WorkDir, approval: Entry | None) -> Uncovered | None:
    """None when ``approval`` (the newest approval entry; None for an unpinned goal) covers
    ``found``: it records that very working directory, or it records none (it was written
    before goalfile recorded one) and ``found`` is no repository nested in another work tree,
    which such an approval cannot tell from the one it approved."""
    if approval is None:
        return None
    approved = recorded(approval)
    outer = enclosing(found) if approved is None else None
    if (approved is None and outer is None) or approved == found.relative:
        return None
    from goalfile.commands.uncovered import Uncovered

    return Uncovered(approval=approval, approved=approved, outer=outer)


def _marker_folder(folder: Path) -> tuple[Path, Source]:
    for candidate in (folder, *folder.parents):
        if candidate.name == ".zetetic":
            return candidate.parent, Source.ZETETIC
    for candidate in (folder, *folder.parents):
        if candidate.name == "goals":
            return candidate.parent, Source.GOALS
    return folder, Source.GOAL_FOLDER


def recorded(entry: Entry) -> str | None:
    """The working directory (relative to the goal file) an entry records, or None."""
    for note in entry.notes:
        if note.startswith(LABEL):
            span = _LEADING_SPAN.match(note.removeprefix(LABEL).strip())
            if span is not None:  # one code span, as `inline_code` writes it: a name that
                return span_text(span.group(2))  # holds a backtick has a longer fence
    return None


_LEADING_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")


_PLAIN_PATH = re.compile(r"[\w@%+=:,./-]+", re.ASCII)  # a folder a sed replacement takes as it is


def missing_cwd(goal: Goal, found: WorkDir, *, blocked: bool) -> tuple[str, str] | None:
    """What to say when the goal's ``cwd`` names a folder that does not exist (every check is
    then an error): the message (file and line first) and the fix, a command that works as
    written. None when the checks run elsewhere or the folder is there.

    The usual mistake is a ``cwd`` written from the repository's top (``cwd: app``) where it
    is read from the goal file's folder (``goals/app``): when the folder it names is there,
    the fix writes the ``cwd`` that reaches it from the goal file and has it re-approved (a
    ``cwd`` is part of the contract); else it makes the folder. When this verify blocked the
    goal, the fix resumes it too."""
    if found.source is not Source.CWD or found.path.is_dir():
        return None
    from goalfile.handedit import set_key_command
    from goalfile.shellword import shell_word

    value = settings.cwd(goal) or ""
    folder = Path(goal.path).resolve().parent
    top = git_top(str(folder))
    base = Path(top).resolve() if top is not None else _marker_folder(folder)[0]
    meant = (base / value).resolve()
    path = shell_word(goal.path)
    shown = os.path.relpath(found.path)

    def resume(done: str) -> str:
        return f" && goalfile resume {path} --resolved {shell_word(done)}" if blocked else ""

    line = goal.key_line("cwd")
    message = (
        f"{goal.path}:{line}: cwd `{value}` names {shown} (a cwd is read from the goal file's "
        "folder), which does not exist, so no check could run"
    )
    new = Path(os.path.relpath(meant, folder)).as_posix()
    if meant.is_dir() and meant != found.path and line is not None and _PLAIN_PATH.fullmatch(new):
        sed = set_key_command(goal.path, line, "cwd", new.replace("/", "\\/")).strip("`")
        reason = shell_word("cwd is read from the folder of the goal file")
        command = f"{sed}{resume(f'cwd: {new}')} && goalfile activate --reapprove {path}"
        fix = (
            f"`{command} --reason {reason}` writes `cwd: {new}`, the folder "
            f"{os.path.relpath(meant)}, and re-approves the contract (a person's approval)"
        )
        return message, fix
    make = f"mkdir -p -- {shell_word(shown)}{resume(f'made {shown}')}"
    fix = (
        f"`{make}` makes the folder; or write the folder the checks run in, from the goal "
        "file's folder, and have a person re-approve it with "
        f"`goalfile activate --reapprove {path} --reason TEXT`"
    )
    return message, fix
