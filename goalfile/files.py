"""The only module that opens goal files: reading, locking, and atomic writes.

Text is decoded with ``surrogateescape`` so bytes that are not UTF-8 survive a read-edit-write
cycle unchanged. Writes go to a temporary file in the goal's own folder, are fsynced, take the
original file's mode, and replace it; a symlinked goal file is written through to its target.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from goalfile import ledger
from goalfile.errors import (
    GoalFileInvalid,
    Locked,
    NoSuchGoalFile,
    Refused,
    Terminated,
    UsageError,
    WriteFailed,
    interrupted,
)
from goalfile.model import Goal
from goalfile.parse import parse_goal
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name

ENCODING = "utf-8"
ERRORS = "surrogateescape"


def _named(path: str | os.PathLike[str]) -> str:
    """``path`` as one line of a message (:func:`goalfile.termsafe.file_name`)."""
    return file_name(os.fspath(path))


def real_path(path: Path) -> Path:
    """``path`` with its symlinks resolved; a symlink loop is left as it is (where
    ``Path.resolve`` raises RuntimeError on Python 3.11): a goal file linked to itself is then
    one that does not load, which its loader names, never a crash."""
    return Path(os.path.realpath(path))


def read_text(path: str | os.PathLike[str]) -> str:
    """The file's text. Bytes equal to those this process last read or wrote at ``path`` give
    the text they were decoded from (or encoded from), not a new copy: a long ledger read back
    right after a write (the Stop hook's new iteration after its verify) is neither decoded
    again nor indexed again."""
    last = _last_read
    data = _read_bytes(path, last[1] if last is not None and last[0] == str(path) else None)
    if data is None:
        assert last is not None  # the file holds the bytes last read or written there
        return last[3]
    return data.decode(ENCODING, ERRORS)


Content = tuple[tuple[bytes, int, int], ...]
"""The bytes of a file as spans (buffer, start, end) of buffers, in order: a file written
from the buffer it was read into and the bytes an edit added."""

GOAL_SIZE_LIMIT = 64 << 20
"""The largest goal file goalfile reads, in bytes (64 MiB): a ledger of 200,000 entries is
about 50 MB, and every command holds several copies of the text (docs/performance.md). A
larger file, such as a sparse one whose size is a terabyte, is refused before it is read."""


def _read_bytes(path: str | os.PathLike[str], known: Content | None = None) -> bytes | None:
    """The goal file's bytes; None when they are exactly ``known``. A file larger than
    :data:`GOAL_SIZE_LIMIT` is refused (:class:`GoalFileInvalid`) from its size alone."""
    try:
        return _read(path, what="goal file", known=known, size_limit=GOAL_SIZE_LIMIT)
    except FileNotFoundError:
        raise no_such_goal_file(str(path)) from None
    except IsADirectoryError:
        from goalfile.shellword import shell_word

        try:
            holds = _holds_markdown(str(path))
        except (OSError, ValueError):
            holds = None
        if holds:
            hint = (
                f"name one goal file in it; `goalfile status {shell_word(str(path))}` lists the "
                "goals it holds"
            )
        elif holds is None:
            hint = "`goalfile status` lists the goals there are"
        else:
            hint = (
                "it holds no goal file (*.md); check the path, or create one with "
                '`goalfile new SLUG "END STATE"`'
            )
        raise UsageError(f"{_named(path)}: is a folder, not a goal file", hint=hint) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link that leads back to itself, through links
            from goalfile.shellword import shell_word

            word = shell_word(str(path))
            raise UsageError(
                f"{_named(path)}: cannot read: {exc.strerror} (it is a symlink that leads back "
                "to itself, or a folder on its path is)",
                hint=f"remove the link (`rm -- {word}`), then name the goal file itself",
            ) from None
        raise UsageError(f"{_named(path)}: cannot read: {exc.strerror}") from None


def no_such_goal_file(path: str) -> NoSuchGoalFile:
    """The error for a goal file that is not there, naming the one the user most likely meant
    (:func:`nearest_goal`)."""
    near = _nearest(path)
    if near is None:
        return NoSuchGoalFile(path, instead=None, hint=_none_near(path))
    instead, guessed = near
    if guessed:  # another name: maybe another goal, so never a fix that acts on it unasked
        hint = (
            f"`goalfile status {shell_word(instead)}` shows the goal whose name is close; name "
            "it only if it is the goal you mean"
        )
    else:
        hint = f"`goalfile status {shell_word(instead)}` shows the goal meant; name it instead"
    return NoSuchGoalFile(path, instead=instead, hint=hint, guessed=guessed)


def _none_near(path: str) -> str:
    """The fix for a goal file not there and not like any that is: the command that lists the
    goals, and the one that writes this one as a draft, with the path `new` writes it to from
    here (goals/SLUG.md of the git top level: ../goals/SLUG.md from a sub-folder)."""
    import re

    from goalfile.commands.gittop import repository_top
    from goalfile.newplace import MAX_SLUG, default_folder
    from goalfile.parse import SLUG_RE
    from goalfile.shellword import shell_word

    listed = "`goalfile status` lists the goals there are"
    named = re.fullmatch(r"(?:\./)?(?:goals/)?([^/]+?)(?:\.md)?", path)

    if named is None or not SLUG_RE.match(named[1]) or len(named[1]) > MAX_SLUG:
        return listed

    here = Path.cwd()
    folder = default_folder(here, repository_top(here))
    written = os.path.relpath(folder / f"{named[1]}.md", here.resolve())
    return f"{listed}; `goalfile new {shell_word(named[1])}` writes {_named(written)} as a draft"


def nearest_goal(path: str) -> str | None:
    """An existing goal file ``path`` most likely meant, spelled as the user spells paths, or
    None: for a bare slug (``auth``, ``auth.md``), ``goals/auth.md`` or
    ``.zetetic/goals/auth.md`` under the current folder; else the file in the same folder (or
    in ``goals/`` when that folder does not exist) whose name is closest (a typo, ``_`` for
    ``-``)."""
    near = _nearest(path)
    return None if near is None else near[0]


def _nearest(path: str) -> tuple[str, bool] | None:
    """:func:`nearest_goal`'s file, and whether its name is only close to the one given (a
    guess, which may be another goal: ``auth-1.md`` for ``auth-2.md``) rather than the same."""
    given = Path(path)
    name = given.name if given.suffix == ".md" else f"{given.name}.md"
    if not name[:-3] or name in (".md", "..md"):
        return None
    folders = [given.parent]
    if given.parent == Path(".") or not _probe(given.parent.is_dir):
        folders += _goal_folders_above()
    for folder in folders:
        if _probe((folder / name).is_file) and folder / name != given:
            return str(folder / name), False
    import difflib

    for folder in folders:
        try:
            names = sorted(
                entry.name
                for entry in os.scandir(folder)
                if entry.name.endswith(".md") and entry.is_file()
            )
        except OSError:
            continue
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.8)
        if close:
            return str(folder / close[0]), True
    return None


def _holds_markdown(folder: str, *, limit: int = 2000) -> bool | None:
    """Whether ``folder`` holds a ``*.md`` file, at any depth; None when none is among the
    first ``limit`` entries looked at (a folder named by mistake, such as ``/``, is not
    walked whole)."""
    seen = 0
    for _, _, names in os.walk(folder):
        if any(name.endswith(".md") for name in names):
            return True
        seen += len(names) + 1
        if seen > limit:
            return None
    return False


def _probe(test: Callable[[], bool]) -> bool:
    """``test()``, False when the system refuses the path (a name longer than the system
    allows: ``Path.is_file`` raises ENAMETOOLONG rather than saying False)."""
    try:
        return test()
    except (OSError, ValueError):
        return False


def _goal_folders_above() -> list[Path]:
    """``goals/`` and ``.zetetic/goals/`` of the current folder and, inside a repository, of
    each folder above it up to the repository's top as git names it (where `goalfile new`
    writes; an empty ``.git`` planted on the way is passed over, as
    :func:`goalfile.commands.gittop.repository_top` passes it over), as paths relative to the
    current folder (``../goals``)."""
    from goalfile.commands.gittop import repository_top  # here: only a missing goal asks git
    from goalfile.goalfolders import GOAL_FOLDERS

    here_only = [Path(goals) for goals in GOAL_FOLDERS]
    try:
        here = Path.cwd()
    except OSError:
        return here_only
    top = repository_top(here)
    if top is None:
        return here_only  # in no repository: nothing above the current folder is its project
    found: list[Path] = []
    for folder in (here, *here.parents):
        for goals in GOAL_FOLDERS:
            found.append(Path(os.path.relpath(folder / goals, here)))
        if folder == top:
            return found
    return here_only  # the top is not above the current folder (a link on the way)


# the path, bytes, goal and text load_goal parsed or write_atomic wrote last
_last_read: tuple[str, Content, Goal, str] | None = None


_KINDS = (
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISFIFO, "FIFO (named pipe)"),
    (stat.S_ISSOCK, "socket"),
)
GROWTH = 1 << 20
"""Bytes a file may grow by while it is read; one that keeps growing is refused."""


def read_regular(
    path: str | os.PathLike[str], *, what: str, limit: int | None = None, hint: str | None = None
) -> bytes:
    """The bytes of a regular file (symlinks followed), at most ``limit`` of them.

    Anything else (a device such as ``/dev/zero``, a FIFO, a socket) is refused without
    reading from it: it could be endless or never answer. The file is opened without blocking
    (a FIFO's open would wait for a writer), and the read stops at the size the file had when
    it was opened plus :data:`GROWTH`: a file that grows faster than it is read is refused.
    ``hint`` is the refusal's fix (by default: name a regular file).
    Raises OSError as ``open`` does (FileNotFoundError, IsADirectoryError...)."""
    data = _read(path, what=what, limit=limit, hint=hint)
    assert data is not None  # only a file compared with known bytes reads as None
    return data


def _read(
    path: str | os.PathLike[str],
    *,
    what: str,
    limit: int | None = None,
    hint: str | None = None,
    known: Content | None = None,
    size_limit: int | None = None,
) -> bytes | None:
    """:func:`read_regular`, or None when the file holds exactly the bytes ``known`` (a goal
    read again, as verify reads it again under the lock: compared a piece at a time, without
    a second buffer of its size). A file whose size (``fstat``, before any read) is above
    ``size_limit`` is refused, and one that grows past it while it is read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:  # a socket cannot be opened at all (ENXIO): say what it is
        if exc.errno == errno.ENXIO and _is_socket(path):
            raise _not_regular(path, "socket", what, hint) from None
        raise
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "special file")
            raise _not_regular(path, kind, what, hint)
        if size_limit is not None and info.st_size > size_limit:
            raise _too_large(path, info.st_size, size_limit, what)
        os.set_blocking(fd, True)
        if known is not None and limit is None and info.st_size == _size(known):
            if _holds(fd, known):
                return None
            os.lseek(fd, 0, os.SEEK_SET)
        cap = info.st_size + GROWTH if limit is None else limit
        if size_limit is not None:
            cap = min(cap, size_limit)
        chunks, total = [], 0
        while total <= cap:  # one read of the whole file, as a rule: one buffer, no join
            chunk = os.read(fd, cap + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if size_limit is not None and total > size_limit:
            raise _too_large(path, total, size_limit, what)
        if limit is None and total > cap:
            raise Refused(
                f"grew by more than {GROWTH} bytes while it was read; nothing was done",
                file=str(path),
                again=f"once nothing writes to the {what}",
            )
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        return data if limit is None or len(data) <= limit else data[:limit]
    finally:
        os.close(fd)


_PIECE = 1 << 16
"""Bytes read at a time when a file is compared with the bytes it held."""


def _size(content: Content) -> int:
    return sum(end - start for _, start, end in content)


def _holds(fd: int, known: Content) -> bool:
    """Whether the rest of the open file is exactly ``known``, read into one small buffer a
    piece at a time: a long goal read again costs no new buffer of its size, whose pages the
    kernel would fault in."""
    buffer = bytearray(_PIECE)
    for data, start, end in known:
        while start < end:
            count = os.readv(fd, [memoryview(buffer)[: end - start]])
            if not count or not data.startswith(memoryview(buffer)[:count], start):
                return False
            start += count
    return not os.readv(fd, [buffer])


def _is_socket(path: str | os.PathLike[str]) -> bool:
    try:
        return stat.S_ISSOCK(os.stat(path).st_mode)
    except OSError:
        return False


def _too_large(path: str | os.PathLike[str], size: int, limit: int, what: str) -> GoalFileInvalid:

    return GoalFileInvalid(
        f"is {size:,} bytes, larger than the {limit >> 20} MiB ({limit:,} bytes) a {what} may "
        "hold; nothing was read",  # file= names it
        file=str(path),
        hint=f"remove it (`rm {shell_word(str(path))}`) if it is not a goal; a goal that large "
        "is not split (its contract rests on its first ledger entry, and audit reads moved "
        "entries as deleted): a person retires it whole, moving it out of the goal folders "
        "(`git mv`, then `git commit`, when git tracks it: the Stop hook holds a goal git "
        "tracks that the working tree no longer has) or committing its removal, and starts "
        "the next goal with `goalfile new`",
    )


def _not_regular(path: str | os.PathLike[str], kind: str, what: str, hint: str | None) -> Refused:
    return Refused(
        f"is a {kind}, not a regular file; nothing was read",  # file= names it
        file=str(path),
        hint=hint,  # none by default: what to name instead, only the user knows
    )


def read_regular_text(
    path: str | os.PathLike[str], *, what: str, hint: str | None = None, limit: int | None = None
) -> str:
    """The UTF-8 text of a file goalfile reads that is not a goal file: the focus record, a
    ``.git`` file, the hook's markers under ``.git``, a lock's owner note, host settings,
    skill manifests. Each is in the agent's reach, so each is read as :func:`read_regular`
    reads one: a FIFO, device or socket put there is refused (:class:`Refused`, naming the
    file, with ``hint`` as the fix: by default, remove it) and never waited on.
    Raises OSError as ``open`` does (FileNotFoundError...) and UnicodeDecodeError."""
    if hint is None:
        hint = f"remove it (`rm {shell_word(str(path))}`) or put a regular {what} there"
    return read_regular(path, what=what, limit=limit, hint=hint).decode(ENCODING)


def load_goal(path: str | os.PathLike[str]) -> Goal:
    """Read and parse a goal file. The same path read again with the same bytes in this
    process (the Stop hook reads a goal, then verify reads it) gives the goal already parsed:
    parsing is a function of the text, so only the bytes are compared."""
    return _cached_read(path, keep_up_to=None)[1]


def _cached_read(path: str | os.PathLike[str], *, keep_up_to: int | None) -> tuple[str, Goal]:
    """The goal file's text and goal: those this process last read or wrote at ``path`` when
    its bytes are the same, else read and parsed anew and kept for the next read when the file
    is ``keep_up_to`` bytes or less (None: whatever its size)."""
    global _last_read
    where = str(path)
    last = _last_read
    data = _read_bytes(path, last[1] if last is not None and last[0] == where else None)
    if data is None:
        assert last is not None  # the file holds the bytes last read or written there
        return last[3], last[2]
    text = data.decode(ENCODING, ERRORS)
    goal = parse_goal(text, path=where)
    if keep_up_to is None or len(data) <= keep_up_to:
        _last_read = (where, ((data, 0, len(data)),), goal, text)
    return text, goal


EDIT_KEEPS_BYTES_UP_TO = 8 << 20
"""The largest goal file (8 MiB) whose bytes an editing command keeps while it edits, to
write the edited file from them (:func:`read_for_edit`). A bigger one is read as text alone:
its bytes alive beside the edited text and its read-back would raise the edit's peak memory
by the file's size, more than encoding the edited text costs."""


def read_for_edit(path: str | os.PathLike[str]) -> tuple[str, Goal]:
    """The text of a goal file an editing command is about to change, and the goal it reads as
    (:func:`parse_text`). A file of :data:`EDIT_KEEPS_BYTES_UP_TO` or less is read as
    :func:`load_goal` reads it, keeping its bytes: the edited text is then written from them
    and from what the edits wrote (``os.writev``, :func:`_content`), without encoding the whole
    text into a new buffer. A bigger one is read as text alone."""
    return _cached_read(path, keep_up_to=EDIT_KEEPS_BYTES_UP_TO)


_WRITTEN: list[str] = []
"""The goal files this process has replaced, in order: what an interrupt's message says."""


def written_files() -> tuple[str, ...]:
    """The goal files this process has replaced so far (an interrupt's message names them:
    whether the file was written decides the message, not when the signal came)."""
    return tuple(_WRITTEN)


def parse_text(path: str | os.PathLike[str], text: str) -> Goal:
    """``parse_goal(text, path=str(path))``, or the goal this process last read or wrote at
    ``path`` when it has this text: parsing is a function of the text, so an editing command
    that reads back what the one before it wrote (the Stop hook's new iteration after its
    verify) does not parse it again."""
    where = str(path)
    last = _last_read
    if last is not None and last[0] == where and (last[3] is text or last[2].text == text):
        return last[2]
    return parse_goal(text, path=where)


def write_atomic(path: str | os.PathLike[str], text: str, *, parsed: Goal | None = None) -> None:
    """Replace the file's content in one step, keeping its mode; symlinks are followed.

    Ctrl-C and SIGTERM wait until the file is replaced (or the write has failed): an interrupt
    that arrives during the write is raised afterwards, as an :class:`Interrupted` that says
    the file was written. ``parsed`` is the goal ``text`` reads as (the writer read it back
    before writing): a later read of the same bytes in this process gives it unparsed.
    """
    global _last_read
    with _interrupts_held(path):
        try:
            content = _content(path, text)
            _replace(path, content)
            # kept only when reading the bytes back gives this very text (a text with lone
            # surrogates may not survive the round trip)
            if parsed is not None and (
                text.isascii() or _joined(content).decode(ENCODING, ERRORS) == text
            ):
                _last_read = (str(path), content, parsed, text)
        except OSError as exc:
            fix = _when_writable(Path(path), exc, " (a temporary file is written beside it)")
            raise WriteFailed(
                f"cannot write {_named(path)}: {exc.strerror or exc}; the file keeps its old "
                "content",
                file=str(path),
                hint=fix[0],
                again=fix[1],
            ) from None


@contextlib.contextmanager
def _interrupts_held(path: str | os.PathLike[str]) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # signals are handled by the main thread only
        return
    held = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    written = False
    try:
        yield
        written = True
    finally:
        caught = _take_pending(held)  # taken while still held: no handler runs half-way
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        _act_on(caught, written=written, path=path)


def _take_pending(held: set[signal.Signals]) -> set[int]:
    """The held signals that arrived, removed from the pending set."""
    caught: set[int] = set()
    while signal.sigpending() & held:
        info = signal.sigtimedwait(held, 0)
        if info is None:
            break
        caught.add(info.si_signo)
    return caught


def _act_on(caught: set[int], *, written: bool, path: str | os.PathLike[str]) -> None:
    """Honour the signals that arrived during a write, now that it is over."""
    handled = {
        signum
        for signum in caught
        if callable(signal.getsignal(signum))  # goalfile's own handlers (and Ctrl-C's)
    }
    for signum in caught - handled:
        signal.raise_signal(signum)  # default or ignored: as if it had come now
    if not handled:
        return
    cause: KeyboardInterrupt = Terminated() if signal.SIGTERM in handled else KeyboardInterrupt()
    if not written:
        raise cause  # the write failed anyway: an interrupt, the file untouched
    raise interrupted(
        cause,
        f"interrupted after {_named(path)} was written; its new content is complete",
    ) from None


def _content(path: str | os.PathLike[str], text: str) -> Content:
    """The bytes of ``text``. An ASCII text that edits (:func:`goalfile.ledger.spliced`) made
    from the ASCII text last read or written at ``path`` takes what they kept from that text's
    bytes, and only what they wrote is encoded: a long ledger is neither encoded again nor
    copied into a new buffer of its size, whose pages the kernel would fault in."""
    last = _last_read
    made = ledger.pieces_of(text) if last is not None and last[0] == str(path) else None
    if (
        made is None
        or last is None
        or made[0] is not last[3]
        or not text.isascii()
        or not made[0].isascii()  # then its offsets are those of its bytes
        or _size(last[1]) != len(made[0])
    ):
        data = text.encode(ENCODING, ERRORS)
        return ((data, 0, len(data)),)
    content: list[tuple[bytes, int, int]] = []
    for piece in made[1]:
        if isinstance(piece, str):
            data = piece.encode(ENCODING)
            content.append((data, 0, len(data)))
        else:
            content.extend(_spans(last[1], *piece))
    return tuple(content)


def _spans(content: Content, start: int, end: int) -> Iterator[tuple[bytes, int, int]]:
    """The spans of ``content`` that hold its bytes from ``start`` to ``end``."""
    pos = 0
    for data, begin, finish in content:
        low, high = max(start, pos), min(end, pos + finish - begin)
        if low < high:
            yield data, begin + low - pos, begin + high - pos
        pos += finish - begin


def _joined(content: Content) -> bytes:
    if len(content) == 1 and content[0][1] == 0 and content[0][2] == len(content[0][0]):
        return content[0][0]
    return b"".join(memoryview(data)[start:end] for data, start, end in content)


def _write_all(fd: int, content: Content) -> None:
    """Write the spans of ``content`` in order, from their buffers (no joined copy)."""
    views = [memoryview(data)[start:end] for data, start, end in content if end > start]
    while views:
        written = os.writev(fd, views)
        while views and written >= len(views[0]):
            written -= len(views.pop(0))
        if views and written:
            views[0] = views[0][written:]


def _replace(path: str | os.PathLike[str], content: Content) -> None:
    """Write ``content`` over the file."""
    real = os.path.realpath(path)
    folder = os.path.dirname(real) or "."
    try:
        info: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        info = None
    if info is not None:
        _require_replaceable(path, info)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    name = os.path.basename(real)
    _remove_stale_temporaries(folder, name)
    import tempfile  # here: reading goals (status, the hook on a met goal) needs no writing

    fd, tmp = tempfile.mkstemp(dir=folder, prefix=_temporary_prefix(name), suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            _write_all(handle.fileno(), content)
            os.fsync(handle.fileno())
            if info is not None and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
                _keep_owner(path, handle.fileno(), info)
        os.chmod(tmp, mode)
        os.replace(tmp, real)
        _WRITTEN.append(str(path))  # signals are held here: no handler runs in between
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _require_replaceable(path: str | os.PathLike[str], info: os.stat_result) -> None:
    """Refuse to replace a file that the replace would change beyond its content.

    A file is written by renaming a new one over it. That would make a read-only file (no
    write permission bit set, whoever runs goalfile, root too) writable after all, and would
    cut a hard link: the other names would keep the old content."""
    if not info.st_mode & 0o222:
        raise Refused(
            f"it is read-only (mode {stat.S_IMODE(info.st_mode):o}); nothing was written",
            file=str(path),
            hint=f"`chmod u+w -- {shell_word(str(path))}` makes it writable, if it should change",
        )
    if info.st_nlink > 1:
        raise Refused(
            f"it has {info.st_nlink} hard links; writing it would leave the other names "
            "with the old content, so nothing was written (keep one name, and make the "
            "others symlinks to it)",
            file=str(path),
        )


def _keep_owner(path: str | os.PathLike[str], fd: int, info: os.stat_result) -> None:
    """Give the new file the old one's owner and group, or refuse: a user who may write a
    file of someone else's (a group-writable file) must not make it theirs."""
    try:
        os.fchown(fd, info.st_uid, info.st_gid)
    except PermissionError:
        raise Refused(
            f"{_named(path)}: belongs to uid {info.st_uid} (gid {info.st_gid}); replacing it "
            "would give it to you, so nothing was written (its owner can write it)",
            file=str(path),
        ) from None


def _temporary_prefix(name: str) -> str:
    """Temporary files are ``.NAME.goalfile-PID.XXXXXXXX.tmp``: recognisably goalfile's, and
    naming the process that wrote them."""
    return f".{name}.goalfile-{os.getpid()}."


def _remove_stale_temporaries(folder: str, name: str) -> None:
    """Remove temporary files of ``name`` that a goalfile process left when it was killed
    while writing (SIGKILL, a power cut): those whose writing process no longer lives. Called
    under the goal's lock, so no live writer of this goal owns one."""
    pattern = re.compile(rf"\.{re.escape(name)}\.goalfile-(\d+)\.[^/]*\.tmp")
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for entry in entries:
        match = pattern.fullmatch(entry)
        if match is None or _alive(int(match.group(1))):
            continue
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(folder, entry))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # ours from an earlier write of this process, which failed
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: alive
    return True


def create_new(path: str | os.PathLike[str], text: str) -> None:
    """Write a new file; refuse when one exists already.

    The text goes to a temporary file first, which is then linked to ``path`` (a link never
    replaces an existing file): a write that fails leaves no file, not half of one."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _write_failed(target.parent, exc, what="create the folder") from None
    if target.exists():
        raise _exists(target)
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(
            dir=target.parent, prefix=_temporary_prefix(target.name), suffix=".tmp"
        )
    except OSError as exc:
        raise _write_failed(target, exc) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode(ENCODING, ERRORS))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        try:
            os.link(tmp, target)
        except FileExistsError:
            raise
        except OSError as exc:
            if exc.errno not in _NO_HARD_LINKS:
                raise
            _create_directly(target, text)  # a file system without hard links
    except FileExistsError:
        raise _exists(target) from None
    except OSError as exc:
        raise _write_failed(target, exc) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS}


def _create_directly(target: Path, text: str) -> None:
    """Create ``target`` exclusively and write it; remove what a failed write left."""
    handle = open(target, "x", encoding=ENCODING, errors=ERRORS, newline="")  # noqa: SIM115
    try:
        with handle:
            handle.write(text)
    except BaseException:
        with contextlib.suppress(OSError):
            target.unlink()  # ours: created exclusively above
        raise


def _exists(target: Path) -> Refused:
    shown = str(target)
    if target.is_absolute():  # named from the current folder, as every other path is
        with contextlib.suppress(ValueError, OSError):
            near = os.path.relpath(target)
            shown = near if not near.startswith("..") else shown
    return Refused(
        f"{_named(shown)}: exists already; nothing was written",
        hint=f"`goalfile status {shell_word(shown)}` shows it",
    )


def _write_failed(target: Path, exc: OSError, *, what: str = "write") -> WriteFailed:
    fix = _when_writable(target, exc)
    return WriteFailed(
        f"cannot {what} {_named(target)}: {exc.strerror or exc}; nothing was written",
        file=str(target),
        hint=fix[0],
        again=fix[1],
    )


def _when_writable(target: Path, exc: OSError, beside: str = "") -> tuple[str | None, str]:
    """The fix of a file that could not be written for ``exc``, as ``(hint, again)``: a
    folder without write permission is made writable, then the command runs again; any other
    cause (a full disk, a read-only file system) is the user's to remove first."""
    from goalfile.shellword import shell_word

    folder = target.parent
    if (
        exc.errno in (errno.EACCES, errno.EPERM)
        and os.path.isdir(folder)
        and not os.access(folder, os.W_OK)
    ):
        return f"`chmod u+w -- {shell_word(str(folder))}`", ""
    if exc.errno == errno.ENOSPC:
        return None, "once there is space on the disk"
    if exc.errno == errno.EROFS:
        return None, "where the file system is writable"
    return None, f"once {_named(str(folder))} can be written{beside}"


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


# --- locking ------------------------------------------------------------------------------


def _lock_paths(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """The lock and owner files of a goal, named by the goal's identity, not its path: the
    device and inode of its real folder and its name. The same goal reached by another path (a
    bind mount, a symlink, a relative path) gets the same lock. The folder is used, not the
    file: each write replaces the file, and with it the file's inode."""
    real = os.path.realpath(path)
    folder, name = os.path.split(real)
    try:
        info = os.stat(folder or ".")
        key = f"{info.st_dev:x}-{info.st_ino:x}-{name}"
    except OSError:
        key = real
    from goalfile.digest import sha256  # here: reading a goal takes no lock

    digest = sha256(key.encode(ENCODING, ERRORS)).hexdigest()[:32]
    locks = _lock_folder()
    return locks / f"goal-{digest}.lock", locks / f"goal-{digest}.owner"


def _lock_folder() -> Path:
    """This user's private folder for lock files, in the temporary folder.

    The temporary folder is shared, so the lock folder must be a real folder of this user's
    that nobody else can write to: else another user could plant links in it, and goalfile
    would write through them."""
    import tempfile

    folder = Path(tempfile.gettempdir()) / f"goalfile-locks-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise Refused(
            f"cannot create the lock folder {folder}: {exc.strerror or exc}",
            hint=_OWN_TMPDIR,
            again="",
        ) from None
    info = os.lstat(folder)
    if (
        not stat.S_ISDIR(info.st_mode)
        or info.st_uid != os.getuid()
        or stat.S_IMODE(info.st_mode) & 0o022
    ):
        raise Refused(
            f"the lock folder {folder} is not a private folder of this user's (owner uid "
            f"{info.st_uid}, mode {stat.S_IMODE(info.st_mode):o}); nothing was done",
            hint=_OWN_TMPDIR,
            again="",
        )
    return folder


def _describe_owner(owner_file: Path) -> str:
    """Who holds a goal's lock, as its owner note says: its command, its pid (in another pid
    namespace, such as the sandbox a host runs a command in, when the note says so: that pid
    names another process here, or none) and since when."""
    try:
        info = json.loads(read_regular_text(owner_file, what="lock owner note", limit=4096))
        since = time.strftime("%H:%M:%S", time.localtime(float(info["since"])))
        space, here = info.get("pidns"), _pid_namespace()
        elsewhere = " in another pid namespace" if space and here and space != here else ""
        return f"`{info['command']}` (pid {info['pid']}{elsewhere}, since {since})"
    except (OSError, ValueError, RecursionError, KeyError, TypeError, AttributeError, Refused):
        return "another goalfile process"


def _pid_namespace() -> str | None:
    """This process's pid namespace (``pid:[INODE]``), or None where it cannot be read."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return None


LOCK_POLL = 0.05
"""Seconds between tries of a lock another process holds."""

LOCK_SWEEP_AGE = 60.0
"""Seconds since its last change before a lock file nobody holds is removed by another goalfile.
A lock file just made belongs to the process that made it, between its open and its flock: the
sweep taking it then would make that process's ``--lock-wait 0`` fail with nobody holding it."""


@contextlib.contextmanager
def goal_lock(
    path: str | os.PathLike[str],
    *,
    command: str,
    wait: float,
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[None]:
    """Hold the goal's lock; wait up to ``wait`` seconds for another holder, saying who it is.

    The lock is an ``flock`` on a file in this user's lock folder. Its holder removes the file
    before letting go, so no lock file outlives its use; a process that was waiting on the
    removed file sees that the name now leads elsewhere (or nowhere) and tries again."""
    lock_file, owner_file = _lock_paths(path)
    try:
        fd = _take_lock(lock_file, 0.0)
        if fd is None:
            holder = _describe_owner(owner_file)
            if on_wait is not None:
                on_wait(f"{_named(path)}: waiting for {holder} to finish (up to {wait:g}s)")
            fd = _take_lock(lock_file, wait)
            if fd is None:
                raise Locked(
                    f"locked by {holder}; nothing was written",  # file= names the goal
                    file=str(path),
                    wait=wait,
                )
    except OSError as exc:
        raise _lock_failed(lock_file, exc) from None
    try:
        owner = {"pid": os.getpid(), "pidns": _pid_namespace(), "command": command}
        _write_owner(owner_file, {**owner, "since": time.time()})
        _remove_unused_locks(lock_file.parent, keep=lock_file)
        yield
    finally:
        with contextlib.suppress(OSError):
            owner_file.unlink()
        with contextlib.suppress(OSError):
            lock_file.unlink()  # still held: nobody can take this file between the two steps
        os.close(fd)


def _take_lock(lock_file: Path, wait: float) -> int | None:
    """An open descriptor holding the lock, or None when ``wait`` seconds passed without it."""
    import fcntl

    give_up = time.monotonic() + wait
    while True:
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            moved = not _same_file(fd, lock_file)  # its holder, or a sweep, removed it meanwhile
            os.close(fd)
            if moved:
                continue
            if time.monotonic() >= give_up:
                return None
            time.sleep(LOCK_POLL)
            continue
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, lock_file):
            return fd
        os.close(fd)  # its holder removed it as it let go: take the lock file there is now


def _same_file(fd: int, path: Path) -> bool:
    try:
        named = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def _remove_unused_locks(folder: Path, *, keep: Path) -> None:
    """Remove lock files nobody holds (left by a killed process, or by goalfile versions that
    kept them), and owner files without a lock file. Each is taken before it is removed, so a
    lock in use is never touched, and only when older than ``LOCK_SWEEP_AGE``, so a lock file
    another process has just made and not yet taken is not taken from under it."""
    import fcntl

    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        target = folder / name
        if target == keep or not name.endswith(".lock"):
            if name.endswith(".owner") and not (folder / f"{name[:-6]}.lock").exists():
                with contextlib.suppress(OSError):
                    target.unlink()
            continue
        try:
            fd = os.open(target, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            if time.time() - os.fstat(fd).st_mtime < LOCK_SWEEP_AGE:
                continue  # perhaps just made by a process about to take it
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if _same_file(fd, target):
                target.unlink()
        except OSError:
            pass  # held: in use
        finally:
            os.close(fd)


def _write_owner(owner_file: Path, owner: dict[str, object]) -> None:
    """Say who holds the lock (never through a link: O_NOFOLLOW; never into a FIFO or a
    device put in its place, whose open or write would wait: O_NONBLOCK, then fstat)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(owner_file, flags, 0o600)
    except OSError:
        return  # only a courtesy to a waiting process
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return
    with os.fdopen(fd, "w", encoding=ENCODING) as handle:
        handle.write(json.dumps(owner))


def _lock_failed(lock_file: Path, exc: OSError) -> Refused:
    return Refused(
        f"cannot take the lock {lock_file}: {exc.strerror or exc}",
        hint=_OWN_TMPDIR,
        again="",
    )


_OWN_TMPDIR = '`mkdir -p -m 700 -- "$HOME/.goalfile-tmp" && export TMPDIR="$HOME/.goalfile-tmp"`'
"""The fix of a lock folder goalfile cannot use: a temporary folder of this user's own, in
which goalfile makes its lock folder anew (then the command again, in the same shell). Not
``export TMPDIR="$(mktemp -d ...)"``: Gemini CLI's shell tool refuses a command substitution."""
