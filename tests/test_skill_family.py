"""Goal files written exactly as the skill family's four skills write them (goal, plan,
verify-goal, refine-goal) go through every command unchanged, with the verdicts the skills'
texts call for. Each file here is the skills' own text: compact tables, `tokens_used: null`,
the plan skill's `revision:`/`verify-plan:`/`findings:` lines, headings with a time, reviews
recorded in a verify-goal entry."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import git, run_goalfile, undated

GOAL = "goals/auth.md"
QUOTE = "the refresh token is rotated on every use"


def skill_goal(
    *,
    status: str = "active",
    tokens: str = "null",
    iterations_used: int = 1,
    plan: str = "",
    iterations: str = "",
    lessons: str = "",
) -> str:
    """A goal file in the skill family's compact style (DESIGN §2)."""
    return f"""---
slug: auth
status: {status}
created: 2026-11-28
budget:
  iterations: 5
  tokens: {tokens}
iterations_used: {iterations_used}
tokens_used: null
---
# Goal: `sh tests/auth.sh` passes and the docs explain the refresh flow

## Non-goals
- `tests/fixtures/` stays unchanged.

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | auth suite passes | `sh tests/auth.sh` | exit 0; stdout contains "passed" | deterministic |
| C2 | fixtures kept | `git status --porcelain tests/fixtures` | exit 0; output empty | |
| R1 | docs explain refresh | `docs/auth.md` | describes the refresh-token flow | review |

## Plan
{plan}
## Iterations
{iterations}
## Lessons
{lessons}"""


SKILL_PLAN = """revision: 1
verify-plan: sound (2026-11-28)
| step | change | files | serves | check |
|------|--------|-------|--------|-------|
| 1 | make the suite pass | auth.py | C1, C2 | `sh tests/auth.sh` |
| 2 | document refresh | docs/auth.md | R1 | - |
findings: none
"""


def project(tmp_path: Path, text: str) -> Path:
    repo = tmp_path / "repo"
    (repo / "goals").mkdir(parents=True)
    (repo / "tests" / "fixtures").mkdir(parents=True)
    (repo / "docs").mkdir()
    (repo / "tests" / "auth.sh").write_text("echo '3 passed'\n")
    (repo / "tests" / "fixtures" / "user.json").write_text("{}\n")
    (repo / "docs" / "auth.md").write_text(f"# Auth\n\nOn refresh, {QUOTE}.\n")
    (repo / GOAL).write_text(text)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "goal")
    return repo


def gf(repo: Path, *args: str, code: int | None = None) -> str:
    done = run_goalfile(*args, cwd=repo)
    if code is not None:
        assert done.returncode == code, (args, done.stdout, done.stderr)
    return done.stdout + done.stderr


def gj(repo: Path, *args: str, code: int = 0) -> dict[str, object]:
    done = run_goalfile(*args, "--json", cwd=repo)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_tokens_used_null_means_not_measured(tmp_path: Path) -> None:
    """`tokens_used: null` is accepted everywhere; with no token budget nothing is judged."""
    repo = project(tmp_path, skill_goal(status="draft", iterations_used=0, plan=SKILL_PLAN))
    assert gf(repo, "lint", GOAL, code=0) == f"{GOAL}: ok\n"
    gf(repo, "activate", GOAL, code=0)
    gf(repo, "plan", GOAL, code=0)
    out = gf(repo, "verify", GOAL, code=1)
    assert "C1 met, C2 met, R1 unmet; status: active" in out
    status = gj(repo, "status", GOAL)
    assert status["goals"][0]["tokens"] == {"used": None, "budget": None}  # type: ignore[index]


def test_a_finite_token_budget_with_unmeasured_usage_is_blocked(tmp_path: Path) -> None:
    repo = project(tmp_path, skill_goal(tokens="100000", plan=SKILL_PLAN))
    gf(repo, "lint", GOAL, code=0)
    for args in (("verify", "--no-write", GOAL), ("verify", GOAL)):
        out = gf(repo, *args, code=4)
        assert "usage cannot be measured" in out
    text = (repo / GOAL).read_text()
    assert "tokens_used: null" in text  # nothing measured, nothing invented
    gf(repo, "resume", GOAL, "--resolved", "usage is passed now", code=0)
    out = gf(repo, "verify", "--tokens-used", "1200", GOAL, code=1)
    assert "status: active" in out
    assert "tokens_used: 1200" in (repo / GOAL).read_text()


def test_the_plan_skills_section_is_read_as_written_and_written_back(tmp_path: Path) -> None:
    repo = project(tmp_path, skill_goal(plan=SKILL_PLAN))
    report = gj(repo, "plan", GOAL)
    assert report["sound"] is True and report["findings"] == []
    text = (repo / GOAL).read_text()
    section = undated(text[text.index("## Plan") : text.index("## Iterations")])
    assert section == SKILL_PLAN.join(["## Plan\n", "\n"]).replace(
        "verify-plan: sound (2026-11-28)", "verify-plan: sound (TODAY)"
    )
    ledger = undated(text[text.index("## Iterations") :])
    for line in ("revision: 1", "verify-plan: sound (TODAY)", "findings: none"):
        assert line in section and f"\n{line}\n" in ledger

    # an unsound plan: the section and the entry say so in the same words
    broken = text.replace("| R1 | - |", "| R9 | - |")
    (repo / GOAL).write_text(broken)
    gf(repo, "plan", GOAL, code=1)
    text = (repo / GOAL).read_text()
    findings = "findings: R1 is served by no step; step 2 serves R9, which is not a criterion"
    section = undated(text[text.index("## Plan") : text.index("## Iterations")])
    assert "revision: 2\nverify-plan: unsound (TODAY)\n" in section
    assert f"\n{findings}\n" in section
    assert text.count(findings) == 2
    assert text.rstrip().endswith("## Lessons")


def test_a_plan_section_without_the_skill_lines_gets_them(tmp_path: Path) -> None:
    plan = "\n".join(SKILL_PLAN.split("\n")[2:6]) + "\n"
    repo = project(tmp_path, skill_goal(plan=plan))
    gf(repo, "plan", GOAL, code=0)
    text = (repo / GOAL).read_text()
    section = undated(text[text.index("## Plan") : text.index("## Iterations")])
    assert section == (
        f"## Plan\n\nrevision: 1\nverify-plan: sound (TODAY)\n\n{plan}\nfindings: none\n\n"
    )


VERIFY_ENTRY = f"""### Iteration 1 (2026-11-28 14:05) by verify-goal
| id | verdict | command | exit | evidence |
|----|---------|---------|------|----------|
| C1 | met | `sh tests/auth.sh` | 0 | `3 passed` |
| C2 | met | `git status --porcelain tests/fixtures` | 0 | `(no output)` |
| R1 | met | `docs/auth.md` | - | `{QUOTE}` |
status: met
"""


def test_entry_headings_may_carry_a_time(tmp_path: Path) -> None:
    unmet = VERIFY_ENTRY.replace("| R1 | met |", "| R1 | unmet |").replace(
        f"`{QUOTE}`", "not reviewed yet"
    )
    unmet = unmet.replace("status: met", "status: active")
    repo = project(tmp_path, skill_goal(plan=SKILL_PLAN, iterations=unmet))
    assert gf(repo, "lint", GOAL, code=0) == f"{GOAL}: ok\n"
    status = gj(repo, "status", GOAL)
    assert status["goals"][0]["last_verify"] == {  # type: ignore[index]
        "iteration": 1,
        "date": "2026-11-28",
    }
    out = gf(repo, "refine", GOAL, code=0)
    assert "- [ ] R1 unmet: not reviewed yet" in out


def test_a_line_that_looks_like_an_entry_heading_but_does_not_parse_is_an_error(
    tmp_path: Path,
) -> None:
    bad = VERIFY_ENTRY.replace("(2026-11-28 14:05)", "(28.11.2026)")
    repo = project(tmp_path, skill_goal(plan=SKILL_PLAN, iterations=bad))
    out = gf(repo, "lint", GOAL, code=3)
    assert "looks like an entry heading but cannot be read as one" in out
    assert re.search(r"goals/auth\.md:\d+:1: error", out), out
    gf(repo, "verify", GOAL, code=3)


def test_a_review_recorded_in_a_verify_goal_entry_counts_while_the_quote_is_there(
    tmp_path: Path,
) -> None:
    repo = project(
        tmp_path, skill_goal(plan=SKILL_PLAN, iterations=VERIFY_ENTRY.replace("met\n", "active\n"))
    )
    out = gf(repo, "verify", GOAL, code=0)
    assert out.rstrip().endswith(
        "verify-goal auth iteration 1: C1 met, C2 met, R1 met; status: met"
    )
    assert f"review: `{QUOTE}`" in (repo / GOAL).read_text()

    # the artifact no longer says it: the recorded verdict no longer counts
    (repo / "docs" / "auth.md").write_text("# Auth\n\nTokens are refreshed.\n")
    out = gf(repo, "verify", "--no-write", GOAL, code=1)
    assert "R1 unmet: review quote no longer found in docs/auth.md" in out


def test_refine_is_by_refine_goal_keeps_a_lesson_and_follows_only_a_verify_entry(
    tmp_path: Path,
) -> None:
    unmet = VERIFY_ENTRY.replace(
        "| C1 | met | `sh tests/auth.sh` | 0 | `3 passed` |",
        "| C1 | unmet | `sh tests/auth.sh` | 1 | `1 failed` |",
    )
    unmet = unmet.replace("status: met", "status: active")
    repo = project(
        tmp_path,
        skill_goal(plan=SKILL_PLAN, iterations=unmet, lessons="- C2: never edit the fixtures\n"),
    )
    out = gf(repo, "refine", GOAL, "--lesson", "C1: run the suite before verify", code=0)
    assert "- [ ] C1 unmet (exit 1): `1 failed`" in out
    text = (repo / GOAL).read_text()
    assert "### Iteration 1 (TODAY) by refine-goal\n" in undated(text)
    assert "lesson: C1: run the suite before verify\n" in text
    assert text.endswith(
        "## Lessons\n- C2: never edit the fixtures\n- C1: run the suite before verify\n"
    )
    out = gf(repo, "refine", GOAL, code=3)
    assert "the newest entry is `by refine-goal`, not a verify entry" in out
    assert (repo / GOAL).read_text() == text


def test_a_goal_driven_by_the_skills_reaches_met_and_passes_audit(tmp_path: Path) -> None:
    """The skills' whole loop: goal (draft, lint, activate), plan, verify-goal, review as the
    verify-goal skill records it, refine-goal, verify again, status and audit."""
    repo = project(tmp_path, skill_goal(status="draft", iterations_used=0, plan=SKILL_PLAN))
    (repo / "tests" / "auth.sh").write_text("echo '1 failed'; exit 1\n")
    gf(repo, "lint", GOAL, code=0)
    gf(repo, "activate", GOAL, code=0)
    gf(repo, "plan", GOAL, code=0)
    out = gf(repo, "verify", GOAL, code=1)
    assert out.rstrip().endswith("C1 unmet, C2 met, R1 unmet; status: active")
    gf(repo, "refine", GOAL, "--lesson", "C1: the suite script exits 1", code=0)
    gf(repo, "plan", GOAL, code=0)
    (repo / "tests" / "auth.sh").write_text("echo '3 passed'\n")
    out = gf(repo, "verify", GOAL, code=1)
    assert out.rstrip().endswith("C1 met, C2 met, R1 unmet; status: active")
    # the reviewer records R1 the verify-goal skill's way: a verify-goal entry quoting it
    text = (repo / GOAL).read_text()
    day = re.findall(r"### Iteration \d+ \((\d{4}-\d\d-\d\d)\)", text)[-1]  # goalfile's date
    review = VERIFY_ENTRY.replace("Iteration 1 (2026-11-28 14:05)", f"Iteration 2 ({day} 16:30)")
    review = review.replace("status: met", "status: active")
    (repo / GOAL).write_text(text.replace("\n## Lessons", f"\n{review}\n## Lessons"))
    gf(repo, "lint", GOAL, code=0)
    out = gf(repo, "verify", GOAL, code=0)
    assert out.rstrip().endswith("C1 met, C2 met, R1 met; status: met")
    assert gj(repo, "status", GOAL)["goals"][0]["status"] == "met"  # type: ignore[index]
    gf(repo, "audit", GOAL, code=0)
