"""`goalfile new SLUG "END STATE"`: a goal file from templates/goal.md, as a draft or active.

Each ``--check CMD`` pairs with the ``--expected TEXT`` at the same place in the command line
(rows C1, C2, ...); each ``--review PATH=WHAT`` adds a review row (R1, R2, ...). Whatever the
goal needs and the options do not give (the end state, a first check) is written as
``FILL IN: ...``, which ``lint`` reports as a warning in a draft and every other command
refuses. With ``activate=True`` nothing may be missing: the goal is checked before anything is
written, then activated (its contract pinned) in the same run.
"""

from __future__ import annotations

import decimal
import itertools
import math
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from goalfile.commands.context import Context
from goalfile.errors import GoalfileError, MeantOther, TakenSlug, UsageError
from goalfile.files import create_new
from goalfile.ledger import code_span, plain_cell
from goalfile.lint import PLACEHOLDER
from goalfile.model import Finding
from goalfile.newplace import MAX_SLUG, default_folder
from goalfile.parse import SLUG_RE
from goalfile.resources import template
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name
from goalfile.value import Compared

MARKUP = frozenset("\\`*_<>&[]~")  # characters Markdown may read as more than themselves
END_STATE_PLACEHOLDER = f"{PLACEHOLDER}: one measurable end state"
NON_GOAL_PLACEHOLDER = f"{PLACEHOLDER}: what must stay unchanged"
EXPECTED_PLACEHOLDER = f"{PLACEHOLDER}: what a passing run looks like, e.g. exit 0"


# the longest slug: SLUG.md is written through `.SLUG.md.goalfile-PID.XXXXXXXX.tmp`, which
# must fit the 255 bytes a file name may have, with room for the `-N` of a free slug
class NewRow(Compared):
    """One criterion row as the options gave it."""

    __slots__ = ("check", "criterion", "expected", "id", "review")

    def __init__(
        self, *, id: str, criterion: str, check: str, expected: str, review: bool = False
    ) -> None:
        self.id: Final = id
        self.criterion: Final = criterion
        self.check: Final = check
        self.expected: Final = expected
        self.review: Final = review

    def render(self) -> str:
        kind = "review" if self.review else "deterministic"
        # a cell means what Markdown shows: text with a backslash or markup goes in a code span
        # (two `$` may be math, which GitHub draws), and so does text GitHub draws otherwise
        # (an emoji shortcode such as `:x:`, a run of blanks, a star beside a symbol)
        literal = (
            any(char in self.expected for char in MARKUP)
            or self.expected.count("$") > 1
            or _drawn_otherwise(self.expected)
        )
        expected = code_span(self.expected) if literal else plain_cell(self.expected)
        return f"| {self.id} | {self.criterion} | {code_span(self.check)} | {expected} | {kind} |"


NEW_HELP = "`goalfile new --help` shows how its options go together"


def _drawn_otherwise(expected: str) -> bool:
    """Whether GitHub would draw ``expected`` written bare otherwise than goalfile reads it."""
    if ":" not in expected and "  " not in expected and expected.isascii():
        return False
    from goalfile.gfmview import difference

    return difference(plain_cell(expected), (), column="expected") is not None


_RESULT_FIELDS = (
    "contract",
    "criteria",
    "missing",
    "not_found",
    "operands",
    "outside",
    "path",
    "slug",
    "status",
    "warnings",
)


class NewResult(Compared, compared=_RESULT_FIELDS):  # not compared by its text
    __slots__ = (*_RESULT_FIELDS, "text")

    def __init__(
        self,
        *,
        path: str,
        slug: str,
        missing: tuple[str, ...] = (),
        status: str = "draft",
        criteria: tuple[str, ...] = (),
        contract: str | None = None,
        outside: str | None = None,
        text: str = "",
        not_found: dict[str, str] | None = None,
        operands: dict[str, str] | None = None,
        warnings: tuple[Finding, ...] = (),
    ) -> None:
        self.path: Final = path
        self.slug: Final = slug
        self.missing: Final = missing  # what is still a placeholder
        self.status: Final = status
        self.criteria: Final = criteria
        self.contract: Final = contract
        self.outside: Final = outside  # the note for a goal the Stop hook and discovery do not see
        self.text: Final = text  # as written when activated
        # check id -> program not found
        self.not_found: Final[dict[str, str]] = {} if not_found is None else not_found
        # check id -> what is not there
        self.operands: Final[dict[str, str]] = {} if operands is None else operands
        # lint's warnings about the rows of the file as written (goalfile.commands.cautions)
        self.warnings: Final = warnings

    def not_found_note(self) -> str | None:
        if not self.not_found:
            return None
        named = ", ".join(f"`{word}` ({cid})" for cid, word in self.not_found.items())
        correct = (
            f"correct the check in {self.path} before `goalfile activate`"
            if self.status == "draft"
            else "correct the check and have a person approve the change with `goalfile "
            f"activate --reapprove {shell_word(self.path)} --reason TEXT`"
        )
        return (
            f"note: the shell that will run the checks, in their folder, finds no {named} "
            "(`command -v`); a check whose command is not found is an `error` row, which "
            f"blocks the goal: install it before the first verify, or {correct}"
        )

    def operand_notes(self) -> tuple[str, ...]:
        """One note per check that names a path, module, target or git revision that is not
        there; for what the work may make (a new test file), correcting it is for when the work
        is not to make it."""
        from goalfile.commands.operands import UNTIL_WRITTEN
        from goalfile.commands.srclayout import INSTALL_FIX

        if not self.operands:
            return ()
        correct = (
            f"correct it in {self.path} before `goalfile activate`"
            if self.status == "draft"
            else "correct it and have a person approve the change with `goalfile activate "
            f"--reapprove {shell_word(self.path)} --reason TEXT`"
        )
        return tuple(
            f"note: {line}"
            if line.endswith((INSTALL_FIX, "installs them"))  # the machine's, not the goal's
            else f"note: {line}; "
            + (
                f"if the work is not to make it, {correct}"
                if line.endswith(UNTIL_WRITTEN)
                else correct
            )
            for line in self.operands.values()
        )

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "schema_version": 1,
            "path": self.path,
            "slug": self.slug,
            "status": self.status,
            "criteria": list(self.criteria),
            "missing": list(self.missing),
            "in_goal_folder": self.outside is None,
            "not_found": dict(self.not_found),
            "not_there": dict(self.operands),
            "warnings": [
                {
                    "code": f.code,
                    "line": f.line,
                    "column": f.column,
                    "message": f.message,
                    "hint": f.hint,
                }
                for f in self.warnings
            ],
        }
        if self.contract is not None:
            document["contract"] = self.contract
        return document


def build_rows(
    *,
    checks: Sequence[str] = (),
    expected: Sequence[str | None] = (),
    criteria: Sequence[str] = (),
    reviews: Sequence[str] = (),
) -> tuple[NewRow, ...]:
    """The rows the options describe; a usage error when they do not pair up. Each
    ``--expected`` is written as ``lint --fix`` writes it (`exit code 0` as `exit 0`); a
    --check given none (None) has ``FILL IN: ...`` for it, as whatever else `new` is not
    given: no expected result is made up for a check."""
    from goalfile.expecttext import canonical_text

    if len(checks) != len(expected):
        raise UsageError(
            f"{len(checks)} --check but {len(expected)} --expected: each --expected belongs "
            "to the --check it follows, and describes its passing run",
            hint=NEW_HELP,
        )
    if len(criteria) > len(checks):
        raise UsageError(
            f"{len(criteria)} --criterion but {len(checks)} --check: each --criterion names "
            "the --check at the same place (or leave --criterion out)",
            hint=NEW_HELP,
        )
    rows: list[NewRow] = []
    for number, (command, text) in enumerate(zip(checks, expected, strict=True), start=1):
        if not command.strip():
            raise UsageError(
                f"--check number {number} is empty: it is the command to run", hint=NEW_HELP
            )
        if text is not None:
            _require_expected(text, number)
        what = criteria[number - 1] if number <= len(criteria) else ""
        rows.append(
            NewRow(
                id=f"C{number}",
                criterion=plain_cell(what) if what.strip() else code_span(command),
                check=command,
                # `exit code 0` as lint --fix writes it
                expected=EXPECTED_PLACEHOLDER if text is None else canonical_text(text),
            )
        )
    for number, item in enumerate(reviews, start=1):
        path, sep, what = item.partition("=")
        if not sep or not path.strip() or not what.strip():
            raise UsageError(
                f"--review {item!r} is not PATH=WHAT (such as --review "
                '"docs/auth.md=describes the refresh-token flow")',
                hint=NEW_HELP,
            )
        rows.append(
            NewRow(
                id=f"R{number}",
                criterion=plain_cell(what.strip()),
                check=path.strip(),
                expected=what.strip(),
                review=True,
            )
        )
    return tuple(rows)


def _require_expected(text: str, number: int) -> None:
    from goalfile.expect import parse_expected

    try:
        parse_expected(text)
    except GoalfileError as exc:
        raise UsageError(
            f"--expected number {number} ({text!r}): {exc.message}",
            hint=exc.hint or 'e.g. `exit 0; stdout contains "passed"`',
        ) from None


def render_new(
    *,
    slug: str,
    today: str,
    end_state: str | None = None,
    iterations: int | None = 5,
    tokens: int | None = None,
    rows: Sequence[NewRow] = (),
    non_goals: Sequence[str] = (),
    non_goal_placeholder: bool = True,
    timeout: float | None = None,
) -> str:
    """The goal file's text; placeholders for a missing end state, rows and (unless
    ``non_goal_placeholder`` is false) non-goals."""
    if not SLUG_RE.match(slug):
        named = slug.rsplit("/", 1)[-1].removesuffix(".md")  # a path given: goals/auth.md
        meant = "-".join(re.findall(r"[a-z0-9]+", named.lower()))
        raise MeantOther(
            f"slug {slug!r} is not lowercase letters, digits and '-'",
            given=slug,
            instead=meant or None,
            hint=f"e.g. `goalfile new {shell_word(meant or 'auth-refresh')}`",
        )
    items = [" ".join(item.split()) for item in non_goals if item.strip()]
    if not items and non_goal_placeholder:
        items = [NON_GOAL_PLACEHOLDER]
    table = [row.render() for row in rows] or [
        f"| C1 | {PLACEHOLDER}: what must hold | {PLACEHOLDER}: the command "
        f"| {EXPECTED_PLACEHOLDER} | deterministic |"
    ]
    values = {
        "slug": slug,
        "created": today,
        "iterations": "null" if iterations is None else str(iterations),
        "tokens": "null" if tokens is None else str(tokens),
        "end_state": " ".join((end_state or END_STATE_PLACEHOLDER).split()),
        "non_goals": "\n".join(f"- {item}" for item in items),
        "rows": "\n".join(table),
    }
    text = template("goal.md")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    if timeout is not None:
        seconds = format(decimal.Decimal(repr(timeout)), "f")  # 1.5, 600: never 1e-05
        seconds = seconds.removesuffix(".0") if "." in seconds else seconds
        text = text.replace("\ntokens_used: 0\n", f"\ntokens_used: 0\ntimeout: {seconds}\n", 1)
    return text


def missing_parts(
    *, end_state: str | None, rows: Sequence[NewRow], non_goals: Sequence[str], activate: bool
) -> tuple[str, ...]:
    """What the goal would hold as placeholders, in the words of the `next:` line."""
    missing = []
    if not (end_state or "").strip():
        missing.append("the end state")
    if not any(item.strip() for item in non_goals) and not activate:
        missing.append("the non-goals")
    if not rows:
        missing.append("C1's criterion, check and expected result")
    unpaired = [row.id for row in rows if row.expected == EXPECTED_PLACEHOLDER]
    missing += [f"{row_id}'s expected result" for row_id in unpaired]
    return tuple(missing)


def new_goal(
    *,
    slug: str,
    directory: str | None,
    ctx: Context,
    end_state: str | None = None,
    iterations: int | None = 5,
    tokens: int | None = None,
    rows: Sequence[NewRow] = (),
    non_goals: Sequence[str] = (),
    activate: bool = False,
    timeout: float | None = None,
    draft_command: str | None = None,
) -> NewResult:
    """Write the goal; ``draft_command``: this command line without --activate (and --commit), the
    fix when --activate lacks a part: it writes the draft, with ``FILL IN: ...`` there."""
    for name, value in (("iterations", iterations), ("tokens", tokens)):
        if value is not None and value <= 0:
            raise UsageError(f"--{name} must be a positive integer (omit it for unbounded)")
    if timeout is not None and not (math.isfinite(timeout) and timeout > 0):
        raise UsageError(f"--timeout {timeout} is not a positive number of seconds")
    missing = missing_parts(end_state=end_state, rows=rows, non_goals=non_goals, activate=activate)
    if activate and missing:
        raise UsageError(
            f"--activate needs {' and '.join(missing)}; nothing was written",
            hint=f"{draft_command} writes it as a draft, `FILL IN:` where that goes (fill in "
            "each, then run the command its next: line prints)"
            if draft_command
            else "give them as options (`goalfile new --help`)",
        )
    text = render_new(
        slug=slug,
        today=ctx.today,
        end_state=end_state,
        iterations=iterations,
        tokens=tokens,
        rows=rows,
        non_goals=non_goals,
        non_goal_placeholder=not activate,
        timeout=timeout,
    )
    if directory:
        folder = Path(directory)
    else:
        from goalfile.commands.workdir import repository_top

        folder = default_folder(ctx.cwd, repository_top(ctx.cwd))
    if not folder.is_absolute():
        folder = ctx.cwd / folder
    path = folder / f"{slug}.md"
    if path.is_relative_to(ctx.cwd):
        shown = str(path.relative_to(ctx.cwd))
    else:  # goals/ of the top level, from a sub-folder: ../goals/SLUG.md works from here
        shown = os.path.relpath(path, ctx.cwd.resolve())
    _require_same_rows(text, shown, rows)
    if activate:
        _require_ready(text, shown)
    if len(slug) > MAX_SLUG:
        shorter = _free_slug(folder, slug[:MAX_SLUG].rstrip("-"))
        raise MeantOther(
            f"slug is {len(slug)} characters, longer than the {MAX_SLUG} a goal file's name "
            "may take; nothing was written",
            given=slug,
            instead=shorter,
            hint=f"`goalfile new {shorter}` writes it with the slug shortened",
        )
    if path.exists():
        free = _free_slug(folder, slug)
        raise TakenSlug(
            f"{shown}: exists already; nothing was written",
            given=slug,
            instead=free,
            hint=f"`goalfile status {shell_word(shown)}` shows it; give another slug",
            why=f" writes another goal; `goalfile status {shell_word(shown)}` shows the one there",
        )
    create_new(path, text)
    ids = tuple(row.id for row in rows)
    outside = outside_note(path, shown, ctx.cwd, active=activate)
    not_found, operands = _not_found(text, path, rows, ctx.env, here=ctx.cwd)
    if not activate:
        return NewResult(
            path=shown,
            slug=slug,
            missing=missing,
            criteria=ids,
            outside=outside,
            not_found=not_found,
            operands=operands,
            warnings=row_warnings(text, path),
        )
    from goalfile.commands.activate import activate as run_activate

    done = run_activate(path=str(path), ctx=ctx)
    return NewResult(
        warnings=row_warnings(done.text, path),
        path=shown,
        slug=slug,
        status=done.status.value,
        criteria=done.criteria,
        contract=done.digest,
        outside=outside,
        text=done.text,
        not_found=not_found,
        operands=operands,
    )


def row_warnings(text: str, path: Path) -> tuple[Finding, ...]:
    """What lint warns about the rows of the goal ``text`` (a check whose status the shell
    forces, a unittest check judged on stdout, ...: the codes of
    :data:`goalfile.commands.cautions.ROW_WARNINGS`), shown by `new` as lint shows them:
    `new --activate` approves the rows at once, and a draft's next step is `activate`, so
    neither would show them before the approval."""
    from goalfile.commands.cautions import ROW_WARNINGS
    from goalfile.lint import diagnose
    from goalfile.parse import parse_goal

    return tuple(f for f in diagnose(parse_goal(text, path=str(path))) if f.code in ROW_WARNINGS)


def _free_slug(folder: Path, slug: str) -> str:
    """``slug`` when goals/SLUG.md is not there, else the first ``SLUG-N`` (N from 2) that
    is free and no longer than :data:`MAX_SLUG` (``slug`` cut to make room for ``-N``)."""
    if not (folder / f"{slug}.md").exists():
        return slug
    for n in itertools.count(2):
        suffix = f"-{n}"
        free = slug[: MAX_SLUG - len(suffix)].rstrip("-") + suffix
        if not (folder / f"{free}.md").exists():
            return free
    raise AssertionError("unreachable")  # itertools.count never ends


def _not_found(
    text: str, path: Path, rows: Sequence[NewRow], env: Mapping[str, str], *, here: Path
) -> tuple[dict[str, str], dict[str, str]]:
    """The deterministic rows whose program the goal's shell does not find where its checks
    run (:mod:`goalfile.commands.findable`), and those that name a path, module, make target
    or git revision that is not there (:mod:`goalfile.commands.operands`)."""
    from goalfile.commands import findable, operands, workdir
    from goalfile.parse import parse_goal

    checks = [(row.id, row.check) for row in rows if not row.review]
    if not checks:
        return {}, {}
    goal = parse_goal(text, path=str(path))
    try:
        where = workdir.decide(goal).path
    except GoalfileError:
        return {}, {}
    if not where.is_dir():
        return {}, {}
    unknown = findable.unknown(checks, shell=goal.shell, cwd=where, env=env)
    known = [(cid, check) for cid, check in checks if cid not in unknown]
    return unknown, operands.missing(known, shell=goal.shell, cwd=where, env=env, here=here)


def outside_note(path: Path, shown: str, cwd: Path, *, active: bool) -> str | None:
    """None for a goal under goals/ or .zetetic/goals/ of the git top level (else of ``cwd``),
    where the Stop hook and every command without PATH find it; else what the goal misses
    there and what to do (`goalfile new --dir plans` is the way to get one)."""
    from goalfile.commands.workdir import repository_top
    from goalfile.goalfolders import under_goal_folder

    top = repository_top(cwd)
    if under_goal_folder(path.resolve(), (top or cwd).resolve()):
        return None
    unseen = (
        f"note: {file_name(shown)} is not under goals/ or .zetetic/goals/: the Stop hook does not "
        "hold an agent to it, and status, lint and audit without a PATH do not list it"
    )
    if top is None:
        return f"{unseen}; write it with no --dir to have it under goals/"
    then = "" if active else "once it is active, "
    return (
        f"{unseen}; {then}`goalfile focus {shell_word(shown)}` has the Stop hook hold this "
        "working tree to it until it is met, also once the focus is cleared or moved (or write "
        "it with no --dir)"
    )


def _require_same_rows(text: str, shown: str, rows: Sequence[NewRow]) -> None:
    """Each row reads back as the options gave it (a cell must not change what it means)."""
    from goalfile.parse import parse_goal

    if not rows:
        return
    written = {row.id: row for row in parse_goal(text, path=shown).criteria}
    for row in rows:
        back = written.get(row.id)
        if back is None or (back.check, back.expected) != (row.check, row.expected):
            raise UsageError(
                f"{row.id} would not read back as given (check {row.check!r}, expected "
                f"{row.expected!r}); nothing was written (simplify the command, or write the "
                "goal file by hand)",
            )


def _require_ready(text: str, shown: str) -> None:
    """Refuse, before anything is written, a goal that activate would refuse."""
    from goalfile.lint import require_valid
    from goalfile.parse import parse_goal

    try:
        require_valid(parse_goal(text, path=shown))
    except GoalfileError as exc:
        raise UsageError(
            f"the goal would not activate: {exc.message}; nothing was written",
            hint=exc.hint,
        ) from None
