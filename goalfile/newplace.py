"""Where `goalfile new` writes a goal, and the longest slug it takes: asked by `new` itself and
by the fix of a goal file that is not there (:func:`goalfile.files.no_such_goal_file` names
the `goalfile new` that writes it), which is why it lives below both. Pure: the caller finds
the repository's top."""

from __future__ import annotations

from pathlib import Path

__all__ = ["MAX_SLUG", "default_folder"]

MAX_SLUG = 200


def default_folder(cwd: Path, top: Path | None) -> Path:
    """Where a new goal goes without --dir: goals/ of the git top level ``top``, which the Stop
    hook, `init` and a `status` run anywhere in the repository read (goals/ of a sub-folder is
    seen by none of them); outside a repository (``top`` None), goals/ of ``cwd``."""
    if top is None or top == cwd.resolve():
        return cwd / "goals"
    return top / "goals"
