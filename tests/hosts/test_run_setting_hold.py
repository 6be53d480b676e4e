"""A run setting no check can run holds the real Claude Code and Codex (and Gemini CLI and pi, a
case each) until the `sed` the hook prints runs, as printed, in the host's own shell tool; the
hook then verifies the goal as usual.

The model writes one frontmatter line into the active goal: `shell: " /bin/sh"` (a leading
space: a relative name, so a file in the working directory) or `cwd: "src "` (a trailing
space: a folder `src ` is not `src`), or it edits the `cwd: ..` the goal was approved with
into `cwd: ".. "`. verify refuses such a goal (it is a lint error), so at its stop the hook
holds the agent, naming the file, the line and the value, with the `sed` that deletes the
line, or, for the approved one, writes it back (deleting it would change the contract, which
only a person may approve). The model runs that command; the file is then as `goalfile
activate` approved it, so the next stop verifies it (C1 unmet, held for that), the model
meets it, and the stop after that lets it go.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hosts_fixtures import (
    FIX,
    GOAL,
    PROMPT,
    Agent,
    Isolation,
    goal_repo,
    goal_state,
    goalfile_ok,
    hook_now,
    host_session,
    ran_quietly,
    verify_entries,
)
from hosts_fixtures import isolation as isolation


@dataclass(frozen=True)
class Case:
    approved: str | None  # the line the goal was approved with (line 4), if any
    written: str  # the model's sed script, which writes the bad line 4
    why: str  # what the hold says of the value
    does: str  # what the hold says its fix does


CASES = {
    # a line the model adds: the fix deletes it
    "shell": Case(
        approved=None,
        written='3a shell: " /bin/sh"',
        why="shell ' /bin/sh' holds the character U+0020; a shell is an absolute path of "
        "printable ASCII characters without spaces",
        does="deletes the `shell:` line (the checks then run in /bin/sh)\nRun the fix as "
        "written (or write the absolute path of a shell there), never",
    ),
    "cwd": Case(
        approved=None,
        written='3a cwd: "src "',
        why="cwd 'src ' begins or ends with whitespace",
        does="deletes the `cwd:` line (the checks then run at the git top level)\nRun the fix "
        "as written (or write a folder relative to the goal file there), never",
    ),
    # a line the goal was approved with, which the model edits: the fix writes it back
    "approved cwd": Case(
        approved="cwd: ..",
        written='4s/.*/cwd: ".. "/',
        why="cwd '.. ' begins or ends with whitespace",
        does="sets the `cwd:` line back to `..`, the value approved\nRun the fix as written, never",
    ),
}


def as_approved(text: str) -> list[str]:
    """The lines of a goal file before its token accounting, but for those the hook's entries
    change."""
    moved = ("status:", "iterations_used:", "tokens_used:")
    head = text.split("## Token accounting")[0]
    return [line for line in head.split("\n") if not line.startswith(moved)]


@pytest.mark.parametrize(
    ("host", "case"),
    [
        *[(host, case) for case in CASES for host in ("claude", "codex")],
        ("gemini", "shell"),
        ("pi", "approved cwd"),
    ],
)
def test_an_invalid_run_setting_holds_the_host_until_the_printed_sed_runs(
    host: str, case: str, isolation: Isolation, tmp_path: Path
) -> None:
    setting = CASES[case]
    repo = goal_repo(tmp_path, activate=setting.approved is None)
    if setting.approved is not None:
        path = repo / GOAL
        lines = path.read_text(encoding="utf-8").split("\n")
        lines.insert(3, setting.approved)
        path.write_text("\n".join(lines), encoding="utf-8")
        goalfile_ok("activate", GOAL, cwd=repo)
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("", encoding="utf-8")
    approved = (repo / GOAL).read_text(encoding="utf-8")
    assert approved.split("\n")[2].startswith("status: active"), approved
    agent = Agent(trouble=f"sed -i '{setting.written}' {GOAL}", otherwise=FIX)
    server, run = host_session(host, repo, agent, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert len(reasons) == 2 and server.stops() == 3, (reasons, run.explain())
    held, unmet = reasons
    # the first stop: the file, the line and the value, and the sed that mends the line
    fix = agent.ran[0]
    assert (
        f"goalfile could not read {GOAL}: {GOAL}:4: {setting.why}\n"
        f"  fix: `{fix}` {setting.does}" in held
    ), held
    assert "sed " in fix and GOAL in fix, fix
    assert "verify-goal" not in held, held  # nothing was run with the setting
    # the model ran it as printed, in the host's shell, without a word of error: the goal file
    # is again as it was approved (the hook's entries and the counters they move aside)
    assert agent.ran == [fix, FIX], agent.ran
    assert ran_quietly(host, agent.outputs[0] or ""), agent.outputs
    now = (repo / GOAL).read_text(encoding="utf-8")
    assert as_approved(now) == as_approved(approved), now
    assert sorted(p.name for p in (repo / "goals").iterdir()) == ["demo.md"]
    # the next stop verified the goal as usual (unmet, and held for it), the one after met
    assert "verify-goal demo iteration 0: C1 unmet; status: active\n" in unmet, unmet
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "active"), (1, "met")]
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)
    answer = hook_now(repo)
    assert answer["decision"] == "allow" and answer["goals"] == [], answer
