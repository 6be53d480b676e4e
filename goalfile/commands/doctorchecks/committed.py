"""The files `goalfile init` writes (each host's hook file, goalfile's pi extension and its
skills) are committed as they are: a clone or another worktree of the repository has only what
is committed, so an agent started there has no Stop hook (README: "commit them"). One problem
per file or folder not committed, each with the one command that commits them all.
"""

from __future__ import annotations

from pathlib import Path

from goalfile import hostjson
from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import Check, Finding
from goalfile.commands.doctorchecks.settingsfiles import shown_from

COMMIT_MESSAGE = "goalfile: skills and Stop hooks"


def _written(root: Path) -> list[tuple[str, str, str]]:
    """(host, path from the top, what a clone lacks without it) for each file or folder
    `init --no-goal` writes."""
    from goalfile.commands.skills import AGENTS_DIR, CLAUDE_DIR
    from goalfile.pi_extension import EXTENSION_DIR

    written = [
        (agent.value, str(hostjson.SETTINGS[agent]), "no Stop hook") for agent in hostjson.SETTINGS
    ]
    written.append(("pi", str(EXTENSION_DIR), "no Stop hook"))
    written += [
        ("skills", str(folder), "none of these skills") for folder in (AGENTS_DIR, CLAUDE_DIR)
    ]
    return written


def commit_command(root: Path, ctx: Context, relatives: list[str]) -> str:
    """The command that commits ``relatives`` (from the top), and nothing else staged; added
    with ``-f``, as git refuses a path a `.gitignore` names (`.claude/` is often ignored)
    unless forced, and the hook files must be committed all the same."""
    from goalfile.shellword import shell_word

    shown = " ".join(shell_word(shown_from(root / relative, ctx)) for relative in relatives)
    return f"git add -f -- {shown} && git commit -m {shell_word(COMMIT_MESSAGE)} -- {shown}"


def commit_all(root: Path, ctx: Context, *, skills: bool) -> str:
    """The commit of all `goalfile init --no-goal` writes, to run after it; without
    ``skills`` (``--no-skills``), of the skills folders only where they are."""
    return commit_command(
        root,
        ctx,
        [
            relative
            for host, relative, _ in _written(root)
            if skills or host != "skills" or (root / relative).exists()
        ],
    )


def commit_findings(root: Path, ctx: Context) -> list[Finding]:
    from goalfile.commands.gittop import holds_git
    from goalfile.gitrepo import git_uncommitted
    from goalfile.gitrun import GitUnreadable

    written = [entry for entry in _written(root) if (root / entry[1]).exists()]
    if not written or not holds_git(root):
        return []
    try:
        uncommitted = git_uncommitted(str(root), [relative for _, relative, _ in written])
    except GitUnreadable as exc:
        return [
            Check("git", "commit").unknown(
                detail=f"cannot tell whether the hook files are committed: {exc}"
            )
        ]
    left = [entry for entry in written if entry[1] in uncommitted]
    fix = commit_command(root, ctx, [relative for _, relative, _ in left])
    found = []
    for host, relative, lacks in left:
        found.append(
            Check(host, "commit").problem(
                detail=f"{shown_from(root / relative, ctx)} is not committed: a clone or "
                f"another worktree of this repository has {lacks} there",
                fix=fix,
            )
        )
    return found
