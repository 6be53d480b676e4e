"""The marks of holds the Stop hook could not ledger (:mod:`goalfile.holdmark`), on a real
file system: one per goal and entry, and a mark kept under the folder's former name
(``.git/goalfile-held/``, one letter from ``.git/goalfile-held.json``, the record of the goals
a focus named) still counts, so an entry held once is not held again."""

from __future__ import annotations

from pathlib import Path

from goalfile.holdmark import MARKS_FOLDER, OLD_FOLDER, first_hold


def test_the_first_hold_on_an_entry_is_marked_and_the_next_is_not_first(tmp_path: Path) -> None:
    git_folder = tmp_path / ".git"
    git_folder.mkdir()
    assert first_hold(git_folder=git_folder, goal="goals/a.md", iteration=2)
    assert not first_hold(git_folder=git_folder, goal="goals/a.md", iteration=2)
    assert first_hold(git_folder=git_folder, goal="goals/a.md", iteration=3)
    assert first_hold(git_folder=git_folder, goal="goals/b.md", iteration=2)
    assert len(list((git_folder / MARKS_FOLDER).iterdir())) == 3
    assert not (git_folder / OLD_FOLDER).exists()
    assert not first_hold(git_folder=None, goal="goals/a.md", iteration=2)


def test_a_mark_under_the_former_name_counts(tmp_path: Path) -> None:
    made = tmp_path / "made" / ".git"
    made.mkdir(parents=True)
    assert first_hold(git_folder=made, goal="goals/a.md", iteration=2)
    (mark,) = (made / MARKS_FOLDER).iterdir()
    git_folder = tmp_path / "repo" / ".git"
    (git_folder / OLD_FOLDER).mkdir(parents=True)
    (git_folder / OLD_FOLDER / mark.name).write_bytes(b"")  # as the hook wrote it before
    assert not first_hold(git_folder=git_folder, goal="goals/a.md", iteration=2)
    assert not (git_folder / MARKS_FOLDER).exists()
    assert first_hold(git_folder=git_folder, goal="goals/a.md", iteration=3)
