"""What a new user ran into in a first hour with goalfile on a real project, each as the real
`goalfile` (and the real tool: mdformat, pre-commit) running in a real git repository: the
message names the cause, and the command it gives works when run as written."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from conftest import clean_env, git, make_git_repo, outside_git, run_goalfile
from test_first_hour import BIN, COMMAND_RE, shell


def stop_hook(repo: Path) -> dict[str, object] | None:
    """The Claude Code Stop hook's answer in ``repo``: the JSON object, or None (stop allowed)."""
    hook_input = json.dumps(
        {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop", "stop_hook_active": False}
    )
    done = run_goalfile("hook", "stop", cwd=repo, input=hook_input)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else None


def draft(repo: Path, slug: str) -> Path:
    """A draft `goalfile new` wrote, with nothing left to fill in: goals/SLUG.md."""
    done = run_goalfile(
        "new", slug, "x", "--check", "true", "--expected", "exit 0", "--non-goal", "n", cwd=repo
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return repo / "goals" / f"{slug}.md"


def test_new_outside_goals_says_the_stop_hook_does_not_hold_it_and_how_to_make_it(
    tmp_path: Path,
) -> None:
    """`goalfile new --dir plans ... --activate` said only that the goal was staged and that
    "the Stop hook now holds an agent that moves or deletes it"; the hook then let the agent
    stop ("no active goal"). Now `new` says so, and the focus command it names, run as written,
    makes the hook hold the agent."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "held", "x", "--dir", "plans", "--check", "false", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(repo, "commit", "-qm", "goal: held")
    assert stop_hook(repo) is None  # what the note warns of: the hook does not look in plans/
    note = [line for line in done.stderr.splitlines() if line.startswith("note: plans/held.md")]
    assert note, done.stderr
    assert "the Stop hook does not hold an agent to it" in note[0]
    [focus] = [c for c in COMMAND_RE.findall(note[0]) if c.startswith("goalfile focus")]
    assert focus == "goalfile focus plans/held.md"
    ran = shell(focus, repo)
    assert ran.returncode == 0, ran.stderr
    answer = stop_hook(repo)
    assert answer is not None and answer["decision"] == "block", answer
    as_json = run_goalfile(
        "new", "other", "x", "--dir", "plans", "--json", cwd=repo
    )  # the JSON document says it too
    assert json.loads(as_json.stdout)["in_goal_folder"] is False
    under_goals = run_goalfile("new", "inside", "x", "--json", cwd=repo)
    assert json.loads(under_goals.stdout)["in_goal_folder"] is True
    assert "note:" not in under_goals.stderr


def test_a_goal_mdformat_rewrote_without_its_frontmatter_plugin_names_the_cause_and_way_back(
    tmp_path: Path,
) -> None:
    """`pip install mdformat mdformat-gfm` and `mdformat goals/` turn the frontmatter into a line
    of underscores and a `## slug: ...` heading. lint said only "the file does not start with
    YAML frontmatter"; now it names the formatter and the missing plugin, and its `git
    checkout` puts the goal back, as written."""
    import mdformat  # the real formatter; a missing test dependency fails loudly

    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "fmt", "x", "--check", "true", "--expected", "exit 0", "--non-goal", "n",
        "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(repo, "commit", "-qm", "goal: fmt")
    goal = repo / "goals" / "fmt.md"
    goal.write_text(mdformat.text(goal.read_text(), extensions={"gfm"}))  # no frontmatter plugin
    assert goal.read_text().startswith("_" * 10)  # what the formatter does to it
    for command in (("lint",), ("verify", "--no-write"), ("verify", "goals/fmt.md")):
        failed = run_goalfile(*command, cwd=repo)
        assert failed.returncode == 3, failed.stderr
        assert "a Markdown formatter that does not know frontmatter rewrote it" in failed.stderr
        assert "mdformat-frontmatter" in failed.stderr
    [checkout] = re.findall(r"`(git checkout [^`]+)`", failed.stderr)
    assert checkout == "git checkout -- goals/fmt.md"
    ran = shell(checkout, repo)
    assert ran.returncode == 0, ran.stderr
    assert run_goalfile("lint", "goals/fmt.md", cwd=repo).returncode == 0
    plain = repo / "notes.md"  # a Markdown file that is no goal keeps the general message
    plain.write_text("___\n\n## a heading\n")
    other = run_goalfile("lint", "notes.md", cwd=repo)
    assert "the file does not start with YAML frontmatter: write at its top a line `---`" in (
        other.stderr
    )
    assert "fix:" not in other.stderr  # no command writes a goal's frontmatter into notes


def test_a_misspelled_key_gets_did_you_mean_and_a_missing_status_is_said_so(
    tmp_path: Path,
) -> None:
    """`stauts: draft` was "status None is not one of ..." (a Python None) and an unknown key
    with no hint; `iteration: 5` under budget left the budget unbounded with a bare warning that
    activate passed over. Now each unknown key that is a known one misspelled says which, and
    renaming it as the fix says makes the file clean."""
    repo = make_git_repo(tmp_path / "repo")
    goal = draft(repo, "typo")
    clean = goal.read_text()
    goal.write_text(clean.replace("status:", "stauts:").replace("  iterations:", "  iteration:"))
    lint = run_goalfile("lint", "goals/typo.md", cwd=repo)
    assert lint.returncode == 3
    assert "None" not in lint.stderr
    assert "goals/typo.md:1:1: error: no `status` key" in lint.stderr
    assert "fix: did you mean `status`? rename `stauts:` to `status:`" in lint.stderr
    assert "fix: did you mean `iterations`? rename `iteration:` to `iterations:`" in lint.stderr
    document = json.loads(run_goalfile("lint", "--json", "goals/typo.md", cwd=repo).stdout)
    hints = [f["hint"] for f in document["files"][0]["findings"] if f["code"] == "unknown-key"]
    assert len(hints) == 2 and all(h.startswith("did you mean") for h in hints), hints
    for wrong, right in re.findall(r"rename `(\w+):` to `(\w+):`", lint.stderr):
        goal.write_text(goal.read_text().replace(f"{wrong}:", f"{right}:"))
    assert goal.read_text() == clean
    assert run_goalfile("lint", "goals/typo.md", cwd=repo).stderr == ""
    goal.write_text(clean.replace("status: draft", "status: Draft"))
    case = run_goalfile("lint", "goals/typo.md", cwd=repo)
    assert "fix: `[ ! -e goals/typo.md.goalfile-bak ]" in case.stderr
    assert "/status: draft/'" in case.stderr, case.stderr


def test_a_criteria_heading_typo_gets_the_rename_not_delete_this_table(tmp_path: Path) -> None:
    """`## Acceptance` for `## Acceptance criteria`: lint said to add the section, and of the
    table under it "write its rows into the criteria table ... and delete this table", when
    there is no other criteria table. Now both name the one-word rename, and doing it, as
    written, makes the goal clean."""
    repo = make_git_repo(tmp_path / "repo")
    goal = draft(repo, "typo")
    clean = goal.read_text()
    goal.write_text(clean.replace("## Acceptance criteria", "## Acceptance"))
    heading = clean.splitlines().index("## Acceptance criteria") + 1
    lint = run_goalfile("lint", "goals/typo.md", cwd=repo)
    assert lint.returncode == 3
    assert "delete this table" not in lint.stderr
    fixes = [line for line in lint.stderr.splitlines() if line.startswith("  fix: ")]
    assert len(fixes) == 2 and fixes[0] == fixes[1], lint.stderr
    assert fixes[0].endswith("names it `## Acceptance criteria`"), fixes
    assert f"-e '{heading}s/" in fixes[0], fixes
    ran = shell(fixes[0].split("`")[1], repo)  # the printed rename, as written
    assert ran.returncode == 0, ran.stderr
    assert goal.read_text() == clean
    assert run_goalfile("lint", "goals/typo.md", cwd=repo).stderr == ""


def test_a_goal_moved_out_of_goals_gets_the_move_back_not_only_a_dot_git_story(
    tmp_path: Path,
) -> None:
    """An approved goal moved from goals/ to the top of the repository: verify refused it with
    "remove what moved it (a `.git` file or folder between the goal and the repository's
    top)", though no `.git` moved. Now the fix first names the move back, which works as
    written, after which verify runs the goal."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "moved", "x", "--check", "true", "--expected", "exit 0", "--non-goal", "n",
        "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(repo, "commit", "-qm", "goal: moved")
    git(repo, "mv", "goals/moved.md", "top.md")
    refused = run_goalfile("verify", "top.md", cwd=repo)
    assert refused.returncode == 3, refused.stderr
    assert "the goal file is not where it was approved" in refused.stderr
    [move] = re.findall(r"`(mkdir [^`]+)`", refused.stderr)
    assert move == "mkdir -p -- goals && mv -- top.md goals/"
    ran = shell(move, repo)
    assert ran.returncode == 0, ran.stderr
    verified = run_goalfile("verify", "goals/top.md", cwd=repo)
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.splitlines()[-1].endswith("C1 met; status: met")


def test_the_help_of_mcp_and_init_gives_no_pip_command_that_misses_goalfiles_environment(
    tmp_path: Path,
) -> None:
    """Both said "needs the optional extra: `pip install '.[mcp]'` in goalfile's clone": for
    goalfile installed as README says (pipx, or a virtual environment of its own), the `pip`
    a user finds first is another environment's. Now they name the extra and send the user to
    `goalfile mcp`, whose message gives goalfile's own Python."""
    for command in (("mcp", "--help"), ("init", "--help")):
        done = run_goalfile(*command, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        said = " ".join(done.stdout.split())
        assert "pip install '.[mcp]'" not in said, said
        assert "goalfile[mcp]" in said, said


def test_init_names_the_command_to_run_again_and_says_when_there_is_no_repository(
    tmp_path: Path,
) -> None:
    """A settings file that is not JSON: init's fix was "fix the JSON by hand, then run this
    again", no command, and with --statusline the same error twice. Now the fix names the
    init command line that was run, which, once the file is fixed, works as written. And init
    in a folder that is in no git repository said nothing of it."""
    plain = tmp_path / "plain"
    plain.mkdir()
    assert outside_git(plain)
    done = run_goalfile("init", "--no-goal", cwd=plain)
    assert done.returncode == 0, done.stderr
    assert "note: this folder is in no git repository" in done.stderr
    assert "`git init`" in done.stderr
    repo = make_git_repo(tmp_path / "repo")
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "hooks": {,\n}\n')
    broken = run_goalfile("init", "--slug", "mine", "--statusline", cwd=repo)
    assert broken.returncode == 3, broken.stderr
    assert "no git repository" not in broken.stderr
    assert broken.stderr.count("not valid JSON") == 1, broken.stderr
    [again] = re.findall(r"then run `([^`]+)` again", broken.stderr)
    assert again == "goalfile init --slug mine --statusline"
    settings.write_text("{}\n")
    ran = shell(again, repo)
    assert ran.returncode == 0, ran.stderr
    assert "goalfile hook stop" in settings.read_text()
    assert "goalfile statusline" in settings.read_text()


def test_a_tab_in_the_frontmatter_is_named_as_the_cause(tmp_path: Path) -> None:
    """A budget key indented with a tab was "found character that cannot start any token" and
    "fix the YAML syntax on that line"; now the message names the tab, and its fix, run as
    written, writes two spaces for it and makes the goal clean."""
    repo = make_git_repo(tmp_path / "repo")
    goal = draft(repo, "tabbed")
    clean = goal.read_text()
    goal.write_text(clean.replace("  iterations:", "\titerations:"))
    line = clean.splitlines().index("  iterations: 5  # null = unbounded") + 1
    lint = run_goalfile("lint", "goals/tabbed.md", cwd=repo)
    assert lint.returncode == 3
    assert f"goals/tabbed.md:{line}:1: " in lint.stderr
    assert "(a tab: YAML indents with spaces only)" in lint.stderr
    fix = [x for x in lint.stderr.splitlines() if x.startswith("  fix: ")]
    assert len(fix) == 1 and f"-e '{line}s/^[[:blank:]]*/  /'" in fix[0], lint.stderr
    ran = shell(fix[0].split("`")[1], repo)
    assert ran.returncode == 0, ran.stderr
    assert goal.read_text() == clean
    assert run_goalfile("lint", "goals/tabbed.md", cwd=repo).stderr == ""


def test_new_names_a_check_whose_program_the_shell_does_not_find(tmp_path: Path) -> None:
    """`new --check "pytset -q" --activate` approved, without a word, a check that could only
    end `error` (127) and block the goal at its first verify. Now `new` names the program the
    goal's shell does not find in the checks' folder; a found one (a builtin, a path from the
    top, after `NAME=value`) is not named; and the re-approval it names works as written once
    the check is corrected."""
    repo = make_git_repo(tmp_path / "repo")
    (repo / "tool").write_text("#!/bin/sh\nexit 0\n")
    (repo / "tool").chmod(0o755)
    done = run_goalfile(
        "new", "typo", "x", "--check", "pytset -q", "--expected", "exit 0",
        "--check", "LC_ALL=C ./tool", "--expected", "exit 0", "--check", "cd .", "--expected",
        "exit 0", "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [note] = [line for line in done.stderr.splitlines() if "finds no" in line]
    assert "finds no `pytset` (C1) (`command -v`)" in note, note
    assert "C2" not in note and "C3" not in note
    git(repo, "commit", "-qm", "goal: typo")
    blocked = run_goalfile("verify", "goals/typo.md", cwd=repo)
    assert blocked.returncode == 4, blocked.stdout  # what the note said would happen
    [reapprove] = [c for c in COMMAND_RE.findall(note) if "--reapprove" in c]
    assert reapprove == "goalfile activate --reapprove goals/typo.md --reason TEXT"
    goal = repo / "goals" / "typo.md"
    goal.write_text(goal.read_text().replace("`pytset -q` | exit 0", "`./tool -q` | exit 0", 1))
    assert shell(reapprove, repo).returncode == 0
    resumed = run_goalfile("resume", "goals/typo.md", "--resolved", "check corrected", cwd=repo)
    assert resumed.returncode == 0, resumed.stderr
    met = run_goalfile("verify", "goals/typo.md", cwd=repo)
    assert met.returncode == 0, met.stdout + met.stderr
    as_json = run_goalfile(
        "new", "other", "x", "--check", "nosuchtool", "--expected", "exit 0", "--json", cwd=repo
    )
    assert json.loads(as_json.stdout)["not_found"] == {"C1": "nosuchtool"}


def test_new_writes_an_expected_synonym_the_way_lint_asks_for(tmp_path: Path) -> None:
    """`new --expected 'exit code 0, stdout contains "a"'` wrote the synonyms as given, and the
    first lint then warned "is read as `exit 0; ...`; `goalfile lint --fix` does it". Now new
    writes the canonical form itself, and lint has nothing to say."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "syn", "x", "--check", "echo a", "--expected", 'exit code 0, stdout contains "a"',
        "--non-goal", "n", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    row = next(
        line for line in (repo / "goals" / "syn.md").read_text().splitlines() if "| C1" in line
    )
    assert '| exit 0; stdout contains "a" |' in row, row
    lint = run_goalfile("lint", "goals/syn.md", cwd=repo)
    assert (lint.returncode, lint.stderr) == (0, "")
    assert run_goalfile("activate", "goals/syn.md", cwd=repo).returncode == 0
    assert run_goalfile("verify", "goals/syn.md", cwd=repo).returncode == 0


def test_goalfile_help_lists_each_command_with_a_whole_summary(tmp_path: Path) -> None:
    """`goalfile --help` cut every command's line: "Write the goal file goals/SLUG.md, a draft
    unless...", "Make a draft goal active, only when lint passes; ledgered...". Now each line
    is whole, on a terminal of any width and without one (the installed script's fast path)."""
    for columns in ("200", "80", "50"):
        done = run_goalfile("--help", cwd=tmp_path, env={"COLUMNS": columns})
        assert done.returncode == 0, done.stderr
        listed = done.stdout.split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
        assert "..." not in listed, listed
        names = [
            line.split()[0]
            for line in listed.splitlines()
            if line.startswith("  ") and line[2] != " "
        ]
        assert "new" in names and "statusline" in names and len(names) >= 20, names
        assert "active with --activate" in listed


def test_status_of_a_goal_whose_criteria_changed_since_approval_names_the_reapproval(
    tmp_path: Path,
) -> None:
    """An active goal whose `expected` was loosened by hand: lint said "ok" and status's next
    step was "fill in the plan ..., then `goalfile verify`", which then refused it. Now status
    names what verify refuses and its fix, and that fix works as written."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "loose", "x", "--check", "echo passed", "--expected",
        'exit 0; stdout contains "passed"', "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(repo, "commit", "-qm", "goal: loose")
    goal = repo / "goals" / "loose.md"
    text = goal.read_text()
    goal.write_text(text.replace('| exit 0; stdout contains "passed" |', "| exit 0 |", 1))
    assert run_goalfile("verify", "goals/loose.md", cwd=repo).returncode == 3
    lint = run_goalfile("lint", "--json", "goals/loose.md", cwd=repo)  # it said "ok", no more
    [found] = json.loads(lint.stdout)["files"][0]["findings"]
    assert (found["severity"], found["code"]) == ("warning", "contract-changed"), found
    assert "loosened" in found["message"] and "--reapprove" in found["hint"]
    status = run_goalfile("status", "goals/loose.md", cwd=repo)
    [step] = [line for line in status.stdout.splitlines() if line.startswith("  next: ")]
    assert "the contract changed since it was approved" in step, step
    assert "fill in the plan" not in step
    [reapprove] = [c for c in COMMAND_RE.findall(step) if "--reapprove" in c]
    assert shell(reapprove, repo).returncode == 0
    after = run_goalfile("status", "goals/loose.md", cwd=repo)
    assert "contract changed" not in after.stdout
    assert run_goalfile("lint", "goals/loose.md", cwd=repo).stderr == ""
    assert run_goalfile("verify", "goals/loose.md", cwd=repo).returncode == 0


def test_skills_list_does_not_call_the_optional_user_skills_missing(tmp_path: Path) -> None:
    """After `init`, `skills list` printed eight "~/.agents/skills/goal: missing" lines for the
    user's folders, which no one installed and nothing needs. Now each such folder is one line
    saying so, with the command that installs them there, which works as written."""
    repo = make_git_repo(tmp_path / "repo")
    home = tmp_path / "home"
    home.mkdir()
    assert run_goalfile("init", "--no-goal", cwd=repo, env={"HOME": str(home)}).returncode == 0
    listed = run_goalfile("skills", "list", cwd=repo, env={"HOME": str(home)})
    assert listed.returncode == 0, listed.stderr
    assert ": missing" not in listed.stdout, listed.stdout
    assert "~/.agents/skills: none installed (optional;" in listed.stdout
    [install] = {c for c in COMMAND_RE.findall(listed.stdout) if "--user" in c}
    done = subprocess.run(
        ["sh", "-c", install], cwd=repo, capture_output=True, text=True, check=False,
        env=clean_env({"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(home)}),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    again = run_goalfile("skills", "list", cwd=repo, env={"HOME": str(home)})
    assert "~/.agents/skills/goal: current" in again.stdout, again.stdout


def test_audit_says_one_entry_and_its_restore_fix_names_the_file(tmp_path: Path) -> None:
    """`audit --against main` said "(1 entries added since main)", and the fix of a rewritten
    entry was "`git show main:PATH`", a placeholder that git refuses as written. Now the count
    is in words and the command shows the file as it was, as written."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "au", "x", "--check", "true", "--expected", "exit 0", "--non-goal", "n",
        "--activate", "--commit", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert run_goalfile("verify", "goals/au.md", cwd=repo).returncode == 0
    clean = run_goalfile("audit", "--against", "HEAD", "goals/au.md", cwd=repo)
    assert clean.stdout.rstrip().endswith("clean (1 entry added since HEAD)"), clean.stdout
    goal = repo / "goals" / "au.md"
    text = goal.read_text()
    at = text.index("status: active", text.index("by activate"))
    goal.write_text(text[:at] + "status: met" + text[at + len("status: active") :])
    audit = run_goalfile("audit", "--against", "HEAD", "goals/au.md", cwd=repo)
    assert audit.returncode == 1, audit.stdout
    [show] = re.findall(r"`(git show [^`]+)`", audit.stdout)
    assert show == "git show HEAD:./goals/au.md"
    shown = shell(show, repo)
    assert shown.returncode == 0, shown.stderr
    assert "status: active" in shown.stdout[shown.stdout.index("by activate") :]


def test_new_sets_a_time_limit_and_a_wrong_one_gets_a_fix_that_works(tmp_path: Path) -> None:
    """A check that hangs (a server left in the foreground) ran for ever: `new` had no way to
    set a time limit, and the goal it wrote had none. `--timeout` writes the frontmatter
    `timeout`, the row is `error` once it is reached; a value that is no number of seconds is
    refused with this very command line and a number in its place."""
    repo = make_git_repo(tmp_path / "repo")
    args = ("new", "serve", "x", "--check", "sleep 30", "--expected", "exit 0", "--non-goal", "n")
    bad = run_goalfile(*args, "--timeout", "nan", cwd=repo)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
    assert not (repo / "goals" / "serve.md").exists()
    fix = COMMAND_RE.findall(bad.stderr)[0]
    assert fix.endswith("--timeout 600"), bad.stderr
    assert shell(fix, repo).returncode == 0
    assert "\ntimeout: 600\n" in (repo / "goals" / "serve.md").read_text()
    done = run_goalfile(*args[:1], "quick", *args[2:], "--timeout", "0.5", "--activate", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "\ntimeout: 0.5\n" in (repo / "goals" / "quick.md").read_text()
    ran = run_goalfile("verify", "--no-write", "goals/quick.md", cwd=repo, timeout=30)
    assert ran.returncode == 4, ran.stdout
    assert "C1 error" in ran.stdout and "timed out after 0.5s" in ran.stdout


def test_new_of_a_slug_taken_and_of_a_check_without_expected_give_commands_that_work(
    tmp_path: Path,
) -> None:
    """`fix: choose another slug, or edit the existing goal` and `fix: e.g. --check ...` were
    no commands. Now the fix is this command line, mended, and works as written; a --check
    without its --expected is written with `FILL IN:` for it (test_new_unpaired_check)."""
    repo = make_git_repo(tmp_path / "repo")
    draft(repo, "tests")
    taken = run_goalfile("new", "tests", "again", "--check", "true", "--expected", "exit 0",
                         cwd=repo)  # fmt: skip
    assert taken.returncode == 3, taken.stderr
    assert "`goalfile status goals/tests.md` shows the one there" in taken.stderr
    fix = COMMAND_RE.findall(taken.stderr)[0]
    assert fix.startswith("goalfile new tests-2 again "), taken.stderr
    assert shell(fix, repo).returncode == 0
    assert (repo / "goals" / "tests-2.md").is_file()
    unpaired = run_goalfile(
        "new", "two", "x", "--check", "true", "--check", "test -d .", "--expected", "exit 0",
        cwd=repo,
    )  # fmt: skip
    assert unpaired.returncode == 0, unpaired.stderr  # a draft: no expected result made up
    text = (repo / "goals" / "two.md").read_text()
    assert "| C1 | `true` | `true` | FILL IN: what a passing run looks like" in text
    assert "| C2 | `test -d .` | `test -d .` | exit 0 |" in text
