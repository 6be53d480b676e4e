"""The contract pin a goal's frontmatter holds, read without the contract's machinery (which
loads the expected-language parser): what the commands that only read a pin need of it.
``handedit.met_gaps`` computes, for a `met` goal only, the digest of the contract it holds
now (:mod:`goalfile.contractdigest`): what a verify entry must record to back it."""

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
