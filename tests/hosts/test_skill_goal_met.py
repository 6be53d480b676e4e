"""A goal the real Claude Code and Codex write as skills/ tell them to, then mark `met` by hand:
the Stop hook holds them on it, and a real verify pass lets them go.

The repository is set up as the README says (`goalfile init --no-goal`: the skills and the
hooks, no goal). Everything about the goal happens in the host's own shell tool, as the skill
text says, word for word where it gives a command: the goal skill's worked example (its
`goalfile new ... --activate`, taken from skills/goal/SKILL.md, with the one tool it names,
`mytool`, as the project's own `./mytool`), then `goalfile focus goals/SLUG.md` (step 5).
The model does the work, runs `goalfile verify` (exit 1: the review row R1 is not reviewed
yet), and then does what the verify-goal skill says never to do: it types `status: met`.

Its `sed` types `met` over every `status: active` line, the approval entry's too, which git's
index holds (`new --activate` staged the goal). At its stop the hook holds it: the file no
longer continues the staged copy. The fix, `goalfile restore`, puts back the staged entry and
the status the ledger backs, and keeps the verify entry written since (`git checkout`, the fix
before, dropped it). The model runs it as printed, then does what the verify-goal skill says
for a review row (its worked example's `goalfile review`, taken from
skills/verify-goal/SKILL.md) and verifies again: met. The next stop lets it go, and a first
stop after the session would too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import git, make_git_repo
from hosts_fixtures import (
    Isolation,
    goalfile_ok,
    hook_now,
    host_session,
    ran_quietly,
    shell_said,
)
from hosts_fixtures import isolation as isolation
from skill_goals import SkillAgent, on_the_users_path, skill_command, skill_text

SLUG = "version-flag"
GOAL = f"goals/{SLUG}.md"
PROMPT = "Add a --version flag to mytool that prints the version in pyproject.toml."

MYTOOL = """\
#!/usr/bin/env python3
import sys
sys.path.insert(0, "src")
from mytool import main
main(sys.argv[1:])
"""
BEFORE = 'def main(args):\n    print("mytool: no such option" if args else "hello")\n'
AFTER = """\
import tomllib

def main(args):
    with open("pyproject.toml", "rb") as handle:
        version = tomllib.load(handle)["project"]["version"]
    print(f"mytool {version}" if args == ["--version"] else "hello")
"""
CHANGELOG = "- mytool --version now prints the version declared in pyproject.toml\n"


def project(tmp_path: Path) -> Path:
    """A small project with a command `mytool`, its version in pyproject.toml, a test suite;
    committed on `main`, then `goalfile init --no-goal` as the README says."""
    repo = make_git_repo(tmp_path / "repo")
    git(repo, "symbolic-ref", "HEAD", "refs/heads/main")
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "mytool"\nversion = "1.4.0"\n', encoding="utf-8"
    )
    (repo / "mytool").write_text(MYTOOL, encoding="utf-8")
    (repo / "mytool").chmod(0o755)
    (repo / "src" / "mytool").mkdir(parents=True)
    (repo / "src" / "mytool" / "__init__.py").write_text(BEFORE, encoding="utf-8")
    (repo / "tests").mkdir()
    (repo / "tests" / "test_mytool.py").write_text(
        "import subprocess\n\n\ndef test_runs():\n"
        '    assert subprocess.run(["./mytool"], check=True).returncode == 0\n',
        encoding="utf-8",
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "mytool")
    goalfile_ok("init", "--no-goal", cwd=repo)
    return repo


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_hand_typed_met_on_a_goal_the_skills_wrote_holds_until_a_real_verify(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    repo = project(tmp_path)
    on_the_users_path(tmp_path / "home")  # where host_session puts the host's HOME
    new = skill_command("goal", "goalfile new ")
    assert f"goalfile new {SLUG} " in new and new.endswith(" --activate"), new
    assert new.count('--check "mytool --version"') == 1, new
    new = new.replace('--check "mytool --version"', '--check "./mytool --version"')
    review = skill_command("verify-goal", "goalfile review ")
    assert review.startswith(f"goalfile review {GOAL} R1 --artifact CHANGELOG.md "), review
    assert "Then `goalfile focus goals/SLUG.md`" in skill_text("goal")  # step 5, after `new`
    typed_met = f"sed -i 's/^status: active/status: met/' {GOAL}"
    agent = SkillAgent(
        work=[
            new,
            f"goalfile focus {GOAL}",
            f"cat > src/mytool/__init__.py <<'EOF'\n{AFTER}EOF\n"
            f"cat > CHANGELOG.md <<'EOF'\n{CHANGELOG}EOF",
            f"goalfile verify {GOAL}",
            typed_met,
        ],
        after_fix=[review, f"goalfile verify {GOAL}"],
    )
    server, run = host_session(host, repo, agent, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert len(reasons) == 1 and server.stops() == 2, (reasons, run.explain())
    [held] = reasons
    # the first stop: the `sed` typed `met` over every `status: active` line, the approval
    # entry's too; the goal (staged by `new --activate`, never committed) no longer continues
    # the copy git's index holds, and the fix puts back that copy's entry and the status the
    # ledger backs, keeping the verify entry written since (`git checkout` dropped it)
    fix = agent.ran[len(agent.work)]
    assert (
        f"goalfile cannot verify {GOAL}: the file the working tree holds there does not "
        "continue the goal the index holds there (HEAD holds none there)"
    ) in held, held
    assert "«status: active» and is now «status: met»" in held, held
    assert fix == f"goalfile restore {GOAL}", fix
    assert agent.ran == [*agent.work, fix, *agent.after_fix], agent.ran
    # each call ran in the host's shell as the skills say: the goal written and focused, the
    # first verify exit 1 (R1 not reviewed), the typed met silent, the restore said what it
    # kept and set back, the review recorded, the second verify met
    said = [shell_said(out) for out in agent.outputs]  # Gemini CLI's: a JSON string
    assert len(said) == len(agent.ran), said
    assert f"wrote {GOAL} (status: active; 5 criteria approved, contract pinned)" in said[0]
    assert f"focus: {GOAL} (active" in said[1], said[1]
    first_verify = f"verify-goal {SLUG} iteration 0: C1 met, C2 met, C3 met, C4 met, R1 unmet"
    assert first_verify + "; status: active" in said[3], said[3]
    assert ran_quietly(host, said[4]), said[4]
    assert f"{GOAL}: put back 1 entry from the index's copy; kept 1 entry written " in said[5]
    assert f"{GOAL}: status met → active: the ledger does not back `met`" in said[5], said[5]
    assert "review of R1 recorded (met)" in said[6], said[6]
    met = f"verify-goal {SLUG} iteration 0: C1 met, C2 met, C3 met, C4 met, R1 met; status: met"
    assert met in said[7], said[7]
    # the first verify entry, written after the stage, is still in the ledger
    text = (repo / GOAL).read_text(encoding="utf-8")
    assert len(re.findall(r"(?m)^### Iteration 0 \([^)]*\) by verify-goal$", text)) == 2, text
    # the goal is met by that verify entry, and nothing holds a new stop
    goalfile_ok("audit", GOAL, cwd=repo)
    goalfile_ok("lint", GOAL, cwd=repo)
    answer = hook_now(repo)
    assert answer["decision"] == "allow", answer
