"""`goalfile audit PATH... [--against REF]`: the files, the git revision and the artifacts
for the rules of :mod:`goalfile.audit`.

A folder stands for every ``*.md`` under it. With ``--against``, each file is also read as it
was at that revision (``git show REF:PATH``); an unknown revision is a usage error (exit 2).
Exit 0 clean, 1 findings, 3 when a file cannot be read as a goal.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from goalfile import contract
from goalfile.artifacts import covers, read_artifact, resolve_artifact
from goalfile.audit import AuditFinding, FileAudit, audit_branch, audit_goal, label
from goalfile.commands import workdir
from goalfile.commands.context import Context
from goalfile.commands.folders import expand
from goalfile.commands.folders import is_dir as _is_dir
from goalfile.errors import ExitCode, GoalfileError
from goalfile.files import ENCODING, ERRORS, read_text
from goalfile.githistory import git_show
from goalfile.model import Goal
from goalfile.parse import parse_goal
from goalfile.shellword import shell_word, show_command

SCHEMA_VERSION = 1


@dataclass(frozen=True, kw_only=True)
class AuditResult:
    against: str | None
    files: tuple[FileAudit, ...]

    @property
    def findings(self) -> int:
        return sum(len(f.findings) for f in self.files)

    @property
    def exit_code(self) -> ExitCode:
        if any(f.error is not None for f in self.files):
            return ExitCode.INVALID
        return ExitCode.UNMET if self.findings else ExitCode.OK

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": SCHEMA_VERSION,
            "against": self.against,
            "files": [f.to_json() for f in self.files],
            "findings": self.findings,
            "exit_code": int(self.exit_code),
        }


# --- the edge: files, git, artifacts ------------------------------------------------------


def audit(*, paths: Sequence[str], against: str | None, ctx: Context) -> AuditResult:
    """Audit each goal file (a folder stands for every ``*.md`` under it; one at the path of a
    goal file ``against`` holds is also that goal, deleted: :func:`_not_a_file`)."""
    files: list[FileAudit] = []
    for path in paths:
        deleted: list[FileAudit] = []
        if against is not None and (gone := _not_a_file(path, against, ctx)) is not None:
            deleted.append(gone)
        found = expand([path])
        if against is not None and not deleted and _is_dir(Path(path)):  # and its goals at REF
            seen = {os.path.normpath(p) for p in found}
            for name in _base_goals_under(path, against):
                if os.path.normpath(name) in seen:
                    continue
                if (gone := _not_a_file(name, against, ctx)) is not None:
                    deleted.append(gone)
                else:
                    found.append(name)
        if not found and not deleted:
            found = [path]  # a folder that holds no goal file is reported as one
        files += deleted
        files += [audit_file(path=p, against=against, ctx=ctx) for p in found]
    return AuditResult(against=against, files=tuple(files))


def _base_goals_under(folder: str, against: str) -> list[str]:
    """The ``*.md`` files the revision ``against`` holds under ``folder``, named as the working
    tree's are (relative to the current folder, or absolute as ``folder`` is)."""
    from goalfile.githistory import git_tree_goal_paths

    where, name = _in_git(str(Path(folder) / "x"))
    try:
        listed = git_tree_goal_paths(ref=against, cwd=where, folders=[str(Path(name).parent)])
    except GoalfileError:  # a repository of its own, that does not know REF: the goal files
        return []  # in it are audited, and say so
    if Path(folder).is_absolute():
        return [str(Path(where) / found) for found in listed]
    return [os.path.relpath(Path(where) / found) for found in listed]


def _not_a_file(path: str, against: str, ctx: Context) -> FileAudit | None:
    """``goal-deleted`` for a goal file the revision ``against`` holds at ``path`` when the
    working tree holds something else there than a file: a folder (`git rm goals/auth.md &&
    mkdir goals/auth.md`), a submodule, a link to a folder, a FIFO; else None."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # nothing there: audit_file reports the deletion
    if stat.S_ISREG(mode):
        return None
    since = last = None
    if _at_revision(path, against, ctx) is None:
        versions = _versions(path, against, ctx) if path.endswith(".md") else []
        if not versions:
            return None  # a goal folder, or a path no goal file was committed at
        since, last = versions[0][0], versions[-1][0]  # committed after it, replaced since
    what = "a folder" if stat.S_ISDIR(mode) else "a special file (not a regular file)"
    if stat.S_ISDIR(mode) and os.path.lexists(os.path.join(path, ".git")):
        what = "a repository (a submodule, or a clone)"
    if os.path.islink(path):
        what = f"a symlink to {what}"
    existed = f"existed at {against}" if since is None else f"was committed after {against}"
    return FileAudit(
        path=path,
        at_ref=since is None,
        since=since,
        findings=(
            AuditFinding(
                code="goal-deleted",
                path=path,
                message=f"the goal file {existed} and was deleted: {what} stands at its path now",
                hint=f"restore it (`{show_command(last or against, path)}` has it) "
                f"where {what} stands now; a goal is closed by its status, not by deleting its "
                "ledger",
            ),
        ),
    )


def with_base_goals(against: str, cwd: Path) -> list[str]:
    """What ``audit --against REF`` without PATH reads: every goal file of the working tree
    (:func:`goalfile.commands.status.default_paths`) and every ``*.md`` under ``goals/`` and
    ``.zetetic/goals/`` at ``REF``, so that a goal deleted since is reported; from the current
    folder, else from the git top level, as the working tree's goals are found. Names come
    from git whole: no shell list to quote or split."""
    from goalfile.commands.gittop import repository_top
    from goalfile.commands.status import default_paths
    from goalfile.githistory import git_tree_goal_paths
    from goalfile.goalcommits import deleted_goal_paths

    def here_else_top(names: Callable[[str], list[str]]) -> list[str]:
        listed = names(str(cwd))
        if not listed:
            top = repository_top(cwd)
            if top is not None and top.resolve() != cwd.resolve():
                listed = [os.path.relpath(top / name, cwd) for name in names(str(top))]
        return listed

    found = default_paths(cwd)
    at_base = here_else_top(lambda where: git_tree_goal_paths(ref=against, cwd=where))
    seen = {os.path.normpath(path) for path in found}
    added = sorted(path for path in at_base if os.path.normpath(path) not in seen)
    seen |= {os.path.normpath(path) for path in added}
    # a goal committed after REF and deleted since: no base holds it, nor the working tree
    gone = here_else_top(lambda where: deleted_goal_paths(ref=against, cwd=where))
    return found + added + sorted(path for path in gone if os.path.normpath(path) not in seen)


def _linked(folder: Path) -> bool:
    """Whether ``folder`` is a symlink below a repository's top (the top itself, reached
    through a link, is where git is asked)."""
    return folder != folder.parent and folder.is_symlink() and not (folder / ".git").exists()


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def audit_file(*, path: str, against: str | None, ctx: Context) -> FileAudit:
    old_text: str | None = None
    linked: AuditFinding | None = None
    if against is not None:
        old_text, linked = _base_text(path, against, ctx)  # an unknown revision: exit 2
    if not _exists(Path(path)) and old_text is not None:
        return FileAudit(
            path=path,
            at_ref=True,
            findings=(
                AuditFinding(
                    code="goal-deleted",
                    path=path,
                    message=f"the goal file existed at {against} and was deleted",
                    hint=f"`git checkout {shell_word(str(against))} -- {shell_word(path)}` "
                    f"puts back the file {against} holds; a goal is closed by its status, not "
                    "by deleting its ledger",
                ),
            ),
        )
    if against is not None and old_text is None and not _exists(Path(path)):
        versions = _versions(path, against, ctx)
        if versions:  # committed after REF, deleted since
            return FileAudit(
                path=path,
                at_ref=False,
                since=versions[0][0],
                findings=(
                    AuditFinding(
                        code="goal-deleted",
                        path=path,
                        message=f"the goal file was committed after {against} (in "
                        f"{versions[0][0]}) and deleted since",
                        hint="restore it (`"
                        f"{show_command(versions[-1][0], path)}` has it); a goal is closed "
                        "by its status, not by deleting its ledger",
                    ),
                ),
            )
    try:
        goal = parse_goal(read_text(path), path=path)
        where = workdir.decide(goal)
    except GoalfileError as exc:
        return FileAudit(path=path, error=exc, at_ref=None if against is None else bool(old_text))
    base = where.path

    def read(name: str) -> str:
        return read_artifact(resolve_artifact(base, name))[0]

    def named(row_names: str, name: str) -> bool:  # as verify and `goalfile review` decide it
        return covers(resolve_artifact(base, row_names), resolve_artifact(base, name))

    if against is not None and old_text is None:  # new since REF: its commits since
        walked, side = _branch_versions(path, against, ctx)
        result = audit_branch(
            goal, walked, read_artifact=read, covers=named, against=against, side=side
        )
    else:
        result = audit_goal(
            goal, read_artifact=read, covers=named, against=against, old_text=old_text
        )
    extra = [
        found for found in (linked, _workdir_finding(goal, where), _converted(path, ctx)) if found
    ]
    return replace(result, findings=(*result.findings, *extra)) if extra else result


def _base_text(path: str, ref: str, ctx: Context) -> tuple[str | None, AuditFinding | None]:
    """The goal at ``ref`` (read through a symlink ``ref`` holds at its path, at ``ref``), and
    a ``base-goal-unreadable`` finding when that link leads to no file ``ref`` holds: the goal
    approved through it was never committed, so nothing on the base backs the file the link
    leads to now."""
    from goalfile.commands.baselink import read_at_base

    folder, name = _in_git(path)
    base = read_at_base(folder=folder, name=name, ref=ref, ctx=ctx)
    if base.problem is None:
        return base.text, None
    message = (
        f"the goal path is {base.problem}: the goal approved there was never committed, so its "
        f"contract at {ref} cannot be compared with this one"
    )
    if len(base.chain) < 2:  # no link: the file at the base is what a person judges
        return base.text, AuditFinding(
            code="base-goal-unreadable",
            path=path,
            message=f"{message}; a person judges the file {ref} holds",
            hint=f"`{show_command(ref, path)}` shows it",
        )
    # the link and the file it leads to, as named from here
    link, target = (
        shell_word(os.path.relpath(os.path.join(folder, name), ctx.cwd))
        for name in (base.chain[0], base.chain[-1])
    )
    return base.text, AuditFinding(
        code="base-goal-unreadable",
        path=path,
        message=f"{message}; a person commits the goal file the link leads to, with the link, "
        f"on {ref}",
        hint=f"`git commit -- {link} {target}` on {ref}",
    )


def _converted(path: str, ctx: Context) -> AuditFinding | None:
    """Git converts the goal file (:mod:`goalfile.gitattrs`: a filter, ``ident``,
    ``working-tree-encoding``): what a commit holds of it is not what was audited; or a diff
    shows a program's output in its place, or hides its changes from the reviewer (``-diff``,
    ``linguist-generated``)."""
    from goalfile.gitattrs import check

    refused = check(path, ctx.cwd, hidden=True)
    if refused is None:
        return None
    message, fix = refused
    return AuditFinding(code="git-attribute", path=path, message=message, hint=fix)


def _workdir_finding(goal: Goal, where: workdir.WorkDir) -> AuditFinding | None:
    """The checks would run elsewhere than the newest approval entry recorded."""
    try:
        approval = contract.last_approval(goal.text)
    except contract.RecordInvalid:
        return None  # reported as approval-record-invalid
    gap = workdir.uncovered(where, approval[0] if approval is not None else None)
    if gap is None:
        return None
    line = goal.key_line("contract") or goal.key_line("status")
    if gap.outer is not None:
        return AuditFinding(
            code="workdir-not-approved",
            path=goal.path,
            line=line,
            entry=label(gap.approval),
            message=f"the checks would run in {where.describe()}, a repository nested inside "
            f"the work tree of {gap.outer}, and the newest approval entry names no working "
            "directory",
            hint=f"remove the nested repository ({where.path / '.git'}), or have a person "
            f"approve it with `goalfile activate --reapprove {shell_word(goal.path)} --reason "
            "TEXT`",
        )
    return AuditFinding(
        code="workdir-not-approved",
        path=goal.path,
        line=line,
        entry=label(gap.approval),
        message=f"the checks would run in {where.describe()}, but the newest approval entry "
        f"approved `{gap.approved}` (relative to the goal file)",
        hint="remove what moved it (a `.git` between the goal and the repository's top), or "
        f"have a person approve it with `goalfile activate --reapprove {shell_word(goal.path)} "
        "--reason "
        "TEXT`",
    )


def _versions(path: str, ref: str, ctx: Context) -> list[tuple[str, str]]:
    """The goal file as each commit after ``ref`` left it, oldest first (two git processes
    however many commits: :func:`goalfile.goalcommits.committed_versions`)."""
    from goalfile.goalcommits import committed_versions

    folder, name = _in_git(path)
    found = committed_versions(ref=ref, path=name, cwd=folder, env=ctx.env)
    return [(version.short, version.text) for version in found]


def _branch_versions(
    path: str, ref: str, ctx: Context
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """:func:`_versions`, and the versions commits on the branch's other lines left
    (:func:`goalfile.goalcommits.branch_versions`)."""
    from goalfile.goalcommits import branch_versions

    folder, name = _in_git(path)
    walked, side = branch_versions(ref=ref, path=name, cwd=folder, env=ctx.env)
    return [(v.short, v.text) for v in walked], [(v.short, v.text) for v in side]


def _in_git(path: str) -> tuple[str, str]:
    """Where git is asked about the goal file at ``path``, and ``path`` relative to it: the
    nearest folder above it that is a folder (one may be deleted with the goal) and not a
    symlink (or is a repository's top), so that a goal reached through a symlinked folder
    (`goals -> docs-goals`, `goals/team -> ../elsewhere/team`) is asked of git by its own path,
    `goals/...`, never by the path the link leads to (read as new since the revision)."""
    target = Path(path).absolute()
    folder = target.parent
    while (folder != folder.parent and not _is_dir(folder)) or _linked(folder):
        folder = folder.parent  # a folder deleted with the goal, or one a symlink stands for
    return str(folder), target.relative_to(folder).as_posix()


def _at_revision(path: str, ref: str, ctx: Context) -> str | None:
    folder, name = _in_git(path)
    data = git_show(ref=ref, path=name, cwd=folder, env=ctx.env)
    return None if data is None else data.decode(ENCODING, ERRORS)
