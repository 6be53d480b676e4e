"""A command ends its process without the interpreter's teardown (goalfile.__main__._end): the
exit handlers still run, standard output and error still arrive whole, the exit status is the
command's, and a program whose exit the interpreter must do itself (another thread alive) gets
exactly the same output and status the slow way."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import clean_env, goal_text, row, write_goal

REPO = Path(__file__).resolve().parent.parent

# a program that runs goalfile's entry point after the given set-up code
PROGRAM = (
    "import sys\n{setup}\n"
    "sys.argv = ['goalfile', *sys.argv[1:]]\nfrom goalfile.__main__ import run\nrun()\n"
)
_ELAPSED_RE = re.compile(rb'"elapsed": [0-9.e-]+|\([0-9]+\.[0-9]s\)')


def timeless(output: bytes) -> bytes:
    """``output`` of `verify` without the seconds each check took."""
    return _ELAPSED_RE.sub(b"(time)", output)


# an object that says so when the interpreter tears the module holding it down
TEARDOWN = (
    "class Said:\n"
    "    def __del__(self):\n"
    "        sys.stderr.write('torn down\\n')\n"
    "sys.modules['said'] = Said()"
)
# a thread alive until the interpreter's own exit stops the main thread: the exit must wait
# for it, so the command cannot end the process itself
THREAD = "import threading\nthreading.Thread(target=threading.main_thread().join).start()"


def program(setup: str, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", PROGRAM.format(setup=setup), *map(str, args)],
        cwd=cwd,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=False,
    )


def many_rows(folder: Path) -> Path:
    """An active goal whose verify prints more than a pipe holds (64 KiB), some rows unmet."""
    rows = [row(f"C{n}", f"printf '%0300d' {n}", "exit 0; stdout empty") for n in range(1, 121)]
    return write_goal(folder, goal_text(rows=tuple(rows)))


def test_a_long_output_arrives_whole_with_the_commands_status(tmp_path: Path) -> None:
    goal = many_rows(tmp_path)
    fast = program("", "verify", "--no-write", "--json", goal, cwd=tmp_path)
    slow = program(THREAD, "verify", "--no-write", "--json", goal, cwd=tmp_path)
    assert fast.returncode == slow.returncode == 1, fast.stderr
    assert len(fast.stdout) > 65536
    assert timeless(fast.stdout) == timeless(slow.stdout)
    assert fast.stderr == slow.stderr
    # the same into a regular file, which Python buffers by blocks rather than lines
    with (tmp_path / "out.json").open("wb") as out:
        done = subprocess.run(
            [sys.executable, "-m", "goalfile", "verify", "--no-write", "--json", str(goal)],
            cwd=tmp_path,
            env=clean_env(),
            stdin=subprocess.DEVNULL,
            stdout=out,
            timeout=120,
            check=False,
        )
    assert done.returncode == 1
    assert timeless((tmp_path / "out.json").read_bytes()) == timeless(fast.stdout)


def test_the_exit_handlers_run_and_the_teardown_is_skipped(tmp_path: Path) -> None:
    goal = write_goal(tmp_path, goal_text(rows=(row("C1", "true", "exit 0"),)))
    marker = tmp_path / "handler-ran"
    handler = f"import atexit\natexit.register(open, {str(marker)!r}, 'w')"
    done = program(f"{handler}\n{TEARDOWN}", "status", goal, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert marker.exists()
    assert b"torn down" not in done.stderr
    assert done.stdout  # status printed its answer
    # with a thread alive the interpreter exits itself: the teardown happens, as before
    slow = program(f"{TEARDOWN}\n{THREAD}", "status", goal, cwd=tmp_path)
    assert slow.returncode == 0, slow.stderr
    assert b"torn down" in slow.stderr
    assert slow.stdout == done.stdout


def test_python_m_goalfile_skips_the_teardown_too(tmp_path: Path) -> None:
    """`python -m goalfile` (how the tests start it): runpy's frames above the module name
    their file ``<frozen runpy>`` where the interpreter has runpy frozen in, and the command
    ends its process itself there too; the exit handlers still run."""
    goal = write_goal(tmp_path, goal_text(rows=(row("C1", "true", "exit 0"),)))
    marker = tmp_path / "handler-ran"
    site = tmp_path / "site"
    site.mkdir()
    handler = f"import atexit\natexit.register(open, {str(marker)!r}, 'w')"
    (site / "sitecustomize.py").write_text(f"import sys\n{handler}\n{TEARDOWN}\n")
    done = subprocess.run(
        [sys.executable, "-m", "goalfile", "status", str(goal)],
        cwd=tmp_path,
        env=clean_env({"PYTHONPATH": str(site)}),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout  # status printed its answer
    assert marker.exists()
    assert b"torn down" not in done.stderr


def test_every_exit_status_is_kept(tmp_path: Path) -> None:
    cases: list[tuple[tuple[str | Path, ...], int]] = [
        (("status", write_goal(tmp_path / "ok", goal_text())), 0),
        (
            (
                "verify",
                "--no-write",
                write_goal(tmp_path / "un", goal_text(rows=(row("C1", "false", "exit 0"),))),
            ),
            1,
        ),
        (("status", tmp_path / "missing.md"), 3),
        (("no-such-command",), 2),
    ]
    for args, status in cases:
        fast = program("", *args, cwd=tmp_path)
        slow = program(THREAD, *args, cwd=tmp_path)
        assert fast.returncode == slow.returncode == status, (args, fast.stderr)
        assert timeless(fast.stdout) == timeless(slow.stdout), args
        assert fast.stderr == slow.stderr, args


def test_a_reader_that_went_away_is_answered_as_before(tmp_path: Path) -> None:
    """stdout is a pipe whose reader has gone: the flush fails, and the interpreter's own exit
    reports it (the same status and message as with a thread alive, which takes that way)."""
    goal = many_rows(tmp_path)
    results = []
    for setup in ("", THREAD):
        read_end, write_end = os.pipe()
        os.close(read_end)  # every write gets EPIPE
        try:
            done = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    PROGRAM.format(setup=setup),
                    "verify",
                    "--no-write",
                    str(goal),
                ],
                cwd=tmp_path,
                env=clean_env(),
                stdin=subprocess.DEVNULL,
                stdout=write_end,
                stderr=subprocess.PIPE,
                timeout=120,
                check=False,
            )
        finally:
            os.close(write_end)
        results.append((done.returncode, done.stderr))
    assert results[0] == results[1]


def test_a_program_that_runs_goalfile_in_process_goes_on_after_it(tmp_path: Path) -> None:
    """bench/verify_peak.py runs `goalfile` with runpy and writes its report after the command
    has raised SystemExit: the command leaves the exit to it."""
    goal = write_goal(tmp_path, goal_text(rows=(row("C1", "true", "exit 0"),)))
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "verify_peak.py"), str(report), str(goal)],
        cwd=tmp_path,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(report.read_text(encoding="utf-8"))["exit"] == 0  # its one row is met
    # a function that calls run() goes on after it too
    code = (
        "import sys\nsys.argv = ['goalfile', 'status', sys.argv[1]]\n"
        "from goalfile.__main__ import run\n"
        "def call():\n    try:\n        run()\n    except SystemExit as exc:\n"
        "        print('went on after exit', exc.code)\ncall()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(goal)],
        cwd=tmp_path,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout.endswith("went on after exit 0\n"), done.stdout + done.stderr
