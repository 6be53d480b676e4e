"""The first hour of a new user: the mistakes everyone makes at first (a goal named by its slug,
a typo in its path, `verify` with no path, no goal yet) end in a `fix:` that is the command
they meant, and that command works when run as written, by a shell, with the `goalfile` that
printed it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import (
    clean_env,
    copy_of,
    git,
    goal_with_cwd,
    made_once,
    make_git_repo,
    outside_git,
    run_goalfile,
)

BIN = str(Path(sys.executable).parent)  # holds the goalfile under test
FIX_RE = re.compile(r"^  fix: (.*)$", re.MULTILINE)
COMMAND_RE = re.compile(r"`(goalfile [^`]+)`")


def new_goal(repo: Path, slug: str, check: str = "true") -> None:
    done = run_goalfile(
        "new",
        slug,
        f"{slug} works",
        "--check",
        check,
        "--expected",
        "exit 0",
        "--activate",
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr


def _made_with(slug: str) -> Callable[[Path, dict[str, str]], None]:
    def make(repo: Path, env: dict[str, str]) -> None:
        new_goal(repo, slug)

    return make


@pytest.fixture(scope="module")
def made_calc_add(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _made_with("calc-add"))


@pytest.fixture(scope="module")
def made_auth_1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _made_with("auth-1"))


@pytest.fixture
def calc_add(tmp_path: Path, made_calc_add: Path) -> Path:
    """A repository whose one goal, `calc-add` (`true`, exit 0), `goalfile new --activate`
    wrote (a copy of the one made once for the module)."""
    return copy_of(made_calc_add, tmp_path / "repo")


@pytest.fixture
def auth_1(tmp_path: Path, made_auth_1: Path) -> Path:
    """:func:`calc_add`, the goal named `auth-1`."""
    return copy_of(made_auth_1, tmp_path / "repo")


def fixes(text: str) -> list[str]:
    return FIX_RE.findall(text)


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    sh = shutil.which("sh")
    assert sh is not None, "a POSIX sh is needed to run the printed fix"
    return subprocess.run(
        [sh, "-c", command],
        cwd=cwd,
        env=clean_env({"PATH": f"{BIN}:/usr/bin:/bin"}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (("verify", "calc-add"), "goalfile verify goals/calc-add.md"),
        (("verify", "calc-add.md"), "goalfile verify goals/calc-add.md"),
        (("verify", "goals/calc_add.md"), "goalfile verify goals/calc-add.md"),
        (
            ("verify", "--no-write", "goals/calcadd.md"),
            "goalfile verify --no-write goals/calc-add.md",
        ),
        (("verify", "goal/calc-add.md", "--json"), "goalfile verify goals/calc-add.md --json"),
        (("status", "calc-add"), "goalfile status goals/calc-add.md"),
        (("lint", "goals/calc_add.md"), "goalfile lint goals/calc-add.md"),
        (("log", "calc-add"), "goalfile log goals/calc-add.md"),
    ],
)
def test_a_goal_named_by_slug_or_with_a_typo_gets_the_command_meant(
    calc_add: Path, args: tuple[str, ...], meant: str
) -> None:
    repo = calc_add
    done = run_goalfile(*args, cwd=repo)
    out = done.stdout + done.stderr
    assert "no such goal file" in out, out
    assert "Traceback" not in out, out
    assert done.returncode in (2, 3), out
    assert fixes(done.stderr) == [f"`{meant}`"], out
    if "--json" in args:
        assert f'"hint": "`{meant}`"' in done.stdout
    again = shell(meant, repo)  # the fix, as written
    assert "no such goal file" not in again.stdout + again.stderr
    assert again.returncode in (0, 1), again.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("activate", "--reapprove", "goals/auth-2.md", "--reason", "loosen"),
        ("budget", "goals/auth-2.md", "--iterations", "50"),
        ("impossible", "goals/auth-2.md", "C1", "--reason", "cannot"),
        ("block", "goals/auth-2.md", "--reason", "vendor", "--tried", "retry"),
        ("pause", "goals/auth-2.md"),
    ],
)
def test_a_near_miss_name_never_gets_a_fix_that_decides_for_another_goal(
    auth_1: Path, args: tuple[str, ...]
) -> None:
    """``auth-2.md`` is close to ``auth-1.md`` but may be another goal: for a command that
    records a person's decision, the printed fix is no command that acts on it (run as
    written, it re-approved auth-1's loosened contract, raised its budget, gave up its row),
    only the `goalfile status` that shows that goal."""
    repo = auth_1
    before = (repo / "goals" / "auth-1.md").read_bytes()
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == 2, done.stderr
    assert fixes(done.stderr) == [
        "`goalfile status goals/auth-1.md` shows the goal whose name is close; name it only if "
        "it is the goal you mean"
    ], done.stderr
    # the one command printed reads that goal, and decides nothing for it
    assert COMMAND_RE.findall(done.stderr) == ["goalfile status goals/auth-1.md"], done.stderr
    shown = run_goalfile("status", "goals/auth-1.md", cwd=repo)
    assert shown.returncode == 0, shown.stderr
    assert "auth-1" in shown.stdout, shown.stdout
    assert (repo / "goals" / "auth-1.md").read_bytes() == before
    # the same name with the right folder is the same goal: the fix is the command
    exact = run_goalfile(
        args[0], *("auth-1" if a == "goals/auth-2.md" else a for a in args[1:]), cwd=repo
    )
    meant = " ".join("goals/auth-1.md" if a == "goals/auth-2.md" else a for a in args)
    assert COMMAND_RE.findall(exact.stderr)[0].startswith(f"goalfile {meant}"), exact.stderr


def test_a_missing_goal_with_nothing_like_it_keeps_the_general_fix(calc_add: Path) -> None:
    repo = calc_add
    done = run_goalfile("verify", "goals/payments.md", cwd=repo)
    assert done.returncode == 2
    assert fixes(done.stderr) == [
        "`goalfile status` lists the goals there are; `goalfile new payments` writes "
        "goals/payments.md as a draft"
    ]
    for command in COMMAND_RE.findall(done.stderr):  # each works as written
        assert shell(command, repo).returncode == 0, command
    assert (repo / "goals" / "payments.md").is_file()


def test_verify_without_a_path_names_each_active_goal_and_the_focus(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    new_goal(repo, "alpha")
    new_goal(repo, "beta", check="false")
    done = run_goalfile("verify", cwd=repo)
    assert done.returncode == 2
    assert fixes(done.stderr) == [
        "`goalfile verify goals/alpha.md`, or `goalfile verify goals/beta.md`"
    ]
    first = COMMAND_RE.findall(done.stderr)[0]
    ran = shell(first, repo)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[-1] == "verify-goal alpha iteration 0: C1 met; status: met"

    # alpha is met now; from a sub-folder, with beta focused, only beta is named
    assert run_goalfile("focus", "goals/beta.md", cwd=repo).returncode == 0
    sub = repo / "src"
    sub.mkdir()
    done = run_goalfile("verify", cwd=sub)
    assert fixes(done.stderr) == ["`goalfile verify ../goals/beta.md`"]
    ran = shell(COMMAND_RE.findall(done.stderr)[0], sub)
    assert ran.returncode == 1, ran.stderr
    assert ran.stdout.splitlines()[-1].startswith("verify-goal beta iteration 0: C1 unmet")


def test_no_goal_yet_says_how_to_write_one(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile("verify", cwd=repo)
    assert done.returncode == 2
    assert fixes(done.stderr) == [
        'there is no goal yet; write one with `goalfile new SLUG "END STATE" --check CMD '
        "--expected TEXT`"
    ]
    for args in (("status",), ("lint",), ("verify", "--no-write")):
        done = run_goalfile(*args, cwd=repo)
        assert done.returncode == 0, done.stderr
        assert done.stderr.splitlines() == [
            "no goal files found under goals/ or .zetetic/goals/",
            '  next: write one with `goalfile new SLUG "END STATE" --check CMD --expected '
            "TEXT`, or set up the repository with `goalfile init`",
        ]
    # the command it names, with its placeholders filled in, writes a goal status then shows
    ran = shell('goalfile new first "it works" --check "true" --expected "exit 0" --activate', repo)
    assert ran.returncode == 0, ran.stderr
    assert "first: active" in run_goalfile("status", cwd=repo).stdout


def readme_section(title: str) -> str:
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_readme_says_how_to_install_it_for_a_repository_of_ones_own() -> None:
    section = readme_section("Use it in your repository")
    first = section.split("```sh\n", 1)[1].split("```", 1)[0]
    assert first == "pipx install .\n"  # from the clone: goalfile is not on PyPI
    assert "not on PyPI" in section
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "pip install goalfile" not in readme and "pipx install goalfile" not in readme


def test_the_readme_commands_for_a_repository_of_ones_own_run_as_written(tmp_path: Path) -> None:
    """The second block of "Use it in your repository", each command run by a shell in a fresh
    git repository with the goalfile under test on PATH: init and new succeed, verify exits 1
    (the auth suite is not written yet), doctor finds nothing wrong; the goal `new --commit`
    approved is committed."""
    block = readme_section("Use it in your repository").split("```sh\n")[2].split("```", 1)[0]
    commands = [
        re.sub(r"\s+#.*$", "", command)
        for command in block.replace("\\\n", " ").splitlines()
        if command.strip()
    ]
    assert [c.split()[1] for c in commands] == ["init", "add", "new", "verify", "doctor"]
    repo = make_git_repo(tmp_path / "repo")
    home = tmp_path / "home"
    home.mkdir()
    codes = []
    for command in commands:
        sh = shutil.which("sh")
        assert sh is not None
        done = subprocess.run(
            [sh, "-c", command],
            cwd=repo,
            env=clean_env({"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(home)}),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert "Traceback" not in done.stderr, done.stderr
        codes.append(done.returncode)
        if command.startswith("goalfile verify"):
            assert done.stdout.splitlines()[-1] == (
                "verify-goal auth iteration 0: C1 unmet; status: active"
            ), done.stdout + done.stderr
    assert codes == [0, 0, 0, 1, 0], codes
    assert git(repo, "log", "--format=%s", "--", "goals/auth.md").splitlines() == ["goal: auth"]
    assert (repo / ".claude" / "settings.json").is_file()
    # an agent's worktree of the branch has the hooks and the skills, not only this checkout
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "agent"), "HEAD")
    for path in (".claude/settings.json", ".codex/hooks.json", ".gemini/settings.json"):
        assert "goalfile hook stop" in (tmp_path / "agent" / path).read_text(), path
    assert (tmp_path / "agent" / ".agents" / "skills" / "goal" / "SKILL.md").is_file()
    assert (tmp_path / "agent" / ".pi" / "extensions" / "goalfile" / "goalfile.mjs").is_file()
    hosts = (".agents", ".claude", ".codex", ".gemini", ".pi")
    assert git(repo, "status", "--porcelain", "--", *hosts) == ""  # verify wrote only the goal
    assert not (repo / "goals" / "first-goal.md").exists()  # --no-goal


@pytest.mark.parametrize("command", ["status", "lint", "log"])
def test_a_goal_folder_stands_for_its_goals(tmp_path: Path, command: str) -> None:
    """`goalfile status goals/` said "goals/: is a folder, not a goal file" (exit 3), while
    `audit goals/` read every goal in it."""
    repo = make_git_repo(tmp_path / "repo")
    new_goal(repo, "alpha")
    new_goal(repo, "beta")
    done = run_goalfile(command, "goals/", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "is a folder" not in done.stderr
    for slug in ("alpha", "beta"):
        assert f"goals/{slug}.md" in done.stdout, done.stdout
    (repo / "empty").mkdir()
    done = run_goalfile(command, "empty", cwd=repo)
    assert done.returncode != 0 and "empty: is a folder, not a goal file" in done.stderr


def test_outside_a_git_repository_the_fixes_say_git_init_and_audit(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    assert outside_git(folder), "the test needs a folder no git repository holds"
    new_goal(folder, "alpha")
    done = run_goalfile("focus", "goals/alpha.md", cwd=folder)
    assert done.returncode == 2
    [fix] = fixes(done.stderr)
    assert fix.endswith("to make this folder one: `git init`"), fix
    assert shell("git init -q", folder).returncode == 0
    done = run_goalfile("focus", "goals/alpha.md", cwd=folder)
    assert done.returncode == 0, done.stderr

    other = tmp_path / "other"
    other.mkdir()
    new_goal(other, "beta")
    done = run_goalfile("audit", "--against", "main", cwd=other)
    assert done.returncode == 2
    [fix] = fixes(done.stderr)
    [command] = COMMAND_RE.findall(fix)
    assert command == "goalfile audit"
    ran = shell(command, other)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == "goals/beta.md: clean\n"


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (("new", "Calc", "add works"), "goalfile new calc 'add works'"),
        (("new", "My Goal", "it works", "--json"), "goalfile new my-goal 'it works' --json"),
        (
            ("init", "--slug", "First_Goal", "--no-hooks"),
            "goalfile init --slug first-goal --no-hooks",
        ),
    ],
)
def test_a_slug_in_capitals_or_with_spaces_gets_the_command_with_a_valid_one(
    tmp_path: Path, args: tuple[str, ...], meant: str
) -> None:
    """The fix was `goalfile new auth-refresh`, a goal nobody asked for."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == 2, done.stderr
    assert fixes(done.stderr) == [f"`{meant}`"], done.stderr
    assert not (repo / "goals").exists() or not any((repo / "goals").iterdir())
    ran = shell(meant, repo)
    assert ran.returncode == 0, ran.stderr
    slug = meant.split()[2] if args[0] == "new" else "first-goal"
    assert (repo / "goals" / f"{slug}.md").is_file()


def test_the_readme_command_table_names_every_command_goalfile_help_lists() -> None:
    """`reopen` and `mcp` were in `goalfile --help` but not in the README's table."""
    from goalfile.cli.helptext import COMMANDS

    table = readme_section("Commands")
    missing = [name for name, _ in COMMANDS if not re.search(rf"`(goalfile )?{name}\b", table)]
    assert not missing, missing


def test_new_in_a_sub_folder_writes_the_goal_the_stop_hook_holds_the_agent_to(
    tmp_path: Path,
) -> None:
    """`goalfile new` in src/ wrote src/goals/SLUG.md, which the Stop hook never reads (it
    said "no active goal" and let the agent stop), while `goalfile init` there wrote goals/ at
    the top level."""
    repo = make_git_repo(tmp_path / "repo")
    sub = repo / "src"
    sub.mkdir()
    done = run_goalfile(
        "new",
        "calc",
        "calc works",
        "--check",
        "false",
        "--expected",
        "exit 0",
        "--activate",
        cwd=sub,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("wrote ../goals/calc.md (status: active")
    assert (repo / "goals" / "calc.md").is_file() and not (sub / "goals").exists()
    [command] = COMMAND_RE.findall(done.stderr)  # next: the verify command, from src/
    assert command == "goalfile verify ../goals/calc.md"
    ran = shell(command, sub)
    assert ran.returncode == 1, ran.stderr
    hook_input = json.dumps(
        {"session_id": "s", "cwd": str(sub), "hook_event_name": "Stop", "stop_hook_active": False}
    )
    held = run_goalfile("hook", "stop", cwd=sub, input=hook_input)
    assert held.returncode == 0, held.stderr
    answer = json.loads(held.stdout)
    assert answer["decision"] == "block", answer
    assert answer["reason"].startswith("verify-goal calc iteration 0: C1 unmet; status: active")


def test_new_outside_a_repository_and_at_its_top_writes_goals_here(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    (plain / "src").mkdir(parents=True)
    assert outside_git(plain), "the test needs a folder no git repository holds"
    done = run_goalfile("new", "a", "a works", cwd=plain / "src")
    assert done.returncode == 0 and (plain / "src" / "goals" / "a.md").is_file()
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile("new", "b", "b works", cwd=repo)
    assert done.returncode == 0 and (repo / "goals" / "b.md").is_file()
    done = run_goalfile("new", "c", "c works", "--dir", "src/goals", cwd=repo)
    assert done.returncode == 0 and (repo / "src" / "goals" / "c.md").is_file()


def test_status_tells_a_draft_with_placeholders_from_one_ready_to_approve(tmp_path: Path) -> None:
    """The next step of every draft was "fill in every check", also when only a non-goal was
    left, or nothing at all."""
    repo = make_git_repo(tmp_path / "repo")
    assert run_goalfile("new", "rough", cwd=repo).returncode == 0
    ready = run_goalfile(
        "new",
        "ready",
        "it works",
        "--check",
        "true",
        "--expected",
        "exit 0",
        "--non-goal",
        "nothing else changes",
        cwd=repo,
    )
    assert ready.returncode == 0, ready.stderr
    shown = run_goalfile("status", cwd=repo).stdout
    assert (
        "  next: replace every `FILL IN: ...` in goals/rough.md, then `goalfile lint "
        "goals/rough.md` and `goalfile activate goals/rough.md`"
    ) in shown
    step = "read it; once a person approves the contract, `goalfile activate goals/ready.md`"
    assert f"  next: {step}" in shown
    ran = shell("goalfile activate goals/ready.md", repo)
    assert ran.returncode == 0, ran.stderr


def test_a_slug_named_in_a_sub_folder_gets_the_goal_at_the_top(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    new_goal(repo, "calc-add", check="false")
    sub = repo / "src" / "deep"
    sub.mkdir(parents=True)
    done = run_goalfile("verify", "calc-add", cwd=sub)
    assert fixes(done.stderr) == ["`goalfile verify ../../goals/calc-add.md`"], done.stderr
    ran = shell("goalfile verify ../../goals/calc-add.md", sub)
    assert ran.returncode == 1, ran.stderr
    # outside a repository, a goals/ folder above is another project's: not offered
    plain = tmp_path / "plain"
    (plain / "goals").mkdir(parents=True)
    (plain / "goals" / "calc-add.md").write_text("x\n")
    (plain / "work").mkdir()
    assert outside_git(plain)
    done = run_goalfile("verify", "calc-add", cwd=plain / "work")
    assert fixes(done.stderr) == [
        "`goalfile status` lists the goals there are; `goalfile new calc-add` writes "
        "goals/calc-add.md as a draft"
    ], done.stderr


@pytest.mark.parametrize("plant", ["empty .git file", "empty .git folder"])
def test_a_planted_empty_dot_git_does_not_hide_the_goal_at_the_top(
    tmp_path: Path, plant: str
) -> None:
    """git passes over an empty `.git` folder (`git rev-parse --show-toplevel` below it names
    the repository around it) and rejects an empty `.git` file; neither is a repository's
    top, so the goal the slug names is still looked for up to the real top."""
    repo = make_git_repo(tmp_path / "repo")
    new_goal(repo, "calc-add", check="false")
    sub = repo / "src" / "deep"
    sub.mkdir(parents=True)
    if plant == "empty .git file":
        (repo / "src" / ".git").write_text("")
    else:
        (repo / "src" / ".git").mkdir()
    done = run_goalfile("verify", "calc-add", cwd=sub)
    assert fixes(done.stderr) == ["`goalfile verify ../../goals/calc-add.md`"], done.stderr
    ran = shell("goalfile verify ../../goals/calc-add.md", sub)
    assert ran.returncode == 1, ran.stderr
    assert ran.stdout.splitlines()[-1].startswith("verify-goal calc-add iteration 0: C1 unmet")


@pytest.mark.parametrize(
    ("args", "help_command"),
    [
        (("verify", "--json", "--bogus"), "goalfile verify --help"),
        (("status", "--json", "--jsn"), "goalfile status --help"),
        (("verfy", "--json"), "goalfile --help"),
        (("skills", "install", "--json", "--bogus"), "goalfile skills install --help"),
    ],
)
def test_a_usage_error_with_json_is_one_json_document_too(
    tmp_path: Path, args: tuple[str, ...], help_command: str
) -> None:
    """A program that asks for --json got click's usage text on stderr and nothing on stdout
    for a wrong option or command name."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == 2
    assert "Usage: " in done.stderr and "Error: " in done.stderr  # as it was, for a person
    document = json.loads(done.stdout)
    assert document["schema_version"] == 1
    assert document["error"]["exit_code"] == 2
    assert document["error"]["message"]
    assert document["error"]["hint"] == f"`{help_command}`"
    assert shell(help_command, repo).returncode == 0
    plain = run_goalfile(*(a for a in args if a != "--json"), cwd=repo)
    assert plain.returncode == 2 and plain.stdout == ""


def test_skills_list_names_the_install_command_for_what_it_found(tmp_path: Path) -> None:
    """`skills list` said "missing" eight times and left the fix to be guessed."""
    repo = make_git_repo(tmp_path / "repo")
    home = {"HOME": str(tmp_path / "home")}
    done = run_goalfile("skills", "list", cwd=repo, env=home)
    assert done.returncode == 0
    assert ".claude/skills/goal: missing" in done.stdout
    [line] = done.stderr.splitlines()
    assert line == "next: `goalfile skills install` installs what is missing or outdated"
    [command] = COMMAND_RE.findall(line)
    assert shell(command, repo).returncode == 0
    assert run_goalfile("skills", "list", cwd=repo, env=home).stderr == ""
    skill = repo / ".claude" / "skills" / "plan" / "SKILL.md"
    skill.write_text(skill.read_text() + "\nedited\n")
    done = run_goalfile("skills", "list", cwd=repo, env=home)
    [line] = done.stderr.splitlines()
    assert line == "next: `goalfile skills install --force` also replaces what was modified"
    assert shell(COMMAND_RE.findall(line)[0], repo).returncode == 0
    assert run_goalfile("skills", "list", cwd=repo, env=home).stderr == ""


def test_one_criterion_and_one_line_are_said_in_the_singular(tmp_path: Path) -> None:
    """ "1 criteria approved" and "stderr (1 lines of 29 bytes)" in the first goal's output."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new",
        "one",
        "it works",
        "--check",
        "echo oops >&2; exit 1",
        "--expected",
        "exit 0",
        "--activate",
        cwd=repo,
    )
    assert done.stdout.splitlines()[-1] == (
        "wrote goals/one.md (status: active; 1 criterion approved, contract pinned)"
    )
    done = run_goalfile("verify", "goals/one.md", cwd=repo)
    assert done.returncode == 1
    assert "  stderr (1 line of 5 bytes):" in done.stdout + done.stderr
    written = run_goalfile(
        "new",
        "draft",
        "d",
        "--check",
        "true",
        "--expected",
        "exit 0",
        "--non-goal",
        "n",
        cwd=repo,
    )
    assert written.returncode == 0, written.stderr
    done = run_goalfile("activate", "goals/draft.md", cwd=repo)
    assert done.stdout == "goals/draft.md: active (1 criterion approved)\n", done.stderr


@pytest.mark.parametrize(
    ("cwd", "made"),
    [
        ("app", False),  # written from the repository's top: the folder is ../app
        ("../app", True),  # no such folder yet
    ],
)
def test_a_cwd_naming_a_missing_folder_gets_a_fix_that_works_as_written(
    tmp_path: Path, cwd: str, made: bool
) -> None:
    """`cwd:` is read from the goal file's folder: `cwd: app` in goals/demo.md names
    goals/app. Every check is an error there and the goal is blocked; verify says which
    folder the cwd names and prints a fix: the cwd that reaches the folder meant, re-approved,
    when that folder is there, else the folder made; the goal resumed either way. Run as
    written, the next verify runs the check in app/ and meets the goal."""
    repo = make_git_repo(tmp_path / "repo")
    if not made:
        (repo / "app").mkdir()
    goal_with_cwd(repo, cwd)
    done = run_goalfile("verify", "goals/demo.md", cwd=repo)
    assert done.returncode == 4, done.stdout + done.stderr  # blocked: C1 is an error
    shown = "goals/app" if cwd == "app" else "app"
    assert (
        f"goalfile: goals/demo.md:4: cwd `{cwd}` names {shown} (a cwd is read from the goal "
        "file's folder), which does not exist, so no check could run\n" in done.stderr
    ), done.stderr
    assert done.stdout.splitlines()[-1] == "verify-goal demo iteration 0: C1 error; status: blocked"
    [fix] = fixes(done.stderr)
    command = re.match(r"`([^`]+)`", fix)
    assert command is not None, fix
    if made:
        assert command.group(1).startswith("mkdir -p -- app && goalfile resume "), fix
    else:
        assert "goalfile activate --reapprove goals/demo.md --reason " in command.group(1), fix
        assert "writes `cwd: ../app`, the folder app," in fix, fix
    ran = shell(command.group(1), repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    again = run_goalfile("verify", "goals/demo.md", cwd=repo)
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.splitlines()[-1] == "verify-goal demo iteration 0: C1 met; status: met"
    assert "fix:" not in again.stderr
    assert run_goalfile("audit", "goals/demo.md", cwd=repo).returncode == 0


def test_a_missing_cwd_and_its_fix_are_in_the_json_document_and_in_verify_of_every_goal(
    tmp_path: Path,
) -> None:
    """`verify --json` says what the text output says on stderr: the `cwd:` names a missing
    folder, and the fix, which works as written; `verify --no-write` of every goal says it
    too. A goal whose cwd is there has `missing_cwd: null`."""
    repo = make_git_repo(tmp_path / "repo")
    (repo / "app").mkdir()
    goal_with_cwd(repo, "app")
    every = run_goalfile("verify", "--no-write", cwd=repo)
    assert every.returncode == 4, every.stdout + every.stderr
    assert "cwd `app` names goals/app (a cwd is read from the goal file's folder)" in every.stderr
    assert len(fixes(every.stderr)) == 1, every.stderr
    done = run_goalfile("verify", "--json", "goals/demo.md", cwd=repo)
    assert done.returncode == 4, done.stdout + done.stderr
    document = json.loads(done.stdout)
    missing = document["missing_cwd"]
    assert missing["message"] == (
        "goals/demo.md:4: cwd `app` names goals/app (a cwd is read from the goal file's "
        "folder), which does not exist, so no check could run"
    ), missing
    command = re.match(r"`([^`]+)`", missing["fix"])
    assert command is not None, missing
    ran = shell(command.group(1), repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    again = run_goalfile("verify", "--json", "goals/demo.md", cwd=repo)
    assert again.returncode == 0, again.stdout + again.stderr
    assert json.loads(again.stdout)["missing_cwd"] is None


def test_a_cwd_naming_a_folder_that_is_there_prints_no_fix(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "app").mkdir()
    goal_with_cwd(repo, "../app")
    done = run_goalfile("verify", "--no-write", "goals/demo.md", cwd=repo)
    assert done.returncode == 0 and "cwd" not in done.stderr, done.stdout + done.stderr


def test_counts_are_said_in_words_never_as_item_s(tmp_path: Path) -> None:
    """ "1 change(s)", "3 warning(s)": each count is said in the singular for one and in the
    plural otherwise, in what lint, activate --reapprove, init, audit, plan and doctor print."""
    repo = make_git_repo(tmp_path / "repo")
    said: list[str] = []

    def run(*args: str, code: int = 0) -> str:
        done = run_goalfile(*args, cwd=repo, env={"PATH": f"{BIN}:/usr/bin:/bin"})
        assert done.returncode == code, (args, done.stdout, done.stderr)
        said.append(done.stdout + done.stderr)
        return done.stdout + done.stderr

    written = run(
        "new", "one", "it works", "--check", "true", "--expected", 'stdout empty',
        "--non-goal", "n",
    )  # fmt: skip
    assert "goals/one.md" in written
    assert "goals/one.md: ok (1 warning)" in run("lint", "goals/one.md")  # no exit clause
    run("activate", "goals/one.md")
    path = repo / "goals" / "one.md"
    text = path.read_text(encoding="utf-8")
    row = "| C1 | `true` | `true` | stdout empty | deterministic |\n"
    assert row in text, text
    path.write_text(
        text.replace(row, row + "| C2 | false fails | `false` | exit 1 | deterministic |\n"),
        encoding="utf-8",
    )
    reapproved = run("activate", "--reapprove", "goals/one.md", "--reason", "one more row")
    assert "goals/one.md: contract re-approved (1 change); status: active" in reapproved
    assert "contract re-approved (" in path.read_text(encoding="utf-8")
    assert ": 1 row added, 0 removed, 0 changed" in path.read_text(encoding="utf-8")
    assert "goals: 1 goal file found; none written" in run("init")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "goalfile: skills and Stop hooks")  # as README says
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("status:"))
    lines[at] = lines[at].replace("active", "met", 1)  # typed by hand: audit finds it
    path.write_text("\n".join(lines), encoding="utf-8")
    assert "goals/one.md: 2 findings\n" in run("audit", "goals/one.md", code=1)
    assert run("doctor").rstrip().endswith("no problems found")
    (repo / ".gemini" / "settings.json").unlink()  # one host's hook gone: one problem
    assert run("doctor", code=1).rstrip().endswith("\n1 problem found"), said[-1]
    assert not [s for s in said if "(s)" in s], said
