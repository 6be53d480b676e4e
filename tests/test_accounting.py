"""goalfile.accounting: the `## Token accounting` table and the transcript meter."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import DATA, goal_text, row, run_goalfile, write_goal

from goalfile.accounting import (
    SessionRow,
    TokenMeter,
    apply_rows,
    parse_accounting,
    record,
    render_table,
    tokens_total,
    transcript_label,
)
from goalfile.errors import GoalFileInvalid
from goalfile.parse import parse_goal
from goalfile.usage import Host, SessionUsage, TranscriptError

TRANSCRIPTS = DATA / "transcripts"
CLAUDE_A = "7c0f3e1a-52b8-4d6e-9a41-0b2c3d4e5f60"
CODEX_A = "0199e2b4-6a1f-7c3d-9e52-8f1a2b3c4d5e"


def usage(session: str, tokens: int, host: Host = Host.CLAUDE) -> SessionUsage:
    return SessionUsage(host=host, session_id=session, tokens=tokens, transcript="t")


def srow(session: str, baseline: int, latest: int, host: str = "claude") -> SessionRow:
    return SessionRow(
        session=session, host=host, transcript=f"~/{session}.jsonl", baseline=baseline,
        latest=latest,
    )  # fmt: skip


def claude_line(session: str, message_id: str, inp: int, out: int, cache: int = 0) -> str:
    return (
        json.dumps(
            {
                "type": "assistant",
                "sessionId": session,
                "requestId": "req_" + message_id,
                "message": {
                    "id": message_id,
                    "model": "claude-test",
                    "role": "assistant",
                    "content": [{"type": "text", "text": "ok"}],
                    "usage": {
                        "input_tokens": inp,
                        "output_tokens": out,
                        "cache_creation_input_tokens": cache,
                        "cache_read_input_tokens": 99_999,
                    },
                },
            }
        )
        + "\n"
    )


def codex_line(inp: int, cached: int, out: int) -> str:
    usage = {
        "input_tokens": inp,
        "cached_input_tokens": cached,
        "output_tokens": out,
        "reasoning_output_tokens": 0,
        "total_tokens": inp + out,
    }
    return (
        json.dumps(
            {
                "timestamp": "2025-10-14T10:00:00.000Z",
                "type": "event_msg",
                "payload": {
                    "type": "token_count",
                    "info": {"total_token_usage": usage, "last_token_usage": usage},
                },
            }
        )
        + "\n"
    )


def copy(name: str, folder: Path) -> Path:
    target = folder / name
    shutil.copyfile(TRANSCRIPTS / name, target)
    return target


def goal_in(tmp_path: Path, *, tokens_used: int = 0) -> tuple[Path, str]:
    text = goal_text(tokens_used=tokens_used)
    path = write_goal(tmp_path / "goals", text)
    return path, text


# --- pure text functions --------------------------------------------------------------------


def test_tokens_total_is_the_sum_of_latest_minus_baseline() -> None:
    assert tokens_total([srow("a", 100, 350), srow("b", 0, 40)]) == 290
    assert tokens_total([srow("a", 500, 400)]) == 0  # never negative


def test_record_keeps_the_baseline_and_latest_only_grows() -> None:
    rows = record((), usage("a", 100), baseline=100, transcript="~/a")
    assert rows == (
        SessionRow(session="a", host="claude", transcript="~/a", baseline=100, latest=100),
    )
    rows = record(rows, usage("a", 250), baseline=0, transcript="~/a")
    assert rows[0].baseline == 100 and rows[0].latest == 250
    rows = record(rows, usage("a", 200), baseline=0, transcript="~/a")  # a shorter re-read
    assert rows[0].latest == 250
    edited = (
        SessionRow(session="a", host="claude", transcript="~/a", baseline=10**9, latest=10**9),
    )
    rows = record(edited, usage("a", 300), baseline=0, transcript="~/a")  # a baseline no read wrote
    assert (rows[0].baseline, rows[0].latest) == (300, 300)
    rows = record(rows, usage("b", 7, Host.CODEX), baseline=7, transcript="~/b")
    assert [r.session for r in rows] == ["a", "b"] and rows[1].host == "codex"


def test_transcript_label_writes_the_home_folder_as_tilde() -> None:
    assert transcript_label("/home/ann/.claude/x.jsonl", home="/home/ann") == "~/.claude/x.jsonl"
    assert transcript_label("/home/anna/x.jsonl", home="/home/ann") == "/home/anna/x.jsonl"
    assert transcript_label("/srv/x.jsonl", home=None) == "/srv/x.jsonl"


def test_the_table_is_created_in_the_empty_section_and_nothing_else_changes() -> None:
    text = goal_text()
    rows = (srow("s-1", 10, 30),)
    out = apply_rows(text, rows)
    assert out.startswith(text.split("## Token accounting")[0] + "## Token accounting\n\n")
    assert out.endswith("\n" + text.split("## Token accounting\n\n")[1])
    assert render_table(rows)[:2] == [  # padded as mdformat pads a table
        "| session | host   | transcript    | baseline | latest |",
        "| ------- | ------ | ------------- | -------- | ------ |",
    ]
    assert "\n".join(render_table(rows)) in out
    assert parse_accounting(out).rows == rows
    parse_goal(out, path="g.md")  # still a goal file


def test_an_existing_table_is_rewritten_in_place_only() -> None:
    text = apply_rows(goal_text(), (srow("a", 1, 2),))
    text = text.replace("## Token accounting\n", "## Token accounting\nUsage per session:\n")
    out = apply_rows(text, (srow("a", 1, 9), srow("b", 5, 5)))
    before, after = text.split("\n"), out.split("\n")
    start = next(at for at, line in enumerate(before) if line.startswith("| session "))
    assert before[:start] == after[:start]
    assert before[start + 3 :] == after[start + 4 :]  # one row more, the rest identical
    assert [r.latest for r in parse_accounting(out).rows] == [9, 5]


def test_unchanged_rows_leave_the_text_byte_identical() -> None:
    text = apply_rows(goal_text(), (srow("a", 1, 2),))
    odd = text.replace("| `a`     | claude |", "|`a`|  claude  |")  # hand-formatted, same data
    assert apply_rows(odd, parse_accounting(odd).rows) == odd


def test_a_missing_section_is_created_before_iterations() -> None:
    text = goal_text().replace("## Token accounting\n\n", "")
    out = apply_rows(text, (srow("a", 0, 5),))
    assert out.index("## Token accounting") < out.index("## Iterations")
    head = text.split("## Iterations")[0]
    assert out.startswith(head.rstrip("\n"))
    assert out.endswith("## Iterations" + text.split("## Iterations")[1])


def test_a_missing_section_without_iterations_goes_at_the_end() -> None:
    text = goal_text(iterations_section=None, lessons=None).replace("## Token accounting\n\n", "")
    out = apply_rows(text, (srow("a", 0, 5),))
    assert out.startswith(text.rstrip("\n"))
    assert out.endswith("| 0        | 5      |\n")  # padded to the header's widths


def test_crlf_files_keep_crlf() -> None:
    text = goal_text().replace("\n", "\r\n")
    out = apply_rows(text, (srow("a", 0, 5),))
    assert "\n" not in out.replace("\r\n", "")
    assert parse_accounting(out).rows == (srow("a", 0, 5),)


def test_a_heading_inside_a_code_fence_is_not_the_section() -> None:
    text = goal_text().replace(
        "## Plan\n", "## Plan\n```\n## Token accounting\n| session | host |\n```\n"
    )
    out = apply_rows(text, (srow("a", 0, 5),))
    assert "```\n## Token accounting\n| session | host |\n```" in out
    assert parse_accounting(out).rows == (srow("a", 0, 5),)


def test_hostile_session_ids_and_paths_stay_inside_their_cells() -> None:
    nasty = SessionRow(
        session="x | `y` \n## Iterations",
        host="claude",
        transcript="~/a|b`c``d",
        baseline=1,
        latest=2,
    )
    out = apply_rows(goal_text(), (nasty,))
    found = parse_accounting(out).rows[0]
    assert found.transcript == nasty.transcript
    assert found.session.startswith("x | `y`") and "\n" not in found.session  # never a heading
    assert [line for line in out.split("\n") if line.startswith("#")].count("## Iterations") == 1


@pytest.mark.parametrize(
    ("bad", "column"),
    [
        ("| `a` | claude | `~/a` | ten | 20 |", 26),
        ("| `a` | claude | `~/a` | 10 |", 1),
    ],
)
def test_a_malformed_row_is_reported_with_its_position(bad: str, column: int) -> None:
    text = apply_rows(goal_text(), (srow("a", 10, 20),))
    good = next(line for line in text.split("\n") if line.startswith("| `a`"))
    broken = text.replace(good, bad)
    with pytest.raises(GoalFileInvalid) as caught:
        parse_accounting(broken, path="goals/demo.md")
    assert caught.value.file == "goals/demo.md"
    assert caught.value.line == broken.split("\n").index(bad) + 1
    assert caught.value.column == column


def test_a_session_listed_twice_is_refused() -> None:
    text = apply_rows(goal_text(), (srow("a", 1, 2), srow("b", 1, 2)))
    with pytest.raises(GoalFileInvalid, match="twice"):
        parse_accounting(text.replace("| `b`     |", "| `a`     |"))


# --- the meter ------------------------------------------------------------------------------


def test_first_sight_sets_the_baseline(tmp_path: Path) -> None:
    transcript = copy("claude-session-a.jsonl", tmp_path)
    path, text = goal_in(tmp_path)
    meter = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=transcript, home="/x")
    assert meter.poll() == 0  # 3170 tokens before goalfile saw the session are not charged
    out = meter.apply(text)
    assert parse_accounting(out).rows == (
        SessionRow(
            session=CLAUDE_A, host="claude", transcript=str(transcript), baseline=3170, latest=3170
        ),
    )


def test_a_growing_transcript_is_read_incrementally(tmp_path: Path) -> None:
    transcript = copy("claude-session-a.jsonl", tmp_path)
    path, text = goal_in(tmp_path)
    meter = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=transcript)
    assert meter.poll() == 0
    assert meter.bytes_read == transcript.stat().st_size
    added = claude_line(CLAUDE_A, "msg_new_1", 10, 90, cache=400)
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(added)
    assert meter.poll() == 500
    assert meter.bytes_read == len(added.encode())  # only what was appended
    assert meter.poll() == 500 and meter.bytes_read == 0
    # the same response written again (one line per content block) is not counted twice
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(added)
    assert meter.poll() == 500


def test_a_reread_transcript_never_double_counts(tmp_path: Path) -> None:
    transcript = copy("claude-session-a.jsonl", tmp_path)
    path, text = goal_in(tmp_path)
    first = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=transcript)
    first.poll()
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(claude_line(CLAUDE_A, "msg_new_1", 10, 90))
    assert first.poll() == 100
    text = first.apply(text)
    text = text.replace("tokens_used: 0", "tokens_used: 100")
    for _ in range(3):  # later verify runs read the whole file again
        again = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=transcript)
        assert again.poll() == 100
        text = again.apply(text)
    assert parse_accounting(text).rows[0].baseline == 3170
    assert parse_accounting(text).rows[0].latest == 3270


def test_two_sessions_add_up(tmp_path: Path) -> None:
    claude = copy("claude-session-a.jsonl", tmp_path)
    codex = tmp_path / "rollout.jsonl"
    lines = (TRANSCRIPTS / "codex-rollout-a.jsonl").read_text(encoding="utf-8").splitlines(True)
    codex.write_text("".join(lines[:8]), encoding="utf-8")
    path, text = goal_in(tmp_path)

    meter = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=claude)
    meter.poll()
    with claude.open("a", encoding="utf-8") as handle:
        handle.write(claude_line(CLAUDE_A, "msg_a", 100, 100))
    assert meter.poll() == 200
    text = meter.apply(text).replace("tokens_used: 0", "tokens_used: 200")

    second = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=codex)
    start = second.poll()
    assert start == 200  # the new session starts at its baseline
    codex.write_text("".join(lines), encoding="utf-8")  # the rest of the rollout arrives
    assert second.poll() == 200 + (3297 - second_baseline(text, second))
    text = second.apply(text)
    rows = parse_accounting(text).rows
    assert [r.host for r in rows] == ["claude", "codex"]
    assert [r.session for r in rows] == [CLAUDE_A, CODEX_A]
    assert rows[1].latest == 3297
    assert tokens_total(rows) == second.poll()


def second_baseline(text: str, meter: TokenMeter) -> int:
    assert meter.usage is not None
    found = meter.apply(text)
    row_ = parse_accounting(found).row(meter.usage.session_id)
    assert row_ is not None
    return row_.baseline


def test_usage_reported_before_the_table_is_kept(tmp_path: Path) -> None:
    transcript = copy("claude-session-a.jsonl", tmp_path)
    path, text = goal_in(tmp_path, tokens_used=5000)
    meter = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=transcript)
    assert meter.poll() == 5000
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(claude_line(CLAUDE_A, "msg_new", 1, 9))
    assert meter.poll() == 5010


def test_an_unreadable_transcript_fails_the_first_poll_only(tmp_path: Path) -> None:
    path, text = goal_in(tmp_path)
    missing = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=tmp_path / "nope")
    with pytest.raises(TranscriptError):
        missing.poll()
    assert missing.apply(text) == text

    transcript = copy("claude-session-a.jsonl", tmp_path)
    meter = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=transcript)
    assert meter.poll() == 0
    transcript.unlink()
    assert meter.poll() == 0  # the last figure stands


def test_the_codex_reemit_trap_is_not_counted(tmp_path: Path) -> None:
    transcript = tmp_path / "rollout.jsonl"
    lines = (TRANSCRIPTS / "codex-rollout-b.jsonl").read_text(encoding="utf-8").splitlines(True)
    transcript.write_text(lines[0], encoding="utf-8")  # only session_meta: baseline 0
    path, text = goal_in(tmp_path)
    meter = TokenMeter(goal=parse_goal(text, path=str(path)), transcript=transcript)
    assert meter.poll() == 0
    transcript.write_text("".join(lines), encoding="utf-8")
    assert meter.poll() == 1790
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(codex_line(6500, 5120, 410))  # re-emitted, unchanged totals
    assert meter.poll() == 1790


# --- through `goalfile verify --transcript` -------------------------------------------------


def test_verify_records_usage_and_enforces_the_budget(repo: Path) -> None:
    transcript = copy("claude-session-a.jsonl", repo.parent)
    path = write_goal(
        repo / "goals",
        goal_text(tokens="1000", rows=(row("C1", "true", "exit 0"), row("C2", "false", "exit 0"))),
    )
    done = run_goalfile("verify", path, "--transcript", transcript, cwd=repo)
    assert done.returncode == 1, done.stderr
    text = path.read_text(encoding="utf-8")
    assert parse_goal(text, path=str(path)).tokens_used == 0
    assert parse_accounting(text).rows[0].baseline == 3170

    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(claude_line(CLAUDE_A, "msg_w1", 100, 300))
    done = run_goalfile("verify", path, "--transcript", transcript, cwd=repo)
    assert done.returncode == 1, done.stderr
    assert parse_goal(path.read_text(encoding="utf-8"), path=str(path)).tokens_used == 400

    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(claude_line(CLAUDE_A, "msg_w2", 100, 500))
    done = run_goalfile("verify", path, "--transcript", transcript, cwd=repo)
    assert done.returncode == 5, done.stdout + done.stderr
    goal = parse_goal(path.read_text(encoding="utf-8"), path=str(path))
    assert goal.tokens_used == 1000 and goal.status.value == "exhausted"
    assert "token budget reached: 1000 of 1000" in done.stdout


def test_verify_with_a_missing_transcript_is_refused_untouched(repo: Path) -> None:
    path = write_goal(repo / "goals", goal_text())
    before = path.read_bytes()
    done = run_goalfile("verify", path, "--transcript", repo / "missing.jsonl", cwd=repo)
    assert done.returncode == 3, done.stderr
    assert "missing.jsonl" in done.stderr
    assert path.read_bytes() == before


def test_transcript_and_tokens_used_together_are_a_usage_error(repo: Path) -> None:
    transcript = copy("claude-session-a.jsonl", repo.parent)
    path = write_goal(repo / "goals", goal_text())
    done = run_goalfile("verify", path, "--transcript", transcript, "--tokens-used", "5", cwd=repo)
    assert done.returncode == 2
    assert "--transcript" in done.stderr


def test_verify_refuses_a_malformed_accounting_table_untouched(repo: Path) -> None:
    transcript = copy("claude-session-a.jsonl", repo.parent)
    text = apply_rows(goal_text(), (srow("a", 10, 20),))
    text = text.replace("| 10       | 20     |", "| 10       | x      |")
    path = write_goal(repo / "goals", text)
    done = run_goalfile("verify", path, "--transcript", transcript, cwd=repo)
    assert done.returncode == 3, done.stderr
    line = text.split("\n").index(
        next(x for x in text.split("\n") if x.endswith("| 10       | x      |"))
    )
    assert f"demo.md:{line + 1}:" in done.stderr and "latest 'x'" in done.stderr
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("filler", [0, 70_000], ids=["short file", "long file"])
def test_lint_finds_a_malformed_row_under_a_header_in_any_case(tmp_path: Path, filler: int) -> None:
    """A short goal without the word `baseline` is not given to the table's reader; one whose
    header writes it in capitals still is, and so is every long goal."""
    text = apply_rows(goal_text(), (srow("a", 10, 20),))
    text = text.replace("| baseline | latest |", "| BaseLine | LATEST |")
    text = text.replace("| 10       | 20     |", "| 10       | x      |")
    text = text.replace("## Lessons", "## Lessons\n\n" + "- a lesson learnt\n" * (filler // 17))
    assert len(text) > 70_000 if filler else len(text) < 2_000
    path = write_goal(tmp_path, text)
    done = run_goalfile("lint", path, cwd=tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "token accounting latest 'x' is not a whole number" in done.stdout + done.stderr
    clean = write_goal(tmp_path, text.replace("| x      |", "| 20     |"), "clean.md")
    assert run_goalfile("lint", clean, cwd=tmp_path).returncode == 0


def long_ledger(entries: int) -> str:
    """A ledger of ``entries`` entries as verify writes them (one met row each): over the size
    below which lint lowers the whole text to look for the word `baseline`."""
    entry = (
        "### Iteration {n} (2026-12-01) by verify-goal\n\n"
        "| id  | verdict | command | exit | evidence    |\n"
        "| --- | ------- | ------- | ---- | ----------- |\n"
        "| C1  | met     | `true`  | 0    | (no output) |\n\n"
        "status: active\n"
    )
    return "\n".join(entry.format(n=n) for n in range(1, entries + 1))


def _table_moved(text: str, table: str, where: str) -> str:
    """``text`` with its accounting section (heading and ``table``) above the ledger, after
    it, or as a fenced block in the ledger that the reader takes for a section (its fence
    reading pairs a three-backtick line with a four-backtick one, Markdown does not)."""
    section = f"## Token accounting\n\n{table}\n"
    if where == "above":
        return text
    text = text.replace(section, "")
    if where == "after":
        return f"{text}\n{section}"
    fenced = f"````\n```\n{section}````\n"
    return text.replace("\nstatus: active\n", f"\nstatus: active\n\n{fenced}", 1)


@pytest.mark.parametrize("where", ["above", "after", "fenced in the ledger"])
def test_lint_of_a_long_ledger_reads_the_table_where_its_reader_does(
    tmp_path: Path, where: str
) -> None:
    """A long goal's ledger is not searched for the word `baseline`, yet lint reports the
    malformed row wherever the table's reader reads one: above the ledger, in a section after
    it, or from an H2 line in the ledger that the reader's own fence reading leaves outside."""
    text = apply_rows(goal_text(iterations_section=long_ledger(800)), (srow("a", 10, 20),))
    table = "\n".join(render_table((srow("a", 10, 20),)))
    assert len(text) > 70_000 and table in text
    moved = _table_moved(text, table, where)
    broken = moved.replace("| 10       | 20     |", "| 10       | x      |")
    with pytest.raises(GoalFileInvalid, match="latest 'x' is not a whole number"):
        parse_accounting(broken)
    path = write_goal(tmp_path, broken)
    done = run_goalfile("lint", path, cwd=tmp_path)
    assert "token accounting latest 'x' is not a whole number" in done.stdout + done.stderr


def test_lint_of_a_long_ledger_without_the_word_loads_no_table_reader(tmp_path: Path) -> None:
    """The lines the reader would read hold no `baseline`, and an H2 line stands nowhere in the
    ledger: the reader's module (two dataclasses, built at import) is not loaded."""
    text = goal_text(iterations_section=long_ledger(800))
    assert len(text) > 70_000
    path = write_goal(tmp_path, text)
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    done = run_goalfile("lint", path, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "goalfile.lint" in done.stderr  # the import log was read
    assert "goalfile.accounting" not in done.stderr
