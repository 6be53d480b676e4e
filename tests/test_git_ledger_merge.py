"""Goal files through real git: two branches each run `goalfile verify` on the same goal, then
one is merged into (`git merge`), rebased onto (`git rebase`) or cherry-picked onto
(`git cherry-pick`) the other. Both appended an entry at the same place, so git stops with a
conflict in the ledger. Its marker lines are never read as criteria, entries or a status:
every command refuses the file (exit 3, untouched) and names the first marker's line and a fix
that works as written. The file resolved as docs/lifecycle.md says (one side whole, the other
side's new entries after it) reads as both branches' runs and audits clean against the branch
it was merged into."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import clean_env, copy_of, git, made_once_near, make_git_repo, run_goalfile

GOAL = "goals/g.md"


def git_may_fail(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, check=False, env=clean_env()
    )


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def two_branches(tmp_path: Path, *, style: str = "merge", name: str = GOAL) -> Path:
    """`main` with an active goal of two rows (at ``name``); branch `one` makes C1 met, branch
    `two` C2, and each records it with `goalfile verify`. Made once in the run for each
    ``style`` and ``name`` (:func:`tests.conftest.made_once_near`), and copied."""
    make = _branches(style, name)
    made = made_once_near(tmp_path, make)
    if made is not None:
        return copy_of(made, tmp_path / "repo")
    repo = make_git_repo(tmp_path / "repo")
    make(repo, {})
    return repo


def _branches(style: str, name: str) -> Callable[[Path, dict[str, str]], None]:
    def make(repo: Path, env: dict[str, str]) -> None:
        git(repo, "config", "merge.conflictStyle", style)
        made = run_goalfile(
            "new", "g", "both files exist",
            "--check", "test -f a.txt", "--expected", "exit 0",
            "--check", "test -f b.txt", "--expected", "exit 0",
            "--activate", cwd=repo, env=env,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        if name != GOAL:
            os.rename(repo / GOAL, repo / name)
        commit(repo, "the goal")
        git(repo, "branch", "-M", "main")
        for branch, made_file, tokens in (("one", "a.txt", "100"), ("two", "b.txt", "200")):
            git(repo, "checkout", "-q", "-b", branch, "main")
            (repo / made_file).write_text("x\n", encoding="utf-8")
            tokens_used = ("--tokens-used", tokens) if style == "diff3" else ()
            done = run_goalfile("verify", *tokens_used, name, cwd=repo, env=env)
            assert done.returncode in (0, 1), done.stdout + done.stderr
            commit(repo, f"{made_file} exists")

    return make


def conflicted(repo: Path, how: str) -> None:
    """Branch `two` meets branch `one` by ``how``; git stops with the goal file unmerged."""
    if how == "merge":
        done = git_may_fail(repo, "merge", "one")
    elif how == "rebase":
        done = git_may_fail(repo, "rebase", "one")
    else:
        done = git_may_fail(repo, "cherry-pick", "one")
    assert done.returncode != 0, done.stdout + done.stderr
    assert "CONFLICT" in done.stdout + done.stderr, done.stdout + done.stderr
    assert f"UU {GOAL}" in git(repo, "status", "--short")


def marker_lines(text: str) -> list[int]:
    return [
        number
        for number, line in enumerate(text.split("\n"), 1)
        if re.match(r"(<{7}|={7}|>{7}|\|{7})( |$)", line)
    ]


def assert_refused_everywhere(repo: Path, markers: list[int], *, every: bool = True) -> None:
    """lint names the markers; each command refuses (``every``: all of them, else verify and
    status, the ones that would write or report a verdict)."""
    before = (repo / GOAL).read_bytes()
    first = markers[0]
    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 3, lint.stdout + lint.stderr
    said = lint.stdout + lint.stderr
    assert f"{GOAL}:{first}:1: the file holds an unresolved merge conflict" in said, said
    for number in markers[:6]:  # the first six, and how many more
        assert f" {number} `" in said, (number, said)
    if len(markers) > 6:
        assert f" and {len(markers) - 6} more)" in said, said
    assert f"take your side whole: `git checkout --ours -- {GOAL}`" in said, said
    assert f"`git show :3:./{GOAL}` shows its file" in said, said
    found = json.loads(run_goalfile("lint", "--json", GOAL, cwd=repo).stdout)
    (finding,) = found["files"][0]["findings"]
    assert (finding["severity"], finding["line"]) == ("error", first), finding
    commands = [
        ("status", GOAL),
        ("status", "--json", GOAL),
        ("verify", GOAL),
        ("verify", "--no-write", GOAL),
        ("audit", GOAL),
        ("audit", "--against", "main", GOAL),
        ("log", GOAL),
        ("plan", GOAL),
    ]
    for args in commands if every else [("verify", GOAL), ("status", "--json", GOAL)]:
        done = run_goalfile(*args, cwd=repo)
        assert done.returncode == 3, (args, done.stdout, done.stderr)
        assert "unresolved merge conflict" in done.stdout + done.stderr, (args, done.stderr)
        assert "met" not in done.stdout.replace("unresolved merge conflict", ""), done.stdout
    assert (repo / GOAL).read_bytes() == before  # nothing wrote to it


@pytest.mark.parametrize("how", ["merge", "rebase", "cherry-pick"])
def test_a_ledger_conflict_is_refused_by_every_command_with_its_line(
    tmp_path: Path, how: str
) -> None:
    repo = two_branches(tmp_path)
    conflicted(repo, how)
    text = (repo / GOAL).read_text(encoding="utf-8")
    markers = marker_lines(text)
    assert len(markers) == 3, text
    # git put its markers inside the verdict table: the rows of both runs, one table
    lines = text.split("\n")
    assert lines[markers[0] - 2].startswith("| ---"), text
    assert_refused_everywhere(repo, markers, every=how == "merge")
    # deleting the marker lines is no resolution: one entry with the rows of both runs
    (repo / GOAL).write_text(
        "\n".join(line for n, line in enumerate(text.split("\n"), 1) if n not in markers),
        encoding="utf-8",
    )
    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 3, lint.stdout + lint.stderr
    assert "gives `C1`, `C2` more than one verdict" in lint.stderr, lint.stderr


def test_a_diff3_conflict_and_one_in_the_frontmatter_are_refused_too(tmp_path: Path) -> None:
    """`merge.conflictStyle=diff3` adds the base's side after `|||||||`; each branch reported
    its own token usage (`verify --tokens-used`), so `tokens_used` in the frontmatter conflicts
    too, and the first marker is read before any YAML is."""
    repo = two_branches(tmp_path, style="diff3")
    conflicted(repo, "merge")
    text = (repo / GOAL).read_text(encoding="utf-8")
    markers = marker_lines(text)
    assert len(markers) == 8, text  # two conflicts of four lines each
    assert text.split("\n")[markers[0]] == "tokens_used: 200", text
    assert_refused_everywhere(repo, markers)


def test_the_file_resolved_as_the_fix_says_keeps_both_runs_and_audits_clean(
    tmp_path: Path,
) -> None:
    repo = two_branches(tmp_path)
    conflicted(repo, "merge")
    # the fix, as printed: take this side whole, then append the other side's new entry
    git(repo, "checkout", "--ours", "--", GOAL)
    theirs = git(repo, "show", f":3:./{GOAL}")
    ours = (repo / GOAL).read_text(encoding="utf-8")
    assert not marker_lines(ours)
    entry = theirs[theirs.rindex("### Iteration") : theirs.index("## Lessons")]
    assert "| C1  | met " in entry, entry
    at = ours.index("## Lessons")
    (repo / GOAL).write_text(ours[:at] + entry + ours[at:], encoding="utf-8")

    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    (log,) = json.loads(run_goalfile("log", "--json", GOAL, cwd=repo).stdout)["goals"]
    assert [run["verdicts"] for run in log["columns"]] == [
        {"C1": "unmet", "C2": "met"},  # this side's run (two)
        {"C1": "met", "C2": "unmet"},  # the other side's (one), read after it
    ], log
    # against the branch merged into and the commit both started from: the other side's entry
    # was appended; against the other side, this side's entry sits before its own
    for ref in ("main", "two"):
        audit = run_goalfile("audit", "--against", ref, GOAL, cwd=repo)
        assert audit.returncode == 0, (ref, audit.stdout)
    other = run_goalfile("audit", "--against", "one", GOAL, cwd=repo)
    assert other.returncode == 1 and "entry-inserted" in other.stdout, other.stdout
    # the merged code gets its own verdict, appended after both
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-edit")
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("C1 met, C2 met; status: met"), done.stdout
    assert run_goalfile("audit", "--against", "main", GOAL, cwd=repo).returncode == 0
    assert run_goalfile("audit", "--against", "HEAD", GOAL, cwd=repo).returncode == 0
    status = run_goalfile("status", GOAL, cwd=repo)
    assert status.stdout.startswith("g: met"), status.stdout


def test_lines_that_only_look_like_markers_are_read_as_before(repo: Path) -> None:
    """A `=======` under a paragraph is a heading's underline, a `>>>>>>>` line a quote, and
    check output is quoted behind four spaces: none of them is a conflict."""
    made = run_goalfile(
        "new", "g", "markers in output",
        "--check", "printf '<<<<<<< a\\n=======\\n>>>>>>> b\\n'; exit 1", "--expected", "exit 0",
        "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    path = repo / GOAL
    path.write_text(
        path.read_text(encoding="utf-8") + "\nA lesson\n=======\n\n>>>>>>> quoted\n",
        encoding="utf-8",
    )
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr
    text = path.read_text(encoding="utf-8")
    assert "    <<<<<<< a" in text and "    >>>>>>> b" in text, text
    assert run_goalfile("lint", GOAL, cwd=repo).returncode == 0
    assert run_goalfile("status", GOAL, cwd=repo).returncode == 0


def test_a_union_merge_that_puts_two_runs_in_one_table_is_an_error(tmp_path: Path) -> None:
    """`merge=union` in .gitattributes (a common setting for files that only grow) merges
    without a conflict: the rows of both runs end up in one verdict table, one verdict of each
    row taken by the readers. lint names the entry; verify refuses it; the rebuild its fix
    names (one parent whole, the other's entries appended) lints and verifies."""
    repo = two_branches(tmp_path)
    (repo / ".gitattributes").write_text("goals/*.md merge=union\n", encoding="utf-8")
    commit(repo, "goal files only grow")
    done = git_may_fail(repo, "merge", "-q", "--no-edit", "one")
    assert done.returncode == 0, done.stdout + done.stderr  # no conflict, nothing to see
    text = (repo / GOAL).read_text(encoding="utf-8")
    assert not marker_lines(text)
    assert text.count("| C1  |") == 2 + 1, text  # the approval's row and one of each run
    heading = max(
        number
        for number, line in enumerate(text.split("\n"), 1)
        if line.startswith("### Iteration")
    )
    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 3, lint.stdout + lint.stderr
    assert f"{GOAL}:{heading}:1: error: the entry `Iteration 0" in lint.stderr, lint.stderr
    assert "gives `C1`, `C2` more than one verdict" in lint.stderr, lint.stderr
    before = (repo / GOAL).read_bytes()
    verify_run = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert verify_run.returncode == 3, verify_run.stdout + verify_run.stderr
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 3
    assert (repo / GOAL).read_bytes() == before

    # the fix, as printed: each `git show` run as written, by a shell
    assert (
        f"`git show 'HEAD^1:./{GOAL}'`" in lint.stderr
        and f"`git show 'HEAD^2:./{GOAL}'`" in lint.stderr
    )
    shows = re.findall(r"`(git show [^`]*)`", lint.stderr)
    assert len(shows) == 2, lint.stderr
    ours, theirs = (
        subprocess.run(
            ["sh", "-c", show], cwd=repo, capture_output=True, text=True, check=True
        ).stdout
        for show in shows
    )
    entry = theirs[theirs.rindex("### Iteration") : theirs.index("## Lessons")]
    at = ours.index("## Lessons")
    (repo / GOAL).write_text(ours[:at] + entry + ours[at:], encoding="utf-8")
    assert run_goalfile("lint", GOAL, cwd=repo).returncode == 0
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0


@pytest.mark.parametrize("name", ["goals/a;touch PWNED;b.md", "goals/my goal.md"])
def test_the_merged_entry_fix_names_the_goal_as_one_shell_word(repo: Path, name: str) -> None:
    """The `git show` commands of the entry-merged fix printed the goal's path unquoted: for
    `goals/a;touch PWNED;b.md`, running them ran `touch`."""
    made = run_goalfile(
        "new", "g", "a file exists", "--check", "test -f a.txt", "--expected", "exit 0",
        "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    path = repo / name
    (repo / GOAL).rename(path)
    assert run_goalfile("verify", name, cwd=repo).returncode == 1
    commit(repo, "the goal")  # the commit before HEAD holds it: the fix checks it out
    text = path.read_text(encoding="utf-8")
    row = next(line for line in text.split("\n")[::-1] if line.startswith("| C1 "))
    path.write_text(text.replace(row, f"{row}\n{row}", 1), encoding="utf-8")
    commit(repo, "rows copied")
    lint = run_goalfile("lint", name, cwd=repo)
    assert "entry-merged" not in lint.stdout and "more than one verdict" in lint.stderr, lint
    # no merge made the rows: the file before HEAD, and the file's log
    commands = re.findall(r"`(git [^`]*)`", lint.stderr)
    assert [shlex.split(command) for command in commands] == [
        ["git", "checkout", "HEAD^1", "--", name],
        ["git", "log", "-p", "--", name],
    ], lint.stderr
    for command in commands:
        done = subprocess.run(["sh", "-c", command], cwd=repo, capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)
    assert not (repo / "PWNED").exists()


def hook_answer(cwd: Path) -> dict[str, object]:
    """The Stop hook's `--json` answer for a first stop of a session in ``cwd``."""
    stop = {"session_id": "s", "cwd": str(cwd), "hook_event_name": "Stop"}
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", "--json", cwd=cwd, input=json.dumps(stop)
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


@pytest.mark.parametrize(
    ("name", "where", "how", "staged"),
    [
        (GOAL, ".", "merge", False),
        (GOAL, "src", "rebase", False),
        (GOAL, "src", "merge", True),
        ("goals/a;touch PWNED;b.md", "src", "merge", True),
        ("goals/my goal.md", ".", "cherry-pick", False),
    ],
)
def test_the_stop_hook_holds_a_conflicted_goal_with_the_fix_that_keeps_both_sides(
    tmp_path: Path, name: str, where: str, how: str, staged: bool
) -> None:
    """The Stop hook took a goal file with git's conflict markers for another goal copied over
    the one HEAD holds, and held the agent with `git checkout HEAD -- PATH`: run as written, it
    resolved the conflict with this side's file and dropped the entry of the other side. It
    holds with the merge-conflict fix lint prints, naming the file as the session's shell
    reaches it; each of its commands, run as written from there, works, runs nothing the name
    holds, and the file rebuilt as it says keeps both runs. ``staged``: the file with its
    markers was added to the index (`git add`), so git no longer has the conflict until the
    fix's `git checkout -m` gives it back."""
    repo = two_branches(tmp_path, name=name)
    done = git_may_fail(repo, how, "one")
    assert done.returncode != 0 and "CONFLICT" in done.stdout + done.stderr, done.stdout
    assert git(repo, "ls-files", "--unmerged", "--", name).count(name) == 3
    if staged:
        git(repo, "add", "--", name)
        assert git(repo, "ls-files", "--unmerged", "--", name) == ""
    here = repo / where
    here.mkdir(exist_ok=True)
    shown = os.path.relpath(repo / name, here)
    path = repo / name
    before = path.read_bytes()

    answer = hook_answer(here)
    assert answer["decision"] == "block", answer
    goals = answer["goals"]
    assert isinstance(goals, list) and len(goals) == 1, answer
    (held,) = goals
    reason = held["reason"]
    assert held["status"] == "conflicted", held
    assert f"goalfile could not read {shown}: {shown}:" in reason, reason
    assert "the file holds an unresolved merge conflict" in reason, reason
    assert "checkout HEAD" not in reason, reason  # the old fix: the other side's entry lost
    assert path.read_bytes() == before  # the hook wrote nothing

    # every command the fix names, run as written from the session's folder
    fix = reason.split("\n  fix: ", 1)[1].split("\n", 1)[0]
    commands = re.findall(r"`(git checkout [^`]*|git show [^`]*|goalfile [^`]*)`", fix)
    restore, checkout, show, verify_it = commands
    assert shlex.split(restore) == ["git", "checkout", "-m", "--", shown], restore
    assert shlex.split(checkout) == ["git", "checkout", "--ours", "--", shown], checkout
    assert shlex.split(show) == ["git", "show", f":3:./{shown}"], show
    assert shlex.split(verify_it) == ["goalfile", "verify", shown], verify_it

    def sh(command: str) -> str:
        ran = subprocess.run(
            ["sh", "-c", command], cwd=here, capture_output=True, text=True, env=clean_env()
        )
        assert ran.returncode == 0, (command, ran.stdout, ran.stderr)
        return ran.stdout

    if staged:  # as the fix says: the conflict given back first
        sh(restore)
        assert git(repo, "ls-files", "--unmerged", "--", name).count(name) == 3
    sh(checkout)
    theirs = sh(show)
    ours = path.read_text(encoding="utf-8")
    assert not marker_lines(ours)
    entry = theirs[theirs.rindex("### Iteration") : theirs.index("## Lessons")]
    assert entry not in ours, entry
    at = ours.index("## Lessons")
    rebuilt = ours[:at] + entry + ours[at:]
    path.write_text(re.sub(r"(?m)^status: \w+$", "status: active", rebuilt, count=1), "utf-8")
    ran = subprocess.run(
        [sys.executable, "-m", "goalfile", *shlex.split(verify_it)[1:]],
        cwd=here, capture_output=True, text=True,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr  # both files are there after the merge
    assert not (repo / "PWNED").exists() and not (here / "PWNED").exists()
    (log,) = json.loads(run_goalfile("log", "--json", name, cwd=repo).stdout)["goals"]
    assert sorted(map(str, (run["verdicts"] for run in log["columns"][:2]))) == sorted(
        [str({"C1": "met", "C2": "unmet"}), str({"C1": "unmet", "C2": "met"})]
    ), log  # the run of each side, neither dropped
    assert log["columns"][2]["verdicts"] == {"C1": "met", "C2": "met"}, log
    after = hook_answer(here)
    assert after["decision"] == "allow" and after["goals"] == [], after


@pytest.mark.parametrize("how", ["merge", "rebase", "cherry-pick"])
@pytest.mark.parametrize("finished", [False, True])
def test_markers_deleted_get_a_rebuild_fix_that_names_the_sides_git_holds(
    tmp_path: Path, how: str, finished: bool
) -> None:
    """A conflict resolved by deleting its markers leaves one verify entry with the rows of
    both runs (entry-merged). Its fix named `HEAD^1` and `HEAD^2`, the parents of a merge
    commit: before that commit (or in a rebase or cherry-pick, which make none) `git show
    HEAD^2:./PATH` fails and `HEAD^1` is a file older than either side. The fix names the sides
    git holds (HEAD and MERGE_HEAD, REBASE_HEAD or CHERRY_PICK_HEAD; after a merge commit its
    parents; after a rebase or cherry-pick, the file before HEAD and the log); run as printed,
    with the other side's entries appended, the goal lints and verifies met."""
    repo = two_branches(tmp_path)
    conflicted(repo, how)
    text = (repo / GOAL).read_text(encoding="utf-8")
    kept = [line for n, line in enumerate(text.split("\n"), 1) if n not in marker_lines(text)]
    (repo / GOAL).write_text("\n".join(kept), encoding="utf-8")
    if finished:
        git(repo, "add", "-A")
        env = clean_env({"GIT_EDITOR": "true"})
        step = {"merge": ["commit", "-q", "--no-edit"], "rebase": ["rebase", "--continue"]}
        done = subprocess.run(
            ["git", *step.get(how, ["cherry-pick", "--continue"])],
            cwd=repo, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 3 and "more than one verdict" in lint.stderr, lint.stderr
    refused = run_goalfile("verify", GOAL, cwd=repo)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    (fix,) = [line for line in lint.stderr.splitlines() if line.startswith("  fix: ")]
    assert fix in refused.stderr, refused.stderr  # verify gives the same fix
    commands = re.findall(r"`(git [^`]*)`", fix)
    sides = {"merge": "MERGE_HEAD", "rebase": "REBASE_HEAD", "cherry-pick": "CHERRY_PICK_HEAD"}
    if not finished:
        assert commands == [f"git checkout HEAD -- {GOAL}", f"git show {sides[how]}:./{GOAL}"]
    elif how == "merge":  # lint's own fix: the merge commit's parents
        assert commands == [f"git show 'HEAD^1:./{GOAL}'", f"git show 'HEAD^2:./{GOAL}'"]
    else:
        rebased = [f"git show ORIG_HEAD:./{GOAL}"] if how == "rebase" else []  # git's mark
        assert commands == [f"git checkout HEAD^1 -- {GOAL}", *rebased, f"git log -p -- {GOAL}"]
    for command in commands:  # each, as printed, runs: one side's file is then there
        done = subprocess.run(["sh", "-c", command], cwd=repo, capture_output=True, text=True)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (command, done.stderr)
        if command.startswith("git show 'HEAD^1"):
            (repo / GOAL).write_text(done.stdout, encoding="utf-8")
    ours = (repo / GOAL).read_text(encoding="utf-8")
    assert ours.count("| C1  |") == 2, ours  # one side whole: the approval's row and its run
    # the other side's run, the one entry that side added
    other = {"merge": "one", "rebase": "two", "cherry-pick": "one"}[how]
    if finished and how == "rebase":  # `two` is the rebased commit now: the printed name
        other = "ORIG_HEAD"
    theirs = git(repo, "show", f"{other}:{GOAL}")
    entry = theirs[theirs.rindex("### Iteration") : theirs.index("## Lessons")]
    at = ours.index("## Lessons")
    (repo / GOAL).write_text(ours[:at] + entry + ours[at:], encoding="utf-8")
    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr


def test_rows_of_two_runs_in_the_commit_that_added_the_goal_get_no_checkout_of_head_1(
    tmp_path: Path,
) -> None:
    """The entry with the rows of two runs came in with the goal's first commit (no merge
    under way, HEAD no merge commit): `git checkout HEAD^1 -- PATH`, the fix for a rebased
    commit, failed as written, since no commit before HEAD holds the file. The fix names no
    command git cannot run."""
    repo = make_git_repo(tmp_path / "repo")
    made = run_goalfile(
        "new", "g", "a exists", "--check", "test -f a.txt", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 1
    text = (repo / GOAL).read_text(encoding="utf-8")
    (row,) = [line for line in text.split("\n") if line.startswith("| C1  | unmet")]
    (repo / GOAL).write_text(text.replace(row, f"{row}\n{row.replace('unmet', 'met  ')}", 1))
    commit(repo, "the goal, its entry holding two runs' rows")

    lint = run_goalfile("lint", GOAL, cwd=repo)

    assert lint.returncode == 3 and "more than one verdict" in lint.stderr, lint.stderr
    (fix,) = [line for line in lint.stderr.splitlines() if line.startswith("  fix: ")]
    assert "no commit before HEAD holds the file" in fix, fix
    for command in re.findall(r"`(git [^`]*)`", fix):
        done = git_may_fail(repo, *shlex.split(command)[1:])
        assert done.returncode == 0, (command, done.stderr)
