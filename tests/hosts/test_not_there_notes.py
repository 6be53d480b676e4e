"""What `goalfile new` and `goalfile activate` say of a check that names something that is not
there, and what `goalfile lint` warns of a unittest row judged on stdout, reach the model
through the real hosts' shell tools.

The project is set up as the README says (`goalfile init --no-goal`, committed, on `main`).
The model (the scripted fake) follows the goal skill's step 6, in the host's shell: `goalfile
new` writes the draft, whose C1 runs pytest on a test file the work is to write, C2 compares
with `mian` (a typo of `main`), C3 runs a module the work is to write (`python -m MOD`), C4 a
unittest test module it is to write, judged `stdout contains "OK"` (the first thing a person
writes), and C5 a make target of a makefile it is to write. Its output names each: pytest would
exit 4, git 128, python 1, make 2, and verify would judge each row `unmet` (all but C2 until
the work makes what it names). `goalfile lint` warns that unittest writes its report on
stderr. The model corrects the revision and the stream in the draft, as the note and the
warning say, and runs `goalfile activate`, which warns of what the work is to make alone,
then `goalfile focus`. It writes the files and ends its turn: the Stop hook verifies the goal
met at the first stop. Each host hands the shell's stderr to the model in its own way, so all
four run it.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from conftest import git
from hosts_fixtures import (
    GOAL,
    PROMPT,
    Isolation,
    goal_state,
    run_session,
    shell_said,
    verify_entries,
)
from hosts_fixtures import isolation as isolation
from skill_goals import SkillAgent, on_the_users_path, skill_synopsis, skill_text
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template

TEST = "tests/test_done.py"

NEW = shlex.join(
    ["goalfile", "new", "demo", f"{TEST} passes",
     "--criterion", "the new test passes", "--check", f"pytest {TEST} -q",
     "--expected", 'exit 0; stdout contains " passed"',
     "--criterion", "README.md unchanged", "--check", "git diff --stat mian -- README.md",
     "--expected", "exit 0; output empty",
     "--criterion", "the new module runs", "--check", "python -m donecheck",
     "--expected", "exit 0",
     "--criterion", "the new unittest passes", "--check", "python -m unittest test_unit_done",
     "--expected", 'exit 0; stdout contains "OK"',
     "--criterion", "the new target builds", "--check", "make built", "--expected", "exit 0",
     "--non-goal", "README.md stays unchanged."]
)  # fmt: skip
# the revision and the stream corrected in the draft, in one edit
CORRECT = (
    "sed -i -e 's/--stat mian --/--stat main --/g'"
    f' -e \'s/stdout contains "OK"/stderr contains "OK"/\' {GOAL}'
)
WORK = (
    f"mkdir -p tests && printf 'def test_done():\\n    pass\\n' > {TEST}"
    " && : > donecheck.py && printf 'built:\\n' > Makefile"
    " && printf 'import unittest\\n\\nclass T(unittest.TestCase):\\n"
    "    def test_done(self):\\n        pass\\n' > test_unit_done.py"
)

PATH_NOTE = (
    f"C1: pytest is given `{TEST}`, which is not there where the checks run: pytest exits 4 "
    "(its usage error), and verify judges the row `unmet`"
)
MODULE_NOTE = (
    "C3: python is given `donecheck`, which is no module where the checks run: it exits 1 (No "
    "module named ...), and verify judges the row `unmet`"
)
UNITTEST_NOTE = (
    "C4: python is given `test_unit_done`, which is no module where the checks run: it exits "
    "1 (an ImportError, which unittest counts as an error), and verify judges the row `unmet`"
)
MAKE_NOTE = (
    "C5: make finds no makefile (GNUmakefile, makefile or Makefile) where the checks run: make "
    "exits 2, and verify judges the row `unmet`"
)
UNITTEST_STDOUT = (
    "warning: C4: unittest writes its report (`Ran N tests`, `OK`, `FAILED`) on stderr, so "
    '`stdout contains "OK"` is never met by its report: judge the stream unittest writes, '
    '`stderr ...`, or `output ...` for both (`exit 0; stderr contains "OK"`)'
)
WORK_NOTES = (PATH_NOTE, MODULE_NOTE, UNITTEST_NOTE, MAKE_NOTE)
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
    lint = f"goalfile lint {GOAL}"
    assert "`goalfile lint PATH` checks it (exit 0; read its warnings too" in skill_text("goal")
    agent = SkillAgent(work=[NEW, lint, CORRECT, activate, f"goalfile focus {GOAL}", WORK])
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    assert ran.server.stops() == 1 and ran.server.feedbacks() == [], ran.run.explain()
    said_new, said_lint, _, said_activate, *_ = (shell_said(output) for output in agent.outputs)
    before = f"correct it in {GOAL} before `goalfile activate`"
    made = f"until the work makes it; if the work is not to make it, {before}"
    for note in WORK_NOTES:
        assert f"note: {note} {made}" in said_new, said_new
        assert f"warning: {note} until the work makes it" in said_activate, said_activate
    assert f"note: {REVISION_NOTE}; {before}" in said_new, said_new
    assert UNITTEST_STDOUT in said_lint, said_lint
    assert "mian" not in said_activate and "unittest writes" not in said_activate, said_activate
    # the test file written, the hook verified the goal met at the first stop
    assert [e.status for e in verify_entries(repo)] == ["met"]
    assert goal_state(repo)["status"] == "met"
