"""Tests for goalfile.expect: the `expected` language (DESIGN §3) and its streaming evaluator."""

from __future__ import annotations

import itertools
import re
import tracemalloc
from collections.abc import Iterable, Sequence
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import expect
from goalfile.errors import GoalFileInvalid
from goalfile.expect import (
    Evaluator,
    ExitClause,
    Expectation,
    ExpectedSyntaxError,
    Judgement,
    Stream,
    format_clause,
    format_expected,
    parse_expected,
)
from goalfile.expecttext import (
    EmptyClause,
    MatchClause,
    PrintsClause,
    TextClause,
    can_match_empty,
    empty_match_on_probes,
    matches_almost_any_character,
)

OUT, ERR, ANY = Stream.STDOUT, Stream.STDERR, Stream.OUTPUT
WS = " \t\n\r\x0b\x0c"


def judge(
    expected: str | Expectation,
    stdout: bytes | Sequence[bytes] = b"",
    stderr: bytes | Sequence[bytes] = b"",
    status: int | None = 0,
) -> Judgement:
    """Feed stdout (then stderr), each as one bytes or as a list of chunks."""
    e = parse_expected(expected) if isinstance(expected, str) else expected
    ev = Evaluator(e)
    for name, data in (("stdout", stdout), ("stderr", stderr)):
        for chunk in [data] if isinstance(data, bytes) else data:
            ev.feed(name, chunk)  # type: ignore[arg-type]
    return ev.finish(status)


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "clauses"),
    [
        ("exit 0", (ExitClause(op="==", value=0),)),
        ("exit 255", (ExitClause(op="==", value=255),)),
        ("exit 007", (ExitClause(op="==", value=7),)),
        ("exit != 1", (ExitClause(op="!=", value=1),)),
        ("exit nonzero", (ExitClause(op="nonzero", value=None),)),
        ("EXIT NonZero", (ExitClause(op="nonzero", value=None),)),
        ('stdout contains "passed"', (TextClause(stream=OUT, text="passed", negate=False),)),
        ('STDERR Lacks "Error"', (TextClause(stream=ERR, text="Error", negate=True),)),
        ('output contains"x"', (TextClause(stream=ANY, text="x", negate=False),)),
        ("stdout matches /^\\d+ passed$/", (MatchClause(stream=OUT, pattern="^\\d+ passed$"),)),
        ("Output MATCHES /(?i)ok/", (MatchClause(stream=ANY, pattern="(?i)ok"),)),
        ("stderr empty", (EmptyClause(stream=ERR),)),
        ("output EMPTY", (EmptyClause(stream=ANY),)),
        ('prints "hello world"', (PrintsClause(text="hello world"),)),
        ('prints ""', (PrintsClause(text=""),)),
        ("prints 42", (PrintsClause(text="42"),)),
        ("prints -3", (PrintsClause(text="-3"),)),
        ("prints 007", (PrintsClause(text="007"),)),
        ("  exit\t0  ", (ExitClause(op="==", value=0),)),
    ],
)
def test_each_clause_form(text: str, clauses: tuple[object, ...]) -> None:
    assert parse_expected(text) == Expectation(clauses)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        'exit 0; stdout contains "ok"',
        'exit 0;stdout contains "ok"',
        'exit 0 and stdout contains "ok"',
        'exit 0 AND stdout contains "ok"',
        'exit 0\tand\tstdout contains "ok"',
        'exit 0 ; stdout contains "ok";',  # one trailing ";" is tolerated
        'exit 0; stdout contains "ok"; ',
    ],
)
def test_separators(text: str) -> None:
    assert parse_expected(text).clauses == (
        ExitClause(op="==", value=0),
        TextClause(stream=OUT, text="ok", negate=False),
    )


def test_separators_inside_quotes_and_regex_do_not_split() -> None:
    e = parse_expected(
        'stdout contains "rock and roll; twice" and stderr matches /a and b; c/ ; exit 0'
    )
    assert e.clauses == (
        TextClause(stream=OUT, text="rock and roll; twice", negate=False),
        MatchClause(stream=ERR, pattern="a and b; c"),
        ExitClause(op="==", value=0),
    )


def test_and_needs_whitespace_on_both_sides() -> None:
    # `sand`, `andy` are words, not separators; the clause is then invalid, not split.
    with pytest.raises(ExpectedSyntaxError):
        parse_expected("exit 0 andy stdout empty")
    assert len(parse_expected("exit 0 and stdout empty").clauses) == 2


def test_escapes_in_quoted_text() -> None:
    (c,) = parse_expected(r'stdout contains "say \"hi\" C:\\dir"').clauses
    assert c == TextClause(stream=OUT, text='say "hi" C:\\dir', negate=False)


def test_regex_slash_escape_and_backslashes() -> None:
    (c,) = parse_expected(r"stdout matches /a\/b\d\\/").clauses
    assert c == MatchClause(stream=OUT, pattern="a/b\\d\\\\")
    assert re.search(c.pattern, "xa/b7\\")
    # A quote inside a regex and a slash inside quoted text are plain characters.
    assert parse_expected('stdout matches /"/; stdout contains "a/b"').clauses == (
        MatchClause(stream=OUT, pattern='"'),
        TextClause(stream=OUT, text="a/b", negate=False),
    )


def test_match_clause_stores_escaped_slash_as_slash() -> None:
    assert MatchClause(stream=OUT, pattern=r"a\/b") == MatchClause(stream=OUT, pattern="a/b")
    assert MatchClause(stream=OUT, pattern=r"a\\/b").pattern == r"a\\/b"


def test_expectation_properties() -> None:
    e = parse_expected("exit 127; exit != 126; exit nonzero; stdout empty")
    assert e.has_exit_clause
    assert e.named_exit_statuses == frozenset({126, 127})
    plain = parse_expected('stdout contains "x"')
    assert not plain.has_exit_clause
    assert plain.named_exit_statuses == frozenset()


@pytest.mark.parametrize(
    ("text", "column", "quoted"),
    [
        ("", 1, ""),
        ("   ", 1, ""),
        (";", 1, ""),
        ("; exit 0", 1, ""),
        ("exit 0;; stdout empty", 8, ""),
        ("exit 0; ; stdout empty", 9, ""),
        ("exit 0 and", 8, ""),
        ("exit 0 and ", 8, ""),
        ("exit 0 and ; stdout empty", 12, ""),
        ("foo", 1, "`foo`"),
        ("exit 0; bogus clause", 9, "`bogus clause`"),
        ("and exit 0", 1, "`and exit 0`"),
        ("exit", 1, "`exit`"),
        ("exit zero", 1, "`exit zero`"),
        ("exit 0 1", 1, "`exit 0 1`"),
        ("exit 256", 1, "`exit 256`"),
        ("exit -1", 1, "`exit -1`"),
        ("exit == 0", 1, "`exit == 0`"),
        ("exit !=0", 1, "`exit !=0`"),
        ("exit 0 and stdout", 12, "`stdout`"),
        ('stdout has "x"', 1, '`stdout has "x"`'),
        ("stdin empty", 1, "`stdin empty`"),
        ("exit 0; stdout contains passed", 9, "`stdout contains passed`"),
        ('stdout contains ""', 1, '`stdout contains ""`'),
        ('stdout lacks "a" "b"', 1, '`stdout lacks "a" "b"`'),
        ('stdout contains "abc', 1, '`stdout contains "abc`'),
        ('exit 0; stderr lacks "x\\', 9, '`stderr lacks "x\\`'),
        ('stdout contains "a\\nb"', 1, '`stdout contains "a\\nb"`'),
        ("exit 0 and stdout matches /abc", 12, "`stdout matches /abc`"),
        ("stdout matches /[/", 1, "`stdout matches /[/`"),
        ("stdout matches /(/; exit 0", 1, "`stdout matches /(/`"),
        ("stdout matches //", 1, "`stdout matches //`"),
        ("stdout matches /x/i", 1, "`stdout matches /x/i`"),
        ('stdout matches "x"', 1, '`stdout matches "x"`'),
        ("stdout matches x", 1, "`stdout matches x`"),
        ("stdout empty now", 1, "`stdout empty now`"),
        ("prints", 1, "`prints`"),
        ("prints hello", 1, "`prints hello`"),
        ("prints 4.2", 1, "`prints 4.2`"),
        ('prints " padded"', 1, '`prints " padded"`'),
        ('prints "a" "b"', 1, '`prints "a" "b"`'),
        ('"x"', 1, '`"x"`'),
        ('exit 0;   stdout  bogus "x y" ; exit 1', 11, '`stdout  bogus "x y"`'),
    ],
)
def test_syntax_errors(text: str, column: int, quoted: str) -> None:
    with pytest.raises(ExpectedSyntaxError) as info:
        parse_expected(text)
    err = info.value
    assert isinstance(err, GoalFileInvalid)
    assert err.column == column
    assert err.file is None and err.line is None
    assert quoted in err.message
    if quoted:
        assert err.clause == quoted[1:-1]
    assert err.hint is not None
    for form in ("exit N", "exit != N", "exit nonzero", 'STREAM contains "TEXT"',
                 'STREAM lacks "TEXT"', "STREAM matches /REGEX/", "STREAM empty",
                 'prints "TEXT"', "prints N"):  # fmt: skip
        assert form in err.hint


def test_syntax_error_reports_first_bad_clause() -> None:
    with pytest.raises(ExpectedSyntaxError) as info:
        parse_expected('exit 0; nope; stdout contains "unterminated')
    assert info.value.column == 9
    assert "`nope`" in info.value.message


# Patterns that can make a match of zero characters somewhere in some line. Each cannot fail
# in practice: `stdout matches /\b/` holds on "0 passed, 3 FAILED".
ZERO_WIDTH = [
    "^", ".*", "x*", "$", "(?i)", "a|", "^\\s*$", "(?=)", "(?:)",
    "\\b", "\\B", "(?<=.)", "(?=.)", "(?m)^", "(?m)$", "\\A", "\\Z", "(?!x)", "(?<!x)",
    "a*", "x?", "(|a)", "a{0}", "a{0,3}", "(?>a*)", "a*+", "(a*)\\1", "(a)?(?(1)a|)",
    "(a)?(?(1)a)", "\\bFAILED?\\b|",
    "(?=FAILED)", "(?<=passed)", "x*(?=y)",
]  # fmt: skip
# Patterns that take at least one character in every match they can make.
CONSUMING = [
    "^ok$", "\\d+ passed", "a", ".", "x+", "(a)\\1", "(a)?\\1", "(a)?(?(1)a|b)", "\\bok\\b",
    "(?=a)a", "x(?=y)", "(?<=x)y", "(?i)ok", "[ab]c", "a{1,}", "(?s:.)", "^\\s*ok\\r?$",
    "(?>a+)", "a++", "^mytool 1\\.4\\.0$",
]  # fmt: skip


# The minimum width errs low for a conditional: `(a)?(?(1)|b)` always takes `a` or `b`, but
# is refused as if its empty branch could match alone (rewrite it as `a|b`).
@pytest.mark.parametrize("pattern", [*ZERO_WIDTH, "(a)?(?(1)|b)"])
def test_a_regex_that_can_match_zero_characters_is_an_error(pattern: str) -> None:
    with pytest.raises(ExpectedSyntaxError, match="can match zero characters"):
        parse_expected(f"exit 0; stdout matches /{pattern}/")


# Patterns that take a character, but one of almost any kind: refused by their own rule.
ANY_CHARACTER = [".", "(?s:.)", "[\\s\\S]", "[^\\n]", "[^]]", ".{1}", "\\S", "[^x]"]


@pytest.mark.parametrize("pattern", [p for p in CONSUMING if p not in ANY_CHARACTER])
def test_a_regex_that_takes_a_character_in_every_match_is_accepted(pattern: str) -> None:
    assert parse_expected(f"exit 0; stdout matches /{pattern}/").clauses


@pytest.mark.parametrize("pattern", ANY_CHARACTER)
def test_a_regex_that_almost_any_character_satisfies_is_an_error(pattern: str) -> None:
    assert not can_match_empty(re.compile(pattern))
    with pytest.raises(ExpectedSyntaxError, match="matches almost any single character"):
        parse_expected(f"exit 0; stdout matches /{pattern}/")


# Patterns that take a run of characters of almost any kind: every failing run prints a line
# that long (`stdout matches /../` verified `0 passed, 3 FAILED` as met).
ANY_RUN = [
    "..",
    ".{2,}",
    "[\\s\\S]{3}",
    "[^x]{2}",
    "(.)\\1*.",
    ".(?<=.).",
    "\\S\\S|\\s\\s|.\\s|\\s.",
    ".{64}",
]


@pytest.mark.parametrize("pattern", ANY_RUN)
def test_a_regex_that_a_run_of_almost_any_character_satisfies_is_an_error(pattern: str) -> None:
    assert not can_match_empty(re.compile(pattern))
    assert not any(re.search(pattern, char) for char in "a]0 ")  # one character: none
    with pytest.raises(ExpectedSyntaxError, match="matches almost any"):
        parse_expected(f"exit 0; stdout matches /{pattern}/")


@pytest.mark.parametrize(
    "pattern", ["\\d\\d", "[a-z]{3}", "\\w\\w", "..\\.", "\\S+ passed", ".{65}"]
)
def test_a_regex_for_a_run_you_expect_is_accepted(pattern: str) -> None:
    assert parse_expected(f"exit 0; stdout matches /{pattern}/").clauses


@pytest.mark.parametrize(
    ("pattern", "empty"), [*((p, True) for p in ZERO_WIDTH), *((p, False) for p in CONSUMING)]
)
def test_the_fallback_without_re_parser_agrees(pattern: str, empty: bool) -> None:
    # the parser's minimum width is private to `re`; where it is missing, the probe lines
    # decide, and they decide these patterns the same way
    assert can_match_empty(re.compile(pattern)) is empty
    assert empty_match_on_probes(re.compile(pattern)) is empty


_ATOMS = st.sampled_from(
    ["a", "b", ".", "\\d", "\\s", "[ab]", "\\b", "\\B", "^", "$", "(?=a)", "(?!a)",
     "(?<=a)", "(?<!b)", "\\1"]
)  # fmt: skip


@st.composite
def _regexes(draw: st.DrawFn, depth: int = 0) -> str:
    pieces = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 3 if depth < 2 else 0))
        if kind == 0:
            piece = draw(_ATOMS)
        elif kind == 1:
            piece = "(" + draw(_regexes(depth + 1)) + ")"
        elif kind == 2:
            piece = "(?:" + draw(_regexes(depth + 1)) + "|" + draw(_regexes(depth + 1)) + ")"
        else:
            piece = (
                "("
                + draw(_regexes(depth + 1))
                + ")"
                + draw(st.sampled_from(["*", "+", "?", "{0,2}", "{2}", "*?", "+?"]))
            )
        pieces.append(piece)
    return "".join(pieces)


@settings(max_examples=400, deadline=None)
@given(_regexes(), st.lists(st.text("ab \n", max_size=6), min_size=1, max_size=4))
def test_a_pattern_let_through_never_makes_an_empty_match(pattern: str, lines: list[str]) -> None:
    try:
        compiled = re.compile(pattern)
    except re.error:
        return  # (a reference to a group not yet closed)
    if can_match_empty(compiled):
        return
    for line in [*lines, "a", "ab", "ba b", " "]:
        for found in compiled.finditer(line):
            assert found.end() > found.start(), (pattern, line)


def test_invalid_regex_message_names_the_problem() -> None:
    with pytest.raises(ExpectedSyntaxError) as info:
        parse_expected("stdout matches /a{2,1}/")
    assert "invalid regular expression" in info.value.message
    assert "\\/" in (info.value.hint or "")


def test_flags_hint() -> None:
    with pytest.raises(ExpectedSyntaxError) as info:
        parse_expected("stdout matches /x/i")
    assert "(?i)" in (info.value.hint or "")


def test_format() -> None:
    e = Expectation(
        (
            ExitClause(op="==", value=0),
            ExitClause(op="!=", value=2),
            ExitClause(op="nonzero", value=None),
            TextClause(stream=OUT, text='a "b" \\ c', negate=False),
            TextClause(stream=ANY, text="x", negate=True),
            MatchClause(stream=ERR, pattern="a/b\\/c"),
            EmptyClause(stream=ANY),
            PrintsClause(text="42"),
            PrintsClause(text="4 2"),
        )
    )
    assert format_expected(e) == (
        'exit 0; exit != 2; exit nonzero; stdout contains "a \\"b\\" \\\\ c"; '
        'output lacks "x"; stderr matches /a\\/b\\/c/; output empty; prints 42; prints "4 2"'
    )
    assert format_clause(PrintsClause(text="-7")) == "prints -7"


# --------------------------------------------------------------------------- round trip

_TRICKY = ['"', "\\", ";", " and ", "AND", "/", "\\/", "\n", "\t", " ", "é", "\x00", "a", "\\\\"]
_texts = st.one_of(st.text(max_size=12), st.lists(st.sampled_from(_TRICKY)).map("".join))
_streams = st.sampled_from(list(Stream))


def _compiles(p: str) -> bool:
    try:
        re.compile(p)
    except (re.error, OverflowError, RecursionError, ValueError):
        return False
    return True


_patterns = st.one_of(
    st.text(min_size=1, max_size=10),
    st.lists(
        st.sampled_from([*_TRICKY, "\\d", "[/]", "(?i)", "+", "^", "$", "(a|b)"]), min_size=1
    ).map("".join),
).filter(
    # a pattern the language refuses (it matches the empty line, or almost any character)
    # has no clause to round-trip
    lambda p: (
        p != ""
        and _compiles(p)
        and re.search(p, "") is None
        and not matches_almost_any_character(re.compile(p))
    )
)

_clauses = st.one_of(
    st.builds(ExitClause, op=st.sampled_from(["==", "!="]), value=st.integers(0, 255)),
    st.just(ExitClause(op="nonzero", value=None)),
    st.builds(TextClause, stream=_streams, text=_texts.filter(bool), negate=st.booleans()),
    st.builds(MatchClause, stream=_streams, pattern=_patterns),
    st.builds(EmptyClause, stream=_streams),
    st.builds(PrintsClause, text=_texts.filter(lambda t: t == t.strip(WS))),
    st.builds(PrintsClause, text=st.integers().map(str)),
)
_expectations = st.lists(_clauses, min_size=1, max_size=5).map(lambda cs: Expectation(tuple(cs)))


@settings(max_examples=300)
@given(_expectations)
def test_round_trip(e: Expectation) -> None:
    text = format_expected(e)
    assert parse_expected(text) == e
    # Keywords are case-insensitive: upper-casing every keyword gives the same value.
    shouted = "; ".join(_shout(format_clause(c)) for c in e.clauses)
    assert parse_expected(shouted) == e


def _shout(clause: str) -> str:
    words = clause.split(" ", 2)
    keywords = {"exit", "nonzero", "stdout", "stderr", "output", "contains", "lacks",
                "matches", "empty", "prints"}  # fmt: skip
    return " ".join(w.upper() if w in keywords else w for w in words[:2]) + (
        " " + words[2] if len(words) > 2 else ""
    )


# --------------------------------------------------------------------------- evaluation


def test_exit_clauses() -> None:
    assert judge("exit 0", status=0).holds
    j = judge("exit 0", status=1)
    assert not j.holds and j.failures == ("exit 0 expected, got 1",)
    assert judge("exit != 2", status=0).holds
    assert judge("exit != 2", status=2).failures == ("exit != 2 expected, got 2",)
    assert judge("exit nonzero", status=3).holds
    assert judge("exit nonzero", status=0).failures == ("exit nonzero expected, got 0",)
    assert judge("exit 137", status=137).holds  # a signal, passed as 128+N


def test_exit_none_fails_exit_clauses_only() -> None:
    j = judge('exit nonzero; stdout contains "x"', stdout=b"x\n", status=None)
    assert not j.holds
    assert j.failures == ("exit nonzero expected, got no exit status",)
    assert judge('stdout contains "x"', stdout=b"x", status=None).holds


def test_without_exit_clause_status_is_not_judged() -> None:
    assert judge("stdout empty", status=1).holds
    assert judge("stdout empty", status=127).holds


def test_contains_and_lacks_per_stream() -> None:
    assert judge('stdout contains "ok"', stdout=b"all ok\n").holds
    j = judge('stdout contains "ok"', stderr=b"ok\n")
    # unittest prints its "OK" on stderr: the reason says where the text is
    assert j.failures == (
        'stdout contains "ok": not found in stdout, but in stderr (`output contains` reads both)',
    )
    assert judge('stderr contains "ok"', stdout=b"o", stderr=b"k").failures == (
        'stderr contains "ok": not found',
    )
    assert judge('stderr contains "ok"', stderr=b"ok\n").holds
    assert judge('output contains "ok"', stderr=b"ok\n").holds
    assert judge('output contains "ok"', stdout=b"ok\n").holds
    assert judge('output contains "ok"', stdout=b"o", stderr=b"k").failures == (
        'output contains "ok": not found',
    )
    assert judge('stdout lacks "bad"', stderr=b"bad\n").holds
    assert judge('stdout lacks "bad"', stdout=b"x bad y\n").failures == (
        'stdout lacks "bad": found in stdout',
    )
    assert judge('output lacks "bad"', stderr=b"bad\n").failures == (
        'output lacks "bad": found in stderr',
    )
    # Found in both: stdout is named, and its line is the evidence, whichever came first.
    ev = Evaluator(parse_expected('output lacks "bad"'))
    ev.feed("stderr", b"bad err\n")
    ev.feed("stdout", b"bad out\n")
    assert ev.finish(0) == Judgement(
        holds=False, failures=('output lacks "bad": found in stdout',), evidence="bad out"
    )
    # Case matters in TEXT.
    assert not judge('stdout contains "OK"', stdout=b"ok").holds


def test_contains_searches_the_whole_stream_not_a_tail() -> None:
    data = [b"needle at the start\n"] + [b"x" * 65536] * 40
    assert judge('stdout contains "needle"', stdout=data).holds
    assert judge('stdout lacks "needle"', stdout=data).failures == (
        'stdout lacks "needle": found in stdout',
    )


@pytest.mark.parametrize("cut", range(1, 6))
def test_text_straddling_a_chunk_boundary(cut: int) -> None:
    data = b"xx passed yy\n"
    start = data.index(b"passed")
    chunks = [data[: start + cut], data[start + cut :]]
    j = judge('stdout contains "passed"', stdout=chunks)
    assert j.holds and j.evidence == "xx passed yy"
    j = judge('stdout lacks "passed"', stdout=chunks)
    assert (
        j.failures == ('stdout lacks "passed": found in stdout',) and j.evidence == "xx passed yy"
    )


def test_text_straddling_many_one_byte_chunks_and_multibyte_text() -> None:
    data = "→ café ✓\n".encode()
    assert judge('stdout contains "café ✓"', stdout=[bytes([b]) for b in data]).holds
    assert not judge('stdout contains "cafe"', stdout=[bytes([b]) for b in data]).holds


def test_text_with_a_newline_in_it() -> None:
    e = Expectation((TextClause(stream=OUT, text="a\nb", negate=True),))
    j = judge(e, stdout=[b"x a", b"\nb y\n"])
    assert j.failures == ('stdout lacks "a\nb": found in stdout',)
    assert j.evidence == "b y"  # the line holding the text's last byte


def test_matches_is_per_line() -> None:
    assert judge("stdout matches /^\\d+ passed$/", stdout=b"collected\n12 passed\n").holds
    assert not judge("stdout matches /a.*b/", stdout=b"a\nb\n").holds
    assert not judge("stdout matches /a\\sb/", stdout=b"a\nb\n").holds
    assert not judge("stdout matches /\\s$/", stdout=b"a\n\nb\n").holds
    # (a pattern that matches the empty line is refused by the parser; the evaluator still
    # judges one built in code: no lines at all is no match)
    blank = Expectation((MatchClause(stream=OUT, pattern="^$"),))
    assert judge(blank, stdout=b"a\n\nb\n").holds
    assert not judge(blank, stdout=b"a\nb\n").holds
    assert not judge(blank, stdout=b"").holds
    assert judge("stdout matches /b$/", stdout=b"a\nb").holds  # last line without newline
    # Anchors and lookarounds see one line, not its neighbours.
    assert judge("stdout matches /\\Aab/", stdout=b"x\nab\n").holds
    assert judge("stdout matches /x\\Z/", stdout=b"ax\nb\n").holds
    assert judge("stdout matches /(?<!x)b/", stdout=b"x\nb\n").holds
    assert judge("stdout matches /a(?!\\s)/", stdout=b"a\nb\n").holds
    assert not judge("stdout matches /(?<=\\n)b/", stdout=b"a\nb\n").holds
    # Many block matches across lines before the real one (the line-by-line fallback).
    for blanks in (15, 16, 17, 100):
        j = judge("stdout matches /\\s$/", stdout=b"\n" * blanks + b"end \nlast\n")
        assert j.holds and j.evidence == "end"
    assert not judge("stdout matches /\\s$/", stdout=[b"\n" * 100 + b"end\n"] * 3).holds
    # \r stays part of the line.
    assert not judge("stdout matches /ok$/", stdout=b"ok\r\n").holds
    assert judge("stdout matches /ok\\r$/", stdout=b"ok\r\n").holds


def test_matches_per_stream() -> None:
    assert not judge("stdout matches /E\\d/", stderr=b"E1\n").holds
    j = judge("output matches /E\\d/", stdout=b"fine\n", stderr=b"warn\nE1 boom\n")
    assert j.holds and j.evidence == "E1 boom"
    j = judge("output matches /E\\d/", stdout=b"E2 first\n", stderr=b"E1 boom\n")
    assert j.evidence == "E2 first"
    for out in (b"E2 out\n", b"E2 out"):  # stdout's line wins even when stderr came first
        ev = Evaluator(parse_expected("output matches /E\\d/"))
        ev.feed("stderr", b"E1 err\n")
        ev.feed("stdout", out)
        assert ev.finish(0).evidence == "E2 out"
    assert judge("stderr matches /nope/", stderr=b"x").failures == (
        "stderr matches /nope/: no line matches",
    )
    assert judge("output matches /a\\/b/").failures == ("output matches /a\\/b/: no line matches",)


def test_empty_is_whitespace_only() -> None:
    assert judge("stdout empty").holds
    assert judge("stdout empty", stdout=b" \n\t\r\n\x0b\x0c").holds
    assert judge("stdout empty", stderr=b"noise").holds
    assert judge("stdout empty", stdout=b"\n\n.").failures == ("stdout empty: stdout is not",)
    assert judge("stdout empty", stdout=b"\x00").failures == ("stdout empty: stdout is not",)
    assert judge("output empty", stdout=b"\n", stderr=b"  ").holds
    assert judge("output empty", stderr=b"x").failures == ("output empty: stderr is not",)
    assert judge("stderr empty", stderr=[b" "] * 10 + [b"x"]).failures == (
        "stderr empty: stderr is not",
    )


def test_prints() -> None:
    assert judge("prints 42", stdout=b"42").holds
    assert judge("prints 42", stdout=b"\n  42 \n\n").holds
    assert judge("prints 42", stdout=[b" ", b"4", b"2", b"\n"]).holds
    assert judge("prints 42", stderr=b"42").failures == ('prints "42" expected, got nothing',)
    assert judge("prints 42", stdout=b"420\n").failures == ('prints "42" expected, got "420"',)
    assert judge("prints 42", stdout=b"4 2").failures == ('prints "42" expected, got "4 2"',)
    assert judge('prints "a b\nc"', stdout=b" a b\nc\n").holds
    assert judge('prints "a b\nc"', stdout=b"a b\nd\n").failures == (
        'prints "a b\nc" expected, got "a b"…',
    )
    assert judge('prints ""', stdout=b" \n").holds
    assert not judge('prints ""', stdout=b"x").holds
    assert judge('prints "é"', stdout="é\n".encode()).holds


def test_prints_with_huge_output() -> None:
    spaces = [b" \n" * 32768] * 20  # 1.3 MB of whitespace around the value
    assert judge("prints 42", stdout=[*spaces, b"42", *spaces]).holds
    j = judge("prints 42", stdout=[b"42\n", *spaces, b"x"])
    assert j.failures == ('prints "42" expected, got "42"…',)
    j = judge("prints 42", stdout=[b"4" * 65536] * 4)
    assert len(j.failures) == 1 and j.failures[0].endswith("…")


def test_invalid_utf8_nul_and_control_bytes_never_raise() -> None:
    data = b"\xff\xfe\x00 ok \x1b[31mred\x07\n\xc3\n\xc3\xa9t\xe9\n"
    j = judge('stdout contains "ok"; stdout matches /t.$/; stdout lacks "\x00x"', stdout=data)
    assert j.holds
    assert j.evidence == "\ufffd\ufffd\x00 ok \x1b[31mred\x07"
    assert judge("stdout matches /^\\x00/", stdout=b"\x00\n").holds
    assert judge("stdout matches /\ufffd/", stdout=b"\x80\n").holds
    j = judge("exit 0", stdout=b"\xe9\xff", status=1)
    assert j.evidence == "\ufffd\ufffd"
    # Every way of splitting does the same.
    for size in (1, 2, 3, 5):
        chunks = [data[i : i + size] for i in range(0, len(data), size)]
        expected = 'stdout contains "ok"; stdout matches /t.$/; stdout lacks "\x00x"'
        assert judge(expected, stdout=chunks) == judge(expected, stdout=data)


def test_long_lines_only_first_64k_is_used_for_matches_and_evidence() -> None:
    limit = expect.LINE_LIMIT
    line = b"x" * (limit + 10) + b" needle\n"
    splits = [
        [line],
        [line[:100], line[100:]],
        [line[i : i + 7000] for i in range(0, len(line), 7000)],
    ]
    for chunks in splits:
        j = judge('stdout contains "needle"; stdout matches /needle/', stdout=chunks)
        assert j.failures == ("stdout matches /needle/: no line matches",)
        assert j.evidence == "x" * 300
        assert judge("stdout matches /^x{65536}$/", stdout=chunks).holds
    # A line exactly at the limit is used whole.
    exact = b"y" * (limit - 7) + b"needle\n"
    assert judge("stdout matches /needle$/", stdout=[exact[:5], exact[5:]]).holds


def test_evidence_decisive_lacks_line() -> None:
    out = b"start\nan ERROR here\nmore\nlast line\n"
    j = judge('exit 0; stdout lacks "ERROR"; stdout contains "start"', stdout=out, status=1)
    assert j.failures == ("exit 0 expected, got 1", 'stdout lacks "ERROR": found in stdout')
    assert j.evidence == "an ERROR here"


def test_evidence_lacks_line_completed_by_later_chunks() -> None:
    chunks = [b"first\nbegin ERR", b"OR middle", b" end\nafter\n"]
    j = judge('stdout lacks "ERROR"', stdout=chunks)
    assert j.evidence == "begin ERROR middle end"
    j = judge('stdout lacks "ERROR"', stdout=[b"first\nbegin ERR", b"OR unterminated"])
    assert j.evidence == "begin ERROR unterminated"
    j = judge('stderr lacks "boom"', stdout=b"out\n", stderr=[b"a\nx", b"boom", b"y\nz"])
    assert j.evidence == "xboomy"


def test_evidence_first_hit_when_row_holds() -> None:
    out = b"collected 3 items\n3 passed in 0.1s\nbye\n"
    j = judge('stdout matches /\\d+ passed/; stdout contains "collected"', stdout=out)
    assert j.holds and j.evidence == "3 passed in 0.1s"
    j = judge('exit 0; stdout contains "collected"; stdout matches /passed/', stdout=out)
    assert j.evidence == "collected 3 items"
    j = judge('output contains "warn"', stdout=b"a\n", stderr=b"x\nwarn: y\nz\n")
    assert j.evidence == "warn: y"


def test_evidence_falls_back_to_last_non_blank_line() -> None:
    out = b"one\ntwo  \n\n   \n"
    assert judge("exit 0", stdout=out).evidence == "two"  # holds, but no contains/matches
    assert judge("exit 0", stdout=out, status=2).evidence == "two"
    j = judge('stdout contains "nope"', stdout=out, stderr=b"err line\n")
    assert j.evidence == "two"
    assert judge("exit 0", stdout=b" \n", stderr=b"e1\ne2\n \n", status=1).evidence == "e2"
    assert judge("exit 0", stdout=b"a\nlast", status=1).evidence == "last"
    assert judge("exit 0", stdout=b"a\r\n", status=1).evidence == "a"
    assert judge("exit 0", status=1).evidence == ""
    assert judge("exit 0", stdout=b"\n \n", stderr=b"\t", status=1).evidence == ""
    # A blank last line does not hide the previous one, also across chunks.
    assert judge("exit 0", stdout=[b"keep\n", b"   ", b"\n  "]).evidence == "keep"


def test_evidence_is_one_line_of_at_most_300_chars() -> None:
    j = judge("exit 0", stdout=("é" * 1000 + "\n").encode(), status=1)
    assert j.evidence == "é" * 300
    j = judge('stdout lacks "z"', stdout=b"y" * 5000 + b"z\n")
    assert j.evidence == "y" * 300 and "\n" not in j.evidence


def test_feed_accepts_any_chunking_and_rejects_misuse() -> None:
    ev = Evaluator(parse_expected("exit 0"))
    ev.feed("stdout", b"")
    ev.feed(Stream.STDERR, b"x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ev.feed("output", b"x")  # type: ignore[arg-type]
    assert ev.finish(0).holds
    with pytest.raises(RuntimeError):
        ev.feed("stdout", b"x")


def test_memory_stays_bounded() -> None:
    e = parse_expected(
        'stdout contains "passed"; output lacks "Error"; stdout matches /^\\d+ ok$/; '
        "prints 42; stdout empty"
    )
    ev = Evaluator(e)
    chunk = b"y\n" * 32768  # 64 KiB of short lines, like `yes`
    long_line = b"z" * 65536  # and one line that never ends
    tracemalloc.start()
    try:
        for _ in range(64):
            ev.feed("stdout", chunk)
        for _ in range(64):
            ev.feed("stderr", long_line)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000  # 8 MB went through
    j = ev.finish(0)
    assert j.failures == (
        'stdout contains "passed": not found',
        "stdout matches /^\\d+ ok$/: no line matches",
        'prints "42" expected, got "y"…',
        "stdout empty: stdout is not",
    )
    assert j.evidence == "y"


# --------------------------------------------------------------------------- properties

_FRAGMENTS = [b"a", b"b", b"ab", b"\n", b"\n", b" ", b"\t", b"\r\n", b"\xff", b"\x00",
              b"\xc3\xa9", b"\xc3", b"passed", b"42", b"a a"]  # fmt: skip
_data = st.lists(st.sampled_from(_FRAGMENTS), max_size=40).map(b"".join)
_pool_texts = ["a", "ab", "b\na", "é", "\x00", "passed", "a a", " ", "42\n"]
_pool_patterns = ["^a+$", "b", "^$", "é", "\\s$", "a(?!b)", "\\Aa", "[^a]b", "passed\\Z",
                  "(?<=a)b", "\ufffd", "^\\s*42", "a.*a"]  # fmt: skip
_pool_clauses = st.one_of(
    st.builds(ExitClause, op=st.sampled_from(["==", "!="]), value=st.sampled_from([0, 1])),
    st.just(ExitClause(op="nonzero", value=None)),
    st.builds(TextClause, stream=_streams, text=st.sampled_from(_pool_texts), negate=st.booleans()),
    st.builds(MatchClause, stream=_streams, pattern=st.sampled_from(_pool_patterns)),
    st.builds(EmptyClause, stream=_streams),
    st.builds(PrintsClause, text=st.sampled_from(["a", "ab", "a\nb", "passed", "42", ""])),
)
_pool_expectations = st.lists(_pool_clauses, min_size=1, max_size=5).map(
    lambda cs: Expectation(tuple(cs))
)


@st.composite
def _interleaved(draw: st.DrawFn, out: bytes, err: bytes) -> list[tuple[str, bytes]]:
    """Cut both streams at random points and interleave the pieces in a random order."""

    def cut(data: bytes) -> list[bytes]:
        points = sorted(draw(st.lists(st.integers(0, len(data)), max_size=8)))
        bounds = [0, *points, len(data)]
        return [data[a:b] for a, b in itertools.pairwise(bounds)]

    queues = {"stdout": cut(out), "stderr": cut(err)}
    events: list[tuple[str, bytes]] = []
    while queues["stdout"] or queues["stderr"]:
        names = [n for n in queues if queues[n]]
        name = draw(st.sampled_from(names))
        events.append((name, queues[name].pop(0)))
    return events


def _run(e: Expectation, events: Iterable[tuple[str, bytes]], status: int | None) -> Judgement:
    ev = Evaluator(e)
    for name, chunk in events:
        ev.feed(name, chunk)  # type: ignore[arg-type]
    return ev.finish(status)


@settings(max_examples=300, deadline=None)
@given(
    e=_pool_expectations,
    out=_data,
    err=_data,
    status=st.sampled_from([0, 1, None]),
    small=st.booleans(),
    data=st.data(),
)
def test_chunking_does_not_matter(
    e: Expectation, out: bytes, err: bytes, status: int | None, small: bool, data: st.DataObject
) -> None:
    events = data.draw(_interleaved(out, err))
    # With a tiny line limit, the long-line cut-off and the internal piece size are exercised.
    with mock.patch.object(expect, "LINE_LIMIT", 6 if small else expect.LINE_LIMIT):
        whole = _run(e, [("stdout", out), ("stderr", err)], status)
        assert _run(e, events, status) == whole
        assert _run(e, [("stderr", err), ("stdout", out)], status) == whole
        assert _run(e, [(n, bytes([b])) for n, c in events for b in c], status) == whole


def _reference(e: Expectation, out: bytes, err: bytes, status: int | None) -> Judgement:
    """DESIGN §3 written the obvious way, on the whole output at once."""
    limit = expect.LINE_LIMIT
    streams = {"stdout": out, "stderr": err}
    sources = {OUT: ["stdout"], ERR: ["stderr"], ANY: ["stdout", "stderr"]}

    def lines(data: bytes) -> list[bytes]:
        parts = data.split(b"\n")
        if parts[-1] == b"":
            parts.pop()
        return [p[:limit] for p in parts]

    def show(line: bytes) -> str:
        return line[:limit].decode("utf-8", "replace")[:300].rstrip()

    def hit_line(data: bytes, needle: bytes) -> str:
        last = data.find(needle) + len(needle) - 1
        start = data.rfind(b"\n", 0, last) + 1
        end = data.find(b"\n", last)
        return show(data[start : len(data) if end < 0 else end])

    failures: list[str] = []
    decisive: str | None = None
    first_hit: str | None = None
    for c in e.clauses:
        if isinstance(c, ExitClause):
            ok = status is not None and (
                status == c.value if c.op == "==" else status != (c.value or 0)
            )
            if not ok:
                got = "no exit status" if status is None else str(status)
                failures.append(f"{format_clause(c)} expected, got {got}")
        elif isinstance(c, TextClause):
            needle = c.text.encode()
            where = next((s for s in sources[c.stream] if needle in streams[s]), None)
            if c.negate and where:
                failures.append(f"{format_clause(c)}: found in {where}")
                decisive = decisive if decisive is not None else hit_line(streams[where], needle)
            elif not c.negate and not where:
                other = {"stdout": "stderr", "stderr": "stdout"}.get(str(c.stream))
                if other is not None and needle and needle in streams[other]:
                    failures.append(
                        f"{format_clause(c)}: not found in {c.stream}, but in {other} "
                        "(`output contains` reads both)"
                    )
                else:
                    failures.append(f"{format_clause(c)}: not found")
            elif where and first_hit is None:
                first_hit = hit_line(streams[where], needle)
        elif isinstance(c, MatchClause):
            rx = re.compile(c.pattern)
            found = [
                show(line)
                for s in sources[c.stream]
                for line in lines(streams[s])
                if rx.search(line.decode("utf-8", "replace"))
            ]
            if not found:
                failures.append(f"{format_clause(c)}: no line matches")
            elif first_hit is None:
                first_hit = found[0]
        elif isinstance(c, EmptyClause):
            busy = [s for s in sources[c.stream] if streams[s].strip()]
            if busy:
                failures.append(f"{format_clause(c)}: {busy[0]} is not")
        elif out.strip() != c.text.encode():
            failures.append(f'prints "{c.text}" expected')  # the rest is compared below
    if decisive is not None:
        evidence = decisive
    elif not failures and first_hit is not None:
        evidence = first_hit
    else:
        blank = [ln for ln in lines(out) if ln.strip()] or [ln for ln in lines(err) if ln.strip()]
        evidence = show(blank[-1]) if blank else ""
    return Judgement(holds=not failures, failures=tuple(failures), evidence=evidence)


@settings(max_examples=300, deadline=None)
@given(
    e=_pool_expectations,
    out=_data,
    err=_data,
    status=st.sampled_from([0, 1, None]),
    small=st.booleans(),
)
def test_streaming_agrees_with_the_obvious_reference(
    e: Expectation, out: bytes, err: bytes, status: int | None, small: bool
) -> None:
    with mock.patch.object(expect, "LINE_LIMIT", 6 if small else expect.LINE_LIMIT):
        want = _reference(e, out, err, status)
        # Feed in 3-byte chunks, so every fragment can straddle a boundary.
        events = [("stdout", out[i : i + 3]) for i in range(0, len(out), 3)]
        events += [("stderr", err[i : i + 3]) for i in range(0, len(err), 3)]
        got = _run(e, events, status)
    assert got.holds == want.holds
    assert got.evidence == want.evidence
    assert len(got.failures) == len(want.failures)
    for g, w in zip(got.failures, want.failures, strict=True):
        assert g.startswith(w) if w.startswith("prints") else g == w


@settings(max_examples=300, deadline=None)
@given(
    before=st.text(alphabet=" \t\r\n\x0b\x0c\u00a0", max_size=3),
    word=st.sampled_from(["exit", "Exit", "EXIT", "exits", "exit0"]),
    gap=st.sampled_from([" ", "  ", "\t", "\u00a0", ""]),
    number=st.sampled_from(["0", "1", "7", "007", "255", "256", "999", "1000", "-1", "٣", "x"]),
    after=st.text(alphabet=" \t\r\n;\u00a0", max_size=3),
)
def test_exit_n_read_without_the_parser_is_what_the_parser_reads(
    before: str, word: str, gap: str, number: str, after: str
) -> None:
    """``parse_expected`` reads a plain ``exit N`` itself (without loading goalfile.expecttext);
    for that text and the texts around it, it gives the parser's value or the parser's error."""
    from goalfile.expecttext import parse

    text = before + word + gap + number + after
    try:
        want: Expectation | str = parse(text, guess=True)
    except ExpectedSyntaxError as exc:
        want = exc.message
    parse_expected.cache_clear()
    try:
        got: Expectation | str = parse_expected(text)
    except ExpectedSyntaxError as exc:
        got = exc.message
    assert got == want
    if isinstance(got, Expectation):
        assert got.rewrites == parse(text, guess=True).rewrites


def test_an_exit_only_expectation_is_judged_without_the_output_clauses() -> None:
    """A row whose expected is `exit 0` needs no clause that looks at output: a real process
    that parses and judges it does not import goalfile.expecttext."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from goalfile.expect import Evaluator, parse_expected\n"
        "ev = Evaluator(parse_expected('exit 0'))\n"
        "ev.feed('stdout', b'ok\\n')\n"
        "assert ev.finish(0).holds and not ev.finish(0).failures\n"
        "bad = Evaluator(parse_expected('exit 0')).finish(3)\n"
        "assert bad.failures == ('exit 0 expected, got 3',), bad\n"
        "print('goalfile.expecttext' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "False\n"


@pytest.mark.parametrize(
    ("stdout", "stderr", "status", "evidence"),
    [
        # pytest's usage error, make's stop, git's fatal, a Python exception: the program's line
        (b"\nno tests ran in 0.01s\n", b"ERROR: file or directory not found: t\n\n", 4,
         "ERROR: file or directory not found: t"),
        (b"make: Leaving directory '/r/docs'\n", b"make: *** No rule to make target 'x'.  Stop.\n",
         2, "make: *** No rule to make target 'x'.  Stop."),
        (b"", b"fatal: bad revision 'mian'\n", 128, "fatal: bad revision 'mian'"),
        (b"started\n", b"Traceback (most recent call last):\nModuleNotFoundError: No module named"
         b" 'x'\n", 1, "ModuleNotFoundError: No module named 'x'"),
        # a warning on stderr is no error line: the stdout summary stays the evidence
        (b"1 failed, 2 passed\n", b"DeprecationWarning: old\n", 1, "1 failed, 2 passed"),
        (b"1 failed, 2 passed\n", b"warning: x\n", 1, "1 failed, 2 passed"),
        # exit 0: the error line decided nothing
        (b"done\n", b"error: ignored\n", 0, "done"),
    ],
)  # fmt: skip
def test_a_failed_run_ending_on_an_error_line_has_it_as_evidence(
    stdout: bytes, stderr: bytes, status: int, evidence: str
) -> None:
    assert judge('exit 0; stdout contains "passed!"', stdout, stderr, status).evidence == evidence
