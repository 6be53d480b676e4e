"""The fixes of tests/test_fix_words.py put through the real Gemini CLI's own check of a shell
command (`detectBashSubstitution`, read from the installed CLI's bundle and run by node): each
is let through, where the forms they replace (`"$(printf ...)"`, `"$(realpath ...)"`,
`"$(mktemp -d ...)"`) were refused ("Command injection detected")."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from host_install import install_cli
from host_run_more import GEMINI_CLI
from test_fix_words import SITUATIONS, Printed

REFUSED = [
    "goalfile lint \"$(printf 'goals/\\377.md')\"",
    'git show ":3:./$(realpath --relative-to=. /repo/goals/g.md)"',
    'export TMPDIR="$(mktemp -d "$HOME/.goalfile-tmp.XXXXXX")"',
]


def _detector() -> str:
    """The source of Gemini CLI's `detectBashSubstitution`, as its installed bundle holds it."""
    binary = install_cli(GEMINI_CLI)
    bundle = binary.resolve().parent
    head = "function detectBashSubstitution(command) {"
    for chunk in sorted(bundle.glob("*.js")):
        text = chunk.read_text(encoding="utf-8", errors="replace")
        at = text.find(head)
        if at >= 0:
            end = re.compile(r"^}\n", re.MULTILINE).search(text, at)
            assert end is not None, chunk
            return text[at : end.end()]
    raise AssertionError(f"no {head} in {bundle}: the check moved; read it again")


def refused(commands: list[str]) -> list[bool]:
    node = shutil.which("node")
    assert node is not None, "node runs the Gemini CLI"
    script = _detector() + (
        "const commands = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
        "console.log(JSON.stringify(commands.map(detectBashSubstitution)));\n"
    )
    done = subprocess.run(
        [node, "-e", script], input=json.dumps(commands), capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert isinstance(answer, list)
    return [bool(x) for x in answer]


def test_the_forms_replaced_are_those_gemini_refuses() -> None:
    assert refused(REFUSED) == [True, True, True]


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda f: f.__name__)
def test_gemini_lets_each_printed_fix_through(
    tmp_path: Path, situation: Callable[[Path], Printed]
) -> None:
    printed = situation(tmp_path)
    assert refused([printed.command]) == [False], printed.command
