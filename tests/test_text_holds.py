"""``parse.holds``, the search lint makes before it loads the rules of link reference
definitions (`]:`), answers as ``in`` does: its first character looked for alone, the part
then from the end."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile.parse import holds


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="]:[x\n ", max_size=60), st.sampled_from(["]:", "[^", "<<<", "x]"]))
def test_holds_answers_as_in(text: str, part: str) -> None:
    assert holds(text, part) == (part in text)


def test_a_text_with_the_first_character_alone_does_not_hold_the_part() -> None:
    assert not holds("a ] b : c", "]:")
    assert holds("[x]: https://example.com", "]:")
