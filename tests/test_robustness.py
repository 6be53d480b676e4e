"""Bad input never produces a traceback (DESIGN §7, §9).

Two halves:

* hypothesis mutates the valid goal file ``tests/data/parse/skill-format.md`` (lines deleted,
  duplicated, swapped, random text and undecodable bytes inserted, truncation, hostile YAML in
  the frontmatter, mangled criteria rows) and runs the pure core on every mutant: reading and
  linting either succeed or raise a :class:`~goalfile.errors.GoalfileError`; the edits the
  commands make keep a readable file readable, with the same criteria.
* ``python -m goalfile`` runs as a real process on hostile paths (an empty file, binary junk,
  a folder, a missing file, a symlink loop, ...): no traceback, an exit code of DESIGN §7, and
  with ``--json`` exactly one JSON document with a ``schema_version``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import DATA, clean_env, goal_text, row
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from goalfile import lint
from goalfile.edit import append_to_section, set_value
from goalfile.errors import GoalfileError
from goalfile.model import Goal
from goalfile.parse import parse_goal

SKILL = (DATA / "parse" / "skill-format.md").read_bytes().decode("utf-8")
SKILL_LINES = SKILL.split("\n")
FM_CLOSE = SKILL_LINES.index("---", 1)  # the closing frontmatter fence
TABLE_ROWS = [i for i, line in enumerate(SKILL_LINES) if line.startswith("| ")]
EXIT_CODES = {0, 1, 2, 3, 4, 5}
FUZZ = settings(  # GOALFILE_FUZZ_EXAMPLES=5000 for a deeper run
    max_examples=int(os.environ.get("GOALFILE_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# --------------------------------------------------------------------------- mutations

Mutation = Callable[[list[str]], list[str]]

# frontmatter lines YAML (or goalfile's reading of it) may choke on
HOSTILE_YAML = [
    "\tslug: auth",
    "slug:\tauth",
    'slug: "unclosed',
    "slug: 'unclosed",
    "slug: [auth, other]",
    "slug: {a: 1}",
    "- just a list item",
    "budget: [1, 2]",
    "budget: 5",
    "budget: {iterations: 5, tokens: [1]}",
    "budget:",
    "  iterations: 99999999999999999999999999999999999999",
    "  tokens: -7",
    "  tokens: .inf",
    "  iterations: 1e400",
    "iterations_used: 99999999999999999999999999999999999999",
    "iterations_used: -1",
    "tokens_used: 1e400",
    "tokens_used: .nan",
    "timeout: .nan",
    "timeout: -.inf",
    "timeout: 0x1F",
    "timeout: [600]",
    "created: 2026-13-45",
    "created: 2026-02-30",
    "created: 2026-11-30T25:99:00",
    "created: 0000-00-00",
    "created: [2026, 11, 30]",
    "status: !!binary aGVsbG8=",
    "status: !!python/object/apply:os.system ['true']",
    "status: !custom tag",
    "status: [active]",
    "status: null",
    "status: 7",
    "slug: &a [*a]",
    "slug: *undefined",
    "? [complex, key]",
    ": no key",
    "slug: |",
    "slug: >-",
    "shell: ''",
    "shell: 17",
    "cwd: [a, b]",
    "cwd: {x: y}",
    "stall_limit: yes",
    "impossible: [C1]",
    "impossible: {C1: [reason]}",
    "contract: {digest: 1}",
    "blocker: {reason: x}",
    "%YAML 1.2",
    "--- !!map",
    "...",
    "!!binary |",
    "  \x00\x01\x02",
    "key: \x07bell",
    "key: \udcff",
    "key: \ufeff",
    "key: \x85next",
    "slug: auth # comment # again",
    "1: numeric key",
    "null: null key",
    "true: bool key",
    "2026-11-30: date key",
    "budget.iterations: 3",
]

# what a criteria row can turn into
HOSTILE_CELLS = [
    "",
    "|",
    "||",
    "`",
    "``",
    "```",
    "`unbalanced",
    "``a`b``",
    "` `",
    "\\|",
    "\\",
    "`a \\| b`",
    "exit",
    "exit 999999999999999999999999",
    "exit -1",
    "exit != ",
    'stdout contains "',
    'stdout contains "unclosed',
    "stdout matches /(/",
    "stdout matches /[/",
    "stdout matches /a{99999999999}/",
    "stdout matches //",
    'prints "',
    "prints 1e999",
    "prints",
    ";",
    " and ",
    "exit 0;;",
    "output empty and and",
    "review",
    "REVIEW",
    "deterministic ",
    "0",
    "-1",
    "nan",
    "inf",
    "1e400",
    "600s",
    "s",
    "C1",
    "**bold**",
    "<b>html</b>",
    "[link](x)",
    "\x00",
    "\udcff",
    "\u2028",
    "\t",
]


def _random_text() -> st.SearchStrategy[str]:
    undecodable = st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape"))
    return st.one_of(st.text(max_size=40), undecodable, st.sampled_from(HOSTILE_CELLS))


@st.composite
def mutation(draw: st.DrawFn) -> Mutation:
    kind = draw(
        st.sampled_from(
            [
                "delete",
                "duplicate",
                "swap",
                "insert",
                "replace",
                "truncate",
                "yaml",
                "yaml-insert",
                "row",
                "row-insert",
                "crlf",
                "bom",
                "strip",
            ]
        )
    )
    # line numbers, taken modulo the length of the text; the frontmatter gets half the damage
    spot = st.one_of(
        st.integers(min_value=0, max_value=FM_CLOSE), st.integers(min_value=0, max_value=10_000)
    )
    a, b = draw(spot), draw(spot)

    def at(lines: list[str], n: int) -> int:
        return n % len(lines) if lines else 0

    if kind == "delete":
        return lambda lines: [line for i, line in enumerate(lines) if i != at(lines, a)]
    if kind == "duplicate":
        return lambda lines: [*lines[: at(lines, a) + 1], *lines[at(lines, a) :]]
    if kind == "swap":

        def swap(lines: list[str]) -> list[str]:
            out = list(lines)
            if out:
                i, j = at(out, a), at(out, b)
                out[i], out[j] = out[j], out[i]
            return out

        return swap
    if kind in ("insert", "replace"):
        text = draw(_random_text())
        if kind == "insert":
            return lambda lines: [*lines[: at(lines, a)], text, *lines[at(lines, a) :]]
        return lambda lines: [*lines[: at(lines, a)], text, *lines[at(lines, a) + 1 :]]
    if kind == "truncate":

        def truncate(lines: list[str]) -> list[str]:
            text = "\n".join(lines)
            return text[: a % (len(text) + 1)].split("\n")

        return truncate
    if kind in ("yaml", "yaml-insert"):
        bad = draw(st.sampled_from(HOSTILE_YAML))
        where = 1 + a % (FM_CLOSE - 1)  # a frontmatter line of the pristine file
        if kind == "yaml":
            return lambda lines: [*lines[:where], bad, *lines[where + 1 :]]
        return lambda lines: [*lines[:where], bad, *lines[where:]]
    if kind in ("row", "row-insert"):
        base = SKILL_LINES[TABLE_ROWS[a % len(TABLE_ROWS)]]
        cells = base.split("|")
        edits = draw(
            st.lists(
                st.tuples(
                    st.sampled_from(["set", "drop", "add", "raw"]),
                    st.integers(min_value=0, max_value=20),
                    st.one_of(st.sampled_from(HOSTILE_CELLS), st.text(max_size=12)),
                ),
                min_size=1,
                max_size=4,
            )
        )
        for op, index, value in edits:
            pos = index % len(cells) if cells else 0
            if op == "set" and cells:
                cells[pos] = f" {value} "
            elif op == "drop" and cells:
                del cells[pos]
            elif op == "add":
                cells.insert(pos, value)
            elif cells:
                cells[pos] += value
        mangled = "|".join(cells)
        where = TABLE_ROWS[b % len(TABLE_ROWS)]
        if kind == "row":
            return lambda lines: [*lines[:where], mangled, *lines[where + 1 :]]
        return lambda lines: [*lines[:where], mangled, *lines[where:]]
    if kind == "crlf":
        return lambda lines: [f"{line}\r" for line in lines]
    if kind == "bom":
        return lambda lines: ["\ufeff" + lines[0], *lines[1:]] if lines else ["\ufeff"]
    # strip: a line without its heading, table or list marker
    return lambda lines: [
        line.lstrip("#|- ") if i == at(lines, a) else line for i, line in enumerate(lines)
    ]


@st.composite
def mutant(draw: st.DrawFn) -> str:
    lines = list(SKILL_LINES)
    for change in draw(st.lists(mutation(), min_size=1, max_size=4)):
        lines = change(lines)
    return "\n".join(lines)


def read(text: str) -> Goal | None:
    """The goal, or None when the file is not a goal; anything but a GoalfileError escapes."""
    try:
        goal = parse_goal(text, path="goals/auth.md")
    except GoalfileError as exc:
        assert exc.file == "goals/auth.md", exc.render()
        assert exc.line is not None and exc.line >= 1, exc.render()
        # a fix, or (where no command knows what is meant) the message says what to write
        assert exc.hint or ": write " in exc.message or "; write " in exc.message, exc.render()
        return None
    findings = lint.diagnose(goal)
    for finding in findings:
        assert finding.line is None or finding.line >= 1, finding
    try:
        lint.require_valid(goal)
    except GoalfileError as exc:
        assert exc.file == "goals/auth.md", exc.render()
    return goal


def ids(goal: Goal) -> list[str]:
    return [c.id for c in goal.criteria]


# --------------------------------------------------------------------------- in-process


def test_the_pristine_file_is_valid() -> None:
    goal = read(SKILL)
    assert goal is not None
    assert ids(goal) == ["C1", "C2", "R1"]
    assert not lint.errors(lint.diagnose(goal))


@FUZZ
@given(mutant())
def test_reading_and_linting_a_mutant_never_raises_anything_but_a_goalfile_error(
    text: str,
) -> None:
    read(text)


@FUZZ
@given(st.text(max_size=300))
def test_reading_arbitrary_text_never_raises_anything_but_a_goalfile_error(text: str) -> None:
    read(text)
    read("---\n" + text)
    read("---\n" + text + "\n---\n")


@FUZZ
@given(st.binary(max_size=300))
def test_reading_arbitrary_bytes_never_raises_anything_but_a_goalfile_error(data: bytes) -> None:
    read(data.decode("utf-8", "surrogateescape"))
    read(SKILL + data.decode("utf-8", "surrogateescape"))


SET_KEYS = [
    "status",
    "iterations_used",
    "tokens_used",
    "budget.iterations",
    "budget.tokens",
    "blocker",
    "contract",
    "impossible.C1",
]
SET_VALUES = st.one_of(
    st.none(),
    st.integers(min_value=0, max_value=10**12),
    st.sampled_from(["active", "met", "blocked", "exhausted", "sha256:0123abcd"]),
    st.text(max_size=30),
    st.binary(max_size=20).map(lambda b: b.decode("utf-8", "surrogateescape")),
)


@FUZZ
@given(mutant(), st.sampled_from(SET_KEYS), SET_VALUES)
# found by this test: a key under a parent that is no mapping made the YAML invalid
@example(
    SKILL.replace("tokens_used: 0\n", "tokens_used: 0\nimpossible: [C9]\n"), "impossible.C1", "x"
)
@example(
    SKILL.replace("tokens_used: 0\n", "tokens_used: 0\nimpossible:\n  - C9\n"), "impossible.C1", 1
)
@example(SKILL.replace("budget:\n", "budget: |\n"), "budget.tokens", None)
# found by this test: a blank line or a comment inside a block ended it early, so the key was
# added a second time (and YAML read the old one) or a value's continuation stayed behind
@example(SKILL.replace("budget:\n", "budget:\n\n"), "budget.iterations", None)
@example(SKILL.replace("budget:\n", "budget:\n# limits\n"), "budget.tokens", 3)
@example(SKILL.replace("tokens_used: 0\n", "blocker: |\n  a\n\n  b\n"), "blocker", "x")
# found by this test: of a key written twice the first was edited, and YAML reads the last
@example(SKILL.replace("tokens_used: 0\n", "tokens_used: 0\ntokens_used: 0\n"), "tokens_used", None)
@example(SKILL.replace("  tokens:", "  iterations: 9\n  tokens:"), "budget.iterations", 7)
def test_set_value_keeps_a_readable_mutant_readable(text: str, key: str, value: object) -> None:
    goal = read(text)
    if goal is None:
        return
    try:
        after = set_value(text, key, value)
    except (GoalfileError, ValueError):
        return
    again = read(after)
    assert again is not None, f"set_value({key!r}, {value!r}) made the file unreadable"
    assert ids(again) == ids(goal)
    parent, _, child = key.rpartition(".")
    meta = again.meta.get(parent) if parent else again.meta
    assert isinstance(meta, dict), f"set_value({key!r}) left {parent!r} no mapping"
    if isinstance(value, str):  # a lone surrogate cannot be written in YAML: U+FFFD
        value = re.sub("[\ud800-\udfff]", "\ufffd", value)
    assert meta.get(child) == value, f"set_value({key!r}, {value!r}) did not take effect"


# lines the commands append: a ledger entry, a plan step, a lesson
BLOCKS = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "### Iteration 2 (2026-11-30) by verify-goal",
                "| id | verdict | command | exit | evidence |",
                "|----|---------|---------|------|----------|",
                "| C1 | met | `true` | 0 | `ok` |",
                "",
                "status: active",
            ]
        ),
        st.text(max_size=30).map(lambda s: "- " + "".join(c for c in s if c not in "\r\n")),
    ),
    min_size=1,
    max_size=6,
)


@FUZZ
@given(mutant(), st.sampled_from(["Iterations", "Plan", "Lessons", "Token accounting"]), BLOCKS)
def test_append_to_section_keeps_a_readable_mutant_readable(
    text: str, section: str, block: list[str]
) -> None:
    goal = read(text)
    if goal is None:
        return
    try:
        after = append_to_section(text, section, block)
    except (GoalfileError, ValueError):
        return
    again = read(after)
    assert again is not None, f"appending to {section} made the file unreadable"
    assert ids(again) == ids(goal)


# --------------------------------------------------------------------------- as a process

# commands that take one goal file, and commands that take any number of paths
SINGLE = ["verify", "activate", "plan", "refine"]
MULTI = ["lint", "status", "audit"]
Run = tuple[list[str], Path]  # the arguments and the folder to run them in


def _goalfile(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "goalfile", *args],
        cwd=cwd,
        # strict UTF-8 on stdout and stderr, as under en_US.UTF-8 and most terminals (the
        # C.UTF-8 locale of a container would quietly let undecodable bytes through)
        env=clean_env(
            {"GIT_CEILING_DIRECTORIES": str(cwd.parent), "PYTHONIOENCODING": "utf-8:strict"}
        ),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=60,
        check=False,
    )


def _runs(commands: list[str], setup: Callable[[Path], list[str]], tmp_path: Path) -> list[Run]:
    """Each command, with and without --json, in a folder of its own that ``setup`` fills
    (returning the paths to pass): a command that writes cannot change another's input."""
    runs = []
    for command in commands:
        for flags in ([], ["--json"]):
            cwd = tmp_path / f"{command}{''.join(flags)}"
            cwd.mkdir()
            runs.append(([command, *flags, *setup(cwd)], cwd))
    return runs


def _judge(runs: list[Run]) -> None:
    """No traceback, an exit code of DESIGN §7, and with --json one JSON document with a
    schema_version on stdout; every broken promise is listed."""
    with ThreadPoolExecutor(max_workers=max(4, 2 * (os.cpu_count() or 1))) as pool:
        results = list(pool.map(lambda run: (run[0], _goalfile(*run)), runs))
    problems = []
    for args, done in results:
        tail = "\n".join(done.stderr.strip().split("\n")[-4:])  # a traceback's last frame
        shown = " ".join(arg if len(arg) < 60 else arg[:20] + "..." for arg in args)
        what = f"goalfile {shown} -> exit {done.returncode}\n{tail}"
        if "Traceback" in done.stderr or "Traceback" in done.stdout:
            problems.append(f"traceback: {what}")
        elif done.returncode not in EXIT_CODES:
            problems.append(f"exit code: {what}")
        elif "--json" in args:
            try:
                document = json.loads(done.stdout)
            except ValueError:
                problems.append(f"not one JSON document on stdout: {what}\n{done.stdout!r}")
                continue
            if not isinstance(document, dict) or "schema_version" not in document:
                problems.append(f"no schema_version: {what}\n{done.stdout}")
    assert not problems, "\n\n".join(problems)


def _valid(status: str = "draft") -> str:
    return goal_text(slug="demo", status=status, rows=[row("C1", "true", "exit 0")])


def _undecodable_contract(status: str) -> bytes:
    """Bytes that are not UTF-8 in a criteria row and a non-goal: part of the contract."""
    text = goal_text(
        slug="demo",
        status=status,
        rows=[row("C1", "printf '\udcff'", 'exit 0; stdout contains "\udcfe"')],
        non_goals=["caf\udce9 stays"],
    )
    return text.encode("utf-8", "surrogateescape")


# files that are no goal at all: every command stops in the same reader, so the commands that
# take one file run on the first three only; the commands that take many run on all at once
UNREADABLE: dict[str, bytes] = {
    "empty": b"",
    "binary-junk": bytes(range(256)) * 4,
    "only-dashes": b"---",
    "nul-bytes": b"\x00" * 64,
    "only-dashes-newline": b"---\n",
    "two-fences": b"---\n---\n",
    "fence-and-junk": b"---\n\xff\xfe\x00garbage: [\n---\n",
    "yaml-list": b"---\n- a\n- b\n---\n# Goal: x\n",
    "yaml-scalar": b"---\njust text\n---\n# Goal: x\n",
    "tab-indent": _valid().replace("  iterations:", "\titerations:").encode(),
    "unclosed-quote": _valid().replace("slug: demo", 'slug: "demo').encode(),
    "yaml-tag": _valid()
    .replace("slug: demo", "slug: !!python/object/apply:os.system [id]")
    .encode(),
    "deep-yaml": _valid().replace("slug: demo", "slug: " + "[" * 5000 + "]" * 5000).encode(),
    "long-integer": _valid().replace("tokens_used: 0", "tokens_used: " + "9" * 5000).encode(),
}
# files that read as goals, with something odd in them: every command runs on each
ODD: dict[str, bytes] = {
    "bad-date": _valid().replace("created: 2026-11-30", "created: 2026-13-45").encode(),
    "huge-numbers": _valid("active")
    .replace("iterations_used: 1", "iterations_used: " + "9" * 400)
    .encode(),
    "no-table": b"---\nslug: demo\nstatus: active\n---\n# Goal: x\n\n## Acceptance criteria\n",
    "mangled-rows": _valid("active")
    .replace("| C1 | criterion of C1 | `true` | exit 0 | deterministic |", "| C1 | `a | ``b | |||")
    .encode(),
    "bad-expected": _valid("active")
    .replace("| exit 0 |", '| stdout matches /(/ and "x |')
    .encode(),
    "undecodable-values": _valid("active")
    .replace("# Goal: the checks pass", "# Goal: \udcff\udcfe")
    .encode("utf-8", "surrogateescape"),
    "undecodable-contract-draft": _undecodable_contract("draft"),
    "undecodable-contract-active": _undecodable_contract("active"),
    "recursive-alias": _valid("active").replace("slug: demo", "a: &a [*a]\nslug: demo").encode(),
    "alias-bomb": _valid("active")
    .replace(
        "slug: demo",
        "a: &a [x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n"
            for p, n in zip("abcdefg", "bcdefgh", strict=True)
        )
        + "slug: demo",
    )
    .encode(),
    "deep-markdown": _valid("active")
    .replace("## Plan", ">" * 5000 + " x\n\n" + "*" * 5000 + "x\n\n## Plan")
    .encode(),
    "crlf-active": _valid("active").replace("\n", "\r\n").encode(),
    "ledger-junk": (
        _valid("active").replace(
            "## Iterations\n",
            "## Iterations\n### Iteration x (nope) by ???\n| id | verdict |\n|--|\n| C1 | ?? |\n"
            "status: \xff\n### Iteration 99999999999999999999 (2026-13-45) by verify-goal\n",
        )
    ).encode("utf-8", "surrogateescape"),
    "accounting-junk": _valid("active")
    .replace(
        "## Token accounting\n",
        "## Token accounting\n| session | host |\n|--|--|\n| `x` | nohost | `y` | -5 | abc |\n",
    )
    .encode(),
}
HOSTILE_FILES = {**UNREADABLE, **ODD}


@pytest.mark.parametrize("name", [*list(UNREADABLE)[:3], *ODD])
def test_single_file_commands_on_a_hostile_goal_file(name: str, tmp_path: Path) -> None:
    def setup(cwd: Path) -> list[str]:
        (cwd / "goals").mkdir()
        (cwd / "goals" / "hostile.md").write_bytes(HOSTILE_FILES[name])
        return ["goals/hostile.md"]

    _judge(_runs(SINGLE, setup, tmp_path))


def test_many_file_commands_on_every_hostile_goal_file_at_once(tmp_path: Path) -> None:
    def setup(cwd: Path) -> list[str]:
        (cwd / "goals").mkdir()
        for name, data in HOSTILE_FILES.items():
            (cwd / "goals" / f"{name}.md").write_bytes(data)
        return [f"goals/{name}.md" for name in HOSTILE_FILES]

    _judge(_runs(MULTI, setup, tmp_path))


def test_impossible_refuses_a_list_of_impossible_rows_and_leaves_the_file_untouched(
    tmp_path: Path,
) -> None:
    """`goalfile impossible` used to add `  C1: reason` under `impossible: [C9]`: invalid
    YAML, so the next command could not read the goal any more."""
    text = _valid("active").replace("tokens_used: 0\n", "tokens_used: 0\nimpossible: [C9]\n")
    path = tmp_path / "goal.md"
    path.write_text(text, encoding="utf-8")
    done = _goalfile(["impossible", "goal.md", "C1", "--reason", "cannot"], tmp_path)
    assert "Traceback" not in done.stderr
    assert done.returncode == 3, done.stderr
    assert "`impossible` is not a mapping" in done.stderr
    assert path.read_text(encoding="utf-8") == text


def test_a_key_written_twice_is_refused_naming_both_lines(tmp_path: Path) -> None:
    """YAML reads the last of two `status:` lines while an edit changes the first (`pause`
    once left the goal active while the ledger said paused): such a goal is not valid, lint
    names both lines, and `pause` refuses it and writes nothing."""
    text = _valid("active").replace("tokens_used: 0\n", "tokens_used: 0\nstatus: active\n")
    path = tmp_path / "goal.md"
    path.write_text(text, encoding="utf-8")
    linted = _goalfile(["lint", "goal.md"], tmp_path)
    assert linted.returncode == 3, linted.stderr
    assert re.search(r"the key `status` is given twice \(lines 3 and \d+\)", linted.stderr)
    done = _goalfile(["pause", "goal.md", "--reason", "lunch"], tmp_path)
    assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
    assert path.read_text(encoding="utf-8") == text


# paths that are no readable file; each returns the path to pass, all with distinct names so
# that the commands taking many paths can get them all at once


def _folder(cwd: Path) -> str:
    (cwd / "empty-folder").mkdir()
    return "empty-folder"


def _missing(cwd: Path) -> str:
    return "nowhere/missing.md"


def _symlink_loop(cwd: Path) -> str:
    os.symlink("loop-b.md", cwd / "loop-a.md")
    os.symlink("loop-a.md", cwd / "loop-b.md")
    return "loop-a.md"


def _dangling_symlink(cwd: Path) -> str:
    os.symlink("nothing-here.md", cwd / "dangling.md")
    return "dangling.md"


def _through_a_file(cwd: Path) -> str:
    (cwd / "plain.md").write_text(_valid(), encoding="utf-8")
    return "plain.md/goal.md"  # a path whose parent is a file: ENOTDIR, also for root


def _name_too_long(cwd: Path) -> str:
    return "g" * 300 + ".md"  # ENAMETOOLONG, also for root


def _undecodable_name(cwd: Path) -> str:
    name = b"goal-\xff\xfe.md".decode("utf-8", "surrogateescape")
    (cwd / name).write_text(_valid(), encoding="utf-8")
    return name


def _dash(cwd: Path) -> str:
    return "-"


def _device(cwd: Path) -> str:
    return "/dev/null"


def _folder_of_hostile_files(cwd: Path) -> str:
    folder = cwd / "hostile-goals"
    folder.mkdir()
    for name, data in HOSTILE_FILES.items():
        (folder / f"{name}.md").write_bytes(data)
    (folder / "sub.md").mkdir()  # a folder named like a goal file
    os.symlink("loop.md", folder / "loop.md")
    return "hostile-goals"


HOSTILE_PATHS: dict[str, Callable[[Path], str]] = {
    "folder": _folder,
    "missing": _missing,
    "symlink-loop": _symlink_loop,
    "dangling-symlink": _dangling_symlink,
    "through-a-file": _through_a_file,
    "name-too-long": _name_too_long,
    "undecodable-name": _undecodable_name,
    "dash": _dash,
    "dev-null": _device,
    "folder-of-hostile-files": _folder_of_hostile_files,
}


@pytest.mark.parametrize("name", list(HOSTILE_PATHS))
def test_single_file_commands_on_a_hostile_path(name: str, tmp_path: Path) -> None:
    _judge(_runs(SINGLE, lambda cwd: [HOSTILE_PATHS[name](cwd)], tmp_path))


@pytest.mark.parametrize("name", list(HOSTILE_PATHS))
def test_many_file_commands_on_a_hostile_path(name: str, tmp_path: Path) -> None:
    _judge(_runs(MULTI, lambda cwd: [HOSTILE_PATHS[name](cwd)], tmp_path))
