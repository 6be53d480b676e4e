"""The contract of a goal and its digest: what `activate` pins and `verify` holds it to.

The contract is the criteria rows (id, check, expected, kind, timeout) and the non-goals.
Normalisation, so that cosmetic edits keep the digest and semantic ones change it:

- rows are taken by id, in id order (the table's column order, padding and alignment row are
  not part of the contract; neither is the order of the rows);
- ``check`` is the command as run (code-span content with ``\\|`` unescaped), ends stripped,
  inner whitespace kept (inside quotes it can matter);
- ``expected`` is re-printed by the expected-language formatter when it parses, so spacing and
  separators (``;`` or ``and``) do not count; else its text with whitespace collapsed;
- ``kind`` in lower case (``deterministic`` when empty); ``timeout`` as a number or null;
- non-goals with whitespace collapsed, sorted.

The digest is SHA-256 over the canonical JSON of that structure: ``sha256:<64 hex>``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from goalfile.errors import GoalfileError, Refused
from goalfile.model import Criterion, Goal

PREFIX = "sha256:"
SHORT = 12


@dataclass(frozen=True, kw_only=True, order=True)
class ContractRow:
    id: str
    check: str
    expected: str
    kind: str
    timeout: float | None

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "check": self.check,
            "expected": self.expected,
            "kind": self.kind,
            "timeout": self.timeout,
        }


def normal_expected(text: str) -> str:
    from goalfile.expect import format_expected, parse_expected

    try:
        return format_expected(parse_expected(text))
    except GoalfileError:
        return " ".join(text.split())


def contract_row(row: Criterion) -> ContractRow:
    return ContractRow(
        id=row.id,
        check=row.check.strip(),
        expected=normal_expected(row.expected),
        kind=(row.kind_text or "deterministic").strip().lower(),
        timeout=row.timeout,
    )


def contract_rows(goal: Goal) -> tuple[ContractRow, ...]:
    return tuple(sorted(contract_row(row) for row in goal.criteria))


def normal_non_goals(goal: Goal) -> tuple[str, ...]:
    return tuple(sorted(" ".join(item.split()) for item in goal.non_goals))


def digest(goal: Goal) -> str:
    document = {
        "criteria": [row.to_json() for row in contract_rows(goal)],
        "non_goals": list(normal_non_goals(goal)),
    }
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return PREFIX + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def short(full: str) -> str:
    return full.removeprefix(PREFIX)[:SHORT]


def pinned(goal: Goal) -> str | None:
    value = goal.meta.get("contract")
    return value if isinstance(value, str) and value.strip() else None


def require_pin(goal: Goal) -> str:
    """The digest ``verify`` runs under; refuses a contract that no longer matches its pin.

    A goal without a pin (a file written before it was activated by goalfile) runs under its
    current digest; ``audit`` reports a ``met`` that no pin backs.
    """
    current = digest(goal)
    pin = pinned(goal)
    if pin is not None and pin.strip() != current:
        raise Refused(
            f"the contract changed since it was approved ({short(pin)} → {short(current)}); "
            "nothing was run",
            file=goal.path,
            line=goal.key_line("contract"),
            hint="a person re-approves the change with `goalfile activate --reapprove PATH "
            "--reason TEXT`, which ledgers the old and new rows",
        )
    return current
