"""pi: goalfile's extension file, shipped with goalfile and installed into ``.pi/extensions/``.

pi loads every ``.pi/extensions/*.ts`` of a project with no build step. The extension (see its
header) runs ``goalfile hook stop --agent pi`` at the end of each agent run and sends an unmet
goal's reason as a follow-up; it also gives the model the tools ``goal_get``, ``goal_verify``
and ``goal_block``, which only run the goalfile command line.

Installing is idempotent: a missing file is written, an identical one is left alone, and one
that differs (edited by hand, or shipped by an older goalfile) is kept and reported, so nothing
a person wrote is lost; deleting it and running ``goalfile init`` again installs the shipped one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from goalfile.errors import GoalfileError
from goalfile.files import read_regular_text
from goalfile.hostjson import write_atomic
from goalfile.resources import data_dir

__all__ = [
    "EXTENSION",
    "ExtensionInstall",
    "extension_state",
    "install_pi_extension",
    "shipped_extension",
]

EXTENSION = Path(".pi") / "extensions" / "goalfile.ts"


@dataclass(frozen=True, kw_only=True)
class ExtensionInstall:
    path: str
    changed: bool  # the file was written
    created: bool  # it did not exist before
    kept: bool  # it exists, differs from the shipped one, and was left as it is

    def to_json(self) -> dict[str, object]:
        return {
            "host": "pi",
            "path": self.path,
            "changed": self.changed,
            "created": self.created,
            "kept_modified": self.kept,
        }


def shipped_extension() -> str:
    return (data_dir("extensions") / "pi" / "goalfile.ts").read_text(encoding="utf-8")


def install_pi_extension(*, root: Path) -> ExtensionInstall:
    path = root / EXTENSION
    shipped = shipped_extension()
    try:
        present: str | None = read_regular_text(path, what="pi extension")
    except FileNotFoundError:
        present = None
    except (OSError, UnicodeDecodeError, GoalfileError):
        present = ""  # unreadable (a FIFO, a device: never waited on): never written over
    if present == shipped:
        return ExtensionInstall(path=str(path), changed=False, created=False, kept=False)
    if present is not None:
        return ExtensionInstall(path=str(path), changed=False, created=False, kept=True)
    write_atomic(path, shipped)
    return ExtensionInstall(path=str(path), changed=True, created=True, kept=False)


def extension_state(*, root: Path) -> str:
    """``current``, ``modified`` (differs from the shipped file) or ``missing``."""
    try:
        present = read_regular_text(root / EXTENSION, what="pi extension")
    except FileNotFoundError:
        return "missing"
    except (OSError, UnicodeDecodeError, GoalfileError):
        return "modified"
    return "current" if present == shipped_extension() else "modified"
