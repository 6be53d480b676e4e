"""`goalfile doctor`'s text report, line by line. Pure.

Without a lead (:mod:`goalfile.commands.doctorchecks.lead`), each finding in turn, with its
fix under it. With one: the commands to run first, then the problems they fix (with no fix
line each), the other problems, those with the same fix together and the fix once under them,
then what goalfile cannot tell, then what is fine.
"""

from __future__ import annotations

from goalfile.commands.doctorchecks.finding import DoctorResult, Finding, Health
from goalfile.words import counted


def report(result: DoctorResult) -> list[str]:
    lines = [f"fixed: {change}" for change in result.fixed]
    width = max((len(f.host) for f in result.findings), default=0)
    problems = [f for f in result.findings if f.health is Health.PROBLEM]
    if not result.first:
        for finding in result.findings:
            lines += _finding(finding, width, with_fix=True)
    else:
        led = [f for f in problems if f.fix in result.covered]
        how = "this command" if len(result.first) == 1 else "these commands, run in this order"
        lines.append(f"{len(led)} of {counted(len(problems), 'problem')} go away with {how}:")
        lines += [f"{' ' * (width + 11)}fix: {command}" for command in result.first]
        lines.append("")
        for finding in led:
            lines += _finding(finding, width, with_fix=False)
        rest = [f for f in problems if f.fix not in result.covered]
        if rest:
            lines += ["", "and:" if len(rest) == 1 else "and, each with what fixes it:"]
        groups: dict[tuple[str | None, str | None], list[Finding]] = {}
        for finding in rest:
            groups.setdefault((finding.fix, finding.hint), []).append(finding)
        for group in groups.values():
            for finding in group:
                lines += _finding(finding, width, with_fix=False)
            lines += _remedy(group[0], width)
        others = [f for f in result.findings if f.health is not Health.PROBLEM]
        if others:
            lines.append("")
        for health in (Health.UNKNOWN, Health.OK):
            for finding in others:
                if finding.health is health:
                    lines += _finding(finding, width, with_fix=True)
    lines.append(f"{counted(len(problems), 'problem')} found" if problems else "no problems found")
    return lines


def _finding(finding: Finding, width: int, *, with_fix: bool) -> list[str]:
    line = f"{finding.host:<{width}}  {finding.health.value:<7}  {finding.detail}"
    return [line, *(_remedy(finding, width) if with_fix else [])]


def _remedy(finding: Finding, width: int) -> list[str]:
    pad = " " * (width + 11)
    lines = [f"{pad}fix: {finding.fix}"] if finding.fix else []
    if finding.hint and finding.health is not Health.OK:
        lines.append(f"{pad}{finding.hint}")
    return lines
