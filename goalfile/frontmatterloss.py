"""A goal file whose frontmatter a Markdown formatter rewrote as Markdown.

A formatter that does not know YAML frontmatter (mdformat without mdformat-frontmatter) reads
the opening `---` as a thematic break and the keys, with the closing `---` under them, as one
setext heading; it writes them back as a line of underscores and a `## slug: ... status: ...`
heading. The file then no longer starts with `---`, and saying only that leaves the cause and
the way back unnamed.
"""

from __future__ import annotations

import re

from goalfile.shellword import shell_word

_BREAK_RE = re.compile(r"^ {0,3}(?:_[ \t]*){3,}$|^ {0,3}(?:\*[ \t]*){3,}$")
_KEYS_RE = re.compile(r"^ {0,3}#{1,6}[ \t]+.*\b(?:slug|status|created|budget)[ \t]*:")


def formatted_frontmatter(text: str, path: str) -> tuple[str, str] | None:
    """The message and fix for a file that starts as a formatter leaves such frontmatter; None
    for any other file."""
    lines = [line.rstrip("\r") for line in text.split("\n", 8)[:8]]
    shown = [line for line in lines if line.strip()]
    if len(shown) < 2 or not _BREAK_RE.match(shown[0]) or not _KEYS_RE.match(shown[1]):
        return None
    return (
        "the file does not start with YAML frontmatter: a Markdown formatter that does not "
        "know frontmatter rewrote it (the `---` lines became a line of `_` and a heading "
        "holding the keys), as mdformat does without the mdformat-frontmatter plugin",
        f"put the file back as it was committed (`git checkout -- {shell_word(path)}`), then "
        "give the formatter the plugin (`pip install mdformat-frontmatter`, or add "
        "mdformat-frontmatter to the pre-commit hook's additional_dependencies)",
    )
