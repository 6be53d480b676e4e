"""Raw HTML that reaches further on a GitHub page than in goalfile's reading of the Markdown
(lint's ``rendered-differs`` and ``hidden-markup``, over the whole body, the ledger included).

goalfile reads the body with markdown-it (CommonMark 0.31), GitHub with cmark-gfm and then a
browser's HTML parser. Three things gave a reviewer one contract on GitHub and goalfile another,
with every other rule satisfied:

- A line that is a lone tag (``<br>``, ``</span>``, ``<x-y>``: CommonMark's seventh kind of HTML
  block, which cannot interrupt a paragraph) right under a list item or a block quote, not
  indented into it. markdown-it reads it as the paragraph's lazy continuation, cmark-gfm opens an
  HTML block there, which runs to the next blank line. With ``See below. <!--`` on the line
  after, GitHub's page opened a comment that ran on to the next ``-->`` of the file (in ``##
  Plan``) and hid the criteria section and table that goalfile ran (``true``), under a decoy
  list: lint said ok.
- The same line right under a link reference or footnote definition: cmark-gfm reads the line
  as the definition's paragraph going on, markdown-it opens an HTML block, so goalfile skipped a
  ``## Acceptance criteria`` heading and a decoy table (``pytest -q tests``) that GitHub showed.
  An indented line there is code for goalfile and text for GitHub the same way; the line under
  an empty footnote (``[^ci]:``) is a link's address for goalfile and a block for GitHub; and a
  lone tag under a table's rows is a row for goalfile and the end of the table for GitHub.
- An HTML block both readers see that leaves a comment (``<!--`` with no ``-->``), a tag (an
  open quote, no ``>``) or a raw-text element (``<noscript>``, ``<template>``, ...) open at its
  end: Markdown ends the block at a blank line, a browser reads on to the comment's end, hiding
  every heading, table and entry on the way (``<div>`` over ``x <!--`` in the end state hid the
  rest of the goal up to a ``<!-- -->`` in ``## Plan``).

Pure: a :class:`Goal` in, findings out. The body is parsed only when a line outside fenced
blocks starts with ``<`` or follows a definition, which a goal as goalfile and mdformat write it
never has."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from goalfile import ledger
from goalfile.model import Finding, Goal, Severity
from goalfile.parse import ledger_region, markdown
from goalfile.prose import inline_code
from goalfile.shellword import sed_command

# a line that may open an HTML block, after blanks and container markers (as gfmblocks has it)
_HTML_LINE = re.compile(r"^ {0,3}(?:(?:>|[-+*]|[0-9]{1,9}[.)])[ \t]*)*<", re.MULTILINE)
# a line that starts a link reference or footnote definition (cmark-gfm: a paragraph's start)
_DEFINITION = re.compile(r"^ {0,3}(?:(?:>|[-+*]|[0-9]{1,9}[.)])[ \t]*)*\[[^\]\n]+\]:", re.MULTILINE)
# a footnote definition with nothing after its colon: markdown-it reads the next line as the
# address of a link reference definition of that label, cmark-gfm the line as an empty footnote
_EMPTY_FOOTNOTE = re.compile(r" {0,3}(?:(?:>|[-+*]|[0-9]{1,9}[.)])[ \t]*)*\[\^[^\]\s]+\]:[ \t]*$")
_CONTAINER_PREFIX = re.compile(r"(?:[ \t]*(?:>|[-+*](?=[ \t]|$)|[0-9]{1,9}[.)](?=[ \t]|$)))*[ \t]*")
# kinds 1 to 6 of CommonMark's HTML blocks (either version's tag list): they interrupt a
# paragraph in both readers; what is left of a tag alone on its line is kind 7
_INTERRUPTS = re.compile(
    r" {0,3}(?:<(?i:script|pre|style|textarea)(?:\s|>|$)|<!--|<\?|<![A-Za-z]|<!\[CDATA\[|</?(?i:"
    r"address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|"
    r"details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|"
    r"h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|"
    r"optgroup|option|p|param|search|section|source|summary|table|tbody|td|tfoot|th|thead|"
    r"title|tr|track|ul)(?:\s|/?>|$))"
)
_ATTRIBUTE = r"""(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^"'=<>`\s]+|'[^']*'|"[^"]*"))?)"""
_LONE_TAG = re.compile(
    rf" {{0,3}}(?:<[A-Za-z][A-Za-z0-9-]*{_ATTRIBUTE}*\s*/?>|</[A-Za-z][A-Za-z0-9-]*\s*>)\s*$"
)
# elements whose text a browser does not show as Markdown's blocks: raw text up to the end tag
_RAW_TEXT = (
    "script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title",
    "plaintext", "template", "select", "object", "audio", "video",
)  # fmt: skip
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*")


def findings(goal: Goal) -> list[Finding]:
    """One error for each line that starts an HTML block (or code) for one reader only, and
    for each HTML block that leaves a comment, a tag or a raw-text element open at its end."""
    text = goal.text
    body = _body_offset(text, goal.frontmatter_end)
    if not _candidate(text, body):
        return []
    lines = text[body:].split("\n")
    source = "\n".join(line.rstrip("\r") for line in lines)
    first = goal.frontmatter_end + 1  # the 1-based number of the body's first line
    region = ledger_region(text)
    ledger_from = text.count("\n", 0, region[0]) + 1 if region is not None else None
    tokens, rows = markdown().parse(source), source.split("\n")
    said: list[tuple[int, str, str]] = []  # (index of the line, code, what the line does)
    for index, what in _differing_lines(tokens, rows):
        said.append(
            (
                index,
                "rendered-differs",
                f"{what}: the lines under it, up to the next blank line, are raw HTML or text in "
                "one view and Markdown in the other (a `<!--` there hides all up to the next "
                "`-->` on GitHub), so GitHub can show a reviewer other criteria or entries than "
                "goalfile reads",
            )
        )
    for index, left, block in _open_blocks(tokens, rows):
        said.append(
            (
                index,
                "hidden-markup",
                f"leaves {left} open at the end of its {block}: Markdown ends the {block} at "
                "the next blank line, but a browser (GitHub's page) reads on, and hides the "
                "headings, criteria and entries after it that goalfile reads",
            )
        )
    said.sort(key=lambda found: found[0])
    shown = {index: inline_code(lines[index].rstrip("\r").strip()) for index, _, _ in said}
    return [
        Finding(
            severity=Severity.ERROR,
            line=first + index,
            column=None,
            code=code,
            message=f"the line {shown[index]} {what}",
            hint=_delete(goal, first + index, ledger_from),
        )
        for index, code, what in said
    ]


def _delete(goal: Goal, number: int, ledger_from: int | None) -> str:
    fix = f"delete the line: {sed_command(goal.path, [f'{number}d'])}"
    if ledger_from is not None and number >= ledger_from:
        fix += (
            "; then commit the file where HEAD's copy holds the line (until a commit holds its "
            "removal, the Stop hook holds an agent on the committed entry it changes)"
        )
    return fix


def _body_offset(text: str, frontmatter_end: int) -> int:
    """The offset of the body's first line (the line after the frontmatter's ``---``)."""
    at = 0
    for _ in range(frontmatter_end):
        at = text.find("\n", at) + 1
        if at == 0:
            return len(text)
    return at


def _candidate(text: str, body: int) -> bool:
    """Whether a line of the body outside fenced blocks starts with ``<`` or a definition
    (the only lines the rules below can report)."""
    fences: tuple[tuple[int, int], ...] | None = None
    for pattern in (_HTML_LINE, _DEFINITION):
        for found in pattern.finditer(text, body):
            fences = ledger.fenced_spans(text) if fences is None else fences
            if not ledger.in_spans(fences, found.start()):
                return True
    return False


def _differing_lines(tokens: Sequence[object], lines: Sequence[str]) -> Iterator[tuple[int, str]]:
    """``(0-based line, what it starts)`` for each line that starts a block for cmark-gfm and
    continues a paragraph for markdown-it, or the reverse."""
    leaves: set[int] = set()  # lines a leaf block (not a container) of markdown-it holds
    containers: list[str] = []
    for token in tokens:
        kind = getattr(token, "type", "")
        where = getattr(token, "map", None)
        if kind in ("bullet_list_open", "ordered_list_open", "list_item_open", "blockquote_open"):
            containers.append(kind)
            continue
        if kind in (
            "bullet_list_close",
            "ordered_list_close",
            "list_item_close",
            "blockquote_close",
        ):
            containers.pop()
            continue
        if where is None or getattr(token, "nesting", 0) == -1:
            continue
        leaves.update(range(where[0], where[1]))
        if kind == "table_open":
            for index in range(where[0] + 2, where[1]):  # past the header and delimiter rows
                if _LONE_TAG.match(lines[index]) and not _INTERRUPTS.match(lines[index]):
                    yield (
                        index,
                        (
                            "is a row of the table above it for goalfile but ends that table and "
                            "opens an HTML block for GitHub (cmark-gfm)"
                        ),
                    )
                    break  # GitHub ends the table there: the lines under it are HTML
        if kind == "paragraph_open" and (
            "list_item_open" in containers or "blockquote_open" in containers
        ):
            yield from _lazy_tags(lines, where[0], where[1], containers)
    for index, line in enumerate(lines[:-1]):
        below = lines[index + 1]
        if index in leaves or index + 1 in leaves or not below.strip():
            continue
        if _EMPTY_FOOTNOTE.match(line):
            yield (
                index + 1,
                "is the address of the link reference definition above it for goalfile but a "
                "block of its own for GitHub (cmark-gfm), which reads the line above as an "
                "empty footnote",
            )
    for token in tokens:
        kind = getattr(token, "type", "")
        where = getattr(token, "map", None)
        if kind not in ("html_block", "code_block") or where is None or where[0] == 0:
            continue
        above = where[0] - 1
        if above in leaves or not _CONTAINER_PREFIX.sub("", lines[above], count=1).strip():
            continue  # a block's line, or blank: the line above ends no definition
        if not _DEFINITION.match(_definition_start(lines, above, leaves)):
            continue
        line = lines[where[0]]
        if kind == "code_block":
            yield (
                where[0],
                (
                    "is code for goalfile but text for GitHub (cmark-gfm), which reads the "
                    "definition right above it as the start of a paragraph the line goes on with"
                ),
            )
        elif _LONE_TAG.match(line) and not _INTERRUPTS.match(line):
            yield (
                where[0],
                (
                    "opens an HTML block for goalfile but is text for GitHub (cmark-gfm), which "
                    "reads the definition right above it as the start of a paragraph the line goes "
                    "on with"
                ),
            )


def _definition_start(lines: Sequence[str], above: int, leaves: set[int]) -> str:
    """The first line of the run of lines no leaf block holds that ends at ``above`` (a link
    reference definition may take three lines: label, address, title)."""
    start = above
    while start > 0 and start - 1 not in leaves and lines[start - 1].strip():
        start -= 1
    return lines[start]


def _lazy_tags(
    lines: Sequence[str], start: int, end: int, containers: Sequence[str]
) -> Iterator[tuple[int, str]]:
    """The lines of a paragraph in a list item or block quote (lines ``start`` to ``end``) after
    its first that are a lone tag not indented into the container: markdown-it reads them as
    the paragraph's lazy continuation, cmark-gfm opens an HTML block of kind 7 there."""
    quoted = "blockquote_open" in containers
    head = lines[start].expandtabs(4)
    prefix = _CONTAINER_PREFIX.match(head)
    content = prefix.end() if prefix is not None else 0
    for index in range(start + 1, end):
        line = lines[index]
        if not _LONE_TAG.match(line) or _INTERRUPTS.match(line):
            continue
        indent = len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))
        if quoted or indent < content:
            yield (
                index,
                (
                    "goes on with the paragraph above for goalfile but opens an HTML block for "
                    "GitHub (cmark-gfm), which takes no such tag as a lazy line of a list item or "
                    "block quote"
                ),
            )


def _open_blocks(tokens: Sequence[object], lines: Sequence[str]) -> Iterator[tuple[int, str, str]]:
    """``(0-based line, what is left open)`` for each HTML block that leaves a comment, a tag or
    a raw-text element open at its end, naming the line where it opens."""
    for token in tokens:
        where = getattr(token, "map", None)
        kind = getattr(token, "type", "")
        if where is None or kind not in ("html_block", "inline"):
            continue
        if kind == "html_block":
            if not any(line.strip() for line in lines[where[1] :]):
                continue  # it runs to the end: Markdown hides what a browser hides
            raw = "\n".join(lines[where[0] : where[1]])
            left = left_open(raw)
            if left is not None:
                what, offset = left
                yield where[0] + raw.count("\n", 0, offset), what, "HTML block"
            continue
        # inline, each tag is whole: what is left open is an element (`<select>` in a line)
        tags = [
            c.content for c in getattr(token, "children", None) or [] if c.type == "html_inline"
        ]
        left = left_open("".join(tags)) if tags else None
        if left is None:
            continue
        what, offset = left
        for tag in tags:
            if offset < len(tag):
                break
            offset -= len(tag)
        at = next((n for n in range(where[0], where[1]) if tag in lines[n]), where[0])
        yield at, what, "paragraph"


def left_open(html: str) -> tuple[str, int] | None:
    """What an HTML5 tokenizer still has open at the end of ``html`` (a comment, a tag, a
    raw-text element) and the offset where it opened; None when it ends in text. Errs towards
    "open": a construct this reading does not know is taken as left open."""
    at = 0
    while True:
        at = html.find("<", at)
        if at < 0:
            return None
        start = at
        if html.startswith("<!--", at):
            if html.startswith(("<!-->", "<!--->"), at):
                at += 5 if html.startswith("<!-->", at) else 6
                continue
            end = html.find("-->", at + 4)
            end_bang = html.find("--!>", at + 4)
            ends = [e for e in (end, end_bang) if e >= 0]
            if not ends:
                return "a comment (`<!--` with no `-->`)", start
            first_end = min(ends)
            at = first_end + (3 if first_end == end else 4)
            continue
        if html.startswith(("<!", "<?"), at) or (
            html.startswith("</", at) and not _TAG_NAME.match(html, at + 2)
        ):
            end = html.find(">", at + 2)
            if end < 0:
                return f"a declaration ({inline_code(html[at : at + 2])} with no `>`)", start
            at = end + 1
            continue
        closing = html.startswith("</", at)
        name = _TAG_NAME.match(html, at + (2 if closing else 1))
        if name is None:
            at += 1
            continue
        ended = _tag_end(html, name.end())
        if ended is None:
            return f"a tag ({inline_code('<' + name.group(0))} with no `>` after its quotes)", start
        at = ended
        tag = name.group(0).lower()
        if not closing and tag in _RAW_TEXT:
            if tag == "plaintext":
                return "a `<plaintext>` element", start
            close = re.compile(rf"</{tag}(?=[\s/>])", re.IGNORECASE).search(html, at)
            if close is None:
                return (
                    f"a `<{tag}>` element (no `</{tag}>`)",
                    start,
                )
            at = close.start() + 2


def _tag_end(html: str, at: int) -> int | None:
    """The offset after the ``>`` that ends a tag whose name ends at ``at`` (a quoted value
    skipped, as a browser reads it); None when the text ends first."""
    index = at
    size = len(html)
    while index < size:
        char = html[index]
        if char == ">":
            return index + 1
        index += 1
        if char != "=":
            continue
        while index < size and html[index] in " \t\n\r\f":
            index += 1
        if index < size and html[index] in "\"'":
            close = html.find(html[index], index + 1)
            if close < 0:
                return None
            index = close + 1
    return None
