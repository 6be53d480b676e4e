"""`new` names a nox or npm check in a project without the runner's file: `nox -s tests` with no
noxfile.py (nox exits 2, "Failed to load Noxfile"), `npm test` with no package.json there or
above (npm exits 254, "Could not read package.json"). The project is the pyproject-api 1.12.1
sdist (tests/test_tox_config_files), which has neither; nox and npm are the real ones, run by a
real `verify --no-write`: `unmet`, with the exit the note says. Once the file is there, no note.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from goalfile.commands import operands
from tests.conftest import run_goalfile
from tests.pypi_tools import install_venv
from tests.test_operands_pluggy import RUNNERS, env, new_with_notes
from tests.test_tox_config_files import API, extract

CHECKS = {
    "C1": (
        "nox -s tests",
        'there is no noxfile.py in the folder nox runs in: nox stops, "Failed to load Noxfile',
        "2",
    ),
    "C2": ("npm test", "npm finds no package.json in the folder it runs in or one above it", "254"),
    "C3": (
        "cd docs && npm run build",
        "npm finds no package.json in the folder it runs in or one above it",
        "254",
    ),
}


def test_no_noxfile_and_no_package_json_are_named(tmp_path: Path) -> None:
    runners = install_venv(RUNNERS).parent
    root = extract(API, tmp_path)
    above = [
        p
        for p in (root, *root.parents)
        if (p / "package.json").exists() or (p / "node_modules").exists()
    ]
    assert not above, f"npm would run in {above[0]}: this test needs no package.json above {root}"
    notes = new_with_notes(root, "the runners", [c for c, _, _ in CHECKS.values()], env(runners))
    assert len(notes) == len(CHECKS), notes
    for cid, (_, said, status) in CHECKS.items():
        assert said in notes[cid] and f"exit {status}," in notes[cid], notes[cid]
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md",
        cwd=root, env={**env(runners), "HOME": str(tmp_path)}, timeout=300,
    )  # fmt: skip
    rows = {row["id"]: row for row in json.loads(ran.stdout)["rows"]}
    for cid, (_, _, status) in CHECKS.items():
        assert (rows[cid]["verdict"], rows[cid]["exit"]) == ("unmet", status), rows[cid]
    assert "Failed to load Noxfile" in rows["C1"]["evidence"], rows["C1"]

    (root / "noxfile.py").write_text(
        "import nox\n\n\n@nox.session\ndef tests(session):\n    pass\n"
    )
    (root / "package.json").write_text('{"scripts": {"test": "true"}}\n')
    (root / "docs" / "package.json").write_text('{"scripts": {"build": "true"}}\n')
    checks = [(cid, check) for cid, (check, _, _) in CHECKS.items()]
    assert operands.missing(checks, shell="/bin/sh", cwd=root, env={"PATH": os.defpath}) == {}
