"""`goalfile new` at the edges of a slug: every slug-N taken, a slug too long for a file name,
and the `new` hint of a goal file not there, from a sub-folder. Each `fix:` is run as written."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_goalfile
from tests.test_new_user_hints import fix_command, run_fix


def test_a_slug_whose_free_names_up_to_999_are_taken_gets_a_free_one_not_a_traceback(
    repo: Path,
) -> None:
    assert run_goalfile("new", "foo", cwd=repo).returncode == 0
    text = (repo / "goals" / "foo.md").read_text()
    for n in range(2, 1000):
        (repo / "goals" / f"foo-{n}.md").write_text(text)
    done = run_goalfile("new", "foo", cwd=repo)
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    fix = fix_command(done.stderr)
    assert fix == "goalfile new foo-1000"
    ran = run_fix(fix, repo)
    assert ran.returncode == 0, ran.stderr
    assert (repo / "goals" / "foo-1000.md").is_file()


def test_a_slug_too_long_for_a_file_name_is_refused_up_front_with_a_shorter_slug_that_works(
    repo: Path,
) -> None:
    slug = "a" * 249 + "-b"
    done = run_goalfile("new", slug, "--end-state", "it works", cwd=repo)
    assert done.returncode == 2, done.stderr
    assert "251 characters" in done.stderr
    assert "File name too long" not in done.stderr
    assert "writable" not in done.stderr
    assert list((repo / "goals").iterdir()) == []
    fix = fix_command(done.stderr)
    short = "a" * 200
    assert fix == f"goalfile new {short} --end-state 'it works'"
    ran = run_fix(fix, repo)
    assert ran.returncode == 0, ran.stderr
    assert (repo / "goals" / f"{short}.md").is_file()
    # the longest slug taken: the free name offered is cut to fit, and works as written
    again = run_goalfile("new", short, cwd=repo)
    assert again.returncode == 3, again.stderr
    fix = fix_command(again.stderr)
    assert fix == f"goalfile new {'a' * 198}-2"
    ran = run_fix(fix, repo)
    assert ran.returncode == 0, ran.stderr


def test_the_new_hint_of_a_missing_goal_names_the_path_new_writes_from_a_sub_folder(
    repo: Path,
) -> None:
    sub = repo / "src" / "pkg"
    sub.mkdir(parents=True)
    done = run_goalfile("status", "nope.md", cwd=sub)
    assert done.returncode != 0
    assert "`goalfile new nope` writes ../../goals/nope.md as a draft" in done.stderr
    ran = run_fix("goalfile new nope", sub)
    assert ran.returncode == 0, ran.stderr
    assert (repo / "goals" / "nope.md").is_file()
    assert "../../goals/nope.md" in ran.stdout
