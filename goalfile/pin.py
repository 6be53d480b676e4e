"""The contract pin a goal's frontmatter holds, read without the contract's machinery: what
the checks of a `met` (``handedit.met_gaps``, on the Stop hook's path for a met goal) need
of it, kept apart from :mod:`goalfile.contract`, which loads the expected-language parser."""

from __future__ import annotations

from goalfile.model import Goal

PREFIX = "sha256:"
SHORT = 12


def short(full: str) -> str:
    """The short digest an entry records for the full one (``sha256:`` dropped)."""
    return full.strip().removeprefix(PREFIX)[:SHORT]


def pinned(goal: Goal) -> str | None:
    """The frontmatter's ``contract:`` pin, or None when it has none."""
    value = goal.meta.get("contract")
    return value if isinstance(value, str) and value.strip() else None
