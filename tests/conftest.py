"""Shared helpers: real git repositories in tmp_path, goal files, and goalfile as a real process."""

from __future__ import annotations

import contextlib
import datetime as _dt
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """The workers `pytest -n auto` (the README's test command) starts: twice as many as the
    cores this process may run on. Much of a test's time is spent waiting for a real
    process (goalfile, git, a host CLI, a check's sleep up to the Stop hook's time limit), and
    a worker waiting leaves its core idle. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` decides instead
    when it is set (pytest-xdist reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    return max(2, cores * 2)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """In the process that starts the pytest-xdist workers, before it starts them: each test
    module of the run whose asserts pytest has not rewritten yet is rewritten once, into the
    cache beside it (``__pycache__/*-pytest-*.pyc``), by two processes side by side.

    Otherwise every worker rewrites every module while it collects, at the same time (from a
    fresh clone, or with ``PYTHONDONTWRITEBYTECODE`` set, where pytest writes no cache): about
    14 CPU-s a worker, of which a worker that finds the cache spends 4. The workers read the
    cache whether or not they may write one."""
    config = session.config
    if not config.pluginmanager.has_plugin("dsession") or hasattr(config, "workerinput"):
        return  # no workers to start, or a worker itself
    from _pytest.assertion import rewrite

    modules: set[Path] = set()
    for arg in config.args:
        path = Path(arg.split("::", 1)[0]).absolute()
        found = path.rglob("*.py") if path.is_dir() else [path]
        modules.update(p for p in found if p.name.startswith("test_") or p.name == "conftest.py")
    if not modules or config.getoption("assertmode") != "rewrite":
        return
    modules.add(Path(__file__))
    state = config.stash[rewrite.assertstate_key]

    def cache_of(module: Path) -> Path:
        return rewrite.get_cache_dir(module) / (module.name[:-3] + rewrite.PYC_TAIL)

    stale = sorted(m for m in modules if m.is_file() and rewrite._read_pyc(m, cache_of(m)) is None)
    children = []
    for share in (stale[::2], stale[1::2]):
        pid = os.fork()
        if pid == 0:  # a child: rewrites its share, writes nothing else, and ends at once
            status = 0
            try:
                for module in share:
                    if rewrite.try_makedirs(cache_of(module).parent):
                        source_hash, co = rewrite._rewrite_test(module, config)
                        rewrite._write_pyc(state, co, source_hash, cache_of(module))
            except BaseException:  # a module pytest cannot read: its worker reports it
                status = 1
            os._exit(status)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)


LONG_FIRST = (
    "tests/test_walk",
    "tests/test_yarn_pnpm.py::",
    "tests/test_sdist_six.py::",
    "tests/test_verify.py::test_verify_of_a_gigabyte_of_output",
)
"""Tests that come last in the order pytest finds the tests (the file names sort them there)
and take long: the walks through real projects (tox, pytest, pip installs: 3 to 21 CPU-s and
up to two minutes each on a loaded machine), yarn and pnpm from the npm registry, six's suite,
verify of a gigabyte. Run first, so that no worker of `pytest -n` starts one while the others
have nothing left to do (pytest-xdist hands the tests out in that order, after the tests of
each ``xdist_group``)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of :data:`LONG_FIRST` go first.

    ``--dist loadgroup`` (the README's test command) sends the tests of one
    ``xdist_group`` to one worker, which then builds the module fixtures they share once
    (pre-commit's environments, the formatted goals): pytest-xdist tells a group by a suffix
    ``@NAME`` it writes on each test's node id, but pytest 9 reads a node id from
    ``Node._id``, not from the ``_nodeid`` that pytest-xdist 3.8 writes, so every group was
    spread over all the workers and each of them built those fixtures again. In a worker of
    such a run, the suffix is written here where pytest reads it (once: not when the node id
    already ends in a group)."""
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))  # stable: else as found
    items[:] = _hosts_spread(items)
    if not getattr(config.option, "loadgroup", False) or not items or not hasattr(items[0], "_id"):
        return  # not such a worker, or a pytest that reads `_nodeid` (pytest-xdist writes it)
    from _pytest.nodeid import NodeId

    for item in items:
        names = {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
        nodeid = item.nodeid
        if names and nodeid.rfind("@") <= nodeid.rfind("]"):
            item._id = NodeId.parse(f"{nodeid}@{'_'.join(sorted(names))}")


def _hosts_spread(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with the real-host tests (``tests/hosts/``) spread evenly between the other
    test files, each put between two files, never inside one (a file's module fixtures are
    built once while its tests run one after another). A host test spends most of its time
    waiting (for a host CLI's turns, a check that sleeps up to the Stop hook's time limit): in
    file-name order they all came first, and for eight minutes the workers waited while the
    cores idled; spread, a worker waiting on a host leaves its core to the others' goalfile
    processes."""
    hosts = [item for item in items if item.nodeid.startswith("tests/hosts/")]
    rest = [item for item in items if not item.nodeid.startswith("tests/hosts/")]
    if not hosts or not rest:
        return items
    files: list[list[pytest.Item]] = []
    for item in rest:
        if files and files[-1][0].nodeid.partition("::")[0] == item.nodeid.partition("::")[0]:
            files[-1].append(item)
        else:
            files.append([item])
    spread: list[pytest.Item] = []
    given = 0
    for index, run in enumerate(files, start=1):
        spread += run
        due = len(hosts) * index // len(files)  # the host tests due after this many files
        spread += hosts[given:due]
        given = due
    return spread


REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"

HEADER = "| id | criterion | check | expected | kind |"
RULE = "|----|-----------|-------|----------|------|"


def recent_days() -> tuple[str, str]:
    """Today's date and yesterday's, as ISO strings.

    A date that a goalfile process started by the running test wrote is one of the two: a test
    may cross midnight between the process and its assertion, so no test fixes today's date once.
    """
    today = _dt.date.today()
    return today.isoformat(), (today - _dt.timedelta(days=1)).isoformat()


def undated(text: str) -> str:
    """``text`` with each of ``recent_days()`` written as ``TODAY``, for comparing whole texts."""
    for day in recent_days():
        text = text.replace(day, "TODAY")
    return text


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of this test run without any GOALFILE_* variable, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOALFILE_")}
    env.setdefault("PATH", "/usr/bin:/bin")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once, not in every goalfile process
    env.update(extra or {})
    return env


def run_goalfile(
    *args: str | os.PathLike[str],
    cwd: Path,
    env: Mapping[str, str] | None = None,
    input: str | None = None,
    timeout: float = 60,
    **popen: Any,
) -> subprocess.CompletedProcess[str]:
    """``python -m goalfile ARGS`` as a real process; stdout and stderr captured as text.

    ``popen`` goes to :func:`subprocess.run` as it is (``user=``, ``preexec_fn=``...)."""
    return subprocess.run(
        [sys.executable, "-m", "goalfile", *map(str, args)],
        cwd=cwd,
        env=clean_env(env),
        input=input,
        stdin=None if input is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        check=False,
        **popen,
    )


def goalfile_here(
    *args: str | os.PathLike[str], cwd: Path, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``goalfile ARGS`` in this process: goalfile's command line through click's runner, in
    ``cwd``, with the environment :func:`run_goalfile` gives its process; returned as
    :func:`run_goalfile` returns a run. The same code without an interpreter started around it
    (about 0.2 CPU-s a command), for the cases of a parametrized test whose subject is the text
    a command reads, while one or two of its cases run as real processes. Not for a command
    that writes to a file descriptor itself (the Stop hook). An exception other than an exit
    fails the test with its traceback."""
    import traceback

    from click.testing import CliRunner

    from goalfile.cli import main

    environ: dict[str, str | None] = {name: None for name in os.environ}
    environ.update(clean_env(env))
    with contextlib.chdir(cwd):
        result = CliRunner().invoke(main, [str(a) for a in args], env=environ)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert result.exc_info is not None
        raise AssertionError("".join(traceback.format_exception(*result.exc_info)))
    return subprocess.CompletedProcess(
        ["goalfile", *map(str, args)], result.exit_code, result.stdout, result.stderr
    )


def start_goalfile(
    *args: str | os.PathLike[str], cwd: Path, env: Mapping[str, str] | None = None
) -> subprocess.Popen[str]:
    """``python -m goalfile ARGS`` started in the background (its own process group)."""
    return subprocess.Popen(
        [sys.executable, "-m", "goalfile", *map(str, args)],
        cwd=cwd,
        env=clean_env(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        start_new_session=True,
    )


def stop_input(cwd: Path, *, active: bool = False, agent: str = "claude") -> str:
    """What ``agent``'s host gives its Stop hook on stdin (the recorded
    tests/data/hooks/AGENT-stop.json) for a session in ``cwd``: ``stop_hook_active`` as
    given, no transcript."""
    data = json.loads((DATA / "hooks" / f"{agent}-stop.json").read_text(encoding="utf-8"))
    data.update(cwd=str(cwd), stop_hook_active=active)
    data.pop("transcript_path", None)
    return json.dumps(data)


def hook_answer(
    cwd: Path, *, active: bool = False, agent: str = "claude", timeout: str = "600"
) -> dict[str, object]:
    """The Stop hook (`goalfile hook stop --agent AGENT --timeout TIMEOUT`) in ``cwd``, given
    :func:`stop_input`: the answer the host reads (an empty object for none). It exits 0 and
    prints no traceback."""
    done = run_goalfile(
        "hook", "stop", "--agent", agent, "--timeout", timeout,
        cwd=cwd, input=stop_input(cwd, active=active, agent=agent),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout) if done.stdout.strip() else {}
    assert isinstance(answer, dict), answer
    return answer


WITH_GOALFILE = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
"""The PATH of a shell in which `goalfile` is this goalfile (a printed fix runs it)."""


def fix_of(reason: object) -> str:
    """The command of the first `fix:` line that begins with one, between its backticks."""
    found = re.search(r"fix: `([^`]+)`", str(reason))
    assert found is not None, reason
    return found.group(1)


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A printed command, run as written in ``cwd`` by a shell, with this goalfile on PATH."""
    return subprocess.run(
        command, shell=True, cwd=cwd, env=clean_env(WITH_GOALFILE), capture_output=True, text=True
    )


def sh(command: str, cwd: Path) -> None:
    """:func:`shell`, which must succeed."""
    done = shell(command, cwd)
    assert done.returncode == 0, (command, done.stdout, done.stderr)


def last_line(text: str) -> str:
    lines = text.rstrip("\n").split("\n")
    return lines[-1]


def wait_for(predicate: Callable[[], bool], *, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        time.sleep(0.02)


def gone(pid: int) -> bool:
    """The process has ended (a zombie that an init which does not reap leaves counts as
    ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True
    return state in (b"Z", b"X")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, check=True, env=clean_env()
    )
    return done.stdout


def make_git_repo(path: Path) -> Path:
    """A new git repository at ``path`` (made if missing), with a user name and e-mail: what
    `git init -q` and two `git config` write, copied from the one this process made first in
    the run's temporary folder for the same git environment (:func:`_git_template`). Where
    that cannot be (``path`` is outside a run's folder, or a repository already), the three
    git commands run there."""
    path.mkdir(parents=True, exist_ok=True)
    template = _git_template(path)
    if template is None or (path / ".git").exists():
        _git_init(path)
    else:
        shutil.copytree(template, path / ".git", symlinks=True, copy_function=shutil.copy)
    return path


def _git_init(path: Path) -> None:
    git(path, "init", "-q")
    git(path, "config", "user.email", "tests@example.invalid")
    git(path, "config", "user.name", "goalfile tests")


def _git_template(path: Path) -> Path | None:
    """The ``.git`` folder of a repository made as :func:`make_git_repo` makes one, once in
    this process for the environment git reads (``GIT_*``, ``HOME``, ``XDG_CONFIG_HOME``), in
    the temporary folder of the run ``path`` belongs to; ``None`` when it belongs to none, or
    when that environment names a repository of its own (``GIT_DIR``). The three git
    processes took about 10 ms of CPU per repository (theirs and this process's), the copy 4."""
    env = clean_env()
    if "GIT_DIR" in env or "GIT_WORK_TREE" in env:
        return None
    run = _run_folder(path)
    if run is None:
        return None
    read = sorted(
        (k, v) for k, v in env.items() if k.startswith("GIT_") or k in ("HOME", "XDG_CONFIG_HOME")
    )
    key = hashlib.sha256(repr(read).encode()).hexdigest()[:16]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    template = run / "git-templates" / f"{worker}-{os.getpid()}-{key}"
    if not template.is_dir():
        made = template.with_name(template.name + ".making")
        shutil.rmtree(made, ignore_errors=True)
        made.mkdir(parents=True)
        _git_init(made)
        (made / ".git").rename(template)
        made.rmdir()
    return template


_LOCK_HOLDER = """
import fcntl, os, sys
from goalfile.files import _lock_paths
lock = _lock_paths(sys.argv[1])[0]
lock.parent.mkdir(parents=True, exist_ok=True)
fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.read()
"""


@contextlib.contextmanager
def goal_lock_held(goal: Path) -> Iterator[None]:
    """A process of the agent's own holds ``goal``'s lock (as goalfile takes it) for the body
    of the ``with``: every goalfile process that wants the goal waits for it, then refuses."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _LOCK_HOLDER, str(goal)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        yield
    finally:
        holder.communicate("")


def made_once(
    factory: pytest.TempPathFactory | _RunFolder, make: Callable[[Path, dict[str, str]], None]
) -> Path:
    """A repository ``make(root, env)`` sets up, for a module fixture whose tests each take a
    copy (:func:`copy_of`): goalfile processes get a state folder of the repository's own
    (``env``, and ``XDG_STATE_HOME`` while ``make`` runs), and nothing may be written there or
    beside the repository, nor may a file of the repository name the folder it was made in.

    Made once for the whole run, not once in each pytest-xdist worker that runs a test of the
    module (:func:`built_once`): the tests spread over the workers, and each built it again."""

    def build(folder: Path) -> None:
        root = make_git_repo(folder / "repo")
        state = folder / "state"
        state.mkdir()
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("XDG_STATE_HOME", str(state))
            make(root, {"XDG_STATE_HOME": str(state)})
        assert not any(state.iterdir()), list(state.iterdir())
        assert sorted(p.name for p in folder.iterdir()) == ["repo", "state"]
        for path in root.rglob("*"):
            if path.is_file() and ".git/objects" not in path.as_posix():
                assert str(folder).encode() not in path.read_bytes(), path

    return built_once(factory, _made_key(make), build) / "repo"


def made_once_near(path: Path, make: Callable[[Path, dict[str, str]], None]) -> Path | None:
    """:func:`made_once` for a helper given only a folder of the running test (``tmp_path`` or
    one below it): the repository made once in the run that folder belongs to, or ``None``
    when the folder is not in a run's temporary folder (``--basetemp`` elsewhere), where the
    helper makes it in place as before."""
    run = _run_folder(path)
    return None if run is None else made_once(_RunFolder(run), make)


def built_once_near(path: Path, key: str, build: Callable[[Path], None]) -> Path | None:
    """:func:`built_once` for a helper given only a folder of the running test: the folder
    built once in the run that ``path`` belongs to, or ``None`` when it belongs to none (the
    helper then builds in place)."""
    run = _run_folder(path)
    return None if run is None else built_once(_RunFolder(run), key, build)


def _run_folder(path: Path) -> Path | None:
    """The folder of the pytest run that holds ``path``: ``pytest-of-USER/pytest-N``, whose
    ``popen-gwK`` folders pytest-xdist's workers take as their own."""
    for folder in path.absolute().parents:
        if folder.parent.name.startswith("pytest-of-") and folder.name.startswith("pytest-"):
            return folder
    return None


class _RunFolder:
    """What :func:`built_once` asks of a ``TempPathFactory``, for a run's folder."""

    def __init__(self, run: Path) -> None:
        self._run = run

    def getbasetemp(self) -> Path:
        # built_once takes the parent of a worker's folder: give it one below the run's
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        return self._run / f"popen-{worker}" if worker else self._run


def _made_key(make: Callable[..., object]) -> str:
    """What names what ``make`` builds in this run: its module and name, and the values a
    closure took (``_made_with("calc-add")`` and ``_made_with("auth-1")`` build two
    repositories)."""
    cells = getattr(make, "__closure__", None) or ()
    taken = [repr(cell.cell_contents) for cell in cells]
    return "\0".join([make.__module__, make.__qualname__, *taken])


def built_once(
    factory: pytest.TempPathFactory | _RunFolder, key: str, build: Callable[[Path], None]
) -> Path:
    """A folder ``build(folder)`` filled, once for the run of the whole suite: the pytest-xdist
    workers (``pytest -n``) share it through the run's temporary folder, and the first that
    asks builds it while the others wait for it (a file lock). Its users read it or copy it;
    none may change it. A build that failed is tried again by the next that asks (and fails
    that test too)."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    shared = base / "built-once"
    shared.mkdir(exist_ok=True)
    name = hashlib.sha256(key.encode()).hexdigest()[:16]
    folder, done = shared / name, shared / f"{name}.done"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build that failed
            folder.mkdir()
            build(folder)
            done.write_text(key, encoding="utf-8")
    return folder


def copy_of(made: Path, dest: Path) -> Path:
    """A copy of the repository :func:`made_once` set up, at ``dest``."""
    return Path(shutil.copytree(made, dest, symlinks=True))


def committed_repo(path: Path) -> Path:
    """:func:`make_git_repo` with a first commit (a README.md), so that HEAD names one."""
    make_git_repo(path)
    (path / "README.md").write_text("# project\n", encoding="utf-8")
    git(path, "add", "README.md")
    git(path, "commit", "-qm", "base")
    return path


def approved_project(root: Path, env: dict[str, str]) -> None:
    """For :func:`made_once`: a README.md on ``main`` and the goal `goals/auth.md` (`test -f
    ok`, exit 0) approved and committed by `goalfile new ... --activate --commit`."""
    (root / "README.md").write_text("# project\n", encoding="utf-8")
    git(root, "add", "README.md")
    git(root, "commit", "-qm", "base")
    git(root, "branch", "-M", "main")
    done = run_goalfile(
        "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--activate", "--commit", cwd=root, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def host_env(home: Path) -> dict[str, str]:
    """PATH with the goalfile under test, and the user's settings folders of the hosts
    (Claude Code's, Codex's) inside ``home``: what doctor and init read besides the project."""
    return {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": str(home),
        "CODEX_HOME": str(home / ".codex"),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
    }


def base_repo(path: Path) -> Path:
    """A repository at ``path`` on branch ``main`` with one commit (a README) and no goal."""
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "tests@example.invalid")
    git(path, "config", "user.name", "goalfile tests")
    (path / "README").write_text("base\n", encoding="utf-8")
    git(path, "add", "README")
    git(path, "commit", "-qm", "base")
    return path


def approved_repo(path: Path, *new: str) -> Path:
    """:func:`base_repo` with the goal ``goalfile new *new --activate --commit`` writes,
    approved and committed (the person's repository, before the agent starts). Made once in
    the run for each ``new`` and copied to ``path`` (:func:`made_once_near`)."""

    def make(root: Path, env: dict[str, str]) -> None:
        git(root, "symbolic-ref", "HEAD", "refs/heads/main")  # as `git init -b main`
        (root / "README").write_text("base\n", encoding="utf-8")
        git(root, "add", "README")
        git(root, "commit", "-qm", "base")
        done = run_goalfile(
            "new", *new, "--activate", "--commit", cwd=root,
            env={**env, "GIT_CONFIG_GLOBAL": os.devnull},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr

    made = made_once_near(path, make)
    if made is not None:
        return copy_of(made, path)
    path.mkdir(parents=True)
    make(make_git_repo(path), {})
    return path


@pytest.fixture(autouse=True)
def state_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A state folder of each test's own (``XDG_STATE_HOME``, passed on by :func:`clean_env`):
    the Stop hook remembers a host session's repositories there, and the recorded host input
    every test sends names the same session."""
    folder = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


@pytest.fixture(autouse=True)
def no_guard_left() -> Iterator[None]:
    """After a test that ran checks in this process (:func:`goalfile_here`, goalfile.run
    itself), the guard goalfile started for them (:mod:`goalfile.checkguard`) is ended as it is
    when a goalfile process exits: its input is closed, and it ends what is left of those
    checks. Otherwise it waits for this pytest process to end, the whole run, with whatever
    check it was told of."""
    yield
    run = sys.modules.get("goalfile.run")
    guard = getattr(run, "_guard", None)
    if guard is None:
        return
    run._guard = None  # type: ignore[union-attr]  # the next check starts a guard of its own
    with contextlib.suppress(OSError, ValueError):
        guard.stdin.close()
    guard.wait(timeout=20)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A real git repository with a ``goals/`` folder."""
    root = make_git_repo(tmp_path / "repo")
    (root / "goals").mkdir()
    return root


def code(command: str) -> str:
    """A command as one Markdown code span in a table cell (``|`` written ``\\|``)."""
    text = command.replace("|", "\\|")
    fence = "`"
    while fence in text:
        fence += "`"
    if text.startswith("`") or text.endswith("`"):
        text = f" {text} "
    return f"{fence}{text}{fence}"


Row = tuple[str, str, str, str]  # id, check (a command), expected, kind


def row(cid: str, check: str, expected: str, kind: str = "deterministic") -> Row:
    return (cid, check, expected, kind)


def frontmatter(
    slug: str,
    *,
    status: str = "draft",
    created: str = "2026-12-01",
    iterations: str = "5",
    tokens: str = "null",
    iterations_used: int = 0,
    tokens_used: int = 0,
    extra: Iterable[str] = (),
) -> str:
    """A goal file's frontmatter, ``---`` to ``---`` (each line ending in a newline), as the
    skill family writes it: no comments; ``extra`` lines (``cwd: .``) go last."""
    return "".join(
        f"{line}\n"
        for line in (
            "---",
            f"slug: {slug}",
            f"status: {status}",
            f"created: {created}",
            "budget:",
            f"  iterations: {iterations}",
            f"  tokens: {tokens}",
            f"iterations_used: {iterations_used}",
            f"tokens_used: {tokens_used}",
            *extra,
            "---",
        )
    )


def goal_text(
    *,
    slug: str = "demo",
    status: str = "active",
    rows: Sequence[Row] = (row("C1", "true", "exit 0"),),
    iterations: str = "5",
    tokens: str = "null",
    iterations_used: int = 1,
    tokens_used: int = 0,
    extra: Iterable[str] = (),
    end_state: str = "the checks pass",
    non_goals: Sequence[str] = ("Nothing outside this folder changes.",),
    iterations_section: str | None = "",
    lessons: str | None = "",
) -> str:
    """A goal file in the documented format; ``None`` for a section leaves it out."""
    lines = [
        "---",
        f"slug: {slug}",
        f"status: {status}            # draft | active | paused | met | blocked | exhausted",
        "created: 2026-11-30",
        "budget:",
        f"  iterations: {iterations}           # null = unbounded",
        f"  tokens: {tokens}         # null = unbounded",
        f"iterations_used: {iterations_used}",
        f"tokens_used: {tokens_used}",
        *extra,
        "---",
        f"# Goal: {end_state}",
        "",
        "## Non-goals",
        *(f"- {item}" for item in non_goals),
        "",
        "## Acceptance criteria",
        HEADER,
        RULE,
        *(
            f"| {cid} | criterion of {cid} | {code(check) if check else ''} | {expected} | {kind} |"
            for cid, check, expected, kind in rows
        ),
        "",
        "## Plan",
        "",
        "## Token accounting",
        "",
    ]
    if iterations_section is not None:
        lines += ["## Iterations", *([iterations_section] if iterations_section else []), ""]
    if lessons is not None:
        lines += ["## Lessons", *([lessons] if lessons else [])]
    return "\n".join(lines) + "\n"


def goal_with_cwd(repo: Path, cwd: str) -> None:
    """An active goal whose frontmatter `cwd:` (line 4, typed into the draft by hand) is
    ``cwd``; its check passes only where `pwd` ends in `/app`."""
    written = run_goalfile(
        "new", "demo", "it runs in app", "--check", "pwd", "--expected",
        'exit 0; stdout matches /\\/app$/', "--non-goal", "n", cwd=repo,
    )  # fmt: skip
    assert written.returncode == 0, written.stderr
    path = repo / "goals" / "demo.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[2].startswith("status: draft"), lines[:4]
    lines.insert(3, f"cwd: {cwd}")
    path.write_text("\n".join(lines), encoding="utf-8")
    activated = run_goalfile("activate", "goals/demo.md", cwd=repo)
    assert activated.returncode == 0, activated.stderr


def hand_written_goal(
    slug: str, *, check: str = "true", end_state: str = "x", extra: Iterable[str] = ()
) -> str:
    """An active goal as an agent writes one by hand: one row (C1, ``check``, exit 0), no
    ledger entry and no approval."""
    body = [
        f"# Goal: {end_state}",
        "",
        "## Non-goals",
        "",
        "- n",
        "",
        "## Acceptance criteria",
        "",
        "| id | criterion | check | expected | kind |",
        "|----|----|----|----|----|",
        f"| C1 | c | `{check}` | exit 0 | deterministic |",
        "",
        "## Iterations",
        "",
    ]
    return frontmatter(slug, status="active", extra=extra) + "\n".join(body)


# an active goal whose `cwd:` holds a NUL, which no system call takes
NUL_CWD = hand_written_goal("aaa", extra=('cwd: "a\\0b"',))


def write_goal(folder: Path, text: str, name: str = "demo.md", *, stage: bool = True) -> Path:
    """Write a goal file; in a git work tree, ``stage`` it as the person who approves it does
    (the Stop hook runs only checks whose approval git's index or HEAD holds)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8", newline="")
    if stage:
        subprocess.run(
            ["git", "add", "--", name], cwd=folder, capture_output=True, env=clean_env()
        )  # outside a work tree, or in an ignored folder: git refuses, and nothing is staged
    return path


def outside_git(path: Path) -> bool:
    return not any(
        (folder / ".git").exists() for folder in (path.resolve(), *path.resolve().parents)
    )


def loose_object_file(repo: Path, oid: str) -> Path:
    """The file of git's loose object ``oid`` in ``repo``."""
    path = repo / ".git" / "objects" / oid[:2] / oid[2:]
    assert path.is_file(), f"{oid} is not a loose object"
    return path


def overwrite_object(repo: Path, oid: str, kind: str, data: bytes) -> Path:
    """Put ``data`` (a ``kind`` object) under the name ``oid``, as the agent's shell can: a
    forged object, whose bytes hash to another name. Its file."""
    path = loose_object_file(repo, oid)
    path.chmod(0o644)
    path.write_bytes(zlib.compress(kind.encode() + b" %d\0" % len(data) + data))
    return path
