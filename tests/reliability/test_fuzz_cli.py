"""Fuzzing the command line with hostile goal files and ``expected`` texts.

The real CLI (``goalfile.cli.main``) runs in-process under click's ``CliRunner``, so thousands
of examples stay cheap; the suite's run takes 300 per property (1,000 took a minute of CPU, a
twentieth of the whole suite's), and ``GOALFILE_FUZZ_EXAMPLES=5000`` makes a deeper run.
Promises checked:

* never a traceback: the runner's exception is ``None`` or a ``SystemExit``;
* ``lint`` exits 0 or 3, ``status`` 0 or 3, ``verify`` 0, 1, 3, 4 or 5;
* exit 3 means a message on stderr that names ``PATH:LINE``, and the file untouched; ``lint``
  and ``status`` never touch the file;
* the commands agree: ``status`` refuses (3) only a file ``lint`` rejects, ``verify`` refuses
  every file ``lint`` rejects, and a file ``verify`` wrote to is still valid (``lint`` exit 0).

``verify`` runs checks, so it is only called when the file, read by goalfile itself, is no
active goal (then nothing runs) or every deterministic check is one of a few harmless commands
under the default shell.

A handful of hostile files also run through ``python -m goalfile`` as real processes.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import Result
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from reliability_support import crashed, invoke, no_traceback, run_goalfile

from goalfile import unseen
from goalfile.expecttext import can_match_empty
from goalfile.model import Kind
from goalfile.parse import parse_goal

FUZZ = settings(
    max_examples=int(os.environ.get("GOALFILE_FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)

HARMLESS = {"true", "false", ":", "echo x", "exit 3", "printf 'a b'"}
HARMLESS_CELLS = [f"`{c}`" for c in HARMLESS] + ["true", "echo x", "", "``", "`true` `false`"]

TEMPLATE = """\
---
slug: fuzz
status: {status}            # draft | active | paused | met | blocked | exhausted
created: 2026-11-30
budget:
  iterations: 5           # null = unbounded
  tokens: null         # null = unbounded
iterations_used: 1
tokens_used: 0
timeout: 30
---
# Goal: the checks pass

## Non-goals
- nothing else changes

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | first | `true` | exit 0 | deterministic |
| C2 | second | `echo x` | exit 0; stdout contains "x" | deterministic |
| R1 | review | `README.md` | describes it | review |

## Plan

## Iterations

## Lessons
"""
FM_KEYS = ["slug", "status", "created", "budget", "  iterations", "  tokens", "iterations_used"]
FM_KEYS += ["tokens_used", "timeout"]
NEW_KEYS = ["contract", "blocker", "stall_limit", "impossible", "cwd", "unknown", "budget", "slug"]
COLUMNS = ["id", "criterion", "check", "expected", "kind"]


def base(status: str) -> list[str]:
    return TEMPLATE.format(status=status).split("\n")


# --------------------------------------------------------------------------- strategies

YAML_VALUES = st.one_of(
    st.sampled_from(
        [
            "",
            "null",
            "~",
            "true",
            "no",
            "0",
            "-1",
            "1e400",
            ".nan",
            "-.inf",
            "0x1F",
            "9" * 400,
            "2026-02-30",
            "2026-11-30T25:00:00",
            "[a, b]",
            "{a: 1}",
            "{iterations: 3, tokens: [1]}",
            "&a [*a]",
            "*nothing",
            '"unclosed',
            "'x'",
            "|",
            ">-",
            "!!str 5",
            "!!int x",
            "!!float 1",
            "!!null ''",
            "- item",
            "a: b: c",
            "active",
            "draft",
            "met",
            "paused",
            "blocked",
            "exhausted",
            "sha256:" + "0" * 64,
            "/bin/sh",
            "..",
            "/nonexistent",
        ]
    ),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(max_size=30).map(lambda s: s.replace("\n", " ")),
)
RANDOM_LINE = st.one_of(
    st.text(max_size=60),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.sampled_from(
        [
            "---",
            "...",
            "# Goal: another",
            "## Acceptance criteria",
            "## Criteria",
            "## Iterations",
            "### Iteration 1 (2026-11-30) by verify-goal",
            "status: met",
            "| id | criterion | check | expected |",
            "|---|---|---|---|",
            "| C1 | dup | `true` | exit 0 |",
            "| C9 | x | `true` | exit 0 | review |",
            "| C9 | x | `echo x` | prints 7 | deterministic | 0 |",
            "```",
            "~~~",
            "<!--",
            "- FILL IN: something",
            "\x00",
            "\ufeff",
            "\u2028",
        ]
    ),
)
CELLS = st.one_of(
    st.text(max_size=20).map(lambda s: s.replace("\n", " ")),
    st.sampled_from(
        [
            "",
            "|",
            "\\|",
            "`",
            "``",
            "exit",
            "exit 256",
            "exit != ",
            "exit 0 and",
            'stdout contains "',
            "stdout matches /(/",
            "prints",
            "review",
            "REVIEW",
            "deterministic",
            "nonsense",
            "C1",
            "C2",
            "FILL IN",
            "0",
            "-1",
            "nan",
            "1e400",
            "90s",
            "\x00",
            "\udcff",
        ]
    ),
)


@st.composite
def hostile_goal(draw: st.DrawFn) -> bytes:
    """The template (draft or active) with one to five mutations."""
    lines = base(draw(st.sampled_from(["draft", "active"])))
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        lines = draw(mutation(lines))
    return "\n".join(lines).encode("utf-8", "surrogateescape")


@st.composite
def mutation(draw: st.DrawFn, lines: list[str]) -> list[str]:
    size = max(len(lines), 1)
    at = draw(st.integers(min_value=0, max_value=size - 1))
    other = draw(st.integers(min_value=0, max_value=size - 1))
    kind = draw(
        st.sampled_from(
            [
                "drop",
                "duplicate",
                "swap",
                "insert",
                "replace",
                "value",
                "new-key",
                "cell",
                "check",
                "unicode",
                "nul",
                "crlf",
                "bom",
                "long",
                "unterminated",
                "truncate",
                "undecodable",
            ]
        )
    )
    out = list(lines) or [""]
    if kind == "drop":
        del out[at]
    elif kind == "duplicate":
        out.insert(at, out[at])
    elif kind == "swap":
        out[at], out[other] = out[other], out[at]
    elif kind == "insert":
        out.insert(at, draw(RANDOM_LINE))
    elif kind == "replace":
        out[at] = draw(RANDOM_LINE)
    elif kind == "value":
        key = draw(st.sampled_from(FM_KEYS))
        for i, line in enumerate(out):
            if line.startswith(key + ":"):
                out[i] = f"{key}: {draw(YAML_VALUES)}"
                break
    elif kind == "new-key":
        closing = next((i for i, line in enumerate(out) if i and line == "---"), 1)
        out.insert(closing, f"{draw(st.sampled_from(NEW_KEYS))}: {draw(YAML_VALUES)}")
    elif kind in ("cell", "check"):
        rows = [i for i, line in enumerate(out) if re.match(r"\| (C|R)\d", line)]
        if rows:
            i = rows[at % len(rows)]
            cells = out[i].split(" | ")
            column = 2 if kind == "check" else draw(st.sampled_from([0, 1, 3, 4, 5]))
            value = draw(st.sampled_from(HARMLESS_CELLS) if kind == "check" else CELLS)
            if column < len(cells):
                cells[column] = value if column else "| " + value
            else:
                cells.append(value)
            out[i] = " | ".join(cells)
    elif kind == "unicode":
        text = draw(st.text(min_size=1, max_size=8))
        cut = draw(st.integers(min_value=0, max_value=len(out[at])))
        out[at] = out[at][:cut] + text + out[at][cut:]
    elif kind == "nul":
        out[at] = out[at] + "\x00"
    elif kind == "crlf":
        out = [line + "\r" for line in out]
    elif kind == "bom":
        out[0] = "\ufeff" + out[0]
    elif kind == "long":
        out[at] = out[at] + draw(st.sampled_from(["x", "|", "`", " "])) * 100_000
    elif kind == "unterminated":
        out = [line for i, line in enumerate(out) if not (i and line == "---")]
    elif kind == "truncate":
        text = "\n".join(out)
        out = text[: draw(st.integers(min_value=0, max_value=len(text)))].split("\n")
    else:
        out[at] = out[at] + b"\xff\xfe\xc3".decode("utf-8", "surrogateescape")
    return out


# --------------------------------------------------------------------------- the oracle


def locates(stderr: str, path: str, line: int | None = None) -> bool:
    """stderr holds an error (not a warning) at ``PATH:LINE`` (any line when None)."""
    where = re.escape(path) + ":" + (str(line) if line is not None else r"\d+")
    return re.search(rf"^(goalfile: )?{where}(:\d+)?: (?!warning)", stderr, re.M) is not None


def verify_is_safe(data: bytes, path: str) -> bool:
    """verify runs nothing, or only harmless checks under the default shell."""
    try:
        goal = parse_goal(data.decode("utf-8", "surrogateescape"), path=path)
    except Exception:  # verify cannot read it either (a crash is lint's and status' to report)
        return True
    if goal.status.value != "active":
        return True
    commands = {row.check.strip() for row in goal.criteria if row.kind is not Kind.REVIEW}
    return goal.shell == "/bin/sh" and commands <= HARMLESS


def judge(data: bytes, path: Path) -> Result:
    """Run lint, status and verify on ``data``; every broken promise fails the example. The
    result of lint on ``data`` is returned."""
    name = str(path)
    path.write_bytes(data)
    problems: list[str] = []

    def run(*args: str) -> Result:
        result = invoke(*args, name)
        if (trace := crashed(result)) is not None:
            problems.append(f"goalfile {' '.join(args)} crashed:\n{trace}")
        return result

    lint = run("lint")
    if lint.exit_code not in (0, 3):
        problems.append(f"lint exit {lint.exit_code}: {lint.stderr[-500:]}")
    if lint.exit_code == 3 and not locates(lint.stderr, name):
        problems.append(f"lint exit 3 without PATH:LINE:\n{lint.stderr[-800:]}")
    if path.read_bytes() != data:
        problems.append("lint changed the file")

    status = run("status")
    if status.exit_code not in (0, 3):
        problems.append(f"status exit {status.exit_code}: {status.stderr[-500:]}")
    if status.exit_code == 3:
        if not locates(status.stderr, name):
            problems.append(f"status exit 3 without PATH:LINE:\n{status.stderr[-800:]}")
        if lint.exit_code == 0:
            problems.append(f"status refused a file lint accepts:\n{status.stderr[-800:]}")
    if path.read_bytes() != data:
        problems.append("status changed the file")

    if verify_is_safe(data, name):
        verify = run("verify", "--lock-wait", "0")
        if verify.exit_code not in (0, 1, 3, 4, 5):
            problems.append(f"verify exit {verify.exit_code}: {verify.stderr[-500:]}")
        if verify.exit_code == 3:
            if not locates(verify.stderr, name):
                problems.append(f"verify exit 3 without PATH:LINE:\n{verify.stderr[-800:]}")
            if path.read_bytes() != data:
                problems.append("verify refused (exit 3) but changed the file")
        elif lint.exit_code == 3:
            problems.append(f"verify exit {verify.exit_code} on a file lint rejects")
        else:
            again = invoke("lint", name)
            if again.exit_code != 0:
                problems.append(f"verify left an invalid file:\n{again.stderr[-800:]}")
    assert not problems, "\n\n".join(problems)
    return lint


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# --------------------------------------------------------------------------- goal files


@FUZZ
@given(hostile_goal())
@example(TEMPLATE.format(status="active").encode())
@example(TEMPLATE.format(status="draft").replace("\n", "\r\n").encode())
def test_hostile_goal_files(workdir: Path, data: bytes) -> None:
    """Mutated goal files: no traceback, exit 3 with PATH:LINE, files untouched on refusal."""
    judge(data, workdir / "goal.md")


# --------------------------------------------------------------------------- expected texts

KEYWORD_CASE = st.sampled_from([str.lower, str.upper, str.title])
STREAMS = ["stdout", "stderr", "output"]
SAFE_TEXT = st.text(
    alphabet=st.characters(
        codec="utf-8",
        categories=["L", "N", "P", "S", "Zs"],
        exclude_characters='"\\|`\u2028\u2029\x85',
    ),
    min_size=1,
    max_size=12,
)
ASCII_WHITESPACE = " \t\r\n\v\f"


class Ran(NamedTuple):
    """What a harmless check does: its exit status and its two streams."""

    exit: int
    stdout: str
    stderr: str

    def lines(self, stream: str) -> list[str]:
        """Lines split on LF only; a last line without LF is a line (docs/format.md)."""
        text = getattr(self, stream)
        parts = text.split("\n")
        return parts[:-1] if text.endswith("\n") else [p for p in parts if p or len(parts) > 1]

    def streams(self, stream: str) -> list[str]:
        return ["stdout", "stderr"] if stream == "output" else [stream]


# the checks the expected texts are judged against, and what each does
CHECKS: dict[str, Ran] = {
    "echo x": Ran(0, "x\n", ""),
    "echo y >&2": Ran(0, "", "y\n"),
    "printf 'a b'": Ran(0, "a b", ""),
    "echo x; exit 3": Ran(3, "x\n", ""),
    "printf 'x\\r\\n'": Ran(0, "x\r\n", ""),
    "printf '\\n  x \\n\\n'; echo e >&2": Ran(0, "\n  x \n\n", "e\n"),
}
Holds = Callable[[Ran], bool]
LIKELY_TEXTS = ["x", "y", "a b", "a", "b", "e", " x", "x ", "a  b"]


@st.composite
def quoted(draw: st.DrawFn) -> tuple[str, str]:
    """A TEXT and its quoted form, with the escapes ``\\"`` and ``\\\\`` sometimes inside."""
    parts = draw(
        st.lists(
            st.one_of(SAFE_TEXT, st.sampled_from(LIKELY_TEXTS), st.sampled_from(['"', "\\"])),
            min_size=1,
            max_size=3,
        )
    )
    text = "".join(parts)
    # a text a reader sees as it is (no invisible character, no word of look-alike letters:
    # docs/format.md, "What a reader cannot see")
    assume(not unseen.find(text))
    return text, '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


REGEX_ATOMS = ["x", "y", "a", "e", "X", r"\d", r"\w", "[a-z]", r"\.", r"\/", " ", "(x|y)", r"\r"]


@st.composite
def regex(draw: st.DrawFn) -> str:
    atoms = draw(st.lists(st.sampled_from(REGEX_ATOMS), min_size=1, max_size=4))
    body = "".join(atom + draw(st.sampled_from(["", "+", "*", "?", "{1,2}"])) for atom in atoms)
    return draw(st.sampled_from(["", "^"])) + body + draw(st.sampled_from(["", "$"]))


def holds_text(stream: str, verb: str, text: str) -> Holds:
    def holds(ran: Ran) -> bool:
        found = [text in getattr(ran, s) for s in ran.streams(stream)]
        return any(found) if verb == "contains" else not any(found)

    return holds


def in_table(pattern: str) -> str:
    """The pattern ``re`` gets from a table cell: ``\\|`` there is a literal ``|``."""
    return pattern.replace(r"\/", "/").replace("|", r"\|")


def matches_empty(pattern: str) -> bool:
    return re.search(in_table(pattern), "") is not None


def can_match_nothing(pattern: str) -> bool:
    """Some match of the pattern is zero characters long (docs/format.md: refused)."""
    return can_match_empty(re.compile(in_table(pattern)))


def holds_regex(stream: str, pattern: str) -> Holds:
    python = re.compile(in_table(pattern))
    return lambda ran: any(
        python.search(line) is not None for s in ran.streams(stream) for line in ran.lines(s)
    )


def holds_empty(stream: str) -> Holds:
    return lambda ran: all(not getattr(ran, s).strip(ASCII_WHITESPACE) for s in ran.streams(stream))


def holds_prints(text: str) -> Holds:
    return lambda ran: ran.stdout.strip(ASCII_WHITESPACE) == text


@st.composite
def clause(draw: st.DrawFn) -> tuple[str, Holds]:
    """One valid clause, and when it holds."""
    case: Callable[[str], str] = draw(KEYWORD_CASE)
    form = draw(
        st.sampled_from(["exit", "exit!=", "nonzero", "text", "matches", "empty", "prints"])
    )
    stream = draw(st.sampled_from(STREAMS))
    status = st.one_of(st.sampled_from([0, 3]), st.integers(min_value=0, max_value=255))
    if form == "exit":
        n = draw(status)
        return f"{case('exit')} {n}", lambda ran: ran.exit == n
    if form == "exit!=":
        n = draw(status)
        return f"{case('exit')} != {n}", lambda ran: ran.exit != n
    if form == "nonzero":
        return f"{case('exit')} {case('nonzero')}", lambda ran: ran.exit != 0
    if form == "text":
        verb = draw(st.sampled_from(["contains", "lacks"]))
        text, written = draw(quoted())
        return f"{case(stream)} {case(verb)} {written}", holds_text(stream, verb, text)
    if form == "matches":
        pattern = draw(regex().filter(lambda p: not can_match_nothing(p)))
        return f"{case(stream)} {case('matches')} /{pattern}/", holds_regex(stream, pattern)
    if form == "empty":
        return f"{case(stream)} {case('empty')}", holds_empty(stream)
    if draw(st.booleans()):
        n = draw(st.integers(min_value=-(10**6), max_value=10**6))
        return f"{case('prints')} {n}", holds_prints(str(n))
    text, written = draw(quoted())
    if text != text.strip(ASCII_WHITESPACE):
        text, written = "x", '"x"'
    return f"{case('prints')} {written}", holds_prints(text)


@st.composite
def valid_expected(draw: st.DrawFn) -> tuple[str, Holds]:
    clauses = draw(st.lists(clause(), min_size=1, max_size=4))
    separators = [draw(st.sampled_from(["; ", ";", " and ", " AND ", "  And  "])) for _ in clauses]
    text = "".join(c + sep for (c, _), sep in zip(clauses, separators, strict=True))
    text = text[: -len(separators[-1])] + draw(st.sampled_from(["", ";"]))
    return text, lambda ran: all(holds(ran) for _, holds in clauses)


GARBAGE_TOKENS = ["exit", "!=", "==", "nonzero", "stdout", "stderr", "output", "contains"]
GARBAGE_TOKENS += ["lacks", "matches", "empty", "prints", "and", ";", '"', "/", "\\", "|", "`"]
GARBAGE_TOKENS += ["0", "256", "-1", "3.5", '"x"', "/x/", "/[/", "//", '""', "/x/i", '"a\\nb"']


@st.composite
def garbage_expected(draw: st.DrawFn) -> str:
    """Anything: a valid text cut or spliced, random tokens, random characters."""
    choice = draw(st.integers(min_value=0, max_value=2))
    if choice == 0:
        text, _ = draw(valid_expected())
        i = draw(st.integers(min_value=0, max_value=len(text)))
        j = draw(st.integers(min_value=i, max_value=len(text)))
        return text[:i] + draw(st.sampled_from(["", *GARBAGE_TOKENS])) + text[j:]
    if choice == 1:
        return " ".join(draw(st.lists(st.sampled_from(GARBAGE_TOKENS), max_size=8)))
    return draw(st.text(max_size=40))


EXPECTED_ROW = 20  # the line of C1 in TEMPLATE


def with_expected(expected: str, as_code: bool, check: str = "echo x") -> bytes:
    cell = expected.replace("\r", " ").replace("\n", " ")
    if as_code and "`" not in cell and cell.strip():
        cell = f"`{cell.replace('|', chr(92) + '|')}`"
    elif "  " in cell.strip():  # a run of blanks: a browser draws it as one outside code
        fence = "`" * (max((len(run) for run in re.findall("`+", cell)), default=0) + 1)
        cell = f"{fence} {cell.replace('|', chr(92) + '|')} {fence}"
    else:  # a plain cell means what Markdown shows: escape every punctuation character
        cell = re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", cell)
    lines = base("active")
    assert lines[EXPECTED_ROW - 1].startswith("| C1 |")
    lines[EXPECTED_ROW - 1] = f"| C1 | first | `{check}` | {cell} | deterministic |"
    del lines[EXPECTED_ROW : EXPECTED_ROW + 2]  # C2 and R1: C1 alone decides the status
    assert lines[EXPECTED_ROW] == ""
    return "\n".join(lines).encode("utf-8", "surrogateescape")


@FUZZ
@given(valid_expected(), st.sampled_from(list(CHECKS)), st.booleans())
def test_valid_expected_texts_lint_clean_and_verify_as_documented(
    workdir: Path, case: tuple[str, Holds], check: str, as_code: bool
) -> None:
    """A text from the grammar is valid, and verify finds the row met exactly when every
    clause holds for what the check does (a differential oracle of docs/format.md)."""
    expected, holds = case
    met = holds(CHECKS[check])
    data = with_expected(expected, as_code, check)
    path = workdir / "expected.md"
    path.write_bytes(data)
    linted = invoke("lint", str(path))
    assert crashed(linted) is None, crashed(linted)
    assert linted.exit_code == 0, f"{expected!r} is valid, but:\n{linted.stderr}"
    verify = invoke("verify", "--lock-wait", "0", str(path))
    assert crashed(verify) is None, crashed(verify)
    assert verify.exit_code == (0 if met else 1), (
        f"{expected!r} should be {'met' if met else 'unmet'} for `{check}` "
        f"{CHECKS[check]}:\n{verify.output}"
    )
    again = invoke("lint", str(path))
    assert again.exit_code == 0, f"verify left an invalid file:\n{again.stderr}"


@FUZZ
@given(regex(), st.sampled_from(STREAMS), st.booleans())
@example("  ", "stdout", False)  # a run of blanks, written where a browser keeps it
def test_a_generated_regex_is_refused_when_it_can_match_nothing(
    workdir: Path, pattern: str, stream: str, as_code: bool
) -> None:
    """A `matches` clause whose pattern can make a match of zero characters cannot fail:
    lint rejects it; one whose every match takes a character is accepted."""
    path = workdir / "regex.md"
    path.write_bytes(with_expected(f"exit 0; {stream} matches /{pattern}/", as_code))
    linted = invoke("lint", str(path))
    assert crashed(linted) is None, crashed(linted)
    python = re.compile(in_table(pattern))
    if linted.exit_code == 0:
        # accepted: no match it makes on any line is empty
        for line in ("", "x", "y", "a", "e", "X", "7", " ", "xyz 7.a/b|c", "\r", "ab\rx"):
            assert all(m.end() > m.start() for m in python.finditer(line)), (pattern, line)
    else:
        assert linted.exit_code == 3, linted.output
        assert "can match zero characters" in linted.stderr, linted.stderr
    if matches_empty(pattern):  # it holds on the empty line
        assert linted.exit_code == 3, f"/{pattern}/ matches the empty string:\n{linted.output}"
    assert (linted.exit_code == 3) == can_match_nothing(pattern)


@FUZZ
@given(garbage_expected(), st.booleans())
@example('stdout contains "a\\nb"', False)
@example("exit 0 and", True)
def test_garbage_expected_texts_are_refused_at_their_row(
    workdir: Path, expected: str, as_code: bool
) -> None:
    """Any text: lint exit 0, or exit 3 pointing at the row's line; verify agrees."""
    data = with_expected(expected, as_code)
    path = workdir / "garbage.md"
    linted = judge(data, path)  # lint of these bytes at this path
    if linted.exit_code == 3:
        assert locates(linted.stderr, str(path), EXPECTED_ROW), (
            f"{expected!r}: the error does not point at line {EXPECTED_ROW}:\n{linted.stderr}"
        )


# --------------------------------------------------------------------------- real processes

REAL_CASES: dict[str, bytes] = {
    "bom-crlf": ("\ufeff" + TEMPLATE.format(status="active")).replace("\n", "\r\n").encode(),
    "nul-in-frontmatter": TEMPLATE.format(status="active").replace("fuzz", "fu\x00zz").encode(),
    "unterminated-frontmatter": TEMPLATE.format(status="active")
    .replace("timeout: 30\n---\n", "timeout: 30\n")
    .encode(),
    "undecodable-cells": TEMPLATE.format(status="active")
    .replace("| first |", "| \udcff\udcfe |")
    .encode("utf-8", "surrogateescape"),
    "long-line": TEMPLATE.format(status="draft")
    .replace("# Goal:", "# Goal: " + "|" * 200_000)
    .encode(),
    "swapped-fences": TEMPLATE.format(status="active")
    .replace("---\nslug", "slug", 1)
    .replace("timeout: 30\n---", "---\ntimeout: 30")
    .encode(),
    "object-tag-in-cell-row": TEMPLATE.format(status="active")
    .replace("| exit 0 | deterministic |", "| exit 0 | !!python/name:os.system |")
    .encode(),
    "bad-expected": TEMPLATE.format(status="active")
    .replace("| exit 0 | deterministic |", '| stdout contains "a\\nb" | deterministic |')
    .encode(),
}


@pytest.mark.parametrize("name", list(REAL_CASES))
def test_hostile_files_as_real_processes(tmp_path: Path, name: str) -> None:
    """The same promises through ``python -m goalfile``, for a few hostile files."""
    data = REAL_CASES[name]
    path = tmp_path / "goal.md"
    path.write_bytes(data)
    results: dict[str, subprocess.CompletedProcess[str]] = {}
    for command in ("lint", "status", "verify"):
        done = run_goalfile(command, "goal.md", cwd=tmp_path)
        no_traceback(done)
        results[command] = done
        if done.returncode == 3:
            assert locates(done.stderr, "goal.md"), f"{command}: no PATH:LINE\n{done.stderr}"
            assert path.read_bytes() == data, f"{command} refused but changed the file"
    assert results["lint"].returncode in (0, 3)
    assert results["status"].returncode in (0, 3)
    assert results["verify"].returncode in (0, 1, 3, 4, 5)
    if results["lint"].returncode == 3:
        assert results["verify"].returncode == 3
