"""`goalfile lint PATH...`: every rule of the format, as findings with file and line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from goalfile.commands.context import Context
from goalfile.errors import ExitCode, GoalfileError
from goalfile.files import load_goal
from goalfile.lint import diagnose
from goalfile.model import Finding, Severity


@dataclass(frozen=True, kw_only=True)
class FileReport:
    path: str
    findings: tuple[Finding, ...]
    fatal: GoalfileError | None = None

    @property
    def ok(self) -> bool:
        return self.fatal is None and not any(f.severity is Severity.ERROR for f in self.findings)


@dataclass(frozen=True, kw_only=True)
class LintResult:
    reports: tuple[FileReport, ...]

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if all(r.ok for r in self.reports) else ExitCode.INVALID

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "ok": self.exit_code is ExitCode.OK,
            "files": [
                {
                    "path": r.path,
                    "ok": r.ok,
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


def fix_paths(paths: Sequence[str], ctx: Context) -> dict[str, tuple[str, ...]]:
    """`lint --fix`: rewrite what keeps its meaning (see :mod:`goalfile.fix`), one write per
    file, under the goal's lock. Returns the changes made, by path; a file that cannot be
    read is left to the lint report that follows."""
    from goalfile.commands.mutate import update_goal
    from goalfile.fix import check_fixed, fix_goal
    from goalfile.model import Goal

    def change(text: str, goal: Goal) -> tuple[str, tuple[str, ...]]:
        fixed = fix_goal(goal)
        return fixed.text, fixed.changes

    done: dict[str, tuple[str, ...]] = {}
    for path in paths:
        try:
            done[path] = update_goal(
                path, ctx, command="goalfile lint --fix", change=change, check=check_fixed
            )
        except GoalfileError as exc:
            # an unreadable file is reported by the lint that follows; a refused fix is said here
            done[path] = (
                (f"nothing: {exc.message}",) if "nothing was written" in exc.message else ()
            )
    return done


def lint_paths(paths: Sequence[str]) -> LintResult:
    reports = []
    for path in paths:
        try:
            goal = load_goal(path)
        except GoalfileError as exc:
            reports.append(FileReport(path=path, findings=(), fatal=exc))
            continue
        reports.append(FileReport(path=path, findings=diagnose(goal, draft_placeholders=True)))
    return LintResult(reports=tuple(reports))
