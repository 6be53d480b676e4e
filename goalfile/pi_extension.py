"""pi: goalfile's extension, shipped with goalfile and installed into ``.pi/extensions/goalfile/``.

pi loads every extension of a project's ``.pi/extensions/`` with no build step; for a folder,
the modules its ``package.json`` names in ``pi.extensions``. goalfile's is a folder with that
``package.json`` and ``goalfile.mjs``, an ES module. The extension (see its header) runs
``goalfile hook stop --agent pi`` at the end of each agent run and sends an unmet goal's reason
as a follow-up, and at ``session_start`` runs ``goalfile hook start --agent pi``, keeping the
line it prints in the session file (a custom entry, which pi never sends to the model); it
also gives the model the tools ``goal_get``, ``goal_verify`` and ``goal_block``, which only
run the goalfile command line.

Why a ``.mjs`` and not a ``.ts``: pi loads extensions with jiti, which imports an ES module as
it is, but transpiles TypeScript and keeps the output in a cache folder (``$TMPDIR/jiti``, else
``/tmp/jiti``) under a name and with a source tag any process can compute; a file written there
runs instead of the extension. goalfile once shipped ``.pi/extensions/goalfile.ts``
(:data:`FORMER`): ``init`` removes it when it is byte for byte one goalfile shipped, and keeps
(and reports) one that differs.

Installing is idempotent: a missing file is written, an identical one is left alone, and one
that differs (edited by hand, or shipped by an older goalfile) is kept and reported, so nothing
a person wrote is lost; deleting the folder and running ``goalfile init`` again installs the
shipped one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from goalfile.errors import GoalfileError
from goalfile.files import read_regular_text
from goalfile.hostjson import write_atomic
from goalfile.resources import data_dir

__all__ = [
    "EXTENSION",
    "EXTENSION_DIR",
    "FORMER",
    "ExtensionInstall",
    "extension_state",
    "former_state",
    "install_pi_extension",
    "shipped_extension",
    "shipped_files",
]

EXTENSION_DIR = Path(".pi") / "extensions" / "goalfile"
EXTENSION = EXTENSION_DIR / "goalfile.mjs"  # the module pi runs
MANIFEST = EXTENSION_DIR / "package.json"  # names it for pi (`pi.extensions`)
FORMER = Path(".pi") / "extensions" / "goalfile.ts"  # what goalfile shipped before

# sha256 of each .pi/extensions/goalfile.ts an earlier goalfile shipped
FORMER_SHIPPED = frozenset(
    {
        "0834376b104fb0ebef0a19875e8012131e553adc0666dfc596919a3bb9bf3dcc",
        "25f1097a5e2e6d2d7ed8d83f3057a0457c4a82362b08c74149f50a82eb75cead",
        "3e61d3b98bc19474509831be35180424e6aa2e55e57f3b9425e479a45c567718",
        "78ff7dbf76745696bb8b83a5ed571e254f41ea74f2c432ba67a76d57d9fa5721",
        "cb86d2709d88cb9b1a500bfeab12bc510dca68015c67fc94ac7369d6b58fd28f",
    }
)


@dataclass(frozen=True, kw_only=True)
class ExtensionInstall:
    path: str
    changed: bool  # a file was written or removed
    created: bool  # a file of the extension's folder did not exist and was written
    kept: bool  # a file exists, differs from the shipped one, and was left as it is
    former: str | None = None  # .pi/extensions/goalfile.ts: "removed", "kept" or None (absent)
    former_path: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "host": "pi",
            "path": self.path,
            "changed": self.changed,
            "created": self.created,
            "kept_modified": self.kept,
            "former": self.former,
            "former_path": self.former_path if self.former else None,
        }


def shipped_files() -> dict[Path, str]:
    """Each file of the shipped extension, by its path in the project."""
    folder = data_dir("extensions") / "pi" / "goalfile"
    return {
        EXTENSION: (folder / EXTENSION.name).read_text(encoding="utf-8"),
        MANIFEST: (folder / MANIFEST.name).read_text(encoding="utf-8"),
    }


def shipped_extension() -> str:
    """The shipped module, ``goalfile.mjs``."""
    return shipped_files()[EXTENSION]


def _present(path: Path) -> str | None:
    """The file's text; None when missing, "" when unreadable (a FIFO, a device: never
    waited on, never written over)."""
    try:
        return read_regular_text(path, what="pi extension")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, GoalfileError):
        return ""


def former_state(*, root: Path) -> str | None:
    """``.pi/extensions/goalfile.ts``: ``shipped`` (one goalfile shipped), ``modified`` (any
    other file there) or None (nothing there)."""
    path = root / FORMER
    if not path.exists() and not path.is_symlink():
        return None
    present = _present(path)
    if present:
        digest = hashlib.sha256(present.encode("utf-8")).hexdigest()
        if digest in FORMER_SHIPPED:
            return "shipped"
    return "modified"


def install_pi_extension(*, root: Path) -> ExtensionInstall:
    changed = created = kept = False
    for relative, shipped in shipped_files().items():
        path = root / relative
        present = _present(path)
        if present == shipped:
            continue
        if present is not None:
            kept = True
            continue
        write_atomic(path, shipped)
        changed = True
        created = True
    former = former_state(root=root)
    if former == "shipped":
        (root / FORMER).unlink()
        former, changed = "removed", True
    elif former == "modified":
        former = "kept"
    return ExtensionInstall(
        path=str(root / EXTENSION_DIR),
        changed=changed,
        created=created,
        kept=kept,
        former=former,
        former_path=str(root / FORMER),
    )


def extension_state(*, root: Path) -> str:
    """``current``, ``modified`` (a file differs from the shipped one) or ``missing``."""
    states = {_present(root / relative) == text for relative, text in shipped_files().items()}
    if states == {True}:
        return "current"
    if _present(root / EXTENSION) is None:
        return "missing"
    return "modified"
