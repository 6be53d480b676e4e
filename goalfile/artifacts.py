"""Reading the artifacts review rows name: inside the goal's working tree only."""

from __future__ import annotations

from pathlib import Path

from goalfile.errors import Refused
from goalfile.files import read_regular

ARTIFACT_LIMIT = 200_000  # characters of an artifact handed to a judge


def resolve_artifact(workdir: Path, artifact: str) -> Path:
    """The artifact's real path; refuses one outside ``workdir`` (symlinks resolved)."""
    root = workdir.resolve()
    candidate = Path(artifact)
    target = (candidate if candidate.is_absolute() else root / candidate).resolve()
    if target != root and root not in target.parents:
        raise Refused(
            f"artifact {artifact} is outside the goal's working tree {root} (an artifact is a "
            "file inside it, named relative to it)",
        )
    return target


def covers(named: Path, target: Path) -> bool:
    """Whether ``target`` is the artifact a row names, or inside the folder it names."""
    return target == named or named in target.parents


def relative(workdir: Path, target: Path) -> str:
    return str(target.relative_to(workdir.resolve()))


def read_artifact(target: Path, *, limit: int | None = None) -> tuple[str, bool]:
    """The artifact's text (decoded leniently) and whether it was cut at ``limit``."""
    if target.is_dir():
        raise Refused(f"artifact {target} is a folder, not the file that is reviewed")
    try:  # a regular file only (a FIFO or /dev/zero is refused), and never more than needed
        data = read_regular(target, what="artifact", limit=None if limit is None else 4 * limit)
    except FileNotFoundError:
        raise Refused(f"artifact {target} does not exist") from None
    except OSError as exc:
        raise Refused(f"artifact {target} cannot be read: {exc.strerror}") from None
    text = data.decode("utf-8", "replace")
    if limit is not None and len(text) > limit:
        return text[:limit], True
    return text, False
