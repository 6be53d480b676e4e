"""The objects ``git cat-file --batch`` gives, checked against their names.

git does not hash an object when it reads it: a file under ``.git/objects`` rewritten by hand
(or a pack of someone's own that names an object already there) is read as if it were the
object of that name. So ``git cat-file --batch HEAD:goals/auth.md`` gave the bytes the agent
had written over HEAD's blob of the goal, with no commit made, no ref moved and nothing for
``git status`` to show, and the Stop hook took them for "the copy git holds". Rewriting a tree
object on the path (its entry for the goal naming another blob) did the same.

For a ``REV:PATH`` name, :func:`requests` asks for every object that leads to the blob: the
commit REV names, its tree, each tree on PATH's way and the blob; :func:`forged` then checks
that each of them hashes to its name (SHA-1 or SHA-256, by the name's length) and that each
names the next (the commit its tree, each tree the entry for the next part of PATH). An index
name (``:0:PATH``) is the blob alone: git's index file carries a checksum of its own.
:func:`trees_fault` checks the same of the trees a listing of HEAD's goal folders reads (a
tree written over by hand without the goal's entry hid a committed goal from `git ls-files
--with-tree=HEAD`). Pure: no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

Object = tuple[str, str, bytes]  # (name as git gives it, type, content)

__all__ = [
    "Object",
    "forged",
    "hash_fault",
    "parse_batch",
    "points_at",
    "requests",
    "tree_entries",
    "trees_fault",
]


def requests(name: str) -> list[str]:
    """The names to ask ``git cat-file --batch`` for so that ``name`` can be checked: for
    ``REV:PATH``, ``REV^{commit}``, ``REV^{tree}``, ``REV:DIR`` for each folder on PATH, and
    ``name``; an index name (``:PATH``, ``:0:PATH``) alone."""
    rev, colon, path = name.partition(":")
    if not colon or not rev or not path:
        return [name]
    parts = path.split("/")
    folders = ["/".join(parts[:end]) for end in range(1, len(parts))]
    on_the_way = [f"{rev}:{folder}" for folder in folders]
    return [f"{rev}^{{commit}}", f"{rev}^{{tree}}", *on_the_way, name]


def parse_batch(out: bytes, asked: Sequence[str]) -> dict[str, Object | None] | None:
    """What ``git cat-file --batch`` answered to ``asked`` (in order): each name's object, or
    None when git holds none by that name. None when the answer ends early."""
    found: dict[str, Object | None] = {}
    at = 0
    for name in asked:
        end = out.find(b"\n", at)
        if end < 0:
            return None
        head = out[at:end].split(b" ")
        at = end + 1
        if len(head) != 3 or not head[2].isdigit():  # "NAME missing", "NAME ambiguous"
            found[name] = None
            continue
        size = int(head[2])
        if at + size > len(out):
            return None
        found[name] = (head[0].decode("ascii", "replace"), head[1].decode("ascii", "replace"),
                       out[at : at + size])  # fmt: skip
        at += size + 1
    return found


def _hash_of(kind: str, data: bytes, name: str) -> str | None:
    """The name git would give ``data`` as an object of ``kind``, by the hash ``name``'s length
    says (None for a length no object format has)."""
    algorithm = {40: "sha1", 64: "sha256"}.get(len(name))
    if algorithm is None:
        return None
    return hashlib.new(algorithm, kind.encode("ascii") + b" %d\0" % len(data) + data).hexdigest()


def hash_fault(obj: Object, asked: str = "") -> str | None:
    """Why ``obj`` is not the object its name says: its bytes hash to another name (``asked``:
    what it was asked for as, named in the reason); None when they hash to its own."""
    actual = _hash_of(obj[1], obj[2], obj[0])
    if actual == obj[0]:
        return None
    named = f"{obj[0]} ({asked})" if asked else obj[0]
    return f"the {obj[1]} object {named} holds bytes whose hash is {actual}"


def points_at(obj: Object) -> str | None:
    """The object a commit names as its tree, or a tag as the object it tags (the name on its
    first line); None for any other object, or one that does not begin so."""
    word = {"commit": b"tree ", "tag": b"object "}.get(obj[1])
    first = obj[2].split(b"\n", 1)[0]
    if word is None or not first.startswith(word):
        return None
    named = first[len(word) :].decode("ascii", "replace")
    return named if len(named) in (40, 64) and all(c in "0123456789abcdef" for c in named) else None


def tree_entries(tree: bytes, width: int) -> list[tuple[str, bytes, str]] | None:
    """The entries of the raw ``tree`` (``width`` bytes to an object name): ``(mode, name,
    object)`` each, in the tree's order; None when it is not a tree git writes."""
    found: list[tuple[str, bytes, str]] = []
    at = 0
    while at < len(tree):
        space = tree.find(b" ", at)
        nul = tree.find(b"\0", space + 1)
        if space < 0 or nul < 0 or nul + 1 + width > len(tree):
            return None
        mode = tree[at:space].decode("ascii", "replace")
        found.append((mode, tree[space + 1 : nul], tree[nul + 1 : nul + 1 + width].hex()))
        at = nul + 1 + width
    return found


def _entry(tree: bytes, wanted: str, width: int, *, gitlink: bool = True) -> str | None:
    """The name the raw ``tree`` gives its entry ``wanted`` (None when it has none, or is not
    a tree git writes; and, unless ``gitlink``, when the entry is a submodule's commit, an
    object of another repository)."""
    key = wanted.encode("utf-8", "surrogateescape")
    for mode, name, child in tree_entries(tree, width) or []:
        if name == key:
            return None if not gitlink and mode == "160000" else child
    return None


def forged(name: str, objects: Mapping[str, Object | None]) -> str | None:
    """Why what ``objects`` (:func:`parse_batch` of :func:`requests`) gives for ``name`` is not
    what git's names say it is: an object whose bytes hash to another name, a commit or tree on
    the way that does not name the next, or one that names an object git's objects lack (the
    blob's file deleted from ``.git/objects`` read as "HEAD holds no such file"); None when all
    holds, or when the commit (no HEAD yet) or a tree on the way names no such entry."""
    wanted = requests(name)
    for ask in wanted:
        obj = objects.get(ask)
        why = hash_fault(obj, ask) if obj is not None else None
        if why is not None:
            return why
    if len(wanted) == 1:  # an index name: the blob alone
        return None
    commit, parent = objects.get(wanted[0]), objects.get(wanted[1])
    if commit is None:  # no commit at HEAD holds nothing; git reads one that fails its hash
        return None if objects.get(name) is None else f"git gives {name} but not {wanted[0]}"
    first = commit[2].split(b"\n", 1)[0]
    if parent is None or first != b"tree " + parent[0].encode("ascii"):
        got = parent[0] if parent is not None else "none"
        return f"the commit {commit[0]} names {first.decode('ascii', 'replace')}, git gave {got}"
    width = len(parent[0]) // 2
    parts = name.partition(":")[2].split("/")
    for part, ask in zip(parts, wanted[2:], strict=True):
        if parent[1] != "tree":
            return None  # a file on the way: nothing below it
        named = _entry(parent[2], part, width, gitlink=False)
        child = objects.get(ask)
        if named is None:
            if child is None:
                return None  # HEAD holds no such entry
            return f"the tree {parent[0]} names nothing for {part!r}, git gave {child[0]}"
        if child is None:
            return f"the tree {parent[0]} names {named} for {part!r}, which git's objects lack"
        if child[0] != named:
            return f"the tree {parent[0]} names {named} for {part!r}, not {child[0]}"
        parent = child
    return None


def trees_fault(folders: Sequence[str], objects: Mapping[str, Object | None]) -> str | None:
    """Why the trees of HEAD named ``folders`` (each ``HEAD:FOLDER``, with every folder on the
    way, as ``objects`` gives them with ``HEAD^{commit}`` and ``HEAD^{tree}``) are not what
    their names say: an object that hashes to another name, or one that its parent folder's
    tree does not name; None when all holds. A folder HEAD does not hold is no fault (its
    parent's tree was checked, and has no entry by that name)."""
    commit, root = objects.get("HEAD^{commit}"), objects.get("HEAD^{tree}")
    if commit is None or root is None:
        return None  # no commit at HEAD: git's listing is the index's alone
    for ask, obj in objects.items():
        why = hash_fault(obj, ask) if obj is not None else None
        if why is not None:
            return why
    if commit[2].split(b"\n", 1)[0] != b"tree " + root[0].encode("ascii"):
        return f"the commit {commit[0]} does not name the tree {root[0]} git gave for it"
    width = len(root[0]) // 2
    for folder in folders:
        parent_name, _, base = folder.rpartition("/")
        parent = objects.get(f"HEAD:{parent_name}" if parent_name else "HEAD^{tree}")
        child = objects.get(f"HEAD:{folder}")
        if parent is None or parent[1] != "tree":
            continue  # not a folder at HEAD: nothing below it to hide
        named = _entry(parent[2], base, width, gitlink=False)
        if named != (child[0] if child is not None else None):
            return (
                f"the tree {parent[0]} names {named or 'nothing'} for {base!r}, not "
                f"{child[0] if child is not None else 'nothing'}"
            )
    return None
