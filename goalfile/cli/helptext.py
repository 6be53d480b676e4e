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
  new         Write the goal file goals/SLUG.md, a draft unless...
  lint        Check goal files against every rule of the format (default:...
  activate    Make a draft goal active, only when lint passes; ledgered...
  verify      Run every check as a real process, judge each row, and...
  status      Show each goal's status, budget use and latest verdicts...
  plan        Check that the `## Plan` table serves every criterion, and...
  review      Record a review of review row ID; the quote must occur in...
  refine      Append a backlog entry (`by refine-goal`): one item per row...
  block       Mark the goal blocked by an external dependency; ledgered...
  resume      Reopen a paused goal, or a blocked one with --resolved.
  reopen      Set a met, blocked, exhausted or paused goal back to...
  pause       Pause an active goal (verify refuses it until `goalfile...
  impossible  Mark criterion ID impossible: it is not run again and the...
  budget      Raise the goal's limits (never lower them); reopens an...
  audit       Check that each goal's status is backed by its ledger (for...
  init        Set up this repository: goals/ with a draft goal, the...
  focus       Record PATH as the goal this working tree's sessions work...
  doctor      Check that each host will really hold its agent to the goal...
  skills      Install the goalfile skills for coding agents, and show...
  hook        Entry points for coding-agent hosts' hooks (Claude Code,...
  mcp         Serve goalfile to MCP clients over stdio (needs the...
  completion  Print the shell completion script for SHELL (bash, zsh or...
  log         Show each goal's history as a grid: one line per criterion,...
  statusline  Claude Code status line: one short line for this working...

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
