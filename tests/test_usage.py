"""goalfile.usage: session token totals from Claude Code and Codex transcripts."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import goal_text, make_git_repo, row, run_goalfile, write_goal

from goalfile.errors import GoalfileError
from goalfile.parse import parse_goal
from goalfile.usage import (
    ClaudeTally,
    CodexTally,
    Host,
    SessionUsage,
    TranscriptError,
    TranscriptReader,
    claude_response,
    claude_usage_tokens,
    codex_total_tokens,
    codex_usage_tokens,
    detect_host,
    parse_line,
    read_usage,
)

DATA = Path(__file__).parent / "data" / "transcripts"

CLAUDE_A = "7c0f3e1a-52b8-4d6e-9a41-0b2c3d4e5f60"
CODEX_A = "0199e2b4-6a1f-7c3d-9e52-8f1a2b3c4d5e"
CODEX_B = "0199e2c0-1d2e-7f30-8a41-5b6c7d8e9f01"
CODEX_FORK = "0199e3a0-4b5c-7d6e-8f70-a1b2c3d4e5f6"

# file name -> (host, session id, project total)
EXPECTED = {
    "claude-session-a.jsonl": (Host.CLAUDE, CLAUDE_A, 3170),
    "codex-rollout-a.jsonl": (Host.CODEX, CODEX_A, 3297),
    "codex-rollout-b.jsonl": (Host.CODEX, CODEX_B, 1790),
    "claude-session-traps.jsonl": (Host.CLAUDE, "5d2a9c10-7e3b-4f81-b6a0-1c2d3e4f5a6b", 1166),
    "claude-malformed.jsonl": (Host.CLAUDE, "9e8d7c6b-5a49-4382-a716-0f1e2d3c4b5a", 80),
    "codex-rollout-fork.jsonl": (Host.CODEX, CODEX_FORK, 5900),
}


def copy(name: str, tmp_path: Path, as_name: str | None = None) -> Path:
    target = tmp_path / (as_name or name)
    shutil.copyfile(DATA / name, target)
    return target


def jline(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":")) + "\n"


def assistant(
    mid: str | None,
    req: str | None,
    inp: int,
    out: int,
    cache_creation: int = 0,
    *,
    model: str = "claude-sonnet-4-5",
    session: str = "s-1",
) -> str:
    message: dict[str, object] = {
        "role": "assistant",
        "model": model,
        "content": [],
        "usage": {
            "input_tokens": inp,
            "output_tokens": out,
            "cache_creation_input_tokens": cache_creation,
            "cache_read_input_tokens": 100_000,
        },
    }
    if mid is not None:
        message["id"] = mid
    line: dict[str, object] = {"type": "assistant", "sessionId": session, "message": message}
    if req is not None:
        line["requestId"] = req
    return jline(line)


def token_count(inp: int | None, cached: int, out: int) -> str:
    info = (
        None
        if inp is None
        else {
            "total_token_usage": {
                "input_tokens": inp,
                "cached_input_tokens": cached,
                "output_tokens": out,
            },
            "last_token_usage": {"input_tokens": 1, "cached_input_tokens": 0, "output_tokens": 1},
        }
    )
    return jline({"type": "event_msg", "payload": {"type": "token_count", "info": info}})


def session_meta(sid: str) -> str:
    return jline({"type": "session_meta", "payload": {"id": sid, "cwd": "/x"}})


# ---------------------------------------------------------------------------------------------
# Expected totals of the fixtures


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_totals(name: str) -> None:
    host, session_id, tokens = EXPECTED[name]
    path = DATA / name
    assert read_usage(path) == SessionUsage(
        host=host, session_id=session_id, tokens=tokens, transcript=str(path)
    )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_explicit_host_gives_the_same_total(name: str) -> None:
    host, _, tokens = EXPECTED[name]
    assert read_usage(DATA / name, host).tokens == tokens


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_one_poll_equals_one_shot(name: str, tmp_path: Path) -> None:
    path = copy(name, tmp_path)
    reader = TranscriptReader(path)
    assert reader.poll() == read_usage(path)
    assert reader.offset == path.stat().st_size
    assert reader.pending == 0


def test_transcript_is_the_path_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy("codex-rollout-a.jsonl", tmp_path)
    monkeypatch.chdir(tmp_path)
    assert read_usage("codex-rollout-a.jsonl").transcript == "codex-rollout-a.jsonl"
    assert read_usage(Path("codex-rollout-a.jsonl")).transcript == "codex-rollout-a.jsonl"


# ---------------------------------------------------------------------------------------------
# Claude dedup traps, one at a time


def claude_total(tmp_path: Path, *lines: str) -> int:
    path = tmp_path / "s.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return read_usage(path, Host.CLAUDE).tokens


def test_claude_split_response_counts_once(tmp_path: Path) -> None:
    line = assistant("msg_1", "req_1", 12, 45, 1800)
    assert claude_total(tmp_path, line, line, line) == 1857


def test_claude_streaming_snapshot_keeps_the_larger_line_in_either_order(tmp_path: Path) -> None:
    snapshot = assistant("msg_1", "req_1", 10, 5, 100)
    final = assistant("msg_1", "req_1", 10, 300, 100)
    assert claude_total(tmp_path, snapshot, final) == 410
    assert claude_total(tmp_path, final, snapshot) == 410


def test_claude_without_message_id_keys_on_request_id(tmp_path: Path) -> None:
    line = assistant(None, "req_1", 3, 50, 20)
    assert claude_total(tmp_path, line, line) == 73


def test_claude_message_id_wins_over_request_id(tmp_path: Path) -> None:
    # Same message.id under another requestId (e.g. a sidechain copy): still one response.
    assert (
        claude_total(tmp_path, assistant("msg_1", "req_1", 1, 9), assistant("msg_1", "req_2", 1, 9))
        == 10
    )
    # Same requestId, different message.id: two responses.
    assert (
        claude_total(tmp_path, assistant("msg_1", "req_1", 1, 9), assistant("msg_2", "req_1", 1, 9))
        == 20
    )


def test_claude_message_and_request_ids_do_not_collide(tmp_path: Path) -> None:
    assert claude_total(tmp_path, assistant("x", None, 1, 1), assistant(None, "x", 1, 1)) == 4


def test_claude_lines_without_any_key_count_individually(tmp_path: Path) -> None:
    line = assistant(None, None, 1, 10)
    assert claude_total(tmp_path, line, line) == 22


def test_claude_synthetic_lines_are_skipped(tmp_path: Path) -> None:
    assert claude_total(tmp_path, assistant("msg_s", None, 999, 999, 9, model="<synthetic>")) == 0


def test_claude_sidechain_lines_count(tmp_path: Path) -> None:
    side = json.loads(assistant("msg_side", "req_side", 7, 40))
    side["isSidechain"] = True
    assert claude_total(tmp_path, assistant("msg_1", "req_1", 1, 1), jline(side)) == 49


def test_claude_cache_reads_are_excluded_and_cache_creation_included() -> None:
    usage: dict[str, object] = {
        "input_tokens": 8,
        "output_tokens": 230,
        "cache_creation_input_tokens": 600,
        "cache_read_input_tokens": 10800,
    }
    assert claude_usage_tokens(usage) == 838


def test_claude_cache_creation_is_the_larger_of_the_total_and_its_breakdown() -> None:
    usage: dict[str, object] = {
        "input_tokens": 2,
        "output_tokens": 8,
        "cache_creation_input_tokens": 250,
        "cache_creation": {"ephemeral_5m_input_tokens": 100, "ephemeral_1h_input_tokens": 300},
    }
    assert claude_usage_tokens(usage) == 410
    usage["cache_creation_input_tokens"] = 500
    assert claude_usage_tokens(usage) == 510
    # An object without any ephemeral count falls back to cache_creation_input_tokens.
    usage["cache_creation"] = {}
    assert claude_usage_tokens(usage) == 510


# Claude Code 2.1.332 wrote this line against a backend that reports
# `cache_creation_input_tokens` without the `cache_creation` breakdown (as gateways do): it fills
# the breakdown with zeros. The 100 tokens of cache creation must still count.
REAL_CLAUDE = DATA / "claude-code-2.1.332.jsonl"
REAL_CODEX = DATA / "codex-0.171.0.jsonl"


def test_claude_zero_breakdown_written_by_claude_code_does_not_hide_cache_creation() -> None:
    first = next(
        line for line in REAL_CLAUDE.read_text(encoding="utf-8").splitlines()
        if '"type":"assistant"' in line
    )  # fmt: skip
    usage = json.loads(first)["message"]["usage"]
    assert usage["cache_creation"] == {
        "ephemeral_1h_input_tokens": 0,
        "ephemeral_5m_input_tokens": 0,
    }
    assert usage["cache_creation_input_tokens"] == 100
    assert claude_usage_tokens(usage) == 1000 + 20 + 100


def test_verify_counts_cache_creation_of_a_real_claude_code_transcript(tmp_path: Path) -> None:
    """From the outside: `goalfile verify --transcript` on the real transcript, read twice (the
    first read is the baseline), charges the later responses' cache creation too."""
    lines = REAL_CLAUDE.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if '"type":"assistant"' in line) + 1
    repo = make_git_repo(tmp_path / "repo")
    path = write_goal(repo / "goals", goal_text(rows=(row("C1", "false", "exit 0"),)))
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("".join(lines[:cut]), encoding="utf-8")
    done = run_goalfile("verify", path, "--transcript", transcript, cwd=repo)
    assert done.returncode == 1, done.stderr
    transcript.write_text("".join(lines), encoding="utf-8")
    done = run_goalfile("verify", path, "--transcript", transcript, cwd=repo)
    assert done.returncode == 1, done.stderr
    text = path.read_text(encoding="utf-8")
    # five more responses: input 1017..1085, output 21..25, cache creation 100 each
    assert parse_goal(text, path=str(path)).tokens_used == 6990 - 1120
    assert "| 1120 " in text and "| 6990 " in text


@pytest.mark.parametrize(
    ("name", "host", "tokens"), [(REAL_CLAUDE, Host.CLAUDE, 6990), (REAL_CODEX, Host.CODEX, 4332)]
)
def test_real_transcripts_with_new_line_types_are_read(name: Path, host: Host, tokens: int) -> None:
    """Claude Code 2.1.332 writes `last-prompt`, `atis-latch`, `api-request`... lines and Codex
    0.171.0 writes `token_usage_record` and `world_state` lines; none of them counts."""
    kinds = {json.loads(line)["type"] for line in name.read_text(encoding="utf-8").splitlines()}
    assert {"last-prompt", "token_usage_record"} & kinds
    found = read_usage(name)
    assert (found.host, found.tokens) == (host, tokens)


@pytest.mark.parametrize(
    ("first", "host"),
    [
        ('{"type":"last-prompt","lastPrompt":"go","leafUuid":"u"}', Host.CLAUDE),
        ('{"type":"token_usage_record","payload":{"usage":{"input_tokens":5}}}', Host.CODEX),
    ],
)
def test_a_new_line_type_first_tells_the_host(first: str, host: Host) -> None:
    assert detect_host(json.loads(first)) is host


def test_claude_only_assistant_lines_with_usage_count(tmp_path: Path) -> None:
    user = {
        "type": "user",
        "sessionId": "s",
        "message": {"role": "user", "usage": {"input_tokens": 5}},
    }
    no_usage = {"type": "assistant", "sessionId": "s", "message": {"id": "m", "content": []}}
    assert claude_total(tmp_path, jline(user), jline(no_usage)) == 0


def test_claude_traps_fixture_beats_the_naive_sum() -> None:
    tally = ClaudeTally()
    naive = 0
    for raw in (DATA / "claude-session-traps.jsonl").read_bytes().splitlines():
        obj = parse_line(raw)
        assert obj is not None
        tally.feed(obj)
        response = claude_response(obj)
        naive += response[1] if response else 0
    assert tally.tokens == 1166
    assert naive > tally.tokens
    assert tally.responses == 5  # X, Y, Z (by requestId), sidechain, ephemeral


def test_claude_session_id_falls_back_to_the_file_stem(tmp_path: Path) -> None:
    path = tmp_path / "abc-123.jsonl"
    line = json.loads(assistant("m", "r", 1, 1))
    del line["sessionId"]
    path.write_text(jline({"type": "summary", "summary": "s", "leafUuid": "u"}) + jline(line))
    assert read_usage(path) == SessionUsage(
        host=Host.CLAUDE, session_id="abc-123", tokens=2, transcript=str(path)
    )


def test_claude_session_id_is_the_first_one_seen(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(
        assistant("m1", None, 1, 1, session="first") + assistant("m2", None, 1, 1, session="second")
    )
    assert read_usage(path).session_id == "first"


# ---------------------------------------------------------------------------------------------
# Codex


def codex_total(tmp_path: Path, *lines: str) -> int:
    path = tmp_path / "rollout.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return read_usage(path, Host.CODEX).tokens


def test_codex_reemitted_events_are_not_summed(tmp_path: Path) -> None:
    # codex-rollout-b: the naive sum of last_token_usage would be 3580.
    assert read_usage(DATA / "codex-rollout-b.jsonl").tokens == 1790
    event = token_count(6500, 5120, 410)
    assert codex_total(tmp_path, session_meta("s"), event, event, event) == 1790


def test_codex_null_info_does_not_reset_the_total(tmp_path: Path) -> None:
    lines = (
        session_meta("s"),
        token_count(None, 0, 0),
        token_count(100, 40, 5),
        token_count(None, 0, 0),
    )
    assert codex_total(tmp_path, *lines) == 65


def test_codex_only_null_info_is_zero(tmp_path: Path) -> None:
    assert codex_total(tmp_path, session_meta("s"), token_count(None, 0, 0)) == 0


def test_codex_takes_the_last_total(tmp_path: Path) -> None:
    lines = (session_meta("s"), token_count(100, 0, 10), token_count(300, 100, 20))
    assert codex_total(tmp_path, *lines) == 220


def test_codex_two_session_meta_lines_keep_the_first_id() -> None:
    usage = read_usage(DATA / "codex-rollout-fork.jsonl")
    assert usage.session_id == CODEX_FORK
    assert usage.tokens == 5900  # the damaged event and the trailing null are ignored


def test_codex_session_id_falls_back_to_the_file_stem(tmp_path: Path) -> None:
    path = tmp_path / "rollout-2025-10-14T09-30-12-x.jsonl"
    path.write_text(token_count(10, 0, 1))
    assert read_usage(path) == SessionUsage(
        host=Host.CODEX, session_id=path.stem, tokens=11, transcript=str(path)
    )


def test_codex_usage_tokens_rules() -> None:
    assert (
        codex_usage_tokens(
            {"input_tokens": 14900, "cached_input_tokens": 12288, "output_tokens": 685}
        )
        == 3297
    )
    assert codex_usage_tokens({"input_tokens": 10, "output_tokens": 1}) == 11  # cached missing
    assert (
        codex_usage_tokens({"input_tokens": 10, "cached_input_tokens": 50, "output_tokens": 1}) == 1
    )
    assert codex_usage_tokens({"input_tokens": "10", "output_tokens": 1}) is None
    assert codex_usage_tokens({"input_tokens": 10}) is None


def test_codex_total_tokens_ignores_other_events() -> None:
    assert codex_total_tokens({"type": "event_msg", "payload": {"type": "agent_message"}}) is None
    assert codex_total_tokens({"type": "response_item", "payload": {"type": "token_count"}}) is None
    assert (
        codex_total_tokens({"type": "event_msg", "payload": {"type": "token_count", "info": 5}})
        is None
    )
    assert codex_total_tokens(json.loads(token_count(5, 1, 1))) == 5


def test_codex_tally_directly() -> None:
    tally = CodexTally()
    for raw in (DATA / "codex-rollout-a.jsonl").read_text().splitlines():
        obj = parse_line(raw)
        assert obj is not None
        tally.feed(obj)
    assert (tally.session_id, tally.tokens) == (CODEX_A, 3297)


# ---------------------------------------------------------------------------------------------
# Incremental reading


def test_poll_half_then_rest_reads_only_the_appended_bytes(tmp_path: Path) -> None:
    for name in ("claude-session-a.jsonl", "codex-rollout-a.jsonl", "claude-session-traps.jsonl"):
        data = (DATA / name).read_bytes()
        cut = len(data) // 2
        assert data[cut - 1 : cut + 1].count(b"\n") == 0  # the cut falls inside a line
        path = tmp_path / name
        path.write_bytes(data[:cut])

        reader = TranscriptReader(path)
        first = reader.poll()
        assert reader.last_read == cut
        assert reader.offset == cut
        assert reader.pending == cut - (data[:cut].rfind(b"\n") + 1)  # the cut line is held back

        with path.open("ab") as handle:
            handle.write(data[cut:])
        second = reader.poll()
        assert reader.last_read == len(data) - cut  # only the appended bytes
        assert reader.offset == len(data)
        assert reader.pending == 0
        assert second == read_usage(path)
        assert first.tokens <= second.tokens

        reader.poll()  # nothing new
        assert reader.last_read == 0
        assert reader.poll() == second


def test_partial_last_line_is_not_parsed_until_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    line = assistant("msg_1", "req_1", 1, 9)
    path.write_text(line.rstrip("\n"))  # complete JSON, but no newline yet
    reader = TranscriptReader(path, Host.CLAUDE)
    assert reader.poll().tokens == 0
    assert reader.pending == len(line) - 1
    with path.open("a") as handle:
        handle.write("\n" + assistant(None, None, 1, 1))
    assert reader.poll().tokens == 12  # counted once, and the unkeyed line once


def test_read_usage_parses_a_complete_last_line_without_newline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(assistant(None, None, 1, 9) + assistant(None, None, 1, 1).rstrip("\n"))
    assert read_usage(path).tokens == 12
    # A line cut mid-write is not valid JSON: skipped.
    path.write_text(assistant(None, None, 1, 9) + assistant(None, None, 1, 1)[:40])
    assert read_usage(path).tokens == 10


def test_byte_by_byte_growth_matches_one_shot(tmp_path: Path) -> None:
    data = (DATA / "claude-session-traps.jsonl").read_bytes()
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"")
    reader = TranscriptReader(path, Host.CLAUDE)
    step = 97  # cuts lines, and even UTF-8 sequences, at odd places
    for start in range(0, len(data), step):
        with path.open("ab") as handle:
            handle.write(data[start : start + step])
        reader.poll()
    assert reader.poll() == read_usage(path)
    assert reader.restarts == 0


def test_transcript_growing_between_polls(tmp_path: Path) -> None:
    path = tmp_path / "rollout.jsonl"
    path.write_text(session_meta("grow"))
    reader = TranscriptReader(path)
    totals = []
    for inp, cached, out in ((100, 0, 10), (250, 100, 30), (250, 100, 30), (400, 300, 35)):
        with path.open("a") as handle:
            handle.write(token_count(inp, cached, out))
        usage = reader.poll()
        assert usage.session_id == "grow"
        totals.append(usage.tokens)
    assert totals == [110, 180, 180, 135]  # the last cumulative total, not a running sum


def test_claude_growing_between_polls(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text("")
    reader = TranscriptReader(path, Host.CLAUDE)
    assert reader.poll().tokens == 0
    steps = [
        (assistant("m1", "r1", 10, 5), 15),
        (assistant("m1", "r1", 10, 50), 60),  # the final line of the same response
        (assistant("m1", "r1", 10, 50), 60),  # a split-block copy
        (assistant("m2", "r2", 1, 1), 62),
    ]
    for line, expected in steps:
        with path.open("a") as handle:
            handle.write(line)
        assert reader.poll().tokens == expected


def test_truncated_file_restarts(tmp_path: Path) -> None:
    path = copy("claude-session-a.jsonl", tmp_path)
    reader = TranscriptReader(path)
    assert reader.poll().tokens == 3170
    path.write_text(assistant("m9", None, 1, 2, session="new"))  # shorter than the offset
    usage = reader.poll()
    assert (usage.session_id, usage.tokens) == ("new", 3)
    assert reader.restarts == 1
    assert reader.offset == path.stat().st_size


def test_replaced_file_restarts(tmp_path: Path) -> None:
    path = copy("codex-rollout-b.jsonl", tmp_path, "live.jsonl")
    reader = TranscriptReader(path)
    assert reader.poll().tokens == 1790
    other = copy("claude-session-a.jsonl", tmp_path, "other.jsonl")
    os.replace(other, path)  # another inode, longer than the offset
    usage = reader.poll()
    assert (usage.host, usage.session_id, usage.tokens) == (Host.CLAUDE, CLAUDE_A, 3170)
    assert reader.restarts == 1


def test_file_rewritten_in_place_and_longer_restarts(tmp_path: Path) -> None:
    path = tmp_path / "rollout.jsonl"
    path.write_text(session_meta("old") + token_count(100, 0, 10))
    reader = TranscriptReader(path)
    assert reader.poll().tokens == 110
    with path.open("w") as handle:  # same inode, new content, longer than before
        handle.write(session_meta("new-session") + token_count(50, 0, 5) + token_count(60, 0, 6))
    usage = reader.poll()
    assert (usage.session_id, usage.tokens) == ("new-session", 66)
    assert reader.restarts == 1


def test_reader_state_holds_one_entry_per_response(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    line = assistant("msg_1", "req_1", 1, 1)
    path.write_text(line * 500)
    reader = TranscriptReader(path)
    assert reader.poll().tokens == 2
    tally = reader._session.claude
    assert tally.responses == 1


# ---------------------------------------------------------------------------------------------
# Detection


@pytest.mark.parametrize(
    ("obj", "host"),
    [
        ({"type": "session_meta", "payload": {"id": "x"}}, Host.CODEX),
        ({"type": "event_msg", "payload": {"type": "token_count", "info": None}}, Host.CODEX),
        ({"type": "compacted", "payload": {"message": "m"}}, Host.CODEX),
        ({"type": "summary", "summary": "s", "leafUuid": "u"}, Host.CLAUDE),
        ({"type": "user", "sessionId": "s", "message": {}}, Host.CLAUDE),
        ({"type": "file-history-snapshot", "messageId": "m"}, Host.CLAUDE),
        ({"type": "some-new-kind", "sessionId": "s"}, Host.CLAUDE),
        ({"type": "event_msg"}, None),  # no payload
        ({"type": "mystery"}, None),
        ({"no_type": True}, None),
        ({"type": 3, "payload": {}}, None),
    ],
)
def test_detect_host(obj: dict[str, object], host: Host | None) -> None:
    assert detect_host(obj) is host


def test_detection_skips_undecidable_leading_lines(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(
        "not json\n" + jline({"type": "mystery"}) + session_meta("s") + token_count(9, 0, 1)
    )
    assert read_usage(path).host is Host.CODEX
    assert read_usage(path).tokens == 10


def test_explicit_host_that_does_not_match_is_an_error(tmp_path: Path) -> None:
    path = copy("codex-rollout-a.jsonl", tmp_path)
    with pytest.raises(TranscriptError) as caught:
        read_usage(path, Host.CLAUDE)
    assert caught.value.file == str(path)
    assert caught.value.line == 1
    assert "Codex rollout" in caught.value.message
    reader = TranscriptReader(path, Host.CLAUDE)
    for _ in range(2):  # the reader does not get stuck half-way: it raises again
        with pytest.raises(TranscriptError):
            reader.poll()


# ---------------------------------------------------------------------------------------------
# Malformed input and errors


def test_malformed_lines_are_skipped() -> None:
    assert read_usage(DATA / "claude-malformed.jsonl").tokens == 80


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"   \r",
        b"{nope",
        b"[1]",
        b"42",
        b'"s"',
        b"null",
        b"\xff\xfe",
        b"[" * 100_000,
        b"1" * 5000,
    ],
)
def test_parse_line_rejects_without_raising(raw: bytes) -> None:
    assert parse_line(raw) is None


def test_parse_line_accepts_bom_and_crlf() -> None:
    assert parse_line(b'\xef\xbb\xbf{"type":"x"}\r') == {"type": "x"}
    assert parse_line('{"type":"x"}') == {"type": "x"}


@pytest.mark.parametrize(
    "usage",
    [
        {"input_tokens": "12", "output_tokens": None},
        {"input_tokens": True, "output_tokens": 1.5},
        {"input_tokens": float("inf"), "output_tokens": float("nan")},
        {"input_tokens": -3, "cache_creation": "x", "cache_creation_input_tokens": []},
        {"cache_creation": {"ephemeral_5m_input_tokens": {}, "ephemeral_1h_input_tokens": -1}},
    ],
)
def test_bad_numbers_count_as_zero(usage: dict[str, object]) -> None:
    assert claude_usage_tokens(usage) == 0


def test_integral_floats_count() -> None:
    assert claude_usage_tokens({"input_tokens": 3.0, "output_tokens": 2}) == 5


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "assistant"},
        {"type": "assistant", "message": None},
        {"type": "assistant", "message": {"usage": None}},
        {"type": "assistant", "message": {"usage": [1]}},
        {"type": "user", "message": {"usage": {"input_tokens": 1}}},
    ],
)
def test_claude_response_ignores_lines_without_usage(obj: dict[str, object]) -> None:
    assert claude_response(obj) is None


def test_missing_file_is_a_transcript_error(tmp_path: Path) -> None:
    path = tmp_path / "missing.jsonl"
    with pytest.raises(TranscriptError) as caught:
        read_usage(path)
    assert isinstance(caught.value, GoalfileError)
    assert caught.value.file == str(path)
    assert "cannot read" in caught.value.message


def test_directory_is_a_transcript_error(tmp_path: Path) -> None:
    with pytest.raises(TranscriptError):
        read_usage(tmp_path)


def test_file_without_any_json_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "garbage.jsonl"
    path.write_bytes(b"\n\nhello world\n{broken\n\xff\n")
    for host in (None, Host.CLAUDE, Host.CODEX):
        with pytest.raises(TranscriptError) as caught:
            read_usage(path, host)
        assert caught.value.file == str(path)
        assert caught.value.line == 3
        assert str(path) in caught.value.render()


def test_file_of_neither_format_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "other.jsonl"
    path.write_text("\n" + jline({"name": "x"}) + jline({"type": "mystery", "value": 1}))
    with pytest.raises(TranscriptError) as caught:
        read_usage(path)
    assert "neither" in caught.value.message
    assert caught.value.line == 2


def test_empty_file_needs_an_explicit_host(tmp_path: Path) -> None:
    path = tmp_path / "empty-session.jsonl"
    path.write_text("")
    with pytest.raises(TranscriptError) as caught:
        read_usage(path)
    assert "named, a host reads a transcript that may still be empty" in caught.value.message
    assert caught.value.hint is None  # no command can: the host names the transcript
    assert read_usage(path, Host.CODEX) == SessionUsage(
        host=Host.CODEX, session_id="empty-session", tokens=0, transcript=str(path)
    )
    path.write_text("\n\n  \n")
    assert read_usage(path, Host.CLAUDE).tokens == 0


def test_reader_recovers_once_a_detectable_line_arrives(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text("")
    reader = TranscriptReader(path)
    with pytest.raises(TranscriptError):
        reader.poll()
    with path.open("a") as handle:
        handle.write(assistant("m", "r", 2, 3))
    assert reader.poll().tokens == 5
