"""`goalfile doctor` on a Codex Stop hook declared in a `config.toml` (the project's or the
user's), in the shapes a person writes it: the `[[hooks.Stop.hooks]]` table, which
`--fix-timeouts` edits in place, and an inline table, which it cannot: then no fix is printed,
and the hint says what to write. (tests/hosts/test_codex_config_hooks.py runs the real Codex.)
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from conftest import make_git_repo, run_goalfile

BIN = str(Path(sys.executable).parent)  # holds the goalfile under test; no codex on it


def environment(home: Path) -> dict[str, str]:
    return {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(home), "CODEX_HOME": str(home / ".codex")}


def setup(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository whose Codex hook lives in config.toml: `init`'s hooks.json removed."""
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    env = environment(home)
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=env)
    assert done.returncode == 0, done.stderr
    (repo / ".codex" / "hooks.json").unlink()
    return repo, env


def codex(repo: Path, env: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    found: dict[str, list[dict[str, Any]]] = {}
    for finding in json.loads(done.stdout)["findings"]:
        if finding["host"] == "codex":
            found.setdefault(finding["check"], []).append(finding)
    return found


TABLE = """\
model = "m"  # the user's own settings

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "goalfile hook stop --agent codex"
timeout = 600.5

[projects."/elsewhere"]
trust_level = "trusted"
"""


def test_a_fraction_in_the_users_config_toml_is_named_and_fixed_in_place(tmp_path: Path) -> None:
    repo, env = setup(tmp_path)
    config = Path(env["CODEX_HOME"]) / "config.toml"
    config.write_text(TABLE, encoding="utf-8")
    found = codex(repo, env)
    assert [(f["health"], f["detail"]) for f in found["hook"]] == [
        ("ok", f"Stop hook in {config}")
    ], found
    [timeout] = found["timeout"]
    assert timeout["health"] == "problem", timeout
    assert f"{config}: the Stop hook's `timeout = 600.5` is no timeout" in timeout["detail"]
    words = shlex.split(timeout["fix"])
    done = run_goalfile(*words[1:], cwd=repo, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    assert (
        f"{config}: `goalfile hook stop --agent codex`: `timeout = 600` written in place of "
        "600.5" in done.stdout
    ), done.stdout
    assert config.read_text(encoding="utf-8") == TABLE.replace("600.5", "600")
    assert codex(repo, env)["timeout"][0]["health"] == "ok"
    # init writes no .codex/hooks.json beside it: Codex would run both
    again = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=env)
    assert again.returncode == 0 and not (repo / ".codex" / "hooks.json").exists(), again.stdout


INLINE = """\
hooks = { Stop = [{ hooks = [{ type = "command", command = "goalfile hook stop --agent codex", \
timeout = 30 }] }] }
"""


def test_an_inline_table_gets_no_fix_it_cannot_apply(tmp_path: Path) -> None:
    repo, env = setup(tmp_path)
    config = repo / ".codex" / "config.toml"
    config.write_text(INLINE, encoding="utf-8")
    found = codex(repo, env)
    assert [f["detail"] for f in found["hook"]] == ["Stop hook in .codex/config.toml"]
    [timeout] = found["timeout"]
    assert timeout["health"] == "problem" and timeout["fix"] is None, timeout
    assert timeout["hint"] == (
        "`goalfile doctor --fix-timeouts` edits only a `[[hooks.Stop.hooks]]` table: write "
        "`--timeout 30` into its command in .codex/config.toml by hand"
    ), timeout
    done = run_goalfile("doctor", "--fix-timeouts", cwd=repo, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    assert config.read_text(encoding="utf-8") == INLINE


def test_a_config_toml_that_is_not_toml_is_named_with_its_line(tmp_path: Path) -> None:
    repo, env = setup(tmp_path)
    config = repo / ".codex" / "config.toml"
    config.write_text('[[hooks.Stop]]\ncommand = "goalfile\n', encoding="utf-8")
    found = codex(repo, env)
    problems = [f for f in found["hook"] if f["health"] == "problem"]
    assert any(
        ".codex/config.toml:2:" in f["detail"] and "not valid TOML" in f["detail"] for f in problems
    ), found


def test_a_config_toml_nested_too_deeply_is_named_not_a_traceback(tmp_path: Path) -> None:
    """TOML nested past Python's recursion limit made doctor and `init --mcp` end in a
    traceback (tomllib raises RecursionError): each names the file instead, and init writes
    nothing to it."""
    repo, env = setup(tmp_path)
    config = repo / ".codex" / "config.toml"
    deep = "a = " + "[" * 100_000 + "\n"
    config.write_text(deep, encoding="utf-8")
    problems = [f for f in codex(repo, env)["hook"] if f["health"] == "problem"]
    assert any(
        ".codex/config.toml: Codex cannot read the hooks in it: TOML nested too deeply to read"
        in f["detail"]
        for f in problems
    ), problems
    done = run_goalfile("init", "--no-goal", "--no-skills", "--mcp", cwd=repo, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    assert "config.toml: TOML nested too deeply to read" in done.stderr, done.stderr
    assert config.read_text(encoding="utf-8") == deep


def test_no_file_declaring_the_codex_hook_is_a_problem_init_fixes(tmp_path: Path) -> None:
    repo, env = setup(tmp_path)
    [missing] = codex(repo, env)["hook"]
    assert missing["health"] == "problem", missing
    assert missing["detail"] == (
        ".codex/hooks.json does not exist, and no config.toml Codex reads declares it: codex "
        "will not run the Stop hook"
    ), missing
    words = shlex.split(missing["fix"])
    done = run_goalfile(*words[1:], cwd=repo, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [f["detail"] for f in codex(repo, env)["hook"]] == ["Stop hook in .codex/hooks.json"]


def test_init_writes_no_project_hook_where_the_users_hooks_json_declares_it(
    tmp_path: Path,
) -> None:
    """init looked at config.toml files only: with the hook in ~/.codex/hooks.json it still
    wrote .codex/hooks.json, and doctor, right after, reported the hook declared twice."""
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    stop = {"type": "command", "command": "goalfile hook stop --agent codex", "timeout": 600}
    users = home / ".codex" / "hooks.json"
    users.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [stop]}]}}))
    env = environment(home)
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=env)
    assert done.returncode == 0, done.stderr
    assert not (repo / ".codex" / "hooks.json").exists()
    assert f"Stop hook already in {users}" in done.stdout, done.stdout
    hook = codex(repo, env)["hook"]
    assert not [f for f in hook if f["health"] == "problem"], hook
