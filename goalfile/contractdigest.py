"""The digest of the contract a goal holds, computed from the goal: the bytes
:mod:`goalfile.contract` documents and hashes (:meth:`goalfile.contract.Contract.digest`
hashes through :func:`digest_of`, and every row and setting is normalised here), without
building the contract's values or loading the expected language for an `exit N`.

The Stop hook compares it, at every stop on a met goal, with the digest the goal's newest
verify entry recorded (:func:`goalfile.handedit.met_gaps`): that answer, given whenever the
work is done, then loads neither the contract's module nor the expected language's (about
3 ms of a start)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from goalfile import settings
from goalfile.digest import sha256
from goalfile.model import Criterion, Goal
from goalfile.pin import PREFIX
from goalfile.plainexit import plain_exit

# one row as the contract holds it: id, check, expected, kind, timeout
Fields = tuple[str, str, str, str, float | None]


def canonical(value: object, before: str) -> bytes:
    """``before`` and ``value`` as canonical JSON (keys sorted, no spaces), UTF-8."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return (before + text).encode("utf-8", "surrogateescape")


def normal_expected(text: str) -> str:
    """An `expected` text as the expected-language formatter prints it when it parses, else
    with its whitespace collapsed."""
    status = plain_exit(text)
    if status is not None:  # what format_expected(parse_expected(text)) gives, unloaded
        return f"exit {status}"
    from goalfile.expect import format_expected, parsed_or_none

    parsed = parsed_or_none(text)
    return " ".join(text.split()) if parsed is None else format_expected(parsed)


def row_fields(row: Criterion) -> Fields:
    """A criterion as the contract holds it: what its check runs and what it expects."""
    kind = (row.kind_text or "deterministic").strip().lower()
    return (row.id, settings.command(row), normal_expected(row.expected), kind, row.timeout)


def row_order(fields: Fields) -> tuple[str, str, str, str, bool, float]:
    """The order of rows in a contract: by their fields, except that a row without a timeout
    comes before one with (comparing None with a number raises, and two rows of one id differ
    only there when a file lists the id twice)."""
    rid, check, expected, kind, timeout = fields
    return (rid, check, expected, kind, timeout is not None, timeout or 0.0)


def row_json(fields: Fields) -> dict[str, object]:
    rid, check, expected, kind, timeout = fields
    return {"id": rid, "check": check, "expected": expected, "kind": kind, "timeout": timeout}


def normal_items(items: Iterable[str]) -> tuple[str, ...]:
    """Non-goals with their whitespace collapsed, sorted."""
    return tuple(sorted(" ".join(item.split()) for item in items))


def number_text(value: float) -> str:
    """A time limit in seconds as the contract shows it: `30`, `0.5`."""
    return str(int(value)) if value.is_integer() else repr(value)


def normal_settings(goal: Goal) -> tuple[tuple[str, str], ...]:
    """Where and how the checks run, as far as the goal sets it."""
    found: list[tuple[str, str]] = []
    where = settings.cwd(goal)  # the very values the checks run with
    if where is not None:
        found.append(("cwd", where))
    if settings.shell(goal) != settings.DEFAULT_SHELL:
        found.append(("shell", settings.shell(goal)))
    if goal.timeout is not None:
        found.append(("timeout", number_text(goal.timeout)))
    return tuple(found)


def digest_of(
    rows: Iterable[dict[str, object]],
    non_goals: Sequence[str],
    run_settings: Sequence[tuple[str, str]],
) -> str:
    """SHA-256 of the canonical JSON ``{"criteria": [...], "non_goals": [...]}`` (with
    ``"settings"`` when a goal sets one), fed to the hash a row at a time: the same bytes as
    one ``json.dumps`` of the whole document, without holding them all (a table may have a
    hundred thousand rows). ``rows`` in the contract's order (:func:`row_order`)."""
    hashed = sha256(b'{"criteria":[')
    for index, row in enumerate(rows):
        hashed.update(canonical(row, "," if index else ""))
    hashed.update(canonical(list(non_goals), '],"non_goals":'))
    if run_settings:
        hashed.update(canonical(dict(run_settings), ',"settings":'))
    hashed.update(b"}")
    return PREFIX + hashed.hexdigest()


def digest(goal: Goal) -> str:
    """The digest of the contract ``goal`` holds (``contract.contract_of(goal).digest()``)."""
    rows = sorted(map(row_fields, goal.criteria), key=row_order)
    return digest_of(map(row_json, rows), normal_items(goal.non_goals), normal_settings(goal))
