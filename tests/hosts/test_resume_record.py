"""A Claude Code session resumed (`claude -p --resume ID`, `claude -p --continue`) keeps its
record, and the record stays the host's: Claude Code 2.1.332 keeps the session's id and
appends to the same transcript, whose part up to the record's length still hashes to the
digest the record keeps (goalfile.recordbind). Not a regression test: what docs/trust.md says
of a resumed session ("The Stop hook's record of a session"), through the real host.

The first session forges a met as in test_start_record_hold.py and is held once for it; the
resumed session runs `true` and stops: the record it compares with is the first session's,
and nothing says it was set aside.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hosts_fixtures import GOAL, PROMPT, Isolation, run_session
from hosts_fixtures import isolation as isolation
from skill_goals import on_the_users_path
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template
from test_head_moved_hold import person_goal_on_main
from test_lock_fix_host import Steps
from test_start_record_hold import FIRST_TURN


def taken(repo: Path) -> list[dict[str, object]]:
    """How each session record in the state folder was taken."""
    folder = repo.parent / "home" / ".local" / "state" / "goalfile" / "sessions"
    return [json.loads(path.read_text())["taken"] for path in sorted(folder.glob("*.json"))]


@pytest.mark.parametrize("how", ["--resume", "--continue"])
def test_a_resumed_session_keeps_its_record_as_the_hosts(
    how: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    person_goal_on_main(repo)
    on_the_users_path(repo.parent / "home")
    first = run_session("claude", repo, Steps(list(FIRST_TURN)), isolation, prompt=PROMPT)
    [transcript] = first.transcripts
    assert len(first.server.feedbacks()) == 1, first.run.explain()
    [before] = taken(repo)
    assert before["transcript"] == str(transcript) and before["digest"], before
    size = transcript.stat().st_size
    args = [how, transcript.stem] if how == "--resume" else [how]
    again = run_session("claude", repo, Steps(["true"]), isolation, prompt="Go on.", args=args)
    assert again.transcripts == [transcript], again.transcripts  # the same file, appended to
    assert transcript.stat().st_size > size
    [after] = taken(repo)
    assert after["transcript"] == str(transcript), after
    said = [*again.server.feedbacks(), again.run.explain()]
    assert again.server.stops() >= 1 and not any("set aside" in text for text in said), said
    assert f"goalfile: {GOAL} is met only under a contract that commit" in said[0], said
