"""What `goalfile new` and `goalfile activate` say of a check that names something that is not
there reaches the model, through the real hosts' shell tools.

The project is set up as the README says (`goalfile init --no-goal`, committed, on `main`).
The model (the scripted fake) follows the goal skill's step 6, in the host's shell: `goalfile
new` writes the draft, whose C1 runs pytest on a test file the work is to write and whose C2
compares with `mian` (a typo of `main`). Its output names both: pytest would exit 4, git 128,
and verify would judge each row `unmet` (the first until the work makes the file). The model
corrects the revision in the draft, as the note says, and runs `goalfile activate`, which
warns of the test path alone, then `goalfile focus`. It writes the test file and ends its
turn: the Stop hook verifies the goal met at the first stop. Each host hands the shell's
stderr to the model in its own way, so all four run it.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from conftest import git
from hosts_fixtures import GOAL, PROMPT, Isolation, goal_state, run_session, verify_entries
from hosts_fixtures import isolation as isolation
from skill_goals import SkillAgent, on_the_users_path, skill_synopsis
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template

TEST = "tests/test_done.py"

NEW = shlex.join(
    ["goalfile", "new", "demo", f"{TEST} passes",
     "--criterion", "the new test passes", "--check", f"pytest {TEST} -q",
     "--expected", 'exit 0; stdout contains " passed"',
     "--criterion", "README.md unchanged", "--check", "git diff --stat mian -- README.md",
     "--expected", "exit 0; output empty",
     "--non-goal", "README.md stays unchanged."]
)  # fmt: skip
TYPO = f"sed -i 's/--stat mian --/--stat main --/g' {GOAL}"
WORK = f"mkdir -p tests && printf 'def test_done():\\n    pass\\n' > {TEST}"

PATH_NOTE = (
    f"C1: pytest is given `{TEST}`, which is not there where the checks run: pytest exits 4 "
    "(its usage error), and verify judges the row `unmet`"
)
REVISION_NOTE = (
    "C2: git knows no commit `mian` where the checks run (`git branch --all` lists the "
    "branches): git exits 128, and verify judges the row `unmet`"
)


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_new_and_activate_notes_of_what_is_not_there_reach_the_model(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    git(repo, "branch", "-M", "main")
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    assert skill_synopsis("goal", "goalfile activate ") == "goalfile activate PATH"
    activate = f"goalfile activate {GOAL}"
    agent = SkillAgent(work=[NEW, TYPO, activate, f"goalfile focus {GOAL}", WORK])
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    assert ran.server.stops() == 1 and ran.server.feedbacks() == [], ran.run.explain()
    said_new, _, said_activate, *_ = (output or "" for output in agent.outputs)
    before = f"correct it in {GOAL} before `goalfile activate`"
    made = f"until the work makes it; if the work is not to make it, {before}"
    assert f"note: {PATH_NOTE} {made}" in said_new, said_new
    assert f"note: {REVISION_NOTE}; {before}" in said_new, said_new
    assert f"warning: {PATH_NOTE} until the work makes it" in said_activate, said_activate
    assert "mian" not in said_activate, said_activate
    # the test file written, the hook verified the goal met at the first stop
    assert [e.status for e in verify_entries(repo)] == ["met"]
    assert goal_state(repo)["status"] == "met"
