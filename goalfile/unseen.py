"""Text that reads otherwise than it runs: characters a reader of the contract cannot see as
they are (pure functions; :mod:`goalfile.lint` turns them into findings).

An approved contract is what a person read. ``stdout lacks "ERR\\u200bOR"`` (a zero-width
space) and ``stdout lacks "\\u0415RROR"`` (a Cyrillic capital Ie) both show as
``lacks "ERROR"`` and can never fail on ``ERROR``. So:

* an **invisible character** is one of Unicode category Cf (format: zero-width space and
  joiners, word joiner, byte-order mark, soft hyphen, bidirectional controls, tag
  characters), Zl or Zp (line and paragraph separators), a space other than the ASCII space
  (Zs: no-break, figure, ideographic spaces... they show as a space and are not one to a
  shell), a control character other than tab (Cc), or one of a few letters and marks that
  show as nothing (:data:`_BLANKS`: Hangul fillers, the combining grapheme joiner, variation
  selectors, the Braille blank);
* a **look-alike word** is a word (a run of letters and digits) that mixes Latin letters
  with Cyrillic or Greek ones, where the letters of the script it has fewer of look like
  letters of the other: a Cyrillic or Greek letter that looks like a Latin one in a mostly
  Latin word (``ЕRROR``, ``ЕRR0R``), a Latin letter that looks like a Cyrillic or Greek one
  in a mostly Cyrillic or Greek word (``Привeт``); and a word that holds an ASCII letter or
  digit and a character that Unicode's compatibility mapping turns into ASCII letters or
  digits drawn alike (fullwidth ``Ｅ`` and ``１``, mathematical ``𝖤``, the ligature ``ﬁ``,
  the Roman numeral ``Ⅻ``; not ``²`` or ``ⓐ``). A whole word in Cyrillic or Greek is never
  reported, nor a word whose other-script letters look like no Latin one (``Δt``);
* a **composed look-alike** is a character that Unicode's canonical composition (NFC) writes
  otherwise: a letter followed by a combining mark that composes with it (``e`` + U+0301 shows
  as ``é`` and is not U+00E9: file names are bytes, so ``données`` spelled so names another
  folder), or a character with a one-character canonical mapping (U+037E GREEK QUESTION MARK
  shows as ``;``, U+212A KELVIN SIGN as ``K``); and, with ``punctuation``, a fullwidth or other
  compatibility form of ASCII punctuation (``｜`` for ``|``, ``；`` for ``;``), which a shell takes
  as a plain character where a reader sees the operator.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_BLANKS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)
"""Letters and marks of other categories that show as nothing (or as a blank)."""

# Cyrillic and Greek letters that look like a Latin letter in common fonts.
_LOOKS_LATIN = frozenset(
    "АВЕЅІЈКМНОРСТХУаеорсухіјѕԁԛԝһӏѵҮ"  # Cyrillic
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧονριϲϳ"  # Greek
)
# Latin letters that look like a Cyrillic or Greek letter.
_LOOKS_CYRILLIC = frozenset("ABCEHKMOPTXYaceopxyijsSIJ")
_LOOKS_GREEK = frozenset("ABEHIKMNOPTXYZovpi")

_WORD = re.compile(r"[^\W_]+")  # letters and digits: `ЕRR0R` is one word, `a_Б` two
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


@dataclass(frozen=True, kw_only=True)
class Unseen:
    """One finding in a text: where it starts, and what it is."""

    offset: int
    text: str  # the character, or the word
    what: str  # "U+200B ZERO WIDTH SPACE" or "the word `ЕRROR` mixes ... (Е is U+0415 ...)"
    invisible: bool  # an invisible character, else a look-alike word or character
    composed: str = ""  # what a composed look-alike shows as, written as one character


def describe(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE``."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def is_invisible(char: str) -> bool:
    if char.isascii():
        return (char < " " and char != "\t") or char == "\x7f"
    category = unicodedata.category(char)
    return category in ("Cf", "Zl", "Zp", "Zs", "Cc") or char in _BLANKS


def shown(text: str) -> str:
    """The text with each invisible character written ``<U+200B>``, as a message shows it."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(f"<U+{ord(c):04X}>" if is_invisible(c) else c for c in text)


def find(text: str, *, words: bool = True, punctuation: bool = False) -> list[Unseen]:
    """Every invisible character of ``text``, then every composed look-alike (with
    ``punctuation``, fullwidth punctuation too), then (with ``words``) every look-alike word."""
    if text.isascii() and text.isprintable():
        return []
    found = [
        Unseen(offset=i, text=c, what=describe(c), invisible=True)
        for i, c in enumerate(text)
        if is_invisible(c)
    ]
    found.extend(_composed(text, punctuation=punctuation))
    if words:
        for word in _WORD.finditer(text):
            odd = _odd_letters(word.group())
            if odd:
                letters = "look-alike letters: " + ", ".join(f"{c} is {describe(c)}" for c in odd)
                found.append(
                    Unseen(
                        offset=word.start(),
                        text=word.group(),
                        what=f"the word `{word.group()}`, which mixes {letters}",
                        invisible=False,
                    )
                )
    return found


def _composed(text: str, *, punctuation: bool) -> list[Unseen]:
    """The composed look-alikes of ``text`` (see the module's note), in order."""
    if unicodedata.is_normalized("NFC", text) and not punctuation:
        return []
    found = []
    for i, char in enumerate(text):
        if char.isascii():
            continue
        if unicodedata.combining(char) and i > 0:
            pair = text[i - 1 : i + 1]
            shows = unicodedata.normalize("NFC", pair)
            if len(shows) == 1:
                what = f"{text[i - 1]} followed by {describe(char)}, which shows as {shows} "
                found.append(_alike(i - 1, pair, what, shows))
            continue
        shows = unicodedata.normalize("NFC", char)
        if shows == char and punctuation and _punctuation_form(char) and not _in_words(text, i):
            shows = unicodedata.normalize("NFKC", char)
        if shows != char:
            found.append(_alike(i, char, f"{describe(char)}, which shows as {shows} ", shows))
    return found


def _alike(offset: int, text: str, what: str, shows: str) -> Unseen:
    plain = "".join(f"U+{ord(c):04X}" for c in shows)
    return Unseen(
        offset=offset, text=text, what=f"{what}({plain})", invisible=False, composed=shows
    )


def _in_words(text: str, i: int) -> bool:
    """Whether the character at ``i`` stands next to a letter outside ASCII (``完了：`` is
    Japanese written as it is written, not an operator in disguise)."""
    around = text[max(i - 1, 0) : i] + text[i + 1 : i + 2]
    return any(c.isalpha() and not c.isascii() for c in around)


def _punctuation_form(char: str) -> bool:
    """A fullwidth, halfwidth or small form of ASCII punctuation (``｜``, ``；``, ``﹠``)."""
    if not unicodedata.decomposition(char).startswith(("<wide>", "<narrow>", "<small>")):
        return False
    folded = unicodedata.normalize("NFKC", char)
    return folded.isascii() and not folded.isalnum() and folded.isprintable()


_POSING = ("<font>", "<wide>", "<compat>")
"""Compatibility mappings of letters drawn like their target (mathematical and fullwidth
letters, ligatures, Roman numerals); not superscripts, subscripts or circled letters, which
look different (``m²`` is a fine word)."""


def _poses_as_ascii(char: str) -> bool:
    """A letter or digit that Unicode maps to ASCII letters or digits, drawn alike."""
    if not unicodedata.decomposition(char).startswith(_POSING):
        return False
    folded = unicodedata.normalize("NFKC", char)
    return folded.isascii() and folded.isalnum()


def _script(char: str) -> str:
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0]
    return first if first in _SCRIPTS else ""


def _odd_letters(word: str) -> list[str]:
    """The letters that make ``word`` a look-alike word (empty when it is not one)."""
    if word.isascii():
        return []
    if any(c.isascii() and c.isalnum() for c in word):
        compat = [c for c in word if not c.isascii() and _poses_as_ascii(c)]
        if compat:
            return compat
    scripts = [(c, _script(c)) for c in word if c.isalpha()]
    latin = [c for c, s in scripts if s == "LATIN"]
    other = [(c, s) for c, s in scripts if s in ("CYRILLIC", "GREEK")]
    if not latin or not other:
        return []
    if len(latin) >= len(other):  # mostly Latin: a Cyrillic or Greek letter posing as one
        return [c for c, _ in other if c in _LOOKS_LATIN]
    main = {s for _, s in other}  # mostly Cyrillic or Greek: a Latin letter posing as one
    looks = (_LOOKS_CYRILLIC if "CYRILLIC" in main else frozenset()) | (
        _LOOKS_GREEK if "GREEK" in main else frozenset()
    )
    return [c for c in latin if c in looks]
