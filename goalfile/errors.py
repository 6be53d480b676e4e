"""The one error family of goalfile, and the exit codes of DESIGN §7.

Every failure a user can cause is a :class:`GoalfileError`. Each subclass carries the exit
code it maps to; the CLI boundary is the only place that turns an error into a message and an
exit code. A traceback means a bug.
"""

from __future__ import annotations

import sys
from enum import IntEnum

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (--version needs neither)
if TYPE_CHECKING:
    from pathlib import Path


class ExitCode(IntEnum):
    OK = 0
    UNMET = 1
    USAGE = 2
    INVALID = 3
    BLOCKED = 4
    EXHAUSTED = 5
    INTERRUPTED = 130  # Ctrl-C (SIGINT)
    TERMINATED = 143  # SIGTERM, as a shell reports a process it ended (128 + 15)


class GoalfileError(Exception):
    """Base error: a message, where it happened, and how to fix it."""

    exit_code: ExitCode = ExitCode.INVALID

    def __init__(
        self,
        message: str,
        *,
        file: Path | str | None = None,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        again: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.column = column
        self.hint = hint
        # when this very command line works as it is once something has changed: what changes
        # ("once the other process has finished"); the CLI boundary then makes the command
        # line, as typed, the fix (`hint`), with these words after it
        self.again = again

    def location(self) -> str:
        from goalfile.termsafe import file_name

        parts = [file_name(self.file)] if self.file else []
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def render(self) -> str:
        where = self.location()
        text = f"{where}: {self.message}" if where else self.message
        if self.hint:
            text += f"\n  fix: {self.hint}"
        return text

    def to_json(self) -> dict[str, object]:
        return {
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "hint": self.hint,
            "exit_code": int(self.exit_code),
        }


class UsageError(GoalfileError):
    """The command line itself is wrong (exit 2)."""

    exit_code = ExitCode.USAGE


class MeantOther(UsageError):
    """A command-line word that cannot be right, where the user most likely meant another
    (exit 2): ``given`` as typed, ``instead`` the word meant, or None. The CLI boundary turns
    it into a fix that is the same command line with ``instead`` in its place, followed by
    ``why`` (the fix is ``hint`` where it cannot)."""

    def __init__(
        self, message: str, *, given: str, instead: str | None, hint: str, why: str = ""
    ) -> None:
        super().__init__(message, hint=hint)
        self.given = given
        self.instead = instead
        self.why = why


class TakenSlug(MeantOther):
    """`goalfile new SLUG` where goals/SLUG.md exists already (exit 3, nothing written):
    ``instead`` is a free slug, so the fix writes another goal as the command meant to."""

    exit_code = ExitCode.INVALID


class NoSuchRow(MeantOther):
    """A row id the goal has no criterion for (exit 3, nothing written). ``instead`` is the
    one id it has that differs only in case (``C1`` for ``c1``), so the fix is the command
    line with it; else the fix lists the goal's rows."""

    exit_code = ExitCode.INVALID

    def __init__(self, message: str, *, given: str, ids: list[str], path: str) -> None:
        from goalfile.shellword import shell_word

        same = [i for i in ids if i.casefold() == given.strip().casefold()]
        listed = ", ".join(ids) or "none"
        super().__init__(
            message,
            given=given,
            instead=same[0] if len(same) == 1 else None,
            hint=f"`goalfile status {shell_word(path)}` lists its rows ({listed})",
        )


class NoSuchGoalFile(MeantOther):
    """The goal file named does not exist; ``instead`` is a goal file that does, by the name
    the user most likely meant (``goals/auth.md`` for ``auth``). ``guessed``: ``instead`` only
    has a close name (``auth-1.md`` for ``auth-2.md``), so it may be another goal."""

    def __init__(self, path: str, *, instead: str | None, hint: str, guessed: bool = False) -> None:
        from goalfile.termsafe import file_name

        super().__init__(
            f"{file_name(path)}: no such goal file", given=path, instead=instead, hint=hint
        )
        self.path = path
        self.guessed = guessed


class GoalFileInvalid(GoalfileError):
    """The goal file cannot be read as a goal (exit 3, file untouched)."""

    exit_code = ExitCode.INVALID


class Refused(GoalfileError):
    """The goal is valid but the command will not act on it (exit 3, file untouched)."""

    exit_code = ExitCode.INVALID


class Locked(Refused):
    """Another goalfile process held the goal's lock for all of ``wait`` seconds (exit 3,
    nothing written). The CLI boundary turns its fix into the command line as typed: for
    verify with a longer --lock-wait, for any other command as it was, to run once the other
    process is done."""

    def __init__(self, message: str, *, file: str, wait: float) -> None:
        super().__init__(message, file=file, again="once the other process has finished")
        self.wait = wait


class WriteFailed(GoalfileError):
    """A goal file could not be written; it keeps its old content (exit 3)."""

    exit_code = ExitCode.INVALID


class Interrupted(GoalfileError):
    """Ctrl-C: children ended, file untouched unless the message says otherwise (exit 130)."""

    exit_code = ExitCode.INTERRUPTED


class TerminatedError(Interrupted):
    """SIGTERM: the same as Ctrl-C, but exit 143."""

    exit_code = ExitCode.TERMINATED


class Terminated(KeyboardInterrupt):
    """Raised by the SIGTERM handler where Ctrl-C raises KeyboardInterrupt, so that the same
    cleanup runs (checks ended, temporary files removed)."""


def interrupted(cause: KeyboardInterrupt, message: str) -> Interrupted:
    """The error for an interrupt: exit 143 after SIGTERM, 130 after Ctrl-C."""
    return TerminatedError(message) if isinstance(cause, Terminated) else Interrupted(message)


IN_PROGRAM = False
"""Whether goalfile runs as its own program (``goalfile.__main__``), not inside another's
process: then it may fork (the Stop hook's watchdog, :mod:`goalfile.hookwatch`)."""

NOTED_SIGNALS: list[int] = []
"""SIGINT and SIGTERM that came while goalfile was starting (before a command's own handling
began): the program notes them (see ``goalfile.__main__``) and the command boundary honours
them as soon as it begins."""


def note_signal(signum: int, frame: object) -> None:
    NOTED_SIGNALS.append(signum)


def interrupt_message() -> str:
    """What an interrupt did to the goal files, decided by whether one was replaced (a signal
    that comes just after the replace must not say the file is untouched), never by timing."""
    files = sys.modules.get("goalfile.files")  # not imported: nothing was written
    written = files.written_files() if files is not None else ()
    if not written:
        return "interrupted; the goal file is untouched"
    return f"interrupted after {', '.join(written)} was written; its new content is complete"
