"""`goalfile lint PATH...`: every rule of the format, as findings with file and line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from goalfile.commands.context import Context
from goalfile.errors import ExitCode, GoalfileError
from goalfile.files import load_goal
from goalfile.lint import diagnose
from goalfile.model import Finding, Goal, Severity
from goalfile.value import Value

if TYPE_CHECKING:  # goalfile.fix loads only for `lint --fix`
    from goalfile.fix import Change


# nothing compares or hashes these three: each is equal only to itself (goalfile.value)
class FixOutcome(Value):
    """What `lint --fix` did to one file: the rewrites it wrote, or why it wrote none."""

    __slots__ = ("changes", "refused")

    def __init__(
        self, *, changes: tuple[Change, ...] = (), refused: GoalfileError | None = None
    ) -> None:
        self.changes: Final = changes
        self.refused: Final = refused  # the fix was refused: nothing was written

    def lines(self) -> list[str]:
        """The text report: one line per change, or the refusal."""
        if self.refused is not None:
            return [f"nothing: {self.refused.message}"]
        return [change.render() for change in self.changes]

    def to_json(self) -> dict[str, object]:
        refused = self.refused
        return {
            "fixed": [change.to_json() for change in self.changes],
            "fix_refused": (
                {"message": refused.message, "hint": refused.hint} if refused is not None else None
            ),
        }


class FileReport(Value):
    __slots__ = ("fatal", "findings", "fix", "path")

    def __init__(
        self,
        *,
        path: str,
        findings: tuple[Finding, ...],
        fatal: GoalfileError | None = None,
        fix: FixOutcome | None = None,
    ) -> None:
        self.path: Final = path
        self.findings: Final = findings
        self.fatal: Final = fatal
        self.fix: Final = fix  # with `--fix`

    @property
    def ok(self) -> bool:
        return self.fatal is None and not any(f.severity is Severity.ERROR for f in self.findings)


class LintResult(Value):
    __slots__ = ("fixing", "reports")

    def __init__(self, *, reports: tuple[FileReport, ...], fixing: bool = False) -> None:
        self.reports: Final = reports
        self.fixing: Final = fixing  # `lint --fix`: each file's report says what was rewritten

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if all(r.ok for r in self.reports) else ExitCode.INVALID

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "ok": self.exit_code is ExitCode.OK,
            "fix": self.fixing,
            "files": [
                {
                    "path": r.path,
                    "ok": r.ok,
                    **((r.fix or FixOutcome()).to_json() if self.fixing else {}),
                    "findings": [
                        {
                            "severity": f.severity.value,
                            "code": f.code,
                            "line": f.line,
                            "column": f.column,
                            "message": f.message,
                            "hint": f.hint,
                        }
                        for f in r.findings
                    ]
                    + (
                        [{"severity": "error", "code": "unreadable", **r.fatal.to_json()}]
                        if r.fatal
                        else []
                    ),
                }
                for r in self.reports
            ],
        }


def fix_paths(paths: Sequence[str], ctx: Context) -> dict[str, FixOutcome]:
    """`lint --fix`: rewrite what keeps its meaning (see :mod:`goalfile.fix`), one write per
    file, under the goal's lock. Returns what was done, by path; a file that cannot be read
    is left to the lint report that follows."""
    from goalfile.commands.mutate import update_goal
    from goalfile.fix import check_fixed, fix_goal

    def change(text: str, goal: Goal) -> tuple[str, tuple[Change, ...]]:
        fixed = fix_goal(goal)
        return fixed.text, fixed.changes

    done: dict[str, FixOutcome] = {}
    for path in paths:
        try:
            changes = update_goal(
                path, ctx, command="goalfile lint --fix", change=change, check=check_fixed
            )
        except GoalfileError as exc:
            # an unreadable file is reported by the lint that follows; a refused fix is said here
            refused = "nothing was written" in exc.message
            done[path] = FixOutcome(refused=exc if refused else None)
            continue
        done[path] = FixOutcome(changes=changes)
    return done


def lint_paths(
    paths: Sequence[str], fixes: Mapping[str, FixOutcome] | None = None, *, cwd: Path
) -> LintResult:
    """Lint each file; ``fixes`` (from :func:`fix_paths`) goes into the reports when given.
    The fix for a rewrapped goal is the one for the copy git holds (``cwd``: where the paths
    are named from; :mod:`goalfile.commands.rewrapfix`)."""
    from goalfile.commands.githints import with_git_hint

    reports = []
    for path in paths:
        fix = fixes.get(path, FixOutcome()) if fixes is not None else None
        try:
            goal = load_goal(path)
        except GoalfileError as exc:
            reports.append(FileReport(path=path, findings=(), fatal=exc, fix=fix))
            continue
        findings = (
            *(
                with_git_hint(finding, path=path, cwd=cwd)
                for finding in diagnose(goal, draft_placeholders=True)
            ),
            *_record_findings(goal.text, path),
            *_contract_findings(goal),
        )
        reports.append(FileReport(path=path, findings=findings, fix=fix))
    return LintResult(reports=tuple(reports), fixing=fixes is not None)


def _record_findings(text: str, path: str) -> tuple[Finding, ...]:
    """The approval record verify, audit and activate refuse when it does not read back (an
    edited approval entry): lint says so too, so it agrees with them."""
    from goalfile.contract import RecordInvalid, last_approval

    try:
        last_approval(text, path=path)
    except RecordInvalid as exc:
        return (
            Finding(
                severity=Severity.ERROR,
                message=exc.message,
                line=exc.line,
                hint=exc.hint,
                code="approval-record-invalid",
            ),
        )
    return ()


def _contract_findings(goal: Goal) -> tuple[Finding, ...]:
    """A goal past its draft whose criteria, non-goals or settings no longer match what was
    approved: verify refuses it until the rows are restored or a person re-approves them, and
    lint says so too, as a warning (an edit on its way to `activate --reapprove`)."""
    from goalfile.contract import RecordInvalid, last_approval, require_pin

    try:
        require_pin(goal)
    except RecordInvalid as exc:
        try:
            last_approval(goal.text, path=goal.path)
        except RecordInvalid:
            return ()  # :func:`_record_findings` reports it
        from goalfile.lint import rewrapped_text

        if rewrapped_text(goal.text):
            return ()  # the formatter joined its `contract:` line: `entry-rewrapped` says so
        # a record that reads back but backs no pin (its rows digest to another contract
        # than its `contract:` line names): verify refuses it, so it is an error here too
        return (
            Finding(
                severity=Severity.ERROR,
                message=exc.message.removesuffix("; nothing was run"),
                line=exc.line,
                hint=exc.hint,
                code="approval-record-invalid",
            ),
        )
    except GoalfileError as exc:
        said, _, changes = exc.message.partition("; nothing was run")
        return (
            Finding(
                severity=Severity.WARNING,
                message=f"{said}; verify refuses it as it is{changes}",
                line=exc.line,
                hint=exc.hint,
                code="contract-changed",
            ),
        )
    return ()
