"""Counts said in words: "1 change", "2 changes", never "1 change(s)"."""

from __future__ import annotations


def noun(count: int, word: str, plural: str | None = None) -> str:
    """``word`` for one, its plural (``word`` + "s" unless given) for any other count."""
    return word if count == 1 else (plural if plural is not None else word + "s")


def counted(count: int, word: str, plural: str | None = None) -> str:
    """The count and its noun: ``1 change``, ``2 changes``, ``0 changes``."""
    return f"{count} {noun(count, word, plural)}"
