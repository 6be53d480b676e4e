"""`new` names a `yarn run` / `pnpm run` script package.json does not have, and a yarn or pnpm
script where there is no package.json, as it does for npm. The project is the pyproject-api
1.12.1 sdist (tests/test_tox_config_files) with a docs site's package.json written in docs/
(the sdist ships none); yarn 1.22.22 and pnpm 12.23.0 are the real ones from the npm registry,
pinned in the cache (tests/npm_tools.py), and each noted row is run by a real `verify
--no-write`: `unmet`, with the exit the note says. `yarn X` and `pnpm X` without `run` run a
binary of that name when there is no script: they are not noted.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from goalfile.commands import operands
from tests.conftest import run_goalfile
from tests.npm_tools import NpmTool, install_npm
from tests.test_operands_pluggy import new_with_notes
from tests.test_tox_config_files import API, extract

YARN = NpmTool(packages=("yarn@1.22.22",), bin="yarn", version="1.22.22")
PNPM = NpmTool(packages=("pnpm@12.23.0",), bin="pnpm", version="12.23.0")
PACKAGE = '{"name": "docs-site", "private": true, "scripts": {"build": "true", "test": "true"}}\n'

# id: (check, what the note says, the exit it says)
NOTED = {
    "C1": ("cd docs && yarn run biuld", "package.json has no script `biuld`: yarn stops", "1"),
    "C2": ("cd docs && pnpm run biuld", "package.json has no script `biuld`: pnpm stops", "1"),
    "C3": ("yarn test", "yarn finds no package.json in the folder it runs in or one above", "1"),
    "C4": (
        "pnpm run build",
        "pnpm finds no package.json in the folder it runs in or one above",
        "1",
    ),
}
CLEAN = [
    "cd docs && yarn run build",
    "cd docs && yarn test",
    "cd docs && pnpm run build",
    "cd docs && pnpm test",
    "cd docs && pnpm biuld",  # pnpm would run a binary `biuld`
    "cd docs && yarn biuld",
    "pnpm -C docs run build",
    "yarn --cwd docs run build",
]


def env(*tools: NpmTool, home: Path) -> dict[str, str]:
    bins = ":".join(str(install_npm(tool) / "node_modules" / ".bin") for tool in tools)
    path = f"{bins}:{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    return {"PATH": path, "HOME": str(home)}


def test_yarn_and_pnpm_scripts_not_there_are_named(tmp_path: Path) -> None:
    root = extract(API, tmp_path)
    above = [p for p in (root, *root.parents) if (p / "package.json").exists()]
    assert not above, f"yarn would find {above[0]}: this test needs no package.json above {root}"
    (root / "docs" / "package.json").write_text(PACKAGE)
    environ = env(YARN, PNPM, home=tmp_path)
    notes = new_with_notes(root, "the docs site", [c for c, _, _ in NOTED.values()], environ)
    assert len(notes) == len(NOTED), notes
    for cid, (_, said, status) in NOTED.items():
        assert said in notes[cid] and f"exit {status}," in notes[cid], notes[cid]

    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=root, env=environ, timeout=300
    )
    rows = {row["id"]: row for row in json.loads(ran.stdout)["rows"]}
    for cid, (_, _, status) in NOTED.items():
        assert (rows[cid]["verdict"], rows[cid]["exit"]) == ("unmet", status), rows[cid]

    checks = [(f"C{at}", check) for at, check in enumerate(CLEAN, 1)]
    assert operands.missing(checks, shell="/bin/sh", cwd=root, env=environ) == {}
    runs = CLEAN[:4] + CLEAN[6:]  # those that run a script
    clean = run_goalfile(
        "new", "clean", "the docs site", "--non-goal", "src/ stays",
        *[arg for check in runs for arg in ("--check", check, "--expected", "exit 0")],
        cwd=root, env=environ,
    )  # fmt: skip
    assert "note: C" not in clean.stderr, clean.stderr
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/clean.md", cwd=root, env=environ, timeout=300
    )
    assert {row["verdict"] for row in json.loads(ran.stdout)["rows"]} == {"met"}, ran.stdout
