"""What a person approving a goal must not miss about its rows, for `goalfile activate`.

`activate` listed every row it approved, but not what `lint` warns about them: a check whose
exit status the shell forces to 0 (`status-forced`), a count piped into `wc -l`
(`pipeline-status`), an exit clause that an error of the command satisfies (`! grep ...`
with `exit 0`: `error-counted`), a row without an exit clause (`no-exit-clause`), a unittest
check judged on stdout, where unittest writes nothing of its report (`unittest-stdout`), a
program the goal's shell does not find where the checks run (which `new` notes, and whose
first verify is an `error` row that blocks the goal), or a path, module, make target or git
revision a check names that is not there (:mod:`goalfile.commands.operands`: the row is
`unmet` until the work makes it, or for good). These are shown with the rows, as warnings:
the approval goes ahead, the person reads them before committing it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from goalfile.model import Goal, Kind

ROW_WARNINGS = frozenset(
    {"status-forced", "pipeline-status", "no-exit-clause", "unittest-stdout", "error-counted"}
)


def cautions(
    goal: Goal, where: Path, env: Mapping[str, str], *, here: Path | None = None
) -> tuple[str, ...]:
    """One line for each such warning about ``goal``'s rows; ``where`` is the folder the
    checks run in, ``here`` the one the person runs activate in."""
    from goalfile.commands import findable, operands
    from goalfile.lint import diagnose

    lines = [f.message for f in diagnose(goal) if f.code in ROW_WARNINGS]
    checks = [(row.id, row.check) for row in goal.criteria if row.kind is Kind.DETERMINISTIC]
    if checks and where.is_dir():
        for cid, word in findable.unknown(checks, shell=goal.shell, cwd=where, env=env).items():
            lines.append(
                f"{cid}: the shell that will run the checks, in their folder, finds no `{word}` "
                "(`command -v`): its first verify is an `error` row, which blocks the goal"
            )
        found = operands.missing(checks, shell=goal.shell, cwd=where, env=env, here=here)
        lines.extend(found.values())
    return tuple(lines)
