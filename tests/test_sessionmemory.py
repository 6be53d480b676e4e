"""The Stop hook's record of a session (goalfile.sessionmemory): where it is kept, how it reads
back, and what it does with a record it cannot read or one left for a month."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

from goalfile.gitplace import git_place
from goalfile.sessionmemory import (
    Record,
    Remembered,
    forget_old,
    key_path,
    load,
    record_path,
    save,
    state_folder,
    write_sealed,
)


def test_the_state_folder_follows_xdg_and_home() -> None:
    assert state_folder({"XDG_STATE_HOME": "/s", "HOME": "/h"}) == Path("/s/goalfile/sessions")
    assert state_folder({"XDG_STATE_HOME": "rel", "HOME": "/h"}) == Path(
        "/h/.local/state/goalfile/sessions"
    )
    assert state_folder({"HOME": ""}) is None and state_folder({}) is None


def test_a_session_is_named_by_its_id_else_its_transcript(tmp_path: Path) -> None:
    by_id = record_path(tmp_path, session_id="a", transcript="/t")
    assert by_id is not None and by_id.parent == tmp_path and by_id.suffix == ".json"
    assert record_path(tmp_path, session_id="b", transcript="/t") != by_id
    assert record_path(tmp_path, session_id=None, transcript="/t") is not None
    assert record_path(tmp_path, session_id=None, transcript=None) is None


def test_a_record_reads_back_as_written(tmp_path: Path) -> None:
    top = tmp_path / "repo"
    (top / ".git").mkdir(parents=True)
    place = git_place(top)
    assert place is not None
    record = Record(
        repositories={
            str(top): Remembered(top=str(top), place=place, goals=("goals/a.md",), head="h")
        },
        held=frozenset({"missing\0/x"}),
    )
    path = tmp_path / "state" / "goalfile" / "sessions" / "s.json"
    save(path, record)
    assert load(path) == record
    for folder in (path.parent, path.parent.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    save(path, Record())
    assert not path.exists()


def test_the_staged_copies_read_back_and_what_is_no_object_id_is_passed_over(
    tmp_path: Path,
) -> None:
    """The object id of a goal only git's index held: the record is a file anyone can write,
    so a pair that names no goal of the record, or no object id, is dropped where it is read."""
    top = tmp_path / "repo"
    (top / ".git").mkdir(parents=True)
    place = git_place(top)
    assert place is not None
    oid = "9c83c90c63f42c5a185f305d363fbefe06a256be"
    remembered = Remembered(
        top=str(top), place=place, goals=("goals/a.md",), staged=(("goals/a.md", oid),)
    )
    path = tmp_path / "s.json"
    save(path, Record(repositories={str(top): remembered}))
    assert load(path).repositories[str(top)].staged == (("goals/a.md", oid),)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["repositories"][0]["staged"] += [
        ["goals/b.md", oid],  # not a goal of the record
        ["goals/a.md", "HEAD; rm -rf ~"],
        ["goals/a.md", oid.upper()],
        ["goals/a.md"],
        "goals/a.md",
    ]
    write_sealed(path, data)  # sealed with the key, which is the user's to read too
    assert load(path).repositories[str(top)].staged == (("goals/a.md", oid),)


def test_a_record_edited_by_hand_is_no_record(tmp_path: Path) -> None:
    """A record is sealed with a key of the user's state folder: one whose holds or
    repositories were edited by hand, whose seal is gone, or whose key is gone, reads as no
    record (the hook then holds as at a stop without one, and its next save seals again)."""
    top = tmp_path / "repo"
    (top / ".git").mkdir(parents=True)
    place = git_place(top)
    assert place is not None
    folder = tmp_path / "goalfile" / "sessions"
    path = folder / "s.json"
    record = Record(
        repositories={str(top): Remembered(top=str(top), place=place, goals=("goals/a.md",))},
        held=frozenset({"unbacked\0/x"}),
    )
    save(path, record)
    assert load(path) == record
    key = key_path(folder)
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    data = json.loads(path.read_text(encoding="utf-8"))
    for edit in (
        lambda d: d.update(held=[*d["held"], "unbacked\0/y"]),
        lambda d: d["repositories"].clear(),
        lambda d: d.pop("seal"),
        lambda d: d.update(seal="é" * 64),  # (compared as bytes: no TypeError)
    ):
        edited = json.loads(json.dumps(data))
        edit(edited)
        path.write_text(json.dumps(edited, sort_keys=True), encoding="utf-8")
        assert load(path) == Record(), edited
    save(path, record)
    key.unlink()
    assert load(path) == Record()
    save(path, record)  # a new key, and the record sealed with it
    assert load(path) == record


def test_a_name_with_a_nul_in_a_record_is_no_path(tmp_path: Path) -> None:
    """The record is a file anyone can write: a goal named there with a NUL byte is passed
    over, and a repository whose top or git folder holds one is no repository (no path has
    one, and os functions raise ValueError on it)."""
    top = tmp_path / "repo"
    (top / ".git").mkdir(parents=True)
    place = git_place(top)
    assert place is not None
    written = Remembered(top=str(top), place=place, goals=("goals/a.md",), head="h").to_json()
    good = json.loads(json.dumps(written))  # as the record file reads
    bad_goal = {**good, "goals": ["goals/a.md", "goals/x\0y.md"]}
    assert Remembered.from_json(bad_goal) == Remembered.from_json(good) is not None
    assert Remembered.from_json({**good, "top": f"{top}\0x"}) is None
    place_json = good["place"]
    assert isinstance(place_json, dict)
    for key in ("gitdir", "common"):
        changed = {**place_json, key: f"{place_json[key]}\0x"}
        assert Remembered.from_json({**good, "place": changed}) is None


def test_a_record_that_does_not_read_is_no_record(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    for text in ("{", "[]", '{"schema": 2}', '{"schema": 1, "repositories": [1, {"top": 3}]}'):
        path.write_text(text, encoding="utf-8")
        assert load(path) == Record(), text
    assert load(tmp_path / "none.json") == Record()


def test_records_left_for_a_month_are_removed(tmp_path: Path) -> None:
    old, recent, kept = (tmp_path / name for name in ("old.json", "recent.json", "kept.json"))
    for path in (old, recent, kept):
        path.write_text("{}", encoding="utf-8")
    month = time.time() - 31 * 86400
    os.utime(old, (month, month))
    os.utime(kept, (month, month))
    forget_old(tmp_path, keep="kept.json")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["kept.json", "recent.json"]


def test_a_fifo_at_the_record_is_no_record_and_is_never_waited_on(tmp_path: Path) -> None:
    """Anyone who can write the state folder can put a FIFO at a session's record: the hook
    reads no record from it (it once waited there until its watchdog answered, at every stop)
    and the next save puts a regular file in its place, opening no FIFO left at its temporary
    name either. Run in a process of its own, so that a wait fails the test instead of hanging
    it."""
    import subprocess
    import sys

    record = tmp_path / "s.json"
    os.mkfifo(record)
    code = (
        "import os, sys; from pathlib import Path; "
        "from goalfile.sessionmemory import Record, load, save; "
        "record = Path(sys.argv[1]); "
        "os.mkfifo(record.with_name(f'.s.json.{os.getpid()}.tmp')); "
        "print(load(record) == Record()); "
        "save(record, Record(held=frozenset({'k'}))); "
        "print(load(record) == Record(held=frozenset({'k'})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(record)],
        capture_output=True, text=True, timeout=60, check=False
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "True\nTrue\n"), done.stderr
    assert stat.S_ISREG(record.stat().st_mode)
