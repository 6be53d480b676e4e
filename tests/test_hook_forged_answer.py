"""A check's own code cannot forge or spoil the Stop hook's answer through the hook's processes.

The code a check runs is a descendant of the hook's work process, whose parent is the watchdog
the host started (goalfile.hookwatch). As the same user, it could open their pipes through
``/proc/PID/fd``: write a whole answer into the work's answers pipe, say on the control pipe
that it was complete and SIGKILL the work (the watchdog then printed the forged answer), or
write bytes into the watchdog's own stdout (the host could no longer read the answer). The
hook now makes both processes non-dumpable before it runs a check, so a user without
CAP_SYS_PTRACE cannot open those files; and the watchdog prints only one well-formed answer
from a work process that said so once and then ended normally, which root's checks, who can
still open the pipes, cannot fake by writing and killing.

Real goalfile processes, real git repositories, the host's recorded input on stdin; the
unprivileged run switches to uid/gid 65534 with util-linux's ``setpriv``.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import (
    REPO,
    clean_env,
    git,
    goal_text,
    make_git_repo,
    row,
    run_goalfile,
    stop_input,
)
from conftest import write_goal as write_goal
from proc_walk import PROC_WALK

NOBODY = 65534

# The check's code: find the hook's two processes among its ancestors (the nearest is the
# work, its parent the watchdog), then do what ``sys.argv[2]`` says, and report to the file
# ``sys.argv[1]`` what it could do. The check itself fails ("1 failed", exit 1).
ATTACK = (
    r"""
import ctypes, json, os, signal, sys

report, mode = sys.argv[1], sys.argv[2]
said = {}

"""
    + PROC_WALK
    + r"""
pid, chain = os.getpid(), []
while pid > 1:
    chain.append(pid)
    pid = parent(pid)
work, watchdog = [p for p in chain if "hook stop" in command(p)][:2]
said["dumpable"] = ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE, this process
try:
    shared = pipes(work)
    outside = set(pipes(watchdog).values())
    control = [fd for fd, pipe in shared.items() if fd > 2 and pipe in outside]
    said["fds"] = "listed"
except OSError as exc:
    said["fds"] = type(exc).__name__
forged = json.dumps({"systemMessage": "goalfile: demo: C1 met; status: met"}) + "\n"

def write(pid, fd, data):
    try:
        with open(f"/proc/{pid}/fd/{fd}", "wb", buffering=0) as handle:
            handle.write(data)
        return "written"
    except OSError as exc:
        return type(exc).__name__

if mode in ("all", "kill"):  # a whole answer, "complete", and the work killed
    if mode == "all":  # the hook's stdout first
        said["stdout"] = write(watchdog, 1, b"ok ")
    said["answers"] = write(work, 1, forged.encode())
    if said["answers"] == "written":
        for fd in control:
            write(work, fd, b"a\n")
        os.kill(work, signal.SIGKILL)
elif mode == "twice":  # "complete" once more: the work's own comes after
    for fd in control:
        write(work, fd, b"a\n")
elif mode == "junk":  # bytes in front of the work's own answer
    said["answers"] = write(work, 1, b"ok ")
elif mode == "stop":
    os.kill(work, signal.SIGSTOP)
with open(report, "w") as handle:
    json.dump(said, handle)
print("1 failed")
raise SystemExit(1)
"""
)


def attacked_repo(root: Path, python: str, mode: str) -> Path:
    repo = make_git_repo(root / "project")
    (repo / "attack.py").write_text(ATTACK, encoding="utf-8")
    report = root / "said.json"
    check = f"{python} attack.py {report} {mode}"
    write_goal(repo / "goals", goal_text(rows=(row("C1", check, "exit 0"),)))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    return repo


def reachable(path: str) -> bool:
    """Every folder on the way to ``path`` can be searched by others, and others may run it."""
    real = Path(os.path.realpath(path))
    return all(p.stat().st_mode & stat.S_IXOTH for p in (real, *real.parents))


def python_for_others() -> str:
    """A Python of this very version that another user may run: this one, or the system's."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (sys.executable, f"/usr/bin/{version}", f"/usr/local/bin/{version}"):
        if os.path.exists(candidate) and reachable(candidate):
            return candidate
    raise AssertionError(f"no {version} that uid {NOBODY} may run (tried {sys.executable})")


@pytest.fixture
def shared_root() -> Iterator[Path]:
    """A fresh folder that uid 65534 owns (pytest's tmp_path is root's alone)."""
    root = Path(tempfile.mkdtemp(prefix="goalfile-forged-"))
    try:
        os.chmod(root, 0o755)
        if os.geteuid() == 0:
            os.chown(root, NOBODY, NOBODY)
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_an_unprivileged_check_cannot_reach_the_hooks_pipes(shared_root: Path) -> None:
    """As a user without CAP_SYS_PTRACE, the check can neither write into the hook's stdout
    (the host reads it) nor forge the work's answer: the hook answers as for any failing
    check, with the row's evidence, and verify's entry is in the ledger."""
    python = python_for_others()
    as_other: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv, "util-linux's setpriv is needed to run the hook as another user"
        as_other = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    program = shared_root / "goalfile"
    site = sysconfig.get_paths()["purelib"]
    program.write_text(
        f"#!{python}\nimport sys\nsys.path[:0] = [{str(REPO)!r}, {site!r}]\n"
        "from goalfile.__main__ import run\nrun()\n",
        encoding="utf-8",
    )
    program.chmod(0o755)
    env = clean_env({"HOME": str(shared_root), "GIT_CONFIG_GLOBAL": "/dev/null"})
    env.pop("PYTHONPATH", None)

    def as_nobody(*argv: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*as_other, *argv], cwd=cwd, env=env, input=stdin, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip

    made = as_nobody(python, "-c", _MAKE, str(shared_root), python, cwd=shared_root)
    assert made.returncode == 0, made.stderr
    repo = shared_root / "project"
    # the hook's stdout is a pipe of that user's, as a host of theirs gives it (Codex: a pipe)
    hook = '"$0" hook stop | cat'
    done = as_nobody("sh", "-c", hook, str(program), cwd=repo, stdin=stop_input(repo))
    said = json.loads((shared_root / "said.json").read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)  # one JSON document: nothing came in front of it
    assert said["stdout"] == "PermissionError" and said["answers"] == "PermissionError", said
    assert said["fds"] == "PermissionError", said  # not even listed
    assert said["dumpable"] == 1, said  # the check itself is dumpable again after its exec
    assert answer["decision"] == "block", answer
    assert "1 failed" in answer["reason"] and "C1" in answer["reason"], answer
    ledger = (repo / "goals" / "demo.md").read_text(encoding="utf-8")
    assert ledger.count(") by verify-goal\n") == 1, ledger  # verify's entry was written
    assert "| C1  | unmet   |" in ledger, ledger


# builds the attacked repository as the other user (it owns the files, as a user's own
# project), with the same code as the root tests
_MAKE = f"""
import sys
sys.path[:0] = [{str(REPO / "tests")!r}, {str(REPO)!r}, {sysconfig.get_paths()["purelib"]!r}]
from pathlib import Path
from test_hook_forged_answer import attacked_repo
attacked_repo(Path(sys.argv[1]), sys.argv[2], "all")
"""


@pytest.mark.parametrize(
    ("mode", "named"),
    [
        ("kill", "its work process said it answered, then was killed by SIGKILL instead of ending"),
        ("twice", "its work process said 2 times that its answer was complete"),
        ("junk", "its answer was not a JSON document"),
        ("stop", "its work process was stopped by SIGSTOP"),
    ],
)
def test_the_watchdog_prints_only_an_answer_it_can_trust(
    tmp_path: Path, mode: str, named: str
) -> None:
    """Root's check can still open the pipes; whatever it does with them (a forged answer and
    the work killed, "complete" said twice, bytes in front of the answer, the work stopped),
    the watchdog holds the stop and says what happened, on which goal, and what to do."""
    repo = attacked_repo(tmp_path, sys.executable, mode)
    done = run_goalfile("hook", "stop", cwd=repo, input=stop_input(repo), timeout=120)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    reason = answer["reason"]
    assert reason.startswith(f"goalfile hook stop held the stop because {named}:"), reason
    assert "It was on row C1 of goals/demo.md." in reason, reason
    assert "`goalfile verify --no-write goals/demo.md`" in reason, reason
    assert "status: met" not in done.stdout


def _status(*, code: int = 0, signum: int = 0) -> int:
    return signum if signum else code << 8


@pytest.mark.parametrize(
    ("status", "data", "said", "problem"),
    [
        (_status(), b'{"decision": "block"}\n', 1, None),
        (_status(), b"", 1, None),
        (_status(signum=9), b"{}\n", 1, "then was killed by SIGKILL"),
        (_status(code=70), b"{}\n", 1, "then ended with exit status 70"),
        (_status(), b"{}\n", 2, "said 2 times"),
        (_status(), b"{}\n{}\n", 1, "not one line"),
        (_status(), b"{}", 1, "not one line"),
        (_status(), b"[]\n", 1, "not a JSON object"),
        (_status(), b"ok {}\n", 1, "not a JSON document"),
    ],
)
def test_which_answers_are_printed(
    status: int, data: bytes, said: int, problem: str | None
) -> None:
    from goalfile.hookwatch import untrusted

    found = untrusted(status, data, said=said)
    assert (found is None) if problem is None else (found is not None and problem in found)
