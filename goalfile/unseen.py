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
* a **look-alike** is a character outside ASCII that Unicode's confusables (UTS #39: its
  skeleton, :mod:`goalfile.confusables`) or its compatibility mapping (fullwidth ``Ｅ``,
  mathematical ``𝖤``, the ligature ``ﬁ``) draw like ASCII, and a Latin small capital
  (``ʟ``): Cyrillic ``Е``, Lisu ``ꓡ``, Latin ``ǀ`` (a click letter) and ``ɡ``, the curly
  ``’``. A **look-alike word** (a run of
  letters and digits) is one that holds ASCII letters or digits and a look-alike
  (``FAIꓡED``, ``Тrасеbаск``, ``ЕRR0R``); one whose ASCII letters are fewer than its other
  letters and look like letters of their script (``Привeт``); and one written only in
  look-alikes (``ꓰꓣꓣꓳꓣ``, ``ΕΡΡΟΡ``) unless a real word of its script (one with a letter that
  looks like no ASCII, ``ошибка``) stands in the same phrase, or it is a Greek or Cyrillic word
  of one to three letters (``σ``, ``НЕТ``, ``ВСЕ ОК``). Latin letters with marks (``ö``, ``ř``,
  ``ư``, ``đ``) count as Latin, so ``được`` is no foreign word with ASCII intruders. A
  look-alike that is not a letter or digit (``’``, ``–``, ``×``; ``…`` in a command only: it
  takes one cell where ``...`` takes three) is reported unless, in a command (``punctuation``),
  it stands next to a letter outside ASCII and reads as no quote or operator, or, elsewhere, it
  stands in a phrase with a word outside ASCII (``Fehler – Größe``). A word in another
  script is not reported (``Привет``, ``Σφάλμα``), nor letters of living alphabets that
  Unicode lists but a reader sees as themselves (:data:`_OWN_LETTERS`);
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
from collections.abc import Iterable
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

_OWN_LETTERS = frozenset("\u00c6\u00e6\u0152\u0153\u0131")
"""Letters of living alphabets that Unicode's confusables map to ASCII but that a reader sees as
themselves: the ligatures Æ æ Œ œ (French, Danish, Norwegian: one letter where ``ae`` is two)
and the dotless ı of Turkish and Azerbaijani."""

_WORD = re.compile(r"[^\W_]+")  # letters and digits: `ЕRR0R` is one word, `a_Б` two
_BREAK = re.compile(r"[\"#$%&()*+/;<=>@\[\\\]^_`{|}~]")
"""ASCII punctuation that ends a phrase (a quoted text, a pattern's alternative, a clause): not
the space, ``,``, ``.``, ``:``, ``!``, ``?``, ``'`` or ``-`` that sentences hold."""


@dataclass(frozen=True, kw_only=True)
class Unseen:
    """One finding in a text: where it starts, and what it is."""

    offset: int
    text: str  # the character, or the word
    what: str  # "U+200B ZERO WIDTH SPACE" or "the word `ЕRROR` mixes ... (Е is U+0415 ...)"
    invisible: bool  # an invisible character, else a look-alike word or character
    composed: str = ""  # what a composed look-alike shows as, written as one character
    reads: str = ""  # the ASCII a look-alike word or character reads as, when there is one


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
    ``punctuation``, fullwidth punctuation too), then (with ``words``) every look-alike word
    and every look-alike that is not a letter or digit."""
    if text.isascii() and text.isprintable():
        return []
    found = [
        Unseen(offset=i, text=c, what=describe(c), invisible=True)
        for i, c in enumerate(text)
        if is_invisible(c)
    ]
    found.extend(_composed(text, punctuation=punctuation))
    found.extend(_stray_marks(text))
    if words:
        found.extend(_look_alike_words(text))
        found.extend(_look_alike_marks(text, punctuation=punctuation))
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


_DOTLESS = {"\u0131": "i", "\u0237": "j"}
"""Dotless letters that a mark above draws as the ASCII letter: ı + U+0307 is an i."""


def _stray_marks(text: str) -> list[Unseen]:
    """A combining mark that composes with nothing, right after an ASCII letter or digit or a
    dotless ı or ȷ: ``fa`` + ı + U+0307 + ``led`` draws as ``failed`` and ``Fai`` + U+0307 +
    ``led`` nearly so (the dot merges with the i's), while goalfile looks for those code points,
    which no run prints. NFC leaves such a pair as it is, so :func:`_composed` does not see it.
    A mark on a letter or digit that stands alone in its word (``x̄``, a mean; ``p̂``) shows as a
    symbol of its own and is let be (:func:`_symbol`), unless it is a dot above on i or j (which
    merges with the letter's own dot) or it sits on a dotless ı or ȷ."""
    found = []
    word = (0, False)  # the end of the word last looked at, and whether it is a symbol
    for i in range(1, len(text)):
        char, base = text[i], text[i - 1]
        if char.isascii() or (
            not unicodedata.combining(char) and unicodedata.category(char) != "Me"
        ):
            continue
        reads = _DOTLESS.get(base) or (base if base.isascii() and base.isalnum() else "")
        if not reads or len(unicodedata.normalize("NFC", base + char)) == 1:
            continue  # after another letter, or composed (reported by _composed)
        if not (base in _DOTLESS or (base in "ij" and char == "\u0307")):
            if i - 1 >= word[0]:  # each word is looked at once: a long one of marks is not slow
                word = _symbol(text, i - 1)
            if word[1]:
                continue  # x̄, p̂, v⃗: a letter of its own with a mark that shows, as statistics print
        what = (
            f"{base} followed by {describe(char)}, a mark that composes with no letter: it "
            f"draws as {reads} with a mark, or as {reads}"
        )
        found.append(
            Unseen(offset=i - 1, text=base + char, what=what, invisible=False, reads=reads)
        )
    return found


def _symbol(text: str, at: int) -> tuple[int, bool]:
    """The end of the word (ASCII letters and digits, and marks) that holds the ASCII letter or
    digit at ``at``, and whether that letter stands alone in it, with only marks next to it:
    ``x̄`` is a symbol drawn with its mark (a mean), where in ``FAIL̲ED`` the mark hides in a
    word that reads as ASCII."""

    def joined(char: str) -> bool:
        return (char.isascii() and char.isalnum()) or bool(unicodedata.combining(char))

    start = at
    while start > 0 and joined(text[start - 1]):
        start -= 1
    end = at + 1
    while end < len(text) and joined(text[end]):
        end += 1
    return end, sum(c.isascii() and c.isalnum() for c in text[start:end]) == 1


def _alike(offset: int, text: str, what: str, shows: str) -> Unseen:
    plain = "".join(f"U+{ord(c):04X}" for c in shows)
    return Unseen(
        offset=offset, text=text, what=f"{what}({plain})", invisible=False, composed=shows
    )


def _in_words(text: str, i: int) -> bool:
    """Whether the character at ``i`` stands next to a letter outside ASCII (``完了：`` is
    Japanese written as it is written, not an operator in disguise)."""
    around = text[max(i - 1, 0) : i] + text[i + 1 : i + 2]
    return any(c.isalpha() and not c.isascii() and not reads_as(c) for c in around)


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


_SHELL_MARKS = frozenset("'\"`;|&<>()$\\")
"""What a look-alike in a command must not read as, whatever stands next to it: a quote or an
operator (``echo données’ ; exit 0 données’`` shows the ``; exit 0`` quoted and runs it)."""

_READS: dict[str, str] = {}
_RESEMBLED: dict[str, frozenset[str]] = {}


def reads_as(char: str) -> str:
    """The ASCII that ``char`` is drawn like, or ``""``: its skeleton when that is ASCII
    (:mod:`goalfile.confusables`, loaded at the first call), or the compatibility mapping of a
    letter or digit drawn like ASCII ones. ASCII itself and :data:`_OWN_LETTERS` read as
    themselves."""
    if char.isascii() or char in _OWN_LETTERS:
        return ""
    if not _READS:
        _load()
    found = _READS.get(char, "")
    if not found and _poses_as_ascii(char):
        found = unicodedata.normalize("NFKC", char)
    if not found:
        name = unicodedata.name(char, "")
        if name.startswith("LATIN LETTER SMALL CAPITAL ") and len(name) == 28:
            found = name[-1]  # ʟ, ᴀ, ʀ: capitals drawn at a small letter's height
    return found


def _load() -> None:
    from goalfile.confusables import BY_SKELETON

    resembled: dict[str, set[str]] = {}
    for skeleton, chars in BY_SKELETON.items():
        for char in chars:
            _READS[char] = skeleton
            if len(skeleton) == 1 and char.isalpha() and char not in _OWN_LETTERS:
                resembled.setdefault(skeleton, set()).add(_script(char))
    _RESEMBLED.update((k, frozenset(v)) for k, v in resembled.items())


def _script(char: str) -> str:
    """The first word of the character's name: ``CYRILLIC``, ``LISU``, ``LATIN``,
    ``MATHEMATICAL``... (close enough to its script for telling a phrase's words apart)."""
    return unicodedata.name(char, "?").split(" ", 1)[0]


def _shown_ascii(char: str, skeleton: str, capitals: bool) -> str:
    """What a reader takes ``char`` for: its skeleton, with the skeleton's stand-ins for
    glyphs that several ASCII characters share told apart (``l`` for ``I`` among capitals,
    ``O`` for a digit ``0``, ``rn`` for ``m``)."""
    if len(skeleton) == 1 and "SMALL CAPITAL" in unicodedata.name(char, ""):
        return skeleton.upper() if capitals else skeleton.lower()
    if skeleton == "l" and (capitals or char.isupper()):
        return "I"
    if skeleton == "O" and char.isdigit():
        return "0"
    return {"rn": "m", "''": '"'}.get(skeleton, skeleton)


def _look_alike_words(text: str) -> list[Unseen]:
    found = []
    for match in _WORD.finditer(text):
        word = match.group()
        if word.isascii():
            continue
        other = [c for c in word if not c.isascii()]
        plain = [c for c in word if c.isascii()]
        posing = {c: reads_as(c) for c in other if reads_as(c)}
        letters = [c for c in word if c.isalpha()]
        capitals = sum(c.isupper() for c in letters) * 2 > len(letters)
        reads = "".join(_shown_ascii(c, posing[c], capitals) if c in posing else c for c in word)
        latin = [c for c in word if c.isalpha() and (c.isascii() or _own_latin(c))]
        scripts = [_script(c) for c in other if c.isalpha() and not _own_latin(c)]
        mostly_other = len(latin) < len(scripts)
        if plain and mostly_other and (posing or _resemble(plain, set(scripts))):
            main = max(set(scripts), key=scripts.count).capitalize()
            odd = _listed(f"{c} is {describe(c)}" for c in dict.fromkeys(plain))
            what = f"the word `{word}`, in {main} letters but for ASCII ones: {odd}"
            reads = reads if reads.isascii() else ""
        elif (plain or latin) and posing:  # Latin letters with marks too (`Öğе`: Cyrillic е)
            odd = _listed(
                f"{c} is {describe(c)}, which looks like {_shown_ascii(c, r, capitals)}"
                for c, r in posing.items()
            )
            kind = "ASCII" if plain else "Latin"
            what = f"the word `{word}`, which reads as `{reads}` but mixes {kind} letters with "
            what += f"look-alikes: {odd}"
        elif (
            not plain
            and len(posing) == len(set(other))
            and not _short_word(word)
            and not _in_phrase(text, match.start())
        ):
            odd = _listed(f"{c} is {describe(c)}" for c in posing)
            what = f"the word `{word}`, which reads as `{reads}` and is written only in "
            what += f"look-alikes: {odd}"
        else:
            continue
        found.append(
            Unseen(offset=match.start(), text=word, what=what, invisible=False, reads=reads)
        )
    return found


def _own_latin(char: str) -> bool:
    """A Latin letter a reader sees as itself, no intruder in a Latin word: an ASCII letter
    with marks (``ö``, ``ğ``, ``ř``, ``ư``, ``ợ``) or a Latin letter like no ASCII one (``đ``,
    ``ø``, ``ß``, ``ł``); not a look-alike (``ɡ``, ``ǀ``, ``ʟ``)."""
    if char.isascii() or not char.isalpha() or reads_as(char):
        return False
    return unicodedata.normalize("NFD", char)[0].isascii() or _script(char) == "LATIN"


_LIVING = frozenset(("GREEK", "CYRILLIC"))
"""Alphabets whose short words are often written wholly in letters that look like ASCII ones
(``НЕТ``, ``ВСЕ ОК``, ``ΝΑΙ``, a variable ``σ``)."""


def _short_word(word: str) -> bool:
    """A word of one to three letters of one of :data:`_LIVING` (``σ``, ``ОК``, ``НЕТ``): read
    as itself; a longer one (``ЕХРЕСТ``, ``ΕΡΡΟΡ``) reads as an ASCII word."""
    return (
        len(word) <= 3
        and word.isalpha()
        and {_script(c) for c in word} <= _LIVING
        and len({_script(c) for c in word}) == 1
    )


def _resemble(plain: list[str], scripts: set[str]) -> bool:
    """Whether an ASCII letter of ``plain`` looks like a letter of one of ``scripts``."""
    return any(_RESEMBLED.get(c, frozenset()) & scripts for c in plain if c.isalpha())


def _listed(items: Iterable[str]) -> str:
    """The first three, then how many more."""
    shown = list(items)
    more = f", and {len(shown) - 3} more" if len(shown) > 3 else ""
    return ", ".join(shown[:3]) + more


def _in_phrase(text: str, offset: int) -> bool:
    """Whether a real word of each script of the word at ``offset`` (one with a letter or digit
    that is no look-alike) stands in the phrase around it (:data:`_BREAK` ends a phrase): the
    Russian ``с`` in ``Тест с ошибкой`` is Russian, ``ЕХРЕСТ`` alone reads as ``EXPECT``."""
    word = _WORD.match(text, offset)
    scripts = {_script(c) for c in word.group()} if word else set()
    return scripts <= _real_scripts(_phrase(text, offset))


def _phrase(text: str, offset: int) -> str:
    before = [m.end() for m in _BREAK.finditer(text, 0, offset)]
    after = _BREAK.search(text, offset)
    return text[before[-1] if before else 0 : after.start() if after else len(text)]


def _real_scripts(phrase: str) -> set[str]:
    return {
        _script(c)
        for c in phrase
        if not c.isascii() and c.isalnum() and not reads_as(c) and not is_invisible(c)
    }


_SEEN_MARKS = frozenset("\u2026")
"""Look-alikes a reader tells from their ASCII outside a command: the ellipsis ``…`` takes one
cell of a terminal where ``...`` takes three (``Loading…``). Not the curly ``’``, which takes
the one cell of ``'`` (``don’t`` reads as ``don't``)."""


def _look_alike_marks(text: str, *, punctuation: bool) -> list[Unseen]:
    """Look-alikes that are neither letters nor digits (``’``, ``–``, ``×``, ``꞉``), but those
    that belong to text in another script: in a command (``punctuation``), one next to a letter
    outside ASCII that reads as no quote or operator; elsewhere, one in a phrase with a real
    word outside ASCII (``l’opération``, ``Fehler – Größe``)."""
    found = []
    for i, char in enumerate(text):
        if char.isascii() or char.isalnum() or is_invisible(char):
            continue
        if punctuation and _punctuation_form(char):
            continue  # a composed look-alike (``_composed``)
        reads = reads_as(char)
        if not reads or unicodedata.normalize("NFC", char) != char:
            continue
        if char in _SEEN_MARKS and not punctuation:
            continue
        if punctuation:  # a command: quotes and operators always, others away from words
            if not _SHELL_MARKS.intersection(reads) and _in_words(text, i):
                continue
        elif _real_scripts(_phrase(text, i)):
            continue
        shows = _shown_ascii(char, reads, False)
        what = f"{describe(char)}, which looks like {shows}"
        found.append(Unseen(offset=i, text=char, what=what, invisible=False, reads=shows))
    return found
