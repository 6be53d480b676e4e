"""A repository holding a goal at every stage of its life, as goalfile and the skill family
write them, for the tests that run outside tools on goal files (tests/test_formatter_matrix.py):

- `draft`: the starter draft of `goalfile init` (`FILL IN` left);
- `proposed`: a filled draft from `goalfile new`, never activated;
- `approved`: active, its approval entry only, its non-goals a numbered list (`1.` each);
- `unmet`: active, three verify runs with unmet rows, output excerpts, a plan and a refine;
- `met`: met after a long ledger (eight verify runs, a review recorded, plans, a refine);
- `paused`: paused, with a long reason;
- `blocked`: blocked, its reason and what was tried holding a URL and emphasis;
- `exhausted`: its one iteration used up;
- `version-flag`: the goal skill's worked example, made by the `goalfile new` command in
  skills/goal/SKILL.md run by a shell, with the plan skill's rows typed under its `## Plan`;
- `auth`: the skill family's compact goal (tests/test_skill_family.py): times in entry headings,
  `tokens_used: null`, the plan skill's lines, a review recorded by verify-goal.

Everything is committed, so `audit --against HEAD` compares with the files as written."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, built_once, clean_env, git, make_git_repo, run_goalfile
from tests.test_skill_family import QUOTE, SKILL_PLAN, VERIFY_ENTRY, skill_goal

LONG = (
    "the upstream service at https://example.com/status/42 answers 503 for every request "
    "made with the *staging* credentials, and the owner of the account is away until Monday"
)

SKILL_ROWS = """| 1 | read the version with importlib.metadata instead of a literal | src/mytool/cli.py | C1, C4 | `mytool --version` |
| 2 | add a changelog entry for the flag | CHANGELOG.md | R1 | - |
| 3 | no change to the tests; run the suite as it is | - | C2, C3 | `python -m pytest -q` |
"""  # noqa: E501  (the plan skill's rows, as its worked example types them)


GOALS = (
    "draft", "proposed", "approved", "unmet", "met", "paused", "blocked", "exhausted",
    "version-flag", "auth",
)  # fmt: skip


def ok(done: subprocess.CompletedProcess[str], *codes: int) -> None:
    assert done.returncode in (codes or (0,)), (done.args, done.stdout, done.stderr)


def gf(repo: Path, *args: str, codes: tuple[int, ...] = (0,)) -> None:
    ok(run_goalfile(*args, cwd=repo, timeout=120), *codes)


def skill_new_command() -> str:
    """The ```sh block of skills/goal/SKILL.md that begins with `goalfile new `."""
    text = (REPO / "skills" / "goal" / "SKILL.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)
    [new] = [block.strip() for block in blocks if block.startswith("goalfile new ")]
    return new


def add_plan_rows(path: Path, rows: str) -> None:
    """The plan skill's steps, typed under the `## Plan` header `goalfile new` wrote."""
    text = path.read_text(encoding="utf-8")
    header = "| step | change | files | serves | check |\n"
    header += "|------|--------|-------|--------|-------|\n"
    assert header in text, text
    path.write_text(text.replace(header, header + rows, 1), encoding="utf-8")


def stages_repo(root: Path) -> Path:
    """The repository, committed; each goal of :data:`GOALS` at ``goals/SLUG.md``."""
    repo = make_git_repo(root)
    git(repo, "checkout", "-q", "-b", "main")
    for folder in ("src/mytool", "tests/fixtures", "docs"):
        (repo / folder).mkdir(parents=True, exist_ok=True)
    (repo / "tests" / "auth.sh").write_text("echo '3 passed'\n", encoding="utf-8")
    (repo / "tests" / "fixtures" / "user.json").write_text("{}\n", encoding="utf-8")
    (repo / "docs" / "auth.md").write_text(f"# Auth\n\nOn refresh, {QUOTE}.\n", "utf-8")
    (repo / "src" / "mytool" / "__init__.py").write_text("VERSION = '1.3.2'\n", "utf-8")
    (repo / "notes.md").write_text("The notes say why: the cache is keyed by user.\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "project")

    gf(repo, "init", "--no-hooks", "--no-skills", "--slug", "draft")
    gf(
        repo, "new", "proposed", "the cache hit rate is reported",
        "--check", "grep -c 'hit rate' report.txt", "--expected", "exit 0; prints 1",
        "--non-goal", "the cache keys stay as they are",
    )  # fmt: skip
    gf(
        repo, "new", "approved", "a.txt exists",
        "--check", "test -f a.txt", "--expected", "exit 0",
        "--non-goal", "nothing under tests/ changes", "--non-goal", "the README keeps its title",
    )  # fmt: skip
    # the non-goals numbered as mdformat writes a numbered list (`1.` on every item)
    approved = repo / "goals" / "approved.md"
    bullets = "- nothing under tests/ changes\n- the README keeps its title\n"
    text = approved.read_text(encoding="utf-8")
    assert bullets in text, text
    approved.write_text(text.replace(bullets, bullets.replace("- ", "1. ")), encoding="utf-8")
    gf(repo, "activate", "goals/approved.md")

    # unmet: output excerpts with lines that look like Markdown, a pipe and backticks in a
    # check, an escaped regex, a plan and a refine
    gf(
        repo, "new", "unmet", "the build prints the version and no warning", "--activate",
        "--iterations", "10",
        "--criterion", "the version is printed",
        "--check", "printf '## Lessons\\n| X | met |\\nstatus: met\\n'; cat build.txt",
        "--expected", "exit 0; stdout matches /^version 1\\.4\\.0$/",
        "--criterion", "no warning",
        "--check", "echo 'a|b `c` d'; test -f clean.txt",
        "--expected", 'exit 0; stdout contains "a|b"',
        "--review", "notes.md=says why the cache is keyed by user",
        "--non-goal", "the *public* API at https://example.com/api keeps its shape",
    )  # fmt: skip
    for run in range(3):  # another output each time: not a stall
        (repo / "build.txt").write_text(f"version 1.3.{run}\n", encoding="utf-8")
        gf(repo, "verify", "goals/unmet.md", codes=(1,))
    gf(repo, "refine", "goals/unmet.md")

    # met after a long ledger: many runs, plans, a refine, a review
    gf(
        repo, "new", "met", "d.txt and e.txt exist", "--activate", "--iterations", "40",
        "--check", "test -f d.txt", "--expected", "exit 0; output empty",
        "--check", "cat e.txt", "--expected", 'exit 0; stdout contains "e"',
        "--review", "notes.md=says why the cache is keyed by user",
    )  # fmt: skip
    add_plan_rows(
        repo / "goals" / "met.md",
        "| 1 | write d.txt | d.txt | C1 | `test -f d.txt` |\n"
        "| 2 | write e.txt and the notes | e.txt, notes.md | C2, R1 | `cat e.txt` |\n",
    )
    for run in range(6):
        if run % 3 == 0:
            gf(repo, "plan", "goals/met.md")
        (repo / "e.txt").write_text(f"run {run}\n", encoding="utf-8")
        gf(repo, "verify", "goals/met.md", codes=(1,))
        if run == 4:
            gf(repo, "refine", "goals/met.md")
    (repo / "d.txt").write_text("", encoding="utf-8")
    (repo / "e.txt").write_text("e\n", encoding="utf-8")
    gf(repo, "verify", "goals/met.md", codes=(1,))
    gf(
        repo, "review", "goals/met.md", "R1", "--artifact", "notes.md",
        "--quote", "the cache is keyed by user", "--verdict", "met",
        "--reason", "names the key and why, see `notes.md`",
    )  # fmt: skip
    gf(repo, "verify", "goals/met.md")

    gf(
        repo, "new", "paused", "f.txt exists", "--activate",
        "--check", "test -f f.txt", "--expected", "exit 0",
    )  # fmt: skip
    gf(repo, "verify", "goals/paused.md", codes=(1,))
    gf(repo, "pause", "goals/paused.md", "--reason", LONG)

    gf(
        repo, "new", "blocked", "g.txt exists", "--activate",
        "--check", "test -f g.txt", "--expected", "exit 0",
    )  # fmt: skip
    gf(repo, "verify", "goals/blocked.md", codes=(1,))
    gf(
        repo, "block", "goals/blocked.md", "--reason", LONG,
        "--tried", "asked at mailto:team@example.com", "--tried", "retried with `curl -v`",
        codes=(0, 4),
    )  # fmt: skip

    gf(
        repo, "new", "exhausted", "h.txt exists", "--activate", "--iterations", "1",
        "--check", "test -f h.txt", "--expected", "exit 0",
    )  # fmt: skip
    add_plan_rows(repo / "goals" / "exhausted.md", "| 1 | write h.txt | h.txt | C1 | - |\n")
    gf(repo, "plan", "goals/exhausted.md")
    gf(repo, "verify", "goals/exhausted.md", codes=(1,))
    gf(repo, "plan", "goals/exhausted.md", codes=(5,))

    # the goal skill's worked example, its command run as written by a shell
    bin_dir = root.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "goalfile").write_text(f'#!/bin/sh\nexec {sys.executable} -m goalfile "$@"\n')
    (bin_dir / "goalfile").chmod(0o755)
    env = clean_env({"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"})
    made = subprocess.run(
        ["sh", "-c", skill_new_command()], cwd=repo, env=env, capture_output=True, text=True
    )
    ok(made)
    add_plan_rows(repo / "goals" / "version-flag.md", SKILL_ROWS)
    gf(repo, "plan", "goals/version-flag.md")
    gf(repo, "verify", "goals/version-flag.md", codes=(4,))  # C1 an error: `mytool` is not there
    gf(repo, "resume", "goals/version-flag.md", "--resolved", "`mytool` is installed in CI")

    # the skill family's compact goal, as its skills write it
    # the skill family's compact goal: its review recorded the verify-goal skill's way, then
    # verified by goalfile
    review = VERIFY_ENTRY.replace("status: met", "status: active")
    auth = skill_goal(plan=SKILL_PLAN, iterations=review, lessons="- C2: never edit the fixtures\n")
    (repo / "goals" / "auth.md").write_text(auth, encoding="utf-8")
    gf(repo, "verify", "goals/auth.md")

    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goals at every stage")
    statuses = json.loads(run_goalfile("status", "--json", cwd=repo).stdout)
    found = {g["slug"]: g["status"] for g in statuses["goals"]}
    assert found == {
        "draft": "draft", "proposed": "draft", "approved": "active", "unmet": "active",
        "met": "met", "paused": "paused", "blocked": "blocked", "exhausted": "exhausted",
        "version-flag": "active", "auth": "met",
    }, statuses  # fmt: skip
    return repo


def shared_stages(factory: pytest.TempPathFactory) -> Path:
    """:func:`stages_repo`, built once for the run (:func:`tests.conftest.built_once`: the two
    worker groups of tests/test_formatter_matrix.py and tests/test_gfm_blocks.py each built it,
    some 45 goalfile processes each). Its users copy it or only read it."""

    def build(folder: Path) -> None:
        stages_repo(folder / "repo")

    return built_once(factory, "lifecycle stages", build) / "repo"
