"""The ``expected`` language beyond ``exit N`` (see :mod:`goalfile.expect`, which documents
the whole language): the clauses that look at the output (``contains``, ``lacks``,
``matches``, ``empty``, ``prints``), the parser of every ``expected`` text, and the checks that
judge output as it streams.

Kept apart from :mod:`goalfile.expect` because a row whose ``expected`` is ``exit 0``, as
most rows are, needs none of it: ``parse_expected`` reads that text itself, and the
:class:`~goalfile.expect.Evaluator` loads this module only for a clause that looks at output.
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Final, Literal

from goalfile import expect
from goalfile.expect import (
    _EVIDENCE_BYTES,
    _SOURCES,
    EVIDENCE_CHARS,
    ExitClause,
    Expectation,
    ExpectedSyntaxError,
    Stream,
    _evidence,
    _Track,
    format_clause,
    parse_expected,
)
from goalfile.plainexit import WS_TEXT
from goalfile.regexinert import inert_part
from goalfile.value import Compared

if TYPE_CHECKING:
    from goalfile.expect import Clause, Guard

__all__ = [
    "FORMS",
    "EmptyClause",
    "MatchCheck",
    "MatchClause",
    "PrintsCheck",
    "PrintsClause",
    "TextCheck",
    "TextClause",
    "can_match_empty",
    "canonical_text",
    "empty_match_on_probes",
    "format_output_clause",
    "literal_pipes_in_regexes",
    "matches_almost_any_character",
    "parse",
    "suggest",
]

_INT = re.compile(r"-?[0-9]+")
_LINEWISE = r"\\[AZ]|\(\?<?!"  # constructs that see past a line's end (compiled when used)
_MAX_MISSES = 16  # block matches that were not a line's match before going line by line

FORMS = (
    'exit N, exit != N, exit nonzero, STREAM contains "TEXT", STREAM lacks "TEXT", '
    'STREAM matches /REGEX/, STREAM empty, prints "TEXT", prints N '
    '(STREAM is stdout, stderr or output; join clauses with ";", "," or " and ")'
)


# --------------------------------------------------------------------------- values


# written out on goalfile.value, not as frozen dataclasses: each dataclass compiled its methods
# at every start of `new` and `activate` (see docs/performance.md)
class TextClause(Compared):
    """``STREAM contains "TEXT"`` or, with ``negate``, ``STREAM lacks "TEXT"``."""

    __slots__ = ("negate", "stream", "text")

    def __init__(self, *, stream: Stream, text: str, negate: bool = False) -> None:
        self.stream: Final = stream
        self.text: Final = text
        self.negate: Final = negate


class MatchClause(Compared):
    """``STREAM matches /REGEX/``; ``pattern`` is stored with ``\\/`` written as ``/``."""

    __slots__ = ("pattern", "stream")

    def __init__(self, *, stream: Stream, pattern: str) -> None:
        self.stream: Final = stream
        self.pattern: Final = _normalize_pattern(pattern)


class EmptyClause(Compared):
    """``STREAM empty``."""

    __slots__ = ("stream",)

    def __init__(self, *, stream: Stream) -> None:
        self.stream: Final = stream


class PrintsClause(Compared):
    """``prints "TEXT"`` or ``prints N`` (text holds N as written)."""

    __slots__ = ("text",)

    def __init__(self, *, text: str) -> None:
        self.text: Final = text


# --------------------------------------------------------------------------- parsing


class _Tok(Compared):
    """A word, string or regex of an ``expected`` text, with its span."""

    __slots__ = ("end", "kind", "pos", "value")

    def __init__(
        self, kind: Literal["word", "string", "regex"], value: str, pos: int, end: int
    ) -> None:
        self.kind: Final = kind
        self.value: Final = value
        self.pos: Final = pos
        self.end: Final = end


class _Raw:
    """One clause as the splitter saw it (filled in as it goes)."""

    __slots__ = ("end", "error", "sep", "sep_pos", "start", "toks")

    def __init__(self) -> None:
        self.toks: list[_Tok] = []
        self.start = -1  # offset of its first character, -1 while empty
        self.end = -1  # offset after its last character
        self.error: tuple[str, str] | None = None  # (reason, tip) found while splitting
        self.sep = ""  # ";" or "and" that ended it; "" at the end of the text
        self.sep_pos = -1


class _Bad(Exception):
    def __init__(self, reason: str, tip: str = "", *, guess: bool = True) -> None:
        super().__init__(reason)
        self.reason = reason
        self.tip = tip
        self.guess = guess  # False: the clause has the right form, a guess would only repeat it


def _hint(tip: str) -> str:
    return (f"{tip}. " if tip else "") + f"Valid clauses: {FORMS}."


def _split(text: str) -> list[_Raw]:
    """Cut ``text`` into clauses and tokens; stops at an unterminated quote or regex."""
    raws: list[_Raw] = []
    cur = _Raw()
    n = len(text)
    i = 0

    def begin(pos: int) -> None:
        if cur.start < 0:
            cur.start = pos

    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in ";,":
            cur.sep, cur.sep_pos = ch, i
            raws.append(cur)
            cur = _Raw()
            i += 1
            continue
        if ch == '"':
            begin(i)
            value, j, problem = _read_quoted(text, i)
            if j < 0:
                cur.error = problem or ('unterminated "TEXT": the closing " is missing', "")
                cur.end = n
                raws.append(cur)
                return raws
            if problem is not None and cur.error is None:
                cur.error = problem
            cur.toks.append(_Tok("string", value, i, j))
            cur.end = i = j
            continue
        last = cur.toks[-1] if cur.toks else None
        if (
            ch == "/"
            and last is not None
            and last.kind == "word"
            and last.value.lower() == "matches"
        ):
            begin(i)
            value, j = _read_regex(text, i)
            if j < 0:
                cur.error = (
                    "unterminated /REGEX/: the closing / is missing",
                    "write \\/ for a slash",
                )
                cur.end = n
                raws.append(cur)
                return raws
            cur.toks.append(_Tok("regex", value, i, j))
            cur.end = i = j
            continue
        j = i
        while j < n and not text[j].isspace() and text[j] not in ';,"':
            j += 1
        word = text[i:j]
        if (
            word.lower() == "and"
            and i > 0
            and text[i - 1].isspace()
            and (j == n or text[j].isspace())
        ):
            cur.sep, cur.sep_pos = "and", i
            raws.append(cur)
            cur = _Raw()
            i = j
            continue
        begin(i)
        cur.toks.append(_Tok("word", word, i, j))
        cur.end = i = j
    raws.append(cur)
    return raws


def _read_quoted(text: str, i: int) -> tuple[str, int, tuple[str, str] | None]:
    """Read the "TEXT" opening at ``i``: (value, offset after it or -1, first problem)."""
    out: list[str] = []
    problem: tuple[str, str] | None = None
    j = i + 1
    n = len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            if j + 1 >= n:
                return "", -1, None
            nxt = text[j + 1]
            if nxt in '"\\':
                out.append(nxt)
            else:
                if problem is None:
                    problem = (
                        f"unknown escape \\{nxt} in quoted text",
                        'inside "TEXT" only \\" (a quote) and \\\\ (a backslash) are escapes',
                    )
                out.append(c + nxt)
            j += 2
            continue
        if c == '"':
            return "".join(out), j + 1, problem
        out.append(c)
        j += 1
    return "", -1, None


def _read_regex(text: str, i: int) -> tuple[str, int]:
    """Read the /REGEX/ opening at ``i``: (pattern with \\/ as /, offset after it or -1)."""
    out: list[str] = []
    j = i + 1
    n = len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            if j + 1 >= n:
                return "", -1
            nxt = text[j + 1]
            out.append("/" if nxt == "/" else c + nxt)
            j += 2
            continue
        if c == "/":
            return "".join(out), j + 1
        out.append(c)
        j += 1
    return "", -1


def literal_pipes_in_regexes(text: str) -> str:
    """An ``expected`` text from a table cell, with each ``|`` inside a ``/REGEX/`` escaped.

    A table cell can only hold a ``|`` written ``\\|``, and Markdown reads that as ``|``; in
    a regex it would become an alternation (``/^\\| X/`` as ``^| X``, which matches every
    line). In a cell, ``\\|`` inside a ``/REGEX/`` therefore means a literal ``|``.
    """
    if "|" not in text:
        return text
    out: list[str] = []
    done = 0
    for raw in _split(text):
        for tok in raw.toks:
            if tok.kind != "regex":
                continue
            body = text[tok.pos + 1 : tok.end - 1]
            out += [text[done : tok.pos + 1], _escape_bare_pipes(body), "/"]
            done = tok.end
    return "".join(out) + text[done:]


def _escape_bare_pipes(body: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            out.append(body[i : i + 2])
            i += 2
            continue
        out.append("\\|" if body[i] == "|" else body[i])
        i += 1
    return "".join(out)


def _normalize_pattern(pattern: str) -> str:
    if "\\/" not in pattern:
        return pattern
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append("/" if nxt == "/" else c + nxt)
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return re.compile(pattern, flags)
    except (re.error, OverflowError, RecursionError, ValueError) as exc:
        raise _Bad(
            f"invalid regular expression: {exc}",
            "use Python re syntax between the slashes and write \\/ for a slash",
        ) from None


def can_match_empty(compiled: re.Pattern[str]) -> bool:
    """Whether some match of the pattern, somewhere in some line, is zero characters long.

    Such a pattern cannot fail in practice: ``/^/``, ``/x*/`` match every line, and the
    zero-width assertions (``/\\b/``, ``/\\B/``, ``/$/``, ``/(?=.)/``, ``/(?<=.)/``) every
    line of some kind, "0 passed, 3 FAILED" included. The rule is the pattern's minimum width
    as ``re``'s own parser computes it (the one ``re.compile`` uses): 0 means the pattern can
    make an empty match. That width only ever errs low (``(a)?\\1`` counts 1, matches 2), so
    a pattern it lets through takes a character in every match. Where the parser is not
    available, the pattern is tried on lines that zero-width patterns match."""
    try:
        from re import _parser  # type: ignore[attr-defined]

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            low = _parser.parse(compiled.pattern, compiled.flags).getwidth()[0]
        return not (isinstance(low, int) and low > 0)
    except (ImportError, AttributeError, TypeError, re.error, RecursionError):
        return empty_match_on_probes(compiled)


_ASCII = "".join(map(chr, range(32, 127)))
_PROBES = ("", " ", "a", "ok", "0 passed, 3 FAILED", "\t\u00e9_ \r", _ASCII, _ASCII[::-1])


def empty_match_on_probes(compiled: re.Pattern[str]) -> bool:
    """The fallback of :func:`can_match_empty` (weaker: it can miss a pattern): an empty match
    on one of a few lines."""
    return any(m.end() == m.start() for line in _PROBES for m in compiled.finditer(line))


# one character of each kind a line can show: letters (ASCII and not), digits, punctuation,
# symbols and blanks
_ONE_CHARACTER = (
    *"aZqé\u0436\u4e2d07",
    *"][-_|\\/^$.*#`\"'(){}:;!?+=<>~&%@,",
    " ",
    "\t",
    "\u00a0",
)
_FAILING_LINE = "0 passed, 3 FAILED"


def matches_almost_any_character(compiled: re.Pattern[str]) -> bool:
    """Whether one character of almost any kind satisfies the pattern: it matches at least half
    of a set of one-character lines (:data:`_ONE_CHARACTER`: letters, digits, punctuation,
    symbols, blanks) and the line ``0 passed, 3 FAILED``. ``/./``, ``/[\\s\\S]/``,
    ``/[^\\n]/``, ``/(?s:.)/``, ``/.{1}/``, ``/\\S/``, ``/\\D/`` and ``/[^x]/`` are such
    patterns: like a pattern that can match zero characters (:func:`can_match_empty`) they hold
    on any output that shows a character, a failing one included. A pattern for text you
    expect (``/^ok$/``, ``/\\d+ passed/``, ``/[0-9]/``, ``/^.$/``) is not.

    The same holds for a run of characters: ``/../``, ``/.{2,}/``, ``/[\\s\\S]{3}/`` or
    ``/[^x]{2}/`` hold on any line of two or three characters, and every failing run prints one.
    So a pattern whose matches take at least N characters (N up to 64) is tried on a run of N of
    each of those characters (``aa``, ``]]``, ``  ``) and on lines a failing run prints."""
    hits = sum(1 for char in _ONE_CHARACTER if compiled.search(char) is not None)
    if 2 * hits >= len(_ONE_CHARACTER) and compiled.search(_FAILING_LINE) is not None:
        return True
    width = _least_width(compiled)
    if not 1 < width <= _RUN_LIMIT:  # a run of one character is the lines above
        return False
    hits = sum(1 for char in _ONE_CHARACTER if compiled.search(char * width) is not None)
    return 2 * hits >= len(_ONE_CHARACTER) and any(
        compiled.search(line) is not None for line in _FAILING_LINES
    )


# the longest run the rule above tries: a pattern that takes more characters than this in every
# match (`/.{100}/`) shows the count it asks for
_RUN_LIMIT = 64
# lines a failing run prints, the second longer than _RUN_LIMIT
_FAILING_LINES = (
    _FAILING_LINE,
    "FAILED tests/test_login.py::test_token_is_rotated - AssertionError: assert 0 == 1",
)


def _least_width(compiled: re.Pattern[str]) -> int:
    """The fewest characters a match of the pattern takes, as ``re``'s own parser computes it
    (0 when the parser is not available: the run rule is then not applied)."""
    try:
        from re import _parser  # type: ignore[attr-defined]

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            low = _parser.parse(compiled.pattern, compiled.flags).getwidth()[0]
    except (ImportError, AttributeError, TypeError, re.error, RecursionError):
        return 0
    return low if isinstance(low, int) else 0


def _describe(tok: _Tok) -> str:
    if tok.kind == "string":
        return f"quoted text {_quote(tok.value)}"
    if tok.kind == "regex":
        return f"/{_slashes(tok.value)}/"
    return f"`{tok.value}`"


def _status(tok: _Tok) -> int:
    # told from its digits before int() reads it: Python refuses a number of more than 4,300
    # digits (ValueError), and no exit status has more than three once its zeros are gone
    digits = tok.value.lstrip("-").lstrip("0") or "0"
    value = (int(digits) if len(digits) <= 3 else 256) * (-1 if tok.value[:1] == "-" else 1)
    if not 0 <= value <= 255:
        raise _Bad(f"exit status {tok.value} is out of range", "an exit status is 0 to 255")
    return value


def _is_int(tok: _Tok) -> bool:
    return tok.kind == "word" and _INT.fullmatch(tok.value) is not None


def _parse_exit(rest: list[_Tok]) -> ExitClause:
    if len(rest) == 1 and rest[0].kind == "word" and rest[0].value.lower() == "nonzero":
        return ExitClause(op="nonzero", value=None)
    if len(rest) == 1 and _is_int(rest[0]):
        return ExitClause(op="==", value=_status(rest[0]))
    if len(rest) == 2 and rest[0].kind == "word" and rest[0].value == "!=" and _is_int(rest[1]):
        return ExitClause(op="!=", value=_status(rest[1]))
    if rest and rest[0].kind == "word" and rest[0].value in ("==", "="):
        raise _Bad(f"`exit {rest[0].value}` is not a clause", "write exit N, without ==")
    if not rest:
        raise _Bad("exit needs a status", "write exit N, exit != N or exit nonzero")
    raise _Bad(
        f"exit cannot be followed by {' '.join(_describe(t) for t in rest)}",
        "write exit N, exit != N or exit nonzero, with N from 0 to 255",
    )


def _parse_prints(rest: list[_Tok]) -> PrintsClause:
    if len(rest) == 1 and rest[0].kind == "string":
        text = rest[0].value
        if text != text.strip(WS_TEXT):
            raise _Bad(
                "prints TEXT starts or ends with whitespace, which is trimmed from stdout",
                'drop the surrounding whitespace: prints "TEXT"',
            )
        return PrintsClause(text=text)
    if len(rest) == 1 and _is_int(rest[0]):
        return PrintsClause(text=rest[0].value)
    if not rest:
        raise _Bad("prints needs a quoted TEXT or an integer", 'write prints "TEXT" or prints N')
    raise _Bad(
        f"prints cannot be followed by {' '.join(_describe(t) for t in rest)}",
        'write prints "TEXT" (in double quotes) or prints N',
    )


def _parse_stream(stream: Stream, rest: list[_Tok]) -> Clause:
    verbs = "write contains, lacks, matches or empty after the stream"
    if not rest:
        raise _Bad(f"{stream} needs contains, lacks, matches or empty after it", verbs)
    verb_tok, args = rest[0], rest[1:]
    verb = verb_tok.value.lower() if verb_tok.kind == "word" else ""
    if verb in ("contains", "lacks"):
        form = f'write {stream} {verb} "TEXT"'
        if len(args) == 1 and args[0].kind == "string":
            if not args[0].value:
                always = "always holds" if verb == "contains" else "never holds"
                raise _Bad(f'{verb} "" {always}', form + " with a non-empty TEXT")
            return TextClause(stream=stream, text=args[0].value, negate=verb == "lacks")
        if args and args[0].kind == "string":
            raise _Bad(f"unexpected {_describe(args[1])} after the quoted text", form)
        if not args:
            raise _Bad(f"{verb} needs a quoted TEXT", form)
        raise _Bad(f"{verb} needs its TEXT in double quotes", form)
    if verb == "matches":
        form = f"write {stream} matches /REGEX/ (a slash inside is written \\/)"
        if len(args) == 1 and args[0].kind == "regex":
            if not args[0].value:
                raise _Bad("matches // matches every line", form + " with a non-empty REGEX")
            compiled = _compile(args[0].value)
            if can_match_empty(compiled):
                raise _Bad(
                    f"/{_slashes(args[0].value)}/ can match zero characters (as /^/, /x*/ "
                    "and /\\b/ do), so it holds on lines that show nothing you expect",
                    form + " that takes at least one character you expect in every match, "
                    "e.g. /^ok$/ or /\\d+ passed/ rather than /^/, /.*/, /x?/ or /\\b/",
                    guess=False,
                )
            if matches_almost_any_character(compiled):
                raise _Bad(
                    f"/{_slashes(args[0].value)}/ matches almost any single character (as "
                    "/./, /\\S/ and /[^x]/ do), so it holds on any output that shows one, "
                    '"0 passed, 3 FAILED" included',
                    form + " for text you expect in the output, e.g. /^ok$/ or /\\d+ passed/ "
                    "rather than /./, /\\S/, /[\\s\\S]/ or /[^x]/",
                    guess=False,
                )
            inert = inert_part(compiled.pattern)
            if inert is not None:
                raise _Bad(
                    f"/{_slashes(args[0].value)}/ holds {inert}: it reads as more than it asks, "
                    "so a line without that part matches",
                    form + " holding only what a line must show, e.g. /^\\d+ passed$/ rather "
                    "than /\\d+ passed(?#, 0 failed)/",
                    guess=False,
                )
            return MatchClause(stream=stream, pattern=args[0].value)
        if args and args[0].kind == "regex":
            raise _Bad(
                f"unexpected {_describe(args[1])} after /REGEX/",
                form + "; flags go inside the pattern, e.g. /(?i)passed/",
            )
        if not args:
            raise _Bad("matches needs a /REGEX/", form)
        raise _Bad("matches needs its REGEX between slashes", form)
    if verb == "empty":
        if not args:
            return EmptyClause(stream=stream)
        raise _Bad(f"unexpected {_describe(args[0])} after empty", f"write {stream} empty")
    raise _Bad(f"{_describe(verb_tok)} cannot follow {stream}", verbs)


_EXIT_WORDS = ("code", "status")  # `exit code N`, `exit status N`


def _synonym(toks: list[_Tok]) -> list[_Tok] | None:
    """The tokens of the canonical clause for an accepted synonym, or None:
    ``exits N``, ``exit code N`` and ``exit status N`` are ``exit N`` (also with ``!= N`` or
    ``nonzero``); ``empty`` alone is ``output empty``."""
    head = toks[0]
    if head.kind != "word":
        return None
    word = head.value.lower()
    if word == "exits":
        rest = toks[1:]
        if rest and rest[0].kind == "word" and rest[0].value.lower() in _EXIT_WORDS:
            rest = rest[1:]
        return [_Tok("word", "exit", head.pos, head.end), *rest]
    if word == "exit" and len(toks) > 2:
        second = toks[1]
        if second.kind == "word" and second.value.lower() in _EXIT_WORDS:
            return [head, *toks[2:]]
    if word == "empty" and len(toks) == 1:
        return [_Tok("word", "output", head.pos, head.pos), head]
    return None


def _parse_clause(toks: list[_Tok]) -> Clause:
    head, rest = toks[0], toks[1:]
    if head.kind != "word":
        raise _Bad(f"a clause cannot start with {_describe(head)}", "start it with a keyword")
    word = head.value.lower()
    if word == "exit":
        return _parse_exit(rest)
    if word == "prints":
        return _parse_prints(rest)
    if word in ("stdout", "stderr", "output"):
        return _parse_stream(Stream(word), rest)
    raise _Bad(
        f"unknown clause word {_describe(head)}",
        "start a clause with exit, prints, stdout, stderr or output",
    )


def parse(text: str, *, guess: bool) -> Expectation:
    """Parse any ``expected`` text (``parse_expected`` caches it); with ``guess``, an error
    suggests the valid clause nearest to a bad one."""
    if not text.strip():
        raise ExpectedSyntaxError(
            "expected is empty", column=1, hint=_hint("write at least one clause"), clause=""
        )
    raws = _split(text)
    clauses: list[Clause] = []
    rewrites: list[tuple[int, int, str]] = []
    for index, raw in enumerate(raws):
        if not raw.toks and raw.error is None:
            last = index == len(raws) - 1
            if last and index > 0 and raws[index - 1].sep in (";", ","):
                continue  # one trailing ";" (or ",") is tolerated
            if raw.sep:
                pos, reason = raw.sep_pos, f'empty clause before "{raw.sep}"'
            else:
                pos, reason = raws[index - 1].sep_pos, 'nothing after "and"'
            raise ExpectedSyntaxError(
                f"expected {_quote(text)}: {reason} at column {pos + 1}",
                column=pos + 1,
                hint=_hint("remove the extra separator"),
                clause="",
            )
        clause_text = text[raw.start : raw.end].strip()
        if raw.sep == ",":
            rewrites.append((raw.sep_pos, raw.sep_pos + 1, ";"))
        try:
            if raw.error is not None:
                raise _Bad(*raw.error)
            canonical = _synonym(raw.toks)
            clause = _parse_clause(canonical if canonical is not None else raw.toks)
            if canonical is not None:
                rewrites.append((raw.start, raw.end, format_clause(clause)))
            clauses.append(clause)
        except _Bad as bad:
            near = suggest(clause_text) if guess and bad.guess else None
            tip = f"did you mean `{near}`? {bad.tip}".rstrip() if near else bad.tip
            raise ExpectedSyntaxError(
                f"expected clause `{clause_text}` is not valid: {bad.reason}",
                column=raw.start + 1,
                hint=_hint(tip),
                clause=clause_text,
            ) from None
    return Expectation(tuple(clauses), tuple(rewrites))


def canonical_text(text: str) -> str:
    """``text`` with every accepted synonym and `,` separator written the canonical way;
    everything else as written. Raises ExpectedSyntaxError when it does not parse."""
    for start, end, new in sorted(parse_expected(text).rewrites, reverse=True):
        text = text[:start] + new + text[end:]
    return text


_TEMPLATES = (
    "exit 0",
    "exit != 0",
    "exit nonzero",
    'stdout contains "TEXT"',
    'stdout lacks "TEXT"',
    "stdout matches /REGEX/",
    "stdout empty",
    "output empty",
    'prints "TEXT"',
)
_STREAMS = ("stdout", "stderr", "output")
_KEYWORDS = ("exit", "prints", "stdout", "stderr", "output", "contains", "lacks", "matches")


_NEGATED = re.compile(
    r"(?i)(stdout|stderr|output)\s+(?:does\s*n[o']?t|doesnt|not|never|has\s+no|shows\s+no)\s+"
    r"(?:contains?|includes?|has|have|shows?|says?|prints?|mentions?)?\s*(.+)"
)
_AFFIRMED = re.compile(
    r"(?i)(stdout|stderr|output)\s+(?:has|have|includes?|shows?|says|mentions|prints?|contain)"
    r"\s+(.+)"
)
_PASSED = re.compile(r"(?i)(?:success|succeeds?|successful|pass(?:es)?|passed|ok|okay|green)")
_FAILED = re.compile(r"(?i)(?:fail(?:s|ure|ed)?|error|errors|red)")


def _said_otherwise(clause: str) -> list[str]:
    """Clauses that say what ``clause`` says in other words: `stdout has "x"` and `stdout
    includes "x"` mean contains, `stdout does not contain "x"` means lacks, `success` means
    exit 0. They come before any guess by spelling, which took `has` for `lacks` (the opposite
    of what was meant)."""
    text = clause.strip()
    if _PASSED.fullmatch(text):
        return ["exit 0"]
    if _FAILED.fullmatch(text):
        return ["exit nonzero"]
    for pattern, verb in ((_NEGATED, "lacks"), (_AFFIRMED, "contains")):
        found = pattern.fullmatch(text)
        if found is not None:
            said = found.group(2).strip()
            if not said.startswith('"'):
                said = _quote(said)
            return [f"{found.group(1).lower()} {verb} {said}"]
    return []


_NOTHING = re.compile(
    r"(?i)(?:no|without(?:\s+any)?|empty|nothing\s+(?:on|in))\s+(stdout|stderr|output)"
)
# an exit clause with more words after it: `exit 0 with no output`, `exits 0 but "ok"`
_EXIT_LEAD = re.compile(
    r"(?i)(exits?(?:\s+(?:code|status))?\s+(?:!=\s*)?(?:-?[0-9]+|nonzero))\s+"
    r"(?:(?:with|and|but|plus|then)\s+)?(.+)"
)


def suggest(clause: str) -> str | None:
    """The valid clause nearest to a clause that does not parse, for a "did you mean". An exit
    clause followed by more words is offered as two clauses, the exit clause as typed and what
    the words after it say (`exit 0 with no output`: `exit 0; output empty`), or the exit clause
    alone: the nearest template by spelling took it for `exit nonzero`, the opposite."""
    import difflib

    lead = _EXIT_LEAD.fullmatch(clause.strip())
    if lead is not None and not lead.group(2).lower().startswith("or "):  # exit 1 or 2
        head = _sound(lead.group(1))
        if head is not None:
            tail = _sound(lead.group(2)) or _meant(lead.group(2))
            return f"{head}; {tail}" if tail not in (None, head) else head
    near = _meant(clause)
    if near is not None:
        return near
    close = difflib.get_close_matches(clause.lower(), _TEMPLATES, n=1, cutoff=0.0)
    return close[0] if close else None


def _sound(text: str) -> str | None:
    """``text`` as one canonical clause, when it parses as one; else None."""
    try:
        expectation = parse(text, guess=False)
    except ExpectedSyntaxError:
        return None
    return format_clause(expectation.clauses[0]) if len(expectation.clauses) == 1 else None


def _meant(clause: str) -> str | None:
    """The one valid clause that ``clause`` says in other words or misspells; None when no
    such clause is plain."""
    import difflib

    words = clause.split()
    if not words:
        return None
    candidates: list[str] = _said_otherwise(clause)
    nothing = _NOTHING.fullmatch(clause.strip())
    if nothing is not None:  # no output, without any stderr
        candidates.append(f"{nothing.group(1).lower()} empty")
    if len(words) >= 2 and words[0].lower() in _STREAMS and words[1].startswith('"'):
        candidates.append(f"{words[0].lower()} contains {' '.join(words[1:])}")  # output "ok"
    glued = re.fullmatch(r"(?i)(exit|exits|prints)(-?[0-9]+)", words[0])
    if glued:  # exit0, prints0
        candidates.append(" ".join([glued.group(1), glued.group(2), *words[1:]]))
    for op in ("==", "=", "is"):  # exit == 0, exit is 0
        if len(words) >= 3 and words[0].lower() in ("exit", "exits") and words[1] == op:
            candidates.append(" ".join(["exit", *words[2:]]))
    if len(words) >= 2 and words[1].lower() in ("is", "==", "equals"):  # stdout is empty
        candidates.append(" ".join([words[0], *words[2:]]))
    fixed = []
    for word in words:  # a misspelt keyword: stdot, contians
        close = difflib.get_close_matches(word.lower(), _KEYWORDS, n=1, cutoff=0.75)
        fixed.append(close[0] if close and not word.startswith(('"', "/")) else word)
    candidates.append(" ".join(fixed))
    if len(words) == 3 and words[1].lower() in ("contains", "lacks"):  # unquoted TEXT
        candidates.append(f'{words[0]} {words[1]} "{words[2]}"')
    for candidate in candidates:
        if candidate == clause:
            continue
        sound = _sound(candidate)
        if sound is not None:
            return sound
    return None


# --------------------------------------------------------------------------- formatting


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _slashes(pattern: str) -> str:
    """Write ``pattern`` for use between slashes: a bare ``/`` becomes ``\\/``."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(pattern[i : i + 2])
            i += 2
            continue
        out.append("\\/" if c == "/" else c)
        i += 1
    return "".join(out)


def format_output_clause(c: TextClause | MatchClause | EmptyClause | PrintsClause) -> str:
    """The canonical text of a clause other than ``exit``: see
    :func:`goalfile.expect.format_clause`."""
    if isinstance(c, TextClause):
        return f"{c.stream} {'lacks' if c.negate else 'contains'} {_quote(c.text)}"
    if isinstance(c, MatchClause):
        return f"{c.stream} matches /{_slashes(c.pattern)}/"
    if isinstance(c, EmptyClause):
        return f"{c.stream} empty"
    if _INT.fullmatch(c.text):
        return f"prints {c.text}"
    return f"prints {_quote(c.text)}"


# --------------------------------------------------------------------------- evaluation


class TextCheck:
    """contains/lacks: a bounded overlap per stream, and the line of the first hit."""

    __slots__ = ("found", "lines", "needle", "pending", "tails")

    def __init__(self, clause: TextClause) -> None:
        self.needle = clause.text.encode("utf-8", "surrogatepass")
        sources = _SOURCES[clause.stream]
        self.tails = dict.fromkeys(sources, b"")
        self.found = dict.fromkeys(sources, not self.needle)
        self.lines: dict[str, bytes] = {}
        self.pending: set[str] = set()

    def feed(self, name: str, piece: bytes, partial: bytes, head: bytes | None) -> None:
        if name in self.pending and head is not None:
            self.lines[name] = head[:_EVIDENCE_BYTES]
            self.pending.discard(name)
        if self.found[name] or (name == "stderr" and self.found.get("stdout")):
            return
        tail = self.tails[name]
        buf = tail + piece if tail else piece
        i = buf.find(self.needle)
        if i < 0:
            keep = len(self.needle) - 1
            self.tails[name] = buf[max(0, len(buf) - keep) :] if keep else b""
            return
        self.found[name] = True
        self.tails[name] = b""
        e = i + len(self.needle) - 1 - len(tail)  # the hit's last byte, in piece
        r = piece.rfind(b"\n", 0, e)
        end = piece.find(b"\n", e)
        if end < 0:
            self.pending.add(name)  # the line goes on: take it when it ends
        elif r < 0:
            self.lines[name] = (partial + piece[:end])[: min(expect.LINE_LIMIT, _EVIDENCE_BYTES)]
        else:
            self.lines[name] = piece[r + 1 : min(end, r + 1 + _EVIDENCE_BYTES)]

    def result(self, tracks: dict[str, _Track]) -> tuple[str | None, str | None]:
        """(stream where TEXT was found, preferring stdout, or None; its evidence line)."""
        for name in self.found:
            if self.found[name]:
                if name in self.pending:
                    return name, _evidence(tracks[name].partial)
                line = self.lines.get(name)
                return name, None if line is None else _evidence(line)
        return None, None


class MatchCheck:
    """matches: block search over complete lines, each candidate confirmed on its line.

    With a ``guard`` (see :class:`~goalfile.expect.Evaluator`), a search that could backtrack
    without end goes through it: always for a pattern :mod:`goalfile.backtrack` finds
    exponential or with two ambiguous repeats, and for any pattern with a repeat without a bound
    when the text holds a line of :data:`LONG_LINE` characters or more (``/a*b/`` costs n^2
    steps on a line of n ``a``). Such blocks are gathered, up to :data:`GUARD_BATCH`
    characters, and searched together, so a check that prints little costs one guarded search
    per stream, when it ends. Where the guard can stop a search in this thread (``here``),
    every other search of a pattern with a repeat or alternatives goes through its timer, in
    case the reading is wrong; where it cannot (a thread of ``verify --jobs``), every such
    search goes to the guard's process."""

    __slots__ = (
        "always",
        "clause",
        "found",
        "guard",
        "lines",
        "linewise",
        "long_only",
        "pending",
        "pending_size",
        "rx_block",
        "rx_line",
        "timed",
    )

    def __init__(self, clause: MatchClause, *, guard: Guard | None = None) -> None:
        try:
            self.rx_line = _compile(clause.pattern)
            self.rx_block = _compile(clause.pattern, re.MULTILINE)
        except _Bad as bad:
            raise ExpectedSyntaxError(
                bad.reason, column=1, hint=_hint(bad.tip), clause=format_clause(clause)
            ) from None
        self.clause = clause
        self.linewise = re.search(_LINEWISE, clause.pattern) is not None
        self.found = dict.fromkeys(_SOURCES[clause.stream], False)
        self.lines: dict[str, str] = {}
        self.guard = guard
        self.always = self.long_only = self.timed = False
        if guard is not None:
            from goalfile.backtrack import MAY_BACKTRACK, analyse

            if re.search(MAY_BACKTRACK, clause.pattern):  # else one way per start: nothing to guard
                found = analyse(clause.pattern)
                self.always = (
                    found is None or found.exponential or found.ambiguous >= 2 or not guard.here
                )
                self.long_only = found is not None and found.repeats > 0
                self.timed = not self.always  # the reading may be wrong: a timer stops it
        self.pending: dict[str, list[str]] = {name: [] for name in self.found}
        self.pending_size = dict.fromkeys(self.found, 0)

    def search(self, name: str, block: str) -> None:
        if self.found[name] or (name == "stderr" and self.found.get("stdout")):
            return
        if self.always or (self.long_only and _has_long_line(block)):
            self.pending[name].append(block)
            self.pending_size[name] += len(block)
            if self.pending_size[name] >= GUARD_BATCH:
                self._flush(name, "")
            return
        if self.pending[name]:
            self._flush(name, "")
            if self.found[name]:
                return
        line = self._first_timed(name, block) if self.timed else self._first(block)
        if line is not None:
            self.found[name] = True
            self.lines[name] = line[:EVIDENCE_CHARS].rstrip()

    def _first_timed(self, name: str, block: str) -> str | None:
        """:meth:`_first`, here, stopped by the guard's timer when it outlives the row's time."""
        assert self.guard is not None

        def work() -> bytes:
            line = self._first(block)
            return b"" if line is None else b"1" + line.encode("utf-8", "surrogatepass")

        try:
            answer = self.guard.run_here(work)
        except expect.MatchTimedOut as exc:
            raise self._timed_out(name, exc) from None
        return answer[1:].decode("utf-8", "surrogatepass") if answer else None

    def _timed_out(self, name: str, exc: expect.MatchTimedOut) -> expect.MatchTimedOut:
        if exc.failed:
            return expect.MatchTimedOut(
                f"{format_clause(self.clause)}: the {name} could not be searched: {exc.failed}",
                failed=exc.failed,
            )
        return expect.MatchTimedOut(
            f"{format_clause(self.clause)}: the search of the {name} ran out of time "
            f"after {round(exc.seconds, 1):g}s ({exc.what}); the pattern can backtrack "
            "without end (repeats inside repeats, or ways that overlap): rewrite it so that "
            "each character can be matched one way only",
            seconds=exc.seconds,
            what=exc.what,
        )

    def _flush(self, name: str, partial: str) -> None:
        """Search the gathered blocks of ``name``, then ``partial`` (its unfinished last
        line), through the guard."""
        block = "\n".join(self.pending[name])
        self.pending[name] = []
        self.pending_size[name] = 0
        rx_line = self.rx_line

        def work() -> bytes:
            line = self._first(block) if block else None
            if line is None and partial and rx_line.search(partial):
                line = partial
            if line is None:
                return b""
            return b"1" + line[:EVIDENCE_CHARS].encode("utf-8", "surrogatepass")

        assert self.guard is not None
        try:
            answer = self.guard(work)
        except expect.MatchTimedOut as exc:
            raise self._timed_out(name, exc) from None
        if answer:
            self.found[name] = True
            self.lines[name] = answer[1:].decode("utf-8", "surrogatepass").rstrip()

    def _first(self, block: str) -> str | None:
        """The first line of ``block`` that the pattern matches, or None."""
        rx_line = self.rx_line
        if self.linewise:
            return next(filter(rx_line.search, block.split("\n")), None)
        pos = 0
        for _ in range(_MAX_MISSES):
            m = self.rx_block.search(block, pos)
            if m is None:
                return None
            start = block.rfind("\n", 0, m.start()) + 1
            end = block.find("\n", m.start())
            line = block[start:] if end < 0 else block[start:end]
            if rx_line.search(line):
                return line
            if end < 0:
                return None
            pos = end + 1  # a match across lines: not a hit, go on after it
        # Many matches across lines (e.g. /\s$/ over blank lines): go line by line, in C.
        return next(filter(rx_line.search, block[pos:].split("\n")), None)

    def result(self, tracks: dict[str, _Track]) -> tuple[str | None, str | None]:
        for name in self.found:
            if self.found[name]:
                return name, self.lines[name]
            partial = tracks[name].partial
            last = partial.decode("utf-8", "replace") if partial else ""
            if self.pending[name] or (
                last and (self.always or (self.long_only and len(last) >= LONG_LINE))
            ):
                self._flush(name, last)
                if self.found[name]:
                    return name, self.lines[name]
                continue
            if last and self.timed:
                line = self._first_timed(name, last)
                if line is not None:
                    return name, last[:EVIDENCE_CHARS].rstrip()
            elif last and self.rx_line.search(last):
                return name, last[:EVIDENCE_CHARS].rstrip()
        return None, None


LONG_LINE = 2048
"""Characters from which a line counts as long for a pattern with a repeat (see
:class:`MatchCheck`); every line of twice as many is found so."""

GUARD_BATCH = 1 << 20
"""Characters of complete lines gathered for one guarded search."""


def _has_long_line(block: str) -> bool:
    """Whether ``block`` holds a line of :data:`LONG_LINE` characters or more: sure for one of
    twice as many (it covers a whole window), at one search per window of the block."""
    if len(block) < LONG_LINE:
        return False
    return any(
        block.find("\n", start, start + LONG_LINE) < 0
        for start in range(0, len(block) - LONG_LINE + 1, LONG_LINE)
    )


class PrintsCheck:
    """prints: skip leading whitespace, keep len(TEXT) + LINE_LIMIT bytes, then only look."""

    __slots__ = ("buf", "cap", "over", "started", "want")

    def __init__(self, clause: PrintsClause) -> None:
        self.want = clause.text.encode("utf-8", "surrogatepass")
        self.cap = len(self.want) + expect.LINE_LIMIT
        self.buf = bytearray()
        self.started = False
        self.over = False  # non-whitespace arrived beyond the cap: cannot equal TEXT

    def feed(self, piece: bytes) -> None:
        if self.over:
            return
        if not self.started:
            piece = piece.lstrip()
            if not piece:
                return
            self.started = True
        room = self.cap - len(self.buf)
        if room > 0:
            self.buf += piece[:room]
            piece = piece[room:]
        if piece and not piece.isspace():
            self.over = True

    def failure(self) -> str | None:
        got = bytes(self.buf).rstrip()
        if not self.over and got == self.want:
            return None
        if not got:
            shown = "nothing"
        else:
            text = got.decode("utf-8", "replace")
            first = text.split("\n", 1)[0]
            cut = self.over or len(first) > 60 or len(first) < len(text)
            first = "".join(ch if ch.isprintable() else "\ufffd" for ch in first[:60])
            shown = _quote(first) + ("…" if cut else "")
        return f"prints {_quote(self.want.decode('utf-8', 'surrogatepass'))} expected, got {shown}"
