"""`goalfile new SLUG`: a draft goal file from templates/goal.md."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from goalfile.commands.context import Context
from goalfile.errors import UsageError
from goalfile.files import create_new
from goalfile.ledger import code_span, plain_cell
from goalfile.parse import SLUG_RE
from goalfile.resources import template


@dataclass(frozen=True, kw_only=True)
class NewResult:
    path: str
    slug: str

    def to_json(self) -> dict[str, object]:
        return {"schema_version": 1, "path": self.path, "slug": self.slug, "status": "draft"}


def render_new(
    *,
    slug: str,
    today: str,
    end_state: str | None = None,
    iterations: int | None = 5,
    tokens: int | None = None,
    check: str | None = None,
    expected: str | None = None,
    criterion: str | None = None,
    non_goals: Sequence[str] = (),
) -> str:
    if not SLUG_RE.match(slug):
        raise UsageError(
            f"slug {slug!r} is not lowercase letters, digits and '-'",
            hint="e.g. `goalfile new auth-refresh`",
        )
    values = {
        "slug": slug,
        "created": today,
        "iterations": "null" if iterations is None else str(iterations),
        "tokens": "null" if tokens is None else str(tokens),
        "end_state": " ".join((end_state or "FILL IN: one measurable end state").split()),
        "non_goal": "\n- ".join(" ".join(item.split()) for item in non_goals if item.strip())
        or "FILL IN: what must stay unchanged",
        "criterion": plain_cell(criterion or "FILL IN: what must hold"),
        "check": code_span(check) if check else "",
        "expected": plain_cell(expected) if expected else "",
    }
    text = template("goal.md")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def new_goal(
    *,
    slug: str,
    directory: str | None,
    ctx: Context,
    end_state: str | None = None,
    iterations: int | None = 5,
    tokens: int | None = None,
    check: str | None = None,
    expected: str | None = None,
    criterion: str | None = None,
    non_goals: Sequence[str] = (),
) -> NewResult:
    for name, value in (("iterations", iterations), ("tokens", tokens)):
        if value is not None and value <= 0:
            raise UsageError(f"--{name} must be a positive integer (omit it for unbounded)")
    text = render_new(
        slug=slug,
        today=ctx.today,
        end_state=end_state,
        iterations=iterations,
        tokens=tokens,
        check=check,
        expected=expected,
        criterion=criterion,
        non_goals=non_goals,
    )
    folder = Path(directory) if directory else ctx.cwd / "goals"
    path = folder / f"{slug}.md"
    create_new(path, text)
    shown = path.relative_to(ctx.cwd) if path.is_relative_to(ctx.cwd) else path
    return NewResult(path=str(shown), slug=slug)
