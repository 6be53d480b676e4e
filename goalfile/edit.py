"""Minimal text edits of a goal file: text in, text out.

Every write changes only what it must: single-line edits of frontmatter values that keep the
comment, the key order and the line ending, and entries appended to a section. The document is
never re-rendered; everything outside the edited lines stays byte-identical.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from goalfile.errors import GoalFileInvalid
from goalfile.parse import ledger_bounds, ledger_span, section_key

_VALUE_RE = re.compile(
    r"^(?P<head>[ \t]*[A-Za-z_][\w-]*[ \t]*:)(?P<value>[^\r]*?)(?P<tail>[ \t]+#[^\r]*)?(?P<cr>\r?)$"
)
_PLAIN_RE = re.compile(r"^[A-Za-z0-9_./@+-][A-Za-z0-9 _./:@+-]*$")
_YAML_WORDS = frozenset({"null", "true", "false", "yes", "no", "on", "off", "~"})
_YAML_UNSAFE_RE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def yaml_scalar(value: object) -> str:
    """A YAML scalar for one line: numbers, null and plain words as is, other text quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    if (
        _PLAIN_RE.match(text)
        and text.lower() not in _YAML_WORDS
        and not text.endswith(" ")
        and ": " not in text
        and not re.fullmatch(r"[-+]?[\d._]+(e[-+]?\d+)?", text, flags=re.I)
        and _reads_back(text)
    ):
        return text
    # JSON is YAML's double-quoted style; characters YAML rejects or reads as a line break
    # (DEL, C1 controls, U+2028/9, BOM, U+FFFE/F) are written as escapes; a lone surrogate
    # (an undecodable byte) cannot be written in YAML at all and becomes U+FFFD
    text = re.sub("[\ud800-\udfff]", "\ufffd", text)
    return _YAML_UNSAFE_RE.sub(
        lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False)
    )


def _reads_back(text: str) -> bool:
    """A plain scalar YAML reads as this very string (not a date, a number in another base, a
    sexagesimal, an alias or a tag)."""
    import yaml

    try:
        return bool(yaml.safe_load(f"k: {text}") == {"k": text})
    except yaml.YAMLError:
        return False


def _frontmatter_bounds(lines: Sequence[str]) -> int:
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r").rstrip() in ("---", "..."):
            return index
    raise ValueError("no closing frontmatter fence")


def set_value(text: str, key: str, value: object) -> str:
    """Set a frontmatter value (``key`` or ``parent.child``) by editing or adding one line.

    Raises GoalFileInvalid when ``parent`` holds something other than a mapping. Only the
    frontmatter is split into lines; the rest of the text (the ledger may be long) is kept
    as it is."""
    cut = _after_frontmatter(text)
    return _set_value(text[:cut], key, value) + text[cut:]


def _after_frontmatter(text: str) -> int:
    """Offset just after the closing frontmatter fence's line (the text's end without one)."""
    start = text.find("\n") + 1
    while start > 0:
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        if line.rstrip("\r").rstrip() in ("---", "..."):
            return len(text) if end < 0 else end + 1
        start = end + 1
    return len(text)


def _set_value(text: str, key: str, value: object) -> str:
    lines = text.split("\n")
    newline_cr = "\r" if lines[0].endswith("\r") else ""
    close = _frontmatter_bounds(lines)
    parent, _, child = key.rpartition(".")
    rendered = yaml_scalar(value)
    start, stop, indent = 1, close, ""
    if parent:
        parent_line = _find_key(lines, 1, close, parent, nested=False)
        if parent_line is None:
            lines[close:close] = [f"{parent}:{newline_cr}", f"  {child}: {rendered}{newline_cr}"]
            return "\n".join(lines)
        flow = _flow_mapping(lines[parent_line])
        if flow is not None:  # `budget: {iterations: 5, tokens: null}`: edit it on its line
            flow[child] = value
            inner = ", ".join(f"{name}: {yaml_scalar(item)}" for name, item in flow.items())
            lines[parent_line] = _replace_value(lines[parent_line], "{" + inner + "}")
            return "\n".join(lines)
        start = parent_line + 1
        stop = _block_end(lines, start, close, 0)
        _require_mapping(lines, parent_line, stop, parent, child)
        indent = _indent_of(lines, start, stop) or "  "
    target = _find_key(lines, start, stop, child, nested=bool(parent))
    if target is None:
        lines[stop:stop] = [f"{indent}{child}: {rendered}{newline_cr}"]
        return "\n".join(lines)
    # a value continued on more indented lines (a block scalar or list) is replaced whole
    depth = len(lines[target]) - len(lines[target].lstrip(" \t"))
    end = _block_end(lines, target + 1, stop, depth)
    lines[target:end] = [_replace_value(lines[target], rendered)]
    return "\n".join(lines)


def _block_end(lines: Sequence[str], start: int, stop: int, depth: int) -> int:
    """Index after the last line from ``start`` on (before ``stop``) indented more than
    ``depth`` columns; blank and comment lines between such lines belong to the block."""
    end = start
    for index in range(start, stop):
        line = lines[index].rstrip("\r")
        if re.match(rf"^[ \t]{{{depth + 1},}}\S", line):
            end = index + 1
        elif line.strip() and not line.lstrip().startswith("#"):
            break
    return end


def _require_mapping(
    lines: Sequence[str], parent_line: int, stop: int, parent: str, child: str
) -> None:
    """Refuse to add ``child`` under a ``parent`` whose value is not a block mapping (a scalar,
    a list, a block scalar): the added line would make the frontmatter invalid YAML."""
    match = _VALUE_RE.match(lines[parent_line])
    own = match.group("value").strip() if match is not None else "?"
    first = next(
        (text for text in (line.strip() for line in lines[parent_line + 1 : stop]) if text), ""
    )
    if own or first == "-" or first.startswith("- "):
        raise GoalFileInvalid(
            f"frontmatter `{parent}` is not a mapping, so `{parent}.{child}` cannot be set",
            line=parent_line + 1,
            hint=f"write `{parent}:` with one `  KEY: value` line per entry under it",
        )


def _replace_value(line: str, rendered: str) -> str:
    """The line with its value replaced; the comment stays in its column when there is room."""
    match = _VALUE_RE.match(line)
    if match is None:
        head, cr = line.split(":", 1)[0], "\r" if line.endswith("\r") else ""
        return f"{head}: {rendered}{cr}"
    old_value = match.group("value")
    spacing = old_value[: len(old_value) - len(old_value.lstrip())] or " "
    tail = match.group("tail") or ""
    new = f"{match.group('head')}{spacing}{rendered}"
    if tail:
        comment = tail.lstrip(" \t")
        room = len(old_value) + len(tail) - len(comment) - len(spacing) - len(rendered)
        new += " " * max(1, room) + comment
    return new + match.group("cr")


def _flow_mapping(line: str) -> dict[str, object] | None:
    """The mapping of a `key: {a: 1, b: 2}` line, or None when the value is not one."""
    import yaml

    match = _VALUE_RE.match(line)
    value = match.group("value").strip() if match is not None else ""
    if not value.startswith("{"):
        return None
    try:
        loaded = yaml.safe_load(value)
    except yaml.YAMLError:
        return None
    return {str(k): v for k, v in loaded.items()} if isinstance(loaded, dict) else None


def _indent_of(lines: Sequence[str], start: int, stop: int) -> str:
    for index in range(start, stop):
        match = re.match(r"^([ \t]+)\S", lines[index])
        if match:
            return match.group(1)
    return ""


def _find_key(lines: Sequence[str], start: int, stop: int, key: str, *, nested: bool) -> int | None:
    pattern = re.compile(
        (r"^[ \t]+" if nested else r"^") + re.escape(key) + r"[ \t]*:(?:[ \t]|\r?$)"
    )
    found = None  # the last one: YAML reads the last of keys written twice
    for index in range(start, stop):
        if pattern.match(lines[index]):
            found = index
    return found


def remove_key(text: str, key: str) -> str:
    """Remove a top-level frontmatter key written on one line (used when a blocker is resolved)."""
    lines = text.split("\n")
    close = _frontmatter_bounds(lines)
    target = _find_key(lines, 1, close, key, nested=False)
    while target is not None:  # every copy of a key written twice
        stop = _block_end(lines, target + 1, close, 0)
        del lines[target:stop]
        close -= stop - target
        target = _find_key(lines, 1, close, key, nested=False)
    return "\n".join(lines)


def append_to_section(
    text: str, section: str, block: Sequence[str], *, before: Sequence[str] = ("lessons",)
) -> str:
    """Append lines to the end of ``## <section>``, creating the section when it is missing.

    A missing section is created before the first of ``before`` that exists, else at the end.
    Exactly one blank line separates the block from what precedes and from what follows.
    """
    if block and section_key(section) == "iterations":
        appended = _append_to_ledger(text, block)
        if appended is not None:
            return appended
    return _append_by_lines(text, section, block, before)


def _append_by_lines(text: str, section: str, block: Sequence[str], before: Sequence[str]) -> str:
    lines = text.split("\n")
    cr = "\r" if lines[0].endswith("\r") else ""
    body = [f"{line}{cr}" for line in block]
    span = _section_span(text, lines, section)
    if span is None:
        title = f"## {section[:1].upper()}{section[1:]}{cr}"
        insert_at = _first_heading(lines, before)
        if insert_at is None:
            return _at_end(lines, len(lines), [cr, title, cr, *body])
        prefix = _trim_blank(lines, insert_at)
        return "\n".join([*lines[:prefix], cr, title, cr, *body, cr, *lines[insert_at:]])
    heading, end = span  # 0-based heading index, 0-based index of the next heading (or len)
    content_end = max(_trim_blank(lines, end), heading + 1)
    if end >= len(lines):
        return _at_end(lines, content_end, [cr, *body])
    return "\n".join([*lines[:content_end], cr, *body, cr, *lines[end:]])


def _append_to_ledger(text: str, block: Sequence[str]) -> str | None:
    """:func:`append_to_section` of the ledger, by offsets: the ledger may be long, and only
    the blank lines at its end are looked at (None when the text has no ledger)."""
    bounds = ledger_bounds(text)
    if bounds is None:
        return None
    first = text.find("\n")
    cr = "\r" if (text if first < 0 else text[:first]).endswith("\r") else ""
    body = "\n".join(f"{line}{cr}" for line in block)
    end = bounds[2]
    at_end = end >= len(text)
    content = len(text) if at_end else end - 1  # the end of the ledger's last line
    while True:  # back over blank lines; the heading line is never blank
        start = text.rfind("\n", 0, content) + 1
        if text[start:content].rstrip("\r"):
            break
        content = start - 1
    if at_end:
        return f"{text[:content]}\n{cr}\n{body}\n"
    return f"{text[:content]}\n{cr}\n{body}\n{cr}\n{text[end:]}"


def _trim_blank(lines: Sequence[str], end: int) -> int:
    """Index after the last non-blank line before ``end``."""
    while end > 0 and not lines[end - 1].rstrip("\r"):
        end -= 1
    return end


def _at_end(lines: Sequence[str], end: int, new: Sequence[str]) -> str:
    """Replace the blank tail of the document from ``end`` on with ``new``; end with a newline."""
    return "\n".join([*lines[: _trim_blank(lines, end)], *new]) + "\n"


def _section_span(text: str, lines: Sequence[str], section: str) -> tuple[int, int] | None:
    key = section_key(section)
    if key == "iterations":
        span = ledger_span(text)
        if span is None:
            return None
        return span[0] - 1, min(span[1] - 1, len(lines))
    heading = _first_heading(lines, (key,))
    if heading is None:
        return None
    end = heading + 1
    while end < len(lines) and not re.match(r"^#{1,2}[ \t]", lines[end]):
        end += 1
    return heading, end


def _first_heading(lines: Sequence[str], keys: Sequence[str]) -> int | None:
    wanted = {section_key(k) for k in keys}
    fence = None
    for index, line in enumerate(lines):
        stripped = line.rstrip("\r")
        marker = re.match(r"^ {0,3}(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0]
            elif marker.group(1)[0] == fence:
                fence = None
            continue
        if fence is None:
            match = re.match(r"^##[ \t]+(.*?)[ \t#]*$", stripped)
            if match and section_key(match.group(1)) in wanted:
                return index
    return None


def append_list_item(text: str, section: str, item: str) -> str:
    """Add ``- ITEM`` to ``## <section>``, creating it at the end when missing. When the section
    ends in a bullet list, the item joins that list directly (a blank line between would make
    the list loose); otherwise it is a new block after one blank line."""
    line = f"- {item}"
    lines = text.split("\n")
    span = _section_span(text, lines, section)
    if span is None:
        return append_to_section(text, section, [line], before=())
    heading, end = span
    last = _trim_blank(lines, end)
    cr = "\r" if lines[0].endswith("\r") else ""
    if last > heading + 1 and re.match(r"^[-*+][ \t]", lines[last - 1]):
        return "\n".join([*lines[:last], f"{line}{cr}", *lines[last:]])
    return append_to_section(text, section, [line], before=())
