"""A note goalfile writes with two tilde runs is shown as typed by GitHub and kept by mdformat.

GitHub's cmark-gfm strikes out the text between two single tildes as well as between two
double ones: a re-approval `--reason "compare HEAD~1 and HEAD~2"` was written bare and a
reviewer saw `1 and HEAD` struck out; mdformat takes the escape of a single tilde away
(`HEAD\\~1` comes back `HEAD~1`), and mdformat 0.7 with mdformat-tables that of a double one
too. A code span is the one form both keep: such a text is written as one, and read back as
the text in it by `audit` and `log`.

Real goalfile processes, cmark-gfm (GitHub's renderer), mdformat 1.0 with mdformat-gfm and
mdformat 0.7.22 with mdformat-tables.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cmarkgfm
import pytest
from conftest import approved_repo, git, run_goalfile

from tests.pypi_tools import install_venv
from tests.test_formatter_matrix import MDFORMAT_TABLES

REASON = "compare HEAD~1 and HEAD~2, not ~~main~~"


@pytest.mark.parametrize("formatter", ["mdformat-gfm", "mdformat-tables"])
def test_a_reason_with_tildes_survives_mdformat_and_github(tmp_path: Path, formatter: str) -> None:
    repo = approved_repo(tmp_path / "app", "g", "ok", "--check", "true", "--expected", "exit 0")
    git(repo, "checkout", "-qb", "work")
    goal = repo / "goals" / "g.md"
    text = goal.read_text(encoding="utf-8")
    goal.write_text(text.replace("| `true` | exit 0 |", "| `true` | exit 0; stdout empty |"))
    done = run_goalfile("activate", "--reapprove", "goals/g.md", "--reason", REASON, cwd=repo)
    assert done.returncode == 0, done.stderr
    written = goal.read_text(encoding="utf-8")
    (line,) = [line for line in written.splitlines() if line.startswith("reason: ")]
    html = cmarkgfm.github_flavored_markdown_to_html(line)
    assert "<del>" not in html and "HEAD~1 and HEAD~2, not ~~main~~" in html, html  # was struck
    if formatter == "mdformat-gfm":
        command = [sys.executable, "-m", "mdformat", "goals/g.md"]
    else:
        command = [str(install_venv(MDFORMAT_TABLES)), "goals/g.md"]
    formatted = subprocess.run(command, cwd=repo, capture_output=True, text=True)
    assert formatted.returncode == 0, formatted.stderr
    assert line in goal.read_text(encoding="utf-8").splitlines()  # kept as written
    audit = run_goalfile("audit", "--against", "main", "goals/g.md", cwd=repo)
    assert f"reason: {REASON}" in audit.stdout, audit.stdout
    log = run_goalfile("log", "goals/g.md", cwd=repo)
    assert "HEAD`~`" not in log.stdout and "`compare" not in log.stdout, log.stdout
