"""Text in, :class:`~goalfile.model.Goal` out.

The reader never hands the ``## Iterations`` ledger to the Markdown parser: the ledger's span is
found with two regular-expression searches and skipped, so a goal with thousands of entries reads
about as fast as a new one. Problems that still leave a usable goal are collected as findings
(``Goal.problems``); a file that cannot be read as a goal at all raises
:class:`~goalfile.errors.GoalFileInvalid` with file, line and column.
"""

from __future__ import annotations

import bisect
import datetime as _dt
import functools
import math
import re
from array import array
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, overload

from goalfile import ledger
from goalfile.errors import GoalFileInvalid
from goalfile.model import (
    BUDGET_LIMIT_MAX,
    Budget,
    Cells,
    Criterion,
    Finding,
    Goal,
    Kind,
    LaterLines,
    Section,
    Severity,
    Status,
)
from goalfile.prose import code_text, span_text
from goalfile.settings import cwd_problem, known_shell, shell_problem
from goalfile.words import noun

if TYPE_CHECKING:
    from markdown_it.token import Token

REQUIRED_COLUMNS = ("id", "criterion", "check", "expected")
READ_COLUMNS = (*REQUIRED_COLUMNS, "kind", "timeout")
"""The criteria columns goalfile reads; each may be named once (any other column is kept)."""
CRITERIA_KEYS = ("acceptance criteria", "criteria")
KNOWN_KEYS = frozenset(
    {
        "slug",
        "status",
        "created",
        "budget",
        "iterations_used",
        "tokens_used",
        "timeout",
        "cwd",
        "shell",
        "contract",
        "blocker",
        "stall_limit",
        "impossible",
    }
)
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_ITERATIONS_RE = re.compile(r"(?mi)^##[ \t]+iterations[ \t#]*\r*$")
_FM_CLOSE_RE = re.compile(r"(?m)^(?:---|\.\.\.)[ \t]*\r*$")
_TOP_KEY_RE = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:")
_NESTED_KEY_RE = re.compile(r"^[ \t]+([A-Za-z_][\w-]*)[ \t]*:")
_FORMAT_SAID = (
    "write at its top a line `---`, YAML keys (slug, status, created, budget, "
    "iterations_used, tokens_used), and a closing `---`; see docs/format.md"
)


def section_key(title: str) -> str:
    """Normalise a heading for case-insensitive matching."""
    return " ".join(title.replace("`", "").split()).lower()


def parse_goal(text: str, *, path: str) -> Goal:
    """Read a goal file's text. Raises GoalFileInvalid when it is not a goal file at all."""
    if text.startswith("\ufeff"):
        text = text[1:]
    conflict = conflict_markers(text)
    if conflict:
        raise conflict_error(conflict, path=path)
    bounds = ledger_bounds(text)
    lines = _lines(text, bounds)
    newline = "\r\n" if lines[0].endswith("\r") else "\n"
    if lines[0].rstrip("\r").rstrip() != "---":
        from goalfile.frontmatterloss import formatted_frontmatter

        message, hint = formatted_frontmatter(text, path) or (
            f"the file does not start with YAML frontmatter: {_FORMAT_SAID}",
            None,
        )
        raise GoalFileInvalid(message, file=path, line=1, column=1, hint=hint)
    close = _frontmatter_close(lines)
    if close is None:
        closing = _close_frontmatter(lines, path)
        raise GoalFileInvalid(
            "the frontmatter is never closed"
            + ("" if closing else ": write a line `---` under its last key, where it ends"),
            file=path,
            line=1,
            column=1,
            hint=closing,
        )
    fm_lines = [line.rstrip("\r") for line in lines[1:close]]
    meta = _load_yaml("\n".join(fm_lines), path=path)
    key_lines = tuple(_key_lines(fm_lines))
    problems: list[Finding] = []
    fields = _typed_fields(meta, dict(key_lines), problems, fm_lines, path=path)

    # lone carriage returns outside the ledger, by line: (line, how many)
    lone = [(at + 2, line.count("\r")) for at, line in enumerate(fm_lines) if "\r" in line]
    body = _read_body(text, lines, close, bounds, path=path, problems=problems, lone=lone)
    if lone:
        problems.append(_lone_cr_finding(lines, lone, path=path))
    return Goal(
        path=path,
        text=text,
        meta=meta,
        frontmatter_end=close + 1,
        key_lines=key_lines,
        newline=newline,
        end_state=body.end_state,
        non_goals=body.non_goals,
        source_non_goals=body.source_non_goals,
        criteria=body.criteria,
        sections=body.sections,
        problems=tuple(problems),
        link_labels=body.link_labels,
        **fields,
    )


def _lone_cr_finding(
    lines: Sequence[str], lone: Sequence[tuple[int, int]], *, path: str
) -> Finding:
    """The error of the lone carriage returns outside the ledger (``lone``: the lines holding
    some, and how many), on the first one's line and column."""
    from goalfile.shellword import shell_word  # here: only a hint needs it

    line = min(number for number, _ in lone)
    found = _LONE_CR.search(lines[line - 1]) if 0 < line <= len(lines) else None
    column = found.start() + 1 if found is not None else None
    count = sum(count for _, count in lone)
    more = f" (and {count - 1} more)" if count > 1 else ""
    return Finding(
        severity=Severity.ERROR,
        line=line,
        column=column,
        code="lone-cr",
        message=f"a carriage return that ends no line (a lone CR){more}: Markdown (CommonMark, "
        "and so GitHub and every editor's preview) ends a line at it, goalfile ends lines at "
        "`\\n` only, so the two could read different rows, headings or cells",
        hint=f"`goalfile lint --fix {shell_word(path)}` writes each lone carriage return as the "
        "line break Markdown reads it as",
    )


# The lines git writes around a conflict it could not merge (`merge`, `rebase`, `cherry-pick`,
# `stash pop`; `|||||||` opens the base's side with `merge.conflictStyle=diff3`), at the margin.
_CONFLICT = r"(?m)^(?:<{7}|\|{7}|>{7})(?:[ \t][^\n]*)?$|^={7}[ \t\r]*$"


def conflict_markers(text: str) -> tuple[tuple[int, str], ...]:
    """The line numbers and texts of the markers of an unresolved merge conflict: a `<<<<<<<`
    line, a `=======` line after it and a `>>>>>>>` line after that (each at the margin, as git
    writes them), or () when the text holds no such three. A lone `=======` is a heading's
    underline and a lone `>>>>>>>` a quote; only the three in order are a conflict. Every
    marker line of the text is returned, in fenced blocks too: git puts its markers wherever
    the two sides differ, a line of check output included."""
    if "<" not in text or "<<<<<<<" not in text:  # one character is found at memchr's
        return ()  # speed, 15 times faster than seven: a ledger without `<` costs 0.1 ms
    found = [(m.start(), m.group().rstrip("\r")) for m in re.finditer(_CONFLICT, text)]
    step = 0  # 0: looking for `<<<<<<<`, 1: for `=======`, 2: for `>>>>>>>`
    for _, line in found:
        kind = line[0]
        if (step, kind) in ((0, "<"), (1, "="), (2, ">")):
            step += 1
            if step == 3:
                break
    if step < 3:
        return ()
    return tuple((text.count("\n", 0, start) + 1, line) for start, line in found)


def holds(text: str, part: str) -> bool:
    """``part in text``, for a ``part`` of a few characters that a long text seldom holds:
    the first character is looked for first (one character is found at ``memchr``'s speed)
    and the part then from the end, which the interpreter searches about three times faster
    than ``in`` (a 4 MB ledger without `]:`: 3.5 ms for ``in``, 1.2 ms backwards, 0.05 ms
    when it holds no `]`)."""
    return part[0] in text and text.rfind(part) >= 0


def conflict_error(markers: Sequence[tuple[int, str]], *, path: str) -> GoalFileInvalid:
    """The refusal of a goal file that holds the conflict :func:`conflict_markers` found, naming
    it as ``path`` (as the reader's shell reaches it: the fix's commands name it so), with the
    fix that keeps both sides' entries."""
    from goalfile.shellword import shell_word, show_command

    where = ", ".join(f"{number} `{line.strip()}`" for number, line in markers[:6])
    more = f" and {len(markers) - 6} more" if len(markers) > 6 else ""
    word = shell_word(path)
    theirs = show_command(":3", path)
    return GoalFileInvalid(
        "the file holds an unresolved merge conflict (git's marker lines "
        f"{where}{more}): goalfile reads none of it as criteria, entries or status until the "
        "conflict is resolved",
        file=path,
        line=markers[0][0],
        column=1,
        hint=(
            "while git still has the conflict (after a `git add` of the file, `git checkout -m "
            f"-- {word}` gives it back), take your side whole: `git checkout --ours -- {word}`; "
            f"then copy the entries only the other side has (`{theirs}` "
            "shows its file) to the end of `## Iterations`, set `status: active` (neither "
            f"side judged the merged work) and run `goalfile verify {word}` (see "
            "docs/lifecycle.md, Merging a goal file)"
        ),
    )


def _lines(text: str, bounds: tuple[int, int, int] | None) -> _Lines | _TextLines:
    """The lines of the text, with the ledger's lines left empty: they are never read here,
    and splitting them would make reading cost grow with the ledger. The other lines are made
    when asked for, from an index of where each starts, so a big criteria table is not held
    once as text and once more as a list of lines."""
    if bounds is None:
        return _TextLines(text, len(text), last=True)
    start, _, end = bounds
    return _Lines(_TextLines(text, start), _LedgerCount(text, start, end), text[end:].split("\n"))


class _LedgerCount:
    """The newlines of the ledger ``text[start:end]``, counted when first asked for: only a
    line number after the ledger needs them, and a long ledger's count is a pass over it."""

    __slots__ = ("_count", "_end", "_start", "_text")

    def __init__(self, text: str, start: int, end: int) -> None:
        self._text, self._start, self._end = text, start, end
        self._count: int | None = None

    def __call__(self) -> int:
        if self._count is None:
            self._count = _newlines(self._text, self._start, self._end)
        return self._count


_NEWLINES: list[tuple[str, int, int, int]] = []  # (text, start, end, count), the last two


def _newlines(text: str, start: int, end: int) -> int:
    """``text.count("\\n", start, end)`` for the ledger's span, kept for the last two texts.
    A text the last edits made (:func:`ledger.spliced`) from one whose count is kept is
    counted in the characters the edits wrote and replaced only: an entry appended to a long
    ledger, read back before it is written, would otherwise be counted whole."""
    count = _edited_newlines(text, start, end, 3)
    if count is None:
        count = text.count("\n", start, end)
    _NEWLINES.append((text, start, end, count))
    del _NEWLINES[:-2]
    return count


def _edited_newlines(text: str, start: int, end: int, depth: int) -> int | None:
    """The newlines of ``text[start:end]`` from the count kept for it, or for the text an
    edit made it from (that text's own edit followed back, ``depth`` edits at most); None
    when neither is kept."""
    for seen, seen_start, seen_end, count in _NEWLINES:
        if seen is text and seen_start == start and seen_end == end:
            return count
    splice = ledger.splice_of(text) if depth > 0 else None
    if splice is None:
        return None
    old, kept, tail = splice  # text is old[:kept] + what the edit wrote + old[-tail:]
    shift = len(text) - len(old)
    cut, old_cut = len(text) - tail, len(old) - tail
    if end <= kept:  # the edit is after the span
        return _edited_newlines(old, start, end, depth - 1)
    if cut <= start:  # before it: the span moved
        return _edited_newlines(old, start - shift, end - shift, depth - 1)
    if start <= kept and cut <= end:  # inside it
        before = _edited_newlines(old, start, end - shift, depth - 1)
        if before is not None:
            return before - old.count("\n", kept, old_cut) + text.count("\n", kept, cut)
    return None


class _TextLines(Sequence[str]):
    """The lines of ``text[:end]`` as ``str.split("\\n")`` gives them, made on demand. With
    ``last`` the piece after the last newline is a line too (``end`` is then the end of the
    text); without it, ``text[:end]`` ends with a newline and nothing follows."""

    def __init__(self, text: str, end: int, *, last: bool = False) -> None:
        self._text = text
        self._end = end
        starts = array("q", [0])
        find = text.find
        at = find("\n", 0, end)
        while at >= 0:
            starts.append(at + 1)
            at = find("\n", at + 1, end)
        self._starts = starts
        self._len = len(starts) if last else len(starts) - 1

    def __len__(self) -> int:
        return self._len

    def _line_end(self, at: int) -> int:
        return self._starts[at + 1] - 1 if at + 1 < len(self._starts) else self._end

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(self._len))]
        at = index + self._len if index < 0 else index
        if not 0 <= at < self._len:
            raise IndexError(index)
        return self._text[self._starts[at] : self._line_end(at)]

    def joined(self, first: int, stop: int) -> str:
        """``"\\n".join(self[first:stop])`` for ``0 <= first`` and ``stop <= len(self)``, cut
        from the text in one piece."""
        if stop <= first:
            return ""
        return self._text[self._starts[first] : self._line_end(stop - 1)]


class _Lines(Sequence[str]):
    """Lines before the ledger, as many empty lines as the ledger has, and the lines after it,
    without a list entry for each ledger line."""

    def __init__(self, before: _TextLines, skipped: _LedgerCount, after: list[str]) -> None:
        self._before = before
        self._after = after
        self.skipped = skipped  # the ledger's line count, counted when a line after it is read

    @property
    def _skip_end(self) -> int:
        """The index of the first line after the ledger."""
        return len(self._before) + self.skipped()

    @property
    def _len(self) -> int:
        return self._skip_end + len(self._after)

    def __len__(self) -> int:
        return self._len

    def before_ledger(self) -> int:
        """How many lines come before the ledger (its heading is the next)."""
        return len(self._before)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            before = len(self._before)
            if index.step is None and (index.start or 0) >= 0 and 0 <= (index.stop or -1) <= before:
                return self._before[index]  # (the ledger's lines are not counted for these)
            first, stop, step = index.indices(self._len)
            if step != 1:
                return [self[at] for at in range(first, stop, step)]
            if stop <= first:
                return []
            blank = max(0, min(stop, self._skip_end) - max(first, len(self._before)))
            return [
                *self._before[first:stop],
                *([""] * blank),
                *self._after[max(first - self._skip_end, 0) : max(stop - self._skip_end, 0)],
            ]
        at = index + self._len if index < 0 else index
        if 0 <= at < len(self._before):  # (the ledger's lines are not counted for these)
            return self._before[at]
        if not 0 <= at < self._len:
            raise IndexError(index)
        if at < self._skip_end:
            return ""
        return self._after[at - self._skip_end]

    def joined(self, first: int, stop: int) -> str:
        """``"\\n".join(self[first:stop])``; lines before the ledger are cut from the text."""
        if first >= 0 and stop <= len(self._before):
            return self._before.joined(first, stop)
        return "\n".join(self[first:stop])


def frontmatter_meta(text: str) -> dict[str, object] | None:
    """The frontmatter's keys as :func:`parse_goal` reads them (YAML's own reading: the last of
    a key written twice, its quoting, its comments, a value folded over lines), without
    reading the body; None when the text opens no frontmatter, never closes it, or it is not
    valid YAML."""
    text = text.removeprefix("\ufeff")
    start = text.find("\n") + 1
    if start == 0 or text[:start].rstrip() != "---":
        return None
    lines: list[str] = []
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].rstrip("\r")
        if line.rstrip() in ("---", "..."):
            try:
                return _load_yaml("\n".join(lines), path="")
            except GoalFileInvalid:
                return None
        lines.append(line)
        start = end + 1
    return None


def _frontmatter_close(lines: Sequence[str]) -> int | None:
    # the lines before a ledger first: the ledger's lines are counted only when it is not there
    before = lines.before_ledger() if isinstance(lines, _Lines) else len(lines)
    index = 1
    while index < before or index < len(lines):
        if lines[index].rstrip("\r").rstrip() in ("---", "..."):
            return index
        index += 1
    return None


_VALUE_PROBLEM = "the value"
_VALUE_SAID = (
    "write dates as YYYY-MM-DD with a real month and day, and numbers of at most a few "
    "thousand digits"
)

_KINDS = {"!!timestamp": "date", "!!int": "whole number", "!!float": "number", "!!bool": "boolean"}

_OBJECT_TAGS = ("binary", "set", "omap", "pairs")
"""Tags YAML's safe loader still builds into objects (bytes, sets, lists of pairs): a goal's
frontmatter holds text, numbers, dates, lists and mappings only."""


@functools.cache
def _plain_loader() -> type:
    """frontmatter's safe YAML loader, refusing every tag that builds an object."""
    import yaml
    from frontmatter.default_handlers import SafeLoader

    def refuse(loader: yaml.BaseLoader, node: yaml.Node) -> object:
        raise yaml.constructor.ConstructorError(
            None,
            None,
            f"the YAML tag {node.tag.replace('tag:yaml.org,2002:', '!!')} builds an object; "
            "tags are not allowed here",
            node.start_mark,
        )

    class PlainLoader(SafeLoader):  # type: ignore[valid-type,misc]
        def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> object:
            # YAML reads a key given twice from its last line; goalfile's line edits change
            # its first (`status: active` on line 3, `status: met` on line 4 was read as met,
            # and the fix printed rewrote line 3): a key is given once
            seen: dict[object, int] = {}
            for key, _ in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag == "tag:yaml.org,2002:merge":
                    raise yaml.constructor.ConstructorError(
                        None,
                        None,
                        "a merge key `<<` brings in keys that are not on lines of their own "
                        "(such as `status: met` from an anchored mapping), which no line edit "
                        "reaches",
                        key.start_mark,
                    )
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        raise yaml.constructor.ConstructorError(
                            None,
                            None,
                            f"the key `{key.value}` is given twice (lines {seen[key.value]} "
                            f"and {key.start_mark.line + 2}); YAML reads the last, and "
                            "goalfile's edits change the first",
                            key.start_mark,
                        )
                    seen[key.value] = key.start_mark.line + 2
            return super().construct_mapping(node, deep)

        def construct_object(self, node: yaml.Node, deep: bool = False) -> object:
            try:
                return super().construct_object(node, deep)
            except (AttributeError, IndexError, KeyError, TypeError, ValueError):  # !!bool x
                tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
                kind = _KINDS.get(tag, tag)
                value = node.value if isinstance(node.value, str) else "this value"
                raise yaml.constructor.ConstructorError(
                    None, None, f"{_VALUE_PROBLEM} `{value}` is not a valid {kind}", node.start_mark
                ) from None

    for name in _OBJECT_TAGS:
        PlainLoader.add_constructor(f"tag:yaml.org,2002:{name}", refuse)
    PlainLoader.add_constructor(None, refuse)  # any tag YAML does not know, !!python/... too
    return PlainLoader


_UNIT_SECONDS = {"s": 1, "sec": 1, "secs": 1, "m": 60, "min": 60, "mins": 60, "h": 3600}


def _timeout_hint(value: object) -> str:
    """The fix for a frontmatter ``timeout`` that is not a number: a value with a unit of time
    (`2m`, `90s`, the way a row's timeout cell may end in `s`) is written in seconds."""
    found = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([a-z]+)\s*", str(value).lower())
    if found is not None and found.group(2) in _UNIT_SECONDS:
        seconds = float(found.group(1)) * _UNIT_SECONDS[found.group(2)]
        if seconds > 0:
            shown = f"{seconds:g}" if seconds != int(seconds) else str(int(seconds))
            return f"write `timeout: {shown}` (seconds, without a unit)"
    return "write e.g. `timeout: 600`"


def _load_yaml(source: str, *, path: str) -> dict[str, object]:
    import yaml
    from frontmatter.default_handlers import YAMLHandler

    try:
        loaded = YAMLHandler().load(source, Loader=_plain_loader()) if source.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 2
        column = mark.column + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or "invalid YAML"
        hint: str | None = None
        text = _line_at(source, mark.line) if mark is not None else ""
        if "tags are not allowed" in problem:
            hint = _untag_command(text, line, path)
            if hint is None:
                problem = f"{problem}; write the value as plain text, a number or a date"
        elif "merge key" in problem:
            problem = (
                f"{problem}; write each key the merge brings in on a line of its own, and "
                "delete the `<<:` line"
            )
        elif "is given twice" in problem:
            hint = _delete_first_of_two(problem, source, path)
        elif problem.startswith(_VALUE_PROBLEM):
            problem = f"{problem}; {_VALUE_SAID}"
        elif mark is not None and "\t" in text[: mark.column + 1]:
            problem = f"{problem} (a tab: YAML indents with spaces only)"
            hint = _untab_command(text, line, path)
            if hint is None:
                problem = f"{problem}; write spaces for the tab"
        elif mark is not None and "{{" in text:  # templates/goal.md
            problem = f"{problem} (a template placeholder `{{{{...}}}}`: a value not yet written)"
            hint = (
                "write the value in place of each `{{...}}` of the file, or have `goalfile new "
                'SLUG "END STATE"` write the goal file'
            )
        else:
            problem = (
                f"{problem}; write the line as YAML (`key: value`, two-space indents under budget)"
            )
        raise GoalFileInvalid(
            f"the frontmatter is not valid YAML: {problem}",
            file=path,
            line=line,
            column=column,
            hint=hint,
        ) from None
    except ValueError as exc:  # a value YAML recognises but cannot build, e.g. 2026-13-45
        raise GoalFileInvalid(
            f"the frontmatter holds a value YAML cannot read: {exc}; {_VALUE_SAID}",
            file=path,
            line=_suspect_line(source),
        ) from None
    if not isinstance(loaded, dict):
        raise GoalFileInvalid(
            f"the frontmatter must be a mapping of keys to values: {_FORMAT_SAID}",
            file=path,
            line=2,
            column=1,
        )
    return {str(key): value for key, value in loaded.items()}


def _close_frontmatter(lines: Sequence[str], path: str) -> str | None:
    """The command that writes the `---` that closes the frontmatter, above the goal's `# `
    heading (and the blank lines before it); None with no path, or no heading to put it
    above (what is frontmatter then, only a person knows)."""
    from goalfile.shellword import sed_command

    heading = next((n for n, line in enumerate(lines) if n and line.startswith("# ")), None)
    if not path or heading is None:
        return None
    at = heading
    while at > 1 and not lines[at - 1].strip():
        at -= 1
    insert = sed_command(path, [f"{at + 1}i" + "\\", "---"])
    return f"{insert} closes it above line {at + 1}"


def _delete_first_of_two(problem: str, source: str, path: str) -> str | None:
    """The fix of a frontmatter key given twice: delete its first line, and the lines under
    it, which YAML does not read (it takes the last), so the goal keeps what it means."""
    from goalfile.shellword import sed_command, sed_lines

    found = re.search(r"lines (\d+) and \d+", problem)
    if found is None:
        return None
    first = int(found.group(1))
    last = _block_end(source.split("\n"), first)  # source: the frontmatter from file line 2
    if last is None:
        return None
    what = f"line {first}" if last == first else f"lines {first}-{last}"
    delete = sed_command(path, [sed_lines(first, last) + "d"])
    return f"{delete} deletes {what}: the value YAML reads stays"


_TAGGED = re.compile(r"[ ]*[A-Za-z_][A-Za-z0-9_-]*:[ ]+![^\s]*[ ]+[^\s#]")
"""A frontmatter line whose value starts with a tag: ``status: !foo active``."""


def _untag_command(text: str, line: int, path: str) -> str | None:
    """The command that deletes the tag from the value of the frontmatter line ``line``
    (``text``), keeping the value as plain text; None when the line is not ``key: !tag value``."""
    from goalfile.shellword import sed_command

    if not _TAGGED.match(text):
        return None
    return sed_command(path, [f"{line}s/:\\( *\\)![^ ]* */:\\1/"])


_INDENTED = re.compile(r"[ \t]*\t[ \t]*(?P<key>[A-Za-z_][A-Za-z0-9_-]*):")
"""A frontmatter key indented with a tab."""


def _untab_command(text: str, line: int, path: str) -> str | None:
    """The command that indents the key of the frontmatter line ``line`` (``text``) with
    spaces: two for a key under ``budget:``, none for a top-level key; None when the tab is
    not in the line's indent."""
    from goalfile.shellword import sed_command

    found = _INDENTED.match(text)
    if found is None:
        return None
    indent = "  " if found.group("key") in ("iterations", "tokens") else ""
    return sed_command(path, [f"{line}s/^[[:blank:]]*/{indent}/"])


def _line_at(source: str, index: int) -> str:
    lines = source.split("\n")
    return lines[index] if 0 <= index < len(lines) else ""


def _suspect_line(source: str) -> int:
    """The file line of the first frontmatter value that looks like a date or a long number:
    what YAML recognises but may fail to build."""
    for offset, line in enumerate(source.split("\n")):
        if re.search(r":\s*(\d{4}-\d\d?-\d\d?\b|\d{100,})", line):
            return offset + 2
    return 2


def _key_lines(fm_lines: Sequence[str]) -> Iterator[tuple[str, int]]:
    parent: str | None = None
    for offset, line in enumerate(fm_lines):
        number = offset + 2
        top = _TOP_KEY_RE.match(line)
        if top:
            parent = top.group(1)
            yield parent, number
            continue
        nested = _NESTED_KEY_RE.match(line)
        if nested and parent is not None:
            yield f"{parent}.{nested.group(1)}", number


def _meant_key(name: object, known: Sequence[str], given: Mapping[str, object]) -> str | None:
    """The fix for an unknown key that is a known one misspelled and not given otherwise
    (`stauts`, `iteration`): rename it; else None."""
    import difflib

    if not isinstance(name, str):
        return None
    missing = [key for key in known if key not in given]
    close = difflib.get_close_matches(name.lower(), missing, n=1, cutoff=0.75)
    if not close:
        return None
    return f"did you mean `{close[0]}`? rename `{name}:` to `{close[0]}:`; as written it is ignored"


def _typed_fields(
    meta: Mapping[str, object],
    lines: Mapping[str, int],
    problems: list[Finding],
    fm_lines: Sequence[str] = (),
    *,
    path: str = "",
) -> dict[str, Any]:
    def err(key: str, message: str, hint: str | None) -> None:
        line = lines.get(key, 1)
        problems.append(
            Finding(
                severity=Severity.ERROR,
                message=message,
                line=line,
                column=_value_column(fm_lines, line),
                hint=hint,
                code="frontmatter",
            )
        )

    def set_to(key: str, value: str) -> str | None:
        """The command that sets the line of ``key`` to ``value``."""
        from goalfile.handedit import set_key_command

        line = lines.get(key)
        return set_key_command(path, line, key.rpartition(".")[2], value) if path and line else None

    def delete(key: str) -> str | None:
        """The command that deletes the line of ``key``, one line: its default then applies."""
        from goalfile.shellword import sed_command

        line = lines.get(key)
        if not path or line is None or not _one_line(fm_lines, line):
            return None
        return f"{sed_command(path, [f'{line}d'])} deletes it, so that its default applies"

    def warn(message: str, line: int | None, hint: str | None = None, code: str = "") -> None:
        problems.append(
            Finding(severity=Severity.WARNING, message=message, line=line, hint=hint, code=code)
        )

    slug = meta.get("slug")
    if not isinstance(slug, str) or not SLUG_RE.match(slug):
        err(
            "slug",
            "no `slug` key"
            if slug is None
            else f"slug {slug!r} is missing or not lowercase letters, digits and '-' (write e.g. "
            "`slug: auth-refresh`)",
            None,
        )
        slug = str(slug) if slug is not None else ""

    raw_status = meta.get("status")
    try:
        status = Status(str(raw_status))
    except ValueError:
        statuses = ", ".join(s.value for s in Status)
        meant = str(raw_status).strip().lower()
        err(
            "status",
            f"no `status` key (one of {statuses})"
            if raw_status is None
            else f"status {raw_status!r} is not one of {statuses}",
            set_to("status", meant) if meant in Status._value2member_map_ else None,
        )
        status = Status.DRAFT

    created = meta.get("created")
    if created is None:
        warn("no `created` date (`created: YYYY-MM-DD`)", 1, None, "frontmatter")
    elif not isinstance(created, _dt.date) and not (
        isinstance(created, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", created)
    ):
        err("created", f"created {created!r} is not a date (`created: YYYY-MM-DD`)", None)

    budget = Budget()
    raw_budget = meta.get("budget")
    if raw_budget is None:
        warn(
            "no `budget`: unbounded (`budget:` with `iterations:` and `tokens:` sets one)",
            1,
            None,
            "frontmatter",
        )
    elif not isinstance(raw_budget, dict):
        err(
            "budget",
            "budget must be a mapping with `iterations` and `tokens`: `budget:` then "
            "`  iterations: 5` and `  tokens: null` on their own lines",
            None,
        )
    else:
        limits: dict[str, int | None] = {}
        for name in ("iterations", "tokens"):
            value = raw_budget.get(name)
            if value is None or _positive_int(value):
                limits[name] = value
            else:
                err(
                    f"budget.{name}",
                    f"budget.{name} {value!r} is not a positive integer or null; the fix "
                    "makes it null (unbounded)",
                    set_to(f"budget.{name}", "null"),
                )
                limits[name] = None
        for name in raw_budget:
            if name not in ("iterations", "tokens"):
                where = lines.get(f"budget.{name}", lines.get("budget"))
                warn(
                    f"unknown budget key `{name}` is kept but unused",
                    where,
                    _meant_key(name, ("iterations", "tokens"), raw_budget),
                    code="unknown-key",
                )
        budget = Budget(iterations=limits["iterations"], tokens=limits["tokens"])

    counters: dict[str, int] = {}
    # `tokens_used: null` is the skill family's "not measured": 0 so far, and a finite token
    # budget then blocks (DESIGN §5)
    tokens_measured = not ("tokens_used" in meta and meta["tokens_used"] is None)
    for name in ("iterations_used", "tokens_used"):
        value = meta.get(name, 0)
        if name == "tokens_used" and not tokens_measured:
            counters[name] = 0
        elif isinstance(value, int) and not isinstance(value, bool) and value > BUDGET_LIMIT_MAX:
            err(
                name,
                f"{name} {value} is more than a ledger entry can record "
                f"(at most {BUDGET_LIMIT_MAX}, 18 digits)",
                set_to(name, "0"),
            )
            counters[name] = 0
        elif isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            counters[name] = value
        else:
            null = " or `null` (not measured)" if name == "tokens_used" else ""
            err(
                name,
                f"{name} {value!r} is not a whole number >= 0{null}",
                set_to(name, "0"),
            )
            counters[name] = 0

    timeout = _number(meta.get("timeout"))
    if meta.get("timeout") is not None and timeout is None:
        err(
            "timeout",
            f"timeout {meta.get('timeout')!r} is not a positive number of seconds",
            _timeout_hint(meta.get("timeout")),
        )

    shell = meta.get("shell", "/bin/sh")
    if not isinstance(shell, str) or not shell.strip():
        err(
            "shell",
            f"shell {shell!r} is not a program path; /bin/sh runs the checks",
            delete("shell"),
        )
        shell = "/bin/sh"
    elif (why := path_problem(shell) or shell_problem(shell)) is not None:
        err(
            "shell",
            f"shell {shell!r} {why}",
            _shell_hint(shell),
        )
        shell = "/bin/sh"
    cwd = meta.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        err("cwd", f"cwd {cwd!r} is not a path; the checks run at the git top level", delete("cwd"))
        cwd = None
    elif cwd is not None and (why := path_problem(cwd) or cwd_problem(cwd)) is not None:
        err(
            "cwd",
            f"cwd {cwd!r} {why}; the checks run at the git top level (or write a folder relative "
            "to the goal file, such as `cwd: ..`)",
            delete("cwd"),
        )
        cwd = None
    stall = meta.get("stall_limit")
    if stall is not None and not _positive_int(stall):
        err(
            "stall_limit",
            f"stall_limit {stall!r} is not a positive integer",
            delete("stall_limit"),
        )
    problems.extend(_duplicate_keys(meta, fm_lines, path=path))
    for key in meta:
        if key not in KNOWN_KEYS:
            warn(
                f"unknown frontmatter key `{key}` is kept but unused",
                lines.get(key),
                _meant_key(key, sorted(KNOWN_KEYS), meta),
                code="unknown-key",
            )
    return {
        "slug": slug,
        "status": status,
        "budget": budget,
        "iterations_used": counters["iterations_used"],
        "tokens_used": counters["tokens_used"],
        "tokens_measured": tokens_measured,
        "timeout": timeout,
        "shell": shell,
        "cwd": cwd,
    }


def _shell_hint(shell: str) -> str:
    """How to write the `shell:` line: a word of the value that is a shell by itself
    (`" /bin/sh"` → `/bin/sh`, `/bin/bash -e` → `/bin/bash`), else the shell a word names
    (`/usr/bin/env bash` → `/bin/bash`), else an example; or no line at all (`/bin/sh`). Words
    are never joined: `/usr/bin/envbash` is no program."""
    words = shell.split()
    cleaned = next((w for w in words if not path_problem(w) and not shell_problem(w)), None)
    if cleaned is None:
        named = next((w.rsplit("/", 1)[-1] for w in words if known_shell(w)), None)
        cleaned = f"/bin/{named}" if named is not None and not path_problem(named) else "/bin/bash"
        if shell_problem(cleaned):  # a name such as `bash/` or one with a non-ASCII letter
            cleaned = "/bin/bash"
    return f"write `shell: {cleaned}` (an absolute path, no spaces), or delete the line (`/bin/sh`)"


def path_problem(value: str) -> str | None:
    """Why ``value`` cannot name a file or folder, or None: a NUL (no system call takes it) or
    another control character (a newline, an escape: no folder a person types, and text that
    rewrites a terminal or a log line). Such a `cwd` or `shell` would make every command that
    looks at the goal fail outside the rules that name file and line. (YAML itself refuses a
    lone surrogate, the one other string no file name encodes.)"""
    bad = next((c for c in value if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0), None)
    if bad is not None:
        return f"holds the control character U+{ord(bad):04X}, which no path holds"
    return None


def _block_end(fm_lines: Sequence[str], line: int) -> int | None:
    """The last file line of the frontmatter key on file line ``line``: the key's own line, or
    the last line indented under it (blank lines between them included)."""
    if not 0 <= line - 2 < len(fm_lines):
        return None
    own = fm_lines[line - 2]  # the frontmatter starts on file line 2
    indent = len(own) - len(own.lstrip())
    last = line
    for number in range(line + 1, len(fm_lines) + 2):
        text = fm_lines[number - 2]
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        if text.strip():
            last = number
    return last


def _one_line(fm_lines: Sequence[str], line: int) -> bool:
    """Whether the frontmatter key on file line ``line`` is all on that line."""
    return _block_end(fm_lines, line) == line


def _duplicate_keys(
    meta: Mapping[str, object], fm_lines: Sequence[str], *, path: str = ""
) -> Iterator[Finding]:
    """Keys written twice: YAML reads the last one, and edits change that one. The fix deletes
    the line that does not count, so the goal means what it meant."""
    from goalfile.shellword import sed_command

    first: dict[str, int] = {}
    for key, line in _key_lines(fm_lines):
        parent, _, child = key.partition(".")
        value = meta.get(parent)
        if child and not (isinstance(value, dict) and child in value):
            continue  # not a nested mapping key (e.g. a line of a block scalar)
        if key in first:
            yield Finding(
                severity=Severity.WARNING,
                message=f"`{key}` is written twice (first on line {first[key]}); "
                "the last one counts",
                line=line,
                hint=f"{sed_command(path, [f'{first[key]}d'])} deletes line {first[key]}, "
                "which does not count"
                if path and _one_line(fm_lines, first[key])
                else None,  # a key with lines under it: which to keep, only a person knows
                code="duplicate-key",
            )
        else:
            first[key] = line


def _value_column(fm_lines: Sequence[str], line: int) -> int:
    """1-based column of the value on a frontmatter line (1 when the line holds no value)."""
    if not 2 <= line < len(fm_lines) + 2:
        return 1
    match = re.match(r"^[ \t]*[^:]*:[ \t]*", fm_lines[line - 2])
    text = fm_lines[line - 2]
    return match.end() + 1 if match is not None and match.end() < len(text) else 1


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _number(value: object) -> float | None:
    """A positive, finite number of seconds, or None (``.nan`` and ``.inf`` are not times)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    seconds = float(value)
    return seconds if math.isfinite(seconds) else None


class _Body:
    def __init__(self) -> None:
        self.end_state = ""
        self.non_goals: tuple[str, ...] = ()
        self.source_non_goals: tuple[str, ...] = ()
        self.criteria: tuple[Criterion, ...] = ()
        self.sections: tuple[Section, ...] = ()
        self.link_labels: frozenset[str] = frozenset()


# each run of `\r` that ends a line, from its first: a search that tried each `\r` of a long
# run that ends none would scan the rest of the run from each (quadratic)
_CR_AT_LINE_END = re.compile(r"(?<!\r)\r++(?=\n|\Z)")


def _read_body(
    text: str,
    lines: _Lines | _TextLines,
    close: int,
    bounds: tuple[int, int, int] | None,
    *,
    path: str,
    problems: list[Finding],
    lone: list[tuple[int, int]],
) -> _Body:
    """Parse everything after the frontmatter except the ledger under ``## Iterations``; the
    lines that hold a lone carriage return are added to ``lone`` (the first of each piece,
    with the piece's count)."""
    pieces: list[tuple[int, int]] = []  # 0-based [start, end) line ranges handed to markdown-it
    sections: list[tuple[str, int]] = []  # (title, 1-based heading line)
    # the lines after a ledger are numbered as if the ledger were its heading line alone, and
    # renumbered (``real``) where a number leaves this function: a section's through ``later``,
    # which counts the ledger's lines only when one is read
    later: LaterLines | None = None
    real = _same_line
    after_text = ""
    if bounds is None:
        total = len(lines)
        pieces.append((close + 1, total))
    else:
        assert isinstance(lines, _Lines)
        start, content, end = bounds
        heading = text.count("\n", 0, start) + 1
        later = LaterLines(heading, lines.skipped)
        real = later.real
        pieces.append((close + 1, heading - 1))
        sections.append((text[start:content].strip("# \t\r"), heading))
        total = heading + 1 + text.count("\n", end)
        if end < len(text):
            after_text = text[end:]
            pieces.append((heading, total))  # the lines after it
    body = _Body()
    criteria_table: list[Token] | None = None
    # the link references of every piece, the first definition of a label winning as in
    # CommonMark: a Markdown view resolves a cell's `[text][label]` with a definition anywhere
    # in the document (one after the ledger too), so goalfile reads the cells with all of them
    references: dict[str, Any] = {}
    non_goals: list[str] = []
    source_non_goals: list[str] = []
    criteria_locate: _Locate | None = None
    ignored: list[tuple[int, str, bool]] = []  # criteria-shaped tables: line, section, after
    section_title = ""  # the title of the H2 section ``current`` names
    for number, (start, stop) in enumerate(pieces):
        env: dict[str, Any] = {}  # what the piece defines for its inline text (link references)
        joined = after_text if number else lines.joined(start, stop)
        source = _CR_AT_LINE_END.sub("", joined)  # each line's `\r`s
        # a `\r` left ends a line for Markdown (CommonMark), not for goalfile's line numbers:
        # markdown-it's lines are mapped back to the file's (the file is refused: `lone-cr`)
        locate = None
        if "\r" in source:
            locate = _Locate(source, start)
            at = source.find("\r")
            lone.append((real(start + 1 + source.count("\n", 0, at)), source.count("\r")))
        tokens = _markdown().parse(source, env)
        for label, target in env.get("references", {}).items():
            references.setdefault(label, target)
        current = ""
        index = 0
        while index < len(tokens):
            token = tokens[index]
            line = start + 1 + (token.map[0] if token.map else 0)
            if locate is not None:
                line = locate(line)[0]
            if token.type == "heading_open" and token.tag in ("h1", "h2"):
                title = tokens[index + 1].content.strip()
                if token.tag == "h2":
                    current = section_key(title)
                    section_title = title
                    sections.append((title, line))
                elif not body.end_state and title.lower().startswith("goal:"):
                    body.end_state = title[5:].strip()
                    current = ""
            elif token.type == "table_open" and current in CRITERIA_KEYS and criteria_table is None:
                table: list[Token] = []
                shift = real(start + 1) - 1
                for inner in tokens[index:]:
                    table.append(_shift(inner, shift))
                    if inner.type == "table_close":
                        break
                criteria_table = table
                criteria_locate = (
                    locate if locate is None or shift == start else _Locate(source, shift)
                )
            elif token.type == "table_open" and current not in CRITERIA_KEYS:
                if _criteria_shaped(tokens, index):
                    ignored.append((real(line), section_title if current else "", number > 0))
            elif (
                token.type == "inline"
                and current in ("non-goals", "non goals", "nongoals")
                and _in_list_item(tokens, index)
                and token.content.strip()
            ):
                non_goals.append(" ".join(rendered(token, code_marks=True).split()))
                source_non_goals.append(" ".join(token.content.split()))
            elif (
                token.type == TABLE_ROWS
                and current in ("non-goals", "non goals", "nongoals")
                and _in_list_item(tokens, index)
            ):  # a table in a non-goal: each body cell counts, as its inline token did
                for cell in token.meta["cells"]:
                    if cell.strip():
                        shown = rendered(_inline(cell, env), code_marks=True)
                        non_goals.append(" ".join(shown.split()))
                        source_non_goals.append(" ".join(cell.split()))
            index += 1
    sections.sort(key=lambda item: item[1])
    body.sections = tuple(
        Section(
            title=title,
            key=section_key(title),
            line=line,
            end=sections[pos + 1][1] if pos + 1 < len(sections) else total + 1,
            later=later,
        )
        for pos, (title, line) in enumerate(sections)
    )
    body.non_goals = tuple(non_goals)
    body.source_non_goals = tuple(source_non_goals)
    if not body.end_state:
        problems.append(
            Finding(
                severity=Severity.ERROR,
                message="no `# Goal:` heading: state the end state as an H1, "
                "`# Goal: <one measurable outcome>`",
                line=close + 2,
                code="structure",
            )
        )
    misnamed: Section | None = None  # the section holding the criteria under another title
    if criteria_table is None:
        where = next((s.line for s in body.sections if s.key in CRITERIA_KEYS), None)
        if where is None:
            misnamed = _misnamed_section(body.sections, ignored)
        problems.append(
            Finding(
                severity=Severity.ERROR,
                message=(
                    "no acceptance-criteria table: write one under it, "
                    "`| id | criterion | check | expected | kind |`"
                    if where
                    else "no `## Acceptance criteria` section"
                    + (
                        ""
                        if misnamed
                        else ": add it, with a table `| id | criterion | check | expected | kind |`"
                    )
                ),
                line=where or (misnamed.line if misnamed else close + 2),
                code="structure",
                hint=_rename_hint(misnamed, path) if misnamed else None,
            )
        )
    else:
        env = {"references": references} if references else {}
        rows = _criteria(criteria_table, problems, lines, path, env, criteria_locate)
        body.criteria = tuple(rows)
    body.link_labels = frozenset(references)
    last_row = max((row.line for row in body.criteria), default=0)
    for found in ignored:
        renamed = misnamed is not None and found[1] == misnamed.title
        rename = _rename_hint(misnamed, path) if misnamed is not None and renamed else None
        problems.append(_ignored_table(*found, last_row=last_row, rename=rename))
    return body


def _misnamed_section(
    sections: Sequence[Section], ignored: Sequence[tuple[int, str, bool]]
) -> Section | None:
    """With no criteria section, the section before the ledger whose criteria-shaped table
    is the criteria table under another heading (`## Acceptance`, `## Criterias`)."""
    titles = [section for line, section, after in ignored if section and not after]
    return next((s for s in sections if titles and s.title == titles[0]), None)


def _rename_hint(section: Section, path: str) -> str:
    """The command that renames the heading of ``section`` (whose table is the criteria table)
    `## Acceptance criteria`, keeping the line's end."""
    from goalfile.shellword import sed_command

    rename = f"{section.line}s/^\\( *##\\)[^[:cntrl:]]*/\\1 Acceptance criteria/"
    return f"{sed_command(path, [rename])} names it `## Acceptance criteria`"


def _criteria_shaped(tokens: Sequence[Token], index: int) -> bool:
    """Whether the table opened at ``tokens[index]`` has a header naming every required
    criteria column."""
    names: set[str] = set()
    for token in tokens[index + 1 :]:
        if token.type == "thead_close":
            break
        if token.type == "inline":
            names.add(section_key(token.content))
    return all(name in names for name in REQUIRED_COLUMNS)


def _ignored_table(
    line: int, section: str, after_ledger: bool, *, last_row: int, rename: str | None = None
) -> Finding:
    """A table with the criteria columns outside the criteria section: an error before the
    ledger, where a reader takes it for part of the contract; a warning after it, in the free
    text of ``## Lessons`` and the like."""
    where = f"under `## {section}`" if section else "above the first section"
    into = f" (under its last row, line {last_row})" if last_row else ""
    return Finding(
        severity=Severity.WARNING if after_ledger else Severity.ERROR,
        line=line,
        column=1,
        code="criteria-table-ignored",
        message=f"a table with the criteria columns (id, criterion, check, expected) {where} "
        "is not the criteria table: goalfile never reads or runs its rows, though a reader "
        "takes them for criteria"
        + (
            f": write its rows into the criteria table{into} and delete this table; if its "
            "rows are not criteria, name its columns otherwise (such as `step` for `id`)"
            if rename is None
            else ""
        ),
        hint=rename,
    )


def _line_or_none(lines: Sequence[str], index: int) -> str | None:
    """``lines[index]`` without its CR, None past the last line (``index`` 0 or more): a line
    before a ledger is read without counting the ledger's lines."""
    try:
        return lines[index].rstrip("\r")
    except IndexError:
        return None


def _same_line(line: int) -> int:
    return line


class _Locate:
    """Where a line of a piece of the body, as markdown-it numbers it, is in the file.

    CommonMark ends a line at ``\\n``, ``\\r\\n`` and a lone ``\\r``; goalfile's lines end at
    ``\\n`` (carriage returns before it belong to the line ending). A piece holding a lone
    ``\\r`` has more lines for markdown-it than for goalfile: calling this with markdown-it's
    1-based line number (shifted by the piece's ``start``) gives the file's line that holds it
    and that line's text as markdown-it read it, so a row is always re-read from the line
    markdown-it parsed it from."""

    def __init__(self, source: str, start: int) -> None:
        self._start = start
        self._texts = re.split(r"[\r\n]", source)
        rows = [0]
        row = 0
        for found in re.finditer(r"[\r\n]", source):
            if source[found.start()] == "\n":
                row += 1
            rows.append(row)
        self._rows = rows

    def __call__(self, line: int) -> tuple[int, str]:
        at = min(max(line - 1 - self._start, 0), len(self._rows) - 1)
        return self._start + 1 + self._rows[at], self._texts[at]


# a run of carriage returns, from its first, that is not followed by a newline or the end of the
# text (possessive: each run is tried once, so a long run costs its length, not its square)
_LONE_CR = re.compile(r"(?<!\r)\r++(?!\n|\Z)")


def write_lone_crs(text: str, newline: str) -> str:
    """``text`` with each lone carriage return outside the ledger (one that is not one of a
    run of carriage returns right before ``\\n`` or the end of the text) written as
    ``newline``: the line ending Markdown reads it as. The ledger is never read as Markdown
    and stays as it is."""

    def written(part: str) -> str:
        return _LONE_CR.sub(lambda found: newline * (found.end() - found.start()), part)

    bounds = ledger_bounds(text)
    if bounds is None:
        return written(text)
    start, _, end = bounds
    return written(text[:start]) + text[start:end] + written(text[end:])


def first_lines(text: str, count: int) -> list[str]:
    """Lines of ``text`` as ``text.split("\\n")`` gives them, of which at least the first
    ``count`` (the lines after them may be left out): only the text before the ledger is split
    when those lines come before it. A rule that reads the sections above the ledger would
    otherwise split, or copy, a long ledger no one reads (14 ms for 4 MB)."""
    bounds = ledger_bounds(text)
    if bounds is not None:
        lines = text[: bounds[0]].split("\n")  # its last piece is not a line: the text
        if count < len(lines):  # before the ledger ends with one's newline
            return lines
    return text.split("\n")


def ledger_region(text: str) -> tuple[int, int] | None:
    """Character offsets of the ``## Iterations`` content: after its heading line, up to the
    next H1/H2 heading (or the end of the text)."""
    bounds = ledger_bounds(text)
    if bounds is None:
        return None
    _, content, end = bounds
    return content, end


def ledger_span(text: str) -> tuple[int, int] | None:
    """1-based line of the ``## Iterations`` heading and of the next H1/H2 heading (or EOF+1)."""
    bounds = ledger_bounds(text)
    if bounds is None:
        return None
    start, _, end = bounds
    heading = text.count("\n", 0, start) + 1
    if end >= len(text):
        return heading, text.count("\n") + 2
    return heading, heading + _newlines(text, start, end)  # the ledger's count is kept


@ledger.per_text(1)  # an entry keeps its text alive: one, not several
def ledger_bounds(text: str) -> tuple[int, int, int] | None:
    """Offsets of the ``## Iterations`` heading, of its content, and of the next H1/H2 heading
    (or the end of the text). Headings inside fenced code blocks (or the frontmatter) do not
    count: a plan that quotes a goal file must not move the ledger into its code block.

    One regular-expression scan with a literal prefix visits only H1/H2 headings and fence
    markers, so the cost per ledger byte stays that of a plain search. A run asks this of the
    same text several times, so the last few answers are kept."""
    heading = None
    for line, is_heading in _outside_fences(text, _body_start(text)):
        if heading is None:
            if is_heading:
                heading = _ITERATIONS_RE.match(text, line)
        elif is_heading:
            return heading.start(), heading.end(), line
    if heading is None:
        return None
    return heading.start(), heading.end(), len(text)


def _outside_fences(text: str, pos: int) -> Iterator[tuple[int, bool]]:
    """Offsets of the H1/H2 heading lines from ``pos`` on that are not inside a fenced code
    block (each with ``True``).

    A heading line is a newline then ``#`` or ``##`` and a blank; a fence line a newline, at
    most three spaces and three backticks or tildes. The heading lines come from the one scan
    that also indexes the ledger's entries, the fence lines from a search for each marker (a
    literal, found at C speed, where one search for all of them would try every newline), and
    the two are visited in the order of the text."""
    index = ledger.headings(text)
    sections = index.sections
    at = bisect.bisect_left(sections, pos + 1)  # the newline before a heading line is >= pos
    if index.unfenced and text.find("\n```", 0, pos + 3) < 0:
        # no heading line is fenced, and no fence line comes before ``pos``
        for line in sections[at:]:
            yield line, True
        return
    blocks = ledger.margin_blocks(text)
    if blocks is not None and all(start > pos for start in _first_block(blocks)):
        # every fence line is backticks at the margin, and none opens a block before ``pos``:
        # the blocks of the whole text are those a reading from ``pos`` finds
        bounds, open_from = blocks
        stop = len(text) if open_from is None else open_from
        for line in sections[at:]:
            if line > stop:
                return
            if not ledger.in_bounds(bounds, line):
                yield line, True
        return
    fence: str | None = None  # the opening marker while inside a fenced block
    markers = Markers(text)
    while True:
        while at < len(sections) and sections[at] <= pos:
            at += 1
        heading = sections[at] - 1 if at < len(sections) else len(text)
        fence_line = markers.next_line(pos)
        if heading >= len(text) and fence_line >= len(text):
            return
        if heading < fence_line:
            pos = heading + 1
            at += 1
            if fence is None:
                yield heading + 1, True
            continue
        pos, fence = _past_fence_line(text, fence_line + 1, fence)


@functools.cache
def fence_re() -> re.Pattern[str]:
    """A fence line from the start of its line: at most three spaces, the marker (``fence``:
    backticks with no backtick after them on the line, or tildes) and the rest of the line."""
    return re.compile(r"(?m) {0,3}(?P<fence>`{3,}(?=[^`\n]*$)|~{3,})(?P<rest>[^\n]*)$")


def _past_fence_line(text: str, line: int, fence: str | None) -> tuple[int, str | None]:
    """Reading the line at ``line`` (one :meth:`Markers.next_line` found) while ``fence`` is
    the marker of the open block (None outside one): where to read on from, and the marker of
    the block open after that line."""
    marker = fence_re().match(text, line)
    if marker is None:
        return line, fence
    if fence is None:
        return marker.end(), marker.group("fence")
    if (
        marker.group("fence")[0] == fence[0]
        and len(marker.group("fence")) >= len(fence)
        and not marker.group("rest").strip()
    ):
        return marker.end(), None
    return marker.end(), fence


def unclosed_fence(text: str) -> int | None:
    """Offset of the first line of a fenced code block in the body that never closes (None when
    every block closes).

    Markdown reads such a block to the end of the file, so the sections, rows and entries after
    it are code to every Markdown reader (and to :func:`ledger_bounds`), while the entry readers
    read on past it (:func:`goalfile.ledger.spans_by_marks`). A goal file with one is refused
    (lint's ``unclosed-fence``), so no two readers of a valid file disagree."""
    pos = _body_start(text)
    if (
        pos
        and ledger.headings(text).unfenced
        and "```" not in text[:pos]
        and "~~~" not in text[:pos]
    ):
        # every fence line of the text opens a block or closes the one before it, and every
        # block closes (ledger.is_unfenced, asked when the text was read), from a frontmatter
        # without one: as goalfile and mdformat write a ledger, whose blocks are not matched here
        return None
    return _unclosed_after(text, pos)


def _unclosed_after(text: str, pos: int) -> int | None:
    """:func:`unclosed_fence` of the text from ``pos`` (the body's start) on, read by its
    blocks or a fence line at a time."""
    blocks = ledger.margin_blocks(text)
    if blocks is not None and all(start > pos for start in _first_block(blocks)):
        return blocks[1]
    fence: str | None = None
    opened = pos
    markers = Markers(text)
    while True:
        line = markers.next_line(pos)
        if line >= len(text):
            return opened if fence is not None else None
        pos, after = _past_fence_line(text, line + 1, fence)
        if fence is None and after is not None:
            opened = line + 1
        fence = after


def _first_block(blocks: tuple[Sequence[int], int | None]) -> tuple[int, ...]:
    """The start of the first fenced block :func:`ledger.margin_blocks` found (none or one)."""
    bounds, open_from = blocks
    if bounds:
        return (bounds[0],)
    return () if open_from is None else (open_from,)


class Markers:
    """The lines of a text that may open or close a fenced code block, in order."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._next = dict.fromkeys(ledger.marker_scans(), -1)  # the next occurrence of each

    def next_line(self, pos: int) -> int:
        """Offset of the first newline at or after ``pos`` that is followed by at most three
        spaces and three backticks or tildes (the length of the text when there is none)."""
        text = self._text
        while True:
            for scan, at in self._next.items():
                if at < pos:
                    found = scan.search(text, pos)
                    self._next[scan] = found.start() if found is not None else len(text)
            at = min(self._next.values())
            if at >= len(text):
                return len(text)
            indent = 0
            while indent < 3 and at - indent - 1 >= pos and text[at - indent - 1] == " ":
                indent += 1
            newline = at - indent - 1
            if newline >= pos and text[newline] == "\n":
                return newline
            end = text.find("\n", at)  # no other candidate on this line
            if end < 0:
                return len(text)
            pos = end


def _body_start(text: str) -> int:
    """Offset just after the closing frontmatter fence (0 when there is none)."""
    start = 1 if text.startswith("\ufeff") else 0
    first = text.find("\n", start)
    if first < 0 or text[start:first].rstrip() != "---":
        return max(start - 1, 0)
    close = _FM_CLOSE_RE.search(text, first)
    return close.end() if close is not None else start


def markdown() -> Any:
    """The Markdown parser goalfile reads a goal's body with (CommonMark with GFM tables)."""
    return _markdown()


def _markdown() -> Any:
    global _MD
    if _MD is None:
        from markdown_it import MarkdownIt
        from markdown_it.rules_block import table

        _MD = MarkdownIt("commonmark").enable("table")
        _MD.block.ruler.at(
            "table", functools.partial(_table, table), {"alt": ["paragraph", "reference"]}
        )
    return _MD


_MD: Any = None

TABLE_ROWS = "table_rows"
"""The one token that stands for a table's body rows: ``map`` is their line span (a row per
line), ``meta["cells"]`` their cells' text, row after row, as many per row as the header has."""


def _table(gfm: Any, state: Any, start: int, end: int, silent: bool) -> bool:
    """markdown-it's GFM table rule, with the body rows kept as the text of their cells in one
    token (:data:`TABLE_ROWS`) instead of five tokens and an inline parse per cell.

    The rule itself decides where the table starts and ends and how each row splits into cells
    (``\\|``, trimming, missing and extra cells), so the cells are exactly those markdown-it
    gives; a 100,000-row table then costs the text of its cells, not millions of tokens.

    A delimiter row of dashes alone (``---``, no pipe, no colon) opens no table: it underlines
    the line above as a heading, as GitHub (cmark-gfm) reads it. markdown-it took ``Acceptance
    criteria <!-- \\| -->`` over ``---`` for a one-column table, whose rows were the lines of
    the table under what GitHub showed as an ``## Acceptance criteria`` heading."""
    if start + 1 < end and _underline(_line_text(state, start + 1)):
        return False
    if silent:
        return bool(gfm(state, start, end, silent))
    body = _BodyRows(state)
    state.push = body
    try:
        return bool(gfm(state, start, end, silent))
    finally:
        del state.push


def _underline(text: str) -> bool:
    """Whether ``text`` (a line without its indentation) is dashes alone, blanks after them."""
    text = text.rstrip(" \t")
    return bool(text) and text.count("-") == len(text)


def _line_text(state: Any, line: int) -> str:
    """Line ``line`` of the block being parsed, without its indentation (markdown-it's own
    ``getLine`` of the table rule)."""
    return str(state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]])


class _BodyRows:
    """Stands in for ``StateBlock.push`` while the table rule runs: the header's tokens and
    the table's own are pushed as usual; each body cell's text is kept, its tokens are not."""

    def __init__(self, state: Any) -> None:
        self._push = state.push
        self._cells: list[str] = []
        self._in_body = False
        self._width = 0  # the header's cells: every body row has as many
        self._sink = _CellSink(self._cells)

    def __call__(self, ttype: str, tag: str, nesting: int) -> Any:
        if ttype == "tbody_open":
            self._in_body = True
            self._opened = self._push(ttype, tag, nesting)
            self._rows = self._push(TABLE_ROWS, "", 0)
            self._rows.meta = {"cells": self._cells}
            return self._opened
        if ttype == "tbody_close":  # the rule has set the body's line span on tbody_open
            self._in_body = False
            self._rows.map = list(self._opened.map) if self._opened.map else None
            return self._push(ttype, tag, nesting)
        if not self._in_body:
            if ttype == "inline":
                self._width += 1
            return self._push(ttype, tag, nesting)
        self._sink.inline = ttype == "inline"
        self._sink.width = self._width
        return self._sink


class _CellSink:
    """What the table rule sets up a body row's tokens on: an inline token's ``content`` is
    kept (a cell's text), everything else (maps, alignment, children) is dropped. A column's
    first texts are kept once however often rows repeat them ("exit 0", "deterministic")."""

    __slots__ = ("_cells", "_seen", "inline", "width")
    _cells: list[str]
    _seen: dict[int, dict[str, str]]
    inline: bool
    width: int

    def __init__(self, cells: list[str]) -> None:
        object.__setattr__(self, "_cells", cells)
        object.__setattr__(self, "_seen", {})
        object.__setattr__(self, "inline", False)
        object.__setattr__(self, "width", 1)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "content" and self.inline:
            seen = self._seen.setdefault(len(self._cells) % self.width, {})
            shared = seen.get(value)
            if shared is None:
                shared = value
                if len(seen) < _SHARED_TEXTS:
                    seen[value] = value
            self._cells.append(shared)
        elif name in ("inline", "width"):
            object.__setattr__(self, name, value)


_SHARED_TEXTS = 64
"""How many different texts of a column are kept once each (the rest as they come)."""


def _shift(token: Token, start: int) -> Token:
    if token.map:
        token.map = [token.map[0] + start, token.map[1] + start]
    return token


def _in_list_item(tokens: Sequence[Token], index: int) -> bool:
    level = tokens[index].level
    for back in range(index - 1, -1, -1):
        if tokens[back].level < level and tokens[back].nesting == 1:
            if tokens[back].type == "list_item_open":
                return True
            level = tokens[back].level
    return False


_PIPE_RE = re.compile(r"(?<!\\)\|")


def split_row(source: str) -> list[str]:
    """The cells of a table row as GFM splits them: at every ``|`` not written ``\\|``, code
    spans included; the pipes at either end of the row do not start a cell."""
    text = source.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return _PIPE_RE.split(text)


_BACKTICKS = re.compile(r"`+")


def _open_run(text: str, opened: int = 0) -> int:
    """The length of the backtick run that opened a code span still open at the end of ``text``
    (0: none), reading on from a span of length ``opened`` open at its start; a span closes at
    the next run of the same length."""
    for run in _BACKTICKS.finditer(text):
        if not opened:
            opened = len(run.group())
        elif len(run.group()) == opened:
            opened = 0
    return opened


def rejoin_code_spans(cells: Sequence[str]) -> list[str]:
    """Cells with every code span that an unescaped ``|`` cut in two put back together.

    Each cell is read once: a cell joined on is read on from where the span stood, not the
    joined text again from its start (a row of many ``|`` after one backtick took minutes)."""
    out: list[str] = []
    pos = 0
    while pos < len(cells):
        parts = [cells[pos]]
        opened = _open_run(cells[pos])
        pos += 1
        while opened and pos < len(cells):
            parts.append(cells[pos])
            opened = _open_run(cells[pos], opened)
            pos += 1
        out.append("|".join(parts))
    return out


def escape_span_pipes(cell: str) -> str:
    """``cell`` with each bare ``|`` written ``\\|``."""
    return _PIPE_RE.sub(r"\\|", cell)


def _row_cells_line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(escape_span_pipes(c.strip()) for c in cells) + " |"


def _repair_row(
    names: Sequence[str],
    source: str,
    line: int,
    problems: list[Finding],
    path: str,
    read: Sequence[str] = (),
) -> list[str] | None:
    """A row whose cell count differs from the header's: re-joined when an unescaped ``|`` in
    a code span explains it (an error all the same: GitHub shows other cells; ``lint --fix``
    escapes it), else an error that names
    the cells. Returns the re-read cells' text, or None when the row stays as markdown-it read
    it (``read``: its cells), which is also the answer when ``source`` does not start with the
    cell markdown-it read first: the line is then not the row's, and nothing is taken from it."""
    raw = split_row(source)
    if len(raw) == len(names):
        return None
    if read and raw[0].strip().replace("\\|", "|") != read[0].strip():
        return None
    joined = rejoin_code_spans(raw)
    if len(joined) == len(names) and len(joined) < len(raw):
        from goalfile.shellword import shell_word  # here: only a hint needs it

        fixed = _row_cells_line(joined)
        problems.append(
            Finding(
                severity=Severity.ERROR,
                line=line,
                column=1,
                code="span-pipe",
                message="a `|` inside a code span splits the row into "
                f"{len(raw)} cells for GitHub and every GFM view, which show other cells than "
                f"goalfile reads (it reads {len(names)}, with the `|` as part of the span)",
                hint=f"write the `|` as `\\|`: `goalfile lint --fix {shell_word(path)}` does it, "
                "and the contract's digest stays as it is",
            )
        )
        header = "| " + " | ".join(names) + " |\n|" + "---|" * len(names)
        tokens = _markdown().parse(f"{header}\n{fixed}")
        body = next((t for t in tokens if t.type == TABLE_ROWS), None)
        return list(body.meta["cells"]) if body is not None else []
    shown = ", ".join(f'"{cell.strip()}"' for cell in raw)
    problems.append(
        Finding(
            severity=Severity.ERROR,
            line=line,
            column=1,
            code="cell-count",
            message=f"the row has {len(raw)} cells but the header has {len(names)} "
            f"({', '.join(names)}); its cells: {shown}: give the row one cell per column (a `|` "
            "inside a cell is written `\\|`)",
        )
    )
    return None


def _criteria(
    table: Sequence[Token],
    problems: list[Finding],
    lines: Sequence[str] = (),
    path: str = "",
    env: Mapping[str, Any] | None = None,
    locate: _Locate | None = None,
) -> Iterator[Criterion]:
    """The rows of the criteria table, one at a time: the header's inline tokens name the
    columns, and each body row's cells come as text from :data:`TABLE_ROWS`; a cell is read
    as Markdown (with the link references ``env`` of the whole body outside the ledger) only
    when its meaning needs it."""
    header: list[Token] = []
    header_line = 0
    body: Token | None = None
    in_head = False
    for token in table:
        if token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open" and in_head:
            header_line = (token.map[0] + 1) if token.map else 0
            if locate is not None and header_line:
                header_line = locate(header_line)[0]
        elif token.type == "inline" and in_head:
            header.append(token)
        elif token.type == TABLE_ROWS:
            body = token
    if not header:
        return
    names = [section_key(cell.content) for cell in header]
    missing = [name for name in REQUIRED_COLUMNS if name not in names]
    if missing:
        problems.append(
            Finding(
                severity=Severity.ERROR,
                line=header_line,
                column=1,
                code="columns",
                message=f"the criteria table lacks the {noun(len(missing), 'column')} "
                f"{', '.join(missing)}: the header names id, criterion, check and expected "
                "(kind and timeout optional)",
            )
        )
        return
    twice = [name for pos, name in enumerate(names) if name in READ_COLUMNS and name in names[:pos]]
    if twice:
        written = [
            "`" + " ".join(cell.content.split()) + "`"
            for cell, name in zip(header, names, strict=True)
            if name in twice
        ]
        named = list(dict.fromkeys(twice))
        problems.append(
            Finding(
                severity=Severity.ERROR,
                line=header_line,
                column=1,
                code="columns",
                message=f"the criteria table names the {noun(len(named), 'column')} "
                f"{', '.join(named)} twice ({', '.join(written)}): a reader takes the first, "
                "and goalfile would read the last: give each column one name, deleting the "
                f"extra {noun(len(named), 'column')} or renaming "
                f"{noun(len(named), 'it', 'them')} (a header name goalfile does not read, such "
                "as `notes`, is kept and ignored)",
            )
        )
        return
    if body is None:
        return
    cells: list[str] = body.meta["cells"]
    width = len(names)
    header_names = tuple(names)
    first = (body.map[0] + 1) if body.map else 0
    table_env: Mapping[str, Any] = env if env is not None else {}
    for index in range(len(cells) // width):
        line = first + index if first else 0
        row: list[str] = cells[index * width : (index + 1) * width]
        row_env = table_env
        source: str | None = None
        if locate is not None and line:
            line, source = locate(line)
        elif line > 0:
            source = _line_or_none(lines, line - 1)
        if source is not None:
            repaired = _repair_row(names, source, line, problems, path, row)
            if repaired is not None:
                row, row_env = repaired, {}  # read on its own, as a table of one row
        yield _criterion(header_names, row, line, row_env)


def _criterion(
    names: tuple[str, ...], row: Sequence[str], line: int, env: Mapping[str, Any]
) -> Criterion:
    by_name = {name: row[pos] if pos < len(row) else None for pos, name in enumerate(names)}

    def raw(name: str) -> str:
        cell = by_name.get(name)
        return cell.strip() if cell is not None else ""

    kind_text = raw("kind") or "deterministic"
    try:
        kind = Kind(kind_text.lower())
    except ValueError:
        kind = Kind.DETERMINISTIC
    # a deterministic row's check and expected mean what Markdown shows (a formatter keeps
    # that, not the source); a review row's check names a file and stays as written
    shown = kind is Kind.DETERMINISTIC
    check_cell = by_name["check"]
    check, is_code = _check_text(check_cell, env, as_rendered=shown)
    # a code span, or a cell read as written, is the same text both ways: kept once
    check_raw = check if is_code or not shown else _check_text(check_cell, env)[0]
    expected_cell = by_name["expected"]
    expected, expected_is_code = _check_text(expected_cell, env, as_rendered=shown)
    expected_raw = expected if expected_is_code or not shown else _check_text(expected_cell, env)[0]
    if "|" in expected or "|" in expected_raw:  # `\|` in a cell's /REGEX/ is a literal `|`
        from goalfile.expecttext import literal_pipes_in_regexes

        expected = literal_pipes_in_regexes(expected)
        expected_raw = literal_pipes_in_regexes(expected_raw)
    timeout_text = raw("timeout")
    timeout = _number(_to_float(timeout_text)) if timeout_text else None
    return Criterion(
        id=raw("id").strip("`"),
        criterion=raw("criterion"),
        check=check,
        expected=expected,
        kind=kind,
        kind_text=kind_text,
        timeout=timeout,
        timeout_text=timeout_text,
        line=line,
        check_is_code=is_code,
        cells=Cells(names, tuple(raw(name) for name in names)),
        source_check=check_raw,
        source_expected=expected_raw,
    )


def _to_float(text: str) -> float | None:
    try:
        return float(text.removesuffix("s"))
    except ValueError:
        return None


_INLINE_MARKS = re.compile(r"[\\`*_\[\]!<&~\n\r]")
"""Characters where an inline rule of CommonMark can start (escapes, code spans, emphasis,
links and images, autolinks and HTML, entities): a cell without any shows its text as is."""
_ONE_SPAN = re.compile(r"`([^`]+)`")


def _check_text(
    cell: str | None, env: Mapping[str, Any], *, as_rendered: bool = False
) -> tuple[str, bool]:
    """A cell that is exactly one code span gives its content; else the cell text as written,
    or, with ``as_rendered``, as a CommonMark renderer shows it (:func:`rendered`).

    Two cells that need no inline parse are read directly, as markdown-it reads them: text
    with no character that starts an inline rule, and one code span of single backticks."""
    if cell is None:
        return "", False
    if _INLINE_MARKS.search(cell) is None:
        return cell.strip(), False
    span = _ONE_SPAN.fullmatch(cell)
    if span is not None:
        # one space each side is padding, unless it is all spaces; blanks alone as mdformat
        # keeps them
        return span_text(span.group(1)), True
    token = _inline(cell, env)
    children = [
        c for c in (token.children or []) if not (c.type == "text" and not c.content.strip())
    ]
    if len(children) == 1 and children[0].type == "code_inline":
        return code_text(children[0].content), True
    if as_rendered:
        return rendered(token).strip(), False
    return cell.strip(), False


def read_cell(cell: str, env: Mapping[str, Any]) -> tuple[str, bool]:
    """A deterministic row's ``check`` or ``expected`` cell as goalfile reads it with the link
    references ``env``: the content of one code span (and True), else the text Markdown shows
    (and False)."""
    return _check_text(cell, env, as_rendered=True)


def _inline(content: str, env: Mapping[str, Any]) -> Token:
    """The inline token of a cell with its children, as markdown-it's core gives it after a
    whole parse (every core rule after the block rule: the inline rule, then joining text
    and the rest), with the link references ``env`` of the cell's part of the file."""
    token: Token = _markdown().parseInline(content, dict(env))[0]
    return token


def rendered(token: Token, *, code_marks: bool = False) -> str:
    """The text an inline token shows once rendered: backslash escapes and entities consumed,
    emphasis and link markup gone (their text kept), code spans as their content (between
    single backticks with ``code_marks``), raw HTML kept as written, line breaks as spaces.
    This is what a cell or a list item means, whatever a formatter does to its source."""
    out: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "html_inline"):
            out.append(child.content)
        elif child.type == "code_inline":
            out.append(f"`{child.content}`" if code_marks else child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif child.type == "image":
            out.append(rendered(child, code_marks=code_marks))
    return "".join(out)


def review_artifact(row: Criterion) -> str | None:
    """The artifact a review row names: its code span path, or the last word of its prose."""
    cell = row.check.strip()
    if not cell:
        return None
    if row.check_is_code:
        return cell
    spans: list[str] = re.findall(r"`([^`]+)`", cell)
    if spans:
        return spans[-1].strip()
    last: str = cell.split()[-1].rstrip(".,;:")
    return last or None
