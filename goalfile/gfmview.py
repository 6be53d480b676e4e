"""What a GitHub view shows of a criteria cell, against what goalfile reads from it.

goalfile reads a deterministic row's ``check`` and ``expected`` as Markdown shows them
(CommonMark with GFM tables, the link references defined anywhere outside the ledger). GitHub
renders five things more: inline math (``$...$``, drawn by MathJax: ``$\\phantom{x; : }$``
draws nothing, and goalfile ran ``...; : }$``), footnote references (``[^label]`` where the file
defines that footnote, shown as a number: ``test -f ok [^||:>]`` showed ``test -f ok¹`` and
exited 0), GFM strikethrough (``~~text~~`` and ``~text~``, drawn struck out,
read as deleted), link references defined inside the ledger, which goalfile never parses, and
GFM's autolinks (``http://``, ``https://``, ``ftp://``, ``www.``), whose text GitHub shows as
typed, escapes, entities and emphasis marks included: ``./smoke.sh http://host/health\\;echo``
showed a shell reader one escaped argument, and goalfile ran ``...health;echo``. And
three things a browser or GitHub's own filters draw otherwise than the text of the HTML:
emoji shortcodes (``stdout lacks ":x:"`` shows as ``lacks "❌"``, and goalfile judges the
literal ``:x:``, which no runner prints), runs of blanks outside a code span (a browser draws
``lacks "1  failed"`` as ``lacks "1 failed"``), and stars or underscores beside a symbol that
CommonMark 0.29, which GitHub's cmark-gfm follows, reads as emphasis and 0.31, which goalfile's
markdown-it follows, does not (``lacks "FAILED*✗*"`` shows as ``lacks "FAILED✗"``). A
cell whose GitHub view differs from goalfile's reading is a lint error (``rendered-differs``):
a reader approves one command and goalfile runs another. Pure: text in, difference out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from goalfile import parse

if TYPE_CHECKING:
    from markdown_it.token import Token

    from goalfile.gfmdifference import Difference

_TARGET: Mapping[str, str] = {"href": "#", "title": ""}


def difference(
    cell: str,
    labels: Iterable[str],
    ledger: Iterable[str] = (),
    footnotes: Iterable[str] = (),
    *,
    column: str = "check",
) -> Difference | None:
    """How GitHub's view of ``cell`` differs from goalfile's reading of it, or None when it
    does not (a cell that is one code span is shown as written by both). ``labels`` are the
    link reference labels goalfile reads cells with, ``ledger`` those a definition in the
    ledger may add for GitHub, ``footnotes`` the footnote labels the file defines
    (:func:`footnote_labels`); ``column`` is ``check`` or ``expected``."""
    if ":" in cell or "  " in cell or not cell.isascii():
        drawn = _drawn_otherwise(cell, set(labels), column=column)
        if drawn is not None:
            return drawn
    linked = autolinks(cell) if "://" in cell or "www." in cell else []
    if "~" not in cell and "[" not in cell and "$" not in cell and not linked:
        return None  # neither strikethrough, a link, a footnote nor math can start
    known = set(labels)
    read, is_code = parse.read_cell(cell, _references(known))
    if is_code:
        return None
    text = cell.replace("\\|", "|")  # as GitHub reads a table cell, before its inlines
    math = tuple(_math_spans(text)) if "$" in text else ()
    notes = tuple(_footnote_references(text, footnotes)) if "[^" in text else ()
    if math or notes:
        from goalfile.gfmdifference import Difference

        shown = text
        for piece in (*math, *notes):
            shown = shown.replace(piece, " ")
        shown = " ".join(shown.split())
        return Difference(read=read.strip(), shown=shown, struck=(), math=math, footnotes=notes)
    if linked:
        typed = _as_typed(cell, linked)
        shown = parse.read_cell(typed, _references(known | set(ledger)))[0].strip()
        if shown != read.strip():
            from goalfile.gfmdifference import Difference

            addresses = tuple(cell[start:end] for start, end in linked)
            return Difference(read=read.strip(), shown=shown, struck=(), linked=addresses)
    token: Token = _gfm().parseInline(cell, _references(known | set(ledger)))[0]
    shown = parse.rendered(token).strip()
    struck = tuple(_struck(token))
    if not struck and shown == read.strip():
        return None
    from goalfile.gfmdifference import Difference

    return Difference(read=read.strip(), shown=shown, struck=struck)


# GitHub's emoji shortcodes: a name of lower-case letters, digits, `_`, `+` and `-` between
# colons (`:x:`, `:warning:`, `:+1:`, `:100:`); a name of digits alone is a time (`12:30:45`).
# GitHub draws only the names it knows (`ERROR:root:` stays as typed)
# (looked for at every colon: in `a:root:x:` GitHub draws the `:x:` that `:root:` overlaps)
@functools.cache
def _shortcode() -> re.Pattern[str]:
    return re.compile(r"(?=(:(?:[a-z0-9_+-]*[a-z][a-z0-9_+-]*|[+-]1|100|1234):))")


# the pictures GitHub adds to Unicode's emoji, drawn from images of its own
_GITHUB_ONLY = frozenset(
    f":{name}:"
    for name in (
        "accessibility", "atom", "basecamp", "basecampy", "bowtie", "copilot", "dependabot",
        "electron", "feelsgood", "finnadie", "fishsticks", "goberserk", "godmode", "hurtrealbad",
        "neckbeard", "octocat", "rage1", "rage2", "rage3", "rage4", "shipit", "suspect",
        "trollface",
    )
)  # fmt: skip


@functools.cache
def _emoji_names() -> frozenset[str]:
    """Every shortcode GitHub draws as a picture: the names of Unicode's emoji in GitHub's own
    list (gemoji, :mod:`goalfile.gemoji_names`), and GitHub's own pictures. Not Unicode's
    English names (``:angry_face:``) nor skin-tone names, which GitHub leaves as typed. Read
    only for a cell that holds a `:name:`."""
    from goalfile.gemoji_names import NAMES

    return frozenset(f":{name}:" for name in NAMES) | _GITHUB_ONLY


def _drawn_otherwise(cell: str, labels: set[str], *, column: str) -> Difference | None:
    """The emoji shortcodes, the runs of blanks and the emphasis beside a symbol of ``cell``
    (outside its code spans) that make GitHub draw it otherwise than goalfile reads it."""
    code = _code_spans(cell)

    def outside(at: int) -> bool:
        return not any(first <= at < last for first, last in code)

    read, is_code = parse.read_cell(cell, _references(labels))
    if is_code:
        return None
    emoji = tuple(
        m.group(1)
        for m in _shortcode().finditer(cell)
        if outside(m.start()) and m.group(1) in _emoji_names()
    )
    blanks = False
    if "  " in cell:
        gaps = [m for m in re.finditer(r"  +", cell) if outside(m.start())]
        collapsed = cell
        for gap in reversed(gaps):
            collapsed = collapsed[: gap.start()] + " " + collapsed[gap.end() :]
        shown_read = parse.read_cell(collapsed, _references(labels))[0]
        blanks = bool(gaps) and not _same_meaning(read, shown_read, column=column)
    emphasis, theirs = ((), "") if cell.isascii() else _symbol_emphasis(cell, labels)
    if not emoji and not blanks and not emphasis:
        return None
    from goalfile.gfmdifference import Difference

    shown = " ".join((theirs or read).split()) if blanks else (theirs or read).strip()
    return Difference(
        read=read.strip(), shown=shown, struck=(), emoji=emoji, blanks=blanks, emphasis=emphasis
    )


def _same_meaning(read: str, shown: str, *, column: str) -> bool:
    """Whether a reader of ``shown`` (blanks drawn as one) reads what goalfile reads in
    ``read``: the same clauses of an expected result, the same words of a command."""
    if read.strip() == shown.strip():
        return True
    if column == "expected":
        from goalfile.errors import GoalfileError
        from goalfile.expect import format_clause, parse_expected

        try:
            ours = [format_clause(c) for c in parse_expected(read).clauses]
            theirs = [format_clause(c) for c in parse_expected(shown).clauses]
        except GoalfileError:
            return False
        return ours == theirs
    import shlex

    try:
        return shlex.split(read) == shlex.split(shown)
    except ValueError:
        return False


def _symbol_emphasis(cell: str, labels: set[str]) -> tuple[tuple[str, ...], str]:
    """The emphasis GitHub reads in ``cell`` and goalfile does not, or the reverse: CommonMark
    0.31 counts a symbol (``✗``, ``€``, ``→``) as punctuation when it decides whether ``*`` or
    ``_`` opens or closes emphasis, 0.29 (cmark-gfm) as a letter. So the cell is read once more
    with each such symbol replaced by a letter, which is 0.29's reading. Returns the words of
    goalfile's reading that GitHub shows otherwise, and GitHub's reading (empty when none)."""
    import unicodedata

    if "*" not in cell and "_" not in cell:
        return (), ""
    symbols = sorted({c for c in cell if not c.isascii() and unicodedata.category(c)[0] == "S"})
    if not symbols:
        return (), ""
    free = (chr(code) for code in range(0x4E00, 0x9FFF) if chr(code) not in cell)
    there: dict[str | int, str | int | None] = {s: next(free) for s in symbols}  # letters to both
    back = {ord(str(letter)): str(symbol) for symbol, letter in there.items()}
    env = _references(labels)
    ours = parse.rendered(_gfm().parseInline(cell, env)[0])
    theirs = parse.rendered(_gfm().parseInline(cell.translate(str.maketrans(there)), env)[0])
    theirs = theirs.translate(back)
    if ours == theirs:
        return (), ""
    shown = set(theirs.split())
    return tuple(word for word in ours.split() if word not in shown), theirs


# where GFM's extended autolinks start (cmark-gfm's autolink extension): `www.` after the start,
# a blank or one of `*_~(`; a scheme not preceded by a letter
# (pattern texts, compiled by `re`'s own cache when a cell holds an address: few cells do)
_AUTOLINK_START = r"(?i)(?<![^\s*_~(])www\.|(?<![A-Za-z])(?:https?|ftp)://"
_TRAILING = "?!.,:*_~'\""
_PUNCTUATION = r"([!-/:-@\[-`{-~])"


def autolinks(cell: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` spans of ``cell`` that GitHub turns into links showing their text
    as typed, found as cmark-gfm's autolink extension finds them: from ``www.`` or a scheme,
    over a domain, up to a blank or ``<``, less the trailing punctuation, an unmatched ``)``
    and an entity-like ending it leaves out; none inside a code span or a link's brackets."""
    code = _code_spans(cell)
    found: list[tuple[int, int]] = []
    for match in re.finditer(_AUTOLINK_START, cell):
        start = match.start()
        if (
            any(first <= start < last for first, last in code)
            or (found and start < found[-1][1])
            or _in_bracket(cell, start, code)
        ):
            continue
        www = match.group().lower() == "www."
        domain = _domain(cell, start if www else match.end(), short=not www)
        if domain is None:
            continue
        end = domain
        while end < len(cell) and not cell[end].isspace() and cell[end] != "<":
            end += 1
        end = _delimited(cell, start, end)
        if end > match.end():
            found.append((start, end))
    return found


def shown_name(name: str, footnotes: Iterable[str] = ()) -> str:
    """A criteria header name as a GitHub view shows it, in lower case with backticks and
    runs of blanks dropped as goalfile matches names: entities and escapes read, emphasis
    marks gone, inline math (which MathJax draws as text or nothing), footnote references
    (shown as a number) and struck-out text (read as deleted) left out. ``$\\text{check}$``,
    ``check[^1]``, ``~~the~~ check`` and ``check&#8203;`` all show as `check`."""
    text = name.replace("\\|", "|")
    for piece in (*_math_spans(text), *_footnote_references(text, footnotes)):
        inner = piece[1:-1].strip("$`")  # `$\\text{check}$` draws its text
        words = re.findall(r"\\(?:text|mathrm|textrm|mbox)\{([^{}]*)\}", inner)
        text = text.replace(piece, " " + " ".join(words) + " " if piece[0] == "$" else " ", 1)
    token: Token = _gfm().parseInline(text, {})[0]
    shown = parse.rendered(token)
    for struck in _struck(token):
        shown = shown.replace(struck, " ", 1)
    shown = shown.replace("~", " ")
    if not shown.isascii():
        from goalfile import unseen

        shown = "".join(c for c in shown if not unseen.is_invisible(c))
    return " ".join(shown.replace("`", "").lower().split())


def _math_spans(cell: str) -> Iterable[str]:
    """The spans of ``cell`` (outside its code spans, not escaped) that GitHub draws as inline
    math: a ``$`` followed by a non-blank, up to the next ``$`` that follows a non-blank
    (``$$...$$`` and ``$`...`$`` too). MathJax can draw such a span as nothing at all."""
    code = _code_spans(cell)
    marks = [
        at
        for at, char in enumerate(cell)
        if char == "$"
        and not _escaped(cell, at)
        and not any(first <= at < last for first, last in code)
    ]
    index = 0
    while index < len(marks):
        start = marks[index]
        if start + 1 >= len(cell) or cell[start + 1].isspace():
            index += 1
            continue
        close = next(
            (n for n in range(index + 1, len(marks)) if marks[n] >= start + 2
             and not cell[marks[n] - 1].isspace()),
            None,
        )  # fmt: skip
        if close is None:
            return
        yield cell[start : marks[close] + 1]
        index = close + 1


@functools.cache
def _footnote_reference() -> re.Pattern[str]:
    return re.compile(r"\[\^([^\]\s]+)\]")


@functools.cache
def _footnote_definition() -> re.Pattern[str]:
    return re.compile(r"(?m)^(?:[ ]{0,3}(?:>|[-*+]|\d{1,9}[.)])[ ]?)*[ ]{0,3}\[\^([^\]\s]+)\]:")


def footnote_labels(text: str) -> frozenset[str]:
    """The labels of the footnotes a goal file defines for GitHub (``[^label]:`` at a line's
    start, after a quote's ``>``, a list item's bullet and up to three spaces), anywhere in
    it: GitHub reads the whole file, the ledger too. Lower case, as labels match."""
    if "^" not in text or "[^" not in text:  # one character is memchr: "^" first
        return frozenset()
    return frozenset(m.group(1).lower() for m in _footnote_definition().finditer(text))


def _footnote_references(text: str, footnotes: Iterable[str]) -> Iterable[str]:
    """The ``[^label]`` references of the cell ``text`` (outside code spans, not escaped) to a
    footnote the file defines, which GitHub shows as a number (the label is not shown)."""
    defined = set(footnotes)
    if not defined:
        return
    code = _code_spans(text)
    for found in _footnote_reference().finditer(text):
        at = found.start()
        if _escaped(text, at) or any(first <= at < last for first, last in code):
            continue
        if found.group(1).lower() in defined:
            yield found.group()


def _in_bracket(cell: str, at: int, code: list[tuple[int, int]]) -> bool:
    """Whether a ``[`` opened before ``at`` is still open there (outside code spans, not
    escaped): GFM links no address inside a link's brackets."""
    depth = 0
    for index, char in enumerate(cell[:at]):
        if char not in "[]" or _escaped(cell, index):
            continue
        if any(first <= index < last for first, last in code):
            continue
        depth = depth + 1 if char == "[" else max(depth - 1, 0)
    return depth > 0


def _domain(cell: str, at: int, *, short: bool) -> int | None:
    """Where the domain that starts at ``at`` ends, or None when GFM links none there (an
    underscore in it; no dot for a ``www.`` link)."""
    dots = underscores = before_last = 0
    end = at + 1
    while end < len(cell) - 1:
        char = cell[end]
        if char == "_":
            underscores += 1
        elif char == ".":
            before_last, underscores = underscores, 0
            dots += 1
        elif (char.isspace() or _is_punctuation(char)) and char != "-":
            break
        end += 1
    if at >= len(cell) or before_last or underscores:
        return None
    return end if short or dots else None


def _is_punctuation(char: str) -> bool:
    return char.isascii() and not char.isalnum() and not char.isspace()


def _delimited(cell: str, start: int, end: int) -> int:
    """``end`` less what GFM leaves out of a link's end (cmark-gfm's ``autolink_delim``)."""
    while end > start:
        last = cell[end - 1]
        if last in _TRAILING:
            end -= 1
        elif last == ";":
            back = end - 2
            while back > start and cell[back].isascii() and cell[back].isalpha():
                back -= 1
            end = back if back < end - 2 and cell[back] == "&" else end - 1
        elif last == ")":
            text = cell[start:end]
            if text.count(")") <= text.count("("):
                break
            end -= 1
        else:
            break
    return end


def _code_spans(cell: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` spans of ``cell``'s code spans: a run of backticks (not escaped)
    up to the next run of the same length."""
    runs = [m for m in re.finditer(r"`+", cell) if not _escaped(cell, m.start())]
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        opener = runs[index]
        closer = next(
            (n for n in range(index + 1, len(runs)) if len(runs[n].group()) == len(opener.group())),
            None,
        )
        if closer is None:
            index += 1
            continue
        spans.append((opener.start(), runs[closer].end()))
        index = closer + 1
    return spans


def _escaped(cell: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd run of backslashes."""
    count = 0
    while at - count - 1 >= 0 and cell[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _as_typed(cell: str, spans: list[tuple[int, int]]) -> str:
    """``cell`` with every punctuation character of ``spans`` backslash-escaped, so Markdown
    shows those spans as typed, as GitHub shows an autolink's text."""
    out: list[str] = []
    at = 0
    for start, end in spans:
        out.append(cell[at:start])
        out.append(re.sub(_PUNCTUATION, r"\\\1", cell[start:end]))
        at = end
    out.append(cell[at:])
    return "".join(out)


def _references(labels: set[str]) -> dict[str, Any]:
    return {"references": dict.fromkeys(labels, _TARGET)} if labels else {}


def _struck(token: Token) -> Iterable[str]:
    """The texts between each ``s_open`` and its ``s_close``."""
    depth = 0
    piece: list[str] = []
    for child in token.children or []:
        if child.type == "s_open":
            depth += 1
        elif child.type == "s_close":
            depth -= 1
            if depth == 0:
                text = "".join(piece).strip()
                piece = []
                if text:
                    yield text
        elif depth:
            piece.append(child.content)


_GFM: Any = None


def _gfm() -> Any:
    """CommonMark with GFM strikethrough as GitHub reads it: one or two tildes."""
    global _GFM
    if _GFM is None:
        from markdown_it import MarkdownIt

        _GFM = MarkdownIt("commonmark", {"strikethrough_single_tilde": True}).enable(
            ["table", "strikethrough"]
        )
    return _GFM


# a `]:` after the `[` that starts a line, or a line's container marks (`>`, a list item's
# bullet or number) and up to three spaces: where a link reference definition can start
@functools.cache
def _definition_start() -> re.Pattern[str]:
    return re.compile(r"(?:[ ]{0,3}(?:>|[-*+]|\d{1,9}[.)])[ ]?)*[ ]{0,3}\[")


def ledger_labels(text: str) -> frozenset[str]:
    """The labels a link reference definition inside the ledger (``## Iterations``) may
    define for a Markdown view: each ``[LABEL]:`` whose ``[`` starts a line (after a quote's
    ``>``, a list item's bullet and up to three spaces). goalfile never parses the ledger, and
    writes no line there that starts so; a label found in a fenced block is counted too, so a
    cell that uses it is reported rather than missed."""
    region = parse.ledger_region(text)
    if region is None:
        return frozenset()
    start, end = region
    found: set[str] = set()
    at = text.find("]:", start, end)
    while at >= 0:
        line_start = text.rfind("\n", start, at) + 1 or start
        opened = text.rfind("[", line_start, at)
        while opened >= 0:
            if _definition_start().fullmatch(text, line_start, opened + 1):
                found.add(_normal(text[opened + 1 : at]))
                break
            opened = text.rfind("[", line_start, opened)
        if opened < 0 and text.rfind("\n", start, line_start - 1) >= 0:
            # a label may run over lines: the `[` of the line before
            before = text.rfind("\n", start, line_start - 1) + 1
            opened = text.rfind("[", before, line_start)
            if opened >= 0 and _definition_start().fullmatch(text, before, opened + 1):
                found.add(_normal(text[opened + 1 : at]))
        at = text.find("]:", at + 2, end)
    return frozenset(found)


def _normal(label: str) -> str:
    from markdown_it.common.utils import normalizeReference

    return str(normalizeReference(label))
