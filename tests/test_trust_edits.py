"""Edits of a goal file that read one way to a person, or to one reader, and another way to
what decides a status: the real goalfile process, a real git repository, the exact edit.

Each must be refused (exit 3, file untouched) or reported by audit.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import copy_of, git, goal_text, made_once, row, run_goalfile

GOAL = "goals/g.md"


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


def hook_decision(repo: Path) -> str:
    event = {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop"}
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", "--json", cwd=repo, input=json.dumps(event)
    )
    return str(json.loads(done.stdout or "{}").get("decision", "allow"))


# --------------------------------------------------------------------------------------------
# A cell whose source text reads like the approved row, but which Markdown shows (and goalfile
# runs) differently: the approval recorded the rows it approved, and those are what must run.

GUARD = r"git diff --exit-code HEAD -- tests/\*.json fixtures/\*.json"


def guarded_fixture(repo: Path, check: str, expected: str) -> tuple[Path, str]:
    """A goal whose one row guards two JSON fixtures, approved and committed; then the guarded
    fixture changes. Returns the goal's path and the row's line as approved."""
    (repo / "tests").mkdir()
    (repo / "fixtures").mkdir()
    (repo / "tests" / "t.json").write_text('{"a": 1}\n')
    (repo / "fixtures" / "f.json").write_text('{"b": 1}\n')
    path = repo / GOAL
    text = goal_text(slug="g", status="draft", iterations_used=0)
    plain = f"| C1 | guarded | {check} | {expected} | deterministic |"
    path.write_text(re.sub(r"(?m)^\| C1 .*$", lambda _: plain, text, count=1))
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    commit(repo, "base")
    (repo / "tests" / "t.json").write_text('{"a": 2}\n')  # the guarded fixture changes
    return path, plain


MAIN_OK = r'exit 0; stdout contains "\_\_main\_\_ ok"'


@pytest.mark.parametrize(
    ("check", "expected", "shown"),
    [
        (GUARD, "exit 0", "`git diff --exit-code HEAD -- tests/.json fixtures/.json`"),
        ("`echo __main__ ok`", MAIN_OK, '`exit 0; stdout contains "main ok"`'),
    ],
    ids=["check", "expected"],
)
def test_dropping_the_escapes_of_an_approved_plain_cell_is_refused(
    repo: Path, check: str, expected: str, shown: str
) -> None:
    """The approved cell `tests/\\*.json` shows `tests/*.json`; typed without its escapes it
    shows `tests/.json` (emphasis), whose source text digests to the old pin."""
    path, plain = guarded_fixture(repo, check, expected)
    unescaped = plain.replace("\\", "")
    path.write_text(path.read_text().replace(plain, unescaped, 1))
    before = path.read_bytes()

    done = run_goalfile("verify", GOAL, cwd=repo)

    assert done.returncode == 3, done.stdout + done.stderr
    assert "started" not in done.stdout and "status: met" not in done.stdout
    assert f"{GOAL}:10: the contract changed since it was approved" in done.stderr
    assert "the cells' source text digests to the pin" in done.stderr
    assert f"→ {shown}" in done.stderr
    assert (
        "fix: restore the approved rows, or have a person re-approve the change with "
        f"`goalfile activate --reapprove {GOAL} --reason TEXT`"
    ) in done.stderr
    assert path.read_bytes() == before
    assert run_goalfile("verify", "--no-write", GOAL, cwd=repo).returncode == 3
    audit = run_goalfile("audit", GOAL, cwd=repo)
    assert audit.returncode == 1, audit.stdout + audit.stderr
    assert f"{GOAL}:20: contract-drift" in audit.stdout
    assert hook_decision(repo) == "block"
    # the fix works as written: a person approves what Markdown shows, and it runs
    again = run_goalfile("activate", "--reapprove", GOAL, "--reason", "escapes dropped", cwd=repo)
    assert again.returncode == 0, again.stderr
    rerun = run_goalfile("verify", GOAL, cwd=repo)
    assert rerun.returncode in (0, 1) and "C1 started" in rerun.stdout, rerun.stderr


def test_a_back_dated_approval_without_rows_does_not_bring_back_the_source_pin(
    repo: Path,
) -> None:
    """The approval entry is text the agent edits: dated before cells were read as Markdown
    shows them and stripped of its `approved rows:`, it once made verify accept the pin as the
    digest of the cells' source text, so the cell typed without its escapes ran
    `tests/.json` under the old pin. The date decides nothing now: the source digest is not
    accepted where a cell renders other than its source reads."""
    path, plain = guarded_fixture(repo, GUARD, "exit 0")
    edited = path.read_text().replace(plain, plain.replace("\\", ""), 1)
    edited, dated = re.subn(
        r"### Iteration (\d+) \(\d{4}-\d\d-\d\d\) by activate",
        r"### Iteration \1 (2026-11-30) by activate",
        edited,
    )
    edited, stripped = re.subn(
        r"approved rows:\n\n(\|.*\n)+\n(non-goals:\n\n(- .*\n)+\n)?", "", edited
    )
    assert (dated, stripped) == (1, 1)
    path.write_text(edited)
    before = path.read_bytes()

    done = run_goalfile("verify", GOAL, cwd=repo)

    assert done.returncode == 3, done.stdout + done.stderr
    assert "started" not in done.stdout and "status: met" not in done.stdout
    assert "the pin is the digest of the cells' source text" in done.stderr
    assert "`git diff --exit-code HEAD -- tests/.json fixtures/.json`" in done.stderr
    assert f"`goalfile activate --reapprove {GOAL} --reason TEXT`" in done.stderr
    assert path.read_bytes() == before
    assert run_goalfile("verify", "--no-write", GOAL, cwd=repo).returncode == 3
    assert hook_decision(repo) == "block"
    audit = run_goalfile("audit", GOAL, cwd=repo)
    assert audit.returncode == 1, audit.stdout + audit.stderr
    assert "approval-rows-missing" in audit.stdout
    # the fix works as written: a person approves what Markdown shows, and it runs
    again = run_goalfile("activate", "--reapprove", GOAL, "--reason", "TEXT", cwd=repo)
    assert again.returncode == 0, again.stderr
    rerun = run_goalfile("verify", GOAL, cwd=repo)
    assert rerun.returncode in (0, 1) and "C1 started" in rerun.stdout, rerun.stderr


# --------------------------------------------------------------------------------------------
# An old entry's status line hidden from the entry readers (indented, escaped, padded, or moved
# into a block of code) while the entry still means the same to audit, or reads as output.

HIDDEN = {
    "one blank": " status: active",
    "three blanks": "   status: active",
    "a tab": "\tstatus: active",
    "an escaped colon": "status\\: active",
    "trailing blanks": "status: active   ",
    "a backtick fence": "```\nstatus: active\n```",
    "a tilde fence": "~~~\nstatus: active\n~~~",
    "an indented code block": "    status: active",
}


def make_reopened(repo: Path, env: dict[str, str]) -> None:
    """A goal met while `build/ok` existed, then reopened by a person on main when it was
    lost; the agent's branch `agent` starts there."""
    (repo / "goals").mkdir()
    new = run_goalfile(
        "new", "g", "build/ok exists", "--check", "test -f build/ok", "--expected", "exit 0",
        "--activate", cwd=repo,
    )  # fmt: skip
    assert new.returncode == 0, new.stderr
    (repo / "build").mkdir()
    (repo / "build" / "ok").write_text("")
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    commit(repo, "met")
    git(repo, "branch", "-M", "main")
    (repo / "build" / "ok").unlink()
    reopen = run_goalfile("reopen", GOAL, "--reason", "build/ok was lost", cwd=repo)
    assert reopen.returncode == 0, reopen.stderr
    commit(repo, "reopen")
    git(repo, "checkout", "-qb", "agent")


@pytest.fixture(scope="module")
def made_reopened(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, make_reopened)


@pytest.fixture
def reopened(tmp_path: Path, made_reopened: Path) -> Path:
    """A copy of the repository :func:`make_reopened` makes once for the module."""
    return copy_of(made_reopened, tmp_path / "repo")


@pytest.mark.parametrize("how", sorted(HIDDEN))
def test_an_old_status_line_hidden_from_the_readers_is_caught(reopened: Path, how: str) -> None:
    """The reopen entry's `status: active` is made invisible to the entry readers and the
    frontmatter set to `met`: audit reports the rewritten entry, and lint, status, the Stop
    hook and verify refuse the `met` (before, all of them accepted it and audit was clean)."""
    path = reopened / GOAL
    text = path.read_text()
    at = text.index("\nstatus: active", text.index("by reopen"))
    text = text[:at] + "\n" + HIDDEN[how] + text[at + len("\nstatus: active") :]
    path.write_text(re.sub(r"(?m)^status: active", "status: met", text, count=1))
    commit(reopened, "agent: done")

    audit = run_goalfile("audit", "--against", "main", GOAL, cwd=reopened)
    assert audit.returncode == 1, audit.stdout + audit.stderr
    assert f"{GOAL}:" in audit.stdout and "by reopen" in audit.stdout
    lint = run_goalfile("lint", GOAL, cwd=reopened)
    assert lint.returncode == 3, lint.stdout + lint.stderr
    assert f"{GOAL}:3: error: the status is `met`, but " in lint.stdout + lint.stderr
    shown = json.loads(run_goalfile("status", "--json", GOAL, cwd=reopened).stdout)
    assert "status" not in shown["goals"][0] and shown["goals"][0]["error"], shown
    assert hook_decision(reopened) == "block"
    done = run_goalfile("verify", GOAL, cwd=reopened)
    assert done.returncode != 0 and "status: met" not in done.stdout, done.stdout + done.stderr
    # the fix lint prints works as written
    fix = re.search(r"fix: `([^`]*sed -i[^`]*)`", lint.stdout + lint.stderr)
    assert fix is not None, lint.stdout + lint.stderr
    subprocess.run(fix.group(1), shell=True, cwd=reopened, check=True)
    assert run_goalfile("lint", GOAL, cwd=reopened).returncode == 0


# The property behind the rule: what the entry readers see is a function of what the entry
# means to audit. An entry rebuilt from its meaning lines alone reads the same.

PIECES = (
    "status: met",
    "status: active",
    " status: met",
    "   status: active (a reason)",
    "\tstatus: met",
    "status\\: met",
    "status: met (x\\*y)",
    "status: met  ",
    "    status: met",
    "```",
    "~~~",
    "```text",
    "contract: 0123456789ab",
    " contract\\: 0123456789ab",
    "| C1 | met | `true` | 0 | ok |",
    "|C1|unmet|`false`|1|no",
    " | C2 | unmet | `x` | 1 | `y` |",
    "\\| C1 | unmet | `false` | 1 | no |",
    "|----|----|----|----|----|",
    "* a note",
    "",
    "  ",
)


def reader_view(lines: list[str]) -> tuple[object, ...]:
    from goalfile import ledger

    entry = ledger.parse_entry(["### Iteration 2 (2026-12-01) by verify-goal", *lines])
    assert entry is not None
    return (entry.status, entry.status_reason, entry.contract, entry.rows)


@given(st.lists(st.sampled_from(PIECES), max_size=8))
@settings(max_examples=400, deadline=None)
def test_the_entry_readers_see_only_what_the_entry_means(lines: list[str]) -> None:
    from goalfile import ledger

    meant = ledger.meaning_lines(lines)
    rebuilt = list(meant)  # a source whose every line is one of the meaning lines
    assert ledger.meaning_lines(rebuilt) == meant
    assert reader_view(rebuilt) == reader_view(lines), (lines, rebuilt)


# --------------------------------------------------------------------------------------------
# A `matches` pattern that one character of almost any kind satisfies holds on any output that
# shows a character, as a pattern that can match zero characters does.


def failing_goal(repo: Path, expected: str) -> Path:
    path = repo / GOAL
    path.write_text(
        goal_text(
            slug="g",
            status="draft",
            iterations_used=0,
            rows=(row("C1", "echo '0 passed, 3 FAILED'", expected),),
        )
    )
    return path


@pytest.mark.parametrize(
    "pattern",
    [r"/[\s\S]/", r"/[^\n]/", "/(?s:.)/", "/[^]]/", "/.{1}/", "/./", r"/\S/", r"/\D/", "/a?./"],
)
def test_a_regex_that_almost_any_character_satisfies_is_refused(repo: Path, pattern: str) -> None:
    path = failing_goal(repo, f"exit 0; stdout matches {pattern}")
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert f"{pattern} matches almost any single character" in linted.stdout + linted.stderr
    assert "fix: write stdout matches /REGEX/" in linted.stdout + linted.stderr
    refused = run_goalfile("activate", GOAL, cwd=repo)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    path.write_text(path.read_text().replace("status: draft", "status: active"))
    before = path.read_bytes()
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "C1 met" not in done.stdout
    assert path.read_bytes() == before


@pytest.mark.parametrize("pattern", ["/[0-9]/", "/^.$/", r"/\w/", "/(?i)failed/", r"/\s/"])
def test_a_regex_for_text_you_expect_still_judges(repo: Path, pattern: str) -> None:
    failing_goal(repo, f"exit 0; stdout matches {pattern}")
    assert run_goalfile("lint", GOAL, cwd=repo).returncode == 0
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    met = pattern != "/^.$/"  # no line of one character: judged, and unmet
    verdict = "C1 met; status: met" if met else "C1 unmet; status: active"
    assert done.stdout.rstrip().endswith(verdict), done.stdout
