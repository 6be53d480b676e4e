"""The lint rule for an entry's `status:` and `contract:` lines joined into one finds them by
searching for `contract:` and matching its pattern at the start of each line that holds one;
it must find exactly the lines the pattern's own search, tried at every character, finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import lint

PIECES = [
    "",
    "text",
    "status: active",
    "status: active contract: 3b7b67af2683",
    "status: met\tcontract:",
    "   status: blocked (no budget) contract: 3b7b67af2683 ",
    "    status: active contract: 3b7b67af2683",
    "status: Active contract: 3b7b67af2683",
    "status:active contract:3b7b67af2683",
    "status: active, see contract: 3b7b67af2683",
    "status: active contract: 3b7b67af2683 contract:",
    "status: active contract: 3b7b67af268",
    "contract: 3b7b67af2683",
    " contract: 3b7b67af2683",
    "x contract: status: active contract:",
    "status: active contract: contract: 3b7b67af2683",
    "status: activecontract: 3b7b67af2683",
    "\tstatus: active contract:",
]
ENDS = ["", " ", "\t", "\r", "\r\r", " \r", "\r ", "\t\r"]


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(ENDS)), max_size=20),
    st.integers(min_value=0, max_value=80),
    st.integers(min_value=0, max_value=500),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_the_search_finds_the_lines_the_pattern_finds(
    lines: list[tuple[str, str]], start: int, length: int, newline: str
) -> None:
    text = newline.join(piece + end for piece, end in lines)
    start = min(start, len(text))
    end = min(start + length, len(text))
    found = [m.span() for m in lint.rewrapped_lines(text, start, end)]
    assert found == [m.span() for m in lint._rewrapped_patterns()[0].finditer(text, start, end)]
