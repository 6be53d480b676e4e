"""The Stop hook holds the real Claude Code and Codex (Gemini CLI and pi too, where the cases
say so) when it cannot see the goals as git records them: a part of the goal folders goal
discovery cannot read (a goal folder linked out of the repository, a goal file linked to
itself), a repository git cannot list (a broken `.git/index`), another goal copied over the
goal file git tracks, and a goal file git has not finished merging (its conflict markers in
the ledger).

In each case the model (the scripted fake) makes the trouble in the host's own shell tool, as
an agent that wants to stop would; at its stop the hook holds it with a reason that names the
trouble; the model runs what the reason says (the printed `fix:`, run as written, or the repair
git's error calls for) in the same shell tool; and the stops after that go as they would have
without the trouble. Without the hold, each case lets the agent stop at its first stop.

Each repository is the one `goal_repo` sets up (goals/demo.md active, C1 `test -f done.txt`),
committed, as a project that uses goalfile is.
"""

from __future__ import annotations

import os
import re
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import git, run_goalfile
from fake_model import Reply, Shell, Turn
from hosts_fixtures import (
    EASY,
    FIX,
    GOAL,
    PROMPT,
    Agent,
    Isolation,
    easy_goal_met,
    goal_repo,
    goal_state,
    goalfile_ok,
    hook_now,
    host_session,
    ran_quietly,
    verify_entries,
)
from hosts_fixtures import isolation as isolation


def committed_goal_repo(tmp_path: Path) -> Path:
    repo = goal_repo(tmp_path)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the goal")
    return repo


def let_go(repo: Path) -> None:
    """The goal is met, by its one verify entry, and nothing holds a new stop."""
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "met")]
    answer = hook_now(repo)
    assert answer["decision"] == "allow" and answer["goals"] == [], answer
    goalfile_ok("status", cwd=repo)
    goalfile_ok("audit", GOAL, cwd=repo)


# --- discovery that cannot read a part of the goal folders ----------------------------------


@dataclass(frozen=True)
class Unreadable:
    make: str  # the model's command that makes it
    part: str  # what the hook names
    why: str
    fix: str  # the fix the hook prints


def unreadable(kind: str, loop: str) -> Unreadable:
    if kind == "linked out":  # not walked: it could be /proc, or /
        return Unreadable(
            make="mkdir .zetetic && ln -s /proc .zetetic/goals",
            part=".zetetic/goals",
            why="it is a symlink to /proc, outside the repository, which goalfile does not read "
            "goals from",
            # (`rm -- .zetetic/goals` Claude Code refuses: "rm removes the link, not what it
            # points to", and the link stays)
            fix="unlink -- .zetetic/goals",
        )
    return Unreadable(  # "linked to itself": what it is cannot be told
        make=f"ln -s {loop} goals/{loop}",
        part=f"goals/{loop}",
        why="Too many levels of symbolic links",
        fix=f'mktemp -d | {{ read -r d && mv -- goals/{loop} "$d"; }}',
    )


def moved_away(name: str) -> list[Path]:
    """Where `mktemp -d | { read -r d && mv -- PATH "$d"; }` put the link ``name``: a new
    folder of the temporary folder. (A link to itself: ``glob`` and ``exists`` do not see
    it.)"""
    found = set()
    for folder in {Path(tempfile.gettempdir()), Path("/tmp")}:
        found |= {p / name for p in folder.glob("tmp.*") if os.path.islink(p / name)}
    return sorted(found)


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("claude", "linked out"),
        ("codex", "linked out"),
        ("claude", "linked to itself"),
        ("codex", "linked to itself"),
        ("gemini", "linked to itself"),  # its shell tool refuses `$(...)`: the fix has none
        ("pi", "linked to itself"),
    ],
)
def test_a_part_of_the_goal_folders_discovery_cannot_read_holds_until_the_printed_fix_runs(
    host: str, kind: str, isolation: Isolation, tmp_path: Path
) -> None:
    """The model meets the goal and, in the same command, puts a goal folder or goal file
    there that goal discovery cannot read: a goal there could go unseen, so the hook holds the
    agent, naming the part and the fix; the model runs the fix, and the next stop lets it go."""
    repo = committed_goal_repo(tmp_path)
    loop = f"loop-{uuid.uuid4().hex[:12]}.md"  # its own name: the fix moves it to /tmp
    part = unreadable(kind, loop)
    agent = Agent(trouble=f"{FIX} && {part.make}", otherwise="true")
    try:
        server, run = host_session(host, repo, agent, isolation, prompt=PROMPT)
    finally:
        moved = {link: os.readlink(link) for link in moved_away(loop)}
        for link in moved:
            link.unlink()
            link.parent.rmdir()
    reasons = server.feedbacks()
    assert len(reasons) == 1 and server.stops() == 2, (reasons, run.explain())
    [held] = reasons
    assert (
        f"goalfile cannot look for goals in {part.part}: {part.why}\n  fix: `{part.fix}`\n" in held
    ), held
    assert "verify-goal demo" not in held, held  # the goal was met: only the part held
    # the model ran the fix as printed, in the host's shell, without a word of error: the link
    # is gone from the goal folder and nothing it pointed to was touched
    assert agent.ran == [part.fix]
    assert len(agent.outputs) == 1 and ran_quietly(host, agent.outputs[0] or ""), agent.outputs
    assert not os.path.lexists(repo / part.part)
    if kind == "linked out":
        assert Path("/proc/self/stat").is_file()
    else:  # moved, not deleted, to a new temporary folder
        assert list(moved.values()) == [loop], moved
    let_go(repo)


# --- git that cannot list the repository ----------------------------------------------------

# (Claude Code asks before it lets `>` or `rm` write a file under .git/; these it runs)
BREAK_INDEX = "truncate -s 0 .git/index"
REBUILD_INDEX = "git read-tree HEAD"


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_repository_git_cannot_list_holds_with_gits_error(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """The model meets the goal and breaks `.git/index`: git cannot list the goal files it
    tracks, which is never "git tracks nothing", so the hook holds the agent with git's error;
    the model rebuilds the index from HEAD, and the next stop lets it go."""
    repo = committed_goal_repo(tmp_path)
    agent = Agent(trouble=f"{FIX} && {BREAK_INDEX}", otherwise=REBUILD_INDEX)
    server, run = host_session(host, repo, agent, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert len(reasons) == 1 and server.stops() == 2, (reasons, run.explain())
    [held] = reasons
    assert (
        "goalfile cannot tell which goal files git tracks in the repository at .: "
        "fatal: .git/index: index file smaller than expected\n"
        "`git -C . status` shows git's error; repair the repository (its .git/index" in held
    ), held
    assert "verify-goal demo" not in held, held  # the goal was met: only git's error held
    assert agent.ran == [REBUILD_INDEX]
    assert len(agent.outputs) == 1 and ran_quietly(host, agent.outputs[0] or ""), agent.outputs
    assert git(repo, "ls-files", "goals") == f"{GOAL}\n"
    let_go(repo)


# --- another goal at the path of a goal file git tracks -------------------------------------

SWAP = f"cp {EASY} {GOAL}"


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_another_goal_copied_over_a_tracked_goal_holds_until_head_s_goal_is_checked_out(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """The model copies another goal, one that `true` met, over goals/demo.md: that file does
    not continue the goal HEAD holds there (another slug), so the hook holds the agent with
    `git checkout HEAD -- goals/demo.md`; the model runs it, the next stop verifies HEAD's goal
    as usual (unmet), the model meets it, and the stop after that lets it go."""
    repo = committed_goal_repo(tmp_path)
    easy_goal_met(repo)
    agent = Agent(trouble=SWAP, otherwise=FIX)
    server, run = host_session(host, repo, agent, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert len(reasons) == 2 and server.stops() == 3, (reasons, run.explain())
    swapped, unmet = reasons
    fix = f"git checkout HEAD -- {GOAL}"
    assert (
        f"goalfile cannot verify {GOAL}: the file the working tree holds there does not "
        "continue the goal HEAD holds there: its slug is easy, where HEAD's is demo\n"
        f"  fix: `{fix}`\n" in swapped
    ), swapped
    assert "verify-goal demo iteration 0: C1 unmet; status: active\n" in unmet, unmet
    assert "goals/.cache" not in unmet, unmet  # HEAD's goal, verified as usual
    assert agent.ran == [fix, FIX]
    assert ran_quietly(host, agent.outputs[0] or ""), agent.outputs
    # HEAD's goal, grown by the hook's entries: the unmet verify, the iteration it started,
    # the met verify
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "active"), (1, "met")]
    state = goal_state(repo)
    assert (state["slug"], state["status"]) == ("demo", "met"), state
    goalfile_ok("audit", GOAL, "--against", "HEAD", cwd=repo)  # HEAD's entries kept, in order
    # the other goal is still there, met, as it was
    assert goalfile_ok("status", "--json", EASY, cwd=repo).count('"status": "met"') == 1
    answer = hook_now(repo)
    assert answer["decision"] == "allow" and answer["goals"] == [], answer


# --- a goal file git has not finished merging ------------------------------------------------

MERGE = "git merge other"
REBUILD = """\
import re, sys
goal, theirs = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
ours = open(goal, encoding="utf-8").read()
entry = theirs[theirs.rindex("### Iteration") : theirs.index("## Lessons")]
at = ours.index("## Lessons")
text = re.sub(r"(?m)^status: \\w+$", "status: active", ours[:at] + entry + ours[at:], count=1)
open(goal, "w", encoding="utf-8").write(text)
"""


@dataclass
class Resolver(Agent):
    """The scripted model for a merge conflict: it runs each command the reason's fix names,
    as printed, with the steps the fix says in words between them (the other side's entries
    appended to this side's file, `status: active`) done by a small script."""

    rebuild: str = ""

    def __call__(self, turn: Turn) -> Reply:
        if turn.after_tool or turn.feedback is None or "  fix: while git" not in turn.feedback:
            return super().__call__(turn)
        fix = turn.feedback.split("\n  fix: ", 1)[1].split("\n", 1)[0]
        named = re.findall(r"`((?:git|goalfile) [^`]*)`", fix)
        # (`git checkout -m`, which gives the conflict back after a `git add`, is not needed)
        checkout = next(c for c in named if c.startswith("git checkout --ours "))
        show = next(c for c in named if c.startswith("git show "))
        verify = next(c for c in named if c.startswith("goalfile verify "))
        self.ran.append(
            f"{checkout} && {show} > theirs.md && python3 {self.rebuild} {GOAL} theirs.md"
            f" && {FIX} && {verify}"
        )
        return Shell(self.ran[-1])


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_goal_file_with_conflict_markers_holds_with_the_fix_that_keeps_both_sides(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """The goal was verified on this branch (unmet) and on another (met); the model merges the
    other branch, and git stops with a conflict in the goal file's ledger. The hook held the
    agent with `git checkout HEAD -- goals/demo.md`, which drops the other branch's entry; it
    holds with the merge-conflict fix: the model runs its commands as printed, appends the
    other side's entry, verifies the merged work, and the next stop lets it go with both
    branches' runs in the ledger."""
    repo = committed_goal_repo(tmp_path)
    git(repo, "checkout", "-q", "-b", "other")
    (repo / "done.txt").touch()
    goalfile_ok("verify", GOAL, cwd=repo)  # met on the other branch
    (repo / "done.txt").unlink()
    git(repo, "commit", "-qam", "met on the other branch")
    git(repo, "checkout", "-q", "-")
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 1  # unmet on this one
    git(repo, "commit", "-qam", "unmet here")
    rebuild = tmp_path / "rebuild.py"
    rebuild.write_text(REBUILD, encoding="utf-8")
    agent = Resolver(trouble=MERGE, otherwise="true", rebuild=str(rebuild))
    server, run = host_session(host, repo, agent, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert len(reasons) == 1 and server.stops() == 2, (reasons, run.explain())
    [held] = reasons
    assert (
        f"goalfile could not read {GOAL}: {GOAL}:" in held
        and "the file holds an unresolved merge conflict" in held
    ), held
    assert "checkout HEAD" not in held, held
    assert agent.ran == [
        f"git checkout --ours -- {GOAL} && git show :3:./{GOAL} > theirs.md && python3 "
        f"{rebuild} {GOAL} theirs.md && {FIX} && goalfile verify {GOAL}"
    ], agent.ran
    # both branches' runs, then the run on the merged work; no marker line left
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [
        (0, "active"),
        (0, "met"),
        (0, "met"),
    ]
    assert "<<<<<<<" not in (repo / GOAL).read_text(encoding="utf-8")
    assert goal_state(repo)["status"] == "met"
    answer = hook_now(repo)
    assert answer["decision"] == "allow" and answer["goals"] == [], answer
