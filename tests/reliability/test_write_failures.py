"""A write of the goal file that fails leaves the file as it was and says why, without a traceback.

Three real failures, each under the three commands that write a goal (``verify``, ``pause``,
``activate``):

* the goal's folder is read-only, so no temporary file can be made next to the goal. Root
  ignores folder permissions, so as root the command runs either as uid/gid 65534 or as root
  without the capabilities that bypass file permissions (CAP_DAC_OVERRIDE,
  CAP_DAC_READ_SEARCH, CAP_FOWNER, dropped from the bounding set before ``exec``);
* RLIMIT_FSIZE smaller than the goal: writing the temporary file fails with EFBIG (Python
  ignores SIGXFSZ);
* ``os.replace`` raises ``OSError(EIO)`` (goalfile is run through ``python -c`` with
  ``os.replace`` patched first, and the patch records that it was reached).

Every case: exit 3 (refused, file untouched: DESIGN §7), a ``goalfile:`` message on stderr that
names the goal file and the system's reason, no traceback, the goal file byte-for-byte as it
was, and no new file (such as ``.demo.md.XXXX.tmp``) left in its folder.

Creating a goal fails the same way: ``goalfile new`` into a read-only ``goals/`` or beyond the
file size limit, and ``goalfile init`` in a read-only repository, must refuse cleanly and leave
no file, not even a partial one.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os
import resource
import shutil
import site
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from reliability_support import (
    PROJECT,
    PYTHON,
    activate,
    clean_env,
    goal_text,
    run_goalfile,
    stray_files,
    write_goal,
)

NOBODY = 65534
PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER = 1, 2, 3
FSIZE_LIMIT = 4096  # bytes; the goal file is made larger than this

COMMANDS: dict[str, tuple[str, list[str]]] = {  # name: (status the goal needs, arguments)
    "verify": ("active", ["verify"]),
    "pause": ("active", ["pause", "--reason", "lunch"]),
    "activate": ("draft", ["activate"]),
}


@dataclass
class Launch:
    """How to start goalfile for one case: interpreter, extra environment, Popen options."""

    python: str = PYTHON
    env: dict[str, str] = field(default_factory=dict)
    popen: dict[str, Any] = field(default_factory=dict)
    prefix: list[str] = field(default_factory=lambda: ["-m", "goalfile"])

    def run(self, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.python, *self.prefix, *args],
            cwd=cwd,
            env=clean_env(self.env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=60,
            check=False,
            **self.popen,
        )


def prepare(folder: Path, command: str) -> Path:
    """A goal in ``folder/goals`` in the state ``command`` acts on; larger than FSIZE_LIMIT."""
    status, _ = COMMANDS[command]
    lessons = [f"- lesson {n}: " + "x" * 60 for n in range(120)]
    text = goal_text(
        rows=[("C1", "echo hello", 'exit 0; stdout contains "hello"')], lessons=lessons
    )
    path = write_goal(folder / "goals", text)
    if status == "active":
        activate(path, folder)
    assert path.stat().st_size > 2 * FSIZE_LIMIT
    return path


def check_failed_write(
    done: subprocess.CompletedProcess[str], path: Path, before: bytes, listing: list[str], why: str
) -> None:
    """The goal kept its bytes, nothing was left next to it, and the error is clean."""
    problems = []
    if "Traceback" in done.stderr + done.stdout:
        problems.append("a traceback")
    if path.read_bytes() != before:
        problems.append("the goal file changed")
    if left := stray_files(path.parent, listing):
        problems.append(f"a file was left next to the goal: {left}")
    if not done.stderr.startswith("goalfile: "):
        problems.append("no `goalfile: ` message")
    names = {str(path), os.path.realpath(path), "goals/demo.md"}  # as given, or absolute
    if not any(name in done.stderr for name in names):
        problems.append("the file is not named")
    if why not in done.stderr:
        problems.append(f"the reason {why!r} is not given")
    if done.returncode != 3:
        problems.append(f"exit {done.returncode}, not 3")
    assert not problems, "; ".join(problems) + f"\n{done.stderr}"


# --------------------------------------------------------------------------- read-only folder


def _drop_file_capabilities() -> None:
    """In the child before exec: root keeps uid 0 but loses the permission-bypass capabilities."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def _denied(launch: Launch, folder: Path) -> str | None:
    """None when ``launch`` really cannot create a file in ``folder``; else why not."""
    probe = (
        "import sys\n"
        "try:\n"
        f"    open({str(folder / 'probe')!r}, 'x').close()\n"
        "except PermissionError:\n"
        "    sys.exit(0)\n"
        "sys.exit(9)\n"
    )
    try:
        done = subprocess.run(
            [launch.python, "-c", probe],
            env=clean_env(launch.env),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            **launch.popen,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot start {launch.python}: {exc}"
    if done.returncode == 9:
        (folder / "probe").unlink()
        return "the restricted process could still create files in a read-only folder"
    if done.returncode != 0:
        return f"{launch.python} did not run: {done.stderr.strip()[-300:]}"
    return None


@functools.cache
def _nobody_launch() -> tuple[Launch | None, str]:
    """goalfile as uid/gid 65534: this interpreter if that user can reach it, else a system
    Python of the same version given the project and this venv's site-packages."""
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    paths = os.pathsep.join([*inherited, str(PROJECT), *site.getsitepackages()])
    minor = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [(PYTHON, {}), *((p, {"PYTHONPATH": paths}) for p in _system_pythons(minor))]
    reasons = []
    for python, env in candidates:
        launch = Launch(
            python=python,
            env={**env, "HOME": "/nonexistent"},
            popen={"user": NOBODY, "group": NOBODY, "extra_groups": []},
        )
        try:
            done = subprocess.run(
                [python, "-c", "import goalfile.cli, yaml, click, frontmatter, filelock"],
                env=clean_env(launch.env),
                cwd="/",
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
                **launch.popen,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            reasons.append(f"{python}: {exc}")
            continue
        if done.returncode == 0:
            return launch, ""
        reasons.append(f"{python}: {done.stderr.strip().splitlines()[-1:]}")
    return None, "; ".join(reasons)


def _system_pythons(name: str) -> Iterator[str]:
    for folder in ("/usr/bin", "/usr/local/bin", "/bin"):
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK) and os.path.realpath(candidate) != os.path.realpath(
            PYTHON
        ):
            yield candidate


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder other users can reach (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="goalfile-reliability-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for sub in folder.rglob("*"):
            if sub.is_dir():
                sub.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


# Root ignores folder permissions, so as root a command runs as another user, or as root
# without the capabilities that override them; any other user runs the command as it is.
STRATEGIES = ["uid-65534", "root-without-dac-caps"] if os.geteuid() == 0 else ["as-is"]


def _launch_for(strategy: str) -> Launch:
    if strategy == "as-is":
        return Launch()
    if strategy == "uid-65534":
        launch, why = _nobody_launch()
        assert launch is not None, f"no Python that uid {NOBODY} can run with goalfile: {why}"
        return launch
    return Launch(popen={"preexec_fn": _drop_file_capabilities})


def _make_read_only(launch: Launch, folder: Path) -> None:
    """Mode 0555, and proof that the command, launched so, really cannot create a file there."""
    folder.chmod(0o555)
    why = _denied(launch, folder)
    assert why is None, f"the folder is not read-only for the command: {why}"


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_read_only_folder(shared_folder: Path, strategy: str, command: str) -> None:
    """No temporary file can be made in the goal's folder: a clean refusal."""
    launch = _launch_for(strategy)
    path = prepare(shared_folder, command)
    goals = path.parent
    _make_read_only(launch, goals)
    before, listing = path.read_bytes(), os.listdir(goals)
    done = launch.run([*COMMANDS[command][1], "goals/demo.md"], cwd=shared_folder)
    check_failed_write(done, path, before, listing, os.strerror(errno.EACCES))


# --------------------------------------------------------------------------- a real EFBIG


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (FSIZE_LIMIT, FSIZE_LIMIT))


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_write_that_exceeds_the_file_size_limit(tmp_path: Path, command: str) -> None:
    """RLIMIT_FSIZE below the goal's size: writing the temporary file fails with EFBIG."""
    path = prepare(tmp_path, command)
    before, listing = path.read_bytes(), os.listdir(path.parent)
    done = run_goalfile(
        *COMMANDS[command][1], "goals/demo.md", cwd=tmp_path, preexec_fn=_limit_file_size
    )
    check_failed_write(done, path, before, listing, os.strerror(errno.EFBIG))


# --------------------------------------------------------------------------- os.replace fails

INJECT = """
import errno, os, sys

def refuse(*args, **kwargs):
    with open(os.environ["REPLACE_REACHED"], "a") as handle:
        handle.write(repr(args) + "\\n")
    raise OSError(errno.EIO, os.strerror(errno.EIO))

os.replace = refuse
from goalfile.cli import main
main(args=sys.argv[1:], prog_name="goalfile")
"""


@pytest.mark.parametrize("command", list(COMMANDS))
def test_os_replace_raising(tmp_path: Path, command: str) -> None:
    """The final rename of the temporary file fails: nothing replaced, the temporary removed."""
    path = prepare(tmp_path / "work", command)
    reached = tmp_path / "replace-reached"
    before, listing = path.read_bytes(), os.listdir(path.parent)
    launch = Launch(prefix=["-c", INJECT], env={"REPLACE_REACHED": str(reached)})
    done = launch.run([*COMMANDS[command][1], "goals/demo.md"], cwd=tmp_path / "work")
    assert reached.exists(), f"os.replace was never called; the test no longer bites\n{done}"
    check_failed_write(done, path, before, listing, os.strerror(errno.EIO))


# --------------------------------------------------------------------------- creating a goal

NEW = ["new", "demo", "--end-state", "the checks pass", "--criterion", "it works"]
NEW += ["--check", "true", "--expected", "exit 0"]
NEW_LIMIT = 256  # bytes: below the size of a new goal file


def check_nothing_created(
    done: subprocess.CompletedProcess[str], folder: Path, listing: list[str], why: str
) -> None:
    """A goal that could not be created: no file, not even a partial one, and a clean error."""
    problems = []
    if "Traceback" in done.stderr + done.stdout:
        problems.append("a traceback")
    if folder.exists() and (left := stray_files(folder, listing)):
        problems.append(f"a (partial) file was left behind: {left}")
    if not done.stderr.startswith("goalfile: "):
        problems.append("no `goalfile: ` message")
    names = {str(folder / "demo.md"), "goals/demo.md", str(folder), "goals"}
    if not any(name in done.stderr for name in names):
        problems.append("the file is not named")
    if why not in done.stderr:
        problems.append(f"the reason {why!r} is not given")
    if done.returncode != 3:
        problems.append(f"exit {done.returncode}, not 3")
    assert not problems, "; ".join(problems) + f"\n{done.stderr}"


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_new_into_a_read_only_folder(shared_folder: Path, strategy: str) -> None:
    """`goalfile new` cannot create goals/demo.md in a read-only goals/: a clean refusal."""
    launch = _launch_for(strategy)
    goals = shared_folder / "goals"
    goals.mkdir()
    _make_read_only(launch, goals)
    done = launch.run(NEW, cwd=shared_folder)
    check_nothing_created(done, goals, [], os.strerror(errno.EACCES))


def test_new_beyond_the_file_size_limit(tmp_path: Path) -> None:
    """`goalfile new` under RLIMIT_FSIZE: EFBIG, and no half-written goal file is left (it
    would make the next `goalfile new` refuse: the file "exists already")."""
    goals = tmp_path / "goals"
    goals.mkdir()
    limit = functools.partial(resource.setrlimit, resource.RLIMIT_FSIZE, (NEW_LIMIT, NEW_LIMIT))
    done = run_goalfile(*NEW, cwd=tmp_path, preexec_fn=limit)
    check_nothing_created(done, goals, [], os.strerror(errno.EFBIG))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_init_in_a_read_only_repository(shared_folder: Path, strategy: str) -> None:
    """`goalfile init` cannot create goals/ in a read-only repository: a clean refusal."""
    launch = _launch_for(strategy)
    repo = shared_folder / "repo"
    repo.mkdir()
    (repo / ".git").mkdir()  # git_toplevel only looks for it; no git command runs
    listing = os.listdir(repo)
    _make_read_only(launch, repo)
    done = launch.run(["init", "--no-skills", "--no-hooks"], cwd=repo)
    check_nothing_created(done, repo / "goals", [], os.strerror(errno.EACCES))
    assert stray_files(repo, listing) == []
