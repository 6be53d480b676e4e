"""Every command a `fix:` or `next:` hint prints names a goal path as one shell word: a goal
file named `goals/a;id>PWNED;b.md` (a legal name, which `status` lists and CI's audit covers)
made `verify`, `audit` and `status` print `goalfile activate --reapprove goals/a;id>PWNED;b.md
--reason TEXT`, which, run as written, ran `id>PWNED`.

Each case builds a goal in a real git repository, gives it a hostile name, puts it in a state
whose hints name it, runs the real goalfile commands and then runs every command their hints
print, as written (placeholders filled in), in a POSIX shell: none may run anything the name
holds, and each must find the goal file."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import clean_env, git, make_git_repo, run_goalfile
from hypothesis import given
from hypothesis import strategies as st

from goalfile.shellword import shell_word

NAMES = [
    "a;touch PWNED;b.md",
    "$(touch PWNED).md",
    "a b's file.md",
    "x && touch PWNED.md",
]
BIN = str(Path(sys.executable).parent)  # holds the goalfile under test
# a command a hint prints between backticks
COMMAND_RE = re.compile(r"`((?:goalfile|git|sed|rm) [^`]+)`")
# what a person types for each placeholder a hint leaves
PLACEHOLDERS = {"TEXT": "ok", "N": "9", "PASSAGE": "ok", "FILE": "notes.txt"}


def setup(tmp_path: Path, name: str) -> tuple[Path, str]:
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "real", "tests pass", "--check", "test -f done.txt", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    path = f"goals/{name}"
    (repo / "goals" / "real.md").rename(repo / path)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    return repo, path


def edit(repo: Path, path: str, old: str, new: str) -> None:
    text = (repo / path).read_text(encoding="utf-8")
    assert old in text, old
    (repo / path).write_text(text.replace(old, new, 1), encoding="utf-8")


def pin_changed(repo: Path, path: str) -> None:
    text = (repo / path).read_text(encoding="utf-8")
    (repo / path).write_text(
        re.sub(r"(?m)^contract: sha256:.", "contract: sha256:0", text, count=1), encoding="utf-8"
    )


def check_changed(repo: Path, path: str) -> None:
    edit(repo, path, "| `test -f done.txt` | exit 0 |", "| `true` | exit 0 |")


def met_by_hand(repo: Path, path: str) -> None:
    edit(repo, path, "status: active #", "status: met #")


def budget_typed(repo: Path, path: str) -> None:
    edit(repo, path, "  iterations: 5", "  iterations: 9")


def exhausted(repo: Path, path: str) -> None:
    text = (repo / path).read_text(encoding="utf-8")
    text = text.replace("budget approved: iterations 5", "budget approved: iterations 1", 1)
    text = text.replace("  iterations: 5", "  iterations: 1", 1)
    (repo / path).write_text(text, encoding="utf-8")
    # committed: the Stop hook holds a working copy that rewrites a committed entry as not HEAD's
    git(repo, "commit", "-qam", "lower the budget")
    for _ in range(2):
        stdin = json.dumps(
            {
                "session_id": "s",
                "cwd": str(repo),
                "hook_event_name": "Stop",
                "stop_hook_active": False,
            }
        )
        run_goalfile("hook", "stop", cwd=repo, input=stdin)
    assert "\nstatus: exhausted" in (repo / path).read_text(encoding="utf-8")


def draft(repo: Path, path: str) -> None:
    done = run_goalfile("new", "other", cwd=repo)
    assert done.returncode == 0, done.stderr
    (repo / "goals" / "other.md").replace(repo / path)


def record_edited(repo: Path, path: str) -> None:
    edit(repo, path, "| `exit 0` | -       |", "| `exit 0` | abc     |")


STATES: dict[str, Callable[[Path, str], None]] = {
    "pin-changed": pin_changed,
    "check-changed": check_changed,
    "met-by-hand": met_by_hand,
    "budget-typed": budget_typed,
    "exhausted": exhausted,
    "draft": draft,
    "record-edited": record_edited,
}


def commands_for(path: str) -> list[tuple[str, ...]]:
    return [
        ("status",),
        ("status", path),
        ("lint", path),
        ("audit", path),
        ("audit", "goals"),
        ("audit", "--against", "HEAD", path),
        ("verify", "--no-write", path),
        ("verify", path),
        ("resume", path),
        ("activate", "--reapprove", path, "--reason", "x"),
    ]


def printed_commands(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        for command in COMMAND_RE.findall(line):
            for word, value in PLACEHOLDERS.items():
                command = re.sub(rf"\b{word}\b", value, command)
            found.append(command)
    return found


# each state with one hostile name, every name in turn
CASES = [(state, NAMES[at % len(NAMES)]) for at, state in enumerate(sorted(STATES))]


@pytest.mark.parametrize(("state", "name"), CASES)
def test_every_printed_command_names_the_goal_as_one_word(
    tmp_path: Path, state: str, name: str
) -> None:
    sh = shutil.which("bash")
    assert sh is not None, "bash (the shell of the hosts' tools) is needed to run the commands"
    repo, path = setup(tmp_path, name)
    STATES[state](repo, path)
    (repo / "notes.txt").write_text("x\n", encoding="utf-8")
    printed: list[str] = []
    for command in commands_for(path):
        done = run_goalfile(*command, cwd=repo)
        out = done.stdout + done.stderr
        assert "Traceback" not in out, (command, out[-2000:])
        printed += [c for c in printed_commands(out) if c not in printed]
    marker = "PWNED" if "PWNED" in name else "file.md"
    naming = [c for c in printed if marker in c]
    assert naming, (state, name, printed)  # some hint names the hostile path
    for command in naming:
        backup = (repo / path).read_bytes()
        done = subprocess.run(
            [sh, "-c", command],
            cwd=repo,
            env=clean_env({"PATH": f"{BIN}:/usr/bin:/bin"}),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert not (repo / "PWNED").exists(), (state, name, command)
        # it found the goal: no "no such goal file", no usage error, no shell error
        out = done.stdout + done.stderr
        assert done.returncode != 2, (command, out)
        assert "no such" not in out.lower() and "not found" not in out.lower(), (command, out)
        assert "Traceback" not in out, (command, out)
        if (repo / path).exists():
            (repo / path).write_bytes(backup)  # the next printed command sees the same state


def unprinted(char: str) -> bool:
    """A control character, a bidirectional control or a line or paragraph separator: raw in
    a word, it starts a line, or goalfile's output writes it as an escape (termsafe)."""
    return (
        char < " "
        or "\x7f" <= char <= "\x9f"
        or char in "\u061c\u200e\u200f\u2028\u2029"
        or ("\u202a" <= char <= "\u202e" or "\u2066" <= char <= "\u2069")
    )


@given(st.text())
def test_shell_word_is_shlex_quote(text: str) -> None:
    """The helper quotes as shlex.quote does (written out so that a command that only may
    print a hint does not load shlex), but for a control character (a line break, a tab, a
    C1 control...), a bidirectional control or a line separator: the word is then in ANSI-C
    quotes with octal escapes, on one line, and goalfile's output prints it as it is (it was
    `"$(printf ...)"`, a command substitution Gemini CLI's shell tool refuses)."""
    from goalfile.termsafe import escape

    if any(unprinted(c) for c in text):
        word = shell_word(text)
        assert word.startswith("$'") and word.endswith("'"), word
        assert "$(" not in word and "`" not in word, word
        assert not any(unprinted(c) for c in word), word
        assert escape(word) == word
    else:
        assert shell_word(text) == shlex.quote(text)


@pytest.mark.parametrize(
    "name",
    [
        "goals/de\nmo.md",
        "goals/a'b\tc%d\\x.md",
        "goals/\x1b[2J\r.md",
        "goals/a\n\nb.md",
        "goals/c\x85d\u202e\u2028.md",
    ],
)
def test_a_name_with_a_control_character_is_one_line_the_shell_gives_back(name: str) -> None:
    word = shell_word(name)
    assert "\n" not in word and "\r" not in word and "\x1b" not in word
    done = subprocess.run(
        ["bash", "-c", f"printf %s {word}"], capture_output=True, timeout=30, check=True
    )
    assert done.stdout == name.encode("utf-8")


@pytest.mark.parametrize(
    "name", ["goals/c\u202ed.md\n", "goals/\udcff.md\n\n", "goals/a\nb\x85\n", "goals/\x1b\n"]
)
def test_a_name_that_ends_in_a_line_break_is_given_back_whole(name: str) -> None:
    """A name that ends in a line break and holds a character printed as an escape (a
    bidirectional control, a C1 control) was quoted raw, which goalfile's output then printed
    escaped, naming another file; one that was not UTF-8 was printf's alone, whose command
    substitution dropped the line break. Its ANSI-C quotes now write the line break."""
    word = shell_word(name)
    done = subprocess.run(
        ["bash", "-c", f"printf %s {word}"], capture_output=True, timeout=30, check=True
    )
    assert done.stdout == name.encode("utf-8", "surrogateescape"), word
    assert not any(unprinted(c) for c in word.rstrip("\n'")), word


@pytest.mark.parametrize("char", ["\x85", "\u202e", "\u2028"])
def test_a_name_goalfile_prints_escaped_is_named_by_a_fix_that_works(
    tmp_path: Path, char: str
) -> None:
    """A C1 control or a bidirectional control in a goal's name is printed as an escape
    (`goals/c\\u0085d.md`, termsafe), so a command that held it in quotes named another file:
    `goalfile activate 'goals/c\\u0085d.md'` said no such goal file. A line separator was
    printed raw, where a reader may start a line; the name is now in quotes on one line."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "real", "tests pass", "--check", "true", "--expected", "exit 0", cwd=repo
    )
    assert done.returncode == 0, done.stderr
    path = f"goals/c{char}d.md"
    (repo / "goals" / "real.md").rename(repo / path)
    done = run_goalfile("lint", path, cwd=repo)
    out = done.stdout + done.stderr
    assert char not in out, repr(out)
    commands = [c for c in printed_commands(out) if c.startswith("goalfile activate")]
    assert commands, out
    ran = subprocess.run(
        ["bash", "-c", commands[0]],
        cwd=repo,
        env=clean_env({"PATH": f"{BIN}:/usr/bin:/bin"}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "no such goal file" not in ran.stderr, (commands[0], ran.stderr)
    assert "placeholder" in ran.stderr, (commands[0], ran.stdout, ran.stderr)  # it read it
