"""goalfile.tail: the kept end of a stream, checked against a naive reading of all of it."""

from __future__ import annotations

from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile.tail import (
    MAX_TAIL_BYTES,
    MAX_TAIL_LINES,
    OutputTail,
    StreamSummary,
    decode_line,
    keep_last,
)


def test_decode_line_replaces_bad_bytes_and_drops_cr() -> None:
    assert decode_line(b"a\xffb\r") == "a\ufffdb"
    assert decode_line(b"\x00\x1b[31mred") == "\x00\x1b[31mred"


def test_keep_last_respects_both_limits() -> None:
    lines = deque([b"aaaa", b"bb", b"c", b"dd"])
    assert keep_last(lines, 9, max_lines=3, max_bytes=4) == 3
    assert list(lines) == [b"c", b"dd"]


def test_tail_counts_everything_and_keeps_the_end() -> None:
    tail = OutputTail(max_lines=3, max_bytes=100)
    for chunk in (b"one\ntw", b"o\nthree\nfour\n", b"five"):
        tail.feed(chunk)
    assert tail.summary() == StreamSummary(
        tail=("three", "four", "five"), total_bytes=23, truncated=True
    )


def test_tail_byte_limit_and_long_lines() -> None:
    tail = OutputTail(max_lines=10, max_bytes=5)
    tail.feed(b"abc\nde\n")
    assert tail.summary().tail == ("abc", "de")
    assert not tail.summary().truncated
    tail.feed(b"f\n")
    assert tail.summary().tail == ("de", "f")
    tail.feed(b"0123456789")  # unterminated and too long: its first 5 bytes are kept
    summary = tail.summary()
    assert summary.tail == ("01234",)
    assert summary.truncated
    assert summary.total_bytes == 19


def test_tail_of_nothing() -> None:
    assert OutputTail().summary() == StreamSummary(tail=(), total_bytes=0, truncated=False)


def test_tail_defaults() -> None:
    tail = OutputTail()
    tail.feed(b"x" * (MAX_TAIL_BYTES + 10) + b"\n" + b"y\n" * (MAX_TAIL_LINES + 5))
    summary = tail.summary()
    assert summary.tail == ("y",) * MAX_TAIL_LINES
    assert summary.truncated


def reference_tail(data: bytes, *, max_lines: int, max_bytes: int) -> StreamSummary:
    """The tail as a naive reading of the whole stream would keep it."""
    parts = data.split(b"\n")
    if data.endswith(b"\n") or not data:
        parts.pop()
    cut = any(len(part) > max_bytes for part in parts)
    kept: list[bytes] = []
    size = 0
    for line in reversed([part[:max_bytes] for part in parts]):
        if len(kept) == max_lines or size + len(line) > max_bytes:
            break
        kept.insert(0, line)
        size += len(line)
    return StreamSummary(
        tail=tuple(decode_line(line) for line in kept),
        total_bytes=len(data),
        truncated=cut or len(kept) < len(parts),
    )


@settings(max_examples=1000, deadline=None)
@given(
    pieces=st.lists(st.sampled_from([b"a", b"bcd", b"\n", b"\n\n", b"\xff", b"\r\n", b"xyzzy!"])),
    cuts=st.lists(st.integers(min_value=0, max_value=200)),
    max_lines=st.integers(min_value=1, max_value=6),
    max_bytes=st.integers(min_value=1, max_value=12),
    batch=st.integers(min_value=1, max_value=40),
)
def test_tail_matches_a_naive_reading_however_the_stream_is_chunked(
    pieces: list[bytes], cuts: list[int], max_lines: int, max_bytes: int, batch: int
) -> None:
    data = b"".join(pieces)
    tail = OutputTail(max_lines=max_lines, max_bytes=max_bytes, batch=batch)
    start = 0
    for cut in [*sorted(cuts), len(data)]:
        tail.feed(data[start:cut])
        start = max(start, cut)
    assert tail.summary() == reference_tail(data, max_lines=max_lines, max_bytes=max_bytes)


def test_a_head_is_kept_only_when_the_tail_was_cut_and_never_overlaps_it() -> None:
    tail = OutputTail(max_lines=3, max_bytes=100, head_bytes=9)
    tail.feed(b"one\ntwo\n")
    assert tail.summary().head == ()  # all of it is in the tail
    for chunk in (b"three\n", b"four\nfive\nsix\n"):
        tail.feed(chunk)
    summary = tail.summary()
    assert summary.tail == ("four", "five", "six")
    assert summary.head == ("one", "two")  # the first 9 bytes hold two whole lines
    short = OutputTail(max_lines=2, max_bytes=100, head_bytes=1000)
    short.feed(b"a\nb\nc\n")
    assert short.summary().head == ("a",)  # what the tail keeps is not repeated


@given(st.lists(st.binary(max_size=40), max_size=30), st.integers(1, 60))
@settings(max_examples=200, deadline=None)
def test_head_and_tail_are_the_start_and_the_end_of_the_stream(
    chunks: list[bytes], head_bytes: int
) -> None:
    tail = OutputTail(max_lines=5, max_bytes=50, head_bytes=head_bytes)
    for chunk in chunks:
        tail.feed(chunk)
    summary = tail.summary()
    lines = b"".join(chunks).split(b"\n")
    if not summary.truncated:
        assert summary.head == ()
        return
    head = summary.head
    # the head is the stream's first lines (the last one may be cut when it is the only one)
    expected = [decode_line(line) for line in lines[: len(head)]]
    assert list(head[:-1]) == expected[:-1]
    if head:
        assert expected[-1].startswith(head[-1]) or len(head) == 1
    # and never reaches into what the tail shows
    assert len(head) + len(summary.tail) <= len(lines)
