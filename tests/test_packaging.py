"""What an installed goalfile carries, and what starting it costs."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _build_wheel(out: Path) -> Path:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("goalfile-*.whl")
    return wheel


def test_the_wheel_carries_skills_templates_and_type_information(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path / "dist")
    names = set(zipfile.ZipFile(wheel).namelist())
    for skill in ("goal", "plan", "verify-goal", "refine-goal"):
        assert f"goalfile/_data/skills/{skill}/SKILL.md" in names
    assert "goalfile/_data/templates/goal.md" in names
    assert "goalfile/_data/extensions/pi/goalfile/goalfile.mjs" in names
    assert "goalfile/_data/extensions/pi/goalfile/package.json" in names
    assert "goalfile/py.typed" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "goalfile = goalfile.__main__:run" in zipfile.ZipFile(wheel).read(entry_points).decode()

    # unpacked away from the checkout, the package finds its own copies
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, goalfile.resources as r; "
            "names = ('skills', 'templates', 'extensions'); "
            "print(json.dumps([str(r.data_dir(n)) for n in names]))",
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    skills, templates, extensions = json.loads(done.stdout)
    assert skills == str(site / "goalfile" / "_data" / "skills")
    assert templates == str(site / "goalfile" / "_data" / "templates")
    assert extensions == str(site / "goalfile" / "_data" / "extensions")


def test_starting_the_cli_does_not_import_the_heavy_modules() -> None:
    heavy = [
        "markdown_it",
        "yaml",
        "frontmatter",
        "filelock",
        "goalfile.parse",
        "goalfile.run",
        "goalfile.expect",
        "subprocess",
    ]
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, json, goalfile.cli; "
            f"print(json.dumps([m for m in {heavy!r} if m in sys.modules]))",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
