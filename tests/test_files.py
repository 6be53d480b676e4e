"""goalfile.files: new goal files appear whole or not at all."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from goalfile import files
from goalfile.errors import Refused
from tests.conftest import clean_env


def test_a_new_file_appears_whole_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    files.create_new(tmp_path / "goals" / "a.md", "one\ntwo\n")
    assert (tmp_path / "goals" / "a.md").read_text() == "one\ntwo\n"
    assert os.listdir(tmp_path / "goals") == ["a.md"]


def test_an_existing_file_is_refused_and_kept(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("mine\n")
    with pytest.raises(Refused, match="exists already"):
        files.create_new(tmp_path / "a.md", "theirs\n")
    assert (tmp_path / "a.md").read_text() == "mine\n"
    assert os.listdir(tmp_path) == ["a.md"]


def test_a_file_system_without_hard_links_gets_the_file_directly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some file systems (FAT, some container mounts) refuse link(2); no such one can be
    mounted here, so link is made to fail as they make it fail."""

    def no_links(source: object, target: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    files.create_new(tmp_path / "a.md", "whole\n")
    assert (tmp_path / "a.md").read_text() == "whole\n"
    assert os.listdir(tmp_path) == ["a.md"]
    with pytest.raises(Refused, match="exists already"):
        files.create_new(tmp_path / "a.md", "again\n")
    assert (tmp_path / "a.md").read_text() == "whole\n"


# Run in a process of its own: one with a single thread, as goalfile's is. A signal sent to a
# process goes to any of its threads that does not hold it, and a test runner's process may
# have more than one (pytest -n's workers have execnet's), which would then take it.
SIGNALS_DURING_A_REPLACE = """
import json, os, signal, sys
# Ctrl-C as a terminal delivers it, also when this suite runs in a background job (which
# starts with SIGINT ignored, and Python then leaves it ignored)
signal.signal(signal.SIGINT, signal.default_int_handler)
from goalfile import files
from goalfile.errors import Interrupted, Terminated

signals, target = json.loads(sys.argv[1]), sys.argv[2]

def on_term(signum, frame):
    raise Terminated

signal.signal(signal.SIGTERM, on_term)
replace = files._replace

def interrupted_replace(path, text):
    for signum in signals:
        os.kill(os.getpid(), signum)
    replace(path, text)

files._replace = interrupted_replace
try:
    files.write_atomic(target, "new\\n")
except Interrupted as raised:
    print(json.dumps({"exit_code": int(raised.exit_code), "message": raised.message}))
else:
    print(json.dumps({"exit_code": None, "message": "nothing was raised"}))
"""


@pytest.mark.parametrize(
    ("signals", "exit_code"),
    [
        ((signal.SIGINT,), 130),
        ((signal.SIGTERM,), 143),
        ((signal.SIGTERM, signal.SIGINT), 143),
        ((signal.SIGINT, signal.SIGTERM), 143),
    ],
)
def test_signals_during_a_replace_wait_for_it_and_say_it_was_written(
    tmp_path: Path,
    signals: tuple[signal.Signals, ...],
    exit_code: int,
) -> None:
    """Real signals sent to the process while the file is being replaced (the CLI's own
    SIGTERM handler installed): the new content is complete, and the error says so."""
    target = tmp_path / "goal.md"
    target.write_text("old\n")
    done = subprocess.run(
        [sys.executable, "-c", SIGNALS_DURING_A_REPLACE,
         json.dumps([int(s) for s in signals]), str(target)],
        env=clean_env(), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    raised = json.loads(done.stdout)
    assert raised["exit_code"] == exit_code, raised
    assert "was written" in raised["message"]
    assert target.read_text() == "new\n"


EDITED_GOAL = """---
slug: g
status: active
---
# Goal: g

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | works | `true` | exit 0 | deterministic |

## Iterations

### Iteration 1 (2026-12-01) by verify-goal
status: active

## Lessons
"""


@pytest.mark.parametrize("limit", [1 << 20, 10], ids=["kept", "too-big"])
def test_an_edit_is_written_as_the_edited_texts_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    """An editing command's read keeps the bytes of a goal up to the limit, and the edited text
    is then written from them and from what the edit wrote; a bigger goal is read as text
    alone and encoded whole. Either way the file holds exactly the edited text's bytes."""
    from goalfile import ledger

    monkeypatch.setattr(files, "EDIT_KEEPS_BYTES_UP_TO", limit)
    monkeypatch.setattr(files, "_last_read", None)
    path = tmp_path / "g.md"
    path.write_bytes(EDITED_GOAL.encode("utf-8"))
    text, goal = files.read_for_edit(path)
    assert text == EDITED_GOAL and goal.slug == "g"
    kept = files._last_read is not None and files._last_read[3] is text
    assert kept == (limit > len(EDITED_GOAL))
    at = text.index("\n## Lessons") + 1
    entry = "### Iteration 2 (2026-12-02) by review\nstatus: active\n\n"
    new = ledger.spliced(text, text[:at] + entry + text[at:], at, len(text) - at)
    assert len(files._content(path, new)) == (3 if kept else 1)  # spans, or the text encoded
    files.write_atomic(path, new, parsed=files.parse_text(path, new))
    assert path.read_bytes() == new.encode("utf-8")
    assert files.read_for_edit(path)[0] == new
