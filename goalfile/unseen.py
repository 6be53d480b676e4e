"""Text that reads otherwise than it runs: characters a reader of the contract cannot see as
they are (pure functions; :mod:`goalfile.lint` turns them into findings).

An approved contract is what a person read. ``stdout lacks "ERR\\u200bOR"`` (a zero-width
space) and ``stdout lacks "\\u0415RROR"`` (a Cyrillic capital Ie) both show as
``lacks "ERROR"`` and can never fail on ``ERROR``. So:

* an **invisible character** is one of Unicode category Cf (format: zero-width space and
  joiners, word joiner, byte-order mark, soft hyphen, bidirectional controls, tag
  characters), Zl or Zp (line and paragraph separators), a space other than the ASCII space
  (Zs: no-break, figure, ideographic spaces... they show as a space and are not one to a
  shell), a control character other than tab (Cc), a default-ignorable code point
  (:data:`_IGNORABLE`: Hangul fillers, the combining grapheme joiner, variation selectors, and
  the unassigned U+2065 or U+E0FFF, all drawn as nothing), an unassigned (Cn), private-use
  (Co) or surrogate (Cs) code point, or one of a few others that show as nothing
  (:data:`_BLANKS`: the Braille blank, the Khitan filler);
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

_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, the same in Unicode 14 to
16): what a renderer that does not know the character must draw as nothing, unassigned code
points of these ranges included (U+2065, U+FFF0, U+E0FFF)."""

_BLANKS = frozenset("\u2800\U00016fe4\U0001d159")
"""Characters outside those ranges and categories that show as nothing or as a blank: the
Braille blank, U+16FE4 KHITAN SMALL SCRIPT FILLER, U+1D159 MUSICAL SYMBOL NULL NOTEHEAD."""

_UNSEEN_CATEGORIES = frozenset(("Cf", "Zl", "Zp", "Zs", "Cc", "Cn", "Co", "Cs"))
"""Format characters, separators, spaces, controls, and unassigned (Cn), private-use (Co) and
surrogate (Cs) code points, which a renderer shows as nothing, a box or a font's own glyph."""

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


_UNNAMED = {"Cc": "(control)", "Cn": "(unassigned)", "Co": "(private use)", "Cs": "(surrogate)"}


def describe(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE``."""
    name = unicodedata.name(char, "") or _UNNAMED.get(unicodedata.category(char), "(unnamed)")
    return f"U+{ord(char):04X} {name}"


def is_invisible(char: str) -> bool:
    if char.isascii():
        return (char < " " and char != "\t") or char == "\x7f"
    if unicodedata.category(char) in _UNSEEN_CATEGORIES or char in _BLANKS:
        return True
    code = ord(char)
    return any(first <= code <= last for first, last in _IGNORABLE)


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
