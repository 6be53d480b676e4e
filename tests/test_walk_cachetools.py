"""A new user's first hour on cachetools 5.5.2 (setup.cfg, tox.ini, src/ layout), the sdist
downloaded once into the cache outside the clone (tests/test_walk.sdist).

npm: a failed npm command ends its stderr with the path of its log (`npm error A complete log of
this run can be found in: ...`); the row's evidence is the first line of npm's error block that
says why (`npm error Missing script: "lnit"`), with the real npm under a real verify.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tarfile
from pathlib import Path

import pytest

from goalfile.expect import Evaluator, parse_expected
from tests.conftest import make_git_repo, run_goalfile
from tests.test_operands_pluggy import new_with_notes
from tests.test_walk import sdist

VERSION = "5.5.2"
NAME = f"cachetools-{VERSION}"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with tarfile.open(sdist("cachetools", VERSION, f"{NAME}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    return make_git_repo(tmp_path / NAME)


def env(home: Path) -> dict[str, str]:
    path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    return {"PATH": path, "HOME": str(home)}  # npm's logs go under HOME


def test_an_npm_row_says_why_not_where_the_log_is(project: Path, tmp_path: Path) -> None:
    assert shutil.which("npm"), "this test needs npm on PATH (README: Node.js and npm)"
    above = [p for p in project.parents if (p / "package.json").exists()]
    assert not above, f"npm would find {above[0]}: this test needs no package.json above"
    (project / "docs" / "package.json").write_text('{"scripts": {"build": "true"}}\n')
    checks = {
        "C1": ("cd docs && npm run lnit", 'npm error Missing script: "lnit"', "1"),
        "C2": (
            "npm test",
            "npm error enoent Could not read package.json: Error: ENOENT: no such file or "
            f"directory, open '{project.resolve()}/package.json'",
            "254",
        ),
    }
    notes = new_with_notes(project, "npm", [c for c, _, _ in checks.values()], env(tmp_path))
    assert set(notes) == {"C1", "C2"}, notes
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md",
        cwd=project, env=env(tmp_path), timeout=300,
    )  # fmt: skip
    rows = {row["id"]: row for row in json.loads(ran.stdout)["rows"]}
    for cid, (_, said, status) in checks.items():
        assert (rows[cid]["verdict"], rows[cid]["exit"]) == ("unmet", status), rows[cid]
        assert rows[cid]["evidence"] == said, rows[cid]
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md", cwd=project, env=env(tmp_path), timeout=300
    )
    c1 = next(line for line in shown.stdout.splitlines() if line.startswith("C1 "))
    assert c1.endswith('last line: npm error Missing script: "lnit"'), c1
    # what npm printed, fed in pieces of every size, and with the notice of a newer npm that it
    # prints before its log's path now and then (as npm 11.19.1 did): the same line
    lines = shown.stdout.splitlines()
    after = lines[lines.index(c1) + 1 :]
    printed = [
        line.split("│ ", 1)[1]
        for line in after[: after.index(next(x for x in after if "C2" in x))]
        if "│ " in line
    ]
    assert printed[-1].startswith("npm error A complete log of this run can be found in"), printed
    notice = [
        "npm notice",
        "npm notice New minor version of npm available! 11.19.1 -> 11.21.3",
        "npm notice Changelog: https://github.com/npm/cli/releases/tag/v11.21.3",
        "npm notice To update run: npm install -g npm@11.21.3",
        "npm notice",
    ]
    for shape in (printed, [*printed[:-1], *notice, printed[-1]], [*printed, *notice]):
        output = ("\n".join(shape) + "\n").encode()
        for size in (1, 7, 64, len(output)):
            evaluator = Evaluator(parse_expected("exit 0"))
            for at in range(0, len(output), size):
                evaluator.feed("stderr", output[at : at + size])
            assert evaluator.finish(1).evidence == 'npm error Missing script: "lnit"', size
