"""An active goal put in git's index: the Stop hook holds an agent that moves or deletes a goal
file git tracks (:mod:`goalfile.commands.gitgoals`), and a goal nobody has committed yet is
tracked by nothing until it is staged. The commands that make a goal active stage it."""

from __future__ import annotations

from pathlib import Path

from goalfile.commands.gittop import repository_top
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name


def stage_active(path: str, *, cwd: Path, approved: bool = False) -> str | None:
    """Put the goal file at ``path`` in the index of the git repository that holds it, when
    git tracks it neither there nor at HEAD, or always when the command just ``approved`` its
    contract (``activate``: the Stop hook runs the checks only of a contract whose approval
    git's index or HEAD holds, :mod:`goalfile.approvalcopy`); what was done (or why it could
    not be done), said for a person, or None when there was nothing to do (no repository;
    already tracked and nothing approved)."""
    from goalfile.approvalcommit import link_name
    from goalfile.commands.gitgoals import git_from, tracked_file
    from goalfile.gitattrs import GIT_IGNORED, stage_exact  # the file's bytes, no filter
    from goalfile.gitrun import GitUnreadable

    where = (cwd / path).resolve()
    top = repository_top(where.parent)
    if top is None:
        return _refused_owner(where.parent, path)
    try:
        relative = where.relative_to(top).as_posix()
    except ValueError:  # a link to a file outside the repository: git cannot stage it
        return None
    link = link_name(cwd / path, top)
    named = path  # as the person named it: what `goalfile focus` takes
    shown = file_name(path)  # on one line, whatever the name holds
    try:
        if link is not None and tracked_file(top, top / link) is None:
            refused = stage_exact(str(top), link)  # the link too, at the path the goal is named by
            if refused is None:
                shown = f"{shown} and {file_name(relative)} (the file it links to)"
        if not approved and tracked_file(top, where) is not None:
            return None if link is None else f"staged {file_name(link)} (git add)"
        refused = stage_exact(str(top), relative)
    except GitUnreadable as exc:
        refused = str(exc)
    holds = "holds an agent that moves or deletes it"
    if all(_unheld(top, name) for name in (relative, link) if name is not None):
        holds = (
            f"holds the agent to it (and an agent that moves or deletes it) from the moment "
            f"`goalfile focus {shell_word(named)}` names it until it is met: it lies outside "
            "goals/, where the hook finds goals by itself"
        )
    if refused is None and approved:
        return (
            f"staged {shown} (git add): the Stop hook runs the checks of a goal whose approval "
            f"git's index or HEAD holds, and {holds}; commit it before the agent starts, so "
            "that its history is kept too"
        )
    if refused is None:
        now = "" if holds.startswith("holds the agent") else "now "
        return (
            f"staged {shown} (git add): the Stop hook {now}{holds}; commit it before the agent "
            "starts, so that its history is kept too"
        )
    cannot = "cannot hold an agent that moves or deletes it"
    if approved:
        cannot += (
            ", and does not run its checks (it runs only a contract whose approval git's index "
            "or HEAD holds)"
        )
    said = f"{shown}: git does not track it and it could not be staged ({refused}): "
    said += f"the Stop hook {cannot}"
    if refused != GIT_IGNORED:
        return said
    return f"{said}\n  fix: `{git_from(top, cwd)} add -f -- {shell_word(relative)}`"


def _refused_owner(folder: Path, path: str) -> str | None:
    """The note for a goal in a repository git refuses as another user's ("detected dubious
    ownership"): goalfile reads it as no repository, so the goal is not staged, and the Stop
    hook holds the agent until git reads it. None when git refuses none so."""
    from goalfile.gitrun import refused_owner

    safe = refused_owner(str(folder))
    if safe is None:
        return None
    return (
        f"note: git refuses the repository at {file_name(safe)}: another user owns it (git's "
        f'"detected dubious ownership"), so {file_name(path)} was not staged and the Stop hook '
        "holds the agent until git reads it; if you trust it: `git config --global --add "
        f"safe.directory {shell_word(safe)}`, then `git add -- {shell_word(path)}`"
    )


def _unheld(top: Path, relative: str) -> bool:
    """Whether the goal at ``relative`` (to ``top``) lies outside the goal folders and no
    focus has named it (:mod:`goalfile.commands.focusheld`): the Stop hook does not look at it
    yet."""
    from goalfile.commands.focusheld import held
    from goalfile.goalfolders import in_goal_folder

    return not in_goal_folder(relative) and relative not in held(top)
