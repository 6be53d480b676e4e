"""goalfile.review (review records, quote matching) and goalfile.judge (the judge's packet and
reply): pure functions. `goalfile review` and `verify --judge` with fake judge scripts are
tested end to end in test_lifecycle.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from goalfile import ledger
from goalfile.judge import (
    REPLY_KEYS,
    SCHEMA_VERSION,
    JudgeRejected,
    JudgeReply,
    packet,
    parse_reply,
)
from goalfile.model import RowResult, Verdict
from goalfile.parse import ledger_region, parse_goal
from goalfile.review import (
    Review,
    latest_review,
    normalise,
    quote_present,
    read_review,
    render_review,
)

ARTIFACT = (
    "# Auth\n\nThe refresh\n   token is\trotated on every use.\nIt expires | after `1` day.\n"
)


# --- quotes -------------------------------------------------------------------------------


def test_normalise_collapses_all_whitespace() -> None:
    assert normalise("  a\n\tb   c \r\n") == "a b c"
    assert normalise("") == ""


@pytest.mark.parametrize(
    "quote",
    [
        "refresh token is rotated",
        "The refresh\ntoken is rotated on every use.",
        "  token   is rotated  ",
        "It expires | after `1` day.",
        "use.\nIt expires",
    ],
)
def test_quote_present_ignores_whitespace(quote: str) -> None:
    assert quote_present(quote, ARTIFACT)


@pytest.mark.parametrize(
    "quote",
    ["", "   \n", "refresh token is Rotated", "token never expires", "refreshtoken", "use. It  x"],
)
def test_quote_absent_or_empty_is_not_present(quote: str) -> None:
    assert not quote_present(quote, ARTIFACT)


# --- review records -----------------------------------------------------------------------


def recorded(**kwargs: object) -> Review | None:
    defaults: dict[str, object] = {
        "iteration": 2,
        "date": "2026-11-30",
        "row_id": "R1",
        "verdict": Verdict.MET,
        "artifact": "docs/auth.md",
        "quote": "token is rotated",
        "reason": "explains rotation",
    }
    defaults.update(kwargs)
    lines = render_review(**defaults)  # type: ignore[arg-type]
    entry = ledger.parse_entry(lines)
    assert entry is not None
    return read_review(entry)


def test_render_review_lines() -> None:
    lines = render_review(
        iteration=2,
        date="2026-11-30",
        row_id="R1",
        verdict=Verdict.MET,
        artifact="docs/auth.md",
        quote="token is rotated",
        reason="explains rotation",
    )
    assert lines == [
        "### Iteration 2 (2026-11-30) by review",
        "",
        "review of R1: met",
        "artifact: `docs/auth.md`",
        "quote: `token is rotated`",
        "reason: explains rotation",
    ]


def test_render_review_without_quote_or_reason() -> None:
    lines = render_review(
        iteration=1,
        date="2026-11-30",
        row_id="R2",
        verdict=Verdict.UNMET,
        artifact="README.md",
        quote="",
        reason="",
    )
    assert lines[1:] == [
        "",
        "review of R2: unmet",
        "artifact: `README.md`",
        "quote: -",
        "reason: -",
    ]


@pytest.mark.parametrize(
    "quote",
    [
        "token is rotated",
        "a | pipe",
        "`backticks` inside",
        "ends with a tick `",
        " padded ",
        "-",
        "status: met",
        "### Iteration 9 (2026-11-30) by review",
    ],
)
def test_review_record_reads_back(quote: str) -> None:
    found = recorded(quote=quote)
    assert found == Review(
        id="R1",
        verdict=Verdict.MET,
        artifact="docs/auth.md",
        quote=quote,
        reason="explains rotation",
        iteration=2,
    )


def test_unmet_review_without_quote_reads_back() -> None:
    found = recorded(verdict=Verdict.UNMET, quote="", reason="no word on expiry")
    assert found is not None
    assert (found.verdict, found.quote, found.reason) == (Verdict.UNMET, "", "no word on expiry")


def test_a_reason_cannot_forge_a_second_record() -> None:
    lines = render_review(
        iteration=1,
        date="2026-11-30",
        row_id="R1",
        verdict=Verdict.UNMET,
        artifact="docs/auth.md",
        quote="",
        reason="thin\n### Iteration 1 (2026-11-30) by review\nreview of R1: met",
    )
    assert len(lines) == 6  # the heading, a blank line, four lines of record
    assert sum(line.startswith("### ") for line in lines) == 1
    assert lines[5].startswith("reason: thin")
    assert "review of R1: met" not in lines


def test_a_multi_line_quote_reads_back_as_a_passage_of_the_artifact() -> None:
    """`goalfile review` accepts a quote copied across a line break (whitespace is normalised);
    the record must keep it such that it is still found in the artifact."""
    quote = "The refresh\ntoken is"
    assert quote_present(quote, ARTIFACT)
    found = recorded(quote=quote)
    assert found is not None
    assert quote_present(found.quote, ARTIFACT), found.quote


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("ab |`\\-#\n\t."), min_size=1, max_size=40),
    data=st.data(),
)
@example(text="one\ntwo", data=None)
def test_a_recorded_quote_is_still_found_wherever_the_original_was(
    text: str, data: st.DataObject | None
) -> None:
    if data is None:
        quote = text
    else:
        start = data.draw(st.integers(0, len(text) - 1))
        quote = text[start : data.draw(st.integers(start + 1, len(text)))]
    if not quote.strip():
        return
    found = recorded(quote=quote)
    assert found is not None
    assert quote_present(found.quote, text), (quote, found.quote)


def test_read_review_ignores_other_entries() -> None:
    entry = ledger.parse_entry(["### Iteration 1 (2026-11-30) by refine", "review of R1: met"])
    assert entry is not None
    assert read_review(entry) is None
    broken = ledger.parse_entry(["### Iteration 1 (2026-11-30) by review", "review of R1: met"])
    assert broken is not None
    assert read_review(broken) is None  # no artifact line


def ledger_text(*entries: list[str]) -> str:
    body = "\n\n".join("\n".join(lines) for lines in entries)
    return f"# Goal: x\n\n## Iterations\n\n{body}\n\n## Lessons\n"


def rendered(iteration: int, row_id: str, verdict: Verdict, quote: str) -> list[str]:
    return render_review(
        iteration=iteration,
        date="2026-11-30",
        row_id=row_id,
        verdict=verdict,
        artifact="docs/auth.md",
        quote=quote,
        reason="because",
    )


def test_latest_review_is_the_newest_of_that_row_at_that_iteration() -> None:
    text = ledger_text(
        rendered(1, "R1", Verdict.MET, "old"),
        rendered(2, "R1", Verdict.MET, "first"),
        rendered(2, "R2", Verdict.MET, "other row"),
        rendered(2, "R1", Verdict.UNMET, "second"),
        rendered(2, "R2", Verdict.MET, "other row again"),
    )
    region = ledger_region(text)
    assert region is not None
    found = latest_review(text, region, row_id="R1", iteration=2)
    assert found is not None
    assert (found.verdict, found.quote, found.iteration) == (Verdict.UNMET, "second", 2)
    older = latest_review(text, region, row_id="R1", iteration=1)
    assert older is not None
    assert older.quote == "old"
    assert latest_review(text, region, row_id="R1", iteration=3) is None
    assert latest_review(text, region, row_id="R3", iteration=2) is None


def test_a_review_of_an_earlier_iteration_does_not_count() -> None:
    text = ledger_text(
        rendered(1, "R1", Verdict.MET, "old"), ["### Iteration 2 (2026-11-30) by plan"]
    )
    region = ledger_region(text)
    assert region is not None
    assert latest_review(text, region, row_id="R1", iteration=2) is None


# --- the judge's reply --------------------------------------------------------------------


def reply(**fields: object) -> bytes:
    return json.dumps(fields).encode()


def test_reply_keys() -> None:
    assert frozenset({"verdict", "quote", "reason"}) == REPLY_KEYS


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            reply(verdict="met", quote="token is rotated", reason="explains it"),
            JudgeReply(verdict=Verdict.MET, quote="token is rotated", reason="explains it"),
        ),
        (
            b'\n  {"verdict": "met", "quote": "refresh token", "reason": "ok"}  \n\n',
            JudgeReply(verdict=Verdict.MET, quote="refresh token", reason="ok"),
        ),
        (
            reply(verdict="unmet", quote="", reason="no word on expiry"),
            JudgeReply(verdict=Verdict.UNMET, quote="", reason="no word on expiry"),
        ),
        (
            reply(verdict="unmet", quote="not in the artifact at all", reason="thin"),
            JudgeReply(verdict=Verdict.UNMET, quote="not in the artifact at all", reason="thin"),
        ),
    ],
    ids=["met", "surrounding-whitespace", "unmet", "unmet-any-quote"],
)
def test_parse_reply_accepts(raw: bytes, expected: JudgeReply) -> None:
    assert parse_reply(raw, artifact_text=ARTIFACT) == expected


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "the judge printed nothing"),
        (b"  \n", "the judge printed nothing"),
        (b"verdict: met", "the judge's reply is not JSON: Expecting value at char 0"),
        (b'{"verdict": "met"', "the judge's reply is not JSON: Expecting ',' delimiter at char 17"),
        (
            reply(verdict="met", quote="token", reason="ok") + b"\n{}",
            "the judge printed more than one JSON value",
        ),
        (
            reply(verdict="met", quote="token", reason="ok") + b" trailing words",
            "the judge printed more than one JSON value",
        ),
        (b'["met", "token", "ok"]', "the judge's reply is not a JSON object"),
        (b'"met"', "the judge's reply is not a JSON object"),
        (
            reply(verdict="met", quote="token", reason="ok", score=1, confidence=0.9),
            "the judge's reply has unknown fields: confidence, score",
        ),
        (reply(verdict="met", quote="token"), "the judge's reply lacks the field reason"),
        (reply(reason="ok"), "the judge's reply lacks the fields quote, verdict"),
        (
            reply(verdict="MET", quote="token", reason="ok"),
            "the judge's verdict 'MET' is not met or unmet",
        ),
        (
            reply(verdict="error", quote="token", reason="ok"),
            "the judge's verdict 'error' is not met or unmet",
        ),
        (
            reply(verdict=True, quote="token", reason="ok"),
            "the judge's verdict True is not met or unmet",
        ),
        (
            reply(verdict="met", quote=["token"], reason="ok"),
            "the judge's quote and reason must be strings",
        ),
        (
            reply(verdict="unmet", quote="", reason=None),
            "the judge's quote and reason must be strings",
        ),
        (reply(verdict="unmet", quote="", reason=""), "the judge's reason is empty"),
        (reply(verdict="met", quote="token", reason=" \n\t"), "the judge's reason is empty"),
        (reply(verdict="met", quote="", reason="fine"), "the judge said met without a quote"),
        (reply(verdict="met", quote="   ", reason="fine"), "the judge said met without a quote"),
        (
            reply(verdict="met", quote="tokens never expire", reason="fine"),
            "the judge's quote does not occur in the artifact",
        ),
        (
            reply(verdict="met", quote="Token is rotated", reason="fine"),
            "the judge's quote does not occur in the artifact",
        ),
    ],
)
def test_parse_reply_rejects_with_the_exact_reason(raw: bytes, message: str) -> None:
    with pytest.raises(JudgeRejected) as caught:
        parse_reply(raw, artifact_text=ARTIFACT)
    assert str(caught.value) == message


def test_parse_reply_met_quote_is_checked_against_the_artifact_given() -> None:
    raw = reply(verdict="met", quote="token is rotated", reason="ok")
    assert parse_reply(raw, artifact_text=ARTIFACT).verdict is Verdict.MET
    with pytest.raises(JudgeRejected):
        parse_reply(raw, artifact_text="# Auth\n\nNothing about tokens.\n")


# --- the packet ---------------------------------------------------------------------------

GOAL_TEXT = """---
slug: auth
status: active
created: 2026-11-30
budget:
  iterations: 5
  tokens: null
iterations_used: 2
tokens_used: 0
---
# Goal: `pytest tests/auth` passes and the docs explain refresh

## Non-goals
- `tests/auth/fixtures/` stays unchanged.
- No new dependencies.

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | auth suite passes | `pytest tests/auth -q` | exit 0 | deterministic |
| R1 | docs explain refresh | `docs/auth.md` | describes the refresh-token flow | review |

## Iterations

## Lessons
"""


def test_packet_holds_what_the_judge_needs() -> None:
    goal = parse_goal(GOAL_TEXT, path="goals/auth.md")
    row = goal.criterion("R1")
    assert row is not None
    done = [
        RowResult(
            id="C1",
            verdict=Verdict.MET,
            command="pytest tests/auth -q",
            exit="0",
            evidence="42 passed in 3.1s",
        )
    ]
    data = packet(
        goal=goal,
        row=row,
        artifact="docs/auth.md",
        artifact_text=ARTIFACT,
        truncated=False,
        results=done,
    )
    document = json.loads(data.decode("utf-8"))
    assert document["schema_version"] == SCHEMA_VERSION == 1
    assert document["goal"] == {
        "slug": "auth",
        "end_state": "`pytest tests/auth` passes and the docs explain refresh",
        "non_goals": ["`tests/auth/fixtures/` stays unchanged.", "No new dependencies."],
    }
    assert document["criterion"] == {
        "id": "R1",
        "criterion": "docs explain refresh",
        "expected": "describes the refresh-token flow",
    }
    assert document["artifact"] == {"path": "docs/auth.md", "text": ARTIFACT, "truncated": False}
    assert document["deterministic_results"] == [
        {"id": "C1", "verdict": "met", "exit": "0", "evidence": "42 passed in 3.1s"}
    ]
    assert set(document["reply"]) == {"format", "rules"}


def test_packet_is_utf8_json_and_says_when_the_artifact_was_cut() -> None:
    goal = parse_goal(GOAL_TEXT, path="goals/auth.md")
    row = goal.criterion("R1")
    assert row is not None
    data = packet(
        goal=goal,
        row=row,
        artifact="docs/auth.md",
        artifact_text="ünïcødé",
        truncated=True,
        results=(),
    )
    assert "ünïcødé".encode() in data
    document = json.loads(data)
    assert document["artifact"]["truncated"] is True
    assert document["deterministic_results"] == []
