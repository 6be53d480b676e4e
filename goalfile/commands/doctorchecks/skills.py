"""The skills in ``.agents/skills/`` and ``.claude/skills/``: installed, current and valid."""

from __future__ import annotations

from pathlib import Path

from goalfile import files
from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import Check, Finding
from goalfile.commands.skills import AGENTS_DIR, CLAUDE_DIR, State, read_manifest, shipped_skills
from goalfile.commands.skills import skill_state as state_of


def skill_findings(root: Path, ctx: Context) -> list[Finding]:
    skills = Check("skills", "skill")
    found: list[Finding] = []
    shipped = shipped_skills()
    for relative in (AGENTS_DIR, CLAUDE_DIR):
        folder = root / relative
        manifest = read_manifest(folder)
        states = {skill.name: state_of(skill, folder, manifest) for skill in shipped}
        problems = {n: s for n, s in states.items() if s is not State.CURRENT}
        invalid = [
            f"{name}: {why}"
            for name, state in states.items()
            if state is not State.MISSING and (why := _invalid(folder / name, name))
        ]
        if not problems and not invalid:
            found.append(skills.ok(detail=f"{relative}: {len(states)} skills, current and valid"))
            continue
        for name, state in problems.items():
            fix = "goalfile skills install"
            if state is State.MODIFIED:
                fix += " --force"
            found.append(skills.problem(detail=f"{relative / name}: {state.value}", fix=fix))
        for message in invalid:
            found.append(
                skills.problem(
                    detail=f"{relative}/{message}", fix="goalfile skills install --force"
                )
            )
    return found


def _invalid(folder: Path, name: str) -> str | None:
    """Why ``folder`` is not a valid skill called ``name``, or None."""
    import frontmatter

    path = folder / "SKILL.md"
    try:
        meta = frontmatter.loads(files.read_regular_text(path, what="SKILL.md")).metadata
    except FileNotFoundError:
        return "no SKILL.md"
    except Exception as exc:  # YAML errors come in many types
        return f"SKILL.md frontmatter cannot be read: {exc}"
    if meta.get("name") != name:
        return f"SKILL.md names {meta.get('name')!r}, not {name!r}"
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip():
        return "SKILL.md has no description"
    return None
