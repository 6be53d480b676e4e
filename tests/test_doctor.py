"""`goalfile doctor` and `init --trust-codex`: real repositories, goalfile as a real process.

The Codex trust check against the real `codex app-server` is in tests/hosts/test_codex_trust.py;
here `codex` is not on PATH, so the answer is "cannot tell".
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import clean_env, git, make_git_repo, run_goalfile

from goalfile.codexconfig import set_trusted_hash, trusted_hash

BIN = str(Path(sys.executable).parent)  # holds the goalfile under test
WITH_GOALFILE = {"PATH": f"{BIN}:/usr/bin:/bin"}
WITHOUT_GOALFILE = {"PATH": "/usr/bin:/bin"}


def doctor(repo: Path, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    done = run_goalfile("doctor", "--json", cwd=repo, env=env or WITH_GOALFILE)
    assert done.returncode in (0, 1), done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    assert report["exit_code"] == done.returncode
    return done.returncode, report


def findings(report: dict[str, Any], health: str) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["health"] == health]


def run_fix(command: str, repo: Path) -> None:
    """Run a fix as written, by a shell, with the goalfile under test on PATH."""
    done = subprocess.run(
        ["sh", "-c", command],
        cwd=repo,
        env=clean_env(WITH_GOALFILE),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, (command, done.stdout, done.stderr)


def set_up(repo: Path) -> None:
    """`goalfile init --no-goal`, and what it wrote committed, as README says."""
    run_fix("goalfile init --no-goal", repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "goalfile: skills and Stop hooks")


def test_a_bare_repository_gets_a_fix_for_every_problem_and_each_fix_works(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo")
    code, report = doctor(repo)
    assert code == 1
    problems = findings(report, "problem")
    assert {(f["host"], f["check"]) for f in problems} >= {
        ("claude", "hook"),
        ("codex", "hook"),
        ("skills", "skill"),
    }
    assert all(f["fix"] for f in problems), problems
    for fix in dict.fromkeys(f["fix"] for f in problems):
        run_fix(fix, repo)
    code, report = doctor(repo)  # what init wrote is there now, not committed yet
    problems = findings(report, "problem")
    assert {f["check"] for f in problems} == {"commit"}, problems
    for fix in dict.fromkeys(f["fix"] for f in problems):
        run_fix(fix, repo)
    code, report = doctor(repo)
    assert code == 0, report
    assert findings(report, "problem") == []
    [trust] = [f for f in report["findings"] if f["check"] == "trust"]
    assert trust["health"] == "unknown"
    assert "cannot tell" in trust["detail"] and "`codex` is not on PATH" in trust["detail"]


def lead(text: str) -> list[str]:
    """The commands doctor's text report leads with: the `fix:` lines under its first line."""
    lines = text.splitlines()
    assert lines[0].endswith(":"), text
    return [line.strip().removeprefix("fix: ") for line in lines[1:3] if "fix: " in line]


def test_a_fresh_repository_leads_with_two_commands_that_fix_every_problem(
    tmp_path: Path,
) -> None:
    """A fresh `git init`: twelve problems, and the report leads with the two commands that
    fix them all, run in order by a shell as written (init, then the commit README asks
    for); the problems are listed under them without a fix line each. Before, each problem
    printed its own fix, and committing was not among them."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile("doctor", cwd=repo, env=WITH_GOALFILE)
    assert done.returncode == 1
    assert done.stdout.startswith(
        "12 of 12 problems go away with these commands, run in this order:\n"
    )
    commands = lead(done.stdout)
    assert commands[0] == "goalfile init --no-goal", done.stdout
    assert commands[1].startswith("git add -f -- .claude/settings.json "), done.stdout
    assert done.stdout.count("fix: ") == 2, done.stdout  # none under each problem
    assert done.stdout.rstrip().endswith("\n12 problems found")
    for command in commands:
        run_fix(command, repo)
    done = run_goalfile("doctor", cwd=repo, env=WITH_GOALFILE)
    assert done.returncode == 0, done.stdout
    assert done.stdout.rstrip().endswith("no problems found")
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "log", "--format=%s") == "goalfile: skills and Stop hooks\n"


def test_hook_files_a_gitignore_names_are_committed_by_the_fix_as_printed(
    tmp_path: Path,
) -> None:
    """`.claude/` is often in a project's `.gitignore`: git refuses to add a path it ignores
    unless forced, so the commit doctor led with failed as printed, and once init had written
    them the ignored hook files were not named at all (a clone has no Stop hook there)."""
    repo = make_git_repo(tmp_path / "repo")
    (repo / ".gitignore").write_text(".claude/\n.agents/\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore")
    (repo / ".claude").mkdir()  # as Claude Code makes it, for its own local settings
    (repo / ".claude" / "settings.local.json").write_text("{}\n")
    done = run_goalfile("doctor", cwd=repo, env=WITH_GOALFILE)
    for command in lead(done.stdout):
        run_fix(command, repo)
    done = run_goalfile("doctor", cwd=repo, env=WITH_GOALFILE)
    assert done.returncode == 0, done.stdout
    tracked = git(repo, "ls-files").splitlines()
    assert ".claude/settings.json" in tracked and ".claude/settings.local.json" not in tracked
    assert any(path.startswith(".agents/skills/") for path in tracked), tracked
    git(repo, "rm", "-q", "--cached", ".claude/settings.json")
    git(repo, "commit", "-q", "-m", "drop the hook file from the index")
    code, report = doctor(repo)  # ignored and untracked again: named, and its fix works
    assert code == 1
    problems = findings(report, "problem")
    assert [f["detail"].split(" is ")[0] for f in problems] == [".claude/settings.json"]
    run_fix(problems[0]["fix"], repo)
    assert doctor(repo)[0] == 0


def test_hook_files_init_wrote_and_nobody_committed_are_a_problem_the_fix_commits(
    tmp_path: Path,
) -> None:
    """README asks to commit what `init` wrote (a clone or another worktree has only what
    is committed); doctor said nothing of it. The commit it names commits those files only,
    not what else is staged."""
    repo = make_git_repo(tmp_path / "repo")
    (repo / "staged.txt").write_text("mine\n")
    git(repo, "add", "staged.txt")
    run_fix("goalfile init --no-goal", repo)
    code, report = doctor(repo)
    assert code == 1
    problems = findings(report, "problem")
    assert [(f["host"], f["detail"].split(" is ")[0]) for f in problems] == [
        ("claude", ".claude/settings.json"),
        ("codex", ".codex/hooks.json"),
        ("gemini", ".gemini/settings.json"),
        ("pi", ".pi/extensions/goalfile"),
        ("skills", ".agents/skills"),
        ("skills", ".claude/skills"),
    ], problems
    assert "is not committed: a clone or another worktree" in problems[0]["detail"]
    [fix] = {f["fix"] for f in problems}
    done = run_goalfile("doctor", cwd=repo, env=WITH_GOALFILE)
    assert lead(done.stdout) == [fix], done.stdout
    run_fix(fix, repo)
    assert doctor(repo)[0] == 0
    assert git(repo, "status", "--porcelain") == "A  staged.txt\n"
    (repo / ".gemini" / "settings.json").write_text("{}\n")  # changed since: not committed
    [again] = [f for f in findings(doctor(repo)[1], "problem") if f["check"] == "commit"]
    assert again["detail"].startswith(".gemini/settings.json is not committed"), again


def test_goalfile_missing_from_the_hosts_path_is_a_problem(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    set_up(repo)
    code, report = doctor(repo, WITHOUT_GOALFILE)
    assert code == 1
    missing = [f for f in findings(report, "problem") if f["check"] == "path"]
    assert {f["host"] for f in missing} >= {"claude", "codex", "gemini"}
    assert "`goalfile` is not on PATH" in missing[0]["detail"]
    assert "full path" in missing[0]["hint"]


def test_a_codex_hook_not_on_path_is_named_with_the_file_that_holds_it(tmp_path: Path) -> None:
    """Fails before the change: a hook of .codex/config.toml whose goalfile is not on PATH was
    told to write the full path "into the command in .codex/hooks.json", where it is not."""
    repo = make_git_repo(tmp_path / "repo")
    run_fix("goalfile init --no-goal --no-skills", repo)
    (repo / ".codex" / "config.toml").write_text(
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\n'
        'command = "goalfile hook stop --agent codex --timeout 500"\n',
        encoding="utf-8",
    )
    _, report = doctor(repo, WITHOUT_GOALFILE)
    missing = {
        f["detail"]: f["hint"]
        for f in findings(report, "problem")
        if f["host"] == "codex" and f["check"] == "path"
    }
    assert len(missing) == 2, missing
    for detail, hint in missing.items():
        file = "config.toml" if "--timeout 500" in detail else "hooks.json"
        assert hint.endswith(f"the command in .codex/{file}") or f".codex/{file} (" in hint, hint


def test_the_gemini_cli_hook_is_checked_and_its_fix_keeps_the_other_settings(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo")
    set_up(repo)
    code, report = doctor(repo)
    assert code == 0, report
    ok = {(f["host"], f["check"]) for f in findings(report, "ok")}
    assert {("gemini", "hook"), ("gemini", "path")} <= ok
    settings = repo / ".gemini" / "settings.json"
    settings.write_text('{"hooks": {"AfterAgent": []}, "model": {"name": "m"}}\n')
    code, report = doctor(repo)
    assert code == 1
    problem, start, _ = findings(report, "problem")  # and: the file is not committed so
    assert (problem["host"], problem["check"]) == ("gemini", "hook")
    assert ".gemini/settings.json does not register `goalfile hook stop`" in problem["detail"]
    assert (start["host"], start["check"]) == ("gemini", "start")
    assert "registers no `goalfile hook start` under SessionStart" in start["detail"]
    assert start["fix"] == problem["fix"]
    run_fix(problem["fix"], repo)
    assert [f["check"] for f in findings(doctor(repo)[1], "problem")] == ["commit"]
    fixed = json.loads(settings.read_text())
    assert fixed["model"] == {"name": "m"}
    commands = [h["command"] for g in fixed["hooks"]["AfterAgent"] for h in g["hooks"]]
    assert commands == ["goalfile hook stop --agent gemini"]
    commands = [h["command"] for g in fixed["hooks"]["SessionStart"] for h in g["hooks"]]
    assert commands == ["goalfile hook start --agent gemini"]


def test_a_settings_file_that_is_not_json_is_named_with_its_position(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    set_up(repo)
    (repo / ".claude" / "settings.json").write_text('{"hooks": {\n  "Stop": [,]\n}}\n')
    code, report = doctor(repo)
    assert code == 1
    [bad] = [f for f in findings(report, "problem") if f["check"] == "hook"]
    assert ".claude/settings.json:2:" in bad["detail"] and "not valid JSON" in bad["detail"]
    assert bad["fix"] is None and "by hand" in bad["hint"]
    # named as the other findings name files, with doctor's one fix and no word of init's
    assert bad["detail"].startswith(".claude/settings.json:2:"), bad
    assert "fix" not in bad["detail"] and "left untouched" not in bad["detail"], bad
    text = run_goalfile("doctor", cwd=repo, env=WITH_GOALFILE).stdout
    assert "\n  fix:" not in text, text  # every line in doctor's columns
    assert [line for line in text.splitlines() if "by hand" in line] == [
        "                 fix .claude/settings.json by hand, then run "
        "`goalfile init --no-goal --no-skills`"
    ], text


def test_the_fix_for_goalfile_missing_from_path_names_this_goalfile_and_works(
    tmp_path: Path,
) -> None:
    """goalfile is not on PyPI: the hint once said `pipx install goalfile`, which fails. It
    names the goalfile that runs doctor, and its `ln -s` makes the host's PATH find it, on
    an account with no ~/.local/bin yet (a bare `ln -s` failed there)."""
    repo = make_git_repo(tmp_path / "repo")
    set_up(repo)
    home = tmp_path / "home"
    home.mkdir()
    code, report = doctor(repo, {**WITHOUT_GOALFILE, "HOME": str(home)})
    assert code == 1
    missing = [f for f in findings(report, "problem") if f["check"] == "path"]
    assert missing
    hint = missing[0]["hint"]
    assert "pipx install goalfile" not in hint and "pip install goalfile" not in hint
    this = str(Path(sys.executable).with_name("goalfile"))
    link = f"mkdir -p ~/.local/bin && ln -s {shlex.quote(this)} ~/.local/bin/goalfile"
    assert f"`{link}`" in hint, hint
    assert hint.endswith(f"({this})"), hint
    done = subprocess.run(
        ["sh", "-c", link],
        env={**WITHOUT_GOALFILE, "HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    host_path = {"PATH": f"{home}/.local/bin:/usr/bin:/bin", "HOME": str(home)}
    code, report = doctor(repo, host_path)
    assert not [f for f in findings(report, "problem") if f["check"] == "path"], report


def test_a_modified_or_invalid_skill_is_a_problem(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    set_up(repo)
    skill = repo / ".claude" / "skills" / "goal" / "SKILL.md"
    skill.write_text(skill.read_text().replace("name: goal", "name: other", 1))
    code, report = doctor(repo)
    assert code == 1
    details = [f["detail"] for f in findings(report, "problem")]
    assert any("goal: modified" in d for d in details), details
    assert any("SKILL.md names 'other', not 'goal'" in d for d in details), details
    run_fix("goalfile skills install --force", repo)
    assert doctor(repo)[0] == 0


def test_init_says_that_codex_skips_the_hook_until_it_is_trusted(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile("init", "--no-goal", cwd=repo, env=WITH_GOALFILE)
    assert done.returncode == 0
    assert "Codex skips the hooks in .codex/hooks.json until you trust them" in done.stderr
    assert "/hooks" in done.stderr and "--dangerously-bypass-hook-trust" in done.stderr
    again = run_goalfile("init", "--no-goal", cwd=repo, env=WITH_GOALFILE)
    assert "Codex skips" not in again.stderr  # said once, when the hook was registered


def test_init_trust_codex_without_codex_is_refused_with_what_to_do(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    env = {**WITH_GOALFILE, "CODEX_HOME": str(tmp_path / "codex")}
    done = run_goalfile("init", "--no-goal", "--trust-codex", cwd=repo, env=env)
    assert done.returncode == 3, done.stderr
    assert "cannot trust the Codex hook: `codex` is not on PATH" in done.stderr
    assert not (tmp_path / "codex" / "config.toml").exists()


# --- config.toml edits (pure) ---------------------------------------------------------------

KEY = "/repo/.codex/hooks.json:stop:0:0"


def test_trusting_appends_a_table_and_keeps_the_rest() -> None:
    text = 'model = "x"\n\n[projects."/repo"]\ntrust_level = "trusted"\n'
    new = set_trusted_hash(text, KEY, "sha256:aa")
    assert new.startswith(text)
    assert trusted_hash(new, KEY) == "sha256:aa"
    assert tomllib.loads(new)["projects"]["/repo"]["trust_level"] == "trusted"
    assert (
        set_trusted_hash("", KEY, "sha256:aa")
        == f'[hooks.state."{KEY}"]\ntrusted_hash = "sha256:aa"\n'
    )


def test_trusting_again_replaces_the_old_hash_in_place() -> None:
    text = f'[hooks.state."{KEY}"]\ntrusted_hash = "sha256:old"  # stale\n\n[other]\na = 1\n'
    new = set_trusted_hash(text, KEY, "sha256:new")
    assert trusted_hash(new, KEY) == "sha256:new"
    assert new.count("[hooks.state.") == 1 and new.endswith("[other]\na = 1\n")


@pytest.mark.parametrize(
    "text",
    [
        "not = [toml",
        f'hooks = {{ state = {{ "{KEY}" = {{ trusted_hash = "sha256:old" }} }} }}\n',
    ],
)
def test_a_config_this_edit_cannot_handle_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        set_trusted_hash(text, KEY, "sha256:new")
