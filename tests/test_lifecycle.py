"""The lifecycle commands end to end: `python -m goalfile ...` as real processes on real goal
files in real git repositories under tmp_path.

Every command that writes is checked against the exact text it should produce: the file before,
with the expected frontmatter lines edited and the expected ledger entry appended to
`## Iterations`, and nothing else. Every refusal is checked to leave the file byte-identical.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import pytest

from goalfile.contract import digest, short
from goalfile.ledger import code_span
from goalfile.parse import parse_goal

STATUS_COMMENT = "# draft | active | paused | met | blocked | exhausted"
BUDGET_COMMENT = "# null = unbounded"
GOAL = "goals/demo.md"
PLAN_HEADER = ("| step | change | files | serves | check |", "|---|---|---|---|---|")
REFINE_TAIL = (
    "",
    "criteria changes: none (a change to a criterion needs "
    "`goalfile activate --reapprove PATH --reason TEXT`)",
    "lesson: -",
)


def today() -> str:
    return _dt.date.today().isoformat()


# --- goal files ---------------------------------------------------------------------------


def status_line(value: str) -> str:
    """The status line as written with a trailing comment (edits keep the comment's column)."""
    return f"status: {value:<17} {STATUS_COMMENT}"


def budget_line(name: str, value: object) -> str:
    return f"  {name}: {value!s:<11} {BUDGET_COMMENT}"


def crit(cid: str, check: str, expected: str, kind: str = "deterministic") -> str:
    cell = "`" + check.replace("|", "\\|") + "`" if check else ""
    return f"| {cid} | criterion of {cid} | {cell} | {expected} | {kind} |"


def review_crit(cid: str = "R1", artifact: str = "docs/guide.md") -> str:
    return crit(cid, artifact, "explains how the refresh token is rotated", "review")


@dataclasses.dataclass(frozen=True)
class Doc:
    """A goal file in the documented format, with comments in the frontmatter."""

    status: str = "active"
    iterations: object = 5
    tokens: object = "null"
    iterations_used: int = 1
    tokens_used: int = 0
    extra: tuple[str, ...] = ()  # more frontmatter lines, before the closing fence
    rows: tuple[str, ...] = (crit("C1", "true", "exit 0"),)
    plan: tuple[str, ...] = ()
    entries: tuple[str, ...] = ()
    end_state: str = "the refresh flow works"
    non_goals: tuple[str, ...] = ("`tests/fixtures/` stays unchanged.",)

    def render(self) -> str:
        lines = [
            "---",
            "slug: demo",
            status_line(self.status),
            "created: 2026-11-30",
            "budget:",
            budget_line("iterations", self.iterations),
            budget_line("tokens", self.tokens),
            f"iterations_used: {self.iterations_used}",
            f"tokens_used: {self.tokens_used}",
            *self.extra,
            "---",
            f"# Goal: {self.end_state}",
            "",
            "## Non-goals",
            *(f"- {item}" for item in self.non_goals),
            "",
            "## Acceptance criteria",
            "| id | criterion | check | expected | kind |",
            "|----|-----------|-------|----------|------|",
            *self.rows,
            "",
            "## Plan",
            *self.plan,
            "",
            "## Token accounting",
            "Spent so far: nothing worth noting.",
            "",
            "## Iterations",
            "",
        ]
        if self.entries:
            lines += ["\n\n".join(self.entries), ""]
        lines += ["## Lessons", "- keep the ledger honest"]
        return "\n".join(lines) + "\n"


def edited(
    text: str,
    *,
    entries: Sequence[str] = (),
    replace: Mapping[str, str] | None = None,
    add: Sequence[str] = (),
    remove: Sequence[str] = (),
) -> str:
    """``text`` with frontmatter lines replaced, added (before the closing fence) or removed,
    and ``entries`` appended at the end of `## Iterations`: what a command may change."""
    assert text.startswith("---\n")
    head, fence, body = text.partition("\n---\n")
    lines = head.split("\n")
    for old, new in (replace or {}).items():
        assert lines.count(old) == 1, f"frontmatter line {old!r} not found once in {lines}"
        lines[lines.index(old)] = new
    for line in remove:
        assert lines.count(line) == 1, f"frontmatter line {line!r} not found once"
        lines.remove(line)
    lines += add
    for entry in entries:
        assert body.count("\n\n## Lessons") == 1
        body = body.replace("\n\n## Lessons", f"\n\n{entry}\n\n## Lessons")
    return "\n".join(lines) + fence + body


WORKDIR = "working directory: `..` (git top level)"


def entry(iteration: int, by: str, *lines: str) -> str:
    """An entry as goalfile writes it: the heading, a blank line, the lines."""
    return "\n".join([f"### Iteration {iteration} ({today()}) by {by}", "", *lines])


def table_rows(text: str) -> set[str]:
    """Each table row of ``text`` with its padding taken out (`| a | b |`)."""
    return {
        "| " + " | ".join(c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]) + " |"
        for line in text.splitlines()
        if line.startswith("|")
    }


def padded(rows: Sequence[str]) -> list[str]:
    """A table written compactly (header, delimiter row, rows) as mdformat writes it: every cell
    padded to the longest of its column, at least three; the delimiter row all dashes. (The
    cells here are ASCII: one character, one column.)"""
    cells = [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]
    del cells[1]  # the delimiter row is written anew
    widths = [max(3, *(len(row[col]) for row in cells)) for col in range(len(cells[0]))]
    cells.insert(1, ["-" * width for width in widths])
    return [
        "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"
        for row in cells
    ]


def vrow(cid: str, verdict: str, command: str, exit: str, evidence: str) -> str:
    return f"| {cid} | {verdict} | `{command}` | {exit} | {evidence} |"


def verify_entry(
    iteration: int, rows: Iterable[str], status: str, *, contract: str, judge: str | None = None
) -> str:
    judged = ["", f"judged by: {code_span(judge)}"] if judge is not None else []
    return entry(
        iteration,
        "verify-goal",
        *padded(
            [
                "| id | verdict | command | exit | evidence |",
                "|----|---------|---------|------|----------|",
                *rows,
            ]
        ),
        "",
        WORKDIR,
        *judged,
        "",
        f"status: {status}",
        f"contract: {contract}",
    )


def contract_of(text: str) -> str:
    return short(digest(parse_goal(text, path=GOAL)))


def ledger_headings(text: str) -> list[tuple[int, str]]:
    return [
        (int(m.group(1)), m.group(2))
        for m in re.finditer(r"(?m)^### Iteration (\d+) \(\d{4}-\d\d-\d\d\) by (\S+)$", text)
    ]


# --- running goalfile ---------------------------------------------------------------------


def env_for(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOALFILE_")}
    env.setdefault("PATH", "/usr/bin:/bin")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra or {})
    return env


class Project:
    """A git repository in tmp_path with one goal file, driven by goalfile as a process."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.goal = root / GOAL

    def write(self, doc: Doc | str) -> str:
        text = doc.render() if isinstance(doc, Doc) else doc
        self.goal.parent.mkdir(parents=True, exist_ok=True)
        self.goal.write_bytes(text.encode("utf-8"))
        return text

    def text(self) -> str:
        return self.goal.read_bytes().decode("utf-8")

    def file(self, name: str, content: str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        return path

    def run(
        self, *args: str, env: Mapping[str, str] | None = None, timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "goalfile", *args],
            cwd=self.root,
            env=env_for(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def refused(self, *args: str, code: int = 3, env: Mapping[str, str] | None = None) -> str:
        """Run a command that must refuse: exit ``code``, the goal file byte-identical."""
        before = self.goal.read_bytes()
        done = self.run(*args, env=env)
        assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
        assert self.goal.read_bytes() == before
        assert "Traceback" not in done.stderr
        return done.stderr


def summary(done: subprocess.CompletedProcess[str]) -> str:
    return done.stdout.rstrip("\n").split("\n")[-1]


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env_for())
    return Project(root)


GUIDE = "# Auth\n\nThe refresh\n   token is   rotated on every use.\nIt expires after a day.\n"
QUOTE = "refresh token is rotated on every use"


def judge_script(project: Project, name: str, body: str) -> str:
    """A fake judge: a shell script in tmp_path; returns the command that runs it."""
    script = project.root.parent / "judges" / f"{name}.sh"
    script.parent.mkdir(exist_ok=True)
    script.write_text(body, encoding="utf-8")
    return f"sh {shlex.quote(str(script))}"


def replying_judge(project: Project, reply: str, name: str = "judge") -> tuple[str, Path]:
    """A judge that saves its packet and prints ``reply``; returns (command, packet path)."""
    packet = project.root.parent / f"{name}-packet.json"
    body = f"cat > {shlex.quote(str(packet))}\ncat <<'REPLY'\n{reply}\nREPLY\n"
    return judge_script(project, name, body), packet


# =========================================================================================
# plan
# =========================================================================================

TWO_ROWS = (crit("C1", "true", "exit 0"), crit("C2", "echo passed", 'stdout contains "passed"'))
SOUND_PLAN = (
    *PLAN_HEADER,
    "| 1 | add the refresh endpoint | auth/refresh.py | C1 | `pytest -q` |",
    "| 2 | document it | docs/guide.md | `C2`, C1 | - |",
)


def planned(text: str, plan: Sequence[str], revision: int, verdict: str, findings: str) -> str:
    """``text`` with the plan skill's lines written into `## Plan` around ``plan``."""
    old = "\n".join(["## Plan", *plan, "", "## Token"])
    new = [
        "## Plan",
        "",
        f"revision: {revision}",
        f"verify-plan: {verdict} ({today()})",
        "",
        *plan,
        "",
        f"findings: {findings}",
        "",
        "## Token",
    ]
    assert text.count(old) == 1
    return text.replace(old, "\n".join(new))


def plan_lines(revision: int, digest: str, steps: int, verdict: str, findings: str) -> list[str]:
    return [
        f"plan revision {revision} ({digest}): {steps} step{'' if steps == 1 else 's'}, {verdict}",
        f"revision: {revision}",
        f"verify-plan: {verdict} ({today()})",
        f"findings: {findings}",
    ]


def plan_digest(text: str, revision: int) -> str:
    found = re.findall(rf"(?m)^plan revision {revision} \(([0-9a-f]+)\): ", text)
    assert len(found) == 1, text
    assert re.fullmatch(r"[0-9a-f]{12}", found[0])
    return str(found[0])


def test_plan_sound_uses_an_iteration_and_ledgers_revision_digest_and_verdict(
    project: Project,
) -> None:
    before = project.write(Doc(rows=TWO_ROWS, plan=SOUND_PLAN))

    done = project.run("plan", GOAL)

    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{GOAL}: iteration 2: plan revision 1 is sound\n"
    after = project.text()
    first = plan_digest(after, 1)
    assert after == edited(
        planned(before, SOUND_PLAN, 1, "sound", "none"),
        replace={"iterations_used: 1": "iterations_used: 2"},
        entries=[entry(2, "plan", *plan_lines(1, first, 2, "sound", "none"))],
    )

    again = project.run("plan", GOAL, "--json")
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report == {
        "schema_version": 1,
        "path": GOAL,
        "slug": "demo",
        "iteration": 3,
        "status": "active",
        "sound": True,
        "revision": 2,
        "plan_digest": first,
        "findings": [],
        "exit_code": 0,
    }
    assert project.text() == edited(
        after.replace("revision: 1\n", "revision: 2\n", 1),
        replace={"iterations_used: 2": "iterations_used: 3"},
        entries=[entry(3, "plan", *plan_lines(2, first, 2, "sound", "none"))],
    )


def test_plan_digest_changes_with_the_plan_table(project: Project) -> None:
    project.write(Doc(rows=TWO_ROWS, plan=SOUND_PLAN))
    assert project.run("plan", GOAL).returncode == 0
    text = project.text()
    first = plan_digest(text, 1)
    project.write(text.replace("add the refresh endpoint", "add the rotation endpoint"))
    assert project.run("plan", GOAL).returncode == 0
    assert plan_digest(project.text(), 2) != first


NONE_SERVED = ["C1 is served by no step", "C2 is served by no step"]
UNSOUND_PLANS = {
    "unserved criterion": (
        (*PLAN_HEADER, "| 1 | add the endpoint | auth.py | C1 | - |"),
        1,
        ["C2 is served by no step"],
    ),
    "step serves a missing id": (
        (*PLAN_HEADER, "| 1 | all | auth.py | C1 C2 C9 | - |", "| 2 | more | x.py | C7; C8 | - |"),
        2,
        [
            "step 1 serves C9, which is not a criterion",
            "step 2 serves C7, C8, which are not a criterion",
        ],
    ),
    "step serves nothing": (
        (*PLAN_HEADER, "| 1 | all | auth.py | C1, C2 | - |", "| 2 | tidy up | x.py |  | - |"),
        2,
        ["step 2 serves no criterion"],
    ),
    "missing columns": (
        ("| step | change | check |", "|---|---|---|", "| 1 | all | - |"),
        0,
        ["the plan table lacks the columns files, serves", *NONE_SERVED],
    ),
}


@pytest.mark.parametrize("case", list(UNSOUND_PLANS))
def test_plan_unsound_lists_the_orphans_and_still_uses_the_iteration(
    project: Project, case: str
) -> None:
    plan, steps, findings = UNSOUND_PLANS[case]
    before = project.write(Doc(rows=TWO_ROWS, plan=plan))

    done = project.run("plan", GOAL)

    assert done.returncode == 1, done.stderr
    assert done.stdout == "".join(
        [f"{GOAL}: iteration 2: plan revision 1 is unsound\n", *(f"  {f}\n" for f in findings)]
    )
    after = project.text()
    assert after == edited(
        planned(before, plan, 1, "unsound", "; ".join(findings)),
        replace={"iterations_used: 1": "iterations_used: 2"},
        entries=[
            entry(
                2,
                "plan",
                *plan_lines(1, plan_digest(after, 1), steps, "unsound", "; ".join(findings)),
            )
        ],
    )


def without_plan_section(doc: Doc) -> str:
    text = doc.render()
    assert text.count("## Plan\n\n") == 1
    return text.replace("## Plan\n\n", "")


# a plan with no step at all: (the goal file, the line named, the problem, where to write it)
EMPTY_PLANS: dict[str, tuple[Callable[[], str], int, str, str]] = {
    "no section": (
        lambda: without_plan_section(Doc(rows=TWO_ROWS)),
        22,  # `## Token accounting`, the heading after the criteria
        "there is no `## Plan` section",
        "in a `## Plan` section above line 22",
    ),
    "no table": (
        lambda: Doc(
            rows=TWO_ROWS, plan=("We will add the endpoint and then document it.",)
        ).render(),
        22,  # the `## Plan` heading
        "the `## Plan` section has no table",
        "under `## Plan`",
    ),
    "header only": (
        lambda: Doc(rows=TWO_ROWS, plan=PLAN_HEADER).render(),
        23,  # the table's header row
        "the plan table has no steps",
        "under `## Plan`",
    ),
    "header only, with the skill's findings line": (
        lambda: Doc(rows=TWO_ROWS, plan=(*PLAN_HEADER, "", "findings: none")).render(),
        23,
        "the plan table has no steps",
        "under `## Plan`",
    ),
    "a header lacking columns, and no step": (
        lambda: Doc(rows=TWO_ROWS, plan=("| step | change |", "|---|---|")).render(),
        23,
        "the plan table has no steps",
        "under `## Plan`",
    ),
}


@pytest.mark.parametrize("case", list(EMPTY_PLANS))
def test_plan_refuses_a_plan_with_no_step_and_uses_no_iteration(
    project: Project, case: str
) -> None:
    make, line, problem, where = EMPTY_PLANS[case]
    project.write(make())

    stderr = project.refused("plan", GOAL)  # exit 3, the file byte for byte as it was

    assert stderr == (
        f"goalfile: {GOAL}:{line}: {problem}: there is no plan to check; nothing was written "
        "and no iteration was used\n"
        "  fix: fill in the plan: a table `| step | change | files | serves | check |` "
        f"{where}, one row per step, whose `serves` cells name C1, C2; then "
        f"`goalfile plan {GOAL}`. Or go without a plan: do the work, then "
        f"`goalfile verify {GOAL}`\n"
    )
    report = json.loads(project.run("plan", GOAL, "--json").stdout)
    assert report["error"]["exit_code"] == 3
    assert (report["error"]["file"], report["error"]["line"]) == (GOAL, line)


def test_the_fix_for_an_empty_plan_works_as_written(project: Project) -> None:
    """Both ways out the hint names: the verify that goes without a plan, and the plan that
    runs once the table the hint describes is filled in under `## Plan`."""
    rows = (crit("C1", "true", "exit 0"), crit("C2", "false", "exit 0"))
    text = project.write(without_plan_section(Doc(rows=rows)))
    project.refused("plan", GOAL)

    done = project.run("verify", GOAL)  # judged without a plan: C2 is unmet, the goal active
    assert done.returncode == 1, done.stdout + done.stderr

    lines = project.text().split("\n")
    assert lines[21] == "## Token accounting"  # line 22, the line the refusal named
    lines[21:21] = ["## Plan", *SOUND_PLAN, ""]
    project.write("\n".join(lines))
    done = project.run("plan", GOAL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == f"{GOAL}: iteration 2: plan revision 1 is sound\n"
    assert "iterations_used: 2\n" in project.text()
    assert text != project.text()


def test_plan_at_the_limit_exhausts_the_goal_even_with_no_step(project: Project) -> None:
    """The budget is read before the plan: at the limit an empty plan still exhausts the goal."""
    project.write(Doc(rows=TWO_ROWS, plan=PLAN_HEADER, iterations=3, iterations_used=3))
    done = project.run("plan", GOAL)
    assert done.returncode == 5, done.stderr
    assert done.stdout == f"{GOAL}: exhausted: iteration budget reached: 3 of 3 used\n"
    assert status_line("exhausted") in project.text()


@pytest.mark.parametrize("status", ["draft", "paused", "met", "blocked", "exhausted"])
def test_plan_refuses_a_goal_that_is_not_active(project: Project, status: str) -> None:
    project.write(Doc(status=status, rows=TWO_ROWS, plan=SOUND_PLAN))
    stderr = project.refused("plan", GOAL)
    if status == "met":  # a met that no verify entry backs is an error first (DESIGN §10)
        assert "only `goalfile verify` writes `met`" in stderr
    else:
        assert f"the goal is {status}; plan needs it active" in stderr


def test_plan_at_the_iteration_limit_sets_exhausted(project: Project) -> None:
    before = project.write(Doc(rows=TWO_ROWS, plan=SOUND_PLAN, iterations=3, iterations_used=3))

    done = project.run("plan", GOAL)

    assert done.returncode == 5, done.stderr
    assert done.stdout == f"{GOAL}: exhausted: iteration budget reached: 3 of 3 used\n"
    assert project.text() == edited(
        before,
        replace={status_line("active"): status_line("exhausted")},
        entries=[
            entry(3, "plan", "iteration budget reached: 3 of 3 used", "", "status: exhausted")
        ],
    )
    # exhausted now: a further plan is refused and changes nothing
    project.refused("plan", GOAL)


def test_plan_below_the_limit_takes_the_last_iteration(project: Project) -> None:
    project.write(Doc(rows=TWO_ROWS, plan=SOUND_PLAN, iterations=3, iterations_used=2))
    done = project.run("plan", GOAL)
    assert done.returncode == 0, done.stderr
    assert "iterations_used: 3\n" in project.text()
    assert status_line("active") in project.text()


# =========================================================================================
# review
# =========================================================================================

REVIEW_ROWS = (crit("C1", "true", "exit 0"), review_crit())


def review_entry(iteration: int, verdict: str, quote: str, reason: str) -> str:
    return entry(
        iteration,
        "review",
        f"review of R1: {verdict}",
        "artifact: `docs/guide.md`",
        f"quote: `{quote}`" if quote else "quote: -",
        f"reason: {reason}",
    )


def test_review_refuses_a_quote_the_artifact_lacks(project: Project) -> None:
    project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    stderr = project.refused(
        "review",
        GOAL,
        "R1",
        "--artifact",
        "docs/guide.md",
        "--quote",
        "the refresh token never expires",
        "--verdict",
        "met",
    )
    assert "the quote does not occur in docs/guide.md" in stderr


def test_review_quote_whitespace_normalised_is_recorded_and_verify_meets_the_row(
    project: Project,
) -> None:
    before = project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    quote = "refresh   token is rotated\non every use"

    done = project.run(
        "review",
        GOAL,
        "R1",
        "--artifact",
        "docs/guide.md",
        "--quote",
        " ".join(quote.split()),
        "--verdict",
        "met",
        "--reason",
        "describes rotation | and expiry",
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{GOAL}: review of R1 recorded (met) at iteration 1\n"
    reviewed = edited(
        before,
        entries=[review_entry(1, "met", QUOTE, "describes rotation | and expiry")],
    )
    assert project.text() == reviewed

    verified = project.run("verify", GOAL)

    assert verified.returncode == 0, verified.stderr
    assert summary(verified) == "verify-goal demo iteration 1: C1 met, R1 met; status: met"
    assert project.text() == edited(
        reviewed,
        replace={status_line("active"): status_line("met")},
        entries=[
            verify_entry(
                1,
                [
                    vrow("C1", "met", "true", "0", "(no output)"),
                    vrow("R1", "met", "docs/guide.md", "-", f"review: `{QUOTE}`"),
                ],
                "met",
                contract=contract_of(before),
            )
        ],
    )

    # the passage is gone: a re-run (without writing, the goal is met) no longer meets R1
    project.file("docs/guide.md", "# Auth\n\nTokens are handled somehow.\n")
    met_text = project.goal.read_bytes()
    rerun = project.run("verify", GOAL, "--no-write")
    assert summary(rerun) == "verify-goal demo iteration 1: C1 met, R1 unmet; status: active"
    assert "R1 unmet: review quote no longer found in docs/guide.md" in rerun.stdout
    assert project.goal.read_bytes() == met_text


def test_review_quote_removed_from_the_artifact_before_verify_is_unmet(project: Project) -> None:
    before = project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    args = ("review", GOAL, "R1", "--artifact", "docs/guide.md", "--quote", QUOTE)
    assert project.run(*args, "--verdict", "met").returncode == 0
    reviewed = project.text()
    assert reviewed == edited(before, entries=[review_entry(1, "met", QUOTE, "-")])
    project.file("docs/guide.md", GUIDE.replace("rotated", "reused"))

    done = project.run("verify", GOAL)

    assert done.returncode == 1, done.stderr
    assert summary(done) == "verify-goal demo iteration 1: C1 met, R1 unmet; status: active"
    assert project.text() == edited(
        reviewed,
        entries=[
            verify_entry(
                1,
                [
                    vrow("C1", "met", "true", "0", "(no output)"),
                    vrow(
                        "R1",
                        "unmet",
                        "docs/guide.md",
                        "-",
                        "review quote no longer found in docs/guide.md",
                    ),
                ],
                "active",
                contract=contract_of(before),
            )
        ],
    )


def test_review_quote_spanning_lines_is_kept_verbatim_and_still_counts(project: Project) -> None:
    """A quote copied across a line break passes `review` (whitespace is normalised), so the
    ledger must keep it such that `verify` still finds it: the line break is whitespace."""
    project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    done = project.run(
        "review",
        GOAL,
        "R1",
        "--artifact",
        "docs/guide.md",
        "--quote",
        "The refresh\ntoken is rotated",
        "--verdict",
        "met",
    )
    assert done.returncode == 0, done.stderr

    verified = project.run("verify", GOAL)

    assert summary(verified) == "verify-goal demo iteration 1: C1 met, R1 met; status: met"


def test_a_review_of_the_artifact_a_row_no_longer_names_does_not_count(project: Project) -> None:
    """R1 reviewed `docs/guide.md`; a person then re-approved R1 to name `docs/other.md`, which
    nobody reviewed. The old review's quote is still in the old file, but it supports nothing
    about the artifact the row names now."""
    project.write(Doc(status="draft", iterations_used=0, rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    project.file("docs/other.md", "# Other\n\nNothing about tokens.\n")
    assert project.run("activate", GOAL).returncode == 0
    review = ("review", GOAL, "R1", "--artifact", "docs/guide.md", "--quote", QUOTE)
    assert project.run(*review, "--verdict", "met").returncode == 0
    project.write(project.text().replace("| `docs/guide.md` |", "| `docs/other.md` |"))
    reapproved = project.run(
        "activate", "--reapprove", GOAL, "--reason", "the guide moved to docs/other.md"
    )
    assert reapproved.returncode == 0, reapproved.stderr

    done = project.run("verify", GOAL)

    assert summary(done) == "verify-goal demo iteration 0: C1 met, R1 unmet; status: active"
    assert done.returncode == 1


def test_a_review_row_naming_its_artifact_in_prose(project: Project) -> None:
    rows = (
        crit("C1", "true", "exit 0"),
        "| R1 | docs explain refresh | reviewer reads docs/guide.md | explains rotation | review |",
    )
    project.write(Doc(rows=rows))
    project.file("docs/guide.md", GUIDE)
    review = ("review", GOAL, "R1", "--artifact", "docs/guide.md", "--quote", QUOTE)
    assert project.run(*review, "--verdict", "met").returncode == 0

    done = project.run("verify", GOAL)

    assert summary(done) == "verify-goal demo iteration 1: C1 met, R1 met; status: met"
    assert f"| R1 | met | `reviewer reads docs/guide.md` | - | review: `{QUOTE}` |" in table_rows(
        project.text()
    )


@pytest.mark.parametrize("where", ["dotdot", "absolute", "symlink"])
def test_review_refuses_an_artifact_outside_the_working_tree(project: Project, where: str) -> None:
    outside = project.root.parent / "outside.md"
    outside.write_text(GUIDE, encoding="utf-8")
    if where == "dotdot":
        artifact = "../outside.md"
    elif where == "absolute":
        artifact = str(outside)
    else:
        artifact = "docs/link.md"
        (project.root / "docs").mkdir()
        (project.root / artifact).symlink_to(outside)
    project.write(Doc(rows=(crit("C1", "true", "exit 0"), review_crit("R1", artifact))))

    stderr = project.refused(
        "review", GOAL, "R1", "--artifact", artifact, "--quote", QUOTE, "--verdict", "met"
    )

    assert "outside the goal's working tree" in stderr


def test_review_refuses_a_deterministic_row(project: Project) -> None:
    project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    stderr = project.refused(
        "review", GOAL, "C1", "--artifact", "docs/guide.md", "--quote", QUOTE, "--verdict", "met"
    )
    assert "C1 is a deterministic row" in stderr


def test_review_refuses_an_artifact_other_than_the_row_names(project: Project) -> None:
    project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    project.file("docs/other.md", GUIDE)
    stderr = project.refused(
        "review", GOAL, "R1", "--artifact", "docs/other.md", "--quote", QUOTE, "--verdict", "met"
    )
    assert "R1 reviews docs/guide.md, not docs/other.md" in stderr


@pytest.mark.parametrize("status", ["paused", "met"])
def test_review_refuses_a_goal_that_is_not_active(project: Project, status: str) -> None:
    project.write(Doc(status=status, rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    project.refused(
        "review", GOAL, "R1", "--artifact", "docs/guide.md", "--quote", QUOTE, "--verdict", "met"
    )


@pytest.mark.parametrize(
    "args",
    [
        ("--verdict", "met"),  # met without a quote
        ("--verdict", "unmet", "--quote", QUOTE),  # unmet without a reason
        ("--verdict", "maybe", "--quote", QUOTE),
        ("--verdict", "met", "--quote", "x" * 4001),
    ],
    ids=["met-without-quote", "unmet-without-reason", "bad-verdict", "quote-too-long"],
)
def test_review_usage_errors_exit_2(project: Project, args: tuple[str, ...]) -> None:
    project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    project.refused("review", GOAL, "R1", "--artifact", "docs/guide.md", *args, code=2)


def test_review_rows_are_not_judged_while_a_deterministic_row_is_unmet(project: Project) -> None:
    before = project.write(Doc(rows=(crit("C1", "exit 1", "exit 0"), review_crit())))
    project.file("docs/guide.md", GUIDE)
    assert (
        project.run(
            "review",
            GOAL,
            "R1",
            "--artifact",
            "docs/guide.md",
            "--quote",
            QUOTE,
            "--verdict",
            "met",
        ).returncode
        == 0
    )
    marker = project.root.parent / "judge-ran"
    judge = judge_script(project, "marker", f"touch {shlex.quote(str(marker))}\n")

    done = project.run("verify", GOAL, "--judge", judge)

    assert done.returncode == 1, done.stderr
    assert summary(done) == "verify-goal demo iteration 1: C1 unmet, R1 unmet; status: active"
    assert "| R1 | unmet | `docs/guide.md` | - | not reviewed: C1 is not met |" in table_rows(
        project.text()
    )
    assert not marker.exists()
    assert project.text().startswith(before.split("\n## Iterations")[0])


def test_a_review_counts_only_at_the_iteration_it_was_recorded(project: Project) -> None:
    project.write(Doc(rows=REVIEW_ROWS, plan=(*PLAN_HEADER, "| 1 | all | x | C1 R1 | - |")))
    project.file("docs/guide.md", GUIDE)
    review = ("review", GOAL, "R1", "--artifact", "docs/guide.md", "--quote", QUOTE)
    assert project.run(*review, "--verdict", "met").returncode == 0
    assert project.run("plan", GOAL).returncode == 0  # iteration 2 begins

    done = project.run("verify", GOAL)

    assert summary(done) == "verify-goal demo iteration 2: C1 met, R1 unmet; status: active"
    assert (
        "| R1 | unmet | `docs/guide.md` | - | not reviewed: no review recorded for iteration 2 |"
        in table_rows(project.text())
    )


def test_the_latest_review_at_the_iteration_decides(project: Project) -> None:
    project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    review = ("review", GOAL, "R1", "--artifact", "docs/guide.md")
    assert project.run(*review, "--quote", QUOTE, "--verdict", "met").returncode == 0
    second = project.run(*review, "--verdict", "unmet", "--reason", "expiry is not explained")
    assert second.returncode == 0, second.stderr
    assert review_entry(1, "unmet", "", "expiry is not explained") in project.text()

    done = project.run("verify", GOAL)

    assert summary(done) == "verify-goal demo iteration 1: C1 met, R1 unmet; status: active"
    assert (
        "| R1 | unmet | `docs/guide.md` | - | review: unmet: expiry is not explained |"
        in table_rows(project.text())
    )


# =========================================================================================
# the judge
# =========================================================================================

GOOD_REPLY = json.dumps(
    {"verdict": "met", "quote": "token is rotated on every use", "reason": "rotation is explained"}
)


def judged_entry(before: str, r1: str, status: str, judge: str) -> str:
    return verify_entry(
        1,
        [vrow("C1", "met", "true", "0", "(no output)"), r1],
        status,
        contract=contract_of(before),
        judge=judge,
    )


def judge_error_text(before: str, reason: str, judge: str) -> str:
    """The file after a verify whose judge failed: R1 `error`, the goal blocked by it."""
    evidence = f"judge error: {reason}"
    return edited(
        before,
        replace={status_line("active"): status_line("blocked")},
        add=["blocker: " + json.dumps(f"R1 error: {evidence}", ensure_ascii=False)],
        entries=[
            judged_entry(
                before, vrow("R1", "error", "docs/guide.md", "-", evidence), "blocked", judge
            )
        ],
    )


@pytest.mark.parametrize("via", ["option", "environment"])
def test_judge_good_reply_meets_the_row_with_its_quote_as_evidence(
    project: Project, via: str
) -> None:
    before = project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    judge, packet = replying_judge(project, GOOD_REPLY)

    if via == "option":
        done = project.run("verify", GOAL, "--judge", judge)
    else:
        done = project.run("verify", GOAL, env={"GOALFILE_JUDGE": judge})

    assert done.returncode == 0, done.stderr
    assert summary(done) == "verify-goal demo iteration 1: C1 met, R1 met; status: met"
    r1 = vrow("R1", "met", "docs/guide.md", "-", "judge: `token is rotated on every use`")
    assert project.text() == edited(
        before,
        replace={status_line("active"): status_line("met")},
        entries=[judged_entry(before, r1, "met", judge)],
    )
    sent = json.loads(packet.read_text(encoding="utf-8"))
    assert sent["schema_version"] == 1
    assert sent["goal"]["end_state"] == "the refresh flow works"
    assert sent["goal"]["non_goals"] == ["`tests/fixtures/` stays unchanged."]
    assert sent["criterion"] == {
        "id": "R1",
        "criterion": "criterion of R1",
        "expected": "explains how the refresh token is rotated",
    }
    assert sent["artifact"]["path"] == "docs/guide.md"
    assert sent["artifact"]["text"] == GUIDE
    assert sent["artifact"]["truncated"] is False
    assert sent["deterministic_results"] == [
        {"id": "C1", "verdict": "met", "exit": "0", "evidence": "(no output)"}
    ]


def test_judge_option_wins_over_the_environment(project: Project) -> None:
    project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    good, _ = replying_judge(project, GOOD_REPLY, "good")
    bad, _ = replying_judge(project, "not json", "bad")
    done = project.run("verify", GOAL, "--judge", good, env={"GOALFILE_JUDGE": bad})
    assert summary(done) == "verify-goal demo iteration 1: C1 met, R1 met; status: met"


def test_judge_unmet_reply_leaves_the_goal_active(project: Project) -> None:
    before = project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    reply = json.dumps({"verdict": "unmet", "quote": "", "reason": "expiry is not explained"})
    judge, _ = replying_judge(project, reply)

    done = project.run("verify", GOAL, "--judge", judge)

    assert done.returncode == 1
    r1 = vrow("R1", "unmet", "docs/guide.md", "-", "judge: unmet: expiry is not explained")
    assert project.text() == edited(before, entries=[judged_entry(before, r1, "active", judge)])


JUDGE_ERRORS = {  # every reply rule is covered in test_review_judge.py; these go end to end
    "malformed JSON": ("verdict: met", "the judge's reply is not JSON: Expecting value at char 0"),
    "extra field": (
        json.dumps({"verdict": "met", "quote": "token", "reason": "ok", "confidence": 0.9}),
        "the judge's reply has unknown field: confidence",
    ),
    "empty reason": (
        json.dumps({"verdict": "unmet", "quote": "", "reason": "   "}),
        "the judge's reason is empty",
    ),
    "fabricated quote": (
        json.dumps({"verdict": "met", "quote": "tokens never expire", "reason": "ok"}),
        "the judge's quote does not occur in the artifact",
    ),
}


@pytest.mark.parametrize("case", list(JUDGE_ERRORS))
def test_judge_bad_reply_makes_the_row_error_and_the_goal_blocked(
    project: Project, case: str
) -> None:
    reply, reason = JUDGE_ERRORS[case]
    before = project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    judge, _ = replying_judge(project, reply)

    done = project.run("verify", GOAL, "--judge", judge)

    assert done.returncode == 4, done.stderr
    assert summary(done) == "verify-goal demo iteration 1: C1 met, R1 error; status: blocked"
    after = project.text()
    r1 = re.search(
        r"(?m)^\| R1 +\| error +\| `docs/guide.md` +\| - +\| judge error: (.*?) *\|$", after
    )
    assert r1 is not None, after
    assert r1.group(1) == reason
    assert after == judge_error_text(before, reason, judge)


@pytest.mark.parametrize("case", ["crash", "signal", "timeout"])
def test_judge_that_fails_makes_the_row_error_with_the_exact_reason(
    project: Project, case: str
) -> None:
    before = project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    judge, reason = {
        "crash": (
            judge_script(project, "crash", "echo 'model unavailable' >&2\nexit 1\n"),
            "the judge exited 1: model unavailable",
        ),
        "signal": ("kill -KILL $$", "the judge was killed by signal 9"),
        "timeout": (
            judge_script(project, "slow", f"sleep 30\necho '{GOOD_REPLY}'\n"),
            "the judge timed out after 1s",
        ),
    }[case]

    started = time.monotonic()
    done = project.run("verify", GOAL, "--judge", judge, "--judge-timeout", "1")

    assert time.monotonic() - started < 20
    assert done.returncode == 4, done.stderr
    assert summary(done) == "verify-goal demo iteration 1: C1 met, R1 error; status: blocked"
    assert project.text() == judge_error_text(before, reason, judge)


def test_judge_reply_longer_than_the_limit_is_an_error(project: Project) -> None:
    before = project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    judge = judge_script(
        project, "chatty", "cat >/dev/null\nhead -c 1000001 /dev/zero | tr '\\0' ' '\n"
    )

    done = project.run("verify", GOAL, "--judge", judge)

    assert done.returncode == 4, done.stderr
    assert project.text() == judge_error_text(
        before, "the judge's reply is longer than 1000000 bytes", judge
    )


def test_judge_is_not_run_while_a_deterministic_row_is_in_error(project: Project) -> None:
    project.write(Doc(rows=(crit("C1", "no-such-command-for-goalfile", "exit 0"), review_crit())))
    project.file("docs/guide.md", GUIDE)
    judge, packet = replying_judge(project, GOOD_REPLY)

    done = project.run("verify", GOAL, "--judge", judge)

    assert done.returncode == 4
    assert summary(done) == "verify-goal demo iteration 1: C1 error, R1 unmet; status: blocked"
    assert "| R1 | unmet | `docs/guide.md` | - | not reviewed: C1 is in error |" in table_rows(
        project.text()
    )
    assert not packet.exists()


def test_judge_is_not_given_an_artifact_outside_the_tree(project: Project) -> None:
    outside = project.root.parent / "secret.md"
    outside.write_text("token is rotated on every use\n", encoding="utf-8")
    (project.root / "docs").mkdir()
    (project.root / "docs" / "link.md").symlink_to(outside)
    project.write(Doc(rows=(crit("C1", "true", "exit 0"), review_crit("R1", "docs/link.md"))))
    judge, packet = replying_judge(project, GOOD_REPLY)

    done = project.run("verify", GOAL, "--judge", judge)

    assert done.returncode == 4
    assert summary(done) == "verify-goal demo iteration 1: C1 met, R1 error; status: blocked"
    assert not packet.exists()
    assert re.search(
        r"(?m)^\| R1 +\| error +\| `docs/link.md` +\| - +\| judge not run: artifact "
        r"docs/link.md is outside the goal's working tree .* \|$",
        project.text(),
    )


def test_judge_quote_spanning_lines_is_recorded_as_found_in_the_artifact(
    project: Project,
) -> None:
    """The judge's quote is the row's evidence: it must read back as a passage of the artifact
    (whitespace aside), not with the words on either side of a line break run together."""
    project.write(Doc(rows=REVIEW_ROWS))
    project.file("docs/guide.md", GUIDE)
    reply = json.dumps({"verdict": "met", "quote": "The refresh\ntoken", "reason": "ok"})
    judge, _ = replying_judge(project, reply)

    done = project.run("verify", GOAL, "--judge", judge)

    assert summary(done) == "verify-goal demo iteration 1: C1 met, R1 met; status: met"
    found = re.search(
        r"(?m)^\| R1 +\| met +\| `docs/guide.md` +\| - +\| judge: `(.*)` *\|$", project.text()
    )
    assert found is not None
    assert " ".join(found.group(1).split()) in " ".join(GUIDE.split())


# =========================================================================================
# refine
# =========================================================================================


def test_refine_refuses_without_a_verify_entry(project: Project) -> None:
    project.write(
        Doc(entries=(entry(1, "plan", "plan revision 1 (0123456789ab): 1 step(s), sound"),))
    )
    stderr = project.refused("refine", GOAL)
    assert "there is no verify entry to refine from" in stderr


@pytest.mark.parametrize("status", ["draft", "paused", "blocked", "exhausted"])
def test_refine_refuses_unless_active_or_met(project: Project, status: str) -> None:
    row = vrow("C1", "unmet", "false", "1", "(no output)")
    project.write(Doc(status=status, entries=(verify_entry(1, [row], status, contract="0" * 12),)))
    stderr = project.refused("refine", GOAL)
    assert f"the goal is {status}" in stderr


def test_refine_lists_one_backlog_item_per_unmet_row_and_never_touches_the_criteria(
    project: Project,
) -> None:
    rows = (
        crit("C1", "true", "exit 0"),
        crit("C2", "echo 'ran 3 tests: 2 failures'", 'exit 0; stdout contains "passed"'),
        crit("C3", "exit 4", "exit 0"),
        review_crit(),
    )
    project.write(Doc(rows=rows))
    assert project.run("verify", GOAL).returncode == 1
    verified = project.text()
    criteria = verified[verified.index("## Acceptance criteria") : verified.index("## Plan")]

    done = project.run("refine", GOAL)

    assert done.returncode == 0, done.stderr
    items = [
        "- [ ] C2 unmet (exit 0): `ran 3 tests: 2 failures`",
        "- [ ] C3 unmet (exit 4): exit 0 expected, got 4 (no output)",
        "- [ ] R1 unmet: not reviewed: C2, C3 are not met",
    ]
    assert done.stdout == "".join(
        [f"{GOAL}: backlog from verify iteration 1:\n", *(f"  {i}\n" for i in items)]
    )
    after = project.text()
    assert after == edited(
        verified,
        entries=[
            entry(1, "refine-goal", "backlog from verify iteration 1:", "", *items, *REFINE_TAIL)
        ],
    )
    assert after[after.index("## Acceptance criteria") : after.index("## Plan")] == criteria


def test_refine_on_a_met_goal_is_refused_and_names_the_ways_on(project: Project) -> None:
    project.write(Doc())
    assert project.run("verify", GOAL).returncode == 0
    verified = project.text()

    done = project.run("refine", GOAL)

    assert done.returncode == 3, done.stderr
    assert project.text() == verified
    assert "every row of verify iteration 1 was met: there is no backlog to write" in done.stderr
    assert f"`goalfile refine {GOAL} --lesson TEXT`" in done.stderr
    assert f"`goalfile reopen {GOAL} --reason TEXT`" in done.stderr
    # both commands work as written: the lesson is recorded, then the goal is reopened
    taught = project.run("refine", GOAL, "--lesson", "TEXT")
    assert taught.returncode == 0, taught.stderr
    assert project.run("reopen", GOAL, "--reason", "TEXT").returncode == 0


def test_refine_on_a_met_goal_with_a_lesson_records_it(project: Project) -> None:
    project.write(Doc())
    assert project.run("verify", GOAL).returncode == 0
    verified = project.text()

    done = project.run("refine", GOAL, "--json", "--lesson", "keep C1 cheap")

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "schema_version": 1,
        "path": GOAL,
        "iteration": 1,
        "from_verify_iteration": 1,
        "backlog": [],
    }
    written = project.text()
    assert written.startswith(verified[: verified.index("\n## Lessons")])
    tail = (
        "backlog from verify iteration 1:\n\n- (nothing: every row was met)\n\n"
        "criteria changes: none (a change to a criterion needs "
        "`goalfile activate --reapprove PATH --reason TEXT`)\nlesson: keep C1 cheap\n"
    )
    assert "### Iteration 1 (" in written and tail in written
    assert written.rstrip().endswith("- keep C1 cheap")


# =========================================================================================
# stall detection
# =========================================================================================

STATE_ROW = crit("C1", "cat state.txt", 'exit 0; stdout contains "done"')


def test_three_identical_verify_runs_block_the_goal(project: Project) -> None:
    project.write(Doc(rows=(STATE_ROW,)))
    project.file("state.txt", "still todo\n")
    codes = []
    for _ in range(2):
        done = project.run("verify", GOAL)
        codes.append(done.returncode)
        assert summary(done) == "verify-goal demo iteration 1: C1 unmet; status: active"
    assert codes == [1, 1]
    second = project.text()
    last = second[second.rindex("### Iteration") : second.index("\n\n## Lessons")]
    assert "\nstatus: active\n" in last

    third = project.run("verify", GOAL)

    assert third.returncode == 4, third.stderr
    assert summary(third) == (
        "verify-goal demo iteration 1: C1 unmet; status: blocked (no progress in 3 verify runs)"
    )
    assert project.text() == edited(
        second,
        replace={status_line("active"): status_line("blocked")},
        add=["blocker: no progress in 3 verify runs"],
        entries=[
            last.replace("\nstatus: active\n", "\nstatus: blocked (no progress in 3 verify runs)\n")
        ],
    )


def test_a_changed_result_in_between_resets_the_stall_count(project: Project) -> None:
    project.write(Doc(rows=(STATE_ROW,)))
    codes = []
    for state in ["todo", "todo", "half way", "half way"]:
        project.file("state.txt", state + "\n")
        codes.append(project.run("verify", GOAL).returncode)
    assert codes == [1, 1, 1, 1]
    assert status_line("active") in project.text()

    done = project.run("verify", GOAL)  # the third "half way" in a row

    assert done.returncode == 4
    assert summary(done).endswith("status: blocked (no progress in 3 verify runs)")


def test_stall_limit_in_the_frontmatter_is_honoured(project: Project) -> None:
    project.write(Doc(rows=(STATE_ROW,), extra=("stall_limit: 2",)))
    project.file("state.txt", "todo\n")
    assert project.run("verify", GOAL).returncode == 1

    done = project.run("verify", GOAL)

    assert done.returncode == 4
    assert summary(done) == (
        "verify-goal demo iteration 1: C1 unmet; status: blocked (no progress in 2 verify runs)"
    )
    assert "\nblocker: no progress in 2 verify runs\n---\n" in project.text()


# =========================================================================================
# block, resume, pause
# =========================================================================================

HARD_REASON = 'the staging API "v2" is down: # since Monday'


def test_block_records_reason_and_workarounds_and_resume_removes_the_blocker(
    project: Project,
) -> None:
    before = project.write(Doc())

    done = project.run(
        "block", GOAL, "--reason", HARD_REASON, "--tried", "retried  twice", "--tried", "a mirror"
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{GOAL}: blocked\n"
    blocked = edited(
        before,
        replace={status_line("active"): status_line("blocked")},
        add=['blocker: "the staging API \\"v2\\" is down: # since Monday"'],
        entries=[
            entry(
                1,
                "block",
                f"blocker: {HARD_REASON}",
                "tried:",
                "",
                "- retried twice",
                "- a mirror",
                "",
                "status: blocked",
            )
        ],
    )
    assert project.text() == blocked
    state = json.loads(project.run("status", GOAL, "--json").stdout)
    assert state["goals"][0]["blocker"] == HARD_REASON

    project.refused("verify", GOAL)
    project.refused("resume", GOAL, code=2)  # a blocked goal needs --resolved
    project.refused("resume", GOAL, "--resolved", "   ", code=2)

    resumed = project.run("resume", GOAL, "--resolved", "staging is back")

    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == f"{GOAL}: active\n"
    assert project.text() == edited(
        blocked,
        replace={status_line("blocked"): status_line("active")},
        remove=['blocker: "the staging API \\"v2\\" is down: # since Monday"'],
        entries=[
            entry(
                1,
                "resume",
                f"blocker was: {HARD_REASON}",
                "resolved: staging is back",
                "",
                "status: active",
            )
        ],
    )


def test_an_entry_creates_a_missing_iterations_section_before_the_lessons(
    project: Project,
) -> None:
    before = project.write(Doc().render().replace("## Iterations\n\n", ""))
    assert "## Iterations" not in before

    done = project.run("pause", GOAL)

    assert done.returncode == 0, done.stderr
    assert project.text() == before.replace(status_line("active"), status_line("paused")).replace(
        "\n## Lessons",
        f"\n## Iterations\n\n{entry(1, 'pause', 'paused', '', 'status: paused')}\n\n## Lessons",
    )


@pytest.mark.parametrize(
    "args",
    [
        ("--tried", "x"),
        ("--reason", "", "--tried", "x"),
        ("--reason", " \n ", "--tried", "x"),
        ("--reason", "r" * 4001, "--tried", "x"),
        ("--reason", "down"),
        ("--reason", "down", "--tried", "  "),
        ("--reason", "down", *[a for i in range(51) for a in ("--tried", f"way {i}")]),
    ],
    ids=[
        "no-reason",
        "empty-reason",
        "blank-reason",
        "reason-4001",
        "no-tried",
        "blank-tried",
        "51-tried",
    ],
)
def test_block_usage_errors_exit_2_and_leave_the_file(
    project: Project, args: tuple[str, ...]
) -> None:
    project.write(Doc())
    project.refused("block", GOAL, *args, code=2)


def test_block_accepts_the_limits(project: Project) -> None:
    before = project.write(Doc())
    tried = [f"way {i}" for i in range(50)]
    reason = "r" * 4000
    done = project.run(
        "block", GOAL, "--reason", reason, *[a for t in tried for a in ("--tried", t)]
    )
    assert done.returncode == 0, done.stderr
    assert project.text() == edited(
        before,
        replace={status_line("active"): status_line("blocked")},
        add=[f"blocker: {reason}"],
        entries=[
            entry(
                1, "block", f"blocker: {reason}", "tried:", "", *(f"- {t}" for t in tried), "",
                "status: blocked",
            )
        ],
    )  # fmt: skip


@pytest.mark.parametrize("status", ["met", "blocked"])
def test_block_refuses_unless_active_or_paused(project: Project, status: str) -> None:
    project.write(Doc(status=status))
    project.refused("block", GOAL, "--reason", "down", "--tried", "retry")


def test_pause_and_resume(project: Project) -> None:
    before = project.write(Doc())

    done = project.run("pause", GOAL, "--reason", "waiting for  the design review")

    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{GOAL}: paused\n"
    paused = edited(
        before,
        replace={status_line("active"): status_line("paused")},
        entries=[entry(1, "pause", "paused: waiting for the design review", "", "status: paused")],
    )
    assert project.text() == paused
    project.refused("verify", GOAL)
    project.refused("pause", GOAL)

    resumed = project.run("resume", GOAL)

    assert resumed.returncode == 0, resumed.stderr
    assert project.text() == edited(
        paused,
        replace={status_line("paused"): status_line("active")},
        entries=[entry(1, "resume", "resumed after pause", "", "status: active")],
    )
    project.refused("resume", GOAL)  # active: nothing to resume


@pytest.mark.parametrize("status", ["draft", "met", "exhausted"])
def test_resume_and_pause_refuse_other_statuses(project: Project, status: str) -> None:
    project.write(Doc(status=status))
    assert "resume needs it paused or blocked" in project.refused(
        "resume", GOAL, "--resolved", "fixed"
    )
    assert "pause needs it active" in project.refused("pause", GOAL)


def test_a_paused_goal_can_be_blocked(project: Project) -> None:
    before = project.write(Doc(status="paused"))
    done = project.run("block", GOAL, "--reason", "down", "--tried", "retry")
    assert done.returncode == 0, done.stderr
    assert project.text() == edited(
        before,
        replace={status_line("paused"): status_line("blocked")},
        add=["blocker: down"],
        entries=[
            entry(1, "block", "blocker: down", "tried:", "", "- retry", "", "status: blocked")
        ],
    )


# =========================================================================================
# impossible
# =========================================================================================

IMPOSSIBLE_REASON = "needs a GPU: CI has none"


def test_impossible_row_is_not_run_and_a_goal_otherwise_met_is_blocked(project: Project) -> None:
    rows = (
        crit("C1", "true", "exit 0"),
        crit("C2", "echo passed", 'exit 0; stdout contains "passed"'),
        crit("C3", "touch ran.txt", "exit 0"),
    )
    before = project.write(Doc(rows=rows))

    done = project.run("impossible", GOAL, "C3", "--reason", IMPOSSIBLE_REASON)

    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{GOAL}: C3 marked impossible\n"
    marked = edited(
        before,
        add=["impossible:", f'  C3: "{IMPOSSIBLE_REASON}"'],
        entries=[
            entry(
                1,
                "impossible",
                f"C3 marked impossible: {IMPOSSIBLE_REASON}",
                "the goal can no longer become met",
            )
        ],
    )
    assert project.text() == marked

    verified = project.run("verify", GOAL)

    assert verified.returncode == 4, verified.stderr
    why = f"not completable: C3 marked impossible: {IMPOSSIBLE_REASON}"
    assert summary(verified) == (
        "verify-goal demo iteration 1: C1 met, C2 met, C3 impossible; status: blocked "
        "(not completable: C3 marked impossible)"
    )
    assert not (project.root / "ran.txt").exists()
    assert project.text() == edited(
        marked,
        replace={status_line("active"): status_line("blocked")},
        add=[f'blocker: "{why}"'],
        entries=[
            verify_entry(
                1,
                [
                    vrow("C1", "met", "true", "0", "(no output)"),
                    vrow("C2", "met", "echo passed", "0", "`passed`"),
                    vrow(
                        "C3",
                        "impossible",
                        "touch ran.txt",
                        "-",
                        f"marked impossible: {IMPOSSIBLE_REASON}",
                    ),
                ],
                f"blocked ({why})",
                contract=contract_of(before),
            )
        ],
    )


def test_impossible_row_with_other_rows_unmet_keeps_the_goal_active(project: Project) -> None:
    rows = (crit("C1", "exit 1", "exit 0"), crit("C3", "touch ran.txt", "exit 0"))
    project.write(Doc(rows=rows))
    assert project.run("impossible", GOAL, "C3", "--reason", "no GPU").returncode == 0

    done = project.run("verify", GOAL)

    assert done.returncode == 1
    assert summary(done) == "verify-goal demo iteration 1: C1 unmet, C3 impossible; status: active"
    assert not (project.root / "ran.txt").exists()
    assert "| C3 | impossible | `touch ran.txt` | - | marked impossible: no GPU |" in table_rows(
        project.text()
    )


def test_impossible_refusals(project: Project) -> None:
    project.write(Doc(rows=(crit("C1", "true", "exit 0"), crit("C2", "true", "exit 0"))))
    assert "no criterion C9" in project.refused("impossible", GOAL, "C9", "--reason", "x")
    project.refused("impossible", GOAL, "C1", "--reason", "  ", code=2)
    project.refused("impossible", GOAL, "C1", "--reason", "r" * 4001, code=2)
    assert project.run("impossible", GOAL, "C1", "--reason", "no GPU").returncode == 0
    assert "marked impossible already" in project.refused(
        "impossible", GOAL, "C1", "--reason", "again"
    )
    project.write(Doc(status="met"))
    project.refused("impossible", GOAL, "C1", "--reason", "no GPU")


# =========================================================================================
# budget
# =========================================================================================


def test_budget_raise_reopens_an_exhausted_goal(project: Project) -> None:
    before = project.write(Doc(status="exhausted", iterations=5, iterations_used=5))

    done = project.run("budget", GOAL, "--iterations", "7")

    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"{GOAL}: budget.iterations: 5 → 7\n{GOAL}: reopened: the new limits leave room\n"
    )
    assert project.text() == edited(
        before,
        replace={
            status_line("exhausted"): status_line("active"),
            budget_line("iterations", 5): budget_line("iterations", 7),
        },
        entries=[
            entry(
                5,
                "budget",
                "budget.iterations: 5 → 7",
                "reopened: the new limits leave room",
                "",
                "status: active",
            )
        ],
    )
    # usable again: an empty plan is refused and uses nothing, a plan with a step is judged
    project.refused("plan", GOAL)
    one_step = "\n".join(["## Plan", *PLAN_HEADER, "| 1 | do it | x.py | C1 | - |", ""])
    project.write(project.text().replace("## Plan\n", one_step, 1))
    assert project.run("plan", GOAL).returncode == 0
    assert "iterations_used: 6\n" in project.text()


def test_budget_raise_that_leaves_no_room_keeps_the_goal_exhausted(project: Project) -> None:
    before = project.write(
        Doc(status="exhausted", iterations=5, iterations_used=2, tokens=1000, tokens_used=1500)
    )

    done = project.run("budget", GOAL, "--iterations", "9")

    assert done.returncode in (0, 5), done.stderr
    assert "stays exhausted" in done.stderr
    # the raise that leaves room after the 1500 tokens used (it said none)
    assert f"  fix: `goalfile budget {GOAL} --tokens 3000`" in done.stderr, done.stderr
    assert project.text() == edited(
        before,
        replace={budget_line("iterations", 5): budget_line("iterations", 9)},
        entries=[entry(2, "budget", "budget.iterations: 5 → 9")],
    )

    reopened = project.run("budget", GOAL, "--tokens", "2000")

    assert reopened.returncode == 0, reopened.stderr
    assert status_line("active") in project.text()
    assert (
        entry(2, "budget", "budget.tokens: 1000 → 2000", "reopened: the new limits leave room")
        in project.text()
    )


def test_budget_raise_on_an_active_goal_records_old_and_new(project: Project) -> None:
    before = project.write(Doc(iterations=5, tokens=1000))
    done = project.run("budget", GOAL, "--iterations", "8", "--tokens", "5000", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "schema_version": 1,
        "path": GOAL,
        "command": "budget",
        "status": "active",
        "notes": ["budget.iterations: 5 → 8", "budget.tokens: 1000 → 5000"],
    }
    assert project.text() == edited(
        before,
        replace={
            budget_line("iterations", 5): budget_line("iterations", 8),
            budget_line("tokens", 1000): budget_line("tokens", 5000),
        },
        entries=[entry(1, "budget", "budget.iterations: 5 → 8", "budget.tokens: 1000 → 5000")],
    )


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("--iterations", "4"), 3, "--iterations 4 does not raise the limit of 5"),
        (("--iterations", "5"), 3, "--iterations 5 does not raise the limit of 5"),
        (("--tokens", "1000"), 3, "the tokens budget is unbounded already"),
        (("--iterations", "9", "--tokens", "1000"), 3, "the tokens budget is unbounded already"),
        ((), 2, "give --iterations N and/or --tokens N"),
        (("--iterations", "0"), 2, ""),
        (("--iterations", "many"), 2, ""),
    ],
    ids=["lower", "equal", "limit-unbounded", "partly-refused", "nothing", "zero", "not-a-number"],
)
def test_budget_refusals(project: Project, args: tuple[str, ...], code: int, message: str) -> None:
    project.write(Doc(status="exhausted", iterations=5, iterations_used=5))
    stderr = project.refused("budget", GOAL, *args, code=code)
    assert message in stderr


# =========================================================================================
# line endings and frontmatter values
# =========================================================================================


def test_commands_keep_crlf_line_endings_and_change_nothing_else(project: Project) -> None:
    """The same commands on an LF file and on its CRLF twin give the same text, line ending
    aside."""
    rows = (crit("C1", "true", "exit 0"), crit("C2", "exit 1", "exit 0"), review_crit())
    commands = [
        ("plan", GOAL),
        ("review", GOAL, "R1", "--artifact", "docs/guide.md", "--quote", QUOTE, "--verdict", "met"),
        ("verify", GOAL),
        ("refine", GOAL, "--lesson", "C2: exit 1 is the GPU probe"),
        ("impossible", GOAL, "C2", "--reason", "no GPU: none"),
        ("verify", GOAL),
        ("resume", GOAL, "--resolved", "accepted"),
        ("budget", GOAL, "--iterations", "9"),
    ]
    plan = (*PLAN_HEADER, "| 1 | all | x | C1 C2 R1 | - |")
    project.file("docs/guide.md", GUIDE)
    results = []
    for crlf in (False, True):
        text = Doc(rows=rows, plan=plan).render()
        project.goal.parent.mkdir(parents=True, exist_ok=True)
        project.goal.write_bytes((text.replace("\n", "\r\n") if crlf else text).encode())
        codes = [project.run(*command).returncode for command in commands]
        assert codes == [0, 0, 1, 0, 0, 4, 0, 0], crlf
        results.append(project.goal.read_bytes())
    lf, crlf_bytes = results
    assert b"\r" not in lf
    assert crlf_bytes == lf.replace(b"\n", b"\r\n")


TRICKY_REASONS = (
    "@alice has to approve",
    "- waiting",
    "blocked on:",
    "12:30",
    ".inf",
    "!important",
    "*everything* & more % done",
    'say "hi" # not a comment \\',
    "ünïcødé — ok",
)


def test_reasons_in_the_frontmatter_read_back_exactly(project: Project) -> None:
    """Reasons are written as frontmatter values; YAML must read each back as the same text."""
    ids = [f"C{i}" for i in range(1, len(TRICKY_REASONS) + 1)]
    project.write(
        Doc(rows=(*(crit(cid, "true", "exit 0") for cid in ids), crit("C0", "true", "exit 0")))
    )
    for cid, reason in zip(ids, TRICKY_REASONS, strict=True):
        done = project.run("impossible", GOAL, cid, "--reason", reason)
        assert done.returncode == 0, (reason, done.stderr)
    assert project.run("block", GOAL, "--reason", TRICKY_REASONS[0], "--tried", "x").returncode == 0

    done = project.run("status", GOAL, "--json")

    assert done.returncode == 0, done.stderr
    (state,) = json.loads(done.stdout)["goals"]
    assert state["impossible"] == dict(zip(ids, TRICKY_REASONS, strict=True))
    assert state["blocker"] == TRICKY_REASONS[0]


# =========================================================================================
# status
# =========================================================================================


# a row marked impossible: resuming alone leads nowhere, the goal can never become met
IMPOSSIBLE_NEXT = (
    "C2 marked impossible: the goal can never become met; a person decides what follows (a new "
    f"goal, or the `impossible:` mark deleted from the frontmatter, then `goalfile resume {GOAL} "
    "--resolved TEXT`)"
)


def test_status_shows_blocker_impossible_rows_stall_count_and_next_step(project: Project) -> None:
    project.write(Doc(rows=(STATE_ROW, crit("C2", "true", "exit 0"))))
    project.file("state.txt", "todo\n")
    assert project.run("impossible", GOAL, "C2", "--reason", "no GPU in CI").returncode == 0
    assert [project.run("verify", GOAL).returncode for _ in range(3)] == [1, 1, 4]

    text = project.run("status", GOAL)

    assert text.returncode == 0, text.stderr
    assert text.stdout == "\n".join(
        [
            f"demo: blocked  ({GOAL})",
            "  end state: the refresh flow works",
            "  iterations 1/5, tokens 0 (unbounded)",
            "  blocker: no progress in 3 verify runs",
            "  impossible: C2: no GPU in CI",
            f"  last verify: iteration 1 ({today()}); same result 3 times in a row",
            "  C1   unmet        criterion of C1",
            "  C2   impossible   criterion of C2",
            f"  next: {IMPOSSIBLE_NEXT}",
            "",
        ]
    )
    document = json.loads(project.run("status", GOAL, "--json").stdout)
    assert document["schema_version"] == 1
    (state,) = document["goals"]
    assert state["status"] == "blocked"
    assert state["blocker"] == "no progress in 3 verify runs"
    assert state["impossible"] == {"C2": "no GPU in CI"}
    assert state["stall_count"] == 3
    assert state["stall_limit"] == 3
    assert state["next_step"] == IMPOSSIBLE_NEXT
    assert [(c["id"], c["verdict"]) for c in state["criteria"]] == [
        ("C1", "unmet"),
        ("C2", "impossible"),
    ]


NEXT_STEPS = {
    "draft": "read it; once a person approves the contract, `goalfile activate {p}`",
    "active": "fill in the plan (a table under `## Plan`, one row per step), then "
    "`goalfile plan {p}`, do the work, then `goalfile verify {p}`",
    "paused": "`goalfile resume {p}`",
    "exhausted": "a person may raise the budget: `goalfile budget {p} --iterations 10`",
    "met": "done; CI can check it with `goalfile audit {p}`",
}


def test_status_next_step_follows_the_status(project: Project) -> None:
    paths = []
    for status in NEXT_STEPS:
        path = f"goals/{status}.md"
        (project.root / path).parent.mkdir(parents=True, exist_ok=True)
        (project.root / path).write_text(Doc(status=status).render(), encoding="utf-8")
        paths.append(path)

    done = project.run("status", *paths[:-1], "--json")  # "met" below: no verify backs it
    text = project.run("status", *paths[:-1]).stdout

    assert done.returncode == 0, done.stderr
    states = json.loads(done.stdout)["goals"]
    assert [s["status"] for s in states] == list(NEXT_STEPS)[:-1]
    for state, (status, step) in zip(states, list(NEXT_STEPS.items())[:-1], strict=True):
        path = f"goals/{status}.md"
        assert state["path"] == path
        assert state["next_step"] == step.format(p=path)
        assert (state["blocker"], state["impossible"], state["stall_count"]) == (None, {}, 0)
        assert f"  next: {step.format(p=path)}\n" in text
    refused = project.run("status", paths[-1])  # a `met` no verify entry backs is an error
    assert refused.returncode == 3
    assert "only `goalfile verify` writes `met`" in refused.stdout + refused.stderr


def test_status_next_step_after_a_verify_is_refine(project: Project) -> None:
    project.write(Doc(rows=(crit("C1", "exit 1", "exit 0"),)))
    assert project.run("verify", GOAL).returncode == 1
    out = project.run("status", GOAL).stdout
    assert (
        f"  next: `goalfile refine {GOAL}`, work the backlog, then `goalfile verify {GOAL}`\n"
        in out
    )
    assert "same result 1 time in a row" in out


# =========================================================================================
# a goal driven through its life with commands alone
# =========================================================================================


def statuses(text: str) -> list[tuple[str, str | None]]:
    """(by, status written by the entry) for every ledger entry, oldest first."""
    found = []
    for block in re.split(r"(?m)^(?=### Iteration )", text.split("\n## Iterations\n", 1)[1]):
        head = re.match(r"### Iteration \d+ \(\d{4}-\d\d-\d\d\) by (\S+)", block)
        if head is None:
            continue
        status = re.search(r"(?m)^status: ([a-z]+)", block)
        found.append((head.group(1), status.group(1) if status else None))
    return found


def frontmatter_status(text: str) -> str:
    found = re.search(r"(?m)^status: ([a-z]+)", text)
    assert found is not None
    return found.group(1)


def test_a_goal_is_driven_from_draft_to_met_blocked_and_exhausted_by_commands(
    project: Project,
) -> None:
    def step(*args: str, code: int, status: str) -> None:
        count = len(ledger_headings(project.text())) if project.goal.exists() else 0
        done = project.run(*args)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        text = project.text()
        assert frontmatter_status(text) == status, args
        assert len(ledger_headings(text)) == count + 1, args  # every step leaves an entry

    created = project.run(
        "new",
        "demo",
        "--end-state",
        "the flag file exists",
        "--non-goal",
        "nothing outside the flag changes",
        "--criterion",
        "the flag exists",
        "--check",
        "test -f flag",
        "--expected",
        "exit 0",
        "--iterations",
        "2",
    )
    assert created.returncode == 0, created.stderr
    draft = project.text()
    assert frontmatter_status(draft) == "draft"
    # the agent's work: a plan row (the plan is not part of the contract)
    project.write(
        draft.replace(
            "|------|--------|-------|--------|-------|\n",
            "|------|--------|-------|--------|-------|\n| 1 | create flag | flag | C1 | - |\n",
        )
    )

    step("activate", GOAL, code=0, status="active")
    step("plan", GOAL, code=0, status="active")
    step("verify", GOAL, code=1, status="active")
    step("refine", GOAL, code=0, status="active")
    step("block", GOAL, "--reason", "disk full", "--tried", "cleaned tmp", code=0, status="blocked")
    step("resume", GOAL, "--resolved", "disk replaced", code=0, status="active")
    step("pause", GOAL, code=0, status="paused")
    step("resume", GOAL, code=0, status="active")
    step("plan", GOAL, code=0, status="active")
    step("plan", GOAL, code=5, status="exhausted")
    step("budget", GOAL, "--iterations", "3", code=0, status="active")
    step("plan", GOAL, code=0, status="active")
    (project.root / "flag").write_text("", encoding="utf-8")
    step("verify", GOAL, code=0, status="met")

    text = project.text()
    assert statuses(text) == [
        ("activate", "active"),
        ("plan", None),
        ("verify-goal", "active"),
        ("refine-goal", None),
        ("block", "blocked"),
        ("resume", "active"),
        ("pause", "paused"),
        ("resume", "active"),
        ("plan", None),
        ("plan", "exhausted"),
        ("budget", "active"),
        ("plan", None),
        ("verify-goal", "met"),
    ]
    assert [n for n, _ in ledger_headings(text)] == [0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3]
    assert "iterations_used: 3\n" in text
    assert "blocker" not in text.split("\n---\n", 1)[0]
