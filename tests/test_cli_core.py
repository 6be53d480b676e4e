"""The core commands as real processes: new, lint, activate, status, and the CLI itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import (
    copy_of,
    git,
    goal_text,
    last_line,
    made_once,
    recent_days,
    row,
    run_goalfile,
    write_goal,
)

from goalfile import __version__, ledger
from goalfile.model import Status
from goalfile.parse import ledger_region, parse_goal
from goalfile.value import replace

COMMANDS = ("new", "lint", "activate", "verify", "status")


# --------------------------------------------------------------------------- the CLI


def test_version(tmp_path: Path) -> None:
    done = run_goalfile("--version", cwd=tmp_path)
    assert done.returncode == 0
    assert __version__ in done.stdout


def test_help_names_the_exit_codes(tmp_path: Path) -> None:
    done = run_goalfile("--help", cwd=tmp_path)
    assert done.returncode == 0
    for command in COMMANDS:
        assert f"  {command} " in done.stdout
    assert "Exit codes: 0" in " ".join(done.stdout.split())


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(tmp_path: Path, command: str) -> None:
    done = run_goalfile(command, "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: ")
    assert "--json" in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("no-such-command",),
        ("verify",),  # without --no-write, a PATH is needed
        ("verify", "--tokens-used", "-1", "goals/x.md"),
        ("new", "Not A Slug"),
        ("new", "ok", "--iterations", "0"),
        ("verify", "goals/missing.md"),
        # no time limit is nan or infinite seconds (nan passed the range and meant no limit)
        ("verify", "--no-write", "--time-limit", "nan"),
        ("verify", "--no-write", "--time-limit", "inf"),
        ("verify", "--no-write", "--lock-wait", "nan"),
        ("verify", "--no-write", "--judge-timeout", "nan"),
    ],
)
def test_usage_errors_exit_2(repo: Path, args: tuple[str, ...]) -> None:
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip()
    assert "Traceback" not in done.stderr
    assert not (repo / "goals" / "ok.md").exists()


def test_bad_token_usage_in_the_environment_is_a_usage_error(repo: Path) -> None:
    path = write_goal(repo / "goals", goal_text())
    before = path.read_bytes()
    done = run_goalfile("verify", path, cwd=repo, env={"GOALFILE_TOKENS_USED": "lots"})
    assert done.returncode == 2
    assert "GOALFILE_TOKENS_USED" in done.stderr
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- new


def test_new_writes_a_draft(repo: Path) -> None:
    done = run_goalfile("new", "auth-refresh", cwd=repo)
    assert done.returncode == 0, done.stderr
    path = repo / "goals" / "auth-refresh.md"
    assert last_line(done.stdout) == "wrote goals/auth-refresh.md (status: draft)"
    goal = parse_goal(path.read_text(), path=str(path))
    assert goal.slug == "auth-refresh"
    assert goal.status is Status.DRAFT
    assert str(goal.meta["created"]) in recent_days()
    assert (goal.budget.iterations, goal.budget.tokens) == (5, None)
    assert (goal.iterations_used, goal.tokens_used) == (0, 0)
    assert [s.key for s in goal.sections][-2:] == ["iterations", "lessons"]


def test_new_refuses_to_overwrite(repo: Path) -> None:
    assert run_goalfile("new", "auth", cwd=repo).returncode == 0
    path = repo / "goals" / "auth.md"
    path.write_text(path.read_text() + "\n- a person's note\n")
    before = path.read_bytes()
    done = run_goalfile("new", "auth", "--end-state", "something else", cwd=repo)
    assert done.returncode == 3
    assert "exists already" in done.stderr
    assert path.read_bytes() == before


def test_new_with_options_and_json(repo: Path) -> None:
    done = run_goalfile(
        "new",
        "pipes",
        "--dir",
        "elsewhere",
        "--end-state",
        "the  pipeline   works",
        "--iterations",
        "null",
        "--tokens",
        "1_000",
        "--non-goal",
        "nothing else changes",
        "--criterion",
        "a | b works",
        "--check",
        "printf 'a|b' | tr '|' -",
        "--expected",
        'exit 0; prints "a-b"',
        "--json",
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document == {
        "schema_version": 1,
        "path": "elsewhere/pipes.md",
        "slug": "pipes",
        "status": "draft",
        "criteria": ["C1"],
        "missing": [],
        "in_goal_folder": False,  # elsewhere/: the Stop hook does not look there
        "not_found": {},  # printf is found
        "not_there": {},  # it names no test path or git revision
        "warnings": [],  # lint warns of nothing in its rows
    }
    goal = parse_goal((repo / "elsewhere" / "pipes.md").read_text(), path="g")
    assert goal.end_state == "the pipeline works"
    assert (goal.budget.iterations, goal.budget.tokens) == (None, 1000)
    (c1,) = goal.criteria
    assert (c1.criterion, c1.check, c1.expected) == (
        "a | b works",
        "printf 'a|b' | tr '|' -",
        'exit 0; prints "a-b"',
    )
    lint = run_goalfile("lint", "elsewhere/pipes.md", cwd=repo)
    assert lint.returncode == 0, lint.stderr
    verify = run_goalfile(
        "verify", "--no-write", "--tokens-used", "0", "elsewhere/pipes.md", cwd=repo
    )
    assert last_line(verify.stdout) == "verify-goal pipes iteration 0: C1 met; status: met"


def test_a_new_draft_lints_with_warnings_and_activate_refuses_it(repo: Path) -> None:
    done = run_goalfile("new", "empty", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "next: fill in the end state, the non-goals, C1's criterion" in done.stderr
    lint = run_goalfile("lint", "goals/empty.md", cwd=repo)
    assert lint.returncode == 0, lint.stderr
    assert lint.stdout.strip() == "goals/empty.md: ok (3 warnings)"
    assert "warning: C1: a cell is still a placeholder" in lint.stderr
    before = (repo / "goals" / "empty.md").read_bytes()
    activate = run_goalfile("activate", "goals/empty.md", cwd=repo)
    assert activate.returncode == 3
    assert "the end state is still a placeholder (and 2 more" in activate.stderr
    assert (repo / "goals" / "empty.md").read_bytes() == before


# --------------------------------------------------------------------------- lint


def test_lint_ok_and_warnings(repo: Path) -> None:
    clean = write_goal(repo / "goals", goal_text(), "clean.md")
    warned = write_goal(
        repo / "goals",
        goal_text(rows=[row("C1", "echo ok", 'stdout contains "ok"')], extra=["owner: me"]),
        "warned.md",
    )
    done = run_goalfile("lint", clean, warned, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{clean}: ok", f"{warned}: ok (2 warnings)"]
    assert f"{warned}:10: warning: unknown frontmatter key `owner`" in done.stderr


def test_lint_errors_exit_3_with_file_line_column_and_hint(repo: Path) -> None:
    text = goal_text(rows=[row("C1", "true", "exit 0; stdout has 'x'")], status="done")
    path = write_goal(repo / "goals", text, "bad.md")
    before = path.read_bytes()
    done = run_goalfile("lint", path, cwd=repo)
    assert done.returncode == 3
    assert done.stdout.splitlines() == [f"{path}: invalid"]
    assert f"{path}:3:9: error: status 'done' is not one of" in done.stderr
    line = next(n for n, x in enumerate(text.split("\n"), 1) if x.startswith("| C1 |"))
    column = text.split("\n")[line - 1].index("exit 0; stdout has") + 1 + len("exit 0; ")
    assert f"{path}:{line}:{column}: error: C1: expected: " in done.stderr
    # the status's message names the statuses there are (no command knows which one is meant);
    # the clause's fix names the clause meant
    assert "is not one of draft, active, paused, met, blocked, exhausted" in done.stderr
    assert "  fix: did you mean `stdout contains \"'x'\"`?" in done.stderr
    assert path.read_bytes() == before


def test_lint_json_shape(repo: Path) -> None:
    good = write_goal(repo / "goals", goal_text(), "good.md")
    bad = write_goal(
        repo / "goals",
        goal_text(rows=[row("C1", "true", "exit 0"), row("C1", "", "exit 0")]),
        "bad.md",
    )
    broken = write_goal(repo / "goals", "# Goal: no frontmatter\n", "broken.md")
    done = run_goalfile("lint", "--json", good, bad, broken, cwd=repo)
    assert done.returncode == 3
    document = json.loads(done.stdout)
    assert document["schema_version"] == 1
    assert document["ok"] is False
    files = document["files"]
    assert [f["path"] for f in files] == [str(good), str(bad), str(broken)]
    assert [f["ok"] for f in files] == [True, False, False]
    assert files[0]["findings"] == []
    codes = sorted(f["code"] for f in files[1]["findings"])
    assert codes == ["criteria", "criteria"]
    for finding in files[1]["findings"]:
        assert set(finding) >= {"severity", "code", "line", "column", "message", "hint"}
        assert finding["severity"] == "error" and isinstance(finding["line"], int)
    (fatal,) = files[2]["findings"]
    assert fatal["code"] == "unreadable"
    assert (fatal["file"], fatal["line"], fatal["column"]) == (str(broken), 1, 1)
    assert fatal["hint"] is None and ": write at its top a line `---`" in fatal["message"]
    clean = run_goalfile("lint", "--json", good, cwd=repo)
    assert clean.returncode == 0
    assert json.loads(clean.stdout)["ok"] is True


# --------------------------------------------------------------------------- activate


def test_activate_a_draft(repo: Path) -> None:
    path = write_goal(repo / "goals", goal_text(status="draft"))
    before = path.read_text()
    done = run_goalfile("activate", "--json", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert {k: document[k] for k in ("schema_version", "path", "slug", "status", "criteria")} == {
        "schema_version": 1,
        "path": str(path),
        "slug": "demo",
        "status": "active",
        "criteria": ["C1"],
    }
    text = path.read_text()
    goal = parse_goal(text, path="g")
    assert goal.status is Status.ACTIVE
    assert str(goal.meta["contract"]).startswith("sha256:")
    old = parse_goal(before, path="g").criteria
    assert [replace(c, line=0) for c in goal.criteria] == [replace(c, line=0) for c in old]
    assert [c.line for c in goal.criteria] == [c.line + 1 for c in old]  # one new key line
    region = ledger_region(text)
    assert region is not None
    (entry,) = ledger.entries(text, *region)
    assert (entry.by, entry.status) == ("activate", Status.ACTIVE)
    assert entry.date in recent_days()
    # the frontmatter edits are single lines: the comment on status stays in its column
    old_status, new_status = before.split("\n")[2], text.split("\n")[2]
    assert new_status.startswith("status: active ")
    assert new_status.index("# draft |") == old_status.index("# draft |")


def test_activate_refuses_a_goal_with_lint_errors(repo: Path) -> None:
    path = write_goal(repo / "goals", goal_text(status="draft", rows=[row("C1", "", "exit 0")]))
    before = path.read_bytes()
    done = run_goalfile("activate", path, cwd=repo)
    assert done.returncode == 3
    assert "C1: no check" in done.stderr
    assert path.read_bytes() == before


def test_activate_approves_an_active_goal_whose_ledger_records_no_approval(repo: Path) -> None:
    """A goal a person wrote by hand with `status: active` and forgot to activate: activate
    approves it as it approves a draft (the fix the Stop hook prints for it), and stages it;
    a second activate finds it approved and points at --reapprove."""
    path = write_goal(repo / "goals", goal_text(status="active"), stage=False)
    done = run_goalfile("activate", "goals/demo.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "staged goals/demo.md (git add)" in done.stderr, done.stderr
    text = path.read_text(encoding="utf-8")
    assert "status: active\n" in text and "\ncontract: sha256:" in text, text
    region = ledger_region(text)
    assert region is not None
    (entry,) = ledger.entries(text, *region)
    assert (entry.by, entry.status) == ("activate", Status.ACTIVE)
    assert git(repo, "diff", "--cached", "--name-only").split() == ["goals/demo.md"]
    assert "\niterations_used: 1\n" in text, text  # the usage it had is kept, not reset
    again = run_goalfile("activate", "goals/demo.md", cwd=repo)
    assert again.returncode == 3 and "--reapprove" in again.stderr, again.stderr


def test_activate_keeps_the_ledger_of_an_active_goal_in_use(repo: Path) -> None:
    """An active goal with no approval entry whose verify entries back the iterations used (as
    the skill family runs one): activate approves it without a word about a draft's entries,
    and the iterations its ledger backs stay used."""
    path = write_goal(repo / "goals", goal_text(status="active", iterations_used=2))
    for _ in range(2):
        assert run_goalfile("verify", "goals/demo.md", cwd=repo).returncode == 0
        text = path.read_text(encoding="utf-8").replace("status: met", "status: active", 1)
        path.write_text(text, encoding="utf-8")  # (a person reopening it, as the skills do)
    done = run_goalfile("activate", "goals/demo.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    status = json.loads(run_goalfile("status", "--json", "goals/demo.md", cwd=repo).stdout)
    assert status["goals"][0]["iterations"]["used"] == 2, status


@pytest.mark.parametrize("status", ["paused", "met", "blocked", "exhausted"])
def test_activate_refuses_a_goal_that_is_not_a_draft(repo: Path, status: str) -> None:
    path = write_goal(repo / "goals", goal_text(status=status))
    before = path.read_bytes()
    done = run_goalfile("activate", path, cwd=repo)
    assert done.returncode == 3
    if status == "met":  # no verify entry backs it: an error before anything else
        assert "only `goalfile verify` writes `met`" in done.stderr
    else:
        assert f"the goal is {status}" in done.stderr
    assert path.read_bytes() == before


def test_new_activate_verify_end_to_end(repo: Path) -> None:
    done = run_goalfile(
        "new",
        "e2e",
        "--end-state",
        "it prints ready",
        "--non-goal",
        "no file changes",
        "--criterion",
        "ready is printed",
        "--check",
        "echo ready",
        "--expected",
        'exit 0; prints "ready"',
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    assert run_goalfile("activate", "goals/e2e.md", cwd=repo).returncode == 0
    verify = run_goalfile("verify", "goals/e2e.md", cwd=repo)
    assert verify.returncode == 0, verify.stderr
    assert last_line(verify.stdout) == "verify-goal e2e iteration 0: C1 met; status: met"


# --------------------------------------------------------------------------- status


def make_several(repo: Path, env: dict[str, str]) -> None:
    """A met goal (goals/a.md) and an unmet one with tokens spent (.zetetic/goals/c.md), each
    verified by a real run, and a draft (goals/b.md)."""
    met = write_goal(
        repo / "goals", goal_text(slug="met-one", rows=[row("C1", "true", "exit 0")]), "a.md"
    )
    assert run_goalfile("verify", met, cwd=repo).returncode == 0
    write_goal(repo / "goals", goal_text(slug="draft-one", status="draft"), "b.md")
    unmet = write_goal(
        repo / ".zetetic" / "goals",
        goal_text(
            slug="zetetic-one",
            rows=[row("C1", "true", "exit 0"), row("C2", "false", "exit 0")],
            tokens="1000",
            tokens_used=250,
        ),
        "c.md",
    )
    done = run_goalfile("verify", unmet, cwd=repo, env={"GOALFILE_TOKENS_USED": "300"})
    assert done.returncode == 1, done.stderr


@pytest.fixture(scope="module")
def made_several(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, make_several)


@pytest.fixture
def several(tmp_path: Path, made_several: Path) -> Path:
    """A copy of the repository :func:`make_several` makes once for the module."""
    return copy_of(made_several, tmp_path / "repo")


def test_status_json_for_several_goals(several: Path) -> None:
    done = run_goalfile("status", "--json", cwd=several)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["schema_version"] == 1
    goals = {g["slug"]: g for g in document["goals"]}
    assert list(goals) == ["met-one", "draft-one", "zetetic-one"]
    assert [Path(g["path"]).parent.name for g in document["goals"]] == ["goals"] * 3
    met, draft, zetetic = goals.values()
    assert met["status"] == "met"
    assert met["criteria"] == [
        {"id": "C1", "kind": "deterministic", "verdict": "met", "evidence": "(no output)"}
    ]
    assert met["last_verify"] in [{"iteration": 1, "date": day} for day in recent_days()]
    assert draft["status"] == "draft" and draft["last_verify"] is None
    assert draft["criteria"][0]["verdict"] is None
    assert zetetic["status"] == "active"
    assert zetetic["tokens"] == {"used": 300, "budget": 1000}
    assert zetetic["iterations"] == {"used": 1, "budget": 5}
    assert [c["verdict"] for c in zetetic["criteria"]] == ["met", "unmet"]
    assert zetetic["end_state"] == "the checks pass"


def test_status_text_for_several_goals(several: Path) -> None:
    done = run_goalfile("status", cwd=several)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert (
        out.index("met-one: met") < out.index("draft-one: draft") < out.index("zetetic-one: active")
    )
    assert "  iterations 1/5, tokens 300/1000" in out
    assert "  iterations 1/5, tokens 0 (unbounded)" in out
    assert any(f"  last verify: iteration 1 ({day})" in out for day in recent_days())
    lines = out.splitlines()
    assert any(line.split()[:2] == ["C2", "unmet"] for line in lines)
    assert any(line.split()[:3] == ["C1", "not", "verified"] for line in lines)


@pytest.mark.parametrize(
    ("tokens", "shown"),
    [("null", "tokens not measured (unbounded)"), ("5000", "tokens not measured (budget 5000)")],
)
def test_status_says_tokens_not_measured_for_tokens_used_null(
    repo: Path, tokens: str, shown: str
) -> None:
    """`tokens_used: null` (the skill family's "not measured") is not 0 tokens."""
    text = goal_text(tokens=tokens).replace("tokens_used: 0\n", "tokens_used: null\n")
    assert "tokens_used: null\n" in text
    write_goal(repo / "goals", text)

    done = run_goalfile("status", "goals/demo.md", cwd=repo)

    assert done.returncode == 0, done.stderr
    assert f"  iterations 1/5, {shown}\n" in done.stdout
    assert "tokens 0" not in done.stdout
    document = json.loads(run_goalfile("status", "--json", "goals/demo.md", cwd=repo).stdout)
    budget = None if tokens == "null" else int(tokens)
    assert document["goals"][0]["tokens"] == {"used": None, "budget": budget}


def test_status_of_one_path_and_of_a_broken_file(several: Path) -> None:
    broken = write_goal(several / "goals", "---\nslug: [x\n---\n", "broken.md")
    done = run_goalfile("status", "--json", "goals/a.md", broken, cwd=several)
    assert done.returncode == 3
    first, second = json.loads(done.stdout)["goals"]
    assert first["slug"] == "met-one"
    assert second["path"] == str(broken)
    assert second["error"]["line"] == 3 and second["error"]["exit_code"] == 3


def test_status_without_goals(tmp_path: Path) -> None:
    done = run_goalfile("status", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout == ""
    assert "no goal files found" in done.stderr


# --------------------------------------------------------------------------- new --activate


def test_new_with_several_checks_and_activate_gives_an_active_pinned_goal(repo: Path) -> None:
    (repo / "README.md").write_text("explains the greeting\n")
    done = run_goalfile(
        "new",
        "greet",
        "it greets",
        "--check",
        "echo hello",
        "--expected",
        'exit 0; prints "hello"',
        "--check",
        "printf 'a|b'",
        "--expected",
        'exit 0; stdout contains "a|b"',
        "--criterion",
        "it says hello",
        "--review",
        "README.md=explains the greeting",
        "--non-goal",
        "nothing else changes",
        "--iterations",
        "3",
        "--tokens",
        "null",
        "--activate",
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "wrote goals/greet.md (status: active; 3 criteria approved, contract pinned)"
    )
    assert "fill in" not in done.stderr
    assert done.stderr.splitlines() == [
        "staged goals/greet.md (git add): the Stop hook runs the checks of a goal whose "
        "approval git's index or HEAD holds, and holds an agent that moves or deletes it; "
        "commit it before the agent starts, so that its history is kept too",
        "next: work toward the end state; `goalfile verify goals/greet.md` decides",
    ]
    text = (repo / "goals" / "greet.md").read_text()
    assert "FILL IN" not in text
    goal = parse_goal(text, path="g")
    assert goal.status is Status.ACTIVE
    assert goal.meta["contract"].startswith("sha256:")
    assert [(r.id, r.criterion, r.check, r.expected, r.kind.value) for r in goal.criteria] == [
        ("C1", "it says hello", "echo hello", 'exit 0; prints "hello"', "deterministic"),
        ("C2", "`printf 'a|b'`", "printf 'a|b'", 'exit 0; stdout contains "a|b"', "deterministic"),
        ("R1", "explains the greeting", "README.md", "explains the greeting", "review"),
    ]
    assert goal.budget.iterations == 3
    assert run_goalfile("lint", "goals/greet.md", cwd=repo).returncode == 0
    assert run_goalfile("audit", "goals/greet.md", cwd=repo).returncode == 0
    verify = run_goalfile("verify", "goals/greet.md", cwd=repo)
    assert last_line(verify.stdout) == (
        "verify-goal greet iteration 0: C1 met, C2 met, R1 unmet; status: active"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--expected", "exit 0"], "0 --check but 1 --expected"),
        (["--check", "true", "--expected", "exit zero"], "--expected number 1 ('exit zero')"),
        (["--review", "no-equals-sign"], "is not PATH=WHAT"),
        (["--criterion", "x"], "1 --criterion but 0 --check"),
    ],
)
def test_new_refuses_options_that_do_not_pair_up(repo: Path, args: list[str], message: str) -> None:
    done = run_goalfile("new", "bad", "an end state", *args, cwd=repo)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert not (repo / "goals" / "bad.md").exists()


def test_new_activate_without_a_check_writes_nothing(repo: Path) -> None:
    done = run_goalfile("new", "bare", "an end state", "--activate", cwd=repo)
    assert done.returncode == 2
    assert "--activate needs C1's criterion, check and expected result" in done.stderr
    assert not (repo / "goals" / "bare.md").exists()


def test_a_complete_draft_points_to_activate(repo: Path) -> None:
    done = run_goalfile(
        "new",
        "ready",
        "it is ready",
        "--check",
        "true",
        "--expected",
        "exit 0",
        "--non-goal",
        "nothing",
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "next: `goalfile activate goals/ready.md` pins the contract"
    assert run_goalfile("activate", "goals/ready.md", cwd=repo).returncode == 0


def test_new_keeps_a_backslash_in_expected_as_written(repo: Path) -> None:
    """Outside a code span Markdown reads `\\.` as `.`: such a cell is written as a code span."""
    done = run_goalfile(
        "new", "v", "it prints the version", "--check", "echo mytool 1.4.0",
        "--expected", r"exit 0; stdout matches /^mytool 1\.4\.0$/", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (c1,) = parse_goal((repo / "goals" / "v.md").read_text(), path="g").criteria
    assert c1.expected == r"exit 0; stdout matches /^mytool 1\.4\.0$/"
    verify = run_goalfile("verify", "goals/v.md", cwd=repo)
    assert last_line(verify.stdout) == "verify-goal v iteration 0: C1 met; status: met"


def test_new_writes_an_expected_github_would_draw_as_math_as_a_code_span(repo: Path) -> None:
    """GitHub draws `$...$` outside a code span as math (`${}$` as nothing): such a cell is
    refused (`rendered-differs`), so `new` writes it as a code span, which shows as it runs."""
    done = run_goalfile(
        "new", "m", "it prints the price", "--check", "echo 'a$b$c'",
        "--expected", 'exit 0; stdout contains "a$b$c"', "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '| `exit 0; stdout contains "a$b$c"` |' in (repo / "goals" / "m.md").read_text()
    verify = run_goalfile("verify", "goals/m.md", cwd=repo)
    assert last_line(verify.stdout) == "verify-goal m iteration 0: C1 met; status: met"
