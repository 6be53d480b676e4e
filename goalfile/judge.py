"""The judge protocol for review rows: one JSON packet in, one JSON object out.

The judge is a command (``verify --judge CMD`` or ``GOALFILE_JUDGE``) run through the goal's
shell with the packet on stdin. Its reply must be exactly one JSON object with the keys
``verdict`` (``met`` or ``unmet``), ``quote`` and ``reason``, nothing else. Anything that is
not such an object — invalid JSON, an unknown field, an empty reason, ``met`` whose quote is not
in the artifact, a timeout, a crash — makes the row ``error`` with the exact reason, never
``met``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from goalfile.model import Criterion, Goal, RowResult, Verdict
from goalfile.review import quote_present
from goalfile.words import noun

SCHEMA_VERSION = 1
REPLY_LIMIT = 1_000_000  # bytes of judge output read
DEFAULT_TIMEOUT = 120.0
REPLY_KEYS = frozenset({"verdict", "quote", "reason"})


@dataclass(frozen=True, kw_only=True)
class JudgeReply:
    verdict: Verdict
    quote: str
    reason: str


class JudgeRejected(Exception):
    """The reply is not acceptable; the message is the exact reason."""


def packet(
    *,
    goal: Goal,
    row: Criterion,
    artifact: str,
    artifact_text: str,
    truncated: bool,
    results: Sequence[RowResult],
) -> bytes:
    document = {
        "schema_version": SCHEMA_VERSION,
        "goal": {"slug": goal.slug, "end_state": goal.end_state, "non_goals": list(goal.non_goals)},
        "criterion": {"id": row.id, "criterion": row.criterion, "expected": row.expected},
        "artifact": {"path": artifact, "text": artifact_text, "truncated": truncated},
        "deterministic_results": [
            {"id": r.id, "verdict": r.verdict.value, "exit": r.exit, "evidence": r.evidence}
            for r in results
        ],
        "reply": {
            "format": 'exactly one JSON object: {"verdict": "met"|"unmet", "quote": "...", '
            '"reason": "..."}',
            "rules": "met needs a quote that occurs verbatim in the artifact; reason non-empty",
        },
    }
    # bytes of the goal file that are not UTF-8 reach the judge as U+FFFD
    return json.dumps(document, ensure_ascii=False).encode("utf-8", "replace")


def parse_reply(raw: bytes, *, artifact_text: str) -> JudgeReply:
    """Accept exactly one JSON object of the reply shape, or raise JudgeRejected."""
    text = raw.decode("utf-8", "replace").strip()
    if not text:
        raise JudgeRejected("the judge printed nothing")
    try:
        value, end = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as exc:
        raise JudgeRejected(f"the judge's reply is not JSON: {exc.msg} at char {exc.pos}") from None
    except RecursionError:
        raise JudgeRejected("the judge's reply is JSON nested too deeply to read") from None
    except ValueError:  # a number of more digits than int() reads
        raise JudgeRejected("the judge's reply holds a number too long to read") from None
    if text[end:].strip():
        raise JudgeRejected("the judge printed more than one JSON value")
    if not isinstance(value, Mapping):
        raise JudgeRejected("the judge's reply is not a JSON object")
    unknown = sorted(set(value) - REPLY_KEYS)
    if unknown:
        raise JudgeRejected(
            f"the judge's reply has unknown {noun(len(unknown), 'field')}: {', '.join(unknown)}"
        )
    missing = sorted(REPLY_KEYS - set(value))
    if missing:
        raise JudgeRejected(
            f"the judge's reply lacks the {noun(len(missing), 'field')} {', '.join(missing)}"
        )
    verdict, quote, reason = value["verdict"], value["quote"], value["reason"]
    if verdict not in ("met", "unmet"):
        raise JudgeRejected(f"the judge's verdict {verdict!r} is not met or unmet")
    if not isinstance(quote, str) or not isinstance(reason, str):
        raise JudgeRejected("the judge's quote and reason must be strings")
    if not reason.strip():
        raise JudgeRejected("the judge's reason is empty")
    if verdict == "met" and not quote.strip():
        raise JudgeRejected("the judge said met without a quote")
    if verdict == "met" and not quote_present(quote, artifact_text):
        raise JudgeRejected("the judge's quote does not occur in the artifact")
    return JudgeReply(verdict=Verdict(verdict), quote=quote, reason=reason)
