"""The fix of a goal file that no longer continues git's copy keeps the entries written since.

`goalfile new --activate` stages the goal; the Stop hook verifies it and starts iterations
(entries appended to the working file, never staged); then the agent's `sed` types `met` over
every `status: active` line, the staged approval entry's too. The hook held it with `git
checkout -- goals/demo.md`, which put the staged copy back and silently dropped every entry
written since (verify entries, and the iterations they back: the budget went back to the
agent). The fix is now `goalfile restore goals/demo.md`: git's entries put back as git holds
them, the rest kept (the typed frontmatter `met`, which the ledger does not back, set back).
Where the entries cannot be told apart (one deleted), the fix keeps a
copy before the checkout. Real git repositories in tmp_path, the real `goalfile`, each printed
fix run as written by a shell.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, hook_answer, make_git_repo, run_goalfile, shell
from test_hook_discovery import fix_of, sh

from goalfile import ledger
from goalfile.parse import ledger_region

GOAL = "goals/demo.md"
TYPED_MET = f"sed -i 's/status: active/status: met/' {GOAL}"


def headings(text: str) -> list[tuple[str, str, str, str]]:
    region = ledger_region(text)
    assert region is not None
    return [f for at, f in ledger.headings(text).entries if region[0] <= at < region[1]]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A goal `new --activate` staged and nobody committed, which the Stop hook verified at
    two stops (unmet: two verify entries, two iterations started), all written after the
    stage."""
    root = make_git_repo(tmp_path / "repo")
    (root / "app.txt").write_text("app\n", encoding="utf-8")
    git(root, "add", "app.txt")
    git(root, "commit", "-qm", "init")
    done = run_goalfile(
        "new", "demo", "done.txt exists", "--check", "test -f done.txt", "--expected", "exit 0",
        "--non-goal", "app.txt stays", "--activate", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert git(root, "status", "--porcelain").splitlines() == [f"A  {GOAL}"]
    for _ in range(2):
        assert "verify-goal demo" in str(hook_answer(root).get("reason")), "verified, unmet"
    return root


@pytest.mark.parametrize("committed", [False, True])
def test_the_fix_for_a_typed_met_keeps_every_entry_written_since(
    repo: Path, committed: bool
) -> None:
    if committed:  # the same with HEAD's copy (the staged one, committed): entries kept
        git(repo, "commit", "-qm", "the goal")
    path = repo / GOAL
    written = path.read_text(encoding="utf-8")
    source = "HEAD" if committed else "the index"
    staged = git(repo, "show", f"{'HEAD' if committed else ''}:{GOAL}")
    assert len(headings(written)) == len(headings(staged)) + 4  # written since, not in git
    sh(TYPED_MET, repo)
    (repo / "src").mkdir()
    answer = hook_answer(repo / "src")  # the fix runs as written from a sub-folder too
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert f"does not continue the goal {source} holds there" in reason, reason
    assert "«status: active» and is now «status: met»" in reason, reason
    fix = fix_of(reason)
    assert fix == f"goalfile restore ../{GOAL}", reason
    done = run_goalfile(*fix.split()[1:], cwd=repo / "src")  # the printed fix, as written
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"../{GOAL}: put back 1 entry from {source}'s copy; kept 4 entries written since, as "
        f"the file holds them\n../{GOAL}: status met → active: the ledger does not back `met`\n"
    )
    mended = path.read_text(encoding="utf-8")
    # every entry is still there, and the iterations the ledger backs with them; git's entry
    # is as git holds it again, and the frontmatter's typed `met` is set back
    assert headings(mended) == headings(written)
    assert "\niterations_used: 2\n" in mended
    region = ledger_region(staged)
    assert region is not None and staged[region[0] : region[1]].strip() in mended
    assert mended.split("\n")[2].startswith("status: active ")
    (repo / "done.txt").write_text("", encoding="utf-8")
    answer = hook_answer(repo)
    assert "verify-goal demo iteration 2: C1 met; status: met" in str(answer), answer
    assert run_goalfile("audit", GOAL, cwd=repo).returncode == 0


def test_entries_that_cannot_be_told_apart_are_kept_in_a_copy_before_the_checkout(
    repo: Path,
) -> None:
    """The staged approval entry deleted: which entries were written since cannot be told, so
    the fix keeps a copy of the file, then checks out the staged one; `restore` refuses the
    same file, file untouched, with that command."""
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    first = text.index("### Iteration 0 ")
    path.write_text(text[:first] + text[text.index("### Iteration", first + 1) :], "utf-8")
    before = path.read_bytes()
    refused = run_goalfile("restore", GOAL, cwd=repo)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert "cannot be told apart" in refused.stderr and path.read_bytes() == before
    answer = hook_answer(repo)
    fix = fix_of(answer.get("reason"))
    saved = f"{GOAL}.goalfile-saved"
    assert fix == f"[ ! -e {saved} ] && cp -- {GOAL} {saved} && git checkout -- {GOAL}"
    assert fix in refused.stderr
    sh(fix, repo)
    assert (repo / saved).read_bytes() == before  # nothing the file held is lost
    assert path.read_text(encoding="utf-8") == git(repo, "show", f":{GOAL}")
    assert "verify-goal demo" in str(hook_answer(repo).get("reason"))  # the staged goal, verified


def test_a_check_changed_in_the_criteria_and_the_entry_is_named_as_the_reason(repo: Path) -> None:
    """`sed` over the whole file that changes a check (in the criteria and in the rows the
    approval entry records): restore refused naming "an entry heading changed or removed, or
    another goal's file", neither of which was so. It names the criteria now; its fix, a copy
    and a checkout, works as written and the goal then runs as approved."""
    path = repo / GOAL
    path.write_text(path.read_text(encoding="utf-8").replace("test -f done.txt", "true"), "utf-8")
    before = path.read_bytes()

    refused = run_goalfile("restore", GOAL, cwd=repo)

    assert refused.returncode == 3 and path.read_bytes() == before, refused.stderr
    assert "heading" not in refused.stderr and "another goal's file" not in refused.stderr
    assert (
        "(its criteria, non-goals or run settings differ from that copy's, so its entries could "
        "be another goal's (a changed criterion needs `goalfile activate --reapprove` after the "
        "checkout)); nothing was written"
    ) in refused.stderr
    fix = refused.stderr.split("`")[-2]
    sh(fix, repo)
    assert (repo / f"{GOAL}.goalfile-saved").read_bytes() == before
    ran = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert ran.returncode == 1 and "C1 unmet" in ran.stdout, ran.stdout + ran.stderr


def test_restore_refuses_a_goal_that_continues_git_s_copy_or_that_git_does_not_hold(
    repo: Path, tmp_path: Path
) -> None:
    before = (repo / GOAL).read_bytes()
    done = run_goalfile("restore", GOAL, cwd=repo)
    assert done.returncode == 3 and "there is nothing to restore" in done.stderr, done.stderr
    assert (repo / GOAL).read_bytes() == before
    assert "C1 unmet" in shell(fix_of(done.stderr), repo).stdout  # verify, as written
    # a third unmet run without progress blocked it: verify refuses a blocked goal (exit 3),
    # so the fix names `status`, which works as written
    git(repo, "add", GOAL)
    done = run_goalfile("restore", GOAL, cwd=repo)
    assert "the next step for a blocked goal" in done.stderr, done.stderr
    shown = shell(fix_of(done.stderr), repo)
    assert shown.returncode == 0 and "demo: blocked" in shown.stdout, shown.stdout + shown.stderr
    before = (repo / GOAL).read_bytes()
    other = make_git_repo(tmp_path / "other")
    (other / "goals").mkdir()
    (other / GOAL).write_bytes(before)
    done = run_goalfile("restore", GOAL, cwd=other)
    assert done.returncode == 3 and "git holds no copy of goals/demo.md" in done.stderr


def test_restore_of_a_folder_names_a_goal_file_to_give(repo: Path) -> None:
    """`goalfile restore goals` said git held no copy of `goals`, with no fix; it now gives
    the usage error every command gives a folder, whose fix runs as written."""
    done = run_goalfile("restore", "goals", cwd=repo)
    assert done.returncode == 2 and "is a folder, not a goal file" in done.stderr, done.stderr
    listed = shell(done.stderr.split("`")[1], repo)
    assert listed.returncode == 0 and "demo: active" in listed.stdout, listed.stderr
