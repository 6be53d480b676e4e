"""The rules a goal file must follow (DESIGN §2–§3): pure, ``Goal`` in, findings out."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from goalfile.errors import GoalfileError, GoalFileInvalid
from goalfile.headingrule import heading_findings, outside_findings
from goalfile.model import Criterion, Finding, Goal, Kind, Severity, Status
from goalfile.parse import (
    CRITERIA_KEYS,
    READ_COLUMNS,
    first_lines,
    holds,
    ledger_region,
    review_artifact,
    unclosed_fence,
)
from goalfile.prose import inline_code, listed
from goalfile.shellword import shell_word, show_command
from goalfile.termsafe import file_name
from goalfile.unitteststream import findings as unittest_stdout

if TYPE_CHECKING:
    from goalfile.expect import Expectation
    from goalfile.gfmdifference import Difference
    from goalfile.unseen import Unseen

PLACEHOLDER = "FILL IN"
# the fields of templates/goal.md, as it writes them (a Jinja `{{ user }}` in a goal is text)
_TEMPLATE_FIELD = re.compile(r"\{\{(?:slug|created|iterations|tokens|end_state|non_goals|rows)\}\}")
ID_RE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")
"""A criterion id: anything else could forge the summary line (`C1; status: met`)."""


def diagnose(goal: Goal, *, draft_placeholders: bool = False) -> tuple[Finding, ...]:
    """Everything wrong with a goal file: what reading it found, then the rules.

    A placeholder is an error, except in a draft when ``draft_placeholders`` is true (what
    `goalfile lint` asks): a draft is allowed to be unfinished, and `activate` refuses it."""
    warn = draft_placeholders and goal.status is Status.DRAFT
    rewrapped = list(_rewrapped_findings(goal))
    findings = [
        *goal.problems,
        *_row_findings(goal),
        *_unseen_findings(goal),
        *_rendering_findings(goal),
        *_placeholders(goal, Severity.WARNING if warn else Severity.ERROR),
        *_accounting_findings(goal),
        *heading_findings(goal),
        *outside_findings(goal),
        *_fence_findings(goal),
        *_hidden_findings(goal),
        *_contract_html_findings(goal),
        *_gfm_block_findings(goal),
        *_gfm_table_findings(goal),
        *_criteria_section_findings(goal),
        *_merged_entry_findings(goal),
        *rewrapped,
        # a rewrapped ledger's status and budget lines are not where goalfile wrote them: what
        # the status rules would say of them (with a fix that edits the status) is not so
        *(() if rewrapped else _status_findings(goal)),
    ]
    findings.sort(key=lambda f: (f.line or 0, f.column or 0))
    return tuple(findings)


def errors(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity is Severity.ERROR]


def require_valid(goal: Goal, *, besides: frozenset[str] = frozenset()) -> None:
    """Raise the first error finding as GoalFileInvalid (the file is left untouched); an
    error whose code ``besides`` names is one the caller's own write resolves."""
    problems = [f for f in errors(diagnose(goal)) if f.code not in besides]
    if problems:
        first = problems[0]
        more = (
            f" (and {len(problems) - 1} more; run `goalfile lint {shell_word(goal.path)}`)"
            if len(problems) > 1
            else ""
        )
        raise GoalFileInvalid(
            first.message + more,
            file=goal.path,
            line=first.line,
            column=first.column,
            hint=first.hint,
        )


def _status_findings(goal: Goal) -> Iterable[Finding]:
    """A `met` the newest verify entry does not back (an error), a budget limit the ledger
    does not record (a warning: no command goes by it), a budget line of the ledger that
    cannot be read (an error when the frontmatter would then give the limit; see
    :mod:`goalfile.handedit`), and an entry under the Stop hook's name with a status it never
    writes (an error)."""
    from goalfile.handedit import (
        hook_status_findings,
        unbacked_budget,
        unbacked_met,
        unreadable_budget,
    )

    found = unbacked_met(goal)
    if found is not None:
        yield found
    yield from hook_status_findings(goal)
    yield from unbacked_budget(goal)
    yield from unreadable_budget(goal)


def _unfilled(text: str) -> bool:
    """``text`` holds a `FILL IN: ...` of `goalfile new`, or a `{{name}}` of templates/goal.md
    (a goal written by hand from the template)."""
    return PLACEHOLDER in text or _TEMPLATE_FIELD.search(text) is not None


def _placeholders(goal: Goal, severity: Severity) -> Iterable[Finding]:
    """Text the template left to fill in: a draft is not ready while any remains. The whole
    text (a long ledger too) is searched for a field of the template only for a finding's
    hint, and the non-goals section's lines are searched where they are, not split off."""
    if _unfilled(goal.end_state):
        yield Finding(
            severity=severity,
            message="the end state is still a placeholder",
            line=_line_of(goal, "# Goal:"),
            hint=_placeholder_hint(goal),
            code="placeholder",
        )
    section = goal.section("non-goals")
    body = _lines_span(goal.text, section.line, section.end - 1) if section is not None else None
    if any(_unfilled(item) for item in goal.non_goals) or (
        body is not None and _TEMPLATE_FIELD.search(goal.text, *body) is not None
    ):
        yield Finding(
            severity=severity,
            message="a non-goal is still a placeholder",
            line=section.line if section else None,
            hint=_placeholder_hint(goal),
            code="placeholder",
        )
    for row in goal.criteria:
        if _has_placeholder(row):
            yield Finding(
                severity=severity,
                line=row.line,
                message=f"{row.id or 'row'}: a cell is still a placeholder",
                hint=_placeholder_hint(goal),
                code="placeholder",
            )


def _placeholder_hint(goal: Goal) -> str:
    left = "`{{...}}` of templates/goal.md" if _TEMPLATE_FIELD.search(goal.text) else None
    return (
        f"replace every {left or f'`{PLACEHOLDER}: ...`'} in {file_name(goal.path)}, then "
        f"`goalfile activate {shell_word(goal.path)}`"
    )


def _lines_span(text: str, first: int, stop: int) -> tuple[int, int]:
    """The offsets of ``"\\n".join(text.split("\\n")[first:stop])`` in ``text`` (an empty
    span when that is empty), found line by line from the start: a section before the ledger
    is a few lines in, and splitting the whole text into lines (a long ledger's 200,000) cost
    a verify 60 M instructions."""
    if stop <= first:
        return 0, 0
    start = 0
    for _ in range(first):
        at = text.find("\n", start)
        if at < 0:  # the text has fewer lines than ``first``
            return 0, 0
        start = at + 1
    end = start
    for _ in range(stop - first):
        at = text.find("\n", end)
        if at < 0:  # the last line is in the span
            return start, len(text)
        end = at + 1
    return start, end - 1


def has_placeholders(goal: Goal) -> bool:
    """Some `FILL IN: ...` the template left is still in the end state, a non-goal or a
    criteria cell."""
    return next(iter(_placeholders(goal, Severity.WARNING)), None) is not None


def _has_placeholder(row: Criterion) -> bool:
    return any(_unfilled(value) for _, value in row.cells)


def require_rows_filled_in(goal: Goal) -> None:
    """Raise GoalFileInvalid naming the first criteria row that still holds a `FILL IN: ...`
    (the end state or a non-goal still may): `verify --no-write` tries a draft's checks as
    they are, and a row it cannot run is the one to name, with the trial as the next step."""
    row = next((row for row in goal.criteria if _has_placeholder(row)), None)
    if row is None:
        return
    raise GoalFileInvalid(
        f"{row.id or 'row'}: a cell is still a placeholder, so its check cannot be tried",
        file=goal.path,
        line=row.line or None,
        hint=f"replace the {_left_in(row)} in the criteria rows of {file_name(goal.path)}, then "
        f"`goalfile verify --no-write {shell_word(goal.path)}` tries their checks",
    )


def _left_in(row: Criterion) -> str:
    """What the template left in ``row``: `{{...}}` of templates/goal.md, else `FILL IN`."""
    if any(_TEMPLATE_FIELD.search(value) for _, value in row.cells):
        return "`{{...}}` of templates/goal.md"
    return f"`{PLACEHOLDER}: ...`"


def _line_of(goal: Goal, prefix: str) -> int | None:
    for number, line in enumerate(goal.text.split("\n"), start=1):
        if line.startswith(prefix):
            return number
    return None


_HEADING_LINE = r"(?m)^#{1,2}[ \t]+[^\n]*?[ \t]*\r*$"  # compiled when a fence never closes


def _fence_findings(goal: Goal) -> Iterable[Finding]:
    """A fenced code block that never closes: Markdown reads the rest of the file as its code,
    so the sections after it are gone, and ``verify`` would write its entry into the block."""
    opened = unclosed_fence(goal.text)
    if opened is None:
        return
    from goalfile.handedit import delete_lines_command

    line = goal.text.count("\n", 0, opened) + 1
    end = goal.text.find("\n", opened)
    opening = goal.text[opened : end if end >= 0 else len(goal.text)].strip()
    marker = opening[: len(opening) - len(opening.lstrip(opening[0]))]
    hidden = [m.group().strip() for m in re.compile(_HEADING_LINE).finditer(goal.text, opened)]
    what = (
        f"the heading{'s' if len(hidden) > 1 else ''} " + listed([f"`{h}`" for h in hidden])
        if hidden
        else "whatever is written after it"
    )
    yield Finding(
        severity=Severity.ERROR,
        line=line,
        column=1,
        code="unclosed-fence",
        message=(
            f"the code block opened by {inline_code(opening)} is never closed, so Markdown reads "
            f"the rest of the file as code: {what} would be part of it, and a ledger entry "
            "written there would be hidden"
        ),
        hint=(
            f"close the block with a line {inline_code(marker)} where its code ends, or delete "
            f"line {line}: "
            f"{delete_lines_command(goal.path, line, line)}"
        ),
    )


def _hidden_findings(goal: Goal) -> Iterable[Finding]:
    """Criteria rows and section headings that Markdown reads as part of a code block, an HTML
    block or another container (see :mod:`goalfile.hidden`)."""
    from goalfile import hidden

    return hidden.findings(goal)


def _contract_html_findings(goal: Goal) -> Iterable[Finding]:
    """HTML blocks in the criteria and non-goals sections (see :mod:`goalfile.htmlcontract`)."""
    if "<" not in goal.text:  # no HTML block anywhere: the rule's module is not loaded
        return ()
    from goalfile import htmlcontract

    return htmlcontract.findings(goal)


def _gfm_block_findings(goal: Goal) -> Iterable[Finding]:
    """Lines GitHub reads as other blocks than goalfile does (see :mod:`goalfile.gfmblocks`)."""
    # no difference can occur: the rule's module is not loaded (a search for one character is
    # memchr, a fraction of the search for two: "<" and "]" first)
    if "<" not in goal.text and not holds(goal.text, "]:"):
        return ()
    from goalfile import gfmblocks

    return gfmblocks.findings(goal)


def _gfm_table_findings(goal: Goal) -> Iterable[Finding]:
    """Lines of the criteria table GitHub's table extension reads otherwise than goalfile (see
    :mod:`goalfile.gfmtable`)."""
    from goalfile import gfmtable

    return gfmtable.findings(goal)


def _criteria_section_findings(goal: Goal) -> Iterable[Finding]:
    """A criteria section other than the one whose table goalfile reads, holding anything:
    goalfile never reads it, though every Markdown view shows it. One that holds a table or a
    row-like line is ``hidden-structure``'s (it names those lines); this is for the rest (a
    list, text)."""
    from goalfile import hidden

    sections = [s for s in goal.sections if s.key in CRITERIA_KEYS]
    if len(sections) < 2 or not goal.criteria:
        return  # one section; or no criteria table, which parse.py's error names
    table = goal.criteria[0].line
    read = next((s for s in sections if s.line < table < s.end), None)
    lines = goal.text.split("\n")
    for section in sections:
        if read is None or section is read:
            continue
        body = [line.rstrip("\r") for line in lines[section.line : section.end - 1]]
        if not any(line.strip() for line in body) or any(
            "|" in line and hidden.looks_like_row(line) is not None for line in body
        ):
            continue
        last = goal.criteria[-1].line
        yield Finding(
            severity=Severity.ERROR,
            line=section.line,
            column=1,
            code="criteria-section-ignored",
            message=(
                f"`## {section.title}` (line {section.line}) is a second criteria section: "
                f"goalfile reads criteria only from the table under `## {read.title}` "
                f"(line {read.line}), so nothing in this section is checked, though every "
                "Markdown view shows it. Write each criterion it holds as a row of the criteria "
                f"table, right under its last row (line {last}) with no blank line between, then "
                f"delete the section (lines {section.line}–{section.end - 1})"
            ),
        )


def _merged_entry_findings(goal: Goal) -> Iterable[Finding]:
    """The newest verify entry gives a criterion two verdicts: the rows of two runs stand in
    one table, as git's `merge=union` driver (or a conflict resolved by deleting its markers)
    leaves the entries two branches appended at the same place. The readers would take one
    row of each; which run a verdict came from is lost, so it is an error."""
    from goalfile import ledger

    region = ledger_region(goal.text)
    if region is None:
        return
    head = next((h for h in ledger.heads(goal.text, *region) if h.by == ledger.VERIFY_BY), None)
    if head is None:
        return
    entry = ledger.read(goal.text, head)
    ids = [row.id for row in entry.rows]
    twice = [cid for index, cid in enumerate(ids) if cid in ids[:index]]
    if not twice:
        return
    line = goal.text.count("\n", 0, head.start) + 1
    word = shell_word(goal.path)
    yield Finding(
        severity=Severity.ERROR,
        line=line,
        column=1,
        code="entry-merged",
        message=(
            f"the entry `Iteration {entry.iteration} ({entry.date}) by {entry.by}` gives "
            + ", ".join(f"`{cid}`" for cid in dict.fromkeys(twice))
            + " more than one verdict: the rows of two verify runs stand in one table, as a "
            "merge that kept both sides' lines leaves them (git's `merge=union`, or a conflict "
            "resolved by deleting its markers)"
        ),
        hint=(
            "rebuild the file from the merge's two sides: one side's file whole "
            f"(`{show_command('HEAD^1', goal.path)}`), the entries only the other "
            f"side has (`{show_command('HEAD^2', goal.path)}`) appended, then "
            f"`goalfile verify {word}`; "
            "and take `merge=union` off goal files in .gitattributes (see docs/lifecycle.md, "
            "Merging a goal file)"
        ),
    )


@functools.cache
def _rewrapped_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """An entry's `status:` line with its `contract:` line joined to it: what a formatter that
    rewraps paragraphs (prettier with `proseWrap: always` or `never`) makes of the two lines;
    and a `contract:` after a blank, which every such line holds. The literal comes first in
    the second, so its search jumps from one `contract:` to the next at C speed; the first
    starts at `^` and is tried at every character (16 ms for a 4 MB ledger). Compiled on
    first use: a ledger goalfile wrote holds no such line (0.1 ms of every lint)."""
    return re.compile(
        r"(?m)^ {0,3}status:[ \t]*[a-z]+\b[^\n]*?[ \t]contract:(?:[ \t]+[0-9a-f]{12})?[ \t]*\r*$"
    ), re.compile(r"contract:(?<=[ \t]contract:)")


def _blank_contract(text: str, start: int, end: int) -> bool:
    """Whether ``text[start - 1:end]`` holds a `contract:` after a blank or a tab (the blank
    before one at ``start`` included), by the interpreter's own searches for the texts,
    backwards (0.5 ms each for a 4 MB ledger, where searches forward take 0.9)."""
    low = max(start - 1, 0)
    if text.rfind(" contract:", low, end) >= 0:
        return True
    # a tab first: the search for one character is memchr, a fraction of the search for the
    # text, and a span without a tab (as goalfile writes entries) needs no more
    return text.find("\t", low, end) >= 0 and text.rfind("\tcontract:", low, end) >= 0


def rewrapped_lines(text: str, start: int, end: int) -> list[re.Match[str]]:
    """The matches of ``_rewrapped_patterns()[0].finditer(text, start, end)``, in order: the
    pattern is matched only at the start of each line that holds a `contract:` after a blank.
    A span without one, as a ledger goalfile wrote is, is found to hold none by the
    interpreter's own searches for the two texts, backwards (1.0 ms for a 4 MB ledger, where
    the search below takes 1.9 and searches forward take 1.8 each)."""
    if not _blank_contract(text, start, end):
        return []
    found = []
    after = start  # the lines before it are read
    rewrapped, scan = _rewrapped_patterns()
    for hit in scan.finditer(text, start, end):
        if hit.start() < after:
            continue
        line = text.rfind("\n", 0, hit.start()) + 1
        match = rewrapped.match(text, line, end) if line >= start else None
        if match is not None:
            found.append(match)
        newline = text.find("\n", hit.end(), end)
        after = end if newline < 0 else newline
    return found


def _split_status(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """The `status:` lines a formatter wrapped onto more lines, the `contract:` line joined to
    the last of them (``status: blocked (no progress in 3 verify`` over ``runs) contract:
    e60a86e869d1``, as mdformat writes a long status at `--wrap 40`): each paragraph's start
    and its lines joined with blanks. A ledger goalfile wrote holds no `contract:` after a
    blank, and is searched no further (as in :func:`rewrapped_lines`)."""
    if text.find(" contract:", start, end) < 0 and text.find("\tcontract:", start, end) < 0:
        return []
    found = []
    for hit in _rewrapped_patterns()[1].finditer(text, start, end):
        line_end = text.find("\n", hit.end(), end)
        line_end = end if line_end < 0 else line_end
        line = text.rfind("\n", start, hit.start()) + 1
        if line < start:
            continue
        if not re.fullmatch(r"[ \t]+[0-9a-f]{12}[ \t]*\r*", text[hit.end() : line_end]):
            continue
        if re.match(r" {0,3}status:", text[line : hit.start()]):
            continue  # one line: :func:`rewrapped_lines` finds it
        first = line
        while first > start:  # up the paragraph, to the line under a blank one
            above = text.rfind("\n", start, first - 1) + 1
            if above < start or not text[above : first - 1].strip():
                break
            first = above
        if first == line or not re.match(r" {0,3}status:[ \t]*[a-z]+\b", text[first:line]):
            continue
        shown = " ".join(part.strip() for part in text[first:line_end].split("\n"))
        found.append((first, shown))
    return found


def rewrapped_error(goal: Goal, *, shown: str | None = None) -> GoalFileInvalid | None:
    """Lint's `entry-rewrapped`, as the error `status` gives for the file (verify refuses it
    so): no entry of a rewrapped ledger reads as goalfile wrote it, so its last run, status and
    budget would be read wrong. None when no entry was rewrapped. ``shown`` names the file
    (default: the goal's own path)."""
    found = next(iter(_rewrapped_findings(goal)), None)
    if found is None:
        return None
    return GoalFileInvalid(
        found.message, file=shown or goal.path, line=found.line, column=1, hint=found.hint
    )


# lint's fix for a rewrapped goal: the undo of an unstaged change, then the settings that keep
# paragraphs (goalfile.commands.rewrapfix gives the undo for a staged or committed one)
REWRAP_UNSTAGED = "undoes an unstaged one"
REWRAP_KEEP = (
    "keep paragraphs as they are in goal files: prettier's default `proseWrap: preserve` "
    'does, or an override in .prettierrc: `"overrides": [{"files": "goals/**/*.md", '
    '"options": {"proseWrap": "preserve"}}]`; so does mdformat\'s default `--wrap keep` '
    '(drop `--wrap` from its arguments, or write `wrap = "keep"` in .mdformat.toml), and '
    'dprint\'s default `"textWrap": "maintain"`'
)


def rewrapped_text(text: str) -> bool:
    """Whether a goal file's ``text`` (a copy git holds, say) holds an entry a formatter
    rewrapped: what lint reports as `entry-rewrapped`."""
    return bool(_rewrapped_at(text))


def _rewrapped_at(text: str) -> list[tuple[int, str]]:
    """Where the ledger of ``text`` holds an entry's lines joined or split by a formatter
    (outside fenced blocks), and the line found there, in the order of the file."""
    from goalfile import ledger

    region = ledger_region(text)
    if region is None:
        return []
    fences: tuple[tuple[int, int], ...] | None = None
    found: list[tuple[int, str]] = []
    if not _blank_contract(text, *region):  # as goalfile writes a ledger: none
        return []  # (one search for both rules: _split_status looks within the same span)
    joined = [(m.start(), m.group()) for m in rewrapped_lines(text, *region)]
    for start, shown in sorted([*joined, *_split_status(text, *region)]):
        if fences is None:
            fences = ledger.fenced_spans(text)
        if not ledger.in_spans(fences, start):
            found.append((start, shown))
    return found


def _rewrapped_findings(goal: Goal) -> Iterable[Finding]:
    """An entry whose `status:` and `contract:` lines were joined into one line. Markdown
    shows the two lines of a paragraph as one, so a formatter that rewraps paragraphs joins
    them, and wraps the entry's other lines where it likes; the readers then find no contract
    line in the entry, and no approval backs the pin. An error that names the formatter."""
    found = _rewrapped_at(goal.text)
    if not found:
        return
    first = found[0]
    line = goal.text.count("\n", 0, first[0]) + 1
    word = shell_word(goal.path)
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    yield Finding(
        severity=Severity.ERROR,
        line=line,
        column=1,
        code="entry-rewrapped",
        message=(
            f"`{first[1].strip()}` is an entry's `status:` and `contract:` lines joined "
            f"into one{more}: a formatter rewrapped the ledger's paragraphs (prettier does "
            "with `proseWrap: always` or `never`, mdformat with `--wrap N`, dprint with "
            '`"textWrap": "always"` or `"never"`), so the entry\'s lines, its contract '
            "among them, no longer read as goalfile wrote them"
        ),
        hint=(
            f"undo the formatter's change (`git diff -- {word}` shows it; "
            f"`git checkout -- {word}` {REWRAP_UNSTAGED}), and {REWRAP_KEEP}"
        ),
    )


# A text at most this long is searched whole for the word `baseline` before the accounting
# table's reader is loaded (lowering a long ledger would cost more than reading the table).
_ACCOUNTING_SCAN_CHARS = 1 << 16


def _accounting_findings(goal: Goal) -> Iterable[Finding]:
    if not _may_hold_accounting(goal.text):
        # The reader finds a problem only in a table whose header names the `baseline` column
        # (in any case): a text without the word where the reader looks holds no table to find
        # one in, and the reader's module, with its classes, is not loaded for it.
        return
    from goalfile.accounting import parse_accounting

    try:
        parse_accounting(goal.text, path=goal.path)
    except GoalfileError as exc:
        yield Finding(
            severity=Severity.ERROR,
            message=exc.message,
            line=exc.line,
            column=exc.column,
            hint=exc.hint,
            code="token-accounting",
        )


def _may_hold_accounting(text: str) -> bool:
    """Whether the lines ``accounting.parse_accounting`` reads the table from may hold the word
    `baseline` (in any case). A long text is not lowered whole: the reader reads the lines
    above the ledger, or, with no section there, the text from the first `## Token accounting`
    heading outside its fences, which is after the ledger unless an H2 heading line stands in
    the ledger (the heading index lists every one, fenced or not). So a long ledger holding no
    such line is never lowered or searched, and the reader is not loaded for it (its module
    builds two dataclasses: 8 M instructions of a verify of the 4 MB goal of bench/run.py)."""
    if len(text) <= _ACCOUNTING_SCAN_CHARS:
        return "baseline" in text.lower()
    from goalfile import ledger
    from goalfile.parse import ledger_bounds

    bounds = ledger_bounds(text)
    if bounds is None or bounds[0] == 0:
        return True  # the reader reads the whole text
    start, content, end = bounds
    sections = ledger.headings(text).sections
    if bisect.bisect_left(sections, content) < bisect.bisect_left(sections, end):
        return True  # an H1/H2 heading line in the ledger: the reader may read from there
    return "baseline" in text[:start].lower() or "baseline" in text[end:].lower()


def _row_findings(goal: Goal) -> Iterable[Finding]:
    from goalfile.expect import parse_expected

    if not goal.criteria and not any(
        f.code == "structure" or f.code == "columns" for f in goal.problems
    ):
        section = next((s for s in goal.sections if s.key in CRITERIA_KEYS), None)
        yield Finding(
            severity=Severity.ERROR,
            message="the criteria table has no rows; write at least one under its header: "
            "`| C1 | what | `command` | exit 0 | deterministic |`",
            line=section.line if section else None,
            code="criteria",
        )
    seen: dict[str, int] = {}
    # a row with the wrong number of cells is reported as that, not as whatever its shifted
    # cells would make of it
    miscounted = {p.line for p in goal.problems if p.code == "cell-count"}
    for row in goal.criteria:
        if row.line in miscounted:
            continue
        if not row.id:
            yield _error(row, "a criterion row has no id; give it one, such as C1")
        elif row.id in seen:
            yield _error(
                row,
                f"id {row.id} is used twice (first on line {seen[row.id]}); give every row its "
                "own id",
            )
        else:
            seen[row.id] = row.line
        if row.id and not ID_RE.fullmatch(row.id):
            yield _error(
                row,
                f"id {row.id!r} is not a plain id: it must start with a letter and hold only "
                "letters, digits, `_`, `.` and `-` (an id is printed in the ledger and the summary "
                "line); rename the row, e.g. C1",
            )
        label = row.id or "row"
        if row.kind_text.lower() not in {k.value for k in Kind}:
            yield _error(
                row,
                f"{label}: unknown kind {row.kind_text!r}; the kind column holds `deterministic` "
                "or `review`",
            )
        if row.timeout_text and row.timeout is None:
            yield _error(
                row,
                f"{label}: timeout {row.timeout_text!r} is not a positive number; write seconds, "
                "e.g. `120`, or leave the cell empty",
            )
        if not row.check.strip():
            yield _error(
                row,
                f"{label}: no check; name the command in the check column, as one code span: "
                "`pytest -q`",
            )
        if not row.expected.strip():
            yield _error(
                row,
                f"{label}: no expected result; say what a passing run looks like, e.g. "
                '`exit 0; stdout contains "passed"`',
            )
            continue
        if _has_placeholder(row):
            continue  # reported once, as a placeholder
        yield from _record_findings(row, label)
        if row.kind is Kind.REVIEW:
            if row.check.strip() and review_artifact(row) is None:
                yield _error(
                    row,
                    f"{label}: the review row names no artifact; put its path in the check "
                    "column, e.g. `docs/auth.md`",
                )
            continue
        for name, meant, typed in (
            ("check", row.check, row.source_check),
            ("expected", row.expected, row.source_expected),
        ):
            if typed and meant.strip() != typed.strip():
                yield _warning(
                    row,
                    "markdown-text",
                    f"{label}: the {name} `{typed.strip()}` means `{meant.strip()}` "
                    "as Markdown shows it (escapes and markup outside a code span are read)",
                    hint=f"put the cell in a code span; `goalfile lint --fix "
                    f"{shell_word(goal.path)}` writes `{meant.strip()}` as one, keeping what it "
                    "means now",
                )
        if row.check.strip() and not row.check_is_code:
            yield _warning(
                row,
                "check-not-code",
                f"{label}: the check is not one code span; goalfile runs "
                f"`{row.check.strip()}`, the cell's text with Markdown's escapes and markup "
                "read (raw HTML is kept, as it is written)",
                hint=f"`goalfile lint --fix {shell_word(goal.path)}` puts it in one code span, "
                "keeping what runs",
            )
        try:
            expectation = parse_expected(row.expected)
        except GoalfileError as exc:
            yield Finding(
                severity=Severity.ERROR,
                line=row.line,
                column=_column(goal, row, exc.column),
                code="expected-syntax",
                message=f"{label}: expected: {exc.message}",
                hint=exc.hint,
            )
            continue
        if expectation.rewrites:
            from goalfile.expecttext import canonical_text

            yield _warning(
                row,
                "expected-synonym",
                f"{label}: expected `{row.expected}` is read as `{canonical_text(row.expected)}`",
                hint=f"write it that way; `goalfile lint --fix {shell_word(goal.path)}` does it",
            )
        if not expectation.has_exit_clause:
            yield _warning(
                row,
                "no-exit-clause",
                f"{label}: expected has no exit clause, so the exit status is not judged; "
                "add `exit 0` (or the status a passing run has)",
            )
        yield from _backtracking_findings(goal, row, label, expectation)
        yield from _merged_findings(goal, row, label, expectation)
        yield from _counted_findings(row, label, expectation)
        yield from _forced_findings(row, label, expectation)
        yield from _error_counted_findings(row, label, expectation)
        yield from unittest_stdout(row, label, expectation)


_COUNTED = re.compile(r"\|\s*wc\s+-l\s*$")


def _counted_findings(row: Criterion, label: str, expectation: Expectation) -> Iterable[Finding]:
    """A check that pipes into `wc -l` judged by `prints 0`: the status is `wc`'s, so the
    measuring command failing (grep's exit 2 on a missing folder) also prints 0."""
    if "wc" not in row.check or not _COUNTED.search(row.check):
        return
    from goalfile.expecttext import PrintsClause

    if not any(isinstance(c, PrintsClause) and c.text == "0" for c in expectation.clauses):
        return
    yield _warning(
        row,
        "pipeline-status",
        f"{label}: the check ends in `| wc -l` and expects `prints 0`: a pipeline's exit "
        "status is its last command's, so when the command before `wc` fails (grep on a "
        "missing folder exits 2) it still prints 0 and the row is met; judge the command that "
        'measures instead: `grep -rRn "PATTERN" src` with `exit 1; output empty` (grep exits 1 '
        "for no match, 2 for an error; -R follows links)",
    )


_FORCING = ("true", ":", "exit", "echo", "printf", "&")  # a word forced() can act on


def _forced_findings(row: Criterion, label: str, expectation: Expectation) -> Iterable[Finding]:
    """A check whose exit status the shell forces to 0 (`cmd || true`, `cmd; exit 0`;
    :mod:`goalfile.forcedexit`) judged by its exit status alone: the row can never fail (or
    never be met)."""
    if not any(word in row.check for word in _FORCING):
        return
    from goalfile.expect import ExitClause
    from goalfile.forcedexit import forced

    found = forced(row.check)
    if found is None:
        return
    if not all(isinstance(c, ExitClause) for c in expectation.clauses):
        return
    yield _warning(
        row,
        "status-forced",
        f"{label}: the check cannot fail: its exit status is always 0 (`{found.tail}` "
        "ends it) and expected judges nothing else, so the row is met (or never met) whatever "
        f"the work does; drop `{found.tail}`, so that the command that measures is judged by "
        'its own exit status, or add a clause on its output (`stdout contains " passed"`)',
    )


def _error_counted_findings(
    row: Criterion, label: str, expectation: Expectation
) -> Iterable[Finding]:
    """A check whose exit clauses also hold when its command fails with an error (`! grep ...`
    with `exit 0`, `grep ...` with `exit nonzero`; :mod:`goalfile.errorstatus`): the row is met
    when the file it reads is gone."""
    if (
        "!" not in row.check
        and "-z" not in row.check
        and not any(name in row.check for name in _ERROR_PROGRAMS)
    ):
        return
    from goalfile.errorstatus import error_counted

    found = error_counted(row.check, expectation)
    if found is None:
        return
    how = (
        f'`test -z "$(...)"` drops the status of `{found.program}`, and an error of it (a file '
        "it cannot read, a command not found) prints nothing on stdout, so the test holds"
        if found.substituted
        else f"the check starts with `!`, which turns every failure of `{found.program}` into "
        "exit 0, an error too (a file it cannot read, a command not found)"
        if found.negated
        else f"`{found.program}` exits {found.status} for an error (a file or folder it cannot "
        "read, a revision it does not know), which the exit clause takes as the result it wants"
    )
    yield _warning(
        row,
        "error-counted",
        f"{label}: {how}, so the row is met when what the check reads is deleted or "
        "moved; judge the command's own status instead, without `!`: the status of the result "
        "you want (`exit 1` for grep's no match, diff's or `git diff --quiet`'s difference), "
        "with `output empty` where the command prints its error (grep does)",
    )


_ERROR_PROGRAMS = ("grep", "rg", "diff", "cmp", "git")


def _merged_findings(
    goal: Goal, row: Criterion, label: str, expectation: Expectation
) -> Iterable[Finding]:
    """A TEXT or REGEX that holds what reads as the end of its clause and the start of another
    (``lacks "failed\\"; stdout lacks \\"error"``): the contract reads as more clauses than
    goalfile judges (see :mod:`goalfile.expectmerge`)."""
    if '"' not in row.expected and "/" not in row.expected:
        return
    from goalfile.expectmerge import escaped_at, merged, split_reading

    found = merged(expectation)
    if not found:
        return
    split = split_reading(row.expected)
    first = found[0]
    apart = (
        f"write the clauses apart, as they read: `{split}`"
        if split is not None
        else 'end each TEXT with a plain `"` and each REGEX with a plain `/`, and write every '
        'clause apart: `stdout lacks "failed"; stdout lacks "error"`'
    )
    yield Finding(
        severity=Severity.ERROR,
        line=row.line,
        column=_column(goal, row, escaped_at(row.expected)),
        code="merged-clauses",
        message=f"{label}: expected `{row.expected}` holds {len(expectation.clauses)} "
        f"clause{'s' if len(expectation.clauses) != 1 else ''}, not the ones it reads as: "
        f"`{first.clause}` is one clause, whose text `{first.inner}` holds `{first.boundary}` "
        "(an escaped quote or slash, then a separator and a clause word), so what reads as "
        f"the next clause is part of its text and is never judged; {apart}",
    )


def _record_findings(row: Criterion, label: str) -> Iterable[Finding]:
    """A check or expected result the approval entry cannot record as it is (a tab, another
    control character, more than :data:`goalfile.ledger.CODE_SPAN_LIMIT` characters): the
    recorded rows would never digest to the pin, and verify would refuse the goal for good."""
    from goalfile.contract import contract_row
    from goalfile.ledger import CODE_SPAN_LIMIT, clean_line

    approved = contract_row(row)
    for name, value in (("check", approved.check), ("expected", approved.expected)):
        if len(value) > CODE_SPAN_LIMIT:
            why = f"is longer than {CODE_SPAN_LIMIT:,} characters"
            what = "put the command into a script and run that" if name == "check" else "shorten it"
        elif clean_line(value, limit=CODE_SPAN_LIMIT) != value:
            bad = next((c for c in value if clean_line(c) != c), "")
            why = f"holds the character U+{ord(bad):04X}" if bad else "holds a control character"
            what = (
                "write a space instead of it, or have the command make it (`$(printf '\\t')` "
                "for a tab)"
                if name == "check"
                else "write a space instead of it"
            )
        else:
            continue
        yield Finding(
            severity=Severity.ERROR,
            line=row.line,
            code="unrecordable",
            message=f"{label}: the {name} {why}, which the approval entry cannot record as it "
            f"is: the approved rows would never match the contract's pin; {what}",
        )


def _backtracking_findings(
    goal: Goal, row: Criterion, label: str, expectation: Expectation
) -> Iterable[Finding]:
    """A ``matches`` pattern that can backtrack exponentially (see :mod:`goalfile.backtrack`):
    a warning, since verify stops such a search at the row's time limit (the row is then an
    error) and the reading can flag a pattern that is slow on no real output."""
    for clause in expectation.clauses:
        pattern = getattr(clause, "pattern", None)
        if pattern is None:
            continue
        from goalfile.backtrack import MAY_BACKTRACK, analyse

        if not re.search(MAY_BACKTRACK, pattern):
            continue

        found = analyse(pattern)
        if found is None or not found.exponential:
            continue
        from goalfile.expect import format_clause

        yield Finding(
            severity=Severity.WARNING,
            line=row.line,
            column=_column_of(goal, row, pattern),
            code="backtracking-pattern",
            message=f"{label}: the pattern of `{format_clause(clause)}` can backtrack "
            "exponentially: a repeat inside a repeat, or ways of a repeated part that can take "
            "the same character, so a line that almost matches can keep the search busy for "
            "hours; verify ends the search at the row's time limit and the row is an error. "
            "Write it so that each character can be matched one way only: `/^a+$/` for "
            "`/^(a+)+$/`, `/^(\\d+,)*\\d+$/` for `/^(\\d+,?)+$/`, or make the inner repeat "
            "possessive (`a++`) or an atomic group (`(?>a+)`), which never backtrack",
        )


def _unseen_findings(goal: Goal) -> Iterable[Finding]:
    """Cells whose text is not what a reader of the contract sees: raw HTML outside a code span
    (GitHub hides a comment and draws a tag as markup, goalfile runs it as text), invisible
    characters and look-alike letters (see :mod:`goalfile.unseen`)."""
    yield from _header_findings(goal)
    miscounted = {p.line for p in goal.problems if p.code == "cell-count"}
    for row in goal.criteria:
        if row.line in miscounted:
            continue
        label = row.id or "row"
        raw = dict(row.cells)
        for name in ("check", "expected"):
            cell = raw.get(name, "")
            if MARKUP_HINT.search(cell):
                found = hidden_markup(cell)
                if found:
                    yield _markup_finding(goal, row, label, name, cell, found)
        prose = row.kind is Kind.REVIEW
        for name, value in (("id", row.id), ("check", row.check), ("expected", row.expected)):
            if value.isascii() and value.isprintable():
                continue
            from goalfile import unseen

            found_chars = unseen.find(
                value, words=not (prose and name == "expected"), punctuation=name == "check"
            )
            if found_chars:
                yield _unseen_finding(goal, row, label, name, value, found_chars)


def _header_findings(goal: Goal) -> Iterable[Finding]:
    """The criteria header's names, held to the rules of a cell: a column named with an
    invisible or look-alike character (`chеck` with a Cyrillic е) is an error, since a reader
    takes it for the column it reads as while goalfile ignores it; and a column goalfile does
    not read that holds a command left of the `check` column is a warning (a decoy)."""
    if not goal.criteria:
        return
    first = goal.criteria[0]
    names = [name for name, _ in first.cells]
    line, source = _header_line(goal, first)
    yield from _header_shown(goal, names, line)
    for name in names:
        if name.isascii() and name.isprintable():
            continue
        from goalfile import unseen  # here: a header in plain ASCII loads no reader for it

        found = unseen.find(name, punctuation=True)
        if not found:
            continue
        reads = "".join(c for c in name if not unseen.is_invisible(c))
        for u in found:
            if u.reads and not u.invisible:
                reads = reads.replace(u.text, u.reads.lower())
        distinct = list(dict.fromkeys(u.what for u in found))[:3]
        hint: str | None = None
        message = (
            f"the criteria header names a column `{unseen.shown(name)}`, which is not what it "
            f"shows: it holds {'; '.join(distinct)}"
        )
        if reads in READ_COLUMNS and reads in names:
            message += (
                f". A reader takes it for the column `{reads}`; goalfile ignores it (a column "
                f"it does not read) and reads `{reads}` from column {names.index(reads) + 1}"
            )
            message += "; delete the column, or rename it to say what it holds"
        elif reads in READ_COLUMNS:
            message += f". A reader takes it for the column `{reads}`, which goalfile lacks"
            hint = _header_cell_command(goal.path, line, source, names.index(name), reads)
            if hint is None:
                message += f"; retype its name as the ASCII `{reads}` it reads as"
        else:
            message += "; retype the column's name in ASCII letters"
        at = source.lower().find(found[0].text.lower()) if source else -1
        yield Finding(
            severity=Severity.ERROR,
            line=line,
            column=at + 1 if at >= 0 else None,
            code="unseen-text",
            message=message,
            hint=hint,
        )
    yield from _decoy_columns(goal, names, line)


def _header_cell_command(path: str, line: int, source: str, index: int, name: str) -> str | None:
    """A `sed` command that writes ``name`` in place of the criteria header's cell ``index``
    (0-based) on ``line``, whose text is ``source``: the ``index``-th `|` and the cell after it
    are written `| NAME `, whatever characters the cell held. None where that is not sure (no
    path, a header without a leading `|`, an escaped `|`)."""
    from goalfile.shellword import sed_command

    if not path or not source.lstrip().startswith("|") or "\\|" in source:
        return None
    return sed_command(path, [f"{line}s/|[^|]*/| {name} /{index + 1}"])


_HEADER_MARKUP = re.compile(r"[$\\[~&*_<]")


def _header_shown(goal: Goal, names: list[str], line: int) -> Iterable[Finding]:
    """A header name in ASCII that GitHub shows as a column goalfile reads, though goalfile
    does not read it so: inline math (`$\\text{check}$`), a footnote reference
    (`check[^1]`), struck-out words (`~~the~~ check`) or an entity of an invisible character
    (`check&#8203;`). A reader takes that column for the one it shows as."""
    for index, name in enumerate(names):
        if name in READ_COLUMNS or not _HEADER_MARKUP.search(name):
            continue
        if not (name.isascii() and name.isprintable()):
            continue  # a name outside ASCII is held to the rules of a cell below
        from goalfile.gfmview import footnote_labels, shown_name

        shows = shown_name(name, footnote_labels(goal.text))
        if shows not in READ_COLUMNS:
            continue
        message = (
            f"the criteria header names a column {inline_code(name)}, which GitHub shows as "
            f"`{shows}`: a reader takes it for the column `{shows}`"
        )
        if shows in names:
            message += (
                f", while goalfile ignores it (a column it does not read) and reads `{shows}` "
                f"from column {names.index(shows) + 1}"
            )
        else:
            message += ", which goalfile lacks"
        yield Finding(
            severity=Severity.ERROR,
            line=line,
            column=None,
            code="rendered-differs",
            message=f"{message}; delete column {index + 1}, or name it in plain words that say "
            "what it holds",
        )


def _decoy_columns(goal: Goal, names: list[str], line: int) -> Iterable[Finding]:
    """A column goalfile does not read, left of `check`, whose cell in a deterministic row is
    one code span: a reader may take that command for the one that runs."""
    if "check" not in names:
        return
    before = [n for n in names[: names.index("check")] if n not in READ_COLUMNS]
    for name in before:
        for row in goal.criteria:
            cell = dict(row.cells).get(name, "").strip()
            if row.kind is not Kind.DETERMINISTIC or not re.fullmatch(r"`[^`]+`", cell):
                continue
            from goalfile.unseen import shown

            written = shown(name)
            message = (
                f"{row.id or 'row'}: the column `{written}`, which goalfile does not read, holds "
                f"the code span {cell} left of the check column, and a reader may take it for "
                f"the command; goalfile runs {inline_code(row.check)}"
            )
            message += (
                f"; move the column `{written}` right of `check`, or write its cell as prose "
                "(goalfile runs only the `check` column)"
            )
            yield Finding(
                severity=Severity.WARNING, message=message, line=row.line, code="decoy-column"
            )
            break


def _header_line(goal: Goal, first: Criterion) -> tuple[int, str]:
    """The criteria header's line (two above the first row: the header, then its delimiter
    row) and its text, or the first row's line and "" when it is not there as written."""
    at = first.line - 2
    lines = first_lines(goal.text, at)  # not a split of the rest: a long ledger is copied
    if 0 < at <= len(lines) and lines[at - 1].count("|") >= len(first.cells) - 1:
        return at, lines[at - 1]
    return first.line, ""


def _rendering_findings(goal: Goal) -> Iterable[Finding]:
    """Deterministic cells that GitHub shows otherwise than goalfile reads them (GFM
    strikethrough, a link whose reference only the ledger defines, an autolink, inline math, a
    footnote reference, an emoji shortcode, a run of blanks, emphasis beside a symbol): see
    :mod:`goalfile.gfmview`."""
    from goalfile.gfmview import difference, footnote_labels, ledger_labels

    miscounted = {p.line for p in goal.problems if p.code == "cell-count"}
    in_ledger: frozenset[str] | None = None
    footnotes: frozenset[str] | None = None
    for row in goal.criteria:
        if row.line in miscounted or row.kind is not Kind.DETERMINISTIC:
            continue
        for name, cell in row.cells:
            if name not in ("check", "expected"):
                continue
            if "[" in cell and in_ledger is None:
                in_ledger = ledger_labels(goal.text)
                footnotes = footnote_labels(goal.text)
            found = difference(
                cell, goal.link_labels, in_ledger or (), footnotes or (), column=name
            )
            if found is not None:
                yield _rendering_finding(goal, row, name, cell, found)


def _rendering_finding(
    goal: Goal, row: Criterion, name: str, cell: str, found: Difference
) -> Finding:
    runs = "runs" if name == "check" else "judges by"
    if found.emoji or found.blanks or found.emphasis:
        pieces = [
            *(f"{inline_code(e)} drawn as an emoji picture (GitHub's shortcodes)"
              for e in found.emoji),
            *(["its runs of blanks drawn as one (HTML outside a code span)"]
              if found.blanks else []),
            *(f"{inline_code(w)} read as emphasis by one reader only (a star or underscore "
              "beside a symbol: GitHub follows CommonMark 0.29, goalfile 0.31)"
              for w in found.emphasis),
        ]  # fmt: skip
        shown = f"as {inline_code(found.shown)}, with {listed(pieces)}"
    elif found.math or found.footnotes:
        pieces = [
            *(f"{inline_code(m)} drawn as math (GitHub's MathJax, which can draw nothing)"
              for m in found.math),
            *(f"{inline_code(n)} shown as a footnote's number (the file defines that footnote)"
              for n in found.footnotes),
        ]  # fmt: skip
        shown = f"as {inline_code(found.shown)}, with {listed(pieces)}"
    elif found.struck:
        shown = f"with {listed([inline_code(s) for s in found.struck])} struck out (GFM "
        shown += "strikethrough: read as deleted)"
    elif found.linked:
        shown = f"as {inline_code(found.shown)} (GFM links "
        shown += f"{listed([inline_code(a) for a in found.linked])} and shows it as typed: "
        shown += "a backslash escape, an entity or emphasis marks in it are not read)"
    else:
        shown = f"as {inline_code(found.shown)} (a link whose label a definition in the ledger "
        shown += "defines)"
    return Finding(
        severity=Severity.ERROR,
        line=row.line,
        code="rendered-differs",
        message=f"{row.id or 'row'}: the {name} {inline_code(cell)} shows on GitHub {shown}, but "
        f"goalfile {runs} {inline_code(found.read)}",
        hint=f"`goalfile lint --fix {shell_word(goal.path)}` writes the {name} as one code span "
        f"of what goalfile {runs}, which every view shows as written; or rewrite the cell as "
        "you mean it, in a code span",
    )


def reading_findings(goal: Goal) -> Iterable[Finding]:
    """The errors of a contract that reads otherwise than it runs, for `audit`: lone carriage
    returns (``lone-cr``), cells GitHub shows otherwise (``rendered-differs``), raw HTML,
    invisible characters and look-alike letters in a cell or the criteria header, and HTML
    blocks in the contract's sections (``hidden-markup``, ``unseen-text``), and a TEXT that
    reads as more clauses than it is (``merged-clauses``)."""
    yield from (p for p in goal.problems if p.code == "lone-cr")
    yield from _rendering_findings(goal)
    yield from outside_findings(goal)
    yield from _gfm_block_findings(goal)
    yield from _gfm_table_findings(goal)
    for found in (*_unseen_findings(goal), *_contract_html_findings(goal)):
        if found.severity is Severity.ERROR:  # not a warning (a decoy column)
            yield found
    yield from _merged_reading(goal)


def _merged_reading(goal: Goal) -> Iterable[Finding]:
    """The ``merged-clauses`` errors of the deterministic rows whose expected parses."""
    from goalfile.expect import parse_expected

    for row in goal.criteria:
        if row.kind is Kind.REVIEW or ('"' not in row.expected and "/" not in row.expected):
            continue
        try:
            expectation = parse_expected(row.expected)
        except GoalfileError:
            continue
        yield from _merged_findings(goal, row, row.id or "row", expectation)


def hidden_markup(cell: str) -> list[str]:
    """The raw HTML (``html_inline``) and images of a cell outside its code spans."""
    global _INLINE_MD
    if _INLINE_MD is None:
        from markdown_it import MarkdownIt

        _INLINE_MD = MarkdownIt("commonmark")
    tokens = _INLINE_MD.parseInline(cell)
    children = tokens[0].children or [] if tokens else []
    return [
        c.content if c.type == "html_inline" else f"![{c.content}]({c.attrGet('src') or ''})"
        for c in children
        if c.type in ("html_inline", "image")
    ]


_INLINE_MD: Any = None
# what raw HTML (`<a`, `</a`, `<!--`, `<?`, `<!X`) or an image starts with: other cells are not
# parsed again
MARKUP_HINT = re.compile(r"<[A-Za-z/!?]|!\[")


def _markup_finding(
    goal: Goal, row: Criterion, label: str, name: str, cell: str, found: list[str]
) -> Finding:
    runs = "runs it" if name == "check" else "reads it"
    first = found[0]
    what = "an image" if first.startswith("![") else "raw HTML"
    return Finding(
        severity=Severity.ERROR,
        line=row.line,
        column=_column_of(goal, row, first),
        code="hidden-markup",
        message=f"{label}: the {name} cell holds {what} `{first}` outside a code span: "
        f"a Markdown view such as GitHub's does not show it as text, but goalfile {runs} as "
        "text"
        + (
            ""
            if row.kind is Kind.DETERMINISTIC
            else f"; put the whole cell in a code span ({inline_code(cell)}) so that every "
            "reader sees it, or delete the markup"
        ),
        hint=f"`goalfile lint --fix {shell_word(goal.path)}` puts the cell in a code span of "
        "what goalfile reads, so that every reader sees it"
        if row.kind is Kind.DETERMINISTIC
        else None,
    )


def _unseen_finding(
    goal: Goal, row: Criterion, label: str, name: str, value: str, found: list[Unseen]
) -> Finding:
    from goalfile import unseen

    distinct = list(dict.fromkeys(u.what for u in found))  # `｜｜` names U+FF5C once
    whats = distinct[:3]
    if len(distinct) > 3:
        whats.append(f"{len(distinct) - 3} more")
    invisible = [u.text for u in found if u.invisible]
    composed = next((u for u in found if u.composed), None)
    if composed is not None and not invisible:
        plain = " ".join(f"U+{ord(c):04X}" for c in composed.composed)
        typed = " + ".join(c if c.isascii() else f"U+{ord(c):04X}" for c in composed.text)
        what = f"write {typed} as the one character {composed.composed} ({plain}) it shows"
        if name == "check" and not composed.composed.isascii():
            what += (
                "; a name really spelled so (a folder made on macOS) is matched with a glob "
                "or made from an escape"
            )
    elif invisible:
        escape = _escape(invisible[0])
        how = (
            f"if the command needs it, make it from an escape (`$'{escape}'` in bash)"
            if name == "check"
            else f"to find it in output on purpose, write it as an escape in a pattern "
            f"(`stdout matches /{escape}/`)"
        )
        what = f"delete the character; {how}"
    else:
        alike = next(u for u in found if not u.invisible and not u.composed)
        escaped = "".join(c if c.isascii() else _escape(c) for c in alike.text)
        if alike.reads:
            what = f"retype `{alike.text}` as the ASCII `{alike.reads}` it reads as"
        else:
            what = f"retype the word `{alike.text}` in one script"
        if name == "expected":
            what += (
                f"; to find `{alike.text}` in output as it is written, write it with escapes "
                f"in a pattern (`stdout matches /{escaped}/`)"
            )
        elif name == "check":
            what += (
                "; if the command needs it as it is written, make it from escapes "
                f"(`$'{escaped}'` in bash)"
            )
    return Finding(
        severity=Severity.ERROR,
        line=row.line,
        column=_column_of(goal, row, found[0].text),
        code="unseen-text",
        message=f"{label}: the {name} `{unseen.shown(value)}` is not what it shows: it holds "
        f"{'; '.join(whats)}. To mend it: {what}",
    )


def _escape(char: str) -> str:
    """``\\u200b``: the character as an escape that Python patterns and bash's ``$'...'`` read."""
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _column_of(goal: Goal, row: Criterion, text: str) -> int | None:
    """The 1-based column of ``text`` in the row's line, when it is there as written."""
    lines = goal.text.split("\n", row.line)
    if not text or not 0 < row.line <= len(lines):
        return None
    found = lines[row.line - 1].find(text)
    return found + 1 if found >= 0 else None


def _column(goal: Goal, row: Criterion, inner: int | None) -> int | None:
    lines = goal.text.split("\n", row.line)
    if row.line - 1 >= len(lines):
        return inner
    source = lines[row.line - 1]
    # look in the expected cell only: the same text may occur in an earlier cell
    names = [name for name, _ in row.cells]
    pipes = [m.start() for m in re.finditer(r"(?<!\\)\|", source)]
    cell = names.index("expected") if "expected" in names else 0
    if not source.lstrip().startswith("|"):
        cell -= 1
    begin = pipes[cell] + 1 if 0 <= cell < len(pipes) else 0
    start = source.find(row.expected, begin)
    if start < 0:
        return inner
    return start + (inner or 1)


def _warning(row: Criterion, code: str, message: str, hint: str | None = None) -> Finding:
    """A warning about ``row``, at its line."""
    return Finding(severity=Severity.WARNING, line=row.line, code=code, message=message, hint=hint)


def _error(row: Criterion, message: str) -> Finding:
    """A row no command can mend: the message says what to write (no `fix:` line)."""
    return Finding(severity=Severity.ERROR, line=row.line, message=message, code="criteria")
