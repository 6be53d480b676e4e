"""A ledger that the real mdformat rewrote, again and again, between the real `goalfile verify`
runs that grew it, reads the same in every goalfile command as in a fresh read, and as its
entries say.

goalfile carries its ledger index across its own edits (`ledger.spliced`): the index of an
edited text is made from the old text's index and the lines the edit touched. The properties in
tests/test_ledger_index.py prove that equal to a full re-read on texts goalfile and hypothesis
build. Here the texts are what mdformat (with mdformat-gfm and mdformat-frontmatter, as a
pre-commit hook runs it) made of a goal file after many verify runs whose checks print
multi-line output (fenced excerpts holding fences, headings, table rows and status lines).
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import mdformat  # the formatter itself: a missing test dependency fails loudly
import mdformat_frontmatter  # noqa: F401
import mdformat_gfm  # noqa: F401
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalfile import edit, handedit, ledger, parse
from goalfile.errors import GoalfileError
from goalfile.model import Status, Verdict
from tests.conftest import DATA, REPO, git, run_goalfile
from tests.test_ledger_index import read_edited, read_whole

# The tests of the module fixture `formatted_texts` (files the real goalfile grew and mdformat
# rewrote) run in one process under `pytest -n`, which builds it once.
pytestmark = pytest.mark.xdist_group("mdformat_ledger")

GOAL = "goals/demo.md"
STEPS = 20
FORMAT_AT = frozenset({1, 2, 5, 9, 13, 17})  # mdformat runs after these verify runs
PLAN_AT = frozenset(range(4, STEPS, 4))  # `goalfile plan` opens an iteration before these

# C1 prints lines that look like the ledger's own (fences of both kinds, an entry heading, a
# section heading, a status line, a table row) and a last line that names the run
C1 = r"""n=$(cat state/n)
printf '%s\n' 'first line | with a pipe' '```' '~~~~' 'status: met' \
  '### Iteration 99 (2026-01-01) by verify-goal' '## Lessons' '| C1 | met | `true` | 0 | ok |' \
  '    indented `one` ``two`` ```three```' '*not emphasis* _nor this_ [a](b) <b>tag</b> \'
test -f state/c1 && { echo "run $n: c1 passed"; exit 0; }
echo "run $n: c1 failed | \`$n\` * _x_" >&2
exit 1
"""
# C2 alternates between met and unmet; its output is long (more lines than an excerpt keeps)
C2 = r"""n=$(cat state/n)
i=0
while [ $i -lt 25 ]; do echo "c2 line $i of run $n"; i=$((i+1)); done
[ $((n % 2)) -eq 0 ] && { echo "c2 ok $n"; exit 0; }
echo "c2 not ok $n"
exit 3
"""


@dataclass(frozen=True)
class Read:
    """What the entries of the ledger say, read by this test's own plain reader."""

    iterations: list[int]  # every entry's iteration number, oldest first
    by: list[str]
    verify_rows: dict[str, str]  # the newest verify entry's verdicts
    verify_iteration: int
    verify_status: str
    status_lines: list[str]  # every entry's status line, oldest first ("" for none)


ENTRY = re.compile(r"### Iteration (\d+) \((\d{4}-\d\d-\d\d)(?:[ T][\d:]+)?\) by (\S+)")
FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def read_entries(text: str) -> Read:
    """The ledger's entries as their text says: headings, the newest verify table, the status
    lines, with every fenced block skipped (an excerpt is output, not an entry)."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip().lower() == "## iterations")
    entries: list[tuple[int, str, list[str]]] = []
    fence: str | None = None
    for line in lines[start + 1 :]:
        if fence is not None:
            closing = FENCE.fullmatch(line.rstrip())
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
                fence = None
            continue
        opened = FENCE.match(line)
        if opened:
            fence = opened.group(1)
            continue
        if line.startswith("## "):
            break
        heading = ENTRY.fullmatch(line.rstrip())
        if heading:
            entries.append((int(heading.group(1)), heading.group(3), []))
        elif entries:
            entries[-1][2].append(line)
    by = [e[1] for e in entries]
    verify = (
        [e for e in entries if e[1] == "verify-goal"][-1] if "verify-goal" in by else (-1, "", [])
    )
    rows = {}
    for line in verify[2]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and re.fullmatch(r"C\d", cells[0]):
            rows[cells[0]] = cells[1]

    def status(body: list[str]) -> str:
        found = [line for line in body if line.startswith("status: ")]
        return found[-1].removeprefix("status: ") if found else ""

    return Read(
        iterations=[e[0] for e in entries],
        by=[e[1] for e in entries],
        verify_rows=rows,
        verify_iteration=verify[0],
        verify_status=status(verify[2]),
        status_lines=[status(e[2]) for e in entries],
    )


def fresh(text: str) -> dict[str, object]:
    """goalfile's own reading of ``text`` from scratch: its caches emptied, a copy no edit
    made, so no index is carried over."""
    read_whole(text)  # empties the caches
    copy = (text + "x")[:-1]
    goal = parse.parse_goal(copy, path=GOAL)
    region = parse.ledger_region(copy)
    assert region is not None
    newest = ledger.newest(copy, *region, by=(ledger.VERIFY_BY,))
    assert newest is not None
    return {
        "status": goal.status.value,
        "iterations_used": goal.iterations_used,
        "backed": handedit.backed_iterations(goal),
        "verify": (newest.iteration, {r.id: r.verdict.value for r in newest.rows}),
        "verify_status": newest.status.value if newest.status else "",
        "heads": [(h.iteration, h.by) for h in ledger.heads(copy, *region)][::-1],
    }


def gf(repo: Path, *args: str, code: int) -> subprocess.CompletedProcess[str]:
    done = run_goalfile(*args, cwd=repo, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done


def run_mdformat(repo: Path) -> bool:
    """The real mdformat over the goal file; whether it changed it."""
    before = (repo / GOAL).read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "mdformat", GOAL], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return (repo / GOAL).read_bytes() != before


def new_goal(repo: Path) -> None:
    (repo / "state").mkdir()
    (repo / "state" / "n").write_text("0\n")
    (repo / "c1.sh").write_text(C1)
    (repo / "c2.sh").write_text(C2)
    gf(
        repo, "new", "demo", "--end-state", "the *checks* pass_through and `c1.sh` exits 0",
        "--criterion", "c1 *really* passes_ok [x] <b>", "--check", "sh c1.sh", "--expected",
        'exit 0; stdout contains "c1 passed"',
        "--criterion", "c2 | alternates", "--check", "sh c2.sh", "--expected", "exit 0",
        "--criterion", "echo\\ works", "--check", "echo ok", "--expected", 'exit 0; prints "ok"',
        "--non-goal", "`state/` is *only* written by the test_run", "--iterations", "100",
        code=0,
    )  # fmt: skip
    path = repo / GOAL
    text = path.read_text()
    rule = "|------|--------|-------|--------|-------|\n"
    assert rule in text, text
    path.write_text(text.replace(rule, rule + "| 1 | make c1 pass | c1.sh | C1, C2, C3 | - |\n"))
    gf(repo, "activate", GOAL, code=0)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")


def hand_notes(repo: Path, step: int) -> None:
    """What a person adds between runs, in a style mdformat rewrites: a note in the plan with
    runs of spaces and trailing blanks, a lesson in a `+` list."""
    path = repo / GOAL
    text = path.read_text()
    text = text.replace(
        "\n## Token accounting", f"\nNote   *{step}*:  step_1 + 2 \t\n\n## Token accounting"
    )
    path.write_text(text.rstrip("\n") + f"\n\n+ lesson {step}: __keep__ the `state/` folder\n")


def check_readings(
    repo: Path, *, iteration: int, verdicts: dict[str, str], status: str, full: bool
) -> None:
    """Every reading of the goal agrees: the CLI's (`status --json`; with ``full`` also
    `status`, `lint` and `audit --against HEAD`), a fresh in-process read, this test's own
    reading of the entries, and what the test did."""
    text = (repo / GOAL).read_text()
    said = read_entries(text)
    own = fresh(text)
    assert said.verify_rows == verdicts, said
    assert said.verify_iteration == iteration and said.verify_status == status
    assert own["verify"] == (iteration, verdicts) and own["verify_status"] == status
    assert own["heads"] == list(zip(said.iterations, said.by, strict=True))
    assert own["status"] == status and own["iterations_used"] == iteration
    assert own["backed"] == iteration == max(said.iterations)
    for older, newer in zip(said.iterations, said.iterations[1:], strict=False):
        assert newer in (older, older + 1), said.iterations
    assert said.status_lines[-1] == status

    state = json.loads(gf(repo, "status", "--json", GOAL, code=0).stdout)["goals"][0]
    assert state["status"] == status
    assert state["iterations"] == {"used": iteration, "budget": 100}
    assert state["last_verify"]["iteration"] == iteration
    assert {c["id"]: c["verdict"] for c in state["criteria"]} == verdicts
    if not full:
        return
    shown = gf(repo, "status", GOAL, code=0).stdout
    assert f"\n  iterations {iteration}/100, " in shown, shown
    assert f"\n  last verify: iteration {iteration} (" in shown, shown
    assert gf(repo, "lint", GOAL, code=0).stdout == f"{GOAL}: ok\n"
    # audit against the commit of the last full check: the met (if any) is backed and the
    # ledger only grew, by the entries written since, whatever mdformat did to the rest
    audit = json.loads(gf(repo, "audit", "--json", "--against", "HEAD", GOAL, code=0).stdout)
    [report] = audit["files"]
    assert report["ok"] and report["findings"] == [] == report["warnings"], report
    assert len(report["new_entries"]) == len(said.by) - len(committed_entries(repo)), report
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", f"iteration {iteration}")


def committed_entries(repo: Path) -> list[str]:
    return read_entries(git(repo, "show", f"HEAD:{GOAL}")).by


def test_a_ledger_mdformat_rewrote_between_verify_runs_reads_the_same_everywhere(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.name", "t")
    git(repo, "config", "user.email", "t@e")
    new_goal(repo)
    iteration = 0
    formatted = 0
    for step in range(STEPS):
        if step in PLAN_AT:
            gf(repo, "plan", GOAL, code=0)
            iteration += 1
        last = step == STEPS - 1
        run = step + step % 2 if last else step  # C2 is met on even runs
        (repo / "state" / "n").write_text(f"{run}\n")
        if last:
            (repo / "state" / "c1").write_text("")
        verdicts = {
            "C1": "met" if last else "unmet",
            "C2": "met" if run % 2 == 0 else "unmet",
            "C3": "met",
        }
        status = "met" if all(v == "met" for v in verdicts.values()) else "active"
        done = gf(repo, "verify", GOAL, code=0 if status == "met" else 1)
        assert done.stdout.rstrip().rsplit("\n", 1)[-1] == (
            f"verify-goal demo iteration {iteration}: C1 {verdicts['C1']}, "
            f"C2 {verdicts['C2']}, C3 met; status: {status}"
        )
        check_readings(repo, iteration=iteration, verdicts=verdicts, status=status, full=last)
        if step in FORMAT_AT:
            hand_notes(repo, step)
            formatted += run_mdformat(repo)
            text = (repo / GOAL).read_text()
            assert mdformat.text(text, extensions={"gfm", "frontmatter"}) == text  # a fixed point
            check_readings(repo, iteration=iteration, verdicts=verdicts, status=status, full=True)
    assert formatted == len(FORMAT_AT)  # each run really rewrote the file
    text = (repo / GOAL).read_text()
    assert len(re.findall(r"(?m)^### Iteration \d+ \(\S+\) by verify-goal$", text)) == STEPS
    assert "\nNote *2*: step_1 + 2\n" in text  # mdformat's hand: spaces and blanks gone,
    assert re.search(r"\n[-*] lesson 2: __keep__ ", text)  # and `+` bullets written as - or *
    assert "\n### Iteration 99 " not in text  # the output lines mdformat kept are data:
    assert "\n    ### Iteration 99 (2026-01-01) by verify-goal\n" in text  # indented
    gf(repo, "audit", "--against", "HEAD~5", GOAL, code=0)


# --- the carried index on mdformat's own output --------------------------------------------


def formatted_goal(entries: int) -> str:
    """A goal text in the shape a long ledger reaches after verify runs, run through the real
    mdformat in-process (the same library the command line runs)."""
    rows = "\n".join(
        f"### Iteration {i // 2} (2026-11-{1 + i % 28:02d}) by verify-goal\n\n"
        "| id | verdict | command | exit | evidence |\n|---|---|---|---|---|\n"
        f"| C1 | unmet | `sh c1.sh` | 1 | `run {i}: c1 failed \\| x` |\n\n"
        "C1 output (exit 0 expected, got 1; stdout, last 3 of 3 lines):\n\n"
        "````text\n    ```\n    ### Iteration 99 (2026-01-01) by verify-goal\n"
        f"    status: met {i}\n````\n\n"
        + (f"* a note, *{i}*\n\n" if i % 3 == 0 else "")
        + "status: active\ncontract: 0123456789ab\n"
        for i in range(entries)
    )
    text = (
        "---\nslug: demo\nstatus: active\nbudget:\n  iterations: 100\n  tokens: null\n"
        "iterations_used: 0\ntokens_used: 0\n---\n# Goal: `sh c1.sh` *passes*\n"
        "## Non-goals\n* `state/` stays\n## Acceptance criteria\n"
        "| id | criterion | check | expected | kind |\n|---|---|---|---|---|\n"
        '| C1 | c1 *passes* | `sh c1.sh` | exit 0; stdout contains "c1 passed" | |\n'
        f"## Iterations\n{rows}\n## Lessons\n* one\n"
    )
    return mdformat.text(text, extensions={"gfm", "frontmatter"})


@pytest.fixture(scope="module")
def formatted_texts(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """mdformat's output on goal files: one the real `goalfile verify` grew (five runs, fenced
    excerpts) and the real `mdformat` command rewrote, the examples and ledger fixtures, and
    long ledgers built here."""
    repo = tmp_path_factory.mktemp("carried") / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.name", "t")
    git(repo, "config", "user.email", "t@e")
    new_goal(repo)
    for step in range(5):
        (repo / "state" / "n").write_text(f"{step}\n")
        gf(repo, "verify", GOAL, code=1)
    hand_notes(repo, 5)
    assert run_mdformat(repo)
    texts = [(repo / GOAL).read_text()]
    for path in sorted([*(REPO / "examples").glob("*.md"), *(DATA / "ledger").glob("*.md")]):
        text = mdformat.text(path.read_text(), extensions={"gfm", "frontmatter"})
        if parse.ledger_region(text) is not None:  # not the files that hold one entry alone
            texts.append(text)
    texts += [formatted_goal(n) for n in (1, 7, 33)]
    assert all(mdformat.text(t, extensions={"gfm", "frontmatter"}) == t for t in texts)
    return texts


ENTRY_LINES = st.lists(
    st.sampled_from(
        [
            "",
            "### Iteration 40 (2026-11-30) by verify-goal",
            "| C1 | met | `sh c1.sh` | 0 | `ok` |",
            "````text",
            "    ```",
            "````",
            "```",
            "~~~",
            "status: met",
            "## Lessons",
            "- a lesson",
        ]
    ),
    min_size=1,
    max_size=6,
)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_carried_index_of_an_edited_mdformat_text_is_a_full_re_read(
    formatted_texts: list[str], data: st.DataObject
) -> None:
    """On mdformat's own output: after the edits goalfile makes (an entry appended, a
    frontmatter value set) and any splice, the index made from the old text's index equals the
    index of the same text read whole, and so does the parse of the goal."""
    text = data.draw(st.sampled_from(formatted_texts))
    read_edited(text)  # indexed as a command reads it before it edits
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        kind = data.draw(st.sampled_from(["append", "set", "splice"]))
        if kind == "append":
            text = edit.append_to_section(text, "Iterations", data.draw(ENTRY_LINES))
        elif kind == "set":
            with contextlib.suppress(ValueError, GoalfileError):  # a splice cut the frontmatter
                value = data.draw(st.sampled_from(["status", "iterations_used"]))
                new = Status.MET.value if value == "status" else data.draw(st.integers(0, 99))
                text = edit.set_value(text, value, new)
        else:
            start = data.draw(st.integers(min_value=0, max_value=len(text)))
            end = data.draw(st.integers(min_value=start, max_value=min(len(text), start + 400)))
            new_text = text[:start] + "\n".join(data.draw(ENTRY_LINES)) + text[end:]
            text = ledger.spliced(text, new_text, start, len(text) - end)
    edited = read_edited(text), parsed(text)  # first: read_whole empties the caches
    assert edited == (read_whole(text), parsed((text + "x")[:-1]))


def parsed(text: str) -> object:
    try:
        goal = parse.parse_goal(text, path=GOAL)
    except GoalfileError as exc:
        return exc.render()
    region = parse.ledger_region(text)
    newest = ledger.newest(text, *region, by=(ledger.VERIFY_BY,)) if region else None
    return goal, newest, handedit.backed_iterations(goal)


def test_the_readers_agree_on_a_verify_entry_mdformat_rewrote() -> None:
    """A sanity check of this module's own reader against goalfile's on mdformat's output."""
    text = formatted_goal(5)
    said = read_entries(text)
    own = fresh(text)
    assert own["heads"] == list(zip(said.iterations, said.by, strict=True))
    assert said.verify_rows == {"C1": Verdict.UNMET.value}
    assert own["verify"] == (2, {"C1": "unmet"})
