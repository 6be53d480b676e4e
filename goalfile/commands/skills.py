"""`goalfile skills install` and `goalfile skills list`: the shipped skills in a host's folder.

Skills go to ``.agents/skills/`` (read by Codex, Cursor, Gemini CLI, pi and OpenCode) and/or
``.claude/skills/`` (Claude Code), under the project (the git top level, else the current folder)
or the user's home. Each skills folder gets a small manifest, ``.goalfile-skills.json``, with the
digest of every skill as goalfile installed it. That tells three states apart:

* ``current``: the installed copy equals the shipped skill;
* ``outdated``: the installed copy is what goalfile installed, and goalfile now ships another;
* ``modified``: the installed copy differs from what goalfile installed (edited by hand, or put
  there by something else). It is never overwritten without ``--force``.

Installing is idempotent: a second run changes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from goalfile import __version__
from goalfile.commands.context import Context
from goalfile.commands.workdir import repository_top
from goalfile.errors import GoalfileError, MeantOther, UsageError
from goalfile.files import read_regular, read_regular_text
from goalfile.hostjson import write_atomic
from goalfile.resources import data_dir

SCHEMA_VERSION = 1
MANIFEST = ".goalfile-skills.json"
AGENTS_DIR = Path(".agents") / "skills"  # Codex, Cursor, Gemini CLI, pi, OpenCode
CLAUDE_DIR = Path(".claude") / "skills"  # Claude Code
TARGETS: dict[str, tuple[Path, ...]] = {
    "agents": (AGENTS_DIR,),
    "claude": (CLAUDE_DIR,),
    "all": (AGENTS_DIR, CLAUDE_DIR),
}


class Scope(StrEnum):
    PROJECT = "project"
    USER = "user"


class State(StrEnum):
    CURRENT = "current"
    OUTDATED = "outdated"
    MODIFIED = "modified"
    MISSING = "missing"


class Action(StrEnum):
    INSTALLED = "installed"  # was missing
    UPDATED = "updated"  # was outdated
    REPLACED = "replaced"  # was modified; --force
    UNCHANGED = "unchanged"  # was current
    SKIPPED = "skipped"  # was modified; kept


@dataclass(frozen=True, kw_only=True)
class Skill:
    name: str
    source: Path
    digest: str


@dataclass(frozen=True, kw_only=True)
class SkillStatus:
    name: str
    state: State
    action: Action | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "state": self.state.value}
        if self.action is not None:
            out["action"] = self.action.value
        return out


@dataclass(frozen=True, kw_only=True)
class Location:
    """One skills folder and the state of every shipped skill in it."""

    path: str  # as shown: relative to the current folder, or with `~` for the home folder
    scope: Scope | None  # None for an explicit DIR
    skills: tuple[SkillStatus, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "scope": self.scope.value if self.scope else None,
            "skills": [s.to_json() for s in self.skills],
        }


@dataclass(frozen=True, kw_only=True)
class SkillsResult:
    locations: tuple[Location, ...]

    @property
    def skipped(self) -> tuple[tuple[str, str], ...]:
        return tuple(
            (loc.path, s.name)
            for loc in self.locations
            for s in loc.skills
            if s.action is Action.SKIPPED
        )

    @property
    def changed(self) -> bool:
        return any(
            s.action in (Action.INSTALLED, Action.UPDATED, Action.REPLACED)
            for loc in self.locations
            for s in loc.skills
        )

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": SCHEMA_VERSION,
            "locations": [loc.to_json() for loc in self.locations],
        }


# --- digests and the manifest ---------------------------------------------------------------


def _files(folder: Path) -> list[Path]:
    """Regular files of a skill folder, relative, sorted; dotfiles and caches are not part."""
    found: list[Path] = []
    for path in folder.rglob("*"):
        rel = path.relative_to(folder)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        if path.is_file() and not path.is_symlink():
            found.append(rel)
    return sorted(found)


def digest_folder(folder: Path) -> str:
    """SHA-256 over the relative paths and contents of a skill folder's files."""
    sha = hashlib.sha256()
    for rel in _files(folder):
        data = read_regular(folder / rel, what="skill file")
        sha.update(rel.as_posix().encode("utf-8") + b"\0")
        sha.update(str(len(data)).encode("ascii") + b"\0")
        sha.update(data)
    return "sha256:" + sha.hexdigest()


def shipped_skills(source: Path | None = None) -> tuple[Skill, ...]:
    """Every skill goalfile ships: a folder holding a ``SKILL.md``."""
    base = source or data_dir("skills")
    return tuple(
        Skill(name=folder.name, source=folder, digest=digest_folder(folder))
        for folder in sorted(base.iterdir())
        if folder.is_dir() and (folder / "SKILL.md").is_file()
    )


def read_manifest(folder: Path) -> dict[str, str]:
    """Skill name → digest as installed. A missing or unreadable manifest is empty."""
    try:
        data = json.loads(read_regular_text(folder / MANIFEST, what="skills manifest"))
    except (OSError, ValueError, RecursionError, GoalfileError):
        return {}
    skills = data.get("skills") if isinstance(data, dict) else None
    if not isinstance(skills, dict):
        return {}
    return {k: v for k, v in skills.items() if isinstance(k, str) and isinstance(v, str)}


def write_manifest(folder: Path, skills: Mapping[str, str]) -> None:
    document = {
        "schema_version": SCHEMA_VERSION,
        "installed_by": f"goalfile {__version__}",
        "note": "written by `goalfile skills install`; digests of the skills as installed",
        "skills": dict(sorted(skills.items())),
    }
    write_atomic(folder / MANIFEST, json.dumps(document, indent=2) + "\n")


def skill_state(skill: Skill, folder: Path, manifest: Mapping[str, str]) -> State:
    installed = folder / skill.name
    if not installed.exists():
        return State.MISSING
    if not installed.is_dir():
        return State.MODIFIED
    current = digest_folder(installed)
    if current == skill.digest:
        return State.CURRENT
    if manifest.get(skill.name) == current:
        return State.OUTDATED
    return State.MODIFIED


# --- where ----------------------------------------------------------------------------------


def scope_root(scope: Scope, ctx: Context) -> Path:
    if scope is Scope.USER:
        home = ctx.env.get("HOME")
        return Path(home) if home else Path.home()
    return repository_top(ctx.cwd) or ctx.cwd


def folders(scope: Scope, target: str, ctx: Context) -> list[tuple[Path, Scope | None]]:
    """The skills folders of ``target``: ``agents``, ``claude``, ``all`` or a folder path."""
    if target in TARGETS:
        root = scope_root(scope, ctx)
        return [(root / rel, scope) for rel in TARGETS[target]]
    if not target.strip():
        raise MeantOther(
            "--target is empty: it is agents, claude, all, or a folder",
            given=target,
            instead="all",
            hint="",  # the command line with `--target all` (the CLI boundary writes it)
        )
    path = Path(target).expanduser()
    return [(path if path.is_absolute() else ctx.cwd / path, None)]


def shown(path: Path, ctx: Context) -> str:
    home = ctx.env.get("HOME")
    with contextlib.suppress(ValueError):
        return str(path.relative_to(ctx.cwd)) or "."
    if home:
        with contextlib.suppress(ValueError):
            return str(Path("~") / path.relative_to(home))
    return str(path)


# --- install and list -----------------------------------------------------------------------


def _copy_skill(skill: Skill, folder: Path) -> None:
    """Put a fresh copy of the skill at ``folder/name``, replacing what is there."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / skill.name
    staging = Path(tempfile.mkdtemp(dir=folder, prefix=f".{skill.name}.new-"))
    old: Path | None = None
    try:
        for rel in _files(skill.source):
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(skill.source / rel, staging / rel)
        os.chmod(staging, 0o755)
        if target.exists() or target.is_symlink():
            old = Path(tempfile.mkdtemp(dir=folder, prefix=f".{skill.name}.old-"))
            os.replace(target, old / skill.name)
        os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if old is not None and not (target.exists() or target.is_symlink()):
            os.replace(old / skill.name, target)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def install_into(folder: Path, skills: Sequence[Skill], *, force: bool) -> list[SkillStatus]:
    manifest = read_manifest(folder)
    recorded = dict(manifest)
    out: list[SkillStatus] = []
    for skill in skills:
        state = skill_state(skill, folder, manifest)
        if state is State.CURRENT:
            action = Action.UNCHANGED
        elif state is State.MODIFIED and not force:
            action = Action.SKIPPED
        else:
            _copy_skill(skill, folder)
            action = {
                State.MISSING: Action.INSTALLED,
                State.OUTDATED: Action.UPDATED,
                State.MODIFIED: Action.REPLACED,
            }[state]
        if action is not Action.SKIPPED:
            recorded[skill.name] = skill.digest
        out.append(SkillStatus(name=skill.name, state=state, action=action))
    if recorded != manifest:
        try:
            write_manifest(folder, recorded)
        except OSError as exc:
            raise GoalfileError(
                f"cannot write {MANIFEST}: {exc.strerror or exc}", file=str(folder)
            ) from None
    return out


def install(
    *,
    ctx: Context,
    scope: Scope = Scope.PROJECT,
    target: str = "all",
    force: bool = False,
    source: Path | None = None,
) -> SkillsResult:
    skills = shipped_skills(source)
    locations: list[Location] = []
    for folder, where in folders(scope, target, ctx):
        if folder.exists() and not folder.is_dir():
            raise UsageError(
                f"{folder}: exists and is not a folder; name another --target (nothing was "
                "installed)"
            )
        try:
            statuses = install_into(folder, skills, force=force)
        except OSError as exc:
            raise GoalfileError(
                f"cannot install into {folder}: {exc.strerror or exc}",
                file=str(folder),
                again=f"once {folder} can be written",
            ) from None
        locations.append(Location(path=shown(folder, ctx), scope=where, skills=tuple(statuses)))
    return SkillsResult(locations=tuple(locations))


def list_skills(
    *,
    ctx: Context,
    scopes: Sequence[Scope] = (Scope.PROJECT, Scope.USER),
    target: str = "all",
    source: Path | None = None,
) -> SkillsResult:
    skills = shipped_skills(source)
    locations: list[Location] = []
    seen: set[Path] = set()
    for scope in scopes:
        for folder, where in folders(scope, target, ctx):
            if folder.resolve() in seen:
                continue
            seen.add(folder.resolve())
            manifest = read_manifest(folder)
            statuses = tuple(
                SkillStatus(name=skill.name, state=skill_state(skill, folder, manifest))
                for skill in skills
            )
            locations.append(Location(path=shown(folder, ctx), scope=where, skills=statuses))
    return SkillsResult(locations=tuple(locations))
