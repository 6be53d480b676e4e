"""Commands that show things: shell completion."""

from __future__ import annotations

import click

from goalfile.cli.base import boundary, main

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
