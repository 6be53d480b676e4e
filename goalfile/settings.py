"""The run settings of a goal as they are run: one value for the digest and for the runner.

The contract's digest (``contract.normal_settings``, ``contract.contract_row``) and the code that
starts a check (``commands.checking``, ``commands.workdir``) both take these values from here,
so nothing that is digested can differ from what runs: a `shell`, `cwd` or check that the
digest reads one way cannot run another way.

- ``shell`` as written: the goal file parser refuses one that is not an absolute path or that
  holds whitespace, a non-ASCII or a control character (:func:`shell_problem`), so there is no
  spelling of the default shell but ``/bin/sh`` itself;
- ``cwd`` normalised lexically (``posixpath.normpath``: ``a/../..`` is ``..``), and the checks run
  in the folder that normalised path names, relative to the goal file's real folder; the parser
  refuses one that begins or ends with whitespace or holds a character a reader cannot see as
  it is (an invisible one, a look-alike letter or a decomposed one);
- a check's command with its ends stripped (inner whitespace kept).
"""

from __future__ import annotations

import posixpath
import re

from goalfile.model import Criterion, Goal

DEFAULT_SHELL = "/bin/sh"

KNOWN_SHELLS = (
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "oksh", "loksh", "pdksh", "ash", "yash", "posh",
    "fish", "csh", "tcsh",
)  # fmt: skip
"""The program names a `shell:` may have (a version may follow: ``bash5``, ``ksh93``): shells
that run ``-c COMMAND``. Any other program (``/bin/true``, ``/bin/echo``, ``/usr/bin/env``)
run as ``PROGRAM -c CHECK`` would pass checks it never ran."""

_VERSION_RE = re.compile(r"[-.0-9]+$")

PROBE_COMMAND = "echo goalfile-shell-probe; exit 3"
"""What a non-default shell must run before a check runs in it (:func:`probe_problem`)."""

PROBE_OUTPUT = "goalfile-shell-probe"
PROBE_EXIT = 3


def shell(goal: Goal) -> str:
    """The shell every check of ``goal`` runs in."""
    return goal.shell


def cwd(goal: Goal) -> str | None:
    """The frontmatter ``cwd`` as digested and as run, or None when the goal sets none."""
    if not goal.cwd:
        return None
    return posixpath.normpath(goal.cwd)


def command(row: Criterion) -> str:
    """The command a deterministic row runs."""
    return row.check.strip()


def shell_problem(value: str) -> str | None:
    """Why ``value`` cannot be a goal's shell, or None.

    A relative name would be a file in the working directory (a folder named `` `` holding
    ``bin/sh`` makes `` /bin/sh`` one), and a space, a no-break space or another non-ASCII
    character lets a shell that reads as ``/bin/sh`` be another program."""
    bad = next((c for c in value if c.isspace() or not " " < c < "\x7f"), None)
    if bad is not None:
        return (
            f"holds the character U+{ord(bad):04X}; a shell is an absolute path of printable "
            "ASCII characters without spaces"
        )
    if not value.startswith("/"):
        return "is not an absolute path (a relative one names a file in the working directory)"
    if not known_shell(value):
        return (
            f"is not a shell goalfile knows ({', '.join(KNOWN_SHELLS)}): every check runs as "
            "`SHELL -c CHECK`, and another program (`/bin/true`, `/bin/echo`) would pass checks "
            "it never ran"
        )
    return None


def known_shell(value: str) -> bool:
    """Whether the last part of ``value`` names a shell of :data:`KNOWN_SHELLS`."""
    name = posixpath.basename(value)
    return name in KNOWN_SHELLS or _VERSION_RE.sub("", name) in KNOWN_SHELLS


def probe_problem(exit_status: int | None, stdout: bytes, shell: str) -> str | None:
    """Why ``shell`` is no shell, from what it did with :data:`PROBE_COMMAND`; None when it
    printed the probe's word and exited with its status, as a shell does."""
    if exit_status == PROBE_EXIT and stdout.decode("utf-8", "replace").strip() == PROBE_OUTPUT:
        return None
    said = " ".join(stdout.decode("utf-8", "replace").split())[:60]
    return (
        f"shell {shell} does not run its command: `{shell} -c '{PROBE_COMMAND}'` exited "
        f"{exit_status if exit_status is not None else 'by a signal'}"
        + (f" printing {said!r}" if said else " printing nothing")
        + f" (a shell prints {PROBE_OUTPUT} and exits {PROBE_EXIT})"
    )


def cwd_problem(value: str) -> str | None:
    """Why ``value`` cannot be a goal's ``cwd``, or None: whitespace at either end (a folder
    `` ..`` is not ``..``, and no one means it), or a character a reader cannot see as it is
    (:mod:`goalfile.unseen`: ``../tests`` with a zero-width space, a Cyrillic ``е`` or a
    decomposed letter names another folder that every view shows as the approved one)."""
    if value != value.strip():
        return "begins or ends with whitespace"
    if value.isascii() and value.isprintable():
        return None
    from goalfile import unseen

    found = unseen.find(value, punctuation=True)
    if found:
        return f"is not what it shows: it holds {found[0].what}"
    return None
