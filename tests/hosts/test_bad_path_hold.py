"""The real Claude Code, Codex, Gemini CLI and pi write a goal file by hand whose `cwd` holds a
NUL, and stop: the Stop hook holds them on it, naming the file and line, with a `fix:` that the
model runs exactly as printed in the host's own shell tool; the goal then loads, and the session
ends with the project's goal met. The hand-written goal's own check is never run: no person
approved it (the Stop hook runs only a contract whose approval git's index or HEAD holds), and
the hook now names it so, with the command a person runs to approve it.

The hand-written goal sits in a folder git ignores (`goals/.cache/`), with `status: active`
and no ledger, as an agent would write one to end its session: `cwd: "a\\0b"` (a NUL, in a
YAML double-quoted string) is a value no system call takes, so every command that looks at
the goal refuses it (docs/trust.md). The hook answers for it like a goal file that does not
load (block once), and verifies the project's own goal all the same.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from conftest import NUL_CWD, run_goalfile
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import (
    GOAL,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    goalfile_ok,
    hook_now,
    host_session,
    ran_quietly,
)
from hosts_fixtures import isolation as isolation

DECOY = "goals/.cache/aaa.md"
DECOY_TEXT = NUL_CWD
# what the model types in its shell tool: the goal file, by hand, in a folder git ignores
WRITE_DECOY = (
    "mkdir -p goals/.cache && echo goals/.cache/ >> .git/info/exclude && "
    f"cat > {DECOY} <<'EOF'\n{DECOY_TEXT}EOF"
)
# the same under Gemini CLI, whose shell tool refuses a here-document holding backticks
# ("Command injection detected"): in single quotes, which it lets through
WRITE_DECOY_QUOTED = (
    "mkdir -p goals/.cache && echo goals/.cache/ >> .git/info/exclude && "
    f"printf %s {shlex.quote(DECOY_TEXT)} > {DECOY}"
)
PRINTED_FIX = (
    f"[ ! -e {DECOY}.goalfile-bak ] && sed -i.goalfile-bak -e '10d' -- {DECOY} "
    f"&& rm -- {DECOY}.goalfile-bak"
)


def status_of(repo: Path, path: str) -> str:
    done = run_goalfile("status", "--json", path, cwd=repo)
    return str(json.loads(done.stdout)["goals"][0]["status"])


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_hand_written_goal_with_a_nul_in_its_cwd_holds_the_host_until_the_printed_fix_runs(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    printed: list[str] = []
    fix_results: list[str | None] = []

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            if printed and len(fix_results) < len(printed):
                fix_results.append(turn.tool_output)
            return Say("Done.")
        if turn.feedback is None:
            return Shell(WRITE_DECOY_QUOTED if host == "gemini" else WRITE_DECOY)
        found = re.search(r"\n  fix: `([^`]+)`", turn.feedback)
        if found is not None:
            printed.append(found.group(1))
            return Shell(found.group(1))  # the model runs the printed fix, as written
        if (repo / "done.txt").exists():  # the goal no person approved, named alone: it asks
            return Say("I will ask the person to approve goals/.cache/aaa.md.")
        return Shell("touch done.txt")  # the hand-written goal loads now: meet the real one

    server, _ = host_session(host, repo, script, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    # Gemini CLI says a stop that follows a tool call is no continuing one: the goal no person
    # approved, the same file, is named alone at the stop after the model met the real goal,
    # and let go once the model answers without a tool call
    assert len(reasons) == (3 if host == "gemini" else 2), reasons
    held, unmet = reasons[:2]
    if host == "gemini":
        assert reasons[2].startswith(f"goalfile did not run the checks of {DECOY}: "), reasons
        assert "verify-goal" not in reasons[2], reasons[2]
    # the first stop: the hand-written goal names its file, line and value; the project's own
    # goal was verified all the same
    assert (
        f"goalfile could not read {DECOY}: {DECOY}:10: cwd 'a\\x00b' holds the control "
        "character U+0000, which no path holds\n"
        f"  fix: `{PRINTED_FIX}` deletes the `cwd:` line" in held
    ), held
    assert "verify-goal demo iteration 0: C1 unmet; status: active" in held, held
    assert printed == [PRINTED_FIX]
    # the fix ran in the host's shell, as printed, without a word of error, and changed only
    # that line; the goal then loaded and was verified met at the next stop
    assert len(fix_results) == 1 and ran_quietly(host, fix_results[0] or ""), fix_results
    lines = DECOY_TEXT.split("\n")
    now = (repo / DECOY).read_text(encoding="utf-8").split("\n")
    assert now == lines[:9] + lines[10:], now  # nothing else changed: no verify wrote to it
    assert sorted(p.name for p in (repo / "goals" / ".cache").iterdir()) == ["aaa.md"]
    # the second stop: the decoy loads now; changed since the first hold, it is named once more,
    # as a goal no person approved (its checks not run), no longer as one that cannot be read
    assert f"could not read {DECOY}" not in unmet, unmet
    assert f"did not run the checks of {DECOY}" in unmet, unmet
    assert "verify-goal demo iteration 1: C1 unmet" in unmet, unmet
    goalfile_ok("lint", DECOY, cwd=repo)
    assert status_of(repo, DECOY) == "active"  # loads now, and was never run
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)
    # the goal loads: a first stop now names it as a goal whose checks the hook does not run
    # (the message a person reads), not as one it cannot read
    answer = hook_now(repo)
    assert answer["decision"] == "block", answer
    assert answer["host_output"]["reason"].startswith(
        f"goalfile did not run the checks of {DECOY}: the Stop hook runs the checks only of a "
        "goal whose approval a person made, which git's index or HEAD holds, and neither "
        "git's index nor HEAD holds the goal file\n  fix: a person who has read its checks "
        f"approves them with `goalfile activate {DECOY} && git add -f -- {DECOY}`\n"
    ), answer  # a folder git ignores: activate does not force it into the index; git add -f
