"""The contract of a goal and its digest: what `activate` pins and `verify` holds it to.

The contract is the criteria rows (id, check, expected, kind, timeout) and the non-goals.
Normalisation, so that cosmetic edits keep the digest and semantic ones change it:

- rows are taken by id, in id order (the table's column order, padding and alignment row are
  not part of the contract; neither is the order of the rows, which the approval records
  apart: see :attr:`Contract.order`);
- ``check`` is the command as run (code-span content with ``\\|`` unescaped), ends stripped,
  inner whitespace kept (inside quotes it can matter);
- ``expected`` is re-printed by the expected-language formatter when it parses, so spacing and
  separators (``;`` or ``and``) do not count; else its text with whitespace collapsed;
- ``kind`` in lower case (``deterministic`` when empty); ``timeout`` as a number or null;
- non-goals with whitespace collapsed, sorted;
- the run settings that decide where and how every check runs: frontmatter ``cwd``
  (normalised path), ``shell`` (when not ``/bin/sh``) and ``timeout`` (when set). A goal that
  sets none of them has the same digest as if settings did not exist.

The digest is SHA-256 over the canonical JSON of that structure: ``sha256:<64 hex>``.

Every ``by activate`` entry records the contract it approved (:func:`approval_lines`): a table
``| id | kind | check | expected | timeout |`` and the non-goals. :func:`recorded` reads it
back, so a later re-approval, ``verify``'s refusal and ``audit`` can show old and new rows, and
:func:`goalfile.contractdiff.changes` says what changed, field by field, and whether each
change loosened the contract.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Literal

from goalfile import ledger, settings
from goalfile.contractdigest import digest as digest  # re-exported, as those below
from goalfile.contractdigest import digest_of, row_fields
from goalfile.contractdigest import normal_expected as normal_expected
from goalfile.contractdigest import normal_items as _normal_items
from goalfile.contractdigest import normal_settings as normal_settings
from goalfile.contractdigest import number_text as number_text
from goalfile.contractdigest import row_order as fields_order
from goalfile.errors import GoalfileError, GoalFileInvalid, Refused
from goalfile.ledger import code_span, plain_cell
from goalfile.model import Criterion, Entry, Goal
from goalfile.parse import ledger_region
from goalfile.pin import PREFIX as PREFIX  # re-exported: the contract's callers read them here
from goalfile.pin import SHORT as SHORT
from goalfile.pin import pinned as pinned
from goalfile.pin import short as short
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name
from goalfile.value import Compared, Ordered, replace

if TYPE_CHECKING:  # the comparison is loaded only when a contract is compared
    from goalfile.contractdiff import Change

APPROVED_LABEL = "approved rows:"
APPROVED_HEADER = "| id | kind | check | expected | timeout |"
APPROVED_RULE = "|----|------|-------|----------|---------|"
NON_GOALS_LABEL = "non-goals:"
SETTINGS_LABEL = "run settings:"
DEFAULT_SHELL = settings.DEFAULT_SHELL
ACTIVATE_BY = "activate"
TIGHTENED_LABEL = "contract tightened:"
TIGHTENED_WORDS = "tightened"  # in every `contract tightened:` line, indented or escaped

Effect = Literal["loosened", "tightened", "changed"]


class ContractRow(Ordered, compared=("id", "check", "expected", "kind", "timeout")):
    """One criterion as the contract holds it: what its check runs and what it expects (rows
    are compared and ordered by these fields in this order)."""

    __slots__ = ("check", "expected", "id", "kind", "timeout")

    def __init__(
        self, *, id: str, check: str, expected: str, kind: str, timeout: float | None
    ) -> None:
        self.id: Final = id
        self.check: Final = check
        self.expected: Final = expected
        self.kind: Final = kind
        self.timeout: Final = timeout

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "check": self.check,
            "expected": self.expected,
            "kind": self.kind,
            "timeout": self.timeout,
        }


class Contract(Compared, compared=("rows", "non_goals", "settings")):
    """A normalised contract: rows in id order, non-goals sorted.

    ``order`` is the order the rows run in, by id: the table's for a goal's contract, the
    record's for an approval's (see :func:`last_approval`). It is not part of the digest nor of
    the comparison of two contracts (a row moved in the table changes neither); verify runs the
    approved rows in their approval's order.
    """

    __slots__ = ("non_goals", "order", "rows", "settings")

    def __init__(
        self,
        *,
        rows: tuple[ContractRow, ...],
        non_goals: tuple[str, ...],
        settings: tuple[tuple[str, str], ...] = (),
        order: tuple[str, ...] = (),
    ) -> None:
        self.rows: Final = rows
        self.non_goals: Final = non_goals
        self.settings: Final = settings  # (key, value) of cwd, shell, timeout when set
        self.order: Final = order

    def ordered(self) -> tuple[ContractRow, ...]:
        """The rows in :attr:`order` (rows it does not name after them, in id order)."""
        if not self.order:
            return self.rows
        by_id = {row.id: row for row in self.rows}
        named = [by_id[rid] for rid in dict.fromkeys(self.order) if rid in by_id]
        seen = {row.id for row in named}
        return (*named, *(row for row in self.rows if row.id not in seen))

    def digest(self) -> str:
        """SHA-256 of the canonical JSON ``{"criteria": [...], "non_goals": [...]}`` (with
        ``"settings"`` when a goal sets one): :func:`goalfile.contractdigest.digest_of`."""
        return digest_of((row.to_json() for row in self.rows), self.non_goals, self.settings)

    def row(self, rid: str) -> ContractRow | None:
        for row in self.rows:
            if row.id == rid:
                return row
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "criteria": [row.to_json() for row in self.rows],
            "non_goals": list(self.non_goals),
            "settings": dict(self.settings),
        }


def contract_row(row: Criterion) -> ContractRow:
    rid, check, expected, kind, timeout = row_fields(row)
    return ContractRow(id=rid, check=check, expected=expected, kind=kind, timeout=timeout)


def contract_rows(goal: Goal) -> tuple[ContractRow, ...]:
    return tuple(sorted((contract_row(row) for row in goal.criteria), key=row_order))


def row_order(row: ContractRow) -> tuple[str, str, str, str, bool, float]:
    """The order of rows in a contract (:func:`goalfile.contractdigest.row_order`, which the
    digest computed from the goal sorts by: one rule, so both give the same bytes)."""
    return fields_order((row.id, row.check, row.expected, row.kind, row.timeout))


def normal_non_goals(goal: Goal) -> tuple[str, ...]:
    return _normal_items(goal.non_goals)


def contract_of(goal: Goal) -> Contract:
    return Contract(
        rows=contract_rows(goal),
        non_goals=normal_non_goals(goal),
        settings=normal_settings(goal),
        order=tuple(row.id for row in goal.criteria),
    )


def source_contract_of(goal: Goal) -> Contract:
    """The contract as pins made before cells and non-goals were read as Markdown shows them
    computed it: from the cells' source text. It differs from :func:`contract_of` only where a
    cell or non-goal holds Markdown escapes or markup outside code spans."""
    rows = tuple(
        sorted(
            ContractRow(
                id=row.id,
                check=(row.source_check or row.check).strip(),
                expected=normal_expected(row.source_expected or row.expected),
                kind=(row.kind_text or "deterministic").strip().lower(),
                timeout=row.timeout,
            )
            for row in goal.criteria
        )
    )
    return Contract(
        rows=rows,
        non_goals=_normal_items(goal.source_non_goals or goal.non_goals),
        settings=normal_settings(goal),
    )


def pin_matches(pin: str, goal: Goal) -> bool:
    """Whether ``pin`` is the goal's digest as Markdown shows the contract. A pin made from the
    cells' source text (before goalfile read cells as Markdown shows them) matches only where
    every cell renders as its source reads, since then the two digests are the same: where they
    differ, the source digest cannot say which of the two commands was approved, so it is never
    accepted (``activate --reapprove`` approves the contract as goalfile runs it)."""
    return pin.strip() == digest(goal)


def source_digest(goal: Goal) -> str | None:
    """The digest of the contract as its source text reads, when that differs from the
    contract Markdown shows; None when they are the same."""
    legacy = source_contract_of(goal)
    return legacy.digest() if legacy != contract_of(goal) else None


def require_pin(goal: Goal) -> str:
    """The digest ``verify`` runs under; refuses a contract that no longer matches its pin.

    The refusal names each changed row and field (old → new) when the last approval recorded
    its rows. A goal without a pin (a file written before it was activated by goalfile) runs
    under its current digest; ``audit`` reports a ``met`` that no pin backs.
    """
    current = digest(goal)
    pin = pinned(goal)
    approval = last_approval(goal.text, path=goal.path)
    if pin is not None and approval is not None:
        _require_approved_pin(goal, pin, approval)
    if pin is not None and approval is None:
        raise Refused(
            f"the `contract:` pin ({short(pin)}) is backed by no approval entry in the ledger; "
            "a pin is written only by `goalfile activate`, which ledgers the approval; "
            "nothing was run",
            file=goal.path,
            line=goal.key_line("contract"),
            hint="restore the ledger's approval entry (e.g. "
            f"`git checkout -- {shell_word(goal.path)}`), or have a "
            "person approve the contract with `goalfile activate --reapprove "
            f"{shell_word(goal.path)} "
            "--reason TEXT`",
        )
    if pin is None and approval is not None:
        raise Refused(
            f"the `contract:` pin is missing, but the ledger records an approval "
            f"({approval[0].contract or 'no digest'} at iteration {approval[0].iteration}); "
            "nothing was run",
            file=goal.path,
            line=goal.key_line("status"),
            hint=f"put back `contract:` as activate wrote it, or have a person re-approve "
            f"with `goalfile activate --reapprove {shell_word(goal.path)} --reason TEXT`",
        )
    if pin is not None and not pin_matches(pin, goal) and tightening(goal):
        return current  # only tightened: verify pins it in its entry
    if pin is not None and not pin_matches(pin, goal):
        from goalfile.contractdiff import changes

        _, approved = approval or (None, None)
        found = changes(approved, contract_of(goal)) if approved is not None else ()
        listed = "".join(f"\n  {change.describe()}" for change in found)
        source = ""
        if pin.strip() == source_digest(goal):
            source = (
                "; the cells' source text digests to the pin, but goalfile runs what Markdown "
                "shows, and that is not what the approval entry recorded"
            )
            if approved is None:  # a pin from before cells were read as Markdown shows them
                found = changes(source_contract_of(goal), contract_of(goal))
                listed = "".join(f"\n  {change.describe()}" for change in found)
                source = (
                    "; the pin is the digest of the cells' source text, the approval entry "
                    "records no rows, and Markdown shows (so goalfile would run) other text "
                    "than the source in the cells below, so nothing says which of the two "
                    "was approved"
                )
        raise Refused(
            f"the contract changed since it was approved ({short(pin)} → {short(current)})"
            f"{source}; nothing was run{':' if listed else ''}{listed}",
            file=goal.path,
            line=goal.key_line("contract"),
            hint="restore the approved rows, or have a person re-approve the change with "
            f"`goalfile activate --reapprove {shell_word(goal.path)} --reason TEXT`, which ledgers "
            "the old "
            "and new rows",
        )
    return pin.strip() if pin is not None else current  # what the pin names, either way


def require_approval(goal: Goal) -> None:
    """Refuse a goal no person approved: the tools an agent calls (the MCP server's, pi's, which
    pass ``--in-project``) run checks only of a goal with an approval entry in its ledger and the
    ``contract:`` pin it wrote (which :func:`require_pin` then holds the contract to). A goal
    file the agent wrote itself, never activated, would otherwise make such a tool a runner of
    any command without the client's shell prompt."""
    if pinned(goal) is not None and last_approval(goal.text, path=goal.path) is not None:
        return
    missing = "no `contract:` pin" if pinned(goal) is None else "no approval entry"
    approve = (
        f"`goalfile activate {shell_word(goal.path)}`"
        if goal.status.value == "draft"
        else f"`goalfile activate --reapprove {shell_word(goal.path)} --reason TEXT`"
    )
    raise Refused(
        f"{file_name(goal.path)} has {missing}: the goal tools run the checks only of a goal a "
        "person approved with `goalfile activate` (an approval entry in the ledger and the "
        "`contract:` pin it writes, committed); nothing was run",
        file=goal.path,
        line=goal.key_line("contract") or goal.key_line("status"),
        hint=f"have a person read the checks, approve them, outside the tools, with {approve}, "
        f"and commit the goal file: `{commit_command(goal.path)}`",
    )


def commit_command(path: str) -> str:
    """The command that commits the goal file at ``path`` alone (a new file too)."""
    word = shell_word(path)
    return f"git add -- {word} && git commit -m 'Approve the goal checks' -- {word}"


def require_committed_approval(goal: Goal, committed: str | None, *, shown: str) -> None:
    """Refuse a contract no commit approved: the tools an agent calls run only the rows that the
    newest approval entry of the goal file as HEAD holds it (``committed``, None when HEAD holds
    no such file) records. An approval entry is text: an agent that can only write files could
    write one, and copy the digests it needs from goalfile's own refusals; a commit it cannot
    make without a shell. ``shown`` names the file as HEAD holds it (relative to the top level)."""
    current = digest(goal)
    hint = (
        "have a person read the checks and the approval entry, and commit the goal file: "
        f"`{commit_command(goal.path)}` (checks the person does not approve: "
        f"`goalfile activate --reapprove {shell_word(goal.path)} --reason TEXT` first)"
    )
    try:
        approval = last_approval(committed, path=f"HEAD:{shown}") if committed else None
    except GoalfileError:
        approval = None
    if approval is None:
        where = "HEAD holds no such file" if committed is None else "HEAD's copy has none"
        raise Refused(
            "the goal tools run the checks only of a contract whose approval entry is "
            f"committed, and {where} ({file_name(shown)}); nothing was run",
            file=goal.path,
            line=goal.key_line("contract") or goal.key_line("status"),
            hint=hint,
        )
    entry, approved = approval
    named = short(approved.digest()) if approved is not None else entry.contract
    if named == short(current):
        return
    raise Refused(
        "the goal tools run the checks only of a contract whose approval entry is "
        f"committed, and the criteria differ from those HEAD's copy approved (`Iteration "
        f"{entry.iteration} ({entry.date}) by {entry.by}`); nothing was run",
        file=goal.path,
        line=goal.key_line("contract") or goal.key_line("status"),
        hint="have a person read the checks, approve the changed ones with `goalfile activate "
        f"--reapprove {shell_word(goal.path)} --reason TEXT`, and commit the goal file: "
        f"`{commit_command(goal.path)}`",
    )


def _require_approved_pin(goal: Goal, pin: str, approval: tuple[Entry, Contract | None]) -> None:
    """The pin is a cache of the newest approval entry: refuse one it does not record (e.g. a
    pin pasted from a copy of the goal that was re-approved elsewhere). When the entry records
    its rows, the pin must be their digest, and the entry's `contract:` line must name it too
    (:func:`approval_fault`): an entry whose line was deleted or changed vouches for nothing."""
    entry, approved = approval
    fault = approval_fault(entry, approved)
    if fault is not None:
        raise RecordInvalid(
            f"the approval entry `Iteration {entry.iteration} ({entry.date}) by {entry.by}` "
            f"{fault}; nothing was run",
            file=goal.path,
            line=entry.line or _newest_approval_line(goal.text),
            hint=_restore_record_hint(goal.path, entry, approved),
        )
    named = short(approved.digest()) if approved is not None else entry.contract
    if short(pin) == named:
        return
    restore = (
        f"put back `contract: {approved.digest()}` as activate wrote it"
        if approved is not None
        else f"put back the pin activate wrote (e.g. `git checkout -- {shell_word(goal.path)}`)"
    )
    raise Refused(
        f"the `contract:` pin ({short(pin)}) is not the contract the newest approval entry "
        f"records ({named}, iteration {entry.iteration} ({entry.date}) by "
        f"{entry.by}); a pin is written only by `goalfile activate`; nothing was run",
        file=goal.path,
        line=goal.key_line("contract"),
        hint=f"{restore}, or have a person approve the contract as it is with "
        f"`goalfile activate --reapprove {shell_word(goal.path)} --reason TEXT`",
    )


def approval_fault(entry: Entry, approved: Contract | None) -> str | None:
    """Why an approval entry (its entry and recorded contract) cannot back a pin; None when it
    can. ``activate`` and a tightening verify entry end every approval with ``contract:``,
    the digest of the rows they record, so an entry without that line (none has been written
    without it since goalfile pinned contracts), or whose line names other rows than those it
    records, was edited."""
    if entry.contract is None and approved is not None:
        return (
            f"records approved rows (digest {short(approved.digest())}) but no `contract:` "
            "line, which goalfile writes at the end of every approval entry"
        )
    if entry.contract is None:
        return (
            "records neither approved rows nor a `contract:` line, so it approves no pin "
            "(goalfile has written both in every approval entry since it pinned contracts)"
        )
    if approved is not None and short(approved.digest()) != entry.contract:
        return (
            f"names the contract {entry.contract}, but the rows it records digest to "
            f"{short(approved.digest())}"
        )
    return None


def _newest_approval_line(text: str) -> int | None:
    """The line of the newest approval entry's heading (the entries read from the index of
    headings carry no line)."""
    region = ledger_region(text)
    head = _newest_approval_head(text, region) if region is not None else None
    return text.count("\n", 0, head.start) + 1 if head is not None else None


def _restore_record_hint(path: str, entry: Entry, approved: Contract | None) -> str:
    """The fix for an approval entry that vouches for no pin. Only a deleted `contract:` line
    is named with the digest to put back: when the line is there and names other rows than
    the entry records, the text cannot tell whether the line or the rows were edited, and
    writing the digest of the rows as they read now would approve an edit of the rows (a
    `sed` over the whole file changes a check in the criteria and in the entry alike)."""
    word = shell_word(path)
    put_back = (
        f"put back the line `contract: {short(approved.digest())}` (the digest of the rows "
        f"it records) after the entry's `status:` line, "
        if approved is not None and entry.contract is None
        else ""
    )
    edited = (
        ""
        if put_back or approved is None
        else "its rows or its `contract:` line were edited since activate wrote it (`git diff "
        f"-- {word}` shows an edit not yet committed): "
    )
    return (
        f"{edited}{put_back}restore the entry as goalfile wrote it (`git log -p -- {word}` "
        "shows the edit), or have a person approve the contract as it is with "
        f"`goalfile activate --reapprove {word} --reason TEXT`"
    )


# --- the approval record in `by activate` entries -----------------------------------------


def approval_lines(approved: Contract) -> list[str]:
    """The lines an activate entry carries: the approved rows, in the order they run
    (:meth:`Contract.ordered`), and the non-goals, as recorded."""
    lines = [APPROVED_LABEL, APPROVED_HEADER, APPROVED_RULE]
    for row in approved.ordered():
        timeout = "-" if row.timeout is None else number_text(row.timeout)
        lines.append(
            f"| {plain_cell(row.id)} | {plain_cell(row.kind)} | {code_span(row.check)} "
            f"| {code_span(row.expected)} | {timeout} |"
        )
    lines.append("")
    if approved.non_goals:
        lines.append(NON_GOALS_LABEL)
        lines += [f"- {item}" for item in approved.non_goals]
    else:
        lines.append(f"{NON_GOALS_LABEL} none")
    if approved.settings:
        lines += ["", SETTINGS_LABEL]
        lines += [f"- {key}: {ledger.note_code(value)}" for key, value in approved.settings]
    return lines


_CELL_SPLIT_RE = re.compile(r"(?<!\\)\|")


class RecordInvalid(GoalFileInvalid):
    """An approval entry whose record goalfile cannot read back: it was edited by hand.

    ``record`` is the line of the entry that does not read back, as the entry reader gives it
    (None when the fault is the entry as a whole), its ``occurrence``-th in the entry (a row
    recorded twice is named on its second): :func:`record_line` finds it in the file."""

    record: str | None = None
    occurrence: int = 1


class _Unreadable(ValueError):
    """A record line that does not read back; ``record`` is that line."""

    def __init__(self, message: str, record: str, occurrence: int = 1) -> None:
        super().__init__(message)
        self.record = record
        self.occurrence = occurrence


def record_line(text: str, start: int, end: int, record: str | None, occurrence: int = 1) -> int:
    """The line number of the ``occurrence``-th ``record`` in ``text[start:end]`` (an entry's
    span, its heading first), or of the entry's heading when it is not there as written."""
    at = start - 1
    for _ in range(occurrence if record else 0):
        at = text.find(record or "", at + 1, end)
        if at < 0:
            break
    return text.count("\n", 0, at if at >= start and record else start) + 1


def line_offset(text: str, line: int) -> int:
    """The offset where 1-based ``line`` of ``text`` starts (the end of the text past it)."""
    at = 0
    for _ in range(line - 1):
        found = text.find("\n", at)
        if found < 0:
            return len(text)
        at = found + 1
    return at


def _seconds(text: str) -> float | None:
    """A recorded time limit: a positive, finite number of seconds; raises ValueError."""
    value = float(text.removesuffix("s"))
    if not math.isfinite(value) or value <= 0:
        raise ValueError(text)
    return value


def _recorded_row(line: str) -> ContractRow:
    """A row of the ``approved rows:`` table; raises ValueError when it does not read back."""
    cells = [cell.strip() for cell in _CELL_SPLIT_RE.split(line)[1:-1]]
    if len(cells) != 5:
        raise _Unreadable(f"the row `{line.strip()}` has {len(cells)} cells, not 5", line)
    rid, kind, check, expected, timeout = cells
    try:
        seconds = None if timeout in ("-", "") else _seconds(timeout)
    except ValueError:
        raise _Unreadable(
            f"row {rid} has the timeout `{timeout}`, which is not a number of seconds", line
        ) from None
    return ContractRow(
        id=rid.replace("\\|", "|"),
        check=ledger.unquote(check).strip(),
        expected=ledger.unquote(expected).strip(),
        kind=kind.replace("\\|", "|").lower(),
        timeout=seconds,
    )


def _recorded_setting(item: str) -> tuple[str, str]:
    key, _, value = item.partition(": ")
    value = ledger.note_code_text(value)
    if key not in ("cwd", "shell", "timeout"):
        raise ValueError(f"the run setting `{key}` is not one goalfile records")
    if key == "timeout":
        try:
            _seconds(value)
        except ValueError:
            raise ValueError(
                f"the run setting timeout is `{value}`, which is not a number of seconds"
            ) from None
    return key, value


def recorded(entry: Entry, *, path: str | None = None) -> Contract | None:
    """The contract an activate entry recorded, or None when it recorded no rows.

    Raises :class:`RecordInvalid` when the record does not read back (a hand edit such as a
    timeout of `abc`): an approval is the authority for the pin, so it is never guessed.
    """
    try:
        return _recorded(entry)
    except ValueError as exc:
        invalid = RecordInvalid(
            f"the approval entry `Iteration {entry.iteration} ({entry.date}) by {entry.by}` "
            f"cannot be read back: {exc}; approval entries are written only by "
            "`goalfile activate`, so this one was edited",
            file=path,
            line=entry.line or None,
            hint="restore the entry as goalfile wrote it (`git diff -- "
            f"{shell_word(path or 'FILE')}` "
            "shows the edit)",
        )
        if isinstance(exc, _Unreadable):
            invalid.record, invalid.occurrence = exc.record, exc.occurrence
        raise invalid from None


def _recorded(entry: Entry) -> Contract | None:
    lines = [line.rstrip() for line in entry.notes]
    # the header as goalfile wrote it before, or padded (as goalfile and mdformat write it now)
    header = [cell.strip() for cell in APPROVED_HEADER.split("|")]
    start = next(
        (at for at, line in enumerate(lines) if [c.strip() for c in line.split("|")] == header),
        None,
    )
    if start is None:
        return None
    rows: list[ContractRow] = []
    index = start + 1
    if index < len(lines) and re.fullmatch(r"\|(?:\s*:?-+:?\s*\|)+", lines[index]):
        index += 1  # the delimiter row, `|----|` or padded `| --- |`
    while index < len(lines) and lines[index].startswith("|"):
        row = _recorded_row(lines[index])
        if any(seen.id == row.id for seen in rows):
            # goalfile records each id once; two rows could not be ordered or compared
            # named on its own line: the occurrence of its text among the lines above it
            before = sum(line.count(lines[index]) for line in lines[:index])
            raise _Unreadable(f"it lists the row {row.id} twice", lines[index], before + 1)
        rows.append(row)
        index += 1
    non_goals: list[str] = []
    settings: list[tuple[str, str]] = []
    for pos in range(index, len(lines)):
        if lines[pos] in (NON_GOALS_LABEL, SETTINGS_LABEL):
            target = lines[pos]
            items = lines[pos + 1 :]
            while items and not items[0]:
                items = items[1:]  # the blank line mdformat's style puts before a list
            for item in items:
                # the bullet goalfile writes, or another that Markdown reads as one
                # (remark-stringify writes `*`)
                if item[:2] not in ("- ", "* ", "+ "):
                    break
                if target == NON_GOALS_LABEL:
                    non_goals.append(item[2:])
                else:
                    try:
                        settings.append(_recorded_setting(item[2:]))
                    except ValueError as exc:
                        raise _Unreadable(str(exc), item) from None
    found = Contract(
        rows=tuple(sorted(rows, key=row_order)),
        non_goals=_normal_items(non_goals),
        settings=tuple(settings),
        order=tuple(row.id for row in rows),
    )
    if entry.contract is None or short(found.digest()) == entry.contract:
        return found
    # goalfile writes each non-goal as the text it shows; a formatter may then write that text
    # in another form that shows the same (markdownlint's fix wraps a bare URL in `<...>`,
    # mdformat escapes a `*`): the record is the text each item shows, when that is what the
    # entry's `contract:` line names
    shown_items = _normal_items(ledger.shown_text(item) for item in non_goals)
    shown = replace(found, non_goals=shown_items)
    return shown if short(shown.digest()) == entry.contract else found


def last_approval(text: str, *, path: str | None = None) -> tuple[Entry, Contract | None] | None:
    """The newest approval entry of a goal's text, and the contract it recorded.

    The contract's :attr:`~Contract.order` is the order the approved rows run in: the newest
    ``by activate`` entry's, as its record lists them (by id in entries written before goalfile
    recorded the order), then the rows each tightening entry since added, in its record's order.
    A tightening entry's order of the rows approved before it is not taken: only a person's
    approval orders them, so an added row can never be moved ahead of an approved one.

    Raises :class:`RecordInvalid` when that record was edited and does not read back, and
    :class:`TighteningInvalid` when the newest approval is a verify entry whose ``contract
    tightened:`` record is not a tightening of the approval before it (each such entry back to
    the newest ``by activate`` entry is checked, oldest first, by :func:`tightening_fault`).

    A run asks this of the same text several times (``verify``: for the working directory,
    the pin and the order of the rows), so the answer for the last text asked is kept; it does
    not depend on ``path``, which only names the file in an error (an error is not kept).
    """
    for seen, found in _APPROVAL:
        if seen is text:
            return found
    found = _last_approval(text, path=path)
    _APPROVAL[:] = [(text, found)]
    return found


_APPROVAL: list[tuple[str, tuple[Entry, Contract | None] | None]] = []  # the last text, answer


def _last_approval(text: str, *, path: str | None) -> tuple[Entry, Contract | None] | None:
    region = ledger_region(text)
    if region is None:
        return None
    tightenings: list[tuple[ledger.Head, Entry]] = []
    end = region[1]
    base: tuple[Entry, Contract | None] | None = None
    while (head := _newest_approval_head(text, (region[0], end))) is not None:
        entry = ledger.read(text, head)
        if head.by != ledger.VERIFY_BY:
            base = (entry, _recorded_at(text, head, entry, path=path))
            break
        tightenings.append((head, entry))
        end = head.start
    for head, entry in reversed(tightenings):
        try:
            fault = tightening_fault(entry, base, path=path)
        except RecordInvalid as exc:  # its record does not read back: name the line
            if exc.line is None:
                exc.line = record_line(text, head.start, head.end, exc.record, exc.occurrence)
            raise
        if fault is not None:
            raise TighteningInvalid(
                f"the verify entry `Iteration {entry.iteration} ({entry.date}) by {entry.by}` "
                f"says `{TIGHTENED_LABEL}`, but {fault}; goalfile writes such an entry only "
                "when the contract was tightened since the approval before it, so it was "
                "edited or written by hand",
                file=path,
                line=text.count("\n", 0, head.start) + 1,
                hint="restore the ledger as goalfile wrote it (`git log -p -- "
                f"{shell_word(path or 'FILE')}` "
                "shows the edit), or have a person approve the contract with "
                f"`goalfile activate --reapprove {shell_word(path or 'FILE')} --reason TEXT` once "
                "the "
                "entry is gone",
            )
        now = _recorded_at(text, head, entry, path=path)
        if now is not None and base is not None and base[1] is not None:
            before = base[1].ordered()
            kept = {row.id for row in before}
            added = tuple(row.id for row in now.ordered() if row.id not in kept)
            now = replace(now, order=(*(row.id for row in before), *added))
        base = (entry, now)
    return base


def _recorded_at(
    text: str, head: ledger.Head, entry: Entry, *, path: str | None
) -> Contract | None:
    """:func:`recorded` of the entry ``head`` begins; a :class:`RecordInvalid` it raises names
    the line that does not read back (the entry's heading when that line cannot be found)."""
    try:
        return recorded(entry, path=path)
    except RecordInvalid as exc:
        if exc.line is None:
            exc.line = record_line(text, head.start, head.end, exc.record, exc.occurrence)
        raise


class TighteningInvalid(RecordInvalid):
    """A verify entry that says ``contract tightened:`` but does not record a tightening of
    the approval before it: goalfile did not write it so."""


def tightening_fault(
    entry: Entry, before: tuple[Entry, Contract | None] | None, *, path: str | None = None
) -> str | None:
    """Why a verify entry with a ``contract tightened:`` line is not one goalfile would have
    written after the approval ``before`` (its entry and recorded contract); None when it is.

    goalfile writes it only when every change from the rows the approval before recorded to
    the rows it records is a tightening (:func:`goalfile.contractdiff.changes`: rows, clauses
    or non-goals added, a lower time limit), when those rows are the ones its ``contract:``
    digest names, and with a verdict for each of them. Raises :class:`RecordInvalid` when its
    record does not read back.
    """
    if before is None:
        return "no approval entry comes before it, so there was no contract to tighten"
    approval, approved = before
    where = f"the approval before it (iteration {approval.iteration}, by {approval.by})"
    if approved is None:
        return f"{where} recorded no rows, so there was no contract to tighten"
    if short(approved.digest()) != approval.contract:
        return f"the rows {where} recorded are not the contract it names"
    now = recorded(entry, path=path)
    if now is None:
        return "it records no approved rows"
    if entry.contract != short(now.digest()):
        return (
            f"the rows it records digest to {short(now.digest())}, not to the contract it "
            f"names ({entry.contract or 'none'})"
        )
    from goalfile.contractdiff import changes

    found = changes(approved, now)
    if not found:
        return f"the rows it records are those {where} approved: nothing was tightened"
    wider = [change for change in found if change.effect != "tightened"]
    if wider:
        return "it records changes that do not tighten the contract: " + "; ".join(
            change.describe() for change in wider
        )
    judged = sorted(row.id for row in entry.rows)
    if judged != sorted(row.id for row in now.rows):
        return "its verdicts are not those of the rows it records (verify judges every row)"
    return None


def _newest_approval_head(text: str, region: tuple[int, int]) -> ledger.Head | None:
    """The heading of the newest approval entry between the offsets of ``region``: a ``by
    activate`` entry, or a verify entry that pinned a tightened contract (it holds a
    ``contract tightened:`` line and the approved rows).

    Found from the index of entry headings (the newest ``by activate`` heading) and a search
    for the note from the ledger's end: a pinned goal's approval is often its oldest entry,
    and a step for each entry after it would make every verify cost more as the ledger grows.
    """
    start, end = region
    if start == 0:  # a text that begins with a heading line: the index has no newline before it
        return _newest_head_by_heads(text, region)
    index = ledger.headings(text)
    found = index.entries
    low, high = bisect.bisect_left(found, (start,)), bisect.bisect_left(found, (end,))
    activates = index.by_command.get(ACTIVATE_BY, ())
    newest = bisect.bisect_left(activates, high) - 1
    newest = activates[newest] if newest >= 0 and activates[newest] >= low else low - 1
    search_end = end
    while (at := text.rfind(TIGHTENED_WORDS, start, search_end)) >= 0:
        pos = bisect.bisect_right(found, at, lo=low, hi=high, key=_offset) - 1
        if pos <= newest:  # in the newest activate entry or before it, or before every entry
            break
        if found[pos][1][3] == ledger.VERIFY_BY and _tightens(text, found, pos, high, end):
            newest = pos
            break
        search_end = found[pos][0] + len(TIGHTENED_WORDS) - 1  # the notes above this entry
    if newest < low:
        return None
    begin, (number, date, time, by) = found[newest]
    finish = found[newest + 1][0] if newest + 1 < high else end
    return ledger.Head(iteration=int(number), date=date, time=time, by=by, start=begin, end=finish)


def _tightens(
    text: str, found: Sequence[tuple[int, tuple[str, str, str, str]]], pos: int, high: int, end: int
) -> bool:
    """Whether the verify entry at ``found[pos]`` holds a ``contract tightened:`` line as the
    entry readers read it (indented or escaped too), not just the words (in its output)."""
    begin, (number, date, time, by) = found[pos]
    finish = found[pos + 1][0] if pos + 1 < high else end
    head = ledger.Head(iteration=int(number), date=date, time=time, by=by, start=begin, end=finish)
    return is_approval(ledger.read(text, head))


def _offset(entry: tuple[int, object]) -> int:
    return entry[0]


def _newest_head_by_heads(text: str, region: tuple[int, int]) -> ledger.Head | None:
    for head in ledger.heads(text, *region):
        if head.by == ACTIVATE_BY:
            return head
        if (
            head.by == ledger.VERIFY_BY
            and text.find(TIGHTENED_WORDS, head.start, head.end) >= 0
            and is_approval(ledger.read(text, head))
        ):
            return head
    return None


def is_approval(entry: Entry) -> bool:
    """Whether an entry has the shape of an approval: ``by activate``, or a verify entry with a
    ``contract tightened:`` line. Such a verify entry counts only when
    :func:`tightening_fault` finds nothing (:func:`last_approval` and ``audit`` check it)."""
    return entry.by == ACTIVATE_BY or (
        entry.by == ledger.VERIFY_BY
        and any(ledger.unescaped(note).startswith(TIGHTENED_LABEL) for note in entry.notes)
    )


def approved_order(goal: Goal) -> tuple[str, ...] | None:
    """The ids of the rows the newest approval records, in the order they run (see
    :func:`last_approval`); None when no approval records rows (every row then runs in the
    table's order). verify runs these rows first and judges them before any other row runs."""
    approval = last_approval(goal.text, path=goal.path)
    if approval is None or approval[1] is None:
        return None
    return tuple(row.id for row in approval[1].ordered())


def order_change(
    old: Sequence[str], new: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The rows both run orders hold, in the old order and in the new, when the new one runs
    them in another order; None when it keeps theirs. A row added or removed is no change of
    order (it is a change of the rows); an approved row moved before another is: it can now
    prepare what that row checks (see docs/lifecycle.md, run order)."""
    kept = set(old) & set(new)
    was = tuple(rid for rid in dict.fromkeys(old) if rid in kept)
    now = tuple(rid for rid in dict.fromkeys(new) if rid in kept)
    return (was, now) if was != now else None


def tightening(goal: Goal) -> tuple[Change, ...]:
    """How the contract tightened since the newest approval, when the pin no longer matches
    and every change only tightens it (rows or clauses added); () otherwise."""
    pin = pinned(goal)
    current = contract_of(goal)
    if pin is None or pin_matches(pin, goal):
        return ()
    approval = last_approval(goal.text, path=goal.path)
    if approval is None or approval[1] is None:
        return ()
    if short(approval[1].digest()) != approval[0].contract:
        return ()  # the recorded rows are not the ones the pin approved
    from goalfile.contractdiff import changes

    found = changes(approval[1], current)
    if found and all(change.effect == "tightened" for change in found):
        return found
    return ()


def tightened_notes(found: Sequence[Change], approved: Contract) -> list[str]:
    """The lines a verify entry carries when it pins a tightened contract."""
    names = []
    for change in found:
        if change.field == "row":
            names.append(f"{change.row} added")
        elif change.field == "non-goal":
            names.append("non-goal added")
        else:
            names.append(f"{change.row or ''} {change.field} tightened".strip())
    return [
        f"{TIGHTENED_LABEL} {', '.join(dict.fromkeys(names))}",
        *(f"- {change.describe()}" for change in found),
        "",
        *approval_lines(approved),
    ]
