"""A goal file whose name holds a line break (`goals/nl<LF>x.md`): git's batch reads take one
name a line, so the hook can read no copy git holds of it. It held the agent at every stop
saying neither git's index nor HEAD held the file (both did), with `git add` of it as the fix,
which changed nothing. The fix it prints now renames the file, and works as written. Real git
repositories and the real `goalfile hook stop`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import WITH_GOALFILE, clean_env, committed_repo, fix_of, git, run_goalfile


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A printed fix, run as written by bash, the shell the hosts' tools run it in: the ANSI-C
    quotes the odd name is printed in are not read by dash, /bin/sh here."""
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=clean_env(WITH_GOALFILE),
        capture_output=True,
        text=True,
    )
    return done


NAME = "goals/nl\nx.md"


def stop(root: Path, session: str) -> dict[str, object]:
    data = {"session_id": session, "cwd": str(root), "stop_hook_active": False}
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=root, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else {}


def _goal(root: Path) -> None:
    done = run_goalfile(
        "new", "demo", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--activate", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (root / "goals" / "demo.md").rename(root / NAME)


def test_a_committed_goal_whose_name_holds_a_line_break_is_renamed_by_the_fix(
    tmp_path: Path,
) -> None:
    root = committed_repo(tmp_path / "project")
    _goal(root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal")
    answer = stop(root, "first")
    assert answer.get("decision") == "block", answer
    assert "the file's name holds a line break" in str(answer["reason"]), answer
    done = shell(fix_of(answer["reason"]), root)
    assert done.returncode == 0, done.stderr
    assert (root / "goals" / "nl-x.md").is_file() and git(root, "status", "--porcelain") == ""
    again = stop(root, "first")
    assert again.get("decision") == "block" and "C1 unmet" in str(again["reason"]), again


def test_an_untracked_one_is_moved_and_then_staged_as_the_next_fix_says(tmp_path: Path) -> None:
    root = committed_repo(tmp_path / "project")
    _goal(root)
    (root / "sub").mkdir()
    here = root / "sub"
    data = {"session_id": "s", "cwd": str(here), "stop_hook_active": False}
    for expect in ("the file's name holds a line break", "stages it"):
        done = run_goalfile("hook", "stop", cwd=here, input=json.dumps(data))
        answer = json.loads(done.stdout)
        assert answer.get("decision") == "block" and expect in str(answer["reason"]), answer
        fixed = shell(fix_of(answer["reason"]), here)
        assert fixed.returncode == 0, fixed.stderr
    done = run_goalfile("hook", "stop", cwd=here, input=json.dumps(data))
    answer = json.loads(done.stdout)
    assert answer.get("decision") == "block" and "C1 unmet" in str(answer["reason"]), answer


def test_the_name_it_renames_to_is_one_no_file_holds(tmp_path: Path) -> None:
    """With a goal already at the name the line break would become (`goals/nl-x.md`), the fix
    renames to a free one: `mv` overwrote that goal with the other file's."""
    root = committed_repo(tmp_path / "project")
    _goal(root)
    taken = root / "goals" / "nl-x.md"
    taken.write_text("another goal's file\n", encoding="utf-8")
    git(root, "add", "goals/nl-x.md")
    git(root, "commit", "-qm", "another goal")
    answer = stop(root, "first")
    assert "the file's name holds a line break" in str(answer.get("reason")), answer
    done = shell(fix_of(answer["reason"]), root)
    assert done.returncode == 0, done.stderr
    assert taken.read_text(encoding="utf-8") == "another goal's file\n"
    assert (root / "goals" / "nl-x-2.md").is_file() and not (root / NAME).exists()


SHOWN = '"goals/nl\\nx.md"'  # the name on one line, in git's quoting


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def test_every_command_names_it_on_one_line(tmp_path: Path) -> None:
    """status, log, audit, lint, verify --no-write and the Stop hook name the goal file on one
    line: printed raw, its line break started a line of its own (`x.md)`, `x.md: clean`), on
    which the file's name could forge a message or a `fix:` line. The commands they print name
    it on one line too, and work as written."""
    root = committed_repo(tmp_path / "project")
    _goal(root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal")
    said: dict[str, str] = {}
    for command in (
        ("status",),
        ("status", NAME),
        ("log",),
        ("audit",),
        ("lint",),
        ("verify", "--no-write"),  # with the check met: its note names the file
    ):
        if command[0] == "verify":
            (root / "ok").touch()
        done = run_goalfile(*command, cwd=root)
        assert "Traceback" not in done.stderr, done.stderr
        out = done.stdout + done.stderr
        said[" ".join(command)] = out
        assert SHOWN in out, (command, out)
        assert not any(line.startswith("x.md") for line in lines_of(out)), (command, out)
    (root / "ok").unlink()
    answer = stop(root, "names")
    reason = str(answer["reason"])
    assert SHOWN in reason and not any(line.startswith("x.md") for line in lines_of(reason))
    status = said["status"]
    printed = [line for line in lines_of(status) if line.lstrip().startswith("next:")]
    verify = printed[0].split("then `goalfile verify ", 1)[1].split("`", 1)[0]
    assert "\n" not in verify
    ran = shell(f"goalfile verify --no-write {verify}", root)
    assert ran.returncode == 1 and "C1 unmet" in ran.stdout, ran.stdout + ran.stderr


def test_the_hooks_notes_name_it_on_one_line_too(tmp_path: Path) -> None:
    """A note the hook writes to stderr names a goal as its reasons do: a tab in the name
    (which git's reads take, so the goal is verified, and the next iteration started) is
    written `\\t`, in quotes."""
    root = committed_repo(tmp_path / "project")
    _goal(root)
    (root / NAME).rename(root / "goals" / "a\tb.md")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal")
    data = {"session_id": "notes", "cwd": str(root), "stop_hook_active": False}
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=root, input=json.dumps(data))
    assert '"goals/a\\tb.md": iteration 1 of 5 started' in done.stderr, done.stderr
    assert "\t" not in done.stderr, done.stderr
