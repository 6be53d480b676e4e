"""The iteration ledger: rendering entries, the summary line, and reading entries back.

Everything a check printed is data. Before it reaches the file it is reduced to one line without
control characters, its ``|`` escaped and fenced in a code span longer than any backtick run it
holds; quoted output lines are indented four spaces inside a fenced block, so no line of the file
begins with text a check printed and no output can end the table, add a row, forge ``status:`` or
a heading.

An entry is written in mdformat's style (with mdformat-gfm): a blank line after the heading and
between blocks, tables padded to the display width of their cells, code spans and fences as
mdformat writes them, and goalfile's own text escaped as mdformat escapes it. A file that passes
``mdformat --check`` still does after goalfile appends to it.
"""

from __future__ import annotations

import array
import bisect
import functools
import heapq
import itertools
import operator
import re
import unicodedata
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any, Final, Generic, TypeVar

from goalfile.model import Entry, RowResult, Status, Verdict
from goalfile.prose import inline_code, span_text
from goalfile.value import Value

_T = TypeVar("_T")


class PerText(Generic[_T]):
    """A function of a text that keeps its last few answers, as ``functools.lru_cache`` would,
    but finds a text again by identity, else by equal length and content, without hashing it:
    the hash of a long ledger is a pass over all of it (1 to 2 ms for 4 MB), paid once for
    every text a run reads or writes, and a run asks about only the same few texts."""

    def __init__(self, function: Callable[[str], _T], size: int) -> None:
        self._function = function
        self._size = size
        self._kept: list[tuple[str, _T]] = []  # most recently asked first
        functools.update_wrapper(self, function)

    def __call__(self, text: str) -> _T:
        kept = self._kept
        for at, (seen, value) in enumerate(kept):
            if seen is text or (len(seen) == len(text) and seen == text):
                if at:
                    kept.insert(0, kept.pop(at))
                return value
        value = self._function(text)
        kept.insert(0, (text, value))
        del kept[self._size :]
        return value

    def cache_clear(self) -> None:
        self._kept.clear()


def per_text(size: int) -> Callable[[Callable[[str], _T]], PerText[_T]]:
    """Decorate a function of one text as :class:`PerText`, keeping ``size`` answers."""
    return lambda function: PerText(function, size)


VERIFY_BY = "verify-goal"
EXCERPT_LINES = 20
EVIDENCE_CHARS = 300


def entry_heading(*, groups: bool) -> str:
    """The text of the patterns that read an entry heading after its `### `: ``Iteration N
    (DATE[ TIME]) by CMD``, then blanks and carriage returns; with a group for each field
    (the number, the date, the time, the command) or with none. Every pattern of the heading
    is made from it: :data:`_HEADING_RE`, the index's :data:`_HEADINGS_RE` and lint's search
    for look-alike headings (``lint._lookalike_scan``), so that they cannot read it apart.

    An iteration number is 1 to 18 ASCII digits (int() reads it, whatever its length and
    digits `\\d` would take), its date and time ASCII digits too: a heading with any other
    number is not an entry, and lint reports the line as a heading it cannot read."""
    number, date = r"[0-9]{1,18}", r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    time, by = r"[0-9]{2}:[0-9]{2}(?::[0-9]{2})?", r"[A-Za-z0-9_.-]+"
    if groups:
        number, date, time, by = (f"({field})" for field in (number, date, time, by))
    return rf"Iteration {number} \({date}(?:[ T]{time})?\) by {by}[ \t]*\r*"


_HEADING_RE = re.compile(rf"(?m)^### {entry_heading(groups=True)}$")


@functools.cache
def heading_like_re() -> re.Pattern[str]:
    """What a person or a skill may have meant as an entry heading: checked by lint, never
    ignored. Compiled on first use, as the patterns below that reading a goal does not need."""
    return re.compile(r"(?im)^[ ]{0,3}#{1,6}[ \t]*iteration\b[^\n]*$")


@functools.cache
def _heading_like_scan_re() -> re.Pattern[str]:
    """The lines of :func:`heading_like_re` after a newline: a search that starts at each
    newline instead of at each character, as a pattern anchored at ``^`` does."""
    return re.compile(r"(?i)\n([ ]{0,3}#{1,6}[ \t]*iteration\b[^\n]*)")


# after a newline, an H1/H2 heading (group 1) or an entry's heading line (groups 3 to 6),
# matched from its first `#`: the literal prefix `#` lets one search skip every other line at C
# speed, stopping only at a `#` (a newline, the prefix `\n#` once was, stops at every line:
# 2.8 ms for 4 MB, 2.1 now), and a look behind it says whether a newline comes first. The same
# search finds the lines lint reports as look-alike entry headings (those heading_like_re()
# matches that are not entry headings): an H1/H2 heading whose words start `iteration` (group
# 2), a `#` after the newline that starts no section or entry heading (group 7), or one after
# one to three blanks (group 8). Lint searched the ledger for them once more: 2 ms for 4 MB.
LOOKALIKE = r"#{0,5}[ \t]*(?i:iteration)\b"  # heading_like_re() from after its first `#`
_HEADINGS_RE = re.compile(
    r"(?m)#(?:(?<=\n#)(?:(#?[ \t])([ \t]*(?i:iteration)\b)?"
    rf"|## {entry_heading(groups=True)}$|({LOOKALIKE}))"
    rf"|(?:(?<=\n #)|(?<=\n  #)|(?<=\n   #))({LOOKALIKE}))"
)
_FENCE_LINE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_STATUS_LINE_RE = re.compile(r"^status: ([a-z]+)(?: \((.*)\))?$")
_CONTRACT_LINE_RE = re.compile(r"^contract: ([0-9a-f]{6,64})$")
_CELL_SPLIT_RE = re.compile(r"(?<!\\)\|")
ROW_CELLS = ("id", "verdict", "command", "exit", "evidence")
ROW_HEADER = "| id | verdict | command | exit | evidence |"  # as the compact style writes it


@functools.cache
def _cleaning() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """ANSI sequences, line breaks and control characters, compiled when a line is first
    cleaned (a command that only reads a goal cleans none)."""
    return (
        re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])"),
        re.compile("(?:\r\n|[\r\n\x0b\x0c\x85\u2028\u2029])+"),
        re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ufeff]"),
    )


def clean_line(text: str, *, limit: int = EVIDENCE_CHARS) -> str:
    """One line of printable text: ANSI sequences and control characters gone, tabs and line
    breaks as spaces."""
    if not (text.isascii() and text.isprintable()):  # printable ASCII has nothing to clean
        ansi, breaks, control = _cleaning()
        text = control.sub("", breaks.sub(" ", ansi.sub("", text).replace("\t", " ")))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


CODE_SPAN_LIMIT = 10_000
"""Characters a :func:`code_span` keeps (a longer text is cut, ending in `…`)."""


def code_span(text: str) -> str:
    """A Markdown code span that shows ``text`` verbatim inside a table cell: one line, cut
    at :data:`CODE_SPAN_LIMIT`, pipes escaped, written as :func:`goalfile.prose.inline_code`
    (mdformat's way) writes it."""
    return inline_code(clean_line(text, limit=CODE_SPAN_LIMIT).replace("|", "\\|"))


def line_code(text: str) -> str:
    """A Markdown code span that shows ``text`` verbatim outside a table (a list item, a
    message): one line, cut at :data:`CODE_SPAN_LIMIT`, its pipes as they are, since a `\\|`
    there shows its backslash (`a || b` would read as `a \\|\\| b`)."""
    return inline_code(clean_line(text, limit=CODE_SPAN_LIMIT))


def note_code(text: str) -> str:
    """A code span outside a table that goalfile reads back (a review's artifact and quote, a
    recorded run setting): :func:`line_code`, read back by :func:`note_code_text`. Such spans were
    written with every `|` as `\\|`, as in a cell, and are still read so; a text whose every
    pipe has a backslash before it would read back that way too, so it alone is written in
    that form (its backslashes then show)."""
    text = clean_line(text, limit=CODE_SPAN_LIMIT)
    return inline_code(text.replace("|", "\\|") if _pipes_escaped(text) else text)


def note_code_text(span: str) -> str:
    """The text of a :func:`note_code` span (or of the cell itself): its pipes as they are,
    unless every one has a backslash before it (the form of a table cell)."""
    text = span_content(span)
    return text.replace("\\|", "|") if _pipes_escaped(text) else text


def _pipes_escaped(text: str) -> bool:
    return "|" in text and re.search(r"(?<!\\)\|", text) is None


def plain_cell(text: str) -> str:
    """Markdown for a cell: one line, pipes escaped (markup in it is kept as markup)."""
    return clean_line(text, limit=1_000).replace("|", "\\|")


def text_cell(text: str) -> str:
    """Our own prose in a cell: one line, as Markdown text that shows it as it is and that
    mdformat keeps (see :func:`md_text`), pipes escaped."""
    return md_text(clean_line(text, limit=1_000)).replace("|", "\\|")


_CHAR_REFERENCE_RE: re.Pattern[str] | None = None


def md_text(text: str, *, before: str = "", after: str = "", spans: bool = False) -> str:
    """Plain text as Markdown inline source that shows exactly that text (a run of spaces as
    one and no whitespace at the ends, as a renderer shows it) and that mdformat leaves as it
    is: its own escapes (backslash, ``*``, ``_``, brackets, ``<``, backtick, a character
    reference, ``~~``), by the same rules. ``before`` and ``after`` are the characters of the
    line next to the text (``""`` at a line's end or next to a code span): whether mdformat
    escapes a ``*`` or ``_`` depends on its neighbours. Line-start escapes are
    :func:`md_line`'s. With ``spans`` (a person's reason, read back by :func:`note_text`), a
    text with two tilde runs is one code span (see below)."""
    text = re.sub(" {2,}", " ", text.replace("\t", " ")).strip()
    if not re.search(r"[\\*_\[\]<`&~]", text):
        return text
    if spans and len(_TILDES_RE.findall(text)) > 1:
        # GitHub strikes out the text between two tilde runs, single or double (`HEAD~1 and
        # HEAD~2`), and mdformat takes the escapes of single tildes away: only a code span is
        # kept by mdformat and shown as typed by GitHub (read back by :func:`note_text`)
        return inline_code(text)
    text = before + text.replace("\\", "\\\\") + after
    text = _escape_emphasis(text, "*")
    text = _escape_emphasis(text, "_")
    text = _escape_brackets(text)
    text = re.sub("<(?:[^ ]|$)", r"\\\g<0>", text)
    text = text.replace("`", "\\`")
    if "&" in text:
        text = _char_reference().sub(r"\\\g<0>", text)
    text = text.replace("~~", "\\~~")
    return text[len(before) : len(text) - len(after)]


_TILDES_RE = re.compile("~+")


def note_text(source: str) -> str:
    """What a note's text written by :func:`md_text` shows: one code span (a text with two
    tilde runs) read as the text in it, any other text with its escapes consumed."""
    spans = re.fullmatch(r"(`+)(?!`)(.*?)(?<!`)\1", source)
    if spans is not None and "`" * len(spans.group(1)) not in spans.group(2):
        return span_text(spans.group(2))
    return shown_text(source)


def md_note(note: str) -> str:
    """A note line of goalfile's own words in which the text after ``LABEL: `` (or after a
    list item's ``- ``) may be anyone's: that text escaped as :func:`md_text` escapes it, so
    it shows as given and mdformat keeps it. Only for notes that hold no markup of their own."""
    note = clean_line(note, limit=10_000)
    if note.startswith("- "):
        return f"- {md_line(md_text(note[2:]))}"
    label, sep, rest = note.partition(": ")
    if sep and label == md_text(label):
        return md_line(f"{label}: {md_text(rest, before=' ', spans=label == 'reason')}")
    return md_line(md_text(note))


def shown_text(source: str) -> str:
    """What Markdown text outside code spans shows: backslash escapes consumed, an autolink
    read as the text it shows."""
    return _unescape(source, autolinks=True)


def md_line(source: str) -> str:
    """A paragraph line of Markdown source with the escape mdformat puts at its start when it
    would otherwise begin a heading, a quote, a list item, a rule or a setext underline."""
    line = source.strip()
    if (
        re.match(r"#{1,6}( |\t|$)", line)
        or line.startswith(">")
        or re.match(r"[-*+]( |\t|$)", line)
    ):
        return "\\" + line
    if re.match(r"[0-9]+[.)]( |\t|$)", line):
        at = re.match(r"[0-9]+", line)
        assert at is not None
        return f"{line[: at.end()]}\\{line[at.end() :]}"
    if line and all(c == "-" for c in line.replace(" ", "")):
        return line.replace("-", "\\-", 1)
    if line and all(c == "=" for c in line):
        return "\\" + line
    if line and all(c in "|-: " for c in line):  # not a table's delimiter row
        return line.replace("-", "\\-", 1)
    return re.sub(r"^\[([ xX])\]", r"\\[\1\\]", line)  # not a task list item's box


def _is_space(char: str | None) -> bool:
    return char is not None and (char in "\t\n\f\r" or unicodedata.category(char) == "Zs")


def _is_punctuation(char: str | None) -> bool:
    return char is not None and unicodedata.category(char)[0] in "PS"


def _escape_emphasis(text: str, marker: str) -> str:
    """mdformat's rule: ``*`` is escaped unless both neighbours are whitespace; ``_`` also stays
    when neither neighbour is whitespace, punctuation or the text's edge (``snake_case``)."""
    if marker not in text:
        return text
    out: list[str] = []
    for index, char in enumerate(text):
        if char == marker:
            before = text[index - 1] if index else None
            after = text[index + 1] if index + 1 < len(text) else None
            inner = marker == "_" and all(
                c is not None and not _is_space(c) and not _is_punctuation(c)
                for c in (before, after)
            )
            if not (_is_space(before) and _is_space(after)) and not inner:
                out.append("\\")
        out.append(char)
    return "".join(out)


def _escape_brackets(text: str) -> str:
    """mdformat's rule: every square bracket is escaped except a closed pair around text without
    brackets that is not followed by ``:`` or ``(`` (it could not start a link)."""
    escape: list[int] = []
    opened: int | None = None
    for found in re.finditer(r"[\[\]]", text):
        at = found.start()
        if found.group() == "[":
            if opened is not None:
                escape.append(opened)
            opened = at
        elif opened is None:
            escape.append(at)
        else:
            if text[at + 1 : at + 2] in (":", "("):
                escape += [opened, at]
            opened = None
    if opened is not None:
        escape.append(opened)
    for at in sorted(escape, reverse=True):
        text = f"{text[:at]}\\{text[at:]}"
    return text


def _char_reference() -> re.Pattern[str]:
    """What starts a character reference (``&amp;``, ``&#38;``): written ``\\&`` to stay text."""
    global _CHAR_REFERENCE_RE
    if _CHAR_REFERENCE_RE is None:
        import html.entities

        names = sorted({name.rstrip(";") for name in html.entities.html5}, key=len, reverse=True)
        _CHAR_REFERENCE_RE = re.compile(
            "&(?:#[0-9]{1,7}|#[Xx][0-9A-Fa-f]{1,6}|" + "|".join(map(re.escape, names)) + ");"
        )
    return _CHAR_REFERENCE_RE


def display_width(text: str) -> int:
    """The width mdformat-gfm pads a table cell to: ``wcwidth.wcswidth`` (East Asian wide
    characters and most emoji count two columns, combining marks none)."""
    if text.isascii() and text.isprintable():
        return len(text)
    from wcwidth import wcswidth

    return int(wcswidth(text))


def table_lines(
    header: Sequence[str], rows: Sequence[Sequence[str]], *, rule: Sequence[str] = ()
) -> list[str]:
    """A table as mdformat-gfm writes it: each cell (Markdown source, pipes escaped) padded to
    its column's display width, at least three; the delimiter row of dashes, with the colons
    of ``rule``'s cells kept (left, right or centre alignment)."""
    table = [list(header), *(list(row) for row in rows)]
    widths = [max(3, *(display_width(row[col]) for row in table)) for col in range(len(header))]
    aligns = [_align(rule[col]) if col < len(rule) else "" for col in range(len(header))]

    def pad(text: str, col: int) -> str:
        room = widths[col] - display_width(text)
        if aligns[col] == ">":
            return " " * max(0, room) + text
        if aligns[col] == "^":
            left = (widths[col] - display_width(text)) // 2
            text = " " * max(0, left) + text
            return text + " " * max(0, widths[col] - display_width(text))
        return text + " " * max(0, room)

    def delimiter(col: int) -> str:
        align = aligns[col]
        cell = (":" if align in ("<", "^") else "-") + "-" * max(0, widths[col] - 2)
        cell += ":" if align in (">", "^") else "-"
        return ":-:" if cell == "::" else cell

    def join(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    return [
        join([pad(cell, col) for col, cell in enumerate(table[0])]),
        join([delimiter(col) for col in range(len(header))]),
        *(join([pad(cell, col) for col, cell in enumerate(row)]) for row in table[1:]),
    ]


def _align(rule_cell: str) -> str:
    cell = rule_cell.strip()
    left, right = cell.startswith(":"), cell.endswith(":") and len(cell) > 1
    return "^" if left and right else "<" if left else ">" if right else ""


def fenced(lines: Sequence[str], *, info: str = "text") -> list[str]:
    """A fenced code block as mdformat writes it: backticks, at least three and one more than
    the longest run of backticks inside."""
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{info}", *lines, fence]


def render_row(row: RowResult) -> list[str]:
    """A row's cells as Markdown source: id, verdict, command, exit, evidence."""
    evidence = code_span(row.evidence) if row.evidence_quoted else text_cell(row.evidence)
    if row.evidence_label:
        evidence = f"{text_cell(row.evidence_label)} {evidence}"
    return [
        text_cell(row.id),
        row.verdict.value,
        code_span(row.command),
        text_cell(row.exit),
        evidence,
    ]


def render_entry(entry: Entry, *, status_reason: str | None = None) -> list[str]:
    """The lines of an entry (without line endings), in mdformat's style: blocks separated by
    one blank line, the table padded, output excerpts fenced."""
    when = f"{entry.date} {entry.time}" if entry.time else entry.date
    blocks: list[list[str]] = [[f"### Iteration {entry.iteration} ({when}) by {entry.by}"]]
    if entry.rows:
        blocks.append(table_lines(ROW_CELLS, [render_row(row) for row in entry.rows]))
    for row in entry.rows:
        if row.excerpt:
            label = clean_line(f"{row.id} output ({row.excerpt_label}):", limit=1_000)
            blocks.append([md_line(md_text(label))])
            quoted = [f"    {clean_line(line, limit=1_000)}".rstrip() for line in row.excerpt]
            blocks.append(fenced(quoted))
    blocks += note_blocks([clean_line(note, limit=10_000) if note else "" for note in entry.notes])
    end: list[str] = []
    if entry.status is not None:
        reason = ""
        if status_reason:
            reason = f" ({md_text(clean_line(status_reason), before='(', after=')')})"
        end.append(f"status: {entry.status.value}{reason}")
    if entry.contract:
        end.append(f"contract: {entry.contract}")
    if end:
        blocks.append(end)
    lines = blocks[0]
    for block in blocks[1:]:
        lines += ["", *block]
    return lines


def note_blocks(notes: Sequence[str]) -> list[list[str]]:
    """Lines of Markdown source (an entry's notes) split into blocks as mdformat separates them:
    a paragraph, a list and a table each become a block of their own, a table padded."""
    blocks: list[list[str]] = []
    kind = ""
    for note in notes:
        line = note.rstrip()
        if not line.strip():
            kind = ""
            continue
        now = (
            "table"
            if line.lstrip().startswith("|")
            else "list"
            if re.match(r"^(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)", line)
            else "text"
        )
        if now != kind:
            blocks.append([])
            kind = now
        blocks[-1].append(line)
    return [_padded(block) if block[0].lstrip().startswith("|") else block for block in blocks]


def _padded(block: Sequence[str]) -> list[str]:
    """A table block re-padded (its cells are kept as written); a block that is not a table
    with a delimiter row is kept as it is."""
    rows = [[cell.strip() for cell in _CELL_SPLIT_RE.split(line.strip())[1:-1]] for line in block]
    if (
        len(rows) < 2
        or not rows[0]
        or any(len(row) != len(rows[0]) for row in rows)
        or not all(_RULE_CELL_RE.match(cell) for cell in rows[1])
    ):
        return list(block)
    return table_lines(rows[0], rows[2:], rule=rows[1])


# the reason a row marked impossible blocks the goal, up to the text `goalfile impossible
# --reason` gave (progress.decide_status writes it)
_DECLARED_RE = re.compile(r"not completable: \S+ marked impossible")


def summary_reason(reason: str) -> str:
    """A status reason as the summary line shows it: no text from the goal file, so nothing
    the agent wrote can make the line end as another status would (``…; status: met)``). A
    row marked impossible is named by its id (the reason it was given stays in the ledger);
    goalfile's own reasons are kept, with any ``;`` as ``,``."""
    declared = _DECLARED_RE.match(reason)
    if declared:
        return declared.group(0)
    return clean_line(reason).replace(";", ",")


def summary_line(
    *, slug: str, iteration: int, rows: Sequence[RowResult], status: Status, reason: str | None
) -> str:
    """The one line a host's goal evaluator matches (DESIGN §6)."""
    verdicts = ", ".join(f"{row.id} {row.verdict.value}" for row in rows)
    tail = f" ({summary_reason(reason)})" if reason else ""
    return f"{VERIFY_BY} {slug} iteration {iteration}: {verdicts}; status: {status.value}{tail}"


def excerpt(lines: Sequence[str]) -> tuple[tuple[str, ...], int]:
    """The last non-empty twenty lines of a tail, and how many lines there were."""
    kept = [line for line in lines if line.strip()]
    return tuple(kept[-EXCERPT_LINES:]), len(kept)


# --- reading entries back -----------------------------------------------------------------


def unquote(cell: str) -> str:
    """The text of a code-span cell (or the cell itself), with `\\|` unescaped."""
    return span_content(cell).replace("\\|", "|")


def span_content(cell: str) -> str:
    """The text of a code span that is the whole of ``cell`` (or the cell itself), stripped,
    with nothing unescaped."""
    cell = cell.strip()
    # a code span is the whole cell: as many backticks at its end as at its start, the most
    # both ends have (and at most half the cell); counted, where a regular expression that
    # tries each number in turn takes time quadratic in a cell of backticks
    ticks = min(len(cell) - len(cell.lstrip("`")), len(cell) - len(cell.rstrip("`")))
    ticks = min(ticks, len(cell) // 2)
    if ticks:
        # one space off each end unless it is all spaces (U+0020 only: CommonMark's rule),
        # blanks alone as mdformat keeps them
        cell = span_text(cell[ticks : len(cell) - ticks])
    return cell


def parse_entry(lines: Sequence[str], *, first_line: int = 0) -> Entry | None:
    """Read one entry from its lines (the heading first). Unknown lines become notes.

    A line is read as :func:`entry_lines` says Markdown means it, the same reading ``audit``
    compares old entries by (:func:`meaning_lines`): a ``status:`` or ``contract:`` line or a
    verdict row counts after up to three leading blanks and with its backslash escapes
    consumed, and never inside a closed fence or an indented code block. So an edit that hides
    such a line from this reader changes the entry's meaning too."""
    if not lines:
        return None
    head = _HEADING_RE.match(lines[0].rstrip("\r"))
    if head is None:
        return None
    rows: list[RowResult] = []
    notes: list[str] = []
    status: Status | None = None
    reason: str | None = None
    contract: str | None = None
    read = entry_lines(lines)
    first = 1
    while first < len(lines) and read[first][0] == BLANK:
        first += 1  # the blank line after the heading (mdformat's style) is no note
    for index in range(first, len(lines)):
        kind, text = read[index]
        if kind != TEXT:
            notes.append(lines[index].rstrip("\r").rstrip())
            continue
        if text.startswith("|"):
            cells = row_cells(text)
            if len(cells) == 5:
                try:
                    verdict = Verdict(cells[1])
                except ValueError:
                    notes.append(text)
                    continue
                rows.append(
                    RowResult(
                        id=_unescape(cells[0].replace("\\|", "|")),
                        verdict=verdict,
                        command=unquote(cells[2]),
                        exit=_unescape(cells[3].replace("\\|", "|")),
                        evidence=unquote(cells[4])
                        if cells[4].startswith("`")
                        else _unescape(cells[4].replace("\\|", "|")),
                        evidence_quoted=cells[4].startswith("`"),
                    )
                )
                continue
            notes.append(text)
            continue
        shown = _unescape(text)
        pin = _CONTRACT_LINE_RE.match(shown)
        if pin:
            contract = pin.group(1)
            continue
        match = _STATUS_LINE_RE.match(shown)
        if match:
            try:
                status = Status(match.group(1))
                reason = match.group(2)
                continue
            except ValueError:
                pass
        notes.append(text)
    return Entry(
        iteration=int(head.group(1)),
        date=head.group(2),
        time=head.group(3) or "",
        by=head.group(4),
        rows=tuple(rows),
        status=status,
        status_reason=reason,
        contract=contract,
        notes=tuple(notes),
        line=first_line,
    )


@functools.cache
def _escape_or_run_re() -> re.Pattern[str]:
    """A backslash escape (group 1: the character it keeps) or a run of backticks, found left
    to right."""
    return re.compile(r"\\([!-/:-@\[-`{-~])|`+")


@functools.cache
def _escape_re() -> re.Pattern[str]:
    return re.compile(r"\\([!-/:-@\[-`{-~])")


_BACKTICKS_RE = re.compile("`+")
_RULE_CELL_RE = re.compile(r"^:?-+:?$")


def _fence_blocks(lines: Sequence[str]) -> list[tuple[int, int]]:
    """The opening and closing line indexes of each fenced block that closes. Output quoted in
    a fence is data; a fence that never closes hides nothing (as in :func:`fenced_spans`)."""
    blocks: list[tuple[int, int]] = []
    opened: tuple[int, str] | None = None
    for index, raw in enumerate(lines):
        marker = _FENCE_LINE_RE.match(raw.rstrip("\r"))
        if opened is None:
            if marker and not (marker.group(1)[0] == "`" and "`" in marker.group(2)):
                opened = (index, marker.group(1))
        elif closes(marker, opened[1]):
            blocks.append((opened[0], index))
            opened = None
    return blocks


def closes(marker: re.Match[str] | None, fence: str) -> bool:
    """Whether a fence-marker line closes the block that ``fence`` opened."""
    return (
        marker is not None
        and marker.group(1)[0] == fence[0]
        and len(marker.group(1)) >= len(fence)
        and not marker.group(2).strip()
    )


BLANK, FENCE, CODE, TEXT = "blank", "fence", "code", "text"


def entry_lines(lines: Sequence[str]) -> list[tuple[str, str]]:
    """Each line of an entry as Markdown means it: ``(kind, text)``, one per line.

    The one reading both the entry readers (:func:`parse_entry`: status, contract, verdict rows
    and the notes that reviews and approvals are read from) and ``audit``'s comparison of old
    entries (:func:`meaning_lines`) use, so the two cannot disagree:

    - ``blank``: nothing but blanks;
    - ``fence``: the opening or closing marker of a fenced block that closes (one that never
      closes hides nothing: its lines are read as if it were not there);
    - ``code``: a line inside such a block (text: the line, trailing blanks dropped), or a line
      indented by four spaces or more (text: after those four spaces);
    - ``text``: any other line; its text has the leading and trailing blanks dropped (up to
      three leading spaces, or tabs, mean nothing to Markdown here). Under a table, a row
      whose cells after the first are empty is its first cell (:func:`_first_cell_only`).
    """
    kinds: dict[int, str] = {}
    for opening, closing in _fence_blocks(lines):
        kinds[opening] = kinds[closing] = FENCE
        kinds.update(dict.fromkeys(range(opening + 1, closing), CODE))
    out: list[tuple[str, str]] = []
    in_table = False  # the line before is a row, or a line GFM reads as one
    for index, raw in enumerate(lines):
        line = raw.rstrip("\r").rstrip()
        kind = kinds.get(index)
        if kind is not None:
            out.append((kind, line))
        elif not line.strip():
            out.append((BLANK, ""))
        elif line.startswith("    "):
            out.append((CODE, line[4:]))
        else:
            text = line.strip()
            out.append((TEXT, _first_cell_only(text) if in_table else text))
            in_table = text.startswith("|") or in_table
            continue
        in_table = False
    return out


def _first_cell_only(text: str) -> str:
    """A line right under a table row, as GFM reads it: a line without a pipe there (the skill
    family writes `status: met` right under the verdict table) is one more row, whose first
    cell holds the line, and a formatter writes that row out (`| status: met |  |  |  |  |`
    as mdformat-gfm does, `| status: met |` as prettier does). Both forms are read as the
    line: a row whose cells after the first are all empty, or that has one cell, is its first
    cell's text."""
    if not text.startswith("|"):
        return text
    cells = row_cells(text)
    if not cells[0] or any(cells[1:]) or _RULE_CELL_RE.match(cells[0]):
        return text  # a row of cells, or a delimiter row
    return cells[0]


def row_cells(text: str) -> list[str]:
    """The cells of a table row (a text line that begins with ``|``), blanks dropped; a
    trailing ``|`` is optional, as in GFM."""
    body = text[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.strip() for cell in _CELL_SPLIT_RE.split(body)]


def meaning_lines(lines: Sequence[str]) -> list[str]:
    """An entry's lines as Markdown means them (:func:`entry_lines`), for comparing two
    versions of an entry: what a formatter such as mdformat changes (blank lines, table
    padding and alignment rows, an indented block turned into a fenced one, backslash escapes
    outside code spans, an autolink's brackets, the backticks and spaces around a code span's
    text, the bullet character) is left out; every word, cell and output line is
    kept, and a line of code (output) never reads like a line of text: it is kept behind four
    spaces, which no text line begins with. A line of code is compared without its own
    leading blanks: formatters re-indent code blocks (dprint's Markdown plugin removes the
    indentation all lines of a fenced block share, as goalfile's four spaces before each
    output line; eclint rounds each line's indentation to the `indent_size` EditorConfig
    sets), and an output line's indentation decides no verdict."""
    out: list[str] = []
    for kind, text in entry_lines(lines):
        if kind in (BLANK, FENCE):
            continue
        if kind == CODE:
            if text.strip():
                out.append("    " + text.lstrip())
            continue
        if text.startswith("|"):
            cells = row_cells(text)
            if all(_RULE_CELL_RE.match(c) for c in cells):
                continue
            out.append(
                "| " + " | ".join(_unescape(c, autolinks=True, spans=True) for c in cells) + " |"
            )
            continue
        if text[:2] in ("* ", "+ "):
            text = "- " + text[2:]
        shown = _unescape(text, autolinks=True, spans=True)
        # an escaped `\|` at the start is text, not a row: it never reads like one
        out.append("\\" + shown if shown.startswith("|") else shown)
    return out


def unescaped(text: str) -> str:
    """A text line of an entry with its backslash escapes consumed, as :func:`parse_entry` and
    :func:`meaning_lines` read it (for a reader of notes: ``review of R1: met``)."""
    return _unescape(text)


@functools.cache
def _autolink_re() -> re.Pattern[str]:
    """A CommonMark autolink: ``<scheme:...>`` or ``<address@host>``; it shows what it holds."""
    return re.compile(
        r"<([A-Za-z][A-Za-z0-9.+-]{1,31}:[^\x00-\x20<>]*"
        r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
        r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>"
    )


def _unescape(text: str, *, autolinks: bool = False, spans: bool = False) -> str:
    """``text`` with backslash escapes outside code spans consumed, as CommonMark reads them
    (left to right: an escaped backtick opens no code span). With ``autolinks``, an autolink
    outside code spans is also read as the text it shows (``<https://x>`` as ``https://x``,
    as a bare URL shows: markdownlint's fix of a bare URL wraps it so). With ``spans``, each
    code span is written in one form of what it shows (:func:`_span_shown`), so the backticks
    and spaces a formatter picks around the same code (prettier writes the fewest that
    work) read alike.

    A code span opens at a run of backticks (from where the reading is: after an escaped
    backtick, the rest of its run) and closes at the first later run of exactly as many, on
    the same line, with something between them; a run that finds none opens nothing with all
    its backticks, so one backtick fewer is tried from the next one, and so on. Each try looks
    the closing run up in an index of the line's runs by length: the time is linear in the
    text, where one regular expression for the same reading backtracks (cubic on a line of
    unclosed runs of growing length)."""
    links = autolinks and "<" in text
    spans = spans and "`" in text
    if not links and not spans:
        if "\\" not in text:
            return text  # a code span is kept as it is: without escapes, nothing changes
        if "`" not in text:
            return _escape_re().sub(_kept_character, text)
    elif not spans and "\\" not in text:
        return _autolink_re().sub(_kept_character, text)
    runs: dict[int, list[int]] = {}  # the start of each run of backticks, by its length
    for run in _BACKTICKS_RE.finditer(text):
        runs.setdefault(run.end() - run.start(), []).append(run.start())
    breaks = [found.start() for found in re.finditer("\n", text)]
    plain = _with_autolinks_shown if links else _as_it_is
    out: list[str] = []
    pos = 0
    escape_or_run = _escape_or_run_re()
    while True:
        found = escape_or_run.search(text, pos)
        if found is None:
            out.append(plain(text[pos:]))
            return "".join(out)
        start, end = found.span()
        if found.group(1) is not None:
            out.append(plain(text[pos:start]))
            out.append(found.group(1))
            pos = end
            continue
        closed = end  # no span: the run is text
        opened = end
        for opening in range(start, end):  # the run from here, one backtick fewer each time
            closing = _closing_run(runs, breaks, end, end - opening)
            if closing is not None:
                closed, opened = closing, opening
                break
        out.append(plain(text[pos:start]))
        if spans and opened < end:
            out.append(text[start:opened])  # the backticks of the run before the span's
            ticks = end - opened
            out.append(_span_shown(text[end : closed - ticks]))
        else:
            out.append(text[start:closed])
        pos = closed


def _kept_character(match: re.Match[str]) -> str:
    return match.group(1)


def _span_shown(inner: str) -> str:
    """A code span of the text ``inner`` (between its backticks) shows, in one form, the one
    goalfile writes (as mdformat does): one space off each end when both have one and it is
    not all spaces (CommonMark's rule), blanks alone as mdformat keeps them
    (:func:`goalfile.prose.code_text`), then a fence one backtick longer than the longest run
    inside, with a space inside each end when the text holds a backtick. Two spans that show
    the same text give the same form, as do a span and mdformat's rewrite of it, and the text
    can be read back from it."""
    inner = span_text(inner)
    longest = max((len(run) for run in _BACKTICKS_RE.findall(inner)), default=0)
    if not longest:
        return f"`{inner}`"
    fence = "`" * (longest + 1)
    return f"{fence} {inner} {fence}"


def _with_autolinks_shown(text: str) -> str:
    return _autolink_re().sub(_kept_character, text)


def _as_it_is(text: str) -> str:
    return text


def _closing_run(
    runs: dict[int, list[int]], breaks: list[int], end: int, length: int
) -> int | None:
    """The end of the first run of exactly ``length`` backticks (``runs``: their starts by
    length) after offset ``end`` (where the opening run ends) and before the next of the
    line ``breaks``, or None."""
    starts = runs.get(length)
    if not starts:
        return None
    index = bisect.bisect_left(starts, end)
    if index == len(starts):
        return None
    after = bisect.bisect_left(breaks, end)
    if after < len(breaks) and breaks[after] < starts[index]:
        return None
    return starts[index] + length


def heading_like_lines(
    text: str, start: int = 0, end: int | None = None
) -> Iterator[tuple[int, str]]:
    """The offset and text of each line between offsets ``start`` and ``end`` that
    :func:`heading_like_re` matches, in order (what its ``finditer`` gives, found faster)."""
    stop = len(text) if end is None else end
    if start == 0:
        first = heading_like_re().match(text, 0, stop)
        if first is not None:
            yield 0, first.group(0)
    for found in _heading_like_scan_re().finditer(text, max(start - 1, 0), stop):
        if found.start(1) >= start:
            yield found.start(1), found.group(1)


def is_heading(line: str) -> bool:
    """Whether a line is an entry heading goalfile reads."""
    return _HEADING_RE.match(line) is not None


def entries(text: str, start: int = 0, end: int | None = None) -> Iterator[Entry]:
    """Every entry between character offsets ``start`` and ``end``, oldest first."""
    stop = len(text) if end is None else end
    fences = fence_bounds(text)
    heads = [
        m.start()
        for m in _HEADING_RE.finditer(text, start, stop)
        if not in_bounds(fences, m.start())
    ]
    line = text.count("\n", 0, heads[0]) + 1 if heads else 0
    for pos, begin in enumerate(heads):
        finish = heads[pos + 1] if pos + 1 < len(heads) else stop
        chunk = text[begin:finish]
        parsed = parse_entry(chunk.split("\n"), first_line=line)
        line += chunk.count("\n")
        if parsed is not None:
            yield parsed


def entries_reversed(text: str, start: int = 0, end: int | None = None) -> Iterator[Entry]:
    """Entries newest first, reading backwards: the cost is that of the entries consumed."""
    stop = len(text) if end is None else end
    finish = stop
    search_end = stop
    while True:
        begin = text.rfind("\n### Iteration ", start, search_end)
        at_start = begin < 0 and text.startswith("### Iteration ", start)
        if begin < 0 and not at_start:
            return
        begin = start if at_start else begin + 1
        if in_bounds(fence_bounds(text), begin):
            if at_start or begin <= start:
                return
            search_end = begin - 1
            continue
        chunk = text[begin:finish].split("\n")
        parsed = parse_entry(chunk, first_line=0)
        if parsed is not None:
            yield parsed
            finish = begin
        if at_start or begin <= start:
            return
        search_end = begin - 1


# --- the index: every entry's heading, found in one scan ----------------------------------


# nothing compares, hashes or prints one: no __eq__, __hash__ or __repr__ is built for it
class Headings(Value):
    """The heading lines of a text that follow a newline, found in one scan."""

    __slots__ = ("by_command", "entries", "lookalikes", "sections", "unfenced")

    def __init__(
        self,
        sections: tuple[int, ...],
        entries: tuple[tuple[int, tuple[str, str, str, str]], ...],
        by_command: dict[str, tuple[int, ...]],
        lookalikes: tuple[int, ...],
        unfenced: bool = False,
    ) -> None:
        self.sections: Final = sections  # offsets of the H1/H2 heading lines (fenced or not)
        # of each entry heading line: its offset, and its iteration, date, time ("" when none) and
        # command; in text order
        self.entries: Final = entries
        self.by_command: Final = by_command  # the positions in ``entries`` of each command's
        # offsets of the lines :func:`heading_like_re` matches that are not entry headings (fenced
        # or not), as lint reports them
        self.lookalikes: Final = lookalikes
        # no heading line is in a fenced block (:data:`_UNFENCED_RE`)
        self.unfenced: Final = unfenced


@per_text(2)  # an entry keeps its text alive: the last two, not several
def headings(text: str) -> Headings:
    """The H1/H2 and entry heading lines of ``text``. Finding the ledger's bounds and indexing
    its entries both need them, so one search serves both, and the last few answers are kept
    (a run asks this of the same text several times). A text an edit made from another
    (:func:`spliced`) is searched only where the edit changed it."""
    splice = splice_of(text)
    if splice is not None:
        derived = _spliced_headings(text, *splice)
        if derived is not None:
            return derived
    if is_unfenced(text):
        sections, found, lookalikes = _scan_headings(text, 0, len(text), unfenced=True)
        return _indexed(tuple(sections), tuple(found), tuple(lookalikes), unfenced=True)
    sections, found, lookalikes = _scan_headings(text, 0, len(text))
    return _indexed(tuple(sections), tuple(found), tuple(lookalikes))


# A text whose fenced blocks need not be found to know that no heading line is in one: every
# line that starts with three backticks opens a block (three backticks exactly, no backtick
# after them on the line) or closes the one the line before it opened (three backticks, a CR
# at most), no line in a block starts with `#` or with what could close it, and no line is a
# tilde or an indented fence line (:func:`_indented_mark_re`). Then each fence line opens or
# closes as :func:`margin_blocks` pairs them, every block closes, and every heading line the
# search for `\n#` finds is outside the blocks. One match in the regular-expression engine,
# a step per line, and no object per block: goalfile's and mdformat's fenced output is such a
# text, and its ledger is then indexed without pairing its fences in Python. Any other text
# (a longer fence, a look-alike line, a block that never closes) is read by its blocks.
_NO_FENCE = r"\n(?! {0,3}+(?:```|~~~))[^\n]*+"  # (at most three blanks, taken whole: faster)
_IN_FENCE = r"\n(?![`#~]| {1,3}+(?:```|~~~))[^\n]*+"
_UNFENCED_RE = re.compile(
    rf"[^\n]*+(?:{_NO_FENCE})*+"
    rf"(?:\n```(?!`)[^`\n]*+(?:{_IN_FENCE})*+\n```\r?(?=\n|\Z)(?:{_NO_FENCE})*+)*+"
)


def is_unfenced(text: str, pos: int = 0, end: int | None = None) -> bool:
    """Whether :data:`_UNFENCED_RE` matches ``text[pos:end]`` whole (``pos`` 0 or a newline,
    ``end`` the end of a line): the same answer, for a long text at about two thirds of the
    cost. :func:`_unfenced_lines_re` takes the lines it knows from the start, and the pattern
    itself reads the rest from the newline where it stopped (none, as goalfile and mdformat
    write a ledger).

    A text without three backticks or three tildes in a row holds no fence line, and the
    pattern then matches it whole: that is found by the interpreter's own search for the
    markers, with no step per line. Backwards: the interpreter's forward search for three
    characters takes three to four times as long here (its filter of the next character lets
    a blank through, the commonest character of a ledger); the tildes are looked for with
    ``memchr`` first. A ledger of 3,000 entries of eight rows that quotes no output (1.9 MB):
    9 M instructions and 1 ms where the pattern takes 25 M and 3 ms. A text with a marker is
    found to hold one at its last, and is read by the pattern."""
    if end is None:
        end = len(text)
    if text.rfind("```", pos, end) < 0 and (
        text.find("~", pos, end) < 0 or text.rfind("~~~", pos, end) < 0
    ):
        return True  # no fence line: every line is one the pattern takes outside a block
    if end - pos < _UNFENCED_LINES_FROM:  # not worth compiling the second pattern
        return _UNFENCED_RE.fullmatch(text, pos, end) is not None
    return _unfenced_by_split(text, pos, end) or _unfenced_by_lines(text, pos, end)


_UNFENCED_LINES_FROM = 1 << 19  # (compiling the pattern costs what it saves on 0.4 MB)


_LAST_CHARACTER, _FIRST_CHARACTER = operator.itemgetter(-1), operator.itemgetter(0)


def _unfenced_by_split(text: str, pos: int, end: int) -> bool:
    """True when ``text[pos:end]`` is an unfenced text in the form goalfile and mdformat write
    (:func:`is_unfenced` answers True), found without a step of the regular-expression engine
    per line; False when it is not sure (the patterns then decide).

    The text is split at every three backticks in a row. It is in that form when it holds no
    three tildes in a row, every piece but the last ends with a newline (each run is at the
    start of a line, at the margin) and none after the first starts with a backtick (each run
    is three backticks, no more), the pieces after the second, fourth... runs (what follows a
    closing line) start with a newline or a CR and a newline, no info string of an opening line
    holds a backtick and no line of a block starts with a backtick, `#` or tilde: then the runs
    open and close blocks in turn, exactly as :data:`_UNFENCED_RE` reads them, and every block
    closes. The bench's ledger of 3,000 entries (48,000 fence lines): 66 M instructions, where
    :func:`_unfenced_by_lines` takes 76 M; a text that fails the test of its blocks' lines (a
    line of output that starts with `#`) pays about 40 M for the split before the patterns
    read it."""
    if pos or end != len(text):
        text = text[pos:end]
    if "~" in text and "~~~" in text:  # (one character is found at memchr's speed)
        return False
    pieces = text.split("```")
    if len(pieces) == 1:
        return True  # no fence line at all
    if len(pieces) % 2 == 0:
        return False
    # first what a text that is not in the form most likely holds: a line of its blocks (or
    # their info strings) that starts with `#`, a backtick or a tilde
    opening = pieces[1::2]  # each opening line's info string and its block's lines
    inside = "".join(opening)
    if "\n~" in inside or "\n#" in inside:
        return False
    if "`" in inside and (  # (output quoted in a block may hold one; an info string may not)
        "\n`" in inside or any("`" in piece.split("\n", 1)[0] for piece in opening)
    ):
        return False
    closing = pieces[2::2]  # what follows each closing line
    if closing and not closing[-1]:
        closing.pop()  # the text ends with a closing line
    try:
        if set(map(_LAST_CHARACTER, pieces[:-1])) != {"\n"}:
            return False
        follows = set(map(_FIRST_CHARACTER, closing))
    except IndexError:  # an empty piece: six backticks in a row, or a text that starts with three
        return False
    if not follows <= {"\n", "\r"}:
        return False
    # (a piece "\r" is the last: every other ends with a newline)
    return "\r" not in follows or all(
        piece.startswith(("\n", "\r\n")) or piece == "\r" for piece in closing
    )


def _unfenced_by_lines(text: str, pos: int, end: int) -> bool:
    """:func:`is_unfenced` of any text, through :func:`_unfenced_lines_re`."""
    reached = _unfenced_lines_re().match(text, pos, end)
    assert reached is not None  # it matches the empty string
    at = reached.end()
    if at < end and text[at] != "\n":  # it stopped inside a line
        at = pos
    return _UNFENCED_RE.fullmatch(text, at, end) is not None


@functools.cache
def _unfenced_lines_re() -> re.Pattern[str]:
    """The lines of an unfenced text (:data:`_UNFENCED_RE`) in the forms goalfile and mdformat
    write, matched from the start, a newline or the end of a line, and ending at a newline
    outside every block when they do: the state of the text there is the state at its start.

    :data:`_UNFENCED_RE` takes every line in turn (a step of the engine, and an assertion, per
    line: 118 M instructions for the 4 MB ledger of bench/run.py). Here a line outside a block
    whose first character is not a blank, a backtick or a tilde is one step with the blank
    lines before it, and a block whose lines hold no backtick, `#` or tilde is matched by one
    run of the engine's over a character class up to its closing line, without a step for each
    of its lines (76 M). A line or block in another form is taken in the slower forms below;
    any other stops the match at its newline, and :func:`is_unfenced` hands the rest to
    :data:`_UNFENCED_RE`. Every form is one that pattern reads the same way: a line outside a
    block that opens none, a block whose lines start with no backtick, `#` or tilde and whose
    closing line is three backticks and a CR at most."""
    inside = r"(?:\n++(?:    [^\n]*+|[^`#~ \n][^\n]*+| {1,3}+(?:[^`~ \n][^\n]*+)?))*+"
    line = r"(?:\n++[^ `~\n][^\n]*+)*+"
    return re.compile(
        rf"[^\n]*+{line}"
        r"(?:\n++(?:```[^`\n]*+[^`#~]*\n```\r?+"  # a block whose lines hold none of them
        rf"|```[^`\n]*+{inside}\n++```\r?+"  # any other block
        r"|    [^\n]*+| {1,3}+(?:[^ `~\n][^\n]*+)?|`{1,2}+(?:[^`\n][^\n]*+)?)"  # other lines
        rf"{line})*+"
    )


_MISSES_ALLOWED = 64


def _scan_headings(
    text: str, start: int, end: int, *, unfenced: bool = False
) -> tuple[list[int], list[tuple[int, tuple[str, str, str, str]]], list[int]]:
    """The H1/H2 heading lines, the entry headings outside fences and the look-alike lines
    whose newline is in ``text[start:end]`` (``end`` the end of a line); with ``unfenced``, of
    a text where no heading line is in a fenced block.

    They are the matches of ``_HEADINGS_RE.finditer(text, start + 1, end)``, found by the
    interpreter's search for `#`. The engine's own search for the pattern's first character
    steps through the text one character at a time (20 M instructions for the 4 MB ledger of
    bench/run.py); ``str.find`` of one character is ``memchr``, which skips the lines without
    a `#` many characters at a step. The pattern is then matched at each `#` found (an entry
    heading's by :data:`_HEADING_RE`): every match starts at a `#` and is not empty, so these
    are the very matches the search makes, in order. A text with many `#` that start no match
    (quoted shell comments, URLs) would pay a call for each: after :data:`_MISSES_ALLOWED`
    more of those than matches, the engine's search takes the rest."""
    sections: list[int] = []
    found: list[tuple[int, tuple[str, str, str, str]]] = []
    lookalikes: list[int] = []
    fences = None if unfenced else fence_bounds(text)
    find, match, entry_at = text.find, _HEADINGS_RE.match, _HEADING_RE.match
    misses = -_MISSES_ALLOWED
    at = find("#", start + 1, end)  # the newline from ``start``
    while at >= 0:
        # an entry heading: what _HEADINGS_RE matches at its `#` after a newline, with the
        # entry's four fields as its only groups. That pattern tries the H1/H2 heading first
        # and looks behind the `#` for each of its branches (about 5,700 instructions a
        # heading line, where the entry's own pattern takes 4,500, and no tuple of eight
        # groups to unpack: 32.4 M to 30.1 M for the bench's ledger of 3,000 entries)
        if text[at - 1] == "\n":  # (a `#` after another character starts no entry heading)
            entry = entry_at(text, at, end)  # its `^` is that newline
            if entry is not None:
                misses -= 1
                # one in a fenced block is quoted output (as mdformat writes an indented block)
                if fences is None or not in_bounds(fences, at):
                    fields: Any = entry.groups("")  # the four fields, "" for no time
                    found.append((at, fields))
                at = find("#", entry.end(), end)
                continue
        heading = match(text, at, end)
        if heading is None:
            misses += 1
            if misses > 0:  # the engine's search takes the rest
                for heading in _HEADINGS_RE.finditer(text, at + 1, end):
                    _add_heading(text, heading, fences, sections, found, lookalikes)
                break
            at = find("#", at + 1, end)
            continue
        misses -= 1
        _add_heading(text, heading, fences, sections, found, lookalikes)
        at = find("#", heading.end(), end)
    return sections, found, lookalikes


def _add_heading(
    text: str,
    match: re.Match[str],
    fences: Sequence[int] | None,
    sections: list[int],
    found: list[tuple[int, tuple[str, str, str, str]]],
    lookalikes: list[int],
) -> None:
    """Add a match of :data:`_HEADINGS_RE` to the lists :func:`_scan_headings` makes."""
    # every group that takes part in a match holds a character, so "" is a group that
    # did not: one call gives the fields (a time that is not there is ""), not three
    groups = match.groups("")
    if groups[2]:
        if fences is not None and in_bounds(fences, match.start()):
            return  # output quoted in a fence (as mdformat writes an indented block)
        _, _, number, date, time, by, _, _ = groups
        found.append((match.start(), (number, date, time, by)))
    elif groups[0]:
        sections.append(match.start())
        if groups[1]:
            lookalikes.append(match.start())
    elif groups[6]:
        lookalikes.append(match.start())
    else:  # after one to three blanks
        lookalikes.append(text.rfind("\n", 0, match.start()) + 1)


def _indexed(
    sections: tuple[int, ...],
    found: tuple[tuple[int, tuple[str, str, str, str]], ...],
    lookalikes: tuple[int, ...],
    *,
    unfenced: bool = False,
) -> Headings:
    by_command: dict[str, list[int]] = {}
    for position, (_, fields) in enumerate(found):
        by_command.setdefault(fields[3], []).append(position)
    return Headings(
        sections=sections,
        entries=found,
        by_command={by: tuple(positions) for by, positions in by_command.items()},
        lookalikes=lookalikes,
        unfenced=unfenced,
    )


def _unfenced_at(text: str, index: Headings, pos: int) -> bool:
    """Whether the newline at ``pos`` (-1: the start of the text) is outside every fenced block
    of an unfenced text (``index``, its headings): every line that starts with three backticks
    opens or closes a block there, and a heading line is outside them all, so the fence lines
    between the last heading line before ``pos`` and ``pos`` say it."""
    if pos < 0:
        return True
    heading = 0  # the start of the last heading line at or before ``pos``
    at = bisect.bisect_right(index.sections, pos)
    if at:
        heading = index.sections[at - 1]
    at = bisect.bisect_right(index.entries, (pos, ("~",)))
    if at:
        heading = max(heading, index.entries[at - 1][0])
    return text.count("\n```", max(heading - 1, 0), pos + 3) % 2 == 0


def _spliced_headings(text: str, old: str, start: int, tail: int) -> Headings | None:
    """:func:`headings` of ``text``, made from those of ``old``: the heading lines before the
    lines the edit touched are the same, those after it the same moved by the change in
    length, and only the touched lines are searched. None when the edit touched a fenced
    block (its lines could have been headings or not): the whole text is then searched. An
    unfenced text (:data:`_UNFENCED_RE`) stays one when the touched lines are, read from
    outside every block, and its blocks are then not looked up at all."""
    lo, hi = _touched(text, start, tail)
    shift = len(text) - len(old)
    before = headings(old)
    unfenced = (  # the edit's lines, read from outside every block, end outside them
        before.unfenced
        and _unfenced_at(old, before, lo)
        and _unfenced_at(old, before, hi - shift)
        and is_unfenced(text, max(lo, 0), hi)
    )
    if not unfenced and not (_fences_kept(old, lo, hi - shift) and _fences_kept(text, lo, hi)):
        return None  # a fenced block spans the edit's first or last line in either text
    sections, found, lookalikes = _scan_headings(text, max(lo, 0), hi, unfenced=unfenced)
    old_sections, old_found = before.sections, before.entries
    first = bisect.bisect_right(old_sections, lo)
    last = bisect.bisect_right(old_sections, hi - shift)
    moved_sections = old_sections[last:]
    old_lookalikes = before.lookalikes
    first_lookalike = bisect.bisect_right(old_lookalikes, lo)
    moved_lookalikes = old_lookalikes[bisect.bisect_right(old_lookalikes, hi - shift) :]
    first_entry = bisect.bisect_right(old_found, (lo, ("~",)))
    last_entry = bisect.bisect_right(old_found, (hi - shift, ("~",)))
    moved_found = old_found[last_entry:]
    if shift:
        moved_sections = tuple(at + shift for at in moved_sections)
        moved_found = tuple((at + shift, fields) for at, fields in moved_found)
        moved_lookalikes = tuple(at + shift for at in moved_lookalikes)
    added = len(found) - (last_entry - first_entry)
    by_command: dict[str, tuple[int, ...]] = {}
    touched: dict[str, list[int]] = {}
    for position, (_, fields) in enumerate(found, start=first_entry):
        touched.setdefault(fields[3], []).append(position)
    for name in {**before.by_command, **touched}:
        positions = before.by_command.get(name, ())
        low = bisect.bisect_left(positions, first_entry)
        high = bisect.bisect_left(positions, last_entry)
        after = positions[high:]
        if added:
            after = tuple(position + added for position in after)
        kept = (*positions[:low], *touched.get(name, ()), *after)
        if kept:
            by_command[name] = kept
    return Headings(
        sections=(*old_sections[:first], *sections, *moved_sections),
        entries=(*old_found[:first_entry], *found, *moved_found),
        by_command=by_command,
        lookalikes=(*old_lookalikes[:first_lookalike], *lookalikes, *moved_lookalikes),
        unfenced=unfenced,
    )


@functools.cache
def _fence_mark_re() -> re.Pattern[str]:
    """After a newline, at most three spaces and a fence marker (group 1), and the rest of the
    line (group 2)."""
    return re.compile(r"\n {0,3}(`{3,}|~{3,})([^\n]*)")


@per_text(8)
def fenced_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Offsets (start of the opening fence line, end of the closing one) of every fenced code
    block that starts after a newline. A line inside one is never an entry heading, a row, a
    ``status:`` or a ``contract:`` line: mdformat turns an indented output excerpt into a fenced
    block whose lines start at the margin, and output is data. One search with a literal
    prefix, so the cost stays that of a plain scan."""
    blocks = margin_blocks(text)
    if blocks is None:
        return spans_by_marks(text)
    bounds = blocks[0]
    return tuple(zip(bounds[0::2], bounds[1::2], strict=True))


@per_text(8)
def fence_bounds(text: str) -> Sequence[int]:
    """:func:`fenced_spans` as one flat sequence (start, end, start, end...), for
    :func:`in_bounds`: a ledger may hold tens of thousands of blocks, and a pair of numbers
    in an array costs 16 bytes where a tuple of two costs 100."""
    blocks = margin_blocks(text)
    if blocks is not None:
        return blocks[0]
    return array.array("q", itertools.chain.from_iterable(spans_by_marks(text)))


def in_bounds(bounds: Sequence[int], pos: int) -> bool:
    """Whether ``pos`` is inside a block of :func:`fence_bounds` (after its first character and
    before its end), as :func:`in_spans` of the same blocks says."""
    index = bisect.bisect_left(bounds, pos)
    return index % 2 == 1 and bounds[index] != pos


def spans_by_marks(text: str) -> tuple[tuple[int, int], ...]:
    """:func:`fenced_spans` for any text: each fence line in turn opens or closes a block."""
    spans: list[tuple[int, int]] = []
    opened: tuple[int, str] | None = None
    for match in fence_marks(text):
        marker, rest = match.group(1), match.group(2).rstrip("\r")
        if opened is None:
            if marker[0] == "`" and "`" in rest:
                continue  # not a fence: a backtick fence's info string holds no backtick
            opened = (match.start() + 1, marker)
        elif marker[0] == opened[1][0] and len(marker) >= len(opened[1]) and not rest.strip():
            spans.append((opened[0], match.end()))
            opened = None
    # a fence that never closes hides no entry: goalfile and mdformat close every fence they
    # write, and an unclosed one must not swallow the entries written after it
    return tuple(spans)


@functools.cache
def marker_scans() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The fence markers, each found by a search for a literal."""
    return re.compile("```"), re.compile("~~~")


@functools.cache
def _margin_block_re() -> re.Pattern[str]:
    """After a newline, a fenced block of backticks at the margin, matched whole: the opening
    line (no backtick after its marker), every line that does not close it, and the closing
    line (as many backticks or more, then only blanks) or the end of the text (group 3); group
    1 spans the block from its first character."""
    return re.compile(
        r"\n((`{3,})[^`\n]*(?:\n(?!\2`*[^\S\n]*(?:\n|\Z))[^\n]*)*"
        r"(?:\n\2`*[^\S\n]*(?=\n|\Z)|(\Z)))"
    )


@functools.cache
def _indented_mark_re() -> re.Pattern[str]:
    """A tilde fence line, or a backtick one indented one to three spaces."""
    return re.compile(r"\n {0,3}~~~|\n {1,3}```")


@per_text(8)
def margin_blocks(text: str) -> tuple[array.array[int], int | None] | None:
    """The fenced blocks of a text whose every fence line is backticks at the margin, as
    goalfile and mdformat write them: the closed blocks (as :func:`fence_bounds` gives them)
    and the start of a block that never closes (None when every block closes).
    None for a text with a tilde fence line or an indented one (a fence line then needs the
    general reading).

    Each block is one match of a pattern with the literal prefix ``\\n````: the lines between
    blocks are skipped at C speed, and a ledger of a few thousand entries, each with fenced
    output, costs one match per block instead of a step per fence line."""
    splice = splice_of(text)
    if splice is not None:
        derived = _spliced_blocks(text, *splice)
        if derived is not None:
            return derived[0]
    tilde = "~" in text and "~~~" in text  # one character is found faster than three
    if (tilde or " ```" in text) and _indented_mark_re().search(text) is not None:
        return None
    margin_block = _margin_block_re()
    spans = map(re.Match.span, margin_block.finditer(text), itertools.repeat(1))
    bounds = array.array("q", itertools.chain.from_iterable(spans))
    if bounds:
        last = margin_block.match(text, bounds[-2] - 1)
        if last is not None and last.group(3) is not None:  # it never closes
            open_from = bounds[-2]
            del bounds[-2:]
            return bounds, open_from
    return bounds, None


def fence_marks(text: str) -> Iterator[re.Match[str]]:
    """What ``_fence_mark_re().finditer(text)`` gives: each newline followed by at most three
    spaces and a fence marker. A pattern that begins with a newline stops at every line; here
    each marker is found by a search for a literal, and only the lines that hold one are
    matched."""
    following = dict.fromkeys(marker_scans(), -1)  # offset of the next occurrence of each
    fence_mark = _fence_mark_re()
    pos = 0
    while True:
        for scan, at in following.items():
            if at < pos:
                found = scan.search(text, pos)
                following[scan] = found.start() if found is not None else len(text)
        at = min(following.values())
        if at >= len(text):
            return
        indent = 0
        while indent < 3 and at - indent - 1 >= pos and text[at - indent - 1] == " ":
            indent += 1
        newline = at - indent - 1
        mark = fence_mark.match(text, newline) if newline >= pos else None
        if mark is not None and text[newline] == "\n":
            yield mark
            pos = mark.end()
            continue
        end = text.find("\n", at)  # no other line start before the next newline
        if end < 0:
            return
        pos = end


def _spliced_blocks(
    text: str, old: str, start: int, tail: int
) -> tuple[tuple[array.array[int], int | None] | None] | None:
    """:func:`margin_blocks` of ``text`` (in a tuple of one), made from those of ``old``; None
    when they cannot be (the edit touched a fenced block, or ``old`` is no such text): the
    whole text is then read."""
    lo, hi = _touched(text, start, tail)
    shift = len(text) - len(old)
    if not _fences_kept(old, lo, hi - shift):
        return None
    if _indented_mark_re().search(text, max(lo, 0), hi) is not None:
        return (None,)  # the edit wrote a fence line a margin reading does not know
    blocks = margin_blocks(old)
    assert blocks is not None  # as _fences_kept found
    bounds, open_from = blocks
    first = bisect.bisect_right(bounds, lo)
    last = bisect.bisect_right(bounds, hi - shift)
    touched = array.array("q")
    opened = None if open_from is None else open_from + shift
    for match in _margin_block_re().finditer(text, max(lo, 0), hi):
        if match.group(3) is not None:  # no closing line before ``hi``
            if hi < len(text):
                return None  # a block the edit opened runs on into the lines after it
            opened = match.start(1)  # the end of the text: it never closes
            break
        touched.extend(match.span(1))
    moved = bounds[last:]
    if shift:
        moved = array.array("q", map(operator.add, moved, itertools.repeat(shift)))
    return ((bounds[:first] + touched + moved, opened),)


def _fences_kept(old: str, lo: int, hi: int) -> bool:
    """Whether ``old`` is a text of margin fences (:func:`margin_blocks`) with no fenced block
    holding the newline at ``lo`` or the one at ``hi``, and none left open before ``hi``: the
    lines between them are then read the same with whatever fences they hold."""
    blocks = margin_blocks(old)
    if blocks is None:
        return False
    bounds, open_from = blocks
    if open_from is not None and open_from <= hi:
        return False
    return bisect.bisect_right(bounds, lo) % 2 == 0 and bisect.bisect_right(bounds, hi) % 2 == 0


def _touched(text: str, start: int, tail: int) -> tuple[int, int]:
    """The newline before the first line an edit touched (-1 for the first line) and the end
    of the last one (the newline after it, or the end of the text), in the edited text."""
    end = len(text) - tail
    after = text.find("\n", end)
    return text.rfind("\n", 0, start), len(text) if after < 0 else after


_SPLICES: list[tuple[str, str, int, int]] = []  # (edited, old, start, tail), newest last


def spliced(old: str, new: str, start: int, tail: int) -> str:
    """``new``, an edit of ``old`` that keeps its first ``start`` and last ``tail`` characters.

    Kept for the three edits made last, so that the index of the edited text (its headings and
    fenced blocks) is made from that of the old one by reading only the lines the edit
    touched: the text an edit writes is read back in full before it is written, and a long
    ledger would otherwise be searched once more per edit. Three, as many as a command makes
    in one write (``plan`` and the Stop hook: an entry, another entry or the plan's lines, and
    ``iterations_used``), so that the count of the ledger's lines of the last text is made from
    the count of the text read (:func:`goalfile.parse._newlines`); the text two edits before
    the last one is the one read, alive anyway."""
    if new is old or start + tail > min(len(old), len(new)):
        return new
    _SPLICES.append((new, old, start, tail))
    del _SPLICES[:-3]
    base, pieces = pieces_of(old) or (old, ((0, len(old)),))
    written = new[start : len(new) - tail]
    made = (*_part(pieces, 0, start), written, *_part(pieces, len(old) - tail, len(old)))
    _PIECES.append((new, base, made))
    del _PIECES[:-2]
    return new


Pieces = tuple[tuple[int, int] | str, ...]
"""A text as pieces, in order: spans (start, end) of another text, and texts."""

_PIECES: list[tuple[str, str, Pieces]] = []  # (edited, base, its pieces), newest last


def pieces_of(text: str) -> tuple[str, Pieces] | None:
    """The text the last edits (:func:`spliced`, one after the other) made ``text`` from,
    and ``text`` as spans of it and what the edits wrote; None for any other text. A goal
    file is written from the bytes it was read as, and only what the edits wrote is encoded."""
    for edited, base, pieces in _PIECES:
        if edited is text:
            return base, pieces
    return None


def _part(pieces: Pieces, start: int, end: int) -> Iterator[tuple[int, int] | str]:
    """The pieces of the characters ``start`` to ``end`` of the text ``pieces`` make."""
    pos = 0
    for piece in pieces:
        size = piece[1] - piece[0] if isinstance(piece, tuple) else len(piece)
        low, high = max(start, pos), min(end, pos + size)
        if low < high:
            if isinstance(piece, tuple):
                yield piece[0] + low - pos, piece[0] + high - pos
            else:
                yield piece[low - pos : high - pos]
        pos += size


def splice_of(text: str) -> tuple[str, int, int] | None:
    """The old text, and the characters kept at its start and end, of the edit (one of the
    last three :func:`spliced` recorded) that made ``text``; None for any other text."""
    for edited, old, start, tail in _SPLICES:
        if edited is text:
            return old, start, tail
    return None


def in_spans(spans: Sequence[tuple[int, int]], pos: int) -> bool:
    index = bisect.bisect_right(spans, (pos, 0)) - 1
    return index >= 0 and spans[index][0] < pos < spans[index][1]


# nothing compares, hashes or prints one: no __eq__, __hash__ or __repr__ is built for it
class Head(Value):
    """One entry of a ledger as its heading line gives it, with its place in the text."""

    __slots__ = ("by", "date", "end", "iteration", "start", "time")

    def __init__(self, iteration: int, date: str, time: str, by: str, start: int, end: int) -> None:
        self.iteration: Final = iteration
        self.date: Final = date
        self.time: Final = time  # "" when the heading gives none
        self.by: Final = by
        self.start: Final = start  # offset of the heading line
        # offset just after the entry (the next heading line, or the end of the span)
        self.end: Final = end


def heads(text: str, start: int = 0, end: int | None = None) -> Iterator[Head]:
    """The entries between character offsets ``start`` and ``end`` (line boundaries), newest
    first, from the index of heading lines: nothing below a heading is read, and only the
    heads consumed are built. They are the entries :func:`entries` parses, each spanning the
    same text."""
    for begin, finish, fields in _spans(text, start, end):
        yield _head(begin, finish, fields)


def iterations(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The iteration number of each entry :func:`heads` gives, newest first, without making
    a :class:`Head` of each (a rule that looks at every entry's number, such as the count of
    iterations the ledger backs, then costs a step per entry, not an object)."""
    stop = len(text) if end is None else end
    found = headings(text).entries
    numbers = [
        int(fields[0])
        for _, fields in found[
            bisect.bisect_left(found, (start,)) : bisect.bisect_left(found, (stop,))
        ]
    ]
    numbers.reverse()  # the entries of :func:`_spans`, in its order, without a step of its own
    first = _HEADING_RE.match(text, 0, stop) if start == 0 else None  # a text that begins
    if first is not None:  # with a heading line: no newline before it
        numbers.append(int(first.group(1)))
    return numbers


def _head(begin: int, finish: int, fields: tuple[str, str, str, str]) -> Head:
    number, date, time, by = fields
    return Head(iteration=int(number), date=date, time=time, by=by, start=begin, end=finish)


def _spans(
    text: str, start: int, end: int | None
) -> Iterator[tuple[int, int, tuple[str, str, str, str]]]:
    """Each entry's start and end offsets and heading fields (iteration, date, time and
    command), newest first."""
    stop = len(text) if end is None else end
    found = headings(text).entries
    finish = stop
    for pos in range(bisect.bisect_left(found, (stop,)) - 1, -1, -1):
        begin, fields = found[pos]
        if begin < start:
            break
        yield begin, finish, fields
        finish = begin
    first = _HEADING_RE.match(text, 0, stop) if start == 0 else None  # a text that begins
    if first is not None:  # with a heading line: no newline before it
        number, date, time, by = first.group(1, 2, 3, 4)
        yield 0, finish, (number, date, time or "", by)


def read(text: str, head: Head, *, first_line: int = 0) -> Entry:
    """The entry that ``head`` begins, parsed."""
    entry = parse_entry(text[head.start : head.end].split("\n"), first_line=first_line)
    assert entry is not None  # its heading line is the one the index matched
    return entry


def newest_first(
    text: str, start: int = 0, end: int | None = None, *, by: Collection[str] | None = None
) -> Iterator[Entry]:
    """Entries newest first, parsing only those whose heading names a command in ``by``
    (every entry when ``by`` is None): the cost is that of the entries read, not of those
    between them."""
    if by is None:
        for begin, finish, fields in _spans(text, start, end):
            yield read(text, _head(begin, finish, fields))
        return
    stop = len(text) if end is None else end
    index = headings(text)
    found = index.entries
    low = bisect.bisect_left(found, (start,))
    high = bisect.bisect_left(found, (stop,))
    streams = []
    for name in set(by):
        positions = index.by_command.get(name, ())
        first_at, last_at = bisect.bisect_left(positions, low), bisect.bisect_left(positions, high)
        if first_at < last_at:
            streams.append(reversed(positions[first_at:last_at]))
    for pos in heapq.merge(*streams, reverse=True):
        begin, fields = found[pos]
        finish = found[pos + 1][0] if pos + 1 < high else stop
        yield read(text, _head(begin, finish, fields))
    first = _HEADING_RE.match(text, 0, stop) if start == 0 else None  # a text that begins
    if first is not None and first.group(4) in by:  # with a heading line: no newline before it
        number, date, time, name = first.group(1, 2, 3, 4)
        finish = found[low][0] if low < high else stop
        yield read(text, _head(0, finish, (number, date, time or "", name)))


def newest(
    text: str, start: int = 0, end: int | None = None, *, by: Collection[str]
) -> Entry | None:
    """The newest entry by one of the commands in ``by``, or None."""
    return next(newest_first(text, start, end, by=by), None)


def newest_status(text: str, start: int = 0, end: int | None = None) -> Entry | None:
    """The newest entry that holds a ``status:`` line; an entry whose text holds no
    ``status`` at all is not parsed (a status line may be indented or escaped, as
    :func:`parse_entry` reads it)."""
    for head in heads(text, start, end):
        if text.find("status", head.start, head.end) >= 0:
            entry = read(text, head)
            if entry.status is not None:
                return entry
    return None
