"""goalfile.goalfolders: the one rule for whether a path lies in a goal folder."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest

from goalfile.goalfolders import GOAL_FOLDERS, in_goal_folder, under_goal_folder


@pytest.mark.parametrize(
    ("relative", "inside"),
    [
        ("goals/x.md", True),
        ("goals/sub/x.md", True),
        (".zetetic/goals/x.md", True),
        ("./goals/x.md", True),
        ("plans/../goals/x.md", True),
        ("goals/../plans/x.md", False),
        ("plans/x.md", False),
        ("goalsx/x.md", False),
        (".zetetic/x.md", False),
        ("sub/goals/x.md", False),
        ("../goals/x.md", False),
        ("", False),
    ],
)
def test_in_goal_folder(relative: str, inside: bool) -> None:
    assert in_goal_folder(relative) is inside
    assert in_goal_folder(PurePosixPath(relative or ".")) is inside


def test_under_goal_folder_takes_paths_as_written() -> None:
    root = Path("/repo")
    assert under_goal_folder(root / "goals" / "x.md", root)
    assert under_goal_folder(root / ".zetetic" / "goals" / "x.md", root)
    assert not under_goal_folder(root / "plans" / "x.md", root)
    assert not under_goal_folder(root / "goals" / ".." / "plans" / "x.md", root)
    assert not under_goal_folder(Path("/other/goals/x.md"), root)
    assert not under_goal_folder(Path("/repo-2/goals/x.md"), root)
    assert under_goal_folder("/repo/goals/x.md", "/repo/")


def test_the_folders_are_those_status_reads() -> None:
    from goalfile.commands import status

    assert status.GOAL_FOLDERS == GOAL_FOLDERS == ("goals", ".zetetic/goals")


def test_the_pre_commit_hook_matches_the_goal_folders() -> None:
    """.pre-commit-hooks.yaml writes the rule as a pattern of its own: it names the same
    goal files."""
    import re

    import yaml
    from conftest import REPO

    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    pattern = re.compile(hook["files"])
    for path in ["goals/x.md", "goals/sub/x.md", ".zetetic/goals/x.md", "plans/x.md",
                 "sub/goals/x.md", "goalsx/x.md", ".zetetic/x.md"]:  # fmt: skip
        assert bool(pattern.search(path)) is in_goal_folder(path), path
