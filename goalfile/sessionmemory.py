"""What the Stop hook remembers of a host session from one stop to the next: the repositories
in which it held an active goal, each by its top folder and its git folder
(:class:`goalfile.gitplace.GitPlace`), with the goal files it held there, and the holds on a
hidden repository it made already.

The record is a small JSON file per session, kept outside every working tree, in the user's
state folder (``$XDG_STATE_HOME/goalfile/sessions/``, else ``~/.local/state/goalfile/sessions/``,
made with mode 0700; each file 0600), named by a digest of the host's session id (else of its
transcript path). It is written only when it changes; a file untouched for
:data:`KEEP_DAYS` days is removed when a new one is made. Reading or writing it never fails
the hook: a record that cannot be read is no record, one that cannot be written is a note.

Each record carries a seal, an HMAC-SHA256 of its fields under a random key kept beside the
sessions folder (``goalfile/key``, 0600, made at the first save): a record edited by hand (a
hold's key listed as made, a repository left out) or with its seal or key gone reads as no
record, which the Stop hook treats as the strict case (docs/trust.md, "The Stop hook's record
of a session"). The key is the user's to read, as the record is: the seal stops an edit, not
an agent that reads the key and this module and seals a record of its own. Each record also
keeps the transcript its taker was given and that file's length then
(:class:`goalfile.recordbind.Taken`), which tells the host's own hooks from a run of the agent's,
and, sealed with the rest, its own file name, the digest of the session it is for: a sealed
record of another session copied over this one's reads as set aside (:attr:`Record.other`).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from goalfile.digest import sha256
from goalfile.errors import GoalfileError
from goalfile.files import read_regular
from goalfile.gitplace import GitPlace
from goalfile.recordbind import Taken
from goalfile.value import Compared

__all__ = [
    "AT_START",
    "AT_STOP",
    "Record",
    "Remembered",
    "forget_old",
    "key_path",
    "load",
    "record_path",
    "save",
    "state_folder",
    "write_sealed",
]

SCHEMA = 1
KEEP_DAYS = 30
SIZE_LIMIT = 1 << 20  # bytes: a larger record is not read
KEY_BYTES = 32  # random bytes of the key that seals the records
AT_START = "at the start of this session"  # when a record was taken, for a message
AT_STOP = "at an earlier stop of this session"


class Remembered(Compared):
    """A repository in which the session's previous stop held an active goal: its top, its
    git folder, the goal files, and what git's HEAD was then."""

    __slots__ = ("commit", "goals", "head", "place", "seen", "staged", "top", "unplaced")

    def __init__(
        self,
        *,
        top: str,
        place: GitPlace,
        goals: tuple[str, ...],
        head: str = "",
        staged: tuple[tuple[str, str], ...] = (),
        commit: str = "",
        seen: str = "",
        unplaced: bool = False,
    ) -> None:
        self.top: Final = top
        self.place: Final = place
        self.goals: Final = goals  # those git tracked, relative to ``top``, `/`-separated
        self.head: Final = head  # :func:`goalfile.gitplace.head_mark` at that stop
        # of ``goals``, those only git's index held (staged, never committed), each with the
        # object id of that copy: a checkout or a reset that takes one away leaves it in git's
        # object store, where the hook's fix takes it from
        self.staged: Final = staged
        # the commit HEAD resolved to at that stop, as git resolved it (``head`` is read without
        # git: a branch written by hand in its loose file, in `packed-refs` or behind a symbolic
        # ref moves this and leaves that)
        self.commit: Final = commit
        # "start" when `goalfile hook start` took it at the session's start and no stop has
        # taken it since (the commit and copies it keeps are then the start's); else empty
        self.seen: Final = seen
        # first named at a stop after a hold whose record was gone: what git held at that hold is
        # not known, so the goals' entries count as new at every stop while it is remembered
        # (:meth:`goalfile.commands.hookrepo.RepositoryWatch.unplaced`)
        self.unplaced: Final = unplaced

    @property
    def when(self) -> str:
        """When the record was taken, for a message: "at the start of this session", else
        "at an earlier stop of this session"."""
        return AT_START if self.seen == "start" else AT_STOP

    def to_json(self) -> dict[str, object]:
        return {
            "unplaced": self.unplaced,
            "top": self.top,
            "place": self.place.to_json(),
            "goals": list(self.goals),
            "head": self.head,
            "staged": [list(pair) for pair in self.staged],
            "commit": self.commit,
            "seen": self.seen,
        }

    @classmethod
    def from_json(cls, data: object) -> Remembered | None:
        if not isinstance(data, dict):
            return None
        place, top, goals = data.get("place"), data.get("top"), data.get("goals")
        if not isinstance(place, dict) or not isinstance(top, str) or not isinstance(goals, list):
            return None
        try:
            found = GitPlace(
                kind=str(place["kind"]),
                gitdir=str(place["gitdir"]),
                gitdir_id=_pair(place["gitdir_id"]),
                common=str(place["common"]),
                common_id=_pair(place["common_id"]),
            )
        except (KeyError, TypeError, ValueError):
            return None
        if "\0" in top + found.gitdir + found.common:  # no path (anyone can write the record)
            return None
        head = data.get("head")
        kept = tuple(str(goal) for goal in goals if "\0" not in str(goal))
        return cls(
            top=top,
            place=found,
            goals=kept,
            head=head if isinstance(head, str) else "",
            staged=_staged(data.get("staged"), kept),
            commit=_commit(data.get("commit")),
            seen="start" if data.get("seen") == "start" else "",
            unplaced=data.get("unplaced") is True,
        )


def _commit(value: object) -> str:
    """A record's ``commit``: hex digits as SHA-1 or SHA-256 names one, else empty."""
    return value if isinstance(value, str) and _object_id(value) else ""


def _object_id(value: str) -> bool:
    return len(value) in (40, 64) and all(char in "0123456789abcdef" for char in value)


def _staged(value: object, goals: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The ``staged`` pairs of a record, each a goal of ``goals`` and an object id (hex
    digits, as SHA-1 or SHA-256 names one); anything else is passed over."""
    found: list[tuple[str, str]] = []
    for item in value if isinstance(value, list) else []:
        if not isinstance(item, list) or len(item) != 2:
            continue
        goal, oid = item
        if isinstance(goal, str) and goal in goals and isinstance(oid, str) and _object_id(oid):
            found.append((goal, oid))
    return tuple(found)


def _pair(value: object) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("not a pair")
    first, second = value
    if not isinstance(first, int) or not isinstance(second, int):
        raise ValueError("not a pair of integers")
    return first, second


def state_folder(env: Mapping[str, str]) -> Path | None:
    """``$XDG_STATE_HOME/goalfile/sessions`` (an absolute ``XDG_STATE_HOME`` only, as the
    XDG rules say), else ``$HOME/.local/state/goalfile/sessions``; None without either."""
    base = env.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        home = env.get("HOME", "")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".local", "state")
    return Path(base) / "goalfile" / "sessions"


def record_path(folder: Path, *, session_id: str | None, transcript: str | None) -> Path | None:
    """The record of the session the host names, in ``folder``; None when it names none."""
    name = f"id\0{session_id}" if session_id else f"transcript\0{transcript}" if transcript else ""
    if not name:
        return None
    return folder / (sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:32] + ".json")


class Record(Compared):
    """What a session's record holds: the repositories, by top folder, and the holds made
    at its stops that still stand (each the key of what held the agent), so that each holds
    once, whatever the host says of ``stop_hook_active``; and how it was taken (the
    transcript its taker was given: :mod:`goalfile.recordbind`), None for a record that does
    not say. ``other``: a sealed record found in this session's place that names another
    file (another session's, copied over this one's, or one sealed before records named
    theirs): it holds nothing of it, and the Stop hook sets it aside."""

    __slots__ = ("held", "other", "repositories", "taken")

    def __init__(
        self,
        *,
        repositories: Mapping[str, Remembered] | None = None,
        held: frozenset[str] = frozenset(),
        taken: Taken | None = None,
        other: bool = False,
    ) -> None:
        self.repositories: Final[Mapping[str, Remembered]] = (
            {} if repositories is None else repositories
        )
        self.held: Final = held
        self.taken: Final = taken
        self.other: Final = other


def key_path(folder: Path) -> Path:
    """The key that seals the records of ``folder`` (``goalfile/sessions/``): beside that
    folder, ``goalfile/key``."""
    return folder.parent / "key"


def _key(folder: Path, *, make: bool) -> bytes | None:
    """The key that seals the records of ``folder`` (:func:`key_path`): random bytes, made
    (mode 0600, never over a file there) when ``make`` and missing; None when there is none,
    or it cannot be read or made."""
    path = key_path(folder)
    try:
        found = read_regular(path, what="session record key", limit=KEY_BYTES * 4)
        return found if len(found) >= KEY_BYTES else None
    except FileNotFoundError:
        if not make:
            return None
    except (OSError, ValueError, GoalfileError):
        return None
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:  # made by a hook of another session a moment ago
        return _key(folder, make=False)
    except OSError:
        return None
    import secrets  # here: a stop that reads or writes no record loads no hashing

    made = secrets.token_hex(KEY_BYTES).encode()
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(made)
    return made


def _seal(document: Mapping[str, object], key: bytes) -> str:
    """The seal of a record's ``document`` (its fields but ``seal``) under ``key``."""
    body = {name: value for name, value in document.items() if name != "seal"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    import hmac  # here: a stop that reads or writes no record loads no hashing

    return hmac.new(key, text.encode("ascii"), "sha256").hexdigest()


def load(path: Path) -> Record:
    """The record at ``path``; an empty one when it is missing or cannot be read, is no
    regular file (a FIFO put there is never waited on: the next save replaces it), or its
    seal is not the one the key of its folder gives (a record edited by hand, or one written
    before records were sealed, is no record); an empty one marked ``other`` when it was
    sealed for another file name (:attr:`Record.other`)."""
    try:
        data = json.loads(read_regular(path, what="session record", limit=SIZE_LIMIT))
    except (OSError, ValueError, RecursionError, GoalfileError):
        return Record()
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        return Record()
    key = _key(path.parent, make=False)
    seal = data.get("seal")
    if key is None or not isinstance(seal, str):
        return Record()
    import hmac

    if not hmac.compare_digest(seal.encode("utf-8", "surrogateescape"), _seal(data, key).encode()):
        return Record()
    if data.get("name") != path.name:  # sealed for another file: another session's record
        return Record(other=True)
    found: dict[str, Remembered] = {}
    listed = data.get("repositories")
    for item in listed if isinstance(listed, list) else []:
        remembered = Remembered.from_json(item)
        if remembered is not None:
            found[remembered.top] = remembered
    held = data.get("held")
    keys = frozenset(key for key in held if isinstance(key, str)) if isinstance(held, list) else ()
    return Record(
        repositories=found, held=frozenset(keys), taken=Taken.from_json(data.get("taken"))
    )


def save(path: Path, record: Record) -> None:
    """Write ``record`` at ``path`` (replaced by rename; the folders made 0700), or remove
    the file when the record is empty and says nothing of how it was taken. A record that
    does (a hook's) is written empty: a session whose record is missing is one whose record
    was deleted (:func:`goalfile.recordbind.started`). Raises OSError."""
    if not record.repositories and not record.held and record.taken is None:
        path.unlink(missing_ok=True)
        return
    new = not path.exists()
    for folder in (path.parent.parent, path.parent):  # goalfile/ and goalfile/sessions/
        if not folder.is_dir():
            folder.parent.mkdir(parents=True, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
    document: dict[str, object] = {
        "schema": SCHEMA,
        "repositories": [record.repositories[top].to_json() for top in sorted(record.repositories)],
        "held": sorted(record.held),
    }
    if record.taken is not None:
        document["taken"] = record.taken.to_json()
    write_sealed(path, document)
    if new:
        forget_old(path.parent, keep=path.name)


def write_sealed(path: Path, document: dict[str, object]) -> None:
    """Write ``document`` at ``path``, with ``path``'s file name, sealed with the key of its
    folder (made when missing), replaced by rename. Raises OSError."""
    key = _key(path.parent, make=True)
    if key is None:
        raise OSError(f"the key {key_path(path.parent)} cannot be read or made")
    document = {**document, "name": path.name}  # the file it is for, sealed with the rest
    document = {**document, "seal": _seal(document, key)}
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)  # a FIFO or symlink left there is not opened
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(document, handle, sort_keys=True)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def forget_old(folder: Path, *, keep: str, now: float | None = None) -> None:
    """Remove the records in ``folder`` untouched for :data:`KEEP_DAYS` days (never ``keep``)."""
    limit = (time.time() if now is None else now) - KEEP_DAYS * 86400
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.name == keep or not entry.name.endswith(".json"):
            continue
        try:
            if entry.stat(follow_symlinks=False).st_mtime < limit:
                os.unlink(entry.path)
        except OSError:
            continue
