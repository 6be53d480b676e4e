"""The emoji shortcodes goalfile takes GitHub to draw (goalfile/gemoji_names.py) are GitHub's
list, gemoji, as the npm package ships it: installed from the npm registry and read by node,
and the module is what tools/make_gemoji_names.mjs writes from it. Nothing is skipped: without
node, npm or the registry the test fails with the command that failed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from goalfile.gemoji_names import NAMES, VERSION
from tests.hosts.host_install import run_install

ROOT = Path(__file__).resolve().parent.parent


def test_the_names_are_gemojis_and_the_module_is_what_the_tool_writes(tmp_path: Path) -> None:
    npm, node = shutil.which("npm"), shutil.which("node")
    assert npm and node, "node and npm are needed to read gemoji"
    command = [npm, "install", "--prefix", str(tmp_path), "--no-audit", "--no-fund"]
    run_install([*command, f"gemoji@{VERSION}"], registry="npm registry")
    script = tmp_path / "names.mjs"
    script.write_text(
        "import {gemoji} from 'gemoji'\n"
        "console.log(JSON.stringify(gemoji.flatMap((entry) => entry.names)))\n",
        encoding="utf-8",
    )
    said = subprocess.run([node, str(script)], capture_output=True, text=True, check=True)
    listed = set(json.loads(said.stdout))
    assert len(listed) > 1800 and {"x", "+1", "thumbsup", "tada"} <= listed
    assert set(NAMES) == listed
    tool = tmp_path / "make_gemoji_names.mjs"
    shutil.copy(ROOT / "tools" / "make_gemoji_names.mjs", tool)
    made = subprocess.run([node, str(tool)], capture_output=True, text=True, check=True)
    assert made.stdout == (ROOT / "goalfile" / "gemoji_names.py").read_text(encoding="utf-8")
