"""`goalfile init --mcp`: every host surface set up, `goalfile mcp` registered, merged."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from conftest import run_goalfile

from goalfile.hostmcp import merge_codex_mcp


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int, int]]:
    """Every file but .git's: its bytes, mode, inode and modification time (a file written
    again with the same bytes is a change too: an atomic write gives it a new inode)."""
    found: dict[str, tuple[bytes, int, int, int]] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and ".git" not in path.relative_to(root).parts:
            stat = path.stat()
            found[str(path.relative_to(root))] = (
                path.read_bytes(),
                stat.st_mode,
                stat.st_ino,
                stat.st_mtime_ns,
            )
    return found


def test_init_sets_up_all_five_surfaces_and_a_second_run_changes_nothing(repo: Path) -> None:
    first = run_goalfile("init", "--mcp", "--json", cwd=repo)
    assert first.returncode == 0, first.stderr
    server = {"command": "goalfile", "args": ["mcp"]}

    def hook(path: str, event: str) -> list[str]:
        groups = json.loads((repo / path).read_text())["hooks"][event]
        return [h["command"] for g in groups for h in g["hooks"]]

    # Claude Code: Stop hook, MCP server, skills
    assert hook(".claude/settings.json", "Stop") == ["goalfile hook stop --agent claude"]
    assert json.loads((repo / ".mcp.json").read_text()) == {"mcpServers": {"goalfile": server}}
    assert (repo / ".claude" / "skills" / "verify-goal" / "SKILL.md").is_file()
    # Codex: Stop hook, MCP server, skills
    assert hook(".codex/hooks.json", "Stop") == ["goalfile hook stop --agent codex"]
    codex = tomllib.loads((repo / ".codex" / "config.toml").read_text())
    assert codex == {"mcp_servers": {"goalfile": server}}
    assert (repo / ".agents" / "skills" / "verify-goal" / "SKILL.md").is_file()
    # Gemini CLI: AfterAgent hook and MCP server in one settings file
    assert hook(".gemini/settings.json", "AfterAgent") == ["goalfile hook stop --agent gemini"]
    gemini = json.loads((repo / ".gemini" / "settings.json").read_text())
    assert gemini["mcpServers"] == {"goalfile": server}
    # pi: the extension
    assert (
        "hook stop --agent pi"
        in (repo / ".pi" / "extensions" / "goalfile" / "goalfile.mjs").read_text()
    )
    before = snapshot(repo)
    second = run_goalfile("init", "--mcp", "--json", cwd=repo)
    assert second.returncode == 0
    assert json.loads(second.stdout)["changed"] is False
    assert snapshot(repo) == before
    third = run_goalfile("init", "--mcp", cwd=repo)
    assert "nothing to change" in third.stdout


def test_existing_servers_and_settings_are_kept(repo: Path) -> None:
    (repo / ".mcp.json").write_text(
        '{\n    "mcpServers": {"db": {"command": "db-mcp"}},\n    "other": 1\n}\n'
    )
    (repo / ".codex").mkdir()
    config = '# mine\nmodel = "o4"\n\n[mcp_servers.db]\ncommand = "db-mcp"\n'
    (repo / ".codex" / "config.toml").write_text(config)
    assert run_goalfile("init", "--mcp", "--no-goal", cwd=repo).returncode == 0
    claude = json.loads((repo / ".mcp.json").read_text())
    assert list(claude["mcpServers"]) == ["db", "goalfile"]
    assert claude["other"] == 1
    assert '    "other": 1' in (repo / ".mcp.json").read_text(), "indentation kept"
    text = (repo / ".codex" / "config.toml").read_text()
    assert text.startswith(config), "the existing text is kept byte for byte"
    parsed = tomllib.loads(text)
    assert parsed["model"] == "o4"
    assert set(parsed["mcp_servers"]) == {"db", "goalfile"}


def test_a_goalfile_server_registered_by_hand_is_left_alone(repo: Path) -> None:
    (repo / ".mcp.json").write_text('{"mcpServers": {"goalfile": {"command": "/opt/gf"}}}\n')
    before = (repo / ".mcp.json").read_text()
    assert run_goalfile("init", "--mcp", "--no-goal", cwd=repo).returncode == 0
    assert (repo / ".mcp.json").read_text() == before


def test_invalid_toml_is_reported_and_left_untouched(repo: Path) -> None:
    (repo / ".codex").mkdir()
    bad = 'model = "o4"\n[mcp_servers\n'
    (repo / ".codex" / "config.toml").write_text(bad)
    done = run_goalfile("init", "--mcp", "--no-goal", cwd=repo)
    assert done.returncode == 3
    assert ".codex/config.toml:2:" in done.stderr
    assert "Traceback" not in done.stderr
    assert (repo / ".codex" / "config.toml").read_text() == bad
    assert "goalfile" in json.loads((repo / ".mcp.json").read_text())["mcpServers"]


def test_the_appended_table_parses_whatever_the_file_ends_with() -> None:
    for text in ("", "a = 1", "a = 1\n", "a = 1\n\n", "[t]\nb = 2"):
        merged, changed = merge_codex_mcp(text)
        assert changed
        assert tomllib.loads(merged)["mcp_servers"]["goalfile"]["args"] == ["mcp"]
        assert merge_codex_mcp(merged) == (merged, False)


INIT_FLAGS = ("--no-skills", "--no-hooks", "--mcp", "--statusline")  # as init's fix orders them


@pytest.mark.parametrize(
    ("name", "what", "args"),
    [
        (".claude/settings.json", "the settings file", ("--no-skills",)),
        (".claude/settings.json", "the settings file", ("--statusline", "--no-hooks")),
        (".mcp.json", "the MCP configuration", ("--mcp", "--no-hooks")),
    ],
)
def test_a_host_file_that_is_no_json_object_is_named_and_left_as_it_is(
    repo: Path, name: str, what: str, args: tuple[str, ...]
) -> None:
    """Each host file goalfile merges into is refused the same way when its top level is no
    JSON object: the file, line and column, and a fix; the file is not written."""
    path = repo / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("[1]\n", encoding="utf-8")
    done = run_goalfile("init", "--no-goal", *args, cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    again = " ".join(["goalfile", "init", "--no-goal", *sorted(args, key=INIT_FLAGS.index)])
    assert (
        f"goalfile: {path}:1:1: {what} is not a JSON object\n"
        f"  fix: `{again}` once its top level is a JSON object ({{ ... }})\n"
    ) in done.stderr, done.stderr
    assert path.read_text(encoding="utf-8") == "[1]\n"
