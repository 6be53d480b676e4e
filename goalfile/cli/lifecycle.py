"""The lifecycle commands: plan, review, refine, block, resume, pause, impossible, budget."""

from __future__ import annotations

from typing import Any

import click

from goalfile.cli.base import (
    boundary,
    context,
    emit_json,
    err,
    in_project,
    in_project_option,
    json_option,
    main,
    stage_active,
)
from goalfile.model import BUDGET_LIMIT_MAX
from goalfile.termsafe import file_name


def _report(result: Any, as_json: bool, lines: list[str]) -> None:
    if as_json:
        emit_json(result.to_json())
        return
    for line in lines:
        click.echo(line)


@main.command()
@click.argument("path", type=click.Path())
@json_option
@boundary
def plan(path: str, as_json: bool) -> int:
    """Check that the `## Plan` table serves every criterion, and use an iteration.

    Exit 0 sound, 1 unsound (orphans listed; the iteration is used anyway), 3 refused (also
    a plan with no step: no table, or its header only; no iteration is used), 5 iteration
    budget exhausted.
    """
    from goalfile.commands.plan import plan as run

    result = run(path=path, ctx=context())
    if result.sound is None:
        lines = [f"{file_name(path)}: exhausted: {result.findings[0]}"]
    else:
        verdict = "sound" if result.sound else "unsound"
        lines = [
            f"{file_name(path)}: iteration {result.iteration}: plan revision "
            f"{result.revision} is {verdict}",
            *(f"  {finding}" for finding in result.findings),
        ]
    _report(result, as_json, lines)
    return int(result.exit_code)


@main.command()
@click.argument("path", type=click.Path())
@click.argument("row_id", metavar="ID")
@click.option("--artifact", required=True, help="The reviewed file, inside the working tree.")
@click.option("--quote", default="", help="The passage of the artifact that decides (verbatim).")
@click.option(
    "--verdict",
    type=click.Choice(["met", "unmet"]),
    required=True,
    help="met: the artifact shows what the row expects (with --quote); unmet: it does not "
    "(with --reason).",
)
@click.option("--reason", default="", help="Why; required for unmet.")
@in_project_option(approved=True)
@json_option
@boundary
def review(
    path: str,
    row_id: str,
    artifact: str,
    quote: str,
    verdict: str,
    reason: str,
    in_project_flag: bool,
    as_json: bool,
) -> int:
    """Record a review of review row ID; the quote must occur in the artifact.

    verify counts a met review only while its quote is still in the artifact, and only when
    every deterministic row is met.
    """
    from goalfile.commands.review import review as run
    from goalfile.model import Verdict

    in_project([path], in_project_flag, approved=True)
    result = run(
        path=path,
        row_id=row_id,
        artifact=artifact,
        quote=quote,
        verdict=Verdict(verdict),
        reason=reason,
        ctx=context(),
    )
    _report(
        result,
        as_json,
        [
            f"{file_name(path)}: review of {row_id} recorded ({verdict}) at iteration "
            f"{result.iteration}"
        ],
    )
    return 0


@main.command()
@click.argument("path", type=click.Path())
@click.option(
    "--lesson",
    metavar="TEXT",
    help="A lesson for the next iteration: written in the entry and added to `## Lessons`.",
)
@json_option
@boundary
def refine(path: str, lesson: str | None, as_json: bool) -> int:
    """Append a backlog entry (`by refine-goal`): one item per row the newest verify entry did
    not meet. Refused unless the newest entry is a verify entry."""
    from goalfile.commands.refine import refine as run

    result = run(path=path, ctx=context(), lesson=lesson)
    _report(
        result,
        as_json,
        [
            f"{file_name(path)}: backlog from verify iteration {result.from_iteration}:",
            *(f"  {item}" for item in result.backlog),
        ],
    )
    return 0


@main.command()
@click.argument("path", type=click.Path())
@click.option("--reason", required=True, help="What blocks the goal (1–4,000 characters).")
@click.option(
    "--tried",
    multiple=True,
    required=True,
    help="A workaround that was tried; repeat for each (1–50).",
)
@in_project_option(approved=False)
@json_option
@boundary
def block(
    path: str, reason: str, tried: tuple[str, ...], in_project_flag: bool, as_json: bool
) -> int:
    """Mark the goal blocked by an external dependency; ledgered with what was tried."""
    from goalfile.commands.state import block as run

    in_project([path], in_project_flag)
    result = run(path=path, reason=reason, tried=tried, ctx=context())
    _report(result, as_json, [f"{file_name(path)}: blocked"])
    return 0


@main.command()
@click.argument("path", type=click.Path())
@click.option("--resolved", help="What removed the blocker (required for a blocked goal).")
@json_option
@boundary
def resume(path: str, resolved: str | None, as_json: bool) -> int:
    """Reopen a paused goal, or a blocked one with --resolved."""
    from goalfile.commands.state import resume as run

    result = run(path=path, resolved=resolved, ctx=context())
    stage_active(path)
    _report(result, as_json, [f"{file_name(path)}: active"])
    return 0


@main.command()
@click.argument("path", type=click.Path())
@click.option("--reason", required=True, help="Why more work is needed (1–4,000 characters).")
@json_option
@boundary
def reopen(path: str, reason: str, as_json: bool) -> int:
    """Set a met, blocked, exhausted or paused goal back to active; ledgered with the reason.

    The same as setting `status: active` by hand, which the next entry records as "reopened
    by hand". The budget is unchanged: a person raises it with `goalfile budget`.
    """
    from goalfile.commands.state import reopen as run

    result = run(path=path, reason=reason, ctx=context())
    stage_active(path)
    _report(result, as_json, [f"{file_name(path)}: active"])
    return 0


@main.command()
@click.argument("path", type=click.Path())
@click.option("--reason", help="Why the goal is paused.")
@json_option
@boundary
def pause(path: str, reason: str | None, as_json: bool) -> int:
    """Pause an active goal (verify refuses it until `goalfile resume`)."""
    from goalfile.commands.state import pause as run

    result = run(path=path, reason=reason, ctx=context())
    _report(result, as_json, [f"{file_name(path)}: paused"])
    return 0


@main.command()
@click.argument("path", type=click.Path())
@click.argument("row_id", metavar="ID")
@click.option("--reason", required=True, help="Why the criterion cannot be met.")
@json_option
@boundary
def impossible(path: str, row_id: str, reason: str, as_json: bool) -> int:
    """Mark criterion ID impossible: it is not run again and the goal can never be met."""
    from goalfile.commands.state import impossible as run

    result = run(path=path, row_id=row_id, reason=reason, ctx=context())
    _report(result, as_json, [f"{file_name(path)}: {row_id} marked impossible"])
    return 0


@main.command()
@click.argument("path", type=click.Path())
@click.option(
    "--iterations",
    type=click.IntRange(min=1, max=BUDGET_LIMIT_MAX),
    help=f"The new iteration limit (at most {BUDGET_LIMIT_MAX}).",
)
@click.option(
    "--tokens",
    type=click.IntRange(min=1, max=BUDGET_LIMIT_MAX),
    help=f"The new token limit (at most {BUDGET_LIMIT_MAX}).",
)
@json_option
@boundary
def budget(path: str, iterations: int | None, tokens: int | None, as_json: bool) -> int:
    """Raise the goal's limits (never lower them); reopens an exhausted goal when they allow.

    Only a person should run this; the change is ledgered.
    """
    from goalfile.commands.state import budget as run

    result = run(path=path, iterations=iterations, tokens=tokens, ctx=context())
    _report(result, as_json, [f"{file_name(path)}: {note}" for note in result.notes])
    if result.status.value == "exhausted":
        fix = f"\n  fix: `{result.fix}`" if result.fix else ""
        err(f"the goal stays exhausted: the limits still leave no room{fix}")
        return 5
    return 0
