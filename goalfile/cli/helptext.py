"""What ``goalfile --help`` prints, laid out by click at its widest (a terminal of 80 columns or
more, or no terminal), kept here so that the top-level help needs neither click nor any command
module: importing click alone costs three times starting Python.

``TEXT`` is click's own output with the program name left as ``{prog}``; ``COMMANDS`` says
which module registers each command, so that a run imports only the one it needs. Both are
written by ``python -m goalfile.cli.helptext`` (run it after adding a command or changing a
command's short help or the group's), and tests/test_fast_help.py checks that they are still
what click has.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (--help needs neither)
if TYPE_CHECKING:
    import click

COLUMNS = 80  # click lays help out at min(columns, 80) - 2; from 80 columns on it is the same

TEXT = """\
Usage: {prog} [OPTIONS] COMMAND [ARGS]...

  Goal files whose acceptance checks really run.

  A goal is a Markdown file: frontmatter with status and budget, one end
  state, non-goals, and a table of acceptance criteria, each a shell check
  with an expected result. `verify` runs every check as a real process and
  appends the verdicts to the file's ledger.

Options:
  --version   Show the version and exit.
  -h, --help  Show this message and exit.

Commands:
  new         Write goals/SLUG.md: a draft, or active with --activate
  lint        Check goal files against every rule of the format
  activate    Approve a draft: make it active and pin its contract
  verify      Run every check, judge each row, append the ledger entry
  status      Show where each goal stands, with its next step
  plan        Check the plan serves every criterion; use an iteration
  review      Record a review of a review row, quoting its artifact
  refine      Append a backlog: one item per row not met
  block       Mark the goal blocked by an external dependency
  resume      Reopen a paused goal, or a blocked one with --resolved
  reopen      Set a met, blocked, exhausted or paused goal back to active
  pause       Pause an active goal until `goalfile resume`
  impossible  Mark a criterion impossible: the goal can never be met
  budget      Raise a goal's iteration or token limits (a person only)
  audit       Check each goal's status is backed by its ledger (for CI)
  restore     Put back the ledger entries git holds; keep those since
  init        Set up goals/, the skills and the Stop hooks in a repository
  focus       Make PATH the goal the Stop hook holds this working tree to
  doctor      Check that each host will really hold its agent to the goal
  skills      Install the agent skills, and show what is installed
  hook        Entry points for the hosts' hooks (the Stop hook)
  mcp         Serve goalfile's goal tools to MCP clients over stdio
  completion  Print the shell completion script (bash, zsh or fish)
  log         Show each goal's history as a grid of verify runs
  statusline  Claude Code's status line for this working tree's goal

  Exit codes: 0 met/success, 1 active with unmet rows, 2 usage error, 3
  refused or invalid goal file (file untouched), 4 blocked, 5 exhausted, 130
  interrupted (Ctrl-C), 143 terminated (SIGTERM).
"""


COMMANDS: tuple[tuple[str, str], ...] = (
    ("new", "core"),
    ("lint", "core"),
    ("activate", "core"),
    ("verify", "core"),
    ("status", "core"),
    ("plan", "lifecycle"),
    ("review", "lifecycle"),
    ("refine", "lifecycle"),
    ("block", "lifecycle"),
    ("resume", "lifecycle"),
    ("reopen", "lifecycle"),
    ("pause", "lifecycle"),
    ("impossible", "lifecycle"),
    ("budget", "lifecycle"),
    ("audit", "trust"),
    ("restore", "trust"),
    ("init", "hosts"),
    ("focus", "hosts"),
    ("doctor", "hosts"),
    ("skills", "hosts"),
    ("hook", "hook"),
    ("mcp", "mcp"),
    ("completion", "views"),
    ("log", "views"),
    ("statusline", "views"),
)
"""Each top-level command in the order the help lists them, with the module of goalfile.cli
that registers it: a run imports only that module (a command not listed here, all of them)."""


def registered() -> tuple[tuple[str, str], ...]:
    """:data:`COMMANDS` as the click group has them now."""
    from goalfile.cli import group
    from goalfile.cli.base import module_of

    command = group()
    names = command.list_commands(click_context(command, "goalfile"))
    return tuple((name, module_of(command.commands[name])) for name in names)


def click_context(command: click.Group, prog: str) -> click.Context:
    import click

    settings = {**command.context_settings, "terminal_width": COLUMNS - 2}
    return click.Context(command, info_name=prog, **settings)


def rendered(prog: str) -> str:
    """The top-level help as click renders it for ``prog`` at :data:`COLUMNS` columns."""
    from goalfile.cli import group

    command = group()
    return command.get_help(click_context(command, prog)) + "\n"


def write() -> None:
    """Rewrite :data:`TEXT` and :data:`COMMANDS` in this file from what click has now."""
    from pathlib import Path

    marker = "{prog}"
    text = rendered(marker)
    if text.count(marker) != 1 or '"""' in text or "\\" in text:
        raise SystemExit("the help text cannot be kept as a plain string literal here")
    source = Path(__file__)
    code = source.read_text(encoding="utf-8")
    start = code.index('TEXT = """\\\n') + len('TEXT = """\\\n')
    end = code.index('"""\n', start)
    code = code[:start] + text + code[end:]
    start = code.index("COMMANDS: tuple[tuple[str, str], ...] = ")
    end = code.index("\n", start)
    if code.startswith("(\n", end - 1):  # the table as written before: up to its closing line
        end = code.index("\n)\n", start) + 2
    table = "".join(f'    ("{name}", "{module}"),\n' for name, module in registered())
    code = code[:start] + f"COMMANDS: tuple[tuple[str, str], ...] = (\n{table})" + code[end:]
    source.write_text(code, encoding="utf-8")


if __name__ == "__main__":
    write()
