"""Fuzzing ledgers, approval entries and line endings through every command.

The base files are real: a goal activated by ``goalfile activate`` and verified once by
``goalfile verify`` (so its ledger holds an approval entry with its approved-rows table and
run settings, and a verify entry), as real processes. Each example mutates the ledger (entry
headings, ``status:``, ``contract:``, ``working directory:`` and run-setting lines, approved-rows
cells, whole lines dropped, doubled, swapped or replaced) and then writes the whole file in one
of the line-ending styles. The real CLI then runs in-process (click's ``CliRunner``, so
thousands of examples stay cheap; ``GOALFILE_FUZZ_EXAMPLES`` sets how many): ``lint``,
``status``, ``audit``, ``verify`` (whose checks are ``true`` and ``false``), and the editing
commands ``budget``, ``pause``, ``resume``, ``activate --reapprove``. Promises checked:

* never a traceback (the runner's exception is None or a SystemExit);
* every exit code is one the command documents;
* exit 3 leaves the file byte for byte as it was;
* a command that wrote left a file that, read as YAML and Markdown read it (CR, LF and CR LF
  each end a line), holds no frontmatter key twice and no more ``## Iterations`` sections than
  before, and that ``lint`` accepts when it accepted the file before.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_support import activate, crashed, goal_text, invoke, make_repo, run_goalfile

FUZZ = settings(
    max_examples=int(os.environ.get("GOALFILE_FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
ROWS = (("C1", "true", "exit 0"), ("C2", "false", "exit 0"))

ENDINGS = {
    "lf": "\n",
    "crlf": "\r\n",
    "cr-cr-lf": "\r\r\n",
    "lf-cr": "\n\r",
    "cr": "\r",
}

LEDGER_LINES = st.sampled_from(
    [
        "### Iteration 1 (2026-11-30) by activate",
        "### Iteration 99999999999999999999 (2026-11-30) by verify-goal",
        "### Iteration -1 (2026-11-30) by verify-goal",
        "### Iteration 1 (2026-02-30) by verify-goal",
        "### Iteration 1 (2026-11-30 12:00) by verify-goal",
        "### Iteration 1 (2026-11-30) by refine-goal",
        "### Iteration 1 (2026-11-30) by budget",
        "### Iteration 1 (2026-11-30) by",
        "status: met",
        "status: active",
        "status: nonsense",
        "status:",
        "contract: 000000000000",
        "contract: sha256:" + "0" * 64,
        "contract:",
        "working directory: `..` (git top level)",
        "working directory: `/` (git top level)",
        "working directory:",
        "- timeout: `abc`",
        "- timeout: `1e400`",
        "- timeout: `-1`",
        "- shell: `/bin/false`",
        "- cwd: `..`",
        "run settings:",
        "approved rows:",
        "| id | kind | check | expected | timeout |",
        "|----|------|-------|----------|---------|",
        "| C1 | deterministic | `true` | `exit 0` | - |",
        "| C1 | deterministic | `true` | `exit 0` | abc |",
        "| C1 | deterministic | `false` | `exit 1` | - |",
        "| C9 | review | `README.md` | `x` | - |",
        "| C1 | met | `true` | 0 | (no output) |",
        "| C2 | met | `false` | 1 | (no output) |",
        "contract approved: C1, C2",
        "contract approved:",
        "non-goals:",
        "- Nothing outside this folder changes.",
        "## Iterations",
        "## Lessons",
        "```",
        "    indented output",
        "",
        "\x00",
        "\u2028",
        "\udcff",
    ]
)
VALUES = st.one_of(
    st.sampled_from(["", "x", "`abc`", "`1e400`", "``", "-", "met", "0" * 12, "\\|", "|"]),
    st.text(max_size=20).map(lambda s: s.replace("\n", " ")),
)


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """An activated goal, and the same goal verified once, both written by real processes."""
    root = make_repo(tmp_path_factory.mktemp("ledger") / "repo")
    path = root / "goals" / "demo.md"
    path.write_text(goal_text(rows=ROWS, extra=["timeout: 30"]), encoding="utf-8")
    activate(path, root)
    activated = path.read_text(encoding="utf-8")
    done = run_goalfile("verify", path, cwd=root)
    assert done.returncode == 1, done.stderr
    return [activated, path.read_text(encoding="utf-8")]


@st.composite
def hostile_ledger(draw: st.DrawFn, text: str) -> tuple[str, str]:
    """The text with its ledger mutated one to four times, and a line-ending style."""
    head, _, ledger = text.partition("\n## Iterations\n")
    ledger_part, sep, tail = ledger.partition("\n## Lessons")
    lines = ledger_part.split("\n")
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        at = draw(st.integers(min_value=0, max_value=max(0, len(lines) - 1)))
        kind = draw(st.sampled_from(["replace", "insert", "drop", "double", "swap", "value"]))
        if kind == "replace" and lines:
            lines[at] = draw(LEDGER_LINES)
        elif kind == "insert":
            lines.insert(at, draw(LEDGER_LINES))
        elif kind == "drop" and lines:
            del lines[at]
        elif kind == "double" and lines:
            lines.insert(at, lines[at])
        elif kind == "swap" and lines:
            other = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "value" and lines:
            line = lines[at]
            if ": " in line:
                lines[at] = line.split(": ", 1)[0] + ": " + draw(VALUES)
            elif line.startswith("|"):
                cells = line.split(" | ")
                column = draw(st.integers(min_value=0, max_value=len(cells) - 1))
                cells[column] = ("| " if column == 0 else "") + draw(VALUES)
                lines[at] = " | ".join(cells)
    mutated = head + "\n## Iterations\n" + "\n".join(lines) + sep + tail
    return mutated, draw(st.sampled_from(list(ENDINGS)))


def markdown_lines(data: bytes) -> list[str]:
    return re.split("\r\n|\r|\n", data.decode("utf-8", "surrogateescape").removeprefix("\ufeff"))


def keys_twice(lines: list[str]) -> list[str] | None:
    """Frontmatter keys written twice in one mapping; None when there is no readable YAML."""
    if not lines or lines[0].strip() != "---":
        return None
    close = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if close is None:
        return None
    try:
        node = yaml.compose("\n".join(lines[1:close]), Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    twice: list[str] = []
    stack = [node]
    seen: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, yaml.MappingNode):
            names = [str(key.value) for key, _ in current.value]
            twice += sorted({name for name in names if names.count(name) > 1})
            stack += [value for _, value in current.value]
        elif isinstance(current, yaml.SequenceNode):
            stack += current.value
    return twice


def ledgers(lines: list[str]) -> int:
    return sum(bool(re.fullmatch(r"##[ \t]+Iterations[ \t#]*", line)) for line in lines)


COMMANDS: list[tuple[list[str], set[int]]] = [
    (["lint"], {0, 3}),
    (["status"], {0, 3}),
    (["audit"], {0, 1, 3}),
    (["verify", "--lock-wait", "0"], {0, 1, 3, 4, 5}),
    (["budget", "--iterations", "70"], {0, 3}),
    (["pause"], {0, 3}),
    (["resume"], {0, 3}),
    (["activate", "--reapprove", "--reason", "fuzzing"], {0, 3}),
]


def judge(path: Path, data: bytes) -> None:
    problems: list[str] = []
    name = str(path)
    for args, codes in COMMANDS:
        path.write_bytes(data)
        lint_before = invoke("lint", name).exit_code
        path.write_bytes(data)
        result = invoke(args[0], name, *args[1:])
        after = path.read_bytes()
        what = f"goalfile {' '.join(args)}"
        if (trace := crashed(result)) is not None:
            problems.append(f"{what} crashed:\n{trace}")
            continue
        if result.exit_code not in codes:
            problems.append(f"{what}: exit {result.exit_code}: {result.stderr[-400:]}")
        if result.exit_code == 3 and after != data:
            problems.append(f"{what}: exit 3 but the file changed")
        if after == data:
            continue
        before_lines, after_lines = markdown_lines(data), markdown_lines(after)
        twice = keys_twice(after_lines)
        if twice and twice != keys_twice(before_lines):
            problems.append(f"{what} wrote a frontmatter key twice: {twice}")
        if ledgers(after_lines) > max(1, ledgers(before_lines)):
            problems.append(f"{what} wrote a second `## Iterations`")
        if lint_before == 0 and (again := invoke("lint", name)).exit_code != 0:
            problems.append(f"{what} left a file lint rejects:\n{again.stderr[-600:]}")
    assert not problems, "\n\n".join(problems)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_repo(tmp_path_factory.mktemp("fuzz-ledger") / "repo")
    return root / "goals" / "demo.md"


@FUZZ
@given(data=st.data())
def test_hostile_ledgers_in_every_line_ending(
    bases: list[str], workdir: Path, data: st.DataObject
) -> None:
    base = data.draw(st.sampled_from(bases))
    text, ending = data.draw(hostile_ledger(base))
    encoded = text.replace("\n", ENDINGS[ending]).encode("utf-8", "surrogateescape")
    judge(workdir, encoded)
