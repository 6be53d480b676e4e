"""The trust commands: audit, restore."""

from __future__ import annotations

import click

from goalfile.cli.base import boundary, context, emit_json, err, json_option, main
from goalfile.termsafe import file_name
from goalfile.words import counted


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--against",
    metavar="REF",
    help="A git revision (e.g. origin/main): the ledger must only have grown since, and "
    "every contract change since must be re-approved.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown"]),
    default="text",
    show_default=True,
    help="text for a terminal or a CI log; markdown (a table, then the findings) for a pull "
    "request or $GITHUB_STEP_SUMMARY.",
)
@json_option
@boundary
def audit(paths: tuple[str, ...], against: str | None, fmt: str, as_json: bool) -> int:
    """Check that each goal's status is backed by its ledger (for CI).

    A `met` needs a newest verify entry with every row met under the pinned contract; a
    status edited by hand, a contract changed without re-approval, and a met review whose
    quote left its artifact are findings. With --against, entries present at REF must be
    unchanged and in order, and each contract change since REF is classified (loosened or
    not) and matched with its re-approval entry. A folder stands for every *.md under it;
    without PATH, every goal under goals/ and .zetetic/goals/, and with --against also every
    one REF has there (a goal deleted since is a finding).

    Exit 0 clean, 1 findings, 2 usage error (e.g. an unknown REF), 3 a file that cannot be
    read as a goal.
    """
    from goalfile.cli.core import goal_paths
    from goalfile.commands.audit import audit as run
    from goalfile.commands.audit import with_base_goals
    from goalfile.gitsession import session

    ctx = context()
    with session():  # one git process per read, not per goal (goalfile.gitsession)
        if paths and against is not None:  # a folder also stands for the goals it held at REF
            targets = paths
        elif paths or against is None:
            targets = goal_paths(paths)
        else:
            targets = tuple(with_base_goals(against, ctx.cwd))
            if not targets:
                err(f"no goal files found under goals/ or .zetetic/goals/, here or at {against}")
        result = run(paths=targets, against=against, ctx=ctx)
    if as_json:
        emit_json(result.to_json())
        return int(result.exit_code)
    if fmt == "markdown":
        from goalfile.auditmd import render

        click.echo("\n".join(render(result.files, against=against)))
        return int(result.exit_code)
    for item in result.files:
        if item.error is not None:
            err(f"goalfile: {item.error.render()}")
            click.echo(f"{file_name(item.path)}: invalid")
            continue
        for finding in item.findings:
            click.echo(finding.render())
        for warning in item.warnings:
            click.echo(f"warning: {warning.render()}")
        for note in item.notes:
            click.echo(f"{file_name(item.path)}: note: {note}")
        if item.changes:
            click.echo(f"{file_name(item.path)}: contract changes since {item.since or against}:")
            for change in item.changes:
                click.echo(f"  {change.render()}")
        since = item.since or against
        entries = counted(len(item.new_entries), "entry", "entries")
        added = f" ({entries} added since {since})" if against else ""
        verdict = counted(len(item.findings), "finding") if item.findings else "clean"
        click.echo(f"{file_name(item.path)}: {verdict}{added}")
    return int(result.exit_code)


@main.command()
@click.argument("path", type=click.Path())
@json_option
@boundary
def restore(path: str, as_json: bool) -> int:
    """Put back the ledger entries git holds for the goal; keep entries written since.

    For a goal file that no longer continues the copy git holds (HEAD's, else the index's): a
    ledger entry of that copy rewritten or edited. Only those entries are rewritten, from
    git's copy; the rest of the file, and every entry written after them, stays as it is
    (`git checkout -- PATH` would drop those entries). Refused (exit 3, file untouched) when
    the entries cannot be told apart, with the command that saves a copy and checks out.
    """
    from goalfile.commands.restore import restore as run

    result = run(path=path, ctx=context())
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(
            f"{file_name(path)}: put back {counted(result.restored, 'entry', 'entries')} from "
            f"{result.source}'s copy; kept {counted(result.kept, 'entry', 'entries')} written "
            "since, as the file holds them"
        )
        if result.status is not None:
            was, now = result.status
            click.echo(f"{file_name(path)}: status {was} → {now}: the ledger does not back `{was}`")
    return 0
