"""Minimal text edits of a goal file: text in, text out.

Every write changes only what it must: single-line edits of frontmatter values that keep the
comment, the key order and the line ending, and entries appended to a section. The document is
never re-rendered; everything outside the edited lines stays byte-identical.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from goalfile import ledger
from goalfile.errors import GoalfileError, GoalFileInvalid
from goalfile.model import Entry, Goal
from goalfile.parse import ledger_bounds, ledger_span, parse_goal, section_key

# patterns are compiled on first use (by re's own cache): reading a goal edits nothing
_VALUE = (
    r"^(?P<head>[ \t]*[A-Za-z_][\w-]*[ \t]*:)(?P<value>[^\r]*?)(?P<tail>[ \t]+#[^\r]*)?(?P<cr>\r*)$"
)
_PLAIN = r"^[A-Za-z0-9_./@+-][A-Za-z0-9 _./:@+-]*$"
_YAML_WORDS = frozenset({"null", "true", "false", "yes", "no", "on", "off", "~"})
_YAML_UNSAFE = "[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]"


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
        re.match(_PLAIN, text)
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
    return re.sub(
        _YAML_UNSAFE, lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False)
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
    head = text[:cut]
    edited = _set_value(head, key, value)
    _require_only(head, edited, key, _reads_as(yaml_scalar(value)))
    return ledger.spliced(text, _with_head(text, head, edited), 0, len(text) - cut)


def _with_head(text: str, head: str, edited: str) -> str:
    """``edited + text[len(head):]`` for a ``head`` that begins ``text``: its first occurrence
    is there, so the rest (the ledger may be long) is copied once, where a slice of it and the
    join copied it twice."""
    return text.replace(head, edited, 1)


_REMOVED = object()


def _reads_as(rendered: str) -> object:
    """What YAML reads a scalar written by :func:`yaml_scalar` as."""
    import yaml

    loaded = yaml.safe_load(f"k: {rendered}")
    return loaded["k"] if isinstance(loaded, dict) else None


def _cr(first_line: str) -> str:
    """The carriage return new lines take: one when the first line ends in any (lines written
    into a CR CR LF file end in CR LF, which every reader of the file reads the same way)."""
    return "\r" if first_line.endswith("\r") else ""


def _require_only(before: str, after: str, key: str, value: object) -> None:
    """Refuse an edit whose frontmatter YAML does not read as the old one with only ``key``
    changed (set to ``value``, or removed for ``_REMOVED``) and no key written twice more.

    A line edit is made on what the lines look like; YAML reads what the characters mean. The
    two differ for flow style (`{slug: a, ...}`), a block mapping's value written in flow
    style on its own line, and line breaks YAML knows but a line edit does not (a carriage
    return inside a line, U+2028, NEL): there an edit could write a second key, or make the
    frontmatter invalid YAML. Re-reading the result catches every such case."""
    old, old_twice = _frontmatter_yaml(before)
    new, new_twice = _frontmatter_yaml(after)
    expected = dict(old) if old is not None else None
    if expected is not None:
        parent, _, child = key.rpartition(".")
        if parent:
            inner = expected.get(parent)
            inner = dict(inner) if isinstance(inner, dict) else {}
            _apply(inner, child, value)
            expected[parent] = inner
        else:
            _apply(expected, key, value)
    try:
        same = old is not None and new == expected
    except RecursionError:  # an alias that holds itself: YAML can read it, no edit can prove it
        same = False
    if same and new_twice <= old_twice:
        return
    lines = before.split("\n")
    at = _find_key(lines, 1, len(lines), key.partition(".")[0], nested=False)
    raise GoalFileInvalid(
        f"cannot change `{key}` by editing one line: the frontmatter is not written one "
        "block-style `key: value` per line (flow style `{...}`, or a line break inside a "
        "line); nothing was written",
        line=(at + 1) if at is not None else 1,
        again="once the frontmatter is written one `key: value` per line (`budget:` followed "
        "by `  iterations: N` and `  tokens: N` on lines of their own), with LF or CRLF line "
        "endings",
    )


def _apply(mapping: dict[str, object], key: str, value: object) -> None:
    if value is _REMOVED:
        mapping.pop(key, None)
    else:
        mapping[key] = value


def _frontmatter_yaml(head: str) -> tuple[dict[str, object] | None, int]:
    """The frontmatter mapping YAML reads from the text up to its closing fence (None when it
    is not a mapping or not valid YAML), and how many keys it holds written twice."""
    import yaml

    lines = head.split("\n")
    try:
        close = _frontmatter_bounds(lines)
    except ValueError:
        return None, 0
    source = "\n".join(line.rstrip("\r") for line in lines[1:close])
    try:
        loader = yaml.SafeLoader(source)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else {}
        finally:
            loader.dispose()
    except (yaml.YAMLError, ValueError, TypeError):
        return None, 0
    if not isinstance(data, dict):
        return None, 0
    return {str(k): v for k, v in data.items()}, _keys_twice(node)


def _keys_twice(node: object) -> int:
    """How many keys of the mappings in a YAML node tree repeat a key of the same mapping."""
    import yaml

    count = 0
    stack = [node]
    seen_nodes: set[int] = set()  # an alias makes the tree a graph, maybe with cycles
    while stack:
        current = stack.pop()
        if id(current) in seen_nodes:
            continue
        seen_nodes.add(id(current))
        if isinstance(current, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in current.value:
                name = str(key.value)
                count += name in seen
                seen.add(name)
                stack.append(value)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
    return count


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
    newline_cr = _cr(lines[0])
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
    match = re.match(_VALUE, lines[parent_line])
    own = match.group("value").strip() if match is not None else "?"
    first = next(
        (text for text in (line.strip() for line in lines[parent_line + 1 : stop]) if text), ""
    )
    if own or first == "-" or first.startswith("- "):
        raise GoalFileInvalid(
            f"frontmatter `{parent}` is not a mapping, so `{parent}.{child}` cannot be set",
            line=parent_line + 1,
            again=f"once `{parent}:` is written with one `  KEY: value` line per entry under it",
        )


def _replace_value(line: str, rendered: str) -> str:
    """The line with its value replaced; the comment stays in its column when there is room."""
    match = re.match(_VALUE, line)
    if match is None:
        head, cr = line.split(":", 1)[0], line[len(line.rstrip("\r")) :]
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

    match = re.match(_VALUE, line)
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
        (r"^[ \t]+" if nested else r"^") + re.escape(key) + r"[ \t]*:(?:[ \t]|\r*$)"
    )
    found = None  # the last one: YAML reads the last of keys written twice
    for index in range(start, stop):
        if pattern.match(lines[index]):
            found = index
    return found


def remove_key(text: str, key: str) -> str:
    """Remove a top-level frontmatter key written on one line (used when a blocker is resolved)."""
    cut = _after_frontmatter(text)
    head = text[:cut]
    edited = _remove_key(head, key)
    _require_only(head, edited, key, _REMOVED)
    return ledger.spliced(text, _with_head(text, head, edited), 0, len(text) - cut)


def _remove_key(text: str, key: str) -> str:
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
    cr = _cr(lines[0])
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
        added = f"\n{cr}\n{body}\n"
        if content == len(text) - 1 and text.endswith("\n"):  # a slice of the text is a copy
            return ledger.spliced(text, text + added[1:], content, 0)
        return ledger.spliced(text, _prefix_and(text, content, added), content, 0)
    added = f"\n{cr}\n{body}\n{cr}\n{text[end:]}"
    return ledger.spliced(text, _prefix_and(text, content, added), content, len(text) - end)


def _prefix_and(text: str, cut: int, added: str) -> str:
    """``text[:cut] + added``, copying the text once. The slice would be a string of its own
    (a fresh buffer of the ledger's size) before the join copied it again; ``str.format``
    writes the first ``cut`` characters (the precision, in characters) straight into the
    string it builds, as an f-string does not (it cuts them into a string first). For a 4 MB
    ledger: 1,015 page faults and 2.1 ms of CPU, where the slice and the join took 1,215 and
    3.1 ms."""
    return "{:.{}}{}".format(text, cut, added)


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


def _lint_first(path: str) -> str:
    from goalfile.shellword import shell_word

    return f"`goalfile lint {shell_word(path)}`, fix what it reports, and run the command again"


def check_written(before: Goal, after: str) -> Goal:
    """Refuse to write ``after`` unless it reads back as the same goal with the edits made;
    the goal it reads back as.

    Every write re-reads its result: it must still be a goal file, keep every criterion as it
    was, and hold no more ``## Iterations`` sections than before (an edit that did not find
    the ledger would start a second one)."""
    nothing = "nothing was written"
    try:
        written = parse_goal(after, path=before.path)
    except GoalfileError as exc:
        raise GoalFileInvalid(
            f"the edit would leave a file that is not a goal file ({exc.message}); {nothing}",
            file=before.path,
            line=exc.line,
            hint=_lint_first(before.path),
        ) from None
    if _rows(written) != _rows(before):
        raise GoalFileInvalid(
            f"the edit would change the acceptance criteria as read back; {nothing}",
            file=before.path,
            hint=_lint_first(before.path),
        )
    ledgers = [s.line for s in written.sections if s.key == "iterations"]
    if len(ledgers) > max(1, sum(s.key == "iterations" for s in before.sections)):
        raise GoalFileInvalid(
            f"the edit would write a second `## Iterations` section (line {ledgers[-1]}): the "
            f"file's line endings or headings hide the ledger from a line edit; {nothing}",
            file=before.path,
            line=next((s.line for s in before.sections if s.key == "iterations"), None),
            again="once the file has LF or CRLF line endings and its `## Iterations` heading on "
            "a line of its own",
        )
    return written


def _rows(goal: Goal) -> list[tuple[object, ...]]:
    return [(c.id, c.check, c.expected, c.kind, c.timeout, c.cells) for c in goal.criteria]


def with_hook_note(text: str, *, iteration: int, today: str, by: str, note: str, why: str) -> str:
    """``text`` with an entry of the Stop hook's appended to ``## Iterations``: one line,
    ``note`` and then ``why`` (made one line of Markdown text, shown as given)."""
    line = f"{note} " + ledger.md_text(ledger.clean_line(why), before=" ")
    entry = Entry(iteration=iteration, date=today, by=by, notes=(line,))
    return append_to_section(text, "Iterations", ledger.render_entry(entry))
