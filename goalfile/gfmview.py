"""What a GitHub view shows of a criteria cell, against what goalfile reads from it.

goalfile reads a deterministic row's ``check`` and ``expected`` as Markdown shows them
(CommonMark with GFM tables, the link references defined anywhere outside the ledger). GitHub
renders two things more: GFM strikethrough (``~~text~~`` and ``~text~``, drawn struck out, read
as deleted), and link references defined inside the ledger, which goalfile never parses. A
cell whose GitHub view differs from goalfile's reading is a lint error (``rendered-differs``):
a reader approves one command and goalfile runs another. Pure: text in, difference out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from goalfile import parse

if TYPE_CHECKING:
    from markdown_it.token import Token

    from goalfile.gfmdifference import Difference

_TARGET: Mapping[str, str] = {"href": "#", "title": ""}


def difference(cell: str, labels: Iterable[str], ledger: Iterable[str] = ()) -> Difference | None:
    """How GitHub's view of ``cell`` differs from goalfile's reading of it, or None when it
    does not (a cell that is one code span is shown as written by both). ``labels`` are the
    link reference labels goalfile reads cells with, ``ledger`` those a definition in the
    ledger may add for GitHub."""
    if "~" not in cell and "[" not in cell:
        return None  # neither strikethrough nor a link can start
    known = set(labels)
    read, is_code = parse.read_cell(cell, _references(known))
    if is_code:
        return None
    token: Token = _gfm().parseInline(cell, _references(known | set(ledger)))[0]
    shown = parse.rendered(token).strip()
    struck = tuple(_struck(token))
    if not struck and shown == read.strip():
        return None
    from goalfile.gfmdifference import Difference

    return Difference(read=read.strip(), shown=shown, struck=struck)


def _references(labels: set[str]) -> dict[str, Any]:
    return {"references": dict.fromkeys(labels, _TARGET)} if labels else {}


def _struck(token: Token) -> Iterable[str]:
    """The texts between each ``s_open`` and its ``s_close``."""
    depth = 0
    piece: list[str] = []
    for child in token.children or []:
        if child.type == "s_open":
            depth += 1
        elif child.type == "s_close":
            depth -= 1
            if depth == 0:
                text = "".join(piece).strip()
                piece = []
                if text:
                    yield text
        elif depth:
            piece.append(child.content)


_GFM: Any = None


def _gfm() -> Any:
    """CommonMark with GFM strikethrough as GitHub reads it: one or two tildes."""
    global _GFM
    if _GFM is None:
        from markdown_it import MarkdownIt

        _GFM = MarkdownIt("commonmark", {"strikethrough_single_tilde": True}).enable(
            ["table", "strikethrough"]
        )
    return _GFM


# a `]:` after the `[` that starts a line, or a line's container marks (`>`, a list item's
# bullet or number) and up to three spaces: where a link reference definition can start
_DEFINITION_START = re.compile(r"(?:[ ]{0,3}(?:>|[-*+]|\d{1,9}[.)])[ ]?)*[ ]{0,3}\[")


def ledger_labels(text: str) -> frozenset[str]:
    """The labels a link reference definition inside the ledger (``## Iterations``) may
    define for a Markdown view: each ``[LABEL]:`` whose ``[`` starts a line (after a quote's
    ``>``, a list item's bullet and up to three spaces). goalfile never parses the ledger, and
    writes no line there that starts so; a label found in a fenced block is counted too, so a
    cell that uses it is reported rather than missed."""
    region = parse.ledger_region(text)
    if region is None:
        return frozenset()
    start, end = region
    found: set[str] = set()
    at = text.find("]:", start, end)
    while at >= 0:
        line_start = text.rfind("\n", start, at) + 1 or start
        opened = text.rfind("[", line_start, at)
        while opened >= 0:
            if _DEFINITION_START.fullmatch(text, line_start, opened + 1):
                found.add(_normal(text[opened + 1 : at]))
                break
            opened = text.rfind("[", line_start, opened)
        if opened < 0 and text.rfind("\n", start, line_start - 1) >= 0:
            # a label may run over lines: the `[` of the line before
            before = text.rfind("\n", start, line_start - 1) + 1
            opened = text.rfind("[", before, line_start)
            if opened >= 0 and _DEFINITION_START.fullmatch(text, before, opened + 1):
                found.add(_normal(text[opened + 1 : at]))
        at = text.find("]:", at + 2, end)
    return frozenset(found)


def _normal(label: str) -> str:
    from markdown_it.common.utils import normalizeReference

    return str(normalizeReference(label))
