"""README, the goal skill and docs/format.md said three different things about how the clauses
of `expected` are joined (README and the skill: `;` or ` and `, "anything else is a lint
error"; format.md and verify's own hint: also `,`). Each now names every separator the parser
accepts, and a real `goalfile lint` takes each as it is, without a warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO, run_goalfile

SEPARATORS = [";", ",", " and "]


@pytest.mark.parametrize("sep", SEPARATORS)
def test_lint_takes_each_separator_without_a_finding(tmp_path: Path, sep: str) -> None:
    expected = f'exit 0{sep} stdout contains "x"'
    done = run_goalfile(
        "new", "g", "s", "--check", "echo x", "--expected", expected, "--non-goal", "n",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lint = run_goalfile("lint", "--json", "goals/g.md", cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout
    assert json.loads(lint.stdout)["files"][0]["findings"] == []
    verify = run_goalfile("verify", "--no-write", "--json", "goals/g.md", cwd=tmp_path)
    assert [row["verdict"] for row in json.loads(verify.stdout)["rows"]] == ["met"]


@pytest.mark.parametrize(
    ("path", "sentence"),
    [
        ("README.md", "joined by `;`, `,` or ` and `"),
        ("skills/goal/SKILL.md", "Clauses are joined by `;`, `,` or ` and `"),
        ("docs/format.md", "Clauses are joined by `;`, by `,` or by the word `and`"),
    ],
)
def test_each_doc_names_every_separator(path: str, sentence: str) -> None:
    text = " ".join((REPO / path).read_text(encoding="utf-8").split())
    assert sentence in text
