"""goalfile.commands.shellparts: a check read command by command as the shell reads it (pure
reading, plus a folder in tmp_path for `cd` and globs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from goalfile.commands.shellparts import lex, parts


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("make test # the suite", [["make", "test"]]),  # a comment is no word
        ("make a#b", [["make", "a#b"]]),  # `#` inside a word is the word's
        ("cd docs && make html", [["cd", "docs"], ["make", "html"]]),
        ("""sh -c 'a "b"' "c\\"d" e\\ f""", [["sh", "-c", 'a "b"', 'c"d', "e f"]]),
        ("a || b", None),  # another list: left alone
        ("a; b", None),
        ("echo $HOME", None),
        ('echo "$HOME"', None),
        ("a > out", None),
        ("~/bin/x", None),
        ("a && ", None),
        ("&& a", None),
        ("a 'open", None),
        ("a \\", None),
    ],
)
def test_lex(command: str, words: list[list[str]] | None) -> None:
    lexed = lex(command)
    assert (None if lexed is None else [[w for w, _ in c] for c in lexed]) == words


def test_parts_follow_cd_and_sh_c_and_expand_globs(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.rst").write_text("", encoding="utf-8")
    found = parts("sh -c 'cd docs && ls *.rst *.md' # note", tmp_path)
    assert found is not None
    [listing] = found
    assert listing.words == ["ls", "a.rst", "*.md"] and listing.folder == tmp_path / "docs"
    assert listing.moved and listing.unmatched == frozenset({"*.md"})
    gone = parts("cd nowhere && make", tmp_path)
    assert gone is not None and [p.gone_folder for p in gone] == ["nowhere"]
