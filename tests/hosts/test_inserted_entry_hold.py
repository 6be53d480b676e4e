"""A pause entry typed in among the committed entries of the goal, in the real Claude Code's,
Codex's, Gemini CLI's and pi's shells: the Stop hook holds the agent once, and the printed fix
puts HEAD's goal back.

The project is set up as the README says (`goalfile init --no-goal`, committed); the model
(the scripted fake) writes the goal as the goal skill's step 5 says (`goalfile new ...
--activate`, then `goalfile focus`) and stops. The hook holds it for the unmet row, ledgering
its verify and `by stop-hook` entries. Sent back, the model commits its work in progress (the
hook's entries with it), then types with `sed` a `### Iteration 0 (yesterday) by pause` entry,
`status: paused`, before the hook's last entry and sets the frontmatter's status to `paused`.
The hook used to count entries by place, so the pause read as one git holds from before today,
and the stop was let go with nothing printed; lint said ok. Now that stop is held (the entry
was inserted among entries that were there at HEAD), the model runs the printed fix as
written, and the next stop verifies the goal: unmet, then met. The recorded-input version is
tests/test_hook_inserted_entry.py.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from fake_model import Reply, Turn
from hosts_fixtures import (
    FIX,
    GOAL,
    PRINTED_FIX,
    PROMPT,
    Isolation,
    goal_state,
    hook_now,
    run_session,
    verify_entries,
)
from hosts_fixtures import isolation as isolation
from skill_goals import SkillAgent, held_between_unmet, on_the_users_path, skill_new
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template

SAVED = f"{GOAL}.goalfile-saved"


def typed_pause() -> str:
    """The model's edit: a pause entry dated yesterday before the hook's `by stop-hook` entry
    (the last one, which HEAD holds), and `paused` over the frontmatter's `active`."""
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    entry = rf"### Iteration 0 ({yesterday}) by pause\n\nreason: waiting\n\nstatus: paused\n"
    return (
        rf"sed -i -e '/^### Iteration [0-9]* ([^)]*) by stop-hook$/i {entry}' "
        f"-e '0,/^status: active/s//status: paused/' {GOAL}"
    )


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_pause_typed_among_committed_entries_holds_until_the_fix_puts_head_back_each_time(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    """The model runs the printed fix, then types the same pause entry in again before its
    next stop: the hook, which held once per finding and never saw the file put back, let it
    go with a message. A file written since the hold is another finding: held again, with a
    fix that keeps its copy beside the first one's; the model runs it and meets the goal."""
    repo = readme_repo
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    insert = ["git add -A && git commit -qm 'work in progress'", typed_pause()]
    agent = SkillAgent(work=skill_new(), then=insert, after_fix=[typed_pause()], otherwise=FIX)

    def script(turn: Turn) -> Reply:  # types the entry in again after the first fix only
        reply = agent(turn)
        if turn.feedback is not None and PRINTED_FIX.search(turn.feedback):
            agent.after_fix = []
        return reply

    ran = run_session(host, repo, script, isolation, prompt=PROMPT)
    inserted, again = held_between_unmet(ran, agent, holds=2)
    assert (
        f"goalfile cannot verify {GOAL}: the file the working tree holds there does not "
        "continue the goal HEAD holds there: its ledger does not extend HEAD's: Iteration 0 ("
    ) in inserted, inserted
    pause = "by pause: the entry was inserted among entries that were there at HEAD"
    assert pause in inserted and pause in again, (inserted, again)
    # the model ran each printed fix as written, in its shell tool, then met the goal
    fix = f"[ ! -e {SAVED} ] && cp -- {GOAL} {SAVED} && git checkout HEAD -- {GOAL}"
    assert f"\n  fix: `{fix}`" in inserted, inserted
    fix_again = f"[ ! -e {SAVED}-2 ] && cp -- {GOAL} {SAVED}-2 && git checkout HEAD -- {GOAL}"
    assert f"\n  fix: `{fix_again}`" in again, again
    done = len(agent.work) + len(insert)
    assert agent.ran[done:] == [fix, typed_pause(), fix_again, FIX], agent.ran
    assert "by pause" in (repo / SAVED).read_text(encoding="utf-8")
    assert "by pause" in (repo / f"{SAVED}-2").read_text(encoding="utf-8")
    text = (repo / GOAL).read_text(encoding="utf-8")
    assert "by pause" not in text, text
    # HEAD's verify entry, then the hook's two after the fixes
    assert [e.status for e in verify_entries(repo)] == ["active", "active", "met"]
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"
