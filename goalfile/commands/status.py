"""`goalfile status [PATH...]`: where each goal stands, from its frontmatter and its ledger."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from goalfile import ledger
from goalfile.commands.context import Context
from goalfile.commands.focus import read_focus
from goalfile.commands.focusrule import hook_focus
from goalfile.commands.hints import status_command
from goalfile.commands.verify import impossible_rows
from goalfile.commands.workdir import WorkDir, repository_top
from goalfile.commands.workdir import decide as decide_workdir
from goalfile.errors import ExitCode, GoalfileError, GoalFileInvalid
from goalfile.files import load_goal
from goalfile.goalfolders import GOAL_FOLDERS
from goalfile.handedit import budget_in_force, iterations_in_use, unbacked_budget, unbacked_met
from goalfile.model import Budget, Entry, Finding, Goal, Status
from goalfile.parse import ledger_region
from goalfile.progress import ledger_streak, stall_limit
from goalfile.shellword import moved_aside, shell_word
from goalfile.value import Compared
from goalfile.words import noun


class GoalStatus(Compared):
    __slots__ = (
        "error",
        "goal",
        "impossible",
        "last_verify",
        "path",
        "stall_count",
        "warnings",
        "workdir",
    )

    def __init__(
        self,
        *,
        path: str,
        goal: Goal | None,
        last_verify: Entry | None,
        error: GoalfileError | None = None,
        stall_count: int = 0,
        impossible: tuple[tuple[str, str], ...] = (),
        workdir: WorkDir | None = None,
        warnings: tuple[Finding, ...] = (),
    ) -> None:
        self.path: Final = path
        self.goal: Final = goal
        self.last_verify: Final = last_verify
        self.error: Final = error
        # consecutive verify entries with the same verdicts and evidence
        self.stall_count: Final = stall_count
        self.impossible: Final = impossible
        self.workdir: Final = workdir  # where the checks run, and which rule decided it
        self.warnings: Final = warnings  # lint's warnings that status shows (budget-unbacked)

    @property
    def blocker(self) -> str | None:
        if self.goal is None:
            return None
        value = self.goal.meta.get("blocker")
        return str(value) if value else None

    @property
    def iterations_used(self) -> int:
        """The iterations the budget counts: those the ledger backs."""
        assert self.goal is not None
        return iterations_in_use(self.goal)

    @property
    def budget(self) -> Budget:
        """The limits in force: those the ledger records, not a value typed by hand."""
        assert self.goal is not None
        return budget_in_force(self.goal)

    @property
    def next_step(self) -> str:
        if self.goal is None:
            return f"fix the file: `goalfile lint {shell_word(self.path)}`"
        return next_step(self.goal, self.last_verify, self.path)

    def to_json(self) -> dict[str, object]:
        if self.goal is None:
            assert self.error is not None
            return {"path": self.path, "error": self.error.to_json()}
        goal = self.goal
        verdicts = {row.id: row for row in self.last_verify.rows} if self.last_verify else {}
        return {
            "path": self.path,
            "slug": goal.slug,
            "status": goal.status.value,
            "end_state": goal.end_state,
            "iterations": {"used": self.iterations_used, "budget": self.budget.iterations},
            "tokens": {
                "used": goal.tokens_used if goal.tokens_measured else None,
                "budget": self.budget.tokens,
            },
            "last_verify": (
                {"iteration": self.last_verify.iteration, "date": self.last_verify.date}
                if self.last_verify
                else None
            ),
            "blocker": self.blocker,
            "impossible": dict(self.impossible),
            "stall_count": self.stall_count,
            "stall_limit": stall_limit(goal.meta),
            "workdir": self.workdir.to_json() if self.workdir is not None else None,
            "warnings": [
                {"code": w.code, "line": w.line, "message": w.message, "hint": w.hint}
                for w in self.warnings
            ],
            "next_step": self.next_step,
            "criteria": [
                {
                    "id": row.id,
                    "kind": row.kind.value,
                    "verdict": verdicts[row.id].verdict.value if row.id in verdicts else None,
                    "evidence": verdicts[row.id].evidence if row.id in verdicts else None,
                }
                for row in goal.criteria
            ],
        }


class StatusResult(Compared):
    __slots__ = ("focus", "focus_ignored", "focus_why", "goals")

    def __init__(
        self,
        *,
        goals: tuple[GoalStatus, ...],
        focus: str | None = None,
        focus_ignored: str | None = None,
        focus_why: str | None = None,
    ) -> None:
        self.goals: Final = goals
        # the focused goal (`goalfile focus`) when the Stop hook honours it
        self.focus: Final = focus
        self.focus_ignored: Final = focus_ignored  # a focus recorded that the hook does not honour
        self.focus_why: Final = focus_why  # why not

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.INVALID if any(g.error for g in self.goals) else ExitCode.OK

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "focus": self.focus,
            "focus_ignored": (
                {"goal": self.focus_ignored, "why": self.focus_why} if self.focus_ignored else None
            ),
            "goals": [g.to_json() for g in self.goals],
        }


class Unreadable(Compared):
    """A part of a goal folder that goal discovery could not read, so goals there may go
    unseen: a folder (and what it holds) whose listing failed, an entry whose kind could not
    be told, or a goal folder that is a symlink out of the repository (not followed)."""

    __slots__ = ("denied", "outside", "path", "reason", "whole")

    def __init__(
        self,
        *,
        path: str,
        reason: str,
        outside: bool = False,
        denied: bool = False,
        whole: bool = False,
    ) -> None:
        self.path: Final = path  # the goal folder, or the entry in it that holds what failed
        self.reason: Final = reason  # what failed, for people
        self.outside: Final = outside  # the goal folder is a symlink out of the repository
        self.denied: Final = denied  # a permission error
        self.whole: Final = whole  # the goal folder itself, not an entry in it

    def fix(self, shown: str) -> str | None:
        """The command that lets discovery read this part again, run as written where it is
        ``shown`` from; None for a goal folder itself that fails to list for a
        reason no command here repairs. Nothing is deleted: a symlink is removed, not what it
        points to, and an unreadable folder inside a goal folder is moved out of it. The link
        goes with `unlink`, not `rm`: Claude Code's shell tool refuses a command that is `rm`
        of a symlink to a folder ("rm removes the link, not what it points to") and runs
        nothing."""
        where = shell_word(shown)
        if self.outside:
            return f"unlink -- {where}"
        if self.denied:
            return f"chmod -R u+rwX -- {where}"
        return None if self.whole else moved_aside(where)


def discover(root: Path) -> list[str]:
    """Every ``*.md`` under ``goals/`` and ``.zetetic/goals/`` of ``root``, sorted; a part
    that cannot be read is passed over (:func:`scan` names it)."""
    return scan(root)[0]


def scan(root: Path) -> tuple[list[str], list[Unreadable]]:
    """Every ``*.md`` file under ``goals/`` and ``.zetetic/goals/`` of ``root`` (sorted per
    folder; a symlinked folder inside is walked as a part of it when it leads to a folder in
    the repository not walked already, :func:`_follow`), and each part of those folders that
    could not be read, by the entry of the goal folder that holds it. Never raises: a
    folder chain longer than the system's path limit, a folder that vanishes or refuses to
    be listed is reported, not a crash. A goal folder that is a symlink to a folder outside
    the repository is not walked (it could be /proc, or /)."""
    import os

    found: list[str] = []
    problems: dict[str, Unreadable] = {}
    top = os.path.realpath(root)
    for folder in GOAL_FOLDERS:
        base = str(root / folder)
        if not os.path.isdir(base):
            continue
        real = os.path.realpath(base)
        if real != top and not real.startswith(top.rstrip(os.sep) + os.sep):
            problems[base] = Unreadable(
                path=base,
                reason=f"it is a symlink to {real}, outside the repository, which goalfile "
                "does not read goals from",
                outside=True,
                whole=True,
            )
            continue
        here: list[str] = []
        stack, linked, walked = [base], list[str](), set[str]()
        while stack or linked:
            if not stack:  # a symlinked folder inside, once the real folders are walked
                _follow(linked.pop(0), top, base, stack, walked, problems)
                continue
            current = stack.pop()
            walked.add(os.path.realpath(current))
            try:
                with os.scandir(current) as listing:
                    entries = list(listing)
            except OSError as exc:
                _note(problems, base, current, exc)
                continue
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.is_symlink() and entry.is_dir():
                        linked.append(entry.path)
                    elif entry.name.endswith(".md") and entry.is_file():
                        here.append(entry.path)
                except OSError as exc:
                    _note(problems, base, entry.path, exc)
        found += sorted(here)
    return found, list(problems.values())


def _follow(
    link: str,
    top: str,
    base: str,
    stack: list[str],
    walked: set[str],
    problems: dict[str, Unreadable],
) -> None:
    """Walk the symlinked folder ``link`` found inside the goal folder ``base`` as a part of
    it (its goals are named through the link, `goals/team/auth.md`), as a goal folder that is
    a symlink into the repository is: a link out of the repository ``top`` is reported and
    not followed; a link to a folder walked already, or to one holding the goal folder, adds
    nothing (no goal twice, no walk of the whole repository)."""
    import os

    real = os.path.realpath(link)
    if real != top and not real.startswith(top.rstrip(os.sep) + os.sep):
        problems.setdefault(
            link,
            Unreadable(
                path=link,
                reason=f"it is a symlink to {real}, outside the repository, which goalfile "
                "does not read goals from",
                outside=True,
            ),
        )
    elif real not in walked and not os.path.realpath(base).startswith(real.rstrip(os.sep) + os.sep):
        stack.append(link)


def _note(problems: dict[str, Unreadable], base: str, where: str, exc: OSError) -> None:
    """Record ``exc`` (raised at ``where``, under the goal folder ``base``) against the
    entry of ``base`` that holds ``where``; the first error there is kept."""
    import errno
    import os

    inner = os.path.relpath(where, base).split(os.sep)[0] if where != base else ""
    part = os.path.join(base, inner) if inner and inner != "." else base
    if part not in problems:
        problems[part] = Unreadable(
            path=part,
            reason=exc.strerror or type(exc).__name__,
            denied=exc.errno in (errno.EACCES, errno.EPERM),
            whole=part == base,
        )


def default_paths(cwd: Path) -> list[str]:
    """The goals a command without PATH arguments acts on: every ``*.md`` under ``goals/`` and
    ``.zetetic/goals/`` of the current folder, else of the git top level, as paths relative to
    the current folder."""
    return default_targets(cwd)[0]


def default_targets(cwd: Path) -> tuple[list[str], list[Unreadable]]:
    """:func:`default_paths`, and the parts of the goal folders looked in that could not be
    read."""
    import os

    found, problems = scan(cwd)
    if not found:
        top = repository_top(cwd)
        if top is not None and top.resolve() != cwd.resolve():
            found, more = scan(top)
            problems += more
    return [os.path.relpath(path, cwd) for path in found], problems


def last_entry(goal: Goal, by: str = ledger.VERIFY_BY) -> Entry | None:
    region = ledger_region(goal.text)
    if region is None:
        return None
    return ledger.newest(goal.text, *region, by=(by,))


def status(*, paths: Sequence[str], ctx: Context) -> StatusResult:
    problems: list[Unreadable] = []
    targets = list(paths)
    if not targets:
        targets, problems = default_targets(ctx.cwd)
    results = [_unreadable(problem, ctx.cwd) for problem in problems]
    for path in targets:
        try:
            goal = load_goal(path)
        except GoalfileError as exc:
            results.append(GoalStatus(path=path, goal=None, last_verify=None, error=exc))
            continue
        from goalfile.commands.githints import error_with_git_hint
        from goalfile.lint import rewrapped_error

        rewrapped = rewrapped_error(goal, shown=path)  # no entry reads as goalfile wrote it
        if rewrapped is not None:
            rewrapped = error_with_git_hint(rewrapped, path=path, cwd=ctx.cwd)
            results.append(GoalStatus(path=path, goal=None, last_verify=None, error=rewrapped))
            continue
        unbacked = unbacked_met(goal)
        if unbacked is not None:  # an error everywhere, as in lint
            error = GoalFileInvalid(
                unbacked.message, file=path, line=unbacked.line, hint=unbacked.hint
            )
            results.append(GoalStatus(path=path, goal=None, last_verify=None, error=error))
            continue
        from goalfile.headingrule import heading_error

        lookalike = heading_error(goal, shown=path)  # its entry would be read into another
        if lookalike is not None:
            results.append(GoalStatus(path=path, goal=None, last_verify=None, error=lookalike))
            continue
        try:
            where = decide_workdir(goal)
        except GoalfileError as exc:
            results.append(GoalStatus(path=path, goal=None, last_verify=None, error=exc))
            continue
        results.append(
            GoalStatus(
                path=path,
                goal=goal,
                last_verify=last_entry(goal),
                stall_count=ledger_streak(goal.text),
                impossible=tuple(impossible_rows(goal).items()),
                workdir=where,
                warnings=tuple(unbacked_budget(goal)),  # a budget typed by hand, as in lint
            )
        )
    root = repository_top(ctx.cwd)
    if root is not None and not paths:  # what the Stop hook holds the agent to, gone from disk
        from goalfile.commands.gonegoals import gone_goals

        for shown, gone in gone_goals(root, ctx.cwd, listed=targets):
            results.append(GoalStatus(path=shown, goal=None, last_verify=None, error=gone))
    focus = read_focus(root) if root is not None else None
    if root is None or focus is None:
        return StatusResult(goals=tuple(results))
    rule = hook_focus(root)  # shown as the Stop hook reads it: an ignored focus says so
    if rule.honoured is not None:
        return StatusResult(goals=tuple(results), focus=focus.goal)
    return StatusResult(goals=tuple(results), focus_ignored=focus.goal, focus_why=rule.why_not)


def _unreadable(problem: Unreadable, cwd: Path) -> GoalStatus:
    """A part of a goal folder discovery could not read, as a status row in error."""
    import os

    shown = os.path.relpath(problem.path, cwd)
    return GoalStatus(
        path=shown,
        goal=None,
        last_verify=None,
        error=GoalfileError(
            f"cannot be read ({problem.reason}): goals in it go unseen",
            file=shown,
            hint=problem.fix(shown),
        ),
    )


def _since_verify(goal: Goal) -> list[Entry]:
    """The entries written after the newest verify entry that decide the next step (`plan`,
    `review`, `refine`), newest first; every such entry when there is no verify entry."""
    region = ledger_region(goal.text)
    if region is None:
        return []
    found = []
    for head in ledger.heads(goal.text, *region):
        if head.by == ledger.VERIFY_BY:
            break
        if head.by in ("plan", "review", "refine-goal", "refine"):
            found.append(ledger.read(goal.text, head))
    return found


def _plan_verdict(entry: Entry) -> str | None:
    """``sound`` or ``unsound`` from a plan entry's ``verify-plan:`` line; None at the limit."""
    for note in entry.notes:
        if note.startswith("verify-plan: "):
            return note.removeprefix("verify-plan: ").split()[0]
    return None


def _review_step(goal: Goal, last_verify: Entry, since: Sequence[Entry], path: str) -> str | None:
    """When every row the last verify did not meet is a review row: the reviews to record
    (each a `goalfile review` command that works once PASSAGE is a passage of the artifact),
    or, when they are recorded already, the verify that counts them. None otherwise."""
    from goalfile.model import Kind, Verdict
    from goalfile.parse import review_artifact
    from goalfile.review import read_review

    rows = {row.id: row for row in goal.criteria}
    marked = impossible_rows(goal)  # not run, never reviewed: verify blocks the goal for them
    open_ids = [
        row.id
        for row in last_verify.rows
        if row.verdict is not Verdict.MET and row.id not in marked
    ]
    if not open_ids or any(
        rid not in rows or rows[rid].kind is not Kind.REVIEW for rid in open_ids
    ):
        return None
    reviewed = set()
    for entry in since:
        found = read_review(entry)
        if found is not None and found.verdict is Verdict.MET:
            reviewed.add(found.id)
    waiting = [rid for rid in open_ids if rid not in reviewed]
    if not waiting:
        return (
            f"`goalfile verify {shell_word(path)}` counts the {noun(len(reviewed), 'review')} "
            "recorded since the last run"
        )
    commands = []
    for rid in waiting:
        artifact = review_artifact(rows[rid])
        shown = shell_word(artifact) if artifact else "FILE"
        commands.append(
            f"`goalfile review {shell_word(path)} {rid} --artifact {shown} --verdict met --quote "
            "PASSAGE`"
        )
    return (
        f"review {', '.join(waiting)}: {' and '.join(commands)}, PASSAGE being the artifact's "
        "words that show it (`--verdict unmet --reason TEXT` when they are not there); then "
        f"`goalfile verify {shell_word(path)}`"
    )


def next_step(goal: Goal, last_verify: Entry | None, path: str) -> str:
    """What to run next, for a person or an agent reading `goalfile status`."""
    if goal.status is Status.DRAFT:
        from goalfile.lint import PLACEHOLDER, diagnose, errors, has_placeholders

        if not has_placeholders(goal):
            if errors(diagnose(goal)):  # activate would refuse it
                return (
                    f"fix what `goalfile lint {shell_word(path)}` reports; once a person "
                    f"approves the contract, `goalfile activate {shell_word(path)}`"
                )
            return (
                f"read it; once a person approves the contract, `goalfile activate "
                f"{shell_word(path)}`"
            )
        return (
            f"replace every `{PLACEHOLDER}: ...` in {shell_word(path)}, then `goalfile lint "
            f"{shell_word(path)}` and `goalfile activate {shell_word(path)}`"
        )
    if goal.status is Status.PAUSED:
        return f"`{status_command(goal, path)}`"
    if goal.status is Status.BLOCKED:
        marked = impossible_rows(goal)
        if marked:  # resuming only blocks it again at the next verify
            return (
                f"{', '.join(sorted(marked))} marked impossible: the goal can never become met; "
                "a person decides what follows (a new goal, or the `impossible:` mark deleted "
                f"from the frontmatter, then `{status_command(goal, path)}`)"
            )
        return f"remove the blocker, then `{status_command(goal, path)}`"
    if goal.status is Status.EXHAUSTED:
        return f"a person may raise the budget: `{status_command(goal, path)}`"
    if goal.status is Status.MET:
        return f"done; CI can check it with `goalfile audit {shell_word(path)}`"
    refused = _contract_refusal(goal)
    if refused is not None:
        return refused
    left = _impossible_left(goal, last_verify, path)
    if left is not None:
        return left
    since = _since_verify(goal)
    planned = next((_plan_verdict(entry) for entry in since if entry.by == "plan"), None)
    if planned is not None:  # a plan was checked since the last verify run
        if planned == "unsound":
            return (
                "fill in what the `findings:` line of `## Plan` names, then "
                f"`goalfile plan {shell_word(path)}`; or do the work, then `goalfile verify "
                f"{shell_word(path)}`"
            )
        return f"do the work the plan lays out, then `goalfile verify {shell_word(path)}`"
    if last_verify is None:
        from goalfile.plan import empty_plan

        empty = empty_plan(goal)
        if empty is not None:
            where = "a table under `## Plan`" if empty.has_section else "a `## Plan` table"
            return (
                f"fill in the plan ({where}, one row per step), then `goalfile plan "
                f"{shell_word(path)}`, "
                f"do the work, then `goalfile verify {shell_word(path)}`"
            )
        return (
            f"`goalfile plan {shell_word(path)}`, do the work, then `goalfile verify "
            f"{shell_word(path)}`"
        )
    reviews = _review_step(goal, last_verify, since, path)
    if reviews is not None:
        return reviews
    if any(entry.by in ("refine-goal", "refine") for entry in since):
        return f"work the backlog of the refine entry, then `goalfile verify {shell_word(path)}`"
    newest = _newest_by(goal)
    if newest != ledger.VERIFY_BY:  # re-approved, resumed, a budget raised...: refine works
        # only from the newest entry, so the verify run under what changed comes first. Why
        # not a refine is said after a re-approval only, where the verify run before it looks
        # like one to refine from; after a resume or a budget it is noise
        from goalfile.contract import ACTIVATE_BY

        why = (
            f" (the newest entry is `by {newest}`; a refine works from a verify run)"
            if newest == ACTIVATE_BY
            else ""
        )
        return f"`goalfile verify {shell_word(path)}`{why}, then act on its result"
    return (
        f"`goalfile refine {shell_word(path)}`, work the backlog, then `goalfile verify "
        f"{shell_word(path)}`"
    )


def _impossible_left(goal: Goal, last_verify: Entry | None, path: str) -> str | None:
    """For an active goal whose rows not marked impossible are all met (at the last verify, or
    none is left): the next verify blocks it, so no plan or work is the next step, whatever
    the ledger holds since (a plan entry, a refine backlog). None otherwise."""
    from goalfile.model import Verdict

    marked = impossible_rows(goal)
    if not marked:
        return None
    met = (
        {row.id for row in last_verify.rows if row.verdict is Verdict.MET} if last_verify else set()
    )
    if any(row.id not in marked and row.id not in met for row in goal.criteria):
        return None
    return (
        f"{', '.join(sorted(marked))} marked impossible: the goal can never become met; "
        f"`goalfile verify {shell_word(path)}` sets it blocked (not completable), and a "
        "person decides what follows"
    )


def _contract_refusal(goal: Goal) -> str | None:
    """For an active goal whose criteria no longer match what was approved: what verify would
    refuse it for, and its fix (a plan, work and verify would all be refused first)."""
    from goalfile import contract
    from goalfile.errors import GoalfileError

    try:
        contract.require_pin(goal)
    except GoalfileError as exc:
        said = exc.message.split("; nothing was run", 1)[0]
        return f"{exc.hint} (verify refuses it as it is: {said})" if exc.hint else None
    return None


def _newest_by(goal: Goal) -> str | None:
    """Who wrote the newest ledger entry (``goalfile refine`` refines only a verify entry)."""
    region = ledger_region(goal.text)
    if region is None:
        return None
    head = next(ledger.heads(goal.text, *region), None)
    return head.by if head is not None else None
