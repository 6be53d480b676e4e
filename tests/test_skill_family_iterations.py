"""Iterations are counted from the ledger (`handedit.backed_iterations`) on a long ledger written
the way the skill family's skills write it, interleaved with entries the real commands wrote.

The skills' entries (tests/test_skill_family.py has each shape): a `by plan` entry with the plan
skill's `revision:`, `verify-plan: sound (DATE)` and `findings:` lines; a compact `by
verify-goal` table (no blank lines) whose heading carries a time, with a review recorded the
verify-goal skill's way (the review row's evidence quotes the artifact); a `by refine-goal`
backlog with its `lesson:` line; a `by review` entry. Every entry carries the iteration its
writer was in, so the ledger backs exactly the number of plan-started iterations, and status,
the Stop hook, plan, audit and the budget must all count that many.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import git, recent_days, run_goalfile
from tests.test_skill_family import GOAL, QUOTE, SKILL_PLAN, project, skill_goal

ITERATIONS = 12  # the iterations the skills' ledger started
BUDGET = 15


def skill_entries(first: int, last: int, *, day: str | None = None) -> str:
    """Entries of iterations ``first`` to ``last`` as the skills write them: plan,
    verify-goal (with a time), then on some iterations a review and a refine-goal."""
    out = []
    for i in range(first, last + 1):
        date = day or recent_days()[0]  # the day they are written, as the skills date them
        out.append(
            f"### Iteration {i} ({date} 09:{i:02d}) by plan\n"
            f"plan revision {i} (0123456789ab): 2 step(s), sound\n"
            f"revision: {i}\nverify-plan: sound ({date})\nfindings: none\n"
        )
        review = i % 3 == 0
        r1 = (
            f"| R1 | met | `docs/auth.md` | - | `{QUOTE}` |"
            if review
            else ("| R1 | unmet | `docs/auth.md` | - | not reviewed: C1 is not met |")
        )
        out.append(
            f"### Iteration {i} ({date} 14:{i:02d}:07) by verify-goal\n"
            "| id | verdict | command | exit | evidence |\n"
            "|----|---------|---------|------|----------|\n"
            f"| C1 | unmet | `sh tests/auth.sh` | 1 | `{i} failed` |\n"
            "| C2 | met | `git status --porcelain tests/fixtures` | 0 | `(no output)` |\n"
            f"{r1}\n"
            "status: active\n"
        )
        if i % 4 == 0:
            out.append(
                f"### Iteration {i} ({date}T15:30) by review\n\n"
                "review of R1: met\nartifact: `docs/auth.md`\n"
                f"quote: `{QUOTE}`\nreason: describes rotation\n"
            )
        if i % 2 == 0:
            out.append(
                f"### Iteration {i} ({date} 16:45) by refine-goal\n"
                f"backlog from verify iteration {i}:\n"
                f"- [ ] C1 unmet (exit 1): `{i} failed`\n"
                "criteria changes: none\n"
                f"lesson: C1: iteration {i} ran the suite before verify\n"
            )
    return "\n".join(out)


def backed_by_the_entries(text: str) -> int:
    """This test's own count: the oldest entry's number, then at most one more per entry."""
    numbers = [int(n) for n in re.findall(r"(?m)^### Iteration (\d+) \(", text)]
    count = numbers[0]
    for number in numbers[1:]:
        count = max(count, min(number, count + 1))
    return count


def skills_repo(tmp_path: Path, *, used: int = ITERATIONS, budget: int = BUDGET) -> Path:
    """The skill family's goal, activated by `goalfile activate`, after ``ITERATIONS``
    iterations of the skills' own entries (over 30), committed. The suite fails with a count
    that changes from run to run, so no run repeats the one before and the stall guard stays
    out of it."""
    text = skill_goal(status="draft", iterations_used=0, plan=SKILL_PLAN)
    repo = project(tmp_path, text.replace("  iterations: 5\n", f"  iterations: {budget}\n"))
    gf(repo, "activate", GOAL, code=0)
    path = repo / GOAL
    text = path.read_text().replace("\n## Lessons", f"\n{skill_entries(1, ITERATIONS)}\n## Lessons")
    text = text.replace("\niterations_used: 0\n", f"\niterations_used: {used}\n", 1)
    path.write_text(text)
    (repo / "tests" / "auth.sh").write_text(
        'echo "$(cat run 2>/dev/null || echo 0) failed"; exit 1\n'
    )
    (repo / ".gitignore").write_text("run\n")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "twelve iterations")
    assert len(re.findall(r"(?m)^### Iteration ", text)) >= 30
    return repo


def gf(repo: Path, *args: str, code: int) -> str:
    done = run_goalfile(*args, cwd=repo, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done.stdout + done.stderr


def used(repo: Path) -> tuple[int, dict[str, object]]:
    """What `status --json` says is used of the budget, and the goal's status entry."""
    state = json.loads(gf(repo, "status", "--json", GOAL, code=0))["goals"][0]
    return int(state["iterations"]["used"]), state


def hook(repo: Path) -> dict[str, object]:
    stop = {"cwd": str(repo), "hook_event_name": "Stop", "stop_hook_active": False}
    done = run_goalfile("hook", "stop", "--json", cwd=repo, input=json.dumps(stop), timeout=120)
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def agree(repo: Path, count: int) -> None:
    """status (both forms), the statusline, lint, audit and this test's own count of the
    entries all say ``count`` iterations are used."""
    text = (repo / GOAL).read_text()
    assert backed_by_the_entries(text) == count
    assert re.search(r"(?m)^iterations_used: (\d+)$", text)[1] == str(count)  # type: ignore[index]
    number, _ = used(repo)
    assert number == count
    assert f"\n  iterations {count}/{BUDGET}, " in gf(repo, "status", GOAL, code=0)
    line = run_goalfile("statusline", cwd=repo, input=json.dumps({"cwd": str(repo)})).stdout
    assert f"iteration {count}/{BUDGET}" in line, line
    gf(repo, "lint", GOAL, code=0)
    gf(repo, "audit", GOAL, code=0)
    gf(repo, "audit", "--against", "HEAD", GOAL, code=0)


def run_number(repo: Path, n: int) -> None:
    (repo / "run").write_text(f"{n}\n")


def test_a_long_skill_ledger_with_real_entries_is_counted_as_it_backs(tmp_path: Path) -> None:
    repo = skills_repo(tmp_path)
    agree(repo, ITERATIONS)

    # a real verify carries the count the skills' entries reached
    run_number(repo, 100)
    out = gf(repo, "verify", GOAL, code=1)
    assert f"verify-goal auth iteration {ITERATIONS}: C1 unmet, C2 met, R1 unmet" in out
    agree(repo, ITERATIONS)
    # the skills go on by hand (refine-goal at this iteration), then the real plan opens one
    path = repo / GOAL
    more = (
        f"### Iteration {ITERATIONS} ({recent_days()[0]} 16:45) by refine-goal\n"
        f"backlog from verify iteration {ITERATIONS}:\n- [ ] C1 unmet (exit 1): `100 failed`\n"
        "criteria changes: none\nlesson: -\n"
    )
    path.write_text(path.read_text().replace("\n## Lessons", f"\n{more}\n## Lessons"))
    agree(repo, ITERATIONS)
    assert "iteration 13: plan revision" in gf(repo, "plan", GOAL, code=0)
    agree(repo, 13)
    run_number(repo, 101)
    gf(repo, "verify", GOAL, code=1)
    # a verify-goal entry the skill writes, with a time, in the iteration the plan opened
    verify_entry = skill_entries(13, 13).split("\n### ")[1]
    verify_entry = "### " + verify_entry
    path.write_text(path.read_text().replace("\n## Lessons", f"\n{verify_entry}\n## Lessons"))
    agree(repo, 13)

    # the Stop hook sends the agent back: iterations 14 and 15 of 15 start
    for started in (14, 15):
        run_number(repo, 100 + started)
        answer = hook(repo)
        assert answer["decision"] == "block", answer
        notes = "\n".join(answer["notes"])  # type: ignore[arg-type]
        assert f"iteration {started} of {BUDGET} started" in notes, notes
        agree(repo, started)
    # at the limit the hook verifies, starts no iteration, and the goal is exhausted
    run_number(repo, 200)
    answer = hook(repo)
    assert answer.get("decision") != "block", answer
    assert f"iteration budget reached: {BUDGET} of {BUDGET} used" in json.dumps(answer)
    number, state = used(repo)
    assert (number, state["status"]) == (BUDGET, "exhausted")
    assert backed_by_the_entries(path.read_text()) == BUDGET
    gf(repo, "audit", GOAL, code=0)
    gf(repo, "audit", "--against", "HEAD", GOAL, code=0)
    gf(repo, "plan", GOAL, code=3)  # plan refuses an exhausted goal
    entries = len(re.findall(r"(?m)^### Iteration ", path.read_text()))
    assert entries >= 45, entries


def lower_the_counter(repo: Path, to: int) -> None:
    """`iterations_used` typed lower by hand (no command ever lowers it), committed."""
    path = repo / GOAL
    text = path.read_text()
    assert f"\niterations_used: {ITERATIONS}\n" in text
    path.write_text(
        text.replace(f"\niterations_used: {ITERATIONS}\n", f"\niterations_used: {to}\n")
    )
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qam", "lowered")


def test_a_counter_typed_lower_than_the_ledger_backs_gains_no_iteration(tmp_path: Path) -> None:
    """The ledger backs twelve iterations; `iterations_used: 3` typed over them is not what
    the budget counts: status shows twelve, plan opens the thirteenth (it opened the fourth),
    and at a limit of twelve, plan and the Stop hook find the budget used up (they started
    iterations 4 to 12 again)."""
    repo = skills_repo(tmp_path / "room")
    lower_the_counter(repo, 3)
    assert used(repo)[0] == ITERATIONS
    assert f"\n  iterations {ITERATIONS}/{BUDGET}, " in gf(repo, "status", GOAL, code=0)
    out = gf(repo, "plan", GOAL, code=0)
    assert f"iteration {ITERATIONS + 1}: plan revision" in out, out
    assert used(repo)[0] == ITERATIONS + 1
    assert backed_by_the_entries((repo / GOAL).read_text()) == ITERATIONS + 1

    for command in ("plan", "hook"):
        repo = skills_repo(tmp_path / command, budget=ITERATIONS)
        lower_the_counter(repo, 3)
        run_number(repo, 7)
        if command == "plan":
            out = gf(repo, "plan", GOAL, code=5)
        else:
            answer = hook(repo)
            assert answer.get("decision") != "block", answer
            out = json.dumps(answer)
        assert f"iteration budget reached: {ITERATIONS} of {ITERATIONS} used" in out, out
        number, state = used(repo)
        assert (number, state["status"]) == (ITERATIONS, "exhausted"), state


def test_a_counter_typed_lower_does_not_bring_back_an_old_iterations_review(
    tmp_path: Path,
) -> None:
    """A review counts only in the iteration it was recorded in. The skills recorded R1 in
    iteration 12's verify-goal entry; plan opened 13, so it no longer counts. Typing
    `iterations_used: 12` back made verify count it again (`R1 met; status: met`), with the
    ledger backing 13."""
    repo = skills_repo(tmp_path)
    (repo / "tests" / "auth.sh").write_text("echo '3 passed'\n")
    assert f"iteration {ITERATIONS + 1}: plan revision" in gf(repo, "plan", GOAL, code=0)
    out = gf(repo, "verify", "--no-write", GOAL, code=1)
    assert "C1 met, C2 met, R1 unmet; status: active" in out, out
    path = repo / GOAL
    text = path.read_text()
    assert f"\niterations_used: {ITERATIONS + 1}\n" in text
    path.write_text(
        text.replace(f"\niterations_used: {ITERATIONS + 1}\n", f"\niterations_used: {ITERATIONS}\n")
    )
    for args in (("verify", "--no-write", GOAL), ("verify", GOAL)):
        out = gf(repo, *args, code=1)
        assert f"R1 unmet: not reviewed: no review recorded for iteration {ITERATIONS + 1}" in out
        assert out.rstrip().endswith("C1 met, C2 met, R1 unmet; status: active"), out
    assert used(repo)[1]["status"] == "active"
