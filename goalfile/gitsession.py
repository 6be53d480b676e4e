"""Fewer git processes for one command that reads a repository many times (`goalfile audit`).

Inside :func:`session`, :func:`goalfile.gitrun._git_in` asks the session first
(:meth:`Session.run`): a read it asked before with the same arguments, folder and environment
(``rev-parse``, ``for-each-ref``, ``log``...) is answered as git answered it then, and the
object reads (``git cat-file --batch``, ``--batch-check``) go to one ``git cat-file`` process
per folder, arguments and environment, kept open until the session ends. Each question put to
that process has the time one git command has (:func:`goalfile.gitlimit.seconds`): at that
limit it is killed with the processes it started, as any git command is, and the next question
starts another. An audit of ten goals started about twenty git processes a goal without this
(docs/performance.md). Commands that write (`activate --commit`) never run inside one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

    Runner = Callable[..., subprocess.CompletedProcess[bytes]]

_READS = frozenset(
    ("rev-parse", "for-each-ref", "log", "rev-list", "merge-base", "check-attr", "config",
     "ls-files", "ls-tree", "cat-file", "show")
)  # fmt: skip
"""The git commands whose answers a session keeps: each only reads."""

_BATCHES = {"--batch": True, "--batch-check": False}  # the answer holds each object's bytes

_session: ContextVar[Session | None] = ContextVar("goalfile_git_session", default=None)


def active() -> Session | None:
    """The session the git commands run now belong to, if any."""
    return _session.get()


@contextmanager
def session() -> Iterator[Session]:
    """Inside: git's answers are kept and its object reads share processes (see the module);
    at the end every ``git cat-file`` still open is closed (killed when it does not end)."""
    held = Session()
    token = _session.set(held)
    try:
        yield held
    finally:
        _session.reset(token)
        held.close()


class Session:
    """The answers and open ``git cat-file`` / ``git check-attr`` processes of one
    :func:`session`."""

    def __init__(self) -> None:
        self._answers: dict[tuple[object, ...], subprocess.CompletedProcess[bytes]] = {}
        self._batches: dict[tuple[object, ...], _Batch] = {}

    def run(
        self,
        folder: str,
        args: Sequence[str],
        env: Mapping[str, str],
        data: bytes | None,
        once: Runner,
    ) -> subprocess.CompletedProcess[bytes]:
        """``git ARGS`` in ``folder`` as :func:`goalfile.gitrun._git_in` runs it (``once``:
        one process), answered from what this session kept when it can."""
        from goalfile.gitrun import _subcommand

        command = _subcommand(args)
        environment = tuple(sorted(env.items()))
        asked = _batched(args, command, data)
        if asked is not None:
            argv, request, end = asked
            key = (folder, tuple(argv), environment)
            batch = self._batches.get(key)
            if batch is None or batch.ended:
                batch = self._batches[key] = _Batch(folder, argv, env)
            return batch.ask(request, end)
        if data is not None or command not in _READS:
            return once(folder, args, env, data=data)
        key = (folder, tuple(args), environment)
        done = self._answers.get(key)
        if done is None:
            done = self._answers[key] = once(folder, args, env, data=None)
        return done

    def close(self) -> None:
        for batch in self._batches.values():
            batch.close()
        self._batches.clear()


Ends = Callable[[bytearray], bool]


def _batched(
    args: Sequence[str], command: str, data: bytes | None
) -> tuple[list[str], bytes, Ends] | None:
    """How a process kept open answers ``git ARGS`` (given ``data``): its arguments, what to
    write it, and when its answer is whole; None when one cannot.

    ``git cat-file --batch`` (or ``--batch-check``) reads the same lines. ``git check-attr
    -z ATTR... -- PATH`` is ``git check-attr -z --stdin ATTR...`` given ``PATH`` and a NUL,
    which answers the same three NUL-ended fields for each attribute."""
    if command == "cat-file" and args[-1] in _BATCHES and data and data.endswith(b"\n"):
        lines, content = data.count(b"\n"), _BATCHES[args[-1]]
        return list(args), data, lambda out: answer_end(out, lines, content=content) is not None
    if command != "check-attr" or data is not None or len(args) < 3 or args[-2] != "--":
        return None
    import os

    at = args.index("check-attr")
    attributes = [arg for arg in args[at + 1 : -2] if arg != "-z"]
    if (
        "-z" not in args[at + 1 : -2]
        or not attributes
        or any(arg.startswith("-") for arg in attributes)
    ):
        return None  # -a, --cached, --source: asked one at a time
    path = os.fsencode(args[-1])
    if b"\0" in path:
        return None
    fields = 3 * len(attributes)
    argv = [*args[: at + 1], "-z", "--stdin", *attributes]
    return argv, path + b"\0", lambda out: out.count(b"\0") >= fields


def answer_end(out: bytes | bytearray, asked: int, *, content: bool) -> int | None:
    """Where the answer of ``git cat-file --batch`` (with ``content``; else ``--batch-check``)
    to ``asked`` lines ends in ``out``: past each object's line and, for one found, its bytes
    and newline; None when ``out`` does not hold it all yet. A line of three words whose last
    is a number is an object found (as :func:`goalfile.gitobjects.parse_batch` reads it);
    any other (``NAME missing``) has nothing after it."""
    at = 0
    for _ in range(asked):
        end = out.find(b"\n", at)
        if end < 0:
            return None
        head = bytes(out[at:end]).split(b" ")
        at = end + 1
        if content and len(head) == 3 and head[2].isdigit():
            at += int(head[2]) + 1
            if at > len(out):
                return None
    return at


class _Batch:
    """One git process that reads its questions from its input (``git cat-file --batch``,
    ``git check-attr --stdin``), asked again and again."""

    def __init__(self, folder: str, argv: Sequence[str], env: Mapping[str, str]) -> None:
        from goalfile.gitrun import _subcommand

        self.folder, self.args, self.env = folder, list(argv), env
        self.shown = f"git {_subcommand(argv)}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.ended = False

    def ask(self, data: bytes, whole: Ends) -> subprocess.CompletedProcess[bytes]:
        """git's answer to ``data``: its output until ``whole`` says the answer is all there
        (all of it, with its exit code, when git ends before), within the time one git
        command has; at that limit git is killed (:class:`goalfile.gitrun.GitTimedOut`)."""
        import os
        import selectors
        import subprocess
        import time

        from goalfile import gitlimit
        from goalfile.gitrun import _kill_tree, _start, timed_out
        from goalfile.startwait import interrupts_wait

        limit = gitlimit.seconds()
        deadline = time.monotonic() + limit
        out, errors = bytearray(), bytearray()
        try:
            if self.proc is None:
                with interrupts_wait():  # raised once git's pid is known, so git is killed too
                    self.proc = _start(self.folder, self.args, self.env, limit, piped=True)
            proc = self.proc
            assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
            os.set_blocking(proc.stdin.fileno(), False)
            pending = memoryview(data)
            reading = {proc.stdout.fileno(): out, proc.stderr.fileno(): errors}
            with selectors.DefaultSelector() as waiting:
                for fd in reading:
                    waiting.register(fd, selectors.EVENT_READ)
                waiting.register(proc.stdin.fileno(), selectors.EVENT_WRITE)
                while reading:  # until the answer is whole, or git has closed its output
                    if proc.stdout.fileno() in reading and whole(out):
                        break
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise subprocess.TimeoutExpired(self.shown, limit)
                    for key, _ in waiting.select(left):
                        if key.fd in reading:
                            chunk = os.read(key.fd, 1 << 16)
                            if chunk:
                                reading[key.fd] += chunk
                            else:
                                waiting.unregister(key.fd)
                                del reading[key.fd]
                            continue
                        try:
                            pending = pending[os.write(key.fd, pending) :]
                        except BlockingIOError:
                            continue
                        except BrokenPipeError:  # git ended: its output says how
                            pending = pending[len(pending) :]
                        if not pending:
                            waiting.unregister(key.fd)
            code = 0
            if not reading:  # git ended: all it said, and its exit code
                self.ended = True
                code = proc.wait(timeout=max(0.0, deadline - time.monotonic()))
                self.close()
        except BaseException as exc:
            self.ended = True
            if self.proc is not None:
                _kill_tree(self.proc)
            if isinstance(exc, subprocess.TimeoutExpired):
                raise timed_out(self.shown, limit) from None
            raise
        return subprocess.CompletedProcess(proc.args, code, bytes(out), bytes(errors))

    def close(self) -> None:
        """Close git's input (git ends at that) and wait for it; killed (with the processes
        it started) when it does not end within a second."""
        import contextlib
        import subprocess

        from goalfile.gitrun import _kill_tree

        proc, self.ended = self.proc, True
        if proc is None:
            return
        if proc.returncode is None:
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                _kill_tree(proc)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
