"""Where the shipped skills, templates and host extensions are: in a wheel, or in a checkout."""

from __future__ import annotations

from pathlib import Path

from goalfile.errors import GoalfileError


def data_dir(name: str) -> Path:
    """``skills``, ``templates`` or ``extensions``: the wheel carries them as
    ``goalfile/_data/<name>``."""
    package = Path(__file__).resolve().parent
    for candidate in (package / "_data" / name, package.parent / name):
        if candidate.is_dir():
            return candidate
    raise GoalfileError(
        f"the shipped {name}/ folder is missing from this installation",
        hint="reinstall goalfile (`pip install --force-reinstall goalfile`)",
    )


def template(name: str) -> str:
    return (data_dir("templates") / name).read_text(encoding="utf-8")
