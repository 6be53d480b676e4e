"""``exit N``, the `expected` text most rows hold, read without the expected language's
modules: the run judges such a row by its exit status alone, and the contract's digest writes
it as it is (:mod:`goalfile.contractdigest`). :func:`goalfile.expect.parse_expected` reads
every other text."""

from __future__ import annotations

WS_TEXT = " \t\n\r\x0b\x0c"  # ASCII whitespace, the set bytes.strip() and bytes.isspace() use


def plain_exit(text: str) -> int | None:
    """N when ``text`` is ``exit N`` (one space, N from 0 to 255 in ASCII digits) with only
    ASCII whitespace around it; None for any other text."""
    word, space, number = text.strip(WS_TEXT).partition(" ")
    if word != "exit" or not space or not number.isascii() or not number.isdigit():
        return None
    return int(number) if len(number) <= 3 and int(number) <= 255 else None
