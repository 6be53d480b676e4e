"""goalfile.files: new goal files appear whole or not at all."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from goalfile import files
from goalfile.errors import Refused


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
