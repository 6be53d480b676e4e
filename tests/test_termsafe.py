"""Text from a goal file never drives the person's terminal. A non-goal holding ESC 7,
backspaces and ESC M climbed back over `activate`'s listing and showed `C1: pytest -q` where the
check being approved was `sh -c "echo 2 failed; exit 1" || true`; a criterion made `status`
show `g: met` for an unmet goal and wrote the clipboard (OSC 52). Every control character and
bidirectional control goalfile prints is now a visible escape (goalfile.termsafe), in text
output, in a Stop hook's reason, and in JSON, whose strings read it back as the same text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import git, make_git_repo, run_goalfile

ESC, BS = "\x1b", "\x08"
CLIMB = f"{ESC}7{BS * 12}{ESC}M  C1: `pytest -q` \u2192 exit 0{ESC}8{BS * 12}  non-goal: tests/"
CLIPBOARD = f"{ESC}]52;c;ZWNobyBwd25lZAo={ESC}\\"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "repo")


def new(repo: Path, *extra: str, check: str = 'sh -c "echo 2 failed; exit 1" || true') -> None:
    done = run_goalfile(
        "new", "g", "tests pass", "--check", check,
        "--expected", "exit 0", "--non-goal", "NG", *extra, cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def edit(repo: Path, old: str, new_text: str) -> None:
    path = repo / "goals" / "g.md"
    text = path.read_text(encoding="utf-8")
    assert old in text, text
    path.write_text(text.replace(old, new_text, 1), encoding="utf-8")


def test_a_non_goal_cannot_write_over_the_listing_of_what_is_approved(repo: Path) -> None:
    new(repo)
    edit(repo, "- NG", f"- {CLIMB}")
    done = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert not RAW.search(said), repr(said)
    assert '  C1: `sh -c "echo 2 failed; exit 1" || true` \u2192 exit 0' in said, said
    assert "non-goal: \\u001b7\\u0008" in said and "\\u001bM C1: `pytest -q`" in said, said


def test_status_shows_a_criterion_as_text_and_json_reads_back_the_same(repo: Path) -> None:
    new(repo, "--activate", check="false")
    assert run_goalfile("verify", "goals/g.md", cwd=repo).returncode == 1
    crit = f"{ESC}7{ESC}M{ESC}M{ESC}Mg: met{ESC}8 ok \u202eok\u009b{CLIPBOARD}"
    edit(repo, "| C1 | `false` |", f"| C1 | {crit} |")
    edit(repo, "# Goal: tests pass", f"# Goal: tests pass {crit}")
    done = run_goalfile("status", "goals/g.md", cwd=repo)
    said = done.stdout + done.stderr
    assert not RAW.search(said), repr(said)
    assert "g: active" in said and "\\u001b]52;c;" in said and "\\u202eok\\u009b" in said, said
    for env in ({"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "PYTHONUTF8": "0"}):
        # click writes around a stream whose encoding it deems wrong: never around the escaping
        done = run_goalfile("status", "goals/g.md", cwd=repo, env=env)
        assert done.returncode in (0, 1) and not RAW.search(done.stdout + done.stderr), env
        assert "\\u001b]52;c;" in done.stdout, (env, done.stdout)
    as_json = run_goalfile("status", "--json", "goals/g.md", cwd=repo)
    assert not RAW.search(as_json.stdout), repr(as_json.stdout)
    [goal] = json.loads(as_json.stdout)["goals"]
    assert goal["end_state"] == f"tests pass {crit}", goal  # the same text, read back


def test_a_stop_hooks_reason_carries_no_control_character_to_the_host(repo: Path) -> None:
    new(repo, "--activate", check="printf 'unmet\\010\\010\\010\\010\\010met'; exit 1")
    stop = {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop"}
    done = run_goalfile("hook", "stop", "--agent", "codex", cwd=repo, input=json.dumps(stop))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    assert not RAW.search(answer["reason"]), repr(answer["reason"])
    assert "unmet\\u0008\\u0008" in answer["reason"], answer["reason"]


def test_the_stop_hooks_notes_and_the_status_line_escape_a_goal_files_name(repo: Path) -> None:
    # neither runs through the commands' boundary: each wraps its own streams
    new(repo, "--activate", check="false")
    odd = repo / "goals" / f"e{CLIPBOARD}.md"
    # renamed in git's index too: the Stop hook runs only a goal whose approval git holds
    git(repo, "mv", "--", "goals/g.md", str(odd.relative_to(repo)))
    stop = {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop"}
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=repo, input=json.dumps(stop))
    assert done.returncode == 0 and "iteration 1 of 5 started" in done.stderr, done.stderr
    assert not RAW.search(done.stdout + done.stderr), repr(done.stderr)
    assert "goals/e\\u001b]52;c;" in done.stderr, done.stderr
    assert run_goalfile("focus", str(odd.relative_to(repo)), cwd=repo).returncode == 0
    odd.write_text("garbage\n", encoding="utf-8")
    line = run_goalfile("statusline", cwd=repo, input="{}")
    assert "unreadable" in line.stdout and not RAW.search(line.stdout), repr(line.stdout)


def test_a_text_taken_as_plain_without_a_pattern_holds_no_unsafe_character() -> None:
    """The patterns are compiled only for a text ``str.isprintable`` refuses (with its tabs and
    line feeds as spaces): no character the pattern escapes may pass that test. Every code
    point is asked."""
    from goalfile import termsafe

    unsafe = termsafe._patterns()[0]
    passed = [
        f"U+{point:04X}"
        for point in range(0x110000)
        if chr(point).isprintable() and unsafe.match(chr(point))
    ]
    assert passed == []
    for text in ("plain", "two\nlines\twith a tab", "", "\u00e9t\u00e9 \u2192 ok"):
        assert termsafe._plain(text) and termsafe.escape(text) == text
    for char in ("\x1b", "\r", "\x00", "\x7f", "\x9b", "\u061c", "\u202e", "\u2069"):
        for text in (f"a{char}b", f"a\n{char}\tb"):
            assert not termsafe._plain(text)
            assert termsafe.escape(text) == text.replace(char, f"\\u{ord(char):04x}")
