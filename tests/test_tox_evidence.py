"""The evidence of a tox row that failed is tox's line saying why, not its closing report
(`evaluation failed :(`, `py312: FAIL code 1 (...)`): the real tox (tests/test_tox_config_files)
on pyproject-api 1.12.1 (tox.toml, skip_missing_interpreters, tox-uv) and on pluggy 1.7.0
(tox.ini, tox alone), each asked for a Python that is not there (3.99; uv may not download
one). Fed to the evaluator in pieces of any size, the line is the same.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from goalfile.expect import Evaluator, parse_expected
from tests.conftest import run_goalfile
from tests.pypi_tools import PypiTool, install_venv
from tests.test_operands_pluggy import RUNNERS
from tests.test_tox_config_files import API, PLUGGY, TOX, env, extract

# pyproject-api's tox.toml requires tox-uv: tox with it; pluggy's tox.ini does not: tox alone
CASES = [
    (
        TOX,
        API,
        "3.99",
        "3.99: skipped because could not find python interpreter with spec(s): cpython3.99",
    ),
    (
        RUNNERS,
        PLUGGY,
        "py3.99",
        "py3.99: failed with could not find python interpreter matching any of the specs py3.99",
    ),
]


@pytest.mark.parametrize(("tool", "which", "name", "why"), CASES)
def test_a_tox_row_says_why_the_environment_did_not_run(
    tmp_path: Path, tool: PypiTool, which: tuple[str, str, str], name: str, why: str
) -> None:
    tox = install_venv(tool)
    root = extract(which, tmp_path)
    done = run_goalfile(
        "new", "first", "tox on a Python not there", "--non-goal", "src/ stays",
        "--check", f"tox -e {name}", "--expected", "exit 0",
        cwd=root, env=env(tox),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md",
        cwd=root, env={**env(tox), "UV_PYTHON_DOWNLOADS": "never"}, timeout=300,
    )  # fmt: skip
    row = json.loads(ran.stdout)["rows"][0]
    assert (row["verdict"], row["exit"]) == ("unmet", "1"), row
    assert row["evidence"] == why, row
    # what tox printed, fed back in pieces of every size: the same line
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md",
        cwd=root, env={**env(tox), "UV_PYTHON_DOWNLOADS": "never"}, timeout=300,
    )  # fmt: skip
    printed = [
        re.sub(r"^\s*│ ?", "", line) for line in shown.stdout.splitlines() if "│" in line
    ] or [re.sub(r"^\s*│ ?", "", line) for line in shown.stderr.splitlines() if "│" in line]
    assert printed[-1].lstrip().startswith("evaluation failed :("), printed
    output = ("\n".join(printed) + "\n").encode()
    for size in (1, 7, 64, len(output)):
        evaluator = Evaluator(parse_expected("exit 0"))
        for at in range(0, len(output), size):
            evaluator.feed("stdout", output[at : at + size])
        assert evaluator.finish(1).evidence == why, size
