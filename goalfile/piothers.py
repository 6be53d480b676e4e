"""pi extensions that are not goalfile's, which pi 0.73.1 loads beside it.

pi loads, with no prompt and all in one Node process, every extension in the project's
``.pi/extensions/`` and the user's ``~/.pi/agent/extensions/`` (``$PI_CODING_AGENT_DIR/extensions``)
(a ``.ts`` or ``.js`` file, or a folder with an ``index.ts`` or a ``package.json``; names that
start with ``.`` and ``node_modules`` are skipped), and those the ``extensions`` and ``packages``
lists of ``.pi/settings.json`` and ``~/.pi/agent/settings.json`` name. Any of them runs in the
process that runs goalfile's extension: one line that puts a folder first on
``process.env.PATH`` makes goalfile's extension run another ``goalfile``; another can end the
process at ``agent_end``. So each is named, with where pi found it.

Reads folders and settings files; :mod:`goalfile.commands.doctor` words the findings.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from goalfile.errors import GoalfileError
from goalfile.files import read_regular_text
from goalfile.pi_extension import EXTENSION_DIR, FORMER

__all__ = ["OtherExtension", "agent_dir", "other_extensions"]


@dataclass(frozen=True, kw_only=True)
class OtherExtension:
    """One extension pi loads that is not goalfile's: a file or folder (``path``), or an entry
    of a settings list (``settings`` and ``key``, with the ``value`` as written)."""

    path: Path | None = None
    settings: Path | None = None
    key: str = ""
    value: str = ""


def agent_dir(env: Mapping[str, str]) -> Path:
    """pi's user folder: ``$PI_CODING_AGENT_DIR``, else ``~/.pi/agent``."""
    given = env.get("PI_CODING_AGENT_DIR")
    if given:
        return Path(given).expanduser()
    return Path(env.get("HOME") or Path.home()).expanduser() / ".pi" / "agent"


def _folder_entries(folder: Path, ours: tuple[Path, ...]) -> list[OtherExtension]:
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError:
        return []
    return [
        OtherExtension(path=entry)
        for entry in entries
        if not entry.name.startswith(".") and entry.name != "node_modules" and entry not in ours
    ]


def _settings_entries(path: Path) -> list[OtherExtension]:
    try:  # a FIFO is not waited on; JSON nested past the recursion limit is no traceback
        document = json.loads(read_regular_text(path, what="pi settings file"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, GoalfileError):
        return []
    if not isinstance(document, dict):
        return []
    found: list[OtherExtension] = []
    for key in ("extensions", "packages"):
        listed = document.get(key)
        for item in listed if isinstance(listed, list) else ():
            shown = item if isinstance(item, str) else json.dumps(item)
            found.append(OtherExtension(settings=path, key=key, value=shown))
    return found


def other_extensions(root: Path, env: Mapping[str, str]) -> list[OtherExtension]:
    """Every extension pi would load for the project at ``root`` besides goalfile's own
    ``.pi/extensions/goalfile/`` (and its former ``goalfile.ts``, which doctor reports on its
    own): the project's first, then the user's."""
    user = agent_dir(env)
    return [
        *_folder_entries(root / ".pi" / "extensions", (root / EXTENSION_DIR, root / FORMER)),
        *_settings_entries(root / ".pi" / "settings.json"),
        *_folder_entries(user / "extensions", ()),
        *_settings_entries(user / "settings.json"),
    ]
