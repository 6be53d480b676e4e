"""Codex's session-start hook where its Stop hook is declared outside `.codex/hooks.json`.

`goalfile init` writes no `.codex/hooks.json` when a `config.toml` (the project's or the
user's) or the user's `hooks.json` declares goalfile's Stop hook already (Codex would run it
from both), and so added no `goalfile hook start` at all: the session's first stop compared
with no record. `goalfile doctor` said so with no `fix:` line ("add ... by hand"). init now
writes the start hook into the file that declares the Stop hook, and doctor's fix is init,
run here as written by a shell; a second init changes nothing. Real goalfile processes, a real
git repository, the real files Codex reads.
"""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import host_env, make_git_repo, run_goalfile

STOP_TOML = (
    "# the person's own settings\n[features]\ncodex_hooks = true\n\n[[hooks.Stop]]\n\n"
    '[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "goalfile hook stop --agent codex"\n'
    "timeout = 600\n"
)
STOP_JSON = {
    "hooks": {
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "goalfile hook stop --agent codex",
                        "timeout": 600,
                    }
                ]
            }
        ]
    }
}


def _start_finding(repo: Path, env: dict[str, str]) -> dict[str, Any]:
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    document = json.loads(done.stdout)
    (found,) = [f for f in document["findings"] if (f["host"], f["check"]) == ("codex", "start")]
    return found


def _start_commands(document: dict[str, Any]) -> list[str]:
    return [h["command"] for g in document["hooks"].get("SessionStart", []) for h in g["hooks"]]


@pytest.mark.parametrize("where", ["project-toml", "user-toml", "user-json"])
def test_the_start_hook_is_written_where_the_stop_hook_is_declared(
    tmp_path: Path, where: str
) -> None:
    repo = make_git_repo(tmp_path / "project")
    home = tmp_path / "home"
    env = host_env(home)
    folder = repo / ".codex" if where == "project-toml" else home / ".codex"
    folder.mkdir(parents=True)
    if where == "user-json":
        declared = folder / "hooks.json"
        declared.write_text(json.dumps(STOP_JSON, indent=2) + "\n", "utf-8")
    else:
        declared = folder / "config.toml"
        declared.write_text(STOP_TOML, "utf-8")
    before = declared.read_text("utf-8")

    found = _start_finding(repo, env)
    assert found["health"] == "problem", found
    assert "declares the Stop hook and no file Codex reads registers" in found["detail"], found
    assert found["fix"] == "goalfile init --no-goal --no-skills", found
    ran = subprocess.run(
        found["fix"], shell=True, cwd=repo, env=env, capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "registered the session-start hook in" in ran.stdout, ran.stdout
    assert not (repo / ".codex" / "hooks.json").exists()  # Codex would run the Stop hook twice

    after = declared.read_text("utf-8")
    if where == "user-json":
        document = json.loads(after)
        assert document["hooks"]["Stop"] == STOP_JSON["hooks"]["Stop"]
    else:
        assert after.startswith(before)  # the person's file, byte for byte, then the hook
        document = tomllib.loads(after)
    assert _start_commands(document) == ["goalfile hook start --agent codex"], after
    assert _start_finding(repo, env)["health"] == "ok"

    again = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=env)
    assert again.returncode == 0, again.stdout + again.stderr
    assert declared.read_text("utf-8") == after
    assert "registered the session-start hook" not in again.stdout


def test_a_config_toml_whose_hooks_are_an_inline_table_is_left_as_it_is(tmp_path: Path) -> None:
    """No table can be added under an inline `hooks = {...}`: init leaves the file untouched and
    says what to write there."""
    repo = make_git_repo(tmp_path / "project")
    env = host_env(tmp_path / "home")
    config = repo / ".codex" / "config.toml"
    config.parent.mkdir()
    text = (
        'hooks = { Stop = [{ hooks = [{ type = "command", command = "goalfile hook stop '
        '--agent codex", timeout = 600 }] }] }\n'
    )
    config.write_text(text, "utf-8")
    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=env)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "goalfile hook start --agent codex" in done.stderr, done.stderr
    assert config.read_text("utf-8") == text
