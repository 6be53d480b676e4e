"""A goal written the way skills/ tell an agent to write it, by the agent, in the host's shell.

* :func:`readme_repo` (a fixture): a committed project set up as the README says (`goalfile
  init --no-goal`, its skills and hooks committed), with no goal yet.
* :func:`skill_new`: the goal skill's step 5, `goalfile new SLUG "END STATE" --check CMD
  --expected TEXT ... --non-goal TEXT --activate` (the goal written, approved and staged, never
  committed), then `goalfile focus goals/SLUG.md`, as shell commands the model runs.
* :func:`skill_command`: a command of a skill's worked example, as written there.
* :class:`SkillAgent`: the scripted model that runs such commands one shell call at a time,
  and what a Stop hook's reason tells it (its `fix:`, or the `goalfile reopen` it names).
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import committed_repo, git
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import PRINTED_FIX, Session, goalfile_ok

SKILLS = Path(__file__).resolve().parents[2] / "skills"

UNMET = re.compile(r"verify-goal demo iteration \d+: C1 unmet; status: active")
"""The Stop hook's reason for the demo goal's unmet row (:func:`skill_new`'s goal)."""

REOPEN = re.compile(r"`(goalfile reopen [^`]+)`")
"""The `goalfile reopen` a reason names (not a `fix:`: its `--reason TEXT` is the agent's)."""


def skill_text(skill: str) -> str:
    return (SKILLS / skill / "SKILL.md").read_text(encoding="utf-8")


def skill_command(skill: str, starts: str) -> str:
    """The command of the ```sh block in skills/SKILL/SKILL.md that begins with ``starts``, as
    written there (its lines continued with a backslash)."""
    blocks = re.findall(r"```sh\n(.*?)```", skill_text(skill), flags=re.DOTALL)
    found = [block.strip() for block in blocks if block.startswith(starts)]
    assert len(found) == 1, (skill, starts, blocks)
    return found[0]


def skill_synopsis(skill: str, starts: str) -> str:
    """The command a skill's text gives in a code span that begins with ``starts`` (its
    table of commands, its procedure): the one form it names, placeholders and all."""
    found = sorted(set(re.findall(rf"`({re.escape(starts)}[^`]*)`", skill_text(skill))))
    assert len(found) == 1, (skill, starts, found)
    return found[0]


@pytest.fixture(scope="session")
def readme_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with one commit, then, as the README says, `goalfile init --no-goal` and its
    skills and hooks committed: no goal yet. Made once; each test gets a copy
    (:func:`readme_repo`)."""
    repo = committed_repo(tmp_path_factory.mktemp("readme") / "repo")
    goalfile_ok("init", "--no-goal", cwd=repo)
    git(repo, "add", ".agents", ".claude", ".codex", ".gemini", ".pi")
    git(repo, "commit", "-qm", "goalfile: skills and Stop hooks")
    return repo


@pytest.fixture
def readme_repo(readme_template: Path, tmp_path: Path) -> Path:
    """A copy of :func:`readme_template` at ``tmp_path/repo`` (git and goalfile keep no
    absolute path in it), where the hosts' HOME is ``tmp_path/home``."""
    repo = tmp_path / "repo"
    shutil.copytree(readme_template, repo, symlinks=True)
    return repo


def skill_new(
    slug: str = "demo",
    *,
    end_state: str = "done.txt exists",
    check: str = "test -f done.txt",
    expected: str = "exit 0",
    non_goal: str = "Nothing but done.txt changes.",
    folder: str = "goals",
) -> list[str]:
    """The goal skill's step 5 as the model types it after the person's yes: `goalfile new
    ... --activate` with one row (and ``--dir FOLDER`` for a goal outside goals/, which the
    same command writes), then `goalfile focus` on the goal it wrote."""
    steps = skill_text("goal")
    synopsis = 'goalfile new SLUG "END STATE" --check CMD --expected TEXT ... --non-goal TEXT'
    assert f"`{synopsis} --activate`" in steps, "the goal skill's step 5 changed"
    assert "Then `goalfile focus goals/SLUG.md`" in steps, "the goal skill's step 5 changed"
    new = ["goalfile", "new", slug, end_state, "--criterion", end_state, "--check", check,
           "--expected", expected, "--non-goal", non_goal]  # fmt: skip
    if folder != "goals":
        new += ["--dir", folder]
    return [shlex.join([*new, "--activate"]), f"goalfile focus {folder}/{slug}.md"]


def on_the_users_path(home: Path) -> None:
    """The virtual environment that holds the goalfile under test (and `python`) on the PATH
    of a login shell in ``home``, as a user's ~/.profile that activates it puts it: Codex runs
    its shell tool as `bash -lc`, and /etc/profile sets PATH anew. (Its hooks, and the other
    hosts' tools, get the host's PATH, which has it already.)"""
    home.mkdir(parents=True, exist_ok=True)
    folder = shlex.quote(str(Path(sys.executable).parent))
    (home / ".profile").write_text(f'PATH={folder}:"$PATH"\n', encoding="utf-8")


@dataclass
class SkillAgent:
    """The scripted model: at the prompt it runs ``work``, one shell call after another; for
    a Stop hook's reason it runs the command ``fix`` finds in it (the printed `fix:` by
    default) as written, then ``after_fix``; when the reason names none, ``then`` the first
    time (what the agent does once it is sent back), ``otherwise`` after that. After its
    last call it ends its turn. ``outputs``: what the shell tool said of each command
    ``ran``."""

    work: list[str]
    after_fix: list[str] = field(default_factory=list)
    otherwise: str | None = None
    then: list[str] = field(default_factory=list)
    fix: re.Pattern[str] = PRINTED_FIX
    ran: list[str] = field(default_factory=list)
    outputs: list[str | None] = field(default_factory=list)
    queue: list[str] = field(default_factory=list)

    def __call__(self, turn: Turn) -> Reply:
        if turn.after_tool:
            self.outputs.append(turn.tool_output)
        elif turn.feedback is None:
            self.queue = list(self.work)
        else:
            found = self.fix.search(turn.feedback)
            if found:
                self.queue = [found.group(1), *self.after_fix]
            elif self.then:
                self.queue, self.then = list(self.then), []
            else:
                self.queue = [self.otherwise] if self.otherwise else []
        if not self.queue:
            return Say("Done.")
        self.ran.append(self.queue.pop(0))
        return Shell(self.ran[-1])


def held_between_unmet(ran: Session, agent: SkillAgent, *, holds: int = 1) -> list[str]:
    """The reasons ``holds`` stops of session ``ran`` were held for, between its first and its
    last held stop, each held for the demo goal's unmet row; the stop after the last was let
    go (``agent`` ran the commands shown when that fails)."""
    reasons = ran.server.feedbacks()
    stops = ran.server.stops()
    assert len(reasons) == holds + 2 and stops == holds + 3, (reasons, agent.ran, ran.run.explain())
    first, *between, unmet = reasons
    assert UNMET.search(first) and UNMET.search(unmet), (first, unmet)
    return between
