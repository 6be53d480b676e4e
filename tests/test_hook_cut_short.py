"""Which rows the Stop hook takes as cut short by its time limit. A row is cut short when the
goal's time limit ended it before it was judged, and the place that makes the row says so
(``RowResult.cut_short``): a check still running, a row not started since the time was up, a
`matches` search of a check's output, a judge. The hook told such rows by the words of their
evidence, so a row whose words were the same (a pattern that holds them, which a search that
ran out of the row's own time limit repeats) was taken for one, and the hook held the agent
with "could not verify" on a goal verify had decided. Real goalfile processes on real goal
files in real git repositories, fed a recorded host input (as in test_hook_hold.py)."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conftest import (
    clean_env,
    git,
    goal_text,
    make_git_repo,
    row,
    run_goalfile,
    stop_input,
    write_goal,
)

from goalfile.commands.hookrules.verdict import cut_short
from goalfile.commands.verify import VerifyResult
from goalfile.model import RowResult, Status, Verdict
from goalfile.run import CheckSpec, Ending, run_check

# 40 `a` then `b`: /^(a+)+$/ tries about 2^40 ways to split the run before it fails
ALMOST = "printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\\n'"
# the same search, with the words of a search the goal's time ended in the pattern
WORDS = "the search of the s (what was left of the goal's time limit); the pattern can backtrack"
LOOKALIKE = f"exit 0; stdout matches /^(?!: {WORDS})(a+)+$/"


def hook(root: Path, *extra: str, env: dict[str, str] | None = None) -> dict[str, object]:
    """The hook's answer (the host's protocol) at a first stop in ``root``."""
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", *extra,
        cwd=root, input=stop_input(root), env=clean_env(env), timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def committed(tmp_path: Path, text: str) -> Path:
    root = make_git_repo(tmp_path / "project")
    write_goal(root / "goals", text, "g.md")
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text("The guide.\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal")
    return root


def test_a_search_that_ran_out_of_its_rows_time_is_not_cut_short_whatever_its_words(
    tmp_path: Path,
) -> None:
    """A `matches` pattern that holds the words of a search the goal's time ended, and
    backtracks: its search runs out of the row's own time limit (2 s, the hook's is ample), so
    the row is an error verify decided (status blocked), which holds the agent once with the
    summary and the error row, as any error row does. The hook read the words and held the
    agent as if its time had cut the goal."""
    text = goal_text(slug="g", rows=(row("C1", ALMOST, f"`{LOOKALIKE}`"),), extra=("timeout: 2",))
    root = committed(tmp_path, text)
    answer = hook(root, "--timeout", "120")
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert reason.startswith("goalfile: verify-goal g iteration 1: C1 error; status: blocked")
    assert "goals/g.md is blocked: a check could not be judged" in reason, reason
    assert "could not verify" not in reason, reason
    ledger = (root / "goals" / "g.md").read_text(encoding="utf-8")
    assert WORDS in ledger and "(the row's time limit)" in ledger, ledger  # the same words


CUT_SHORT = [
    ("a check the time ended", [row("C1", "sleep 120", "exit 0")], "C1"),
    (
        "a row not started since the time was up",
        [row("C1", "sleep 120", "exit 0"), row("C2", "true", "exit 0")],
        "C1, C2",
    ),
    ("a search the time ended", [row("C1", ALMOST, "`exit 0; stdout matches /^(a+)+$/`")], "C1"),
    (
        "a judge the time ended",
        [row("C1", "true", "exit 0"), row("R1", "docs/guide.md", "describes it", "review")],
        "R1",
    ),
]
"""Each way a row is cut short: (case, the goal's rows, the rows the hook names as cut)."""


def test_each_row_the_hooks_time_ended_is_cut_short(tmp_path: Path) -> None:
    """The four goals of :data:`CUT_SHORT`, each in a repository of its own, each with its own
    Stop hook: the hooks run side by side (each waits out its own time limit, and only the
    search uses a core while it waits)."""
    roots = [
        committed(tmp_path / str(n), goal_text(slug="g", rows=rows))
        for n, (_, rows, _) in enumerate(CUT_SHORT)
    ]

    def run(root: Path) -> tuple[float, dict[str, object]]:
        started = time.monotonic()
        # 16 s for the goal (a row before the one cut runs in it, on a loaded machine too),
        # and the hook's answer 2 s before the watchdog's, both counted from the hook's start
        answer = hook(root, "--timeout", "20", env={"GOALFILE_JUDGE": "sleep 120"})
        return time.monotonic() - started, answer

    with ThreadPoolExecutor(max_workers=len(roots)) as pool:
        answers = list(pool.map(run, roots))
    for (case, _, cut), (took, answer) in zip(CUT_SHORT, answers, strict=True):
        assert took < 90, case
        assert answer.get("decision") == "block", (case, answer)
        reason = str(answer["reason"])
        assert "goalfile could not verify goals/g.md within the hook's time limit" in reason, (
            case,
            reason,
        )
        assert f"\n  {cut} did not finish in the " in reason, (case, reason)


def test_the_hook_reads_the_rows_field_not_its_words() -> None:
    """``cut_short`` takes a row by its field alone: the evidence a cut row carries on a row
    that is not cut is nothing, and a cut row with other words is cut."""

    def result(*rows: RowResult) -> VerifyResult:
        return VerifyResult(
            path="goals/g.md", slug="g", iteration=1, rows=rows, status=Status.BLOCKED,
            reason=None, summary="", written=False, tokens_used=None, tails={}, entry_text="",
        )  # fmt: skip

    words = [
        "timed out: goal time limit reached",
        "timed out: goal time limit reached before the check started",
        "not run: goal time limit reached",
        "judge error: the judge timed out after 1s",
        f"stdout matches /x/: {WORDS}",
    ]
    looks = [
        RowResult(id=f"C{n}", verdict=Verdict.ERROR, command="c", exit="-", evidence=said)
        for n, said in enumerate(words)
    ]
    assert cut_short(result(*looks)) == []
    cut = RowResult(
        id="C9", verdict=Verdict.ERROR, command="c", exit="timeout", evidence="x", cut_short=True
    )
    assert cut_short(result(*looks, cut)) == ["C9"]


def test_a_check_the_goals_time_left_no_room_to_start_is_ended_by_it(tmp_path: Path) -> None:
    """The one way to a cut row the hook cannot be timed into: the goal's time is up as the
    check would start (it is not started)."""
    spec = CheckSpec(command="true", shell="/bin/sh", cwd=str(tmp_path), env={}, timeout=None)
    outcome = run_check(spec, on_output=lambda _n, _d: None, deadline=time.monotonic() - 1)
    assert (outcome.ending, outcome.goal_limit) == (Ending.TIMEOUT, True)
    own = run_check(
        CheckSpec(command="sleep 30", shell="/bin/sh", cwd=str(tmp_path), env={}, timeout=0.5),
        on_output=lambda _n, _d: None,
        deadline=time.monotonic() + 60,
    )
    assert (own.ending, own.goal_limit) == (Ending.TIMEOUT, False)
