"""What goalfile prints is text, never a terminal's instructions.

A goal file, a check's output and a transcript are written by the agent; goalfile prints
their text (a non-goal in `activate`'s listing, a criterion in `status`, evidence, lint's
messages). A control character in it drives the person's terminal: a carriage return or a
backspace writes over what was printed, ``ESC 7``/``ESC 8`` and ``ESC M`` move the cursor
back up over the listing of what is being approved, ``ESC ]52`` writes the clipboard, and the
bidirectional overrides reorder what is shown. So each of them, and each byte of a file name
that is not UTF-8 (read as a lone surrogate), is written as a visible escape, ``\\u001b``,
``\\u202e``, ``\\udcff`` (a JSON string reads that escape as the same character, so a JSON
document printed through here means what it meant).

Every command's standard output and error are wrapped in :class:`SafeStream`
(:func:`goalfile.cli.base.boundary`); goalfile's own colours pass as they are, and the
progress display writes its cursor moves with :meth:`SafeStream.raw_write`. A Stop hook's
reason and message are escaped with :func:`escape` before they are put in the host's JSON,
which would otherwise carry them to the host's screen decoded."""

from __future__ import annotations

import functools
import re
from typing import Any, TextIO

_UNSAFE = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # control characters, but tab and line feed
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks and overrides
    "\ud800-\udfff"  # lone surrogates: the bytes of a file name that is not UTF-8, which no
    # UTF-8 stream can write (a hook's answer would end in an encoding error)
)


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Any unsafe character; and the colours goalfile's progress display writes around a
    verdict (group 1), then any unsafe character. Compiled on first use, by a text that holds
    more than printable characters, tabs and line feeds (:func:`_plain`): most runs print
    none (0.3 ms of every start)."""
    return re.compile(f"[{_UNSAFE}]"), re.compile(f"(\x1b\\[(?:3[1235]|0)m)|[{_UNSAFE}]")


def _plain(text: str) -> bool:
    """Whether ``text`` holds no unsafe character, known without a pattern: each is a control
    (Cc) or format (Cf) character, which ``str.isprintable`` refuses, as it refuses tabs and
    line feeds, which are safe (a text that holds one is asked with them as spaces)."""
    if text.isprintable():
        return True
    return ("\n" in text or "\t" in text) and text.replace("\n", " ").replace(
        "\t", " "
    ).isprintable()


def _escaped(char: str) -> str:
    return f"\\u{ord(char):04x}"


def escape(text: str) -> str:
    """``text`` with each control character and bidirectional control as a visible escape."""
    if _plain(text):
        return text
    return _patterns()[0].sub(lambda found: _escaped(found.group()), text)


def _stream_escape(found: re.Match[str]) -> str:
    return found.group(1) or _escaped(found.group())


class SafeStream:
    """A text stream that writes what it is given through :func:`escape` (goalfile's own
    colours kept), and everything else it is asked for from the stream it wraps."""

    # No binary buffer to write around the escaping: click writes to a stream's buffer through
    # a text wrapper of its own when it deems the stream's encoding wrong (ASCII, as with
    # PYTHONIOENCODING=ascii or a C locale); without one it writes here.
    buffer = None

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # as a text stream (click asks with b"" at every start)
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if not _plain(text):
            text = _patterns()[1].sub(_stream_escape, text)
        self.wrapped.write(text)
        return len(text)

    def raw_write(self, text: str) -> int:
        """Write goalfile's own cursor movement (the progress display's line redraw)."""
        return self.wrapped.write(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


def wrap_standard_streams() -> None:
    """Wrap ``sys.stdout`` and ``sys.stderr`` (once; a closed one stays None)."""
    import sys

    if sys.stdout is not None and not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)
    if sys.stderr is not None and not isinstance(sys.stderr, SafeStream):
        sys.stderr = SafeStream(sys.stderr)


def unwrap_standard_streams() -> None:
    """Give ``sys.stdout`` and ``sys.stderr`` back as they were: for `goalfile mcp`, which
    speaks JSON-RPC on the binary stream to a client, not text to a terminal."""
    import sys

    if isinstance(sys.stdout, SafeStream):
        sys.stdout = sys.stdout.wrapped
    if isinstance(sys.stderr, SafeStream):
        sys.stderr = sys.stderr.wrapped


def raw_write(stream: TextIO, text: str) -> None:
    """``text`` written as it is, on a :class:`SafeStream` or any other stream."""
    getattr(stream, "raw_write", stream.write)(text)


_NAME_ESCAPES = {
    "\n": "\\n",
    "\t": "\\t",
    '"': '\\"',
    "\\": "\\\\",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_NAME_BREAKS = ("\n", "\t", "\u2028", "\u2029")


def file_name(text: str) -> str:
    """A file name as one line of a message: as it is when it holds no line break or tab;
    else in double quotes, each line break, tab, quote and backslash written as a C escape
    (``"goals/de\\nmo.md"``), as git quotes such a path, and a line or paragraph separator
    (U+2028, U+2029, which a reader may break a line at, as goalfile's ledger does) as
    ``\\u2028``. A name holding a line break, printed raw, would start a line of its own in
    the message (a forged ``fix:`` line, in a Stop hook's reason the model reads). The other
    control characters are left to :class:`SafeStream` and :func:`escape`, which write each
    as ``\\u001b``. Commands that name the file take it from
    :func:`goalfile.shellword.shell_word`."""
    if not any(char in text for char in _NAME_BREAKS):
        return text
    return '"' + "".join(_NAME_ESCAPES.get(char, char) for char in text) + '"'
