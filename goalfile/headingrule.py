"""lint's rule `entry-heading`: a ledger line that looks like an entry heading but is not one;
and its rule `entry-outside-ledger`: an entry heading outside the ledger.

`status` and the Stop hook refuse such a file as verify does (:func:`heading_error`), at every
stop on a met goal too; the rule lives apart from the other rules so that they load this module
only, not all of lint (about 0.4 ms of every start)."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable

from goalfile.errors import GoalFileInvalid
from goalfile.model import Finding, Goal, Severity
from goalfile.parse import ledger_region


def heading_error(goal: Goal, *, shown: str | None = None) -> GoalFileInvalid | None:
    """The first line of the ledger that looks like an entry heading but is not one (lint's
    `entry-heading`), as the error `status` and the Stop hook give for the file, as verify
    refuses it: a reader that took the file would read that entry's lines, its `status:` line
    among them, as part of the entry before it (one heading grammar for every reader). None
    when there is none. ``shown`` names the file (default: the goal's own path)."""
    found = next(iter(heading_findings(goal)), None)
    if found is None:
        return None
    return GoalFileInvalid(
        found.message, file=shown or goal.path, line=found.line, column=1, hint=found.hint
    )


def heading_findings(goal: Goal) -> Iterable[Finding]:
    """A ledger line that looks like an entry heading but is not one would be read as part of
    the entry before it: an entry silently lost. That is an error, never ignored."""
    from goalfile import ledger

    region = ledger_region(goal.text)
    if region is None:
        return
    start, end = region
    fences: tuple[tuple[int, int], ...] | None = None  # found only when a line needs them
    for offset, found in lookalike_lines(goal.text, start, end):
        line = found.rstrip("\r")
        if fences is None:
            fences = ledger.fenced_spans(goal.text)
        if ledger.is_heading(line) or ledger.in_spans(fences, offset):
            continue
        yield Finding(
            severity=Severity.ERROR,
            line=goal.text.count("\n", 0, offset) + 1,
            column=1,
            code="entry-heading",
            message=f"`{line.strip()}` looks like an entry heading but cannot be read as one: "
            "an entry heading is `### Iteration N (YYYY-MM-DD) by WHO`, optionally with a time "
            "`(YYYY-MM-DD HH:MM)`",
        )


# A line that ledger.heading_like_re() matches and that is not an entry heading (ledger.is_heading
# of the line without its trailing carriage returns), found from its first `#`: the literal
# prefix `#` lets one search jump from `#` to `#` at C speed, a look behind it says whether it
# starts a line after at most three blanks, and every real entry heading is skipped without a
# step of Python. Only for a span that does not end at a line's end: the heading index holds
# the lines of every other span (ledger.Headings.lookalikes).
@functools.cache
def lookalike_scan() -> re.Pattern[str]:
    from goalfile.ledger import LOOKALIKE, entry_heading

    return re.compile(
        rf"#(?:(?<=\n#)(?!## {entry_heading(groups=False)}(?:\n|\Z))"
        rf"|(?<=\n #)|(?<=\n  #)|(?<=\n   #)){LOOKALIKE}[^\n]*"
    )


def lookalike_lines(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """The lines of ``ledger.heading_like_lines(text, start, end)`` that are not entry
    headings (when the span starts the text: every such line), in order. For a span that ends
    at a line's end, as the ledger does, they are those the heading index holds (the search
    that finds the headings finds them too): the ledger is not searched again."""
    from goalfile import ledger

    if start == 0:
        return list(ledger.heading_like_lines(text, start, end))
    found = []
    if end == len(text) or text[end - 1 : end] == "\n":
        lines = ledger.headings(text).lookalikes
        for line in lines[bisect.bisect_left(lines, start) : bisect.bisect_left(lines, end)]:
            stop = text.find("\n", line, end)
            found.append((line, text[line : end if stop < 0 else stop]))
        return found
    for match in lookalike_scan().finditer(text, start, end):
        line = text.rfind("\n", 0, match.start()) + 1  # after at most three blanks
        if line >= start:
            found.append((line, text[line : match.end()]))
    return found


# what shows as a ledger entry outside the ledger, whatever the markup around it: an entry's
# heading text (`Iteration N (YYYY-MM-DD`) at the start of what a line shows, in a heading of
# any level, a quote, bold text or a setext heading; and, below the ledger, where it reads as
# the newest entry's, a status line (`status: met`)
# (compiled when a span holds such a word, which a goal as goalfile writes it does not: see
# _may_show)
@functools.cache
def _shows() -> tuple[re.Pattern[str], re.Pattern[str]]:
    return (
        re.compile(r"(?im)^[ \t>*_#+-]*iteration[ \t]+\d+[ \t]*\([ \t]*\d{4}-\d\d-\d\d[^\n]*"),
        re.compile(
            r"(?im)^[ \t>*_#+-]*status[ \t]*\\?:[ \t*_`]*"
            r"(?:draft|active|paused|met|blocked|exhausted)\b[^\n]*"
        ),
    )


def outside_findings(goal: Goal) -> Iterable[Finding]:
    """What shows as a ledger entry outside `## Iterations` (under `## Lessons`, in the plan):
    an entry's heading text in any markup (`### Iteration 1 (DATE) by verify-goal`, `####`, a
    quote, bold, a trailing `###`), or a status line (`status: met`). goalfile reads no entry
    there, but GitHub and a model reading the file show one: a verify entry copied under `##
    Lessons` with every verdict `met` and `status: met` was the last entry a reviewer saw in
    the file, while goalfile read the goal as active, lint said ok, `audit --against` was
    clean and CI re-ran no check of an active goal. An error, with the `sed` that deletes the
    entry's lines (up to the next heading or the end of the section), or the status line."""
    from goalfile import ledger
    from goalfile.parse import _body_start, ledger_bounds
    from goalfile.shellword import sed_command

    text = goal.text
    body = _body_start(text)
    bounds = ledger_bounds(text)
    spans = [(body, len(text))] if bounds is None else [(body, bounds[0]), (bounds[2], len(text))]
    if bounds is not None:  # the ledger's newest entry, where a reader looks for the result
        last_heading = text.rfind("\n### Iteration ", bounds[1], bounds[2])
        if last_heading >= 0:
            spans.append((text.find("\n", last_heading + 1, bounds[2]) + 1 or bounds[2], bounds[2]))
    fences: tuple[tuple[int, int], ...] | None = None
    shown: list[tuple[int, int, str, bool]] = []  # first line, last line, what, in the ledger
    for start, end in spans:
        inside = bounds is not None and bounds[1] <= start < bounds[2]
        # a line it reports holds `teration` (an entry's heading text) or, below the ledger,
        # `tatus`, in any case: a span without one is not scanned, and a one-row
        # verify compiles no pattern for it
        below = bounds is not None and start == bounds[2]
        if start >= end or not _may_show(text, start, end, status=below):
            continue
        shows_entry, shows_status = _shows()
        found = sorted(
            [(m.start(), m.group(), True) for m in shows_entry.finditer(text, start, end)]
            + [
                (m.start(), m.group(), False)
                for m in (shows_status.finditer(text, start, end) if below else ())
            ]
        )
        covered = 0
        for offset, line_text, entry in found:
            if fences is None:
                fences = ledger.fenced_spans(text)
            first = text.count("\n", 0, offset) + 1
            if first <= covered or ledger.in_spans(fences, offset):
                continue
            line = line_text.rstrip("\r").strip()
            if inside and (line.startswith("#") or len(line_text) - len(line_text.lstrip(" ")) > 3):
                continue  # entry-heading's (a `#` line), or an indented line of output
            last = _block_end(text, offset, end, fences) if entry else first
            covered = last
            what = (
                f"`{line}` shows as a ledger entry, in a quote or bold text, that goalfile reads "
                "as lines of the entry above it"
                if inside
                else f"`{line}` shows as a ledger entry outside `## Iterations`: goalfile reads "
                "no entry there"
                if entry
                else f"`{line}` shows as the goal's status outside `## Iterations`: goalfile "
                "reads no status there"
            )
            shown.append((first, last, what, inside))
    # one command deletes them all, printed once: the line numbers of a second command would
    # be those before the first one ran, and name other lines after it
    shown.sort()
    fix = sed_command(goal.path, [f"{first},{last}d" for first, last, _, _ in shown])
    for number, (first, last, what, inside) in enumerate(shown):
        more = f" and the {len(shown) - 1} more below" if len(shown) > 1 else ""
        yield Finding(
            severity=Severity.ERROR,
            line=first,
            column=1,
            code="entry-outside-ledger",
            message=f"{what}, but GitHub shows it as "
            + ("the newest entry" if inside else "an entry, the last of the file below the ledger")
            + ("" if number == 0 else f"; the fix of line {shown[0][0]} deletes it too"),
            # one `fix:` line, on the first: the others' would repeat it
            hint=f"{fix} deletes it (lines {first}-{last}){more}; an entry goalfile wrote "
            "belongs under `## Iterations`"
            if number == 0
            else None,
        )


def _may_show(text: str, start: int, end: int, *, status: bool) -> bool:
    """Whether ``text[start:end]`` may hold a line :func:`outside_findings` reports: one
    holding `teration` (or, with ``status``, `tatus`) in any case, as its patterns read it (a
    heading typed `IteRation 1 (DATE)` shows as an entry all the same)."""
    words = ("teration", "TERATION", *(("tatus", "TATUS") if status else ()))
    if any(text.find(word, start, end) >= 0 for word in words):
        return True
    span = text[start:end].lower()
    return "teration" in span or (status and "tatus" in span)


def _block_end(text: str, offset: int, end: int, fences: tuple[tuple[int, int], ...]) -> int:
    """The 1-based line before the next heading line after the line at ``offset`` (outside
    fenced blocks; `#` after at most three blanks) up to ``end``, or the last line before
    ``end``."""
    from goalfile import ledger

    at = text.find("\n", offset, end)
    while at >= 0:
        nxt = at + 1
        stop = text.find("\n", nxt, end)
        line = text[nxt : end if stop < 0 else stop]
        blanks = len(line) - len(line.lstrip(" "))
        if line[blanks : blanks + 1] == "#" and blanks <= 3 and not ledger.in_spans(fences, nxt):
            return text.count("\n", 0, nxt)
        at = stop
    return text[:end].rstrip("\n").count("\n") + 1
