"""Run one git command as a real process, bounded in time, and say how git failed.

With :mod:`goalfile.run` (which runs checks), the only module of goalfile that starts a
process. Every git command goalfile runs goes through :func:`_git_in`: in the environment of
:func:`git_environment` (no variable that points git at another repository, no replace ref,
no graft), with :data:`_NO_PROGRAMS` (git runs no program the repository's configuration
names), within the time :mod:`goalfile.gitlimit` gives; at that limit git and every process it
started are killed. A git kept open to be asked again (:class:`KeptGit`, for
:mod:`goalfile.gitsession`) has that limit for each question. :class:`GitTimedOut` and
:class:`GitUnreadable` say what went wrong; the
readers are :mod:`goalfile.githistory` (history as committed, for `audit --against`) and
:mod:`goalfile.gitrepo` (the working repository, for the Stop hook and the commands).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from goalfile import gitlimit, gitsession
from goalfile.run import format_seconds
from goalfile.startwait import interrupts_wait

GIT_TIMEOUT = gitlimit.GIT_TIMEOUT
"""Seconds one git command may take before the read is given up, outside a shorter limit
(:mod:`goalfile.gitlimit`: the Stop hook's)."""


class GitTimedOut(Exception):
    """A git command did not end within its time limit; it was killed (with its process
    group). Its message names the command and the limit."""


def git_environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of every git command goalfile runs: ``env`` (else this process's)
    without the variables that point git at another repository, work tree or index
    (``GIT_DIR``, ``GIT_WORK_TREE``, ``GIT_INDEX_FILE``...: a git hook runs with them set, and
    a shell may export them), so that git asks the repository at the folder it runs in; and
    history as committed: no replace ref (`git replace`) and no graft (``.git/info/grafts``,
    which `--no-replace-objects` leaves on: one line there gave HEAD main as its parent, and
    `audit --against main` never read the commit that held the person's approval).

    One rule for every runner (:func:`_history_git`, :func:`git_toplevel`,
    :func:`_git_clean`): history read with ``GIT_DIR`` kept while the tracked goal files were
    listed without it let `audit --against main` compare a goal with another repository's
    ``main``. A command that means another index says so itself (``GIT_INDEX_FILE`` set after
    this, as `activate --commit` does)."""
    return {
        **_undirected(env if env is not None else os.environ),
        "GIT_NO_REPLACE_OBJECTS": "1",
        "GIT_GRAFT_FILE": os.devnull,
    }


_DISCOVERY_VARIABLES = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_NAMESPACE",
)


_NO_PROGRAMS = ("-c", "core.fsmonitor=false", "-c", "log.showSignature=false")
"""Options of every git command goalfile runs: git runs no program the repository's (or the
user's) configuration names for what goalfile asks, which anyone with a shell can set without
a trace in git: a file system monitor (``core.fsmonitor``, run whenever git reads the index)
or ``gpg.program`` (run by ``git log`` for a signed commit when ``log.showSignature`` is set).
Under the Stop hook such a program ran inside the hook, before it had closed its processes,
and forged its answer. (The reads of the working repository also fetch nothing:
:func:`_git_clean`.)"""


def _git_in(
    folder: str, args: Sequence[str], env: Mapping[str, str], *, data: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``git ARGS`` run in ``folder`` with ``env``, ``data`` (else nothing) as its input, its
    output captured, within the time :func:`goalfile.gitlimit.seconds` gives. When that time
    is up (or anything else ends the wait), git and every process it started are killed
    (:func:`_kill_tree`: SIGTERM, then SIGKILL), so nothing is left waiting; git stays in
    goalfile's process group, so a signal a host or a terminal sends that group (Claude Code's
    SIGTERM at its hook timeout, Ctrl-C) reaches it too. Raises :class:`GitTimedOut` at the
    limit (also when no time is left to start it), else what ``subprocess.Popen`` raises.
    Inside :func:`goalfile.gitsession.session`, a read asked before is answered again, and
    object reads go to one ``git cat-file`` process kept open."""
    held = gitsession.active()
    if held is not None:
        return held.run(folder, args, env, data, _git_once)
    return _git_once(folder, args, env, data=data)


def _git_once(
    folder: str, args: Sequence[str], env: Mapping[str, str], *, data: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """:func:`_git_in` as one git process, started and waited for here."""
    limit = gitlimit.seconds()
    shown = f"git {_subcommand(args)}"
    proc: subprocess.Popen[bytes] | None = None
    try:
        with interrupts_wait():  # raised once git's pid is known, so that git is killed too
            proc = _start(folder, args, env, limit, piped=data is not None)
        out, errors = proc.communicate(data, timeout=limit)
    except BaseException as exc:
        if proc is None:
            raise
        _kill_tree(proc)
        if isinstance(exc, subprocess.TimeoutExpired):
            raise timed_out(shown, limit) from None
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, errors)


def _start(
    folder: str, args: Sequence[str], env: Mapping[str, str], limit: float, *, piped: bool
) -> subprocess.Popen[bytes]:
    """``git ARGS`` started in ``folder`` (its input a pipe when ``piped``, else nothing),
    when ``limit`` leaves time for it; else :class:`GitTimedOut`. Started inside
    :func:`goalfile.startwait.interrupts_wait`, so that a signal is raised once its pid is
    known and git is killed too."""
    if limit <= 0:
        raise GitTimedOut(f"`git {_subcommand(args)}` was not run: no time was left for it")
    return subprocess.Popen(
        ["git", *_NO_PROGRAMS, *args],
        cwd=folder,
        env=env,
        stdin=subprocess.PIPE if piped else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        close_fds=True,
    )


def timed_out(shown: str, limit: float) -> GitTimedOut:
    """The error for ``shown`` (``git log``), killed after ``limit`` seconds, noted as such
    (:func:`goalfile.gitlimit.hung`)."""
    gitlimit.hung()
    return GitTimedOut(
        f"`{shown}` did not answer within {format_seconds(round(limit, 1))} and was killed"
    )


class KeptGit:
    """One git process that reads its questions from its input (``git cat-file --batch``,
    ``git check-attr --stdin``), asked again and again."""

    def __init__(self, folder: str, argv: Sequence[str], env: Mapping[str, str]) -> None:
        self.folder, self.args, self.env = folder, list(argv), env
        self.shown = f"git {_subcommand(argv)}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.ended = False

    def ask(
        self, data: bytes, whole: Callable[[bytearray], bool]
    ) -> subprocess.CompletedProcess[bytes]:
        """git's answer to ``data``: its output until ``whole`` says the answer is all there
        (all of it, with its exit code, when git ends before), within the time one git
        command has; at that limit git is killed (:class:`goalfile.gitrun.GitTimedOut`)."""
        import selectors
        import time

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


def _descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs, as ``/proc`` lists them now (Linux; none
    elsewhere)."""
    found: list[int] = []
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children", "rb") as handle:
                    children = [int(word) for word in handle.read().split()]
            except (OSError, ValueError):
                continue
            found += children
            waiting += children
    return found


GIT_TERM_GRACE = 0.5
"""Seconds a git killed at its time limit has between SIGTERM and SIGKILL to remove its locks."""


def _kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """End ``proc`` and every process it started: SIGTERM first, so that git removes the lock
    files it holds (a ``.git/index.lock`` left by a SIGKILL made every later `git add` and
    commit fail until a person removed it), then, after :data:`GIT_TERM_GRACE` at most,
    SIGKILL; reap it, and read what is left in its pipes for a second at most (a process that
    left its tree may hold them)."""
    tree = (*_descendants(proc.pid), proc.pid)
    for pid in tree:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=GIT_TERM_GRACE)
    for pid in tree if proc.returncode is None else tree[:-1]:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    try:
        proc.communicate(timeout=1.0)
    except subprocess.TimeoutExpired:
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
    proc.wait()


def _subcommand(args: Sequence[str]) -> str:
    """The git command ``args`` run (``ls-files``), past options and ``-c NAME=VALUE``."""
    after_c = False
    for arg in args:
        if not after_c and not arg.startswith("-"):
            return arg
        after_c = arg == "-c"
    return ""


def _undirected(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without the variables that would point git elsewhere (``GIT_DIR``...)."""
    return {k: v for k, v in env.items() if k not in _DISCOVERY_VARIABLES}


def git_toplevel(folder: str, *, env: Mapping[str, str] | None = None) -> str | None:
    """``git rev-parse --show-toplevel`` run in ``folder``: the top of the work tree git finds
    from there, or None when git finds none (or rejects what it finds, such as an empty
    ``.git`` file), in :func:`git_environment`. Raises OSError when git cannot be run at all.
    """
    clean = git_environment(env)
    try:
        done = _git_in(folder, ["rev-parse", "--show-toplevel"], clean)
    except (GitTimedOut, ValueError):
        return None
    top = done.stdout.decode("utf-8", "surrogateescape").strip()
    return top if done.returncode == 0 and top else None


def refused_owner(folder: str) -> str | None:
    """The repository git refuses at or above ``folder`` as owned by another user ("detected
    dubious ownership"), as the path its fix (`git config --global --add safe.directory PATH`)
    needs; None when git does not refuse one so, or cannot be run."""
    here = Path(folder)
    if not any(os.path.lexists(p / ".git") for p in (here, *here.parents)):
        return None
    try:
        done = _git_in(folder, ["rev-parse", "--show-toplevel"], git_environment(None))
    except (OSError, GitTimedOut, ValueError):
        return None
    if done.returncode == 0:
        return None
    return _git_refused(done).safe_directory


class GitUnreadable(Exception):
    """git could not list or read a repository (its message says why, in git's words). An
    internal signal between git's runner and the Stop hook, which names it in a hold; not a
    :class:`goalfile.errors.GoalfileError`. With ``branches``: HEAD names no commit although
    the repository holds these branches, and ``ref`` is the one HEAD was on before it moved
    (when git's records name one alone); with ``hung``: git did not answer within its time
    limit; with ``safe_directory``: git refuses the repository at that path as owned by
    another user; with ``forged``: an object git read is not what its name says
    (:mod:`goalfile.gitobjects`)."""

    def __init__(
        self,
        message: str,
        *,
        ref: str | None = None,
        branches: tuple[str, ...] = (),
        hung: bool = False,
        safe_directory: str | None = None,
        forged: bool = False,
    ) -> None:
        super().__init__(message)
        self.ref = ref
        self.branches = branches
        self.hung = hung  # git did not answer within its time limit and was killed
        self.safe_directory = safe_directory
        self.forged = forged  # an object git read does not hash to its name


def _git_said(done: subprocess.CompletedProcess[bytes]) -> str:
    """git's error: its ``fatal:`` and ``error:`` lines, each with the indented lines right
    below it (``unknown repository extension found:`` and the extension's name), joined, and
    not the advice git may print after them (the command that marks a repository safe, for
    one); else its last line."""
    lines = done.stderr.decode("utf-8", "replace").splitlines()
    said: list[str] = []
    taking = False
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            said.append(line.strip())
            taking = True
        elif taking and line[:1] in (" ", "\t") and line.strip():
            said.append(line.strip())
        else:
            taking = False
    rest = [line.strip() for line in lines if line.strip()]
    return " ".join(said) if said else rest[-1] if rest else f"git exited {done.returncode}"


_DUBIOUS = "fatal: detected dubious ownership in repository at '"


def _git_refused(done: subprocess.CompletedProcess[bytes]) -> GitUnreadable:
    """git's failure as :class:`GitUnreadable`; for a repository another user owns ("detected
    dubious ownership"), with the folder it names, as the path itself: the ``fatal:`` line
    holds it between quotes as it is, while git's advice (``git config --global --add
    safe.directory PATH``) shell-quotes a path with a space or a quote, which is read back
    as one shell word (a path kept with those quotes is another path, and git would still
    refuse the repository)."""
    import shlex

    said = _git_said(done)
    safe = None
    if "dubious ownership" in said:
        lines = done.stderr.decode("utf-8", "surrogateescape").splitlines()
        for line in lines:
            line = line.strip()
            if line.startswith(_DUBIOUS) and line.endswith("'") and len(line) > len(_DUBIOUS):
                safe = line[len(_DUBIOUS) : -1]
                break
            _, found, path = line.partition("--add safe.directory ")
            if found and path:
                try:
                    words = shlex.split(path)
                except ValueError:
                    continue
                if len(words) == 1:
                    safe = words[0]
    return GitUnreadable(said, safe_directory=safe)


def _git_clean() -> dict[str, str]:
    """:func:`git_environment` of this process, in the C locale (git's messages are read), for
    goalfile's reads (and stagings) of the working repository, with no transport
    (``protocol.allow=never``): an object a partial clone lacks is not fetched, so a
    ``remote.NAME.uploadpack`` the agent named is never run (under the Stop hook it ran
    inside the hook). `audit --against` reads history through :func:`_history_git`, which
    may fetch what a partial clone lacks."""
    clean = git_environment()
    clean["LC_ALL"] = "C"
    at = clean.get("GIT_CONFIG_COUNT", "0")
    count = int(at) if at.isdigit() else 0
    if not at.isdigit():  # git refuses a count it cannot read: none of those settings counts
        for key in [key for key in clean if key.startswith("GIT_CONFIG_")]:
            del clean[key]
    clean.update(
        {
            f"GIT_CONFIG_KEY_{count}": "protocol.allow",
            f"GIT_CONFIG_VALUE_{count}": "never",
            "GIT_CONFIG_COUNT": str(count + 1),
        }
    )
    return clean


def _git_read(
    folder: str, args: Sequence[str], env: Mapping[str, str], *, data: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """:func:`_git_in`, with every way git cannot run, its time limit included, raised as
    :class:`GitUnreadable`."""
    try:
        return _git_in(folder, args, env, data=data)
    except GitTimedOut as exc:
        raise GitUnreadable(str(exc), hung=True) from None
    except (OSError, ValueError) as exc:
        raise GitUnreadable(f"git could not run: {exc}") from None
