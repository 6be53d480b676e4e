"""A host file init merges into that does not parse: the fix names a command that shows where.

The fix was "fix the JSON by hand, then run this again" (TOML the same), nothing to run. It
now begins with a command which, run by a shell as written, names the line and column where
the file breaks, the place the error names; then init's own command line to run again.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import make_git_repo, run_goalfile, shell


def first_and_again(stderr: str) -> tuple[str, str]:
    found = re.search(r"fix: `([^`]+)` names the line and column; fix the file there, then run "
                      r"`([^`]+)` again", stderr)  # fmt: skip
    assert found is not None, stderr
    return found.group(1), found.group(2)


def test_broken_json_settings_fix_shows_where_it_breaks(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "hooks": {,\n}\n', encoding="utf-8")
    done = run_goalfile("init", "--no-goal", cwd=repo)
    assert done.returncode == 3, done.stderr
    assert f"{settings}:2:13: not valid JSON" in done.stderr, done.stderr
    show, again = first_and_again(done.stderr)
    shown = shell(show, tmp_path)  # from another folder: the path is the file's own
    assert shown.returncode != 0
    assert "line 2 column 13" in shown.stderr, shown.stderr
    settings.write_text("{}\n", encoding="utf-8")
    assert shell(show, tmp_path).returncode == 0  # the file parses: nothing more to show
    assert shell(again, repo).returncode == 0
    assert "goalfile hook stop" in settings.read_text(encoding="utf-8")


def test_broken_codex_toml_fix_shows_where_it_breaks(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    config = repo / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "x"\n[a]\nx = = 1\n', encoding="utf-8")
    done = run_goalfile("init", "--no-goal", "--no-hooks", "--mcp", cwd=repo)
    assert done.returncode == 3, done.stderr
    assert f"{config}:3:5: not valid TOML" in done.stderr, done.stderr
    show, again = first_and_again(done.stderr)
    shown = shell(show, tmp_path)
    assert shown.returncode != 0
    assert "(at line 3, column 5)" in shown.stderr, shown.stderr
    config.write_text('model = "x"\n', encoding="utf-8")
    assert shell(show, tmp_path).returncode == 0
    assert shell(again, repo).returncode == 0
    assert "[mcp_servers.goalfile]" in config.read_text(encoding="utf-8")
