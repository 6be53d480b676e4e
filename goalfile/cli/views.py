"""Commands that show things: shell completion, a goal's history."""

from __future__ import annotations

import click

from goalfile.cli.base import boundary, emit_json, json_option, main

SHELLS = ("bash", "zsh", "fish")


@main.command()
@click.argument("shell", type=click.Choice(SHELLS))
@boundary
def completion(shell: str) -> int:
    """Print the shell completion script for SHELL (bash, zsh or fish).

    \b
    bash: eval "$(goalfile completion bash)"   (in ~/.bashrc)
    zsh:  eval "$(goalfile completion zsh)"    (in ~/.zshrc)
    fish: goalfile completion fish > ~/.config/fish/completions/goalfile.fish
    """
    from click.shell_completion import get_completion_class

    cls = get_completion_class(shell)
    assert cls is not None  # every name in SHELLS has a class
    script = cls(main, {}, "goalfile", "_GOALFILE_COMPLETE").source()
    click.echo(script, nl=False)
    return 0


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown"]),
    default="text",
    show_default=True,
    help="text for a terminal; markdown for a pull request or $GITHUB_STEP_SUMMARY.",
)
@json_option
@boundary
def log(paths: tuple[str, ...], fmt: str, as_json: bool) -> int:
    """Show each goal's history as a grid: one line per criterion, one column per verify run
    (default: every goal under goals/ and .zetetic/goals/; a folder stands for every *.md
    under it).

    Symbols: ✓ met, ✗ unmet, E error, ⊘ impossible, · not in that run, ↓ met in the run
    before and judged not met now (a regression). The `before` line marks what happened
    since the previous run: A approved, R re-approved, O reopened, S status changed by a
    command; the events are listed below.
    """
    from goalfile.cli.core import goal_paths
    from goalfile.files import load_goal
    from goalfile.history import history, render_markdown, render_text

    items = [history(load_goal(path), path=path) for path in goal_paths(paths)]
    if as_json:
        emit_json({"schema_version": 1, "goals": [item.to_json() for item in items]})
        return 0
    render = render_markdown if fmt == "markdown" else render_text
    for number, item in enumerate(items):
        if number:
            click.echo("")
        click.echo("\n".join(render(item)))
    return 0


@main.command()
def statusline() -> None:
    """Claude Code status line: one short line for this working tree's goal.

    Reads Claude Code's status JSON on stdin and prints the focused goal (`goalfile focus`),
    else the active goal: its slug, rows met of total at the last verify, iteration of budget
    and tokens of budget. Prints nothing when there is no goal; always exits 0. Register it
    with `goalfile init --statusline`.
    """
    import sys

    from goalfile.cli.base import context
    from goalfile.commands.statusline import status_text
    from goalfile.termsafe import wrap_standard_streams

    wrap_standard_streams()  # the host draws the line as it is printed

    try:
        raw = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
        text = status_text(raw, context())
    except Exception as exc:  # a status line must never fail the host's prompt
        text = f"goalfile: {type(exc).__name__}"
    if text:
        click.echo(text)
