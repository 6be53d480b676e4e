"""Every line-ending style on every editing command, and frontmatter a line edit cannot make.

A goal file is written with one of many line-ending styles (LF, CRLF, CR CR LF from a double
conversion, LF CR, lone CR, mixed, a carriage return or NEL inside a frontmatter line, no final
newline, a BOM) or with flow-style YAML frontmatter. Each editing command runs on it in turn:
as a real process for the styles of :data:`END_TO_END`, and for the others in this process
(goalfile's command line through click's runner, in the repository: the same code on another
text; the process around it is the same for every style). After each one, either

* it refused (exit 3): the file is byte for byte what it was; or
* it wrote: the file, read the way YAML and Markdown read it (every CR, LF and CR LF a line
  break), holds no frontmatter key written twice, exactly one ``## Iterations`` section, the
  value the command set, and ``goalfile lint`` passes without a key-written-twice warning.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from reliability_support import crashed, goal_text, invoke, make_repo, no_traceback, run_goalfile

ROWS = (("C1", "true", "exit 0"), ("C2", "false", "exit 0"))
REVIEW_ROW = "| R1 | the readme greets | `README.md` | says hello | review |"
# a plan with steps, so `plan` judges it and writes (a plan with no step is refused)
PLAN = (
    "| step | change | files | serves | check |\n"
    "|---|---|---|---|---|\n"
    "| 1 | make both checks pass | x.py | C1, C2 | - |\n"
    "| 2 | greet in the readme | README.md | R1 | - |\n"
)


def _lines(text: str, endings: Callable[[int], str]) -> str:
    """``text`` (LF lines) with line ``n``'s ending replaced by ``endings(n)``."""
    parts = text.split("\n")
    out = [part + endings(n) for n, part in enumerate(parts[:-1])]
    return "".join(out) + parts[-1]


def _every(ending: str) -> Callable[[str], str]:
    return lambda text: _lines(text, lambda n: ending)


STYLES: dict[str, Callable[[str], str]] = {
    "lf": lambda text: text,
    "crlf": _every("\r\n"),
    "cr-cr-lf": _every("\r\r\n"),
    "lf-cr": _every("\n\r"),
    "cr": _every("\r"),
    "lf-first-then-crlf": lambda text: _lines(text, lambda n: "\n" if n == 0 else "\r\n"),
    "crlf-first-then-lf": lambda text: _lines(text, lambda n: "\r\n" if n == 0 else "\n"),
    "crlf-no-final-newline": lambda text: _every("\r\n")(text.rstrip("\n")),
    "bom-crlf": lambda text: "\ufeff" + _every("\r\n")(text),
    "cr-inside-budget-line": lambda text: text.replace("budget:\n", "budget:\r", 1),
    "nel-inside-budget-line": lambda text: text.replace("budget:\n", "budget:\x85", 1),
    "u2028-inside-frontmatter": lambda text: text.replace(
        "iterations_used: 1\n", "iterations_used: 1\u2028", 1
    ),
    "flow-frontmatter": lambda text: re.sub(
        r"\A---\n.*?\n---\n",
        "---\n{slug: demo, status: draft, created: 2026-11-30, budget: {iterations: 50, "
        "tokens: 1000}, iterations_used: 1, tokens_used: 0}\n---\n",
        text,
        count=1,
        flags=re.S,
    ),
    "flow-budget-on-its-own-line": lambda text: re.sub(
        r"budget:\n  iterations: 50[^\n]*\n  tokens: 1000[^\n]*\n",
        "budget:\n  {iterations: 50, tokens: 1000}\n",
        text,
        count=1,
    ),
    "flow-budget-on-the-key-line": lambda text: re.sub(
        r"budget:\n  iterations: 50[^\n]*\n  tokens: 1000[^\n]*\n",
        "budget: {iterations: 50, tokens: 1000}\n",
        text,
        count=1,
    ),
}

END_TO_END = ("lf", "crlf")
"""The styles whose commands run as real processes (`python -m goalfile`)."""


def _run(root: Path, args: list[str], style: str) -> tuple[int, str]:
    """``goalfile ARGS`` in ``root``: its exit code and stderr (no traceback)."""
    if style in END_TO_END:
        done = run_goalfile(*args, cwd=root)
        no_traceback(done)
        return done.returncode, done.stderr
    with contextlib.chdir(root):
        result = invoke(*args)
    assert crashed(result) is None, crashed(result)
    return result.exit_code, result.stderr


# (arguments, exit codes besides 3, the frontmatter values a write must leave)
STEPS: list[tuple[list[str], set[int], dict[str, object]]] = [
    (["budget", "--iterations", "100"], {0}, {"budget.iterations": 100}),
    (["budget", "--tokens", "5000"], {0}, {"budget.tokens": 5000}),
    (["activate"], {0}, {"status": "active"}),
    (["verify", "--tokens-used", "10"], {1}, {"status": "active", "tokens_used": 10}),
    (["refine"], {0}, {}),
    (["plan"], {0}, {"iterations_used": 2}),
    (["review", "R1", "--artifact", "README.md", "--quote", "hello", "--verdict", "met"], {0}, {}),
    (["impossible", "C2", "--reason", "it cannot pass here"], {0}, {}),
    (["pause"], {0}, {"status": "paused"}),
    (["resume"], {0}, {"status": "active"}),
    (["block", "--reason", "waiting for a key", "--tried", "asked for one"], {0}, {}),
    (["resume", "--resolved", "the key came"], {0}, {"status": "active"}),
]


def _as_markdown_lines(data: bytes) -> list[str]:
    """The lines as YAML and Markdown read them: CR LF, CR and LF (and, for YAML, NEL,
    U+2028 and U+2029) each end a line."""
    text = data.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    return re.split("\r\n|\r|\n|\x85|\u2028|\u2029", text)


def _frontmatter(lines: list[str]) -> tuple[dict[str, object], list[str]]:
    """The frontmatter mapping and the keys any of its mappings holds twice."""
    assert lines[0].strip() == "---", lines[:3]
    close = next(i for i in range(1, len(lines)) if lines[i].strip() in ("---", "..."))
    node = yaml.compose("\n".join(lines[1:close]), Loader=yaml.SafeLoader)
    twice: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.MappingNode):
            names = [key.value for key, _ in current.value]
            twice += sorted({name for name in names if names.count(name) > 1})
            stack += [value for _, value in current.value]
    loaded = yaml.safe_load("\n".join(lines[1:close]))
    assert isinstance(loaded, dict)
    return loaded, twice


def _value(meta: dict[str, object], key: str) -> object:
    parent, _, child = key.rpartition(".")
    holder = meta.get(parent) if parent else meta
    assert isinstance(holder, dict), (key, meta)
    return holder.get(child)


def _check_written(path: Path, step: list[str], expected: dict[str, object]) -> None:
    lines = _as_markdown_lines(path.read_bytes())
    meta, twice = _frontmatter(lines)
    assert not twice, f"`{' '.join(step)}` wrote a key twice: {twice}"
    ledgers = [line for line in lines if re.fullmatch(r"##[ \t]+Iterations[ \t]*", line)]
    assert len(ledgers) == 1, f"`{' '.join(step)}` wrote {len(ledgers)} `## Iterations` sections"
    for key, value in expected.items():
        assert _value(meta, key) == value, (step, key, meta)


@pytest.mark.parametrize("style", list(STYLES))
def test_every_editing_command_edits_in_place_or_refuses(tmp_path: Path, style: str) -> None:
    root = make_repo(tmp_path / "repo")
    (root / "README.md").write_text("hello from the readme\n", encoding="utf-8")
    text = (
        goal_text(rows=ROWS)
        .replace("| C2 | criterion of C2 |", f"{REVIEW_ROW}\n| C2 | criterion of C2 |")
        .replace("  tokens: null ", "  tokens: 1000 ")
        .replace("## Plan\n", "## Plan\n" + PLAN, 1)
    )
    assert PLAN in text
    path = root / "goals" / "demo.md"
    path.write_bytes(STYLES[style](text).encode("utf-8"))
    found_before = _lint_messages(root, style)
    wrote = 0
    for step, codes, expected in STEPS:
        args = [step[0], "goals/demo.md", *step[1:]]  # `review PATH ID`: the id follows
        before = path.read_bytes()
        code, stderr = _run(root, args, style)
        if code == 3:
            assert path.read_bytes() == before, f"`{' '.join(step)}` refused but wrote"
            assert "goals/demo.md" in stderr, stderr
            continue
        assert code in codes, (step, code, stderr)
        wrote += 1
        _check_written(path, step, expected)
    if wrote:
        # what lint finds after the edits it found before them: nothing, or (`\r\r\n`, which
        # Markdown reads as two line endings, so GitHub shows no criteria table) the file's own
        # rendered-differs errors, which activate refuses on
        messages = _lint_messages(root, style)
        assert not [m for m in messages if "written twice" in m], messages
        assert set(messages) <= set(found_before), messages
    if style in ("lf", "crlf", "crlf-first-then-lf", "bom-crlf"):
        assert found_before == []
        assert wrote == len(STEPS), f"{style}: only {wrote} of {len(STEPS)} commands wrote"
    if style == "cr-cr-lf":
        assert found_before and all("carriage return" in m for m in found_before), found_before


def _lint_messages(root: Path, style: str) -> list[str]:
    if style in END_TO_END:
        linted = run_goalfile("lint", "--json", "goals/demo.md", cwd=root)
        code, stdout, stderr = linted.returncode, linted.stdout, linted.stderr
    else:
        with contextlib.chdir(root):
            result = invoke("lint", "--json", "goals/demo.md")
        assert crashed(result) is None, crashed(result)
        code, stdout, stderr = result.exit_code, result.stdout, result.stderr
    report = json.loads(stdout)
    messages = [str(f["message"]) for f in report["files"][0]["findings"]]
    assert code == (3 if messages else 0), stdout + stderr
    return messages
