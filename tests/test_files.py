"""goalfile.files: new goal files appear whole or not at all."""

from __future__ import annotations

import errno
import os
import signal
from pathlib import Path

import pytest

from goalfile import files
from goalfile.errors import Interrupted, Refused, Terminated


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
    monkeypatch: pytest.MonkeyPatch,
    signals: tuple[signal.Signals, ...],
    exit_code: int,
) -> None:
    """Real signals sent to this process while the file is being replaced (the CLI's own
    SIGTERM handler installed): the new content is complete, and the error says so."""

    def on_term(signum: int, frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, on_term)
    replace = files._replace

    def interrupted_replace(path: str, text: str) -> None:
        for signum in signals:
            os.kill(os.getpid(), signum)
        replace(path, text)

    monkeypatch.setattr(files, "_replace", interrupted_replace)
    target = tmp_path / "goal.md"
    target.write_text("old\n")
    try:
        with pytest.raises(Interrupted) as raised:
            files.write_atomic(target, "new\n")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert int(raised.value.exit_code) == exit_code
    assert "was written" in raised.value.message
    assert target.read_text() == "new\n"
