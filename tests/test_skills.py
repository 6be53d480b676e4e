"""The shipped skills, `goalfile skills install` and `goalfile skills list`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import click
import pytest
import yaml
from conftest import REPO, make_git_repo, run_goalfile
from skills_ref.validator import validate

from goalfile.cli import main
from goalfile.commands.context import Context
from goalfile.commands.skills import (
    MANIFEST,
    Action,
    Scope,
    State,
    install,
    list_skills,
    shipped_skills,
)

SKILLS = REPO / "skills"
NAMES = sorted(p.name for p in SKILLS.iterdir() if (p / "SKILL.md").is_file())
SPEC_FIELDS = {"name", "description", "license", "allowed-tools", "metadata", "compatibility"}


def split(path: Path) -> tuple[dict[str, object], str]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    meta = yaml.safe_load(head)
    assert isinstance(meta, dict)
    return meta, body


# --- the skills themselves ------------------------------------------------------------------


def test_the_four_skills_are_shipped() -> None:
    assert NAMES == ["goal", "plan", "refine-goal", "verify-goal"]
    assert [s.name for s in shipped_skills()] == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_each_skill_follows_the_specification(name: str) -> None:
    assert validate(SKILLS / name) == []
    meta, body = split(SKILLS / name / "SKILL.md")
    assert meta["name"] == name
    assert set(meta) <= SPEC_FIELDS
    description = meta["description"]
    assert isinstance(description, str) and 0 < len(description) <= 1024
    assert re.search(r"\. Use (right )?(when|whenever|after)\b", description)  # what, then when
    assert len(body.splitlines()) < 500


# `goalfile CMD [SUB] ... --opt ...` in code spans and code blocks of the skill bodies
_SPAN_RE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_FENCE_RE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
_OPTION_RE = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def command_lines(body: str) -> list[str]:
    found: list[str] = []
    for block in _FENCE_RE.findall(body):
        found += [line for line in block.replace("\\\n", " ").splitlines() if "goalfile " in line]
    without_fences = _FENCE_RE.sub("", body)
    found += [span for span in _SPAN_RE.findall(without_fences) if "goalfile " in span]
    return found


_QUOTED_RE = re.compile(r'"[^"]*"|\'[^\']*\'')


def invocations(line: str) -> list[tuple[list[str], list[str]]]:
    """Each `goalfile ...` in a line: the command path and the options written after it
    (quoted arguments are values, never options)."""
    out: list[tuple[list[str], list[str]]] = []
    for piece in re.split(r"&&|\|\||;|\|(?!\s*unmet)", _QUOTED_RE.sub('"…"', line)):
        words = piece.split()
        if "goalfile" not in words:
            continue
        rest = words[words.index("goalfile") + 1 :]
        if not rest or not re.fullmatch(r"[a-z][a-z-]*", rest[0]):
            continue
        path = [rest[0]]
        if len(rest) > 1 and re.fullmatch(r"[a-z][a-z-]*", rest[1]):
            path.append(rest[1])  # a subcommand, or an argument such as a goal path
        out.append((path, _OPTION_RE.findall(" ".join(rest))))
    return out


def resolve(path: list[str]) -> click.Command | None:
    command: click.Command | None = main.commands.get(path[0])
    if isinstance(command, click.Group) and len(path) > 1:
        return command.commands.get(path[1])
    return command


def options_of(command: click.Command) -> set[str]:
    found = {"--help", "-h"}
    for param in command.params:
        found.update(param.opts)
        found.update(param.secondary_opts)
    return found


SKILL_COMMANDS = sorted(
    {
        (name, " ".join(path), tuple(options))
        for name in NAMES
        for line in command_lines(split(SKILLS / name / "SKILL.md")[1])
        for path, options in invocations(line)
    }
)


def test_the_skill_bodies_name_commands() -> None:
    named = {path.split()[0] for _, path, _ in SKILL_COMMANDS}
    assert {"new", "lint", "activate", "verify", "plan", "status"} <= named


@pytest.mark.parametrize(("skill", "path", "options"), SKILL_COMMANDS)
def test_every_command_a_skill_names_exists_with_its_options(
    skill: str, path: str, options: tuple[str, ...]
) -> None:
    command = resolve(path.split())
    assert command is not None, f"{skill}: `goalfile {path}` is not a command"
    missing = set(options) - options_of(command)
    assert not missing, f"{skill}: `goalfile {path}` has no option {sorted(missing)}"
    assert "--json" in options_of(command)


@pytest.mark.parametrize("name", NAMES)
def test_options_named_on_their_own_belong_to_a_command_of_the_skill(name: str) -> None:
    body = split(SKILLS / name / "SKILL.md")[1]
    commands = [resolve(path.split()) for skill, path, _ in SKILL_COMMANDS if skill == name]
    known = set().union(*(options_of(c) for c in commands if c is not None))
    alone = {
        _OPTION_RE.findall(span)[0]
        for span in _SPAN_RE.findall(_FENCE_RE.sub("", body))
        if span.startswith("--")
    }
    assert alone <= known, f"{name}: {sorted(alone - known)} belong to no command it names"


def test_the_command_extraction_sees_options() -> None:
    body = (
        "Run `goalfile verify PATH --transcript PATH` then\n"
        "```sh\ngoalfile skills install \\\n  --force --reason 'not --this'\n```\n"
    )
    lines = command_lines(body)
    assert invocations(lines[1]) == [(["verify"], ["--transcript"])]
    assert invocations(lines[0]) == [(["skills", "install"], ["--force", "--reason"])]


# --- install --------------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "project")


def tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_install_copies_every_skill_to_both_places(project: Path) -> None:
    done = run_goalfile("skills", "install", cwd=project)
    assert done.returncode == 0, done.stderr
    for folder in (".agents/skills", ".claude/skills"):
        for name in NAMES:
            installed = project / folder / name
            assert (installed / "SKILL.md").read_bytes() == (
                SKILLS / name / "SKILL.md"
            ).read_bytes()
            assert validate(installed) == []
        manifest = json.loads((project / folder / MANIFEST).read_text("utf-8"))
        assert sorted(manifest["skills"]) == NAMES
    assert done.stdout.count(": installed") == 2 * len(NAMES)


def test_install_is_idempotent(project: Path) -> None:
    assert run_goalfile("skills", "install", cwd=project).returncode == 0
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in project.rglob("*") if p.is_file()}
    done = run_goalfile("skills", "install", cwd=project)
    assert done.returncode == 0
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in project.rglob("*") if p.is_file()}
    assert after == before
    assert done.stdout.count(": unchanged") == 2 * len(NAMES)


def test_a_modified_skill_is_kept_unless_forced(project: Path) -> None:
    assert run_goalfile("skills", "install", "--target", "claude", cwd=project).returncode == 0
    edited = project / ".claude" / "skills" / "plan" / "SKILL.md"
    edited.write_text(edited.read_text("utf-8") + "\nOur team's note.\n", encoding="utf-8")

    listing = run_goalfile("skills", "list", "--project", "--target", "claude", cwd=project)
    assert ".claude/skills/plan: modified" in listing.stdout
    assert ".claude/skills/goal: current" in listing.stdout

    done = run_goalfile("skills", "install", "--target", "claude", cwd=project)
    assert done.returncode == 0
    assert "Our team's note." in edited.read_text("utf-8")
    assert "plan was modified after installation; kept (use --force)" in done.stderr

    done = run_goalfile("skills", "install", "--target", "claude", "--force", cwd=project)
    assert done.returncode == 0
    assert edited.read_bytes() == (SKILLS / "plan" / "SKILL.md").read_bytes()
    assert ".claude/skills/plan: replaced" in done.stdout


def test_an_added_file_counts_as_a_modification(project: Path) -> None:
    assert run_goalfile("skills", "install", "--target", "agents", cwd=project).returncode == 0
    extra = project / ".agents" / "skills" / "goal" / "notes.md"
    extra.write_text("mine\n", encoding="utf-8")
    assert run_goalfile("skills", "install", "--target", "agents", cwd=project).returncode == 0
    assert extra.is_file()
    assert (
        run_goalfile("skills", "install", "--target", "agents", "--force", cwd=project).returncode
        == 0
    )
    assert not extra.exists()


def test_a_skill_someone_else_put_there_is_not_overwritten(project: Path) -> None:
    foreign = project / ".agents" / "skills" / "goal"
    foreign.mkdir(parents=True)
    (foreign / "SKILL.md").write_text("---\nname: goal\ndescription: x\n---\nmine\n", "utf-8")
    done = run_goalfile("skills", "install", "--target", "agents", cwd=project)
    assert done.returncode == 0
    assert (foreign / "SKILL.md").read_text("utf-8").endswith("mine\n")
    assert (project / ".agents" / "skills" / "plan" / "SKILL.md").is_file()


def test_an_outdated_skill_is_updated(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(SKILLS, source)
    ctx = Context(today="2026-11-30", env={"HOME": str(tmp_path / "home")}, cwd=tmp_path)
    first = install(ctx=ctx, target="agents", source=source)
    assert {s.action for loc in first.locations for s in loc.skills} == {Action.INSTALLED}

    skill = source / "verify-goal" / "SKILL.md"
    skill.write_text(skill.read_text("utf-8") + "\nA new paragraph.\n", encoding="utf-8")
    listed = list_skills(ctx=ctx, scopes=(Scope.PROJECT,), target="agents", source=source)
    states = {s.name: s.state for s in listed.locations[0].skills}
    assert states == {
        "goal": State.CURRENT,
        "plan": State.CURRENT,
        "refine-goal": State.CURRENT,
        "verify-goal": State.OUTDATED,
    }
    second = install(ctx=ctx, target="agents", source=source)
    actions = {s.name: s.action for s in second.locations[0].skills}
    assert actions["verify-goal"] is Action.UPDATED and actions["goal"] is Action.UNCHANGED
    installed = tmp_path / ".agents" / "skills" / "verify-goal" / "SKILL.md"
    assert installed.read_text("utf-8").endswith("A new paragraph.\n")


def test_user_scope_installs_under_home(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    done = run_goalfile("skills", "install", "--user", cwd=project, env={"HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert (home / ".agents" / "skills" / "goal" / "SKILL.md").is_file()
    assert (home / ".claude" / "skills" / "goal" / "SKILL.md").is_file()
    assert not (project / ".agents").exists()
    assert "~/.claude/skills/goal: installed" in done.stdout


def test_install_into_a_folder(project: Path) -> None:
    done = run_goalfile("skills", "install", "--target", "vendor/skills", cwd=project)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (project / "vendor" / "skills").iterdir()) == [
        MANIFEST,
        *NAMES,
    ]


def test_install_from_a_subfolder_goes_to_the_top_level(project: Path) -> None:
    (project / "pkg").mkdir()
    done = run_goalfile("skills", "install", "--target", "agents", cwd=project / "pkg")
    assert done.returncode == 0, done.stderr
    assert (project / ".agents" / "skills" / "goal").is_dir()


def test_list_shows_both_scopes_as_json(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert run_goalfile("skills", "install", "--target", "agents", cwd=project).returncode == 0
    done = run_goalfile("skills", "list", "--json", cwd=project, env={"HOME": str(home)})
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["schema_version"] == 1
    where = {
        loc["path"]: {s["name"]: s["state"] for s in loc["skills"]} for loc in document["locations"]
    }
    assert where[".agents/skills"] == dict.fromkeys(NAMES, "current")
    assert where[".claude/skills"] == dict.fromkeys(NAMES, "missing")
    assert where["~/.agents/skills"] == dict.fromkeys(NAMES, "missing")


def test_a_target_that_is_a_file_is_a_usage_error(project: Path) -> None:
    (project / "taken").write_text("x", encoding="utf-8")
    done = run_goalfile("skills", "install", "--target", "taken", cwd=project)
    assert done.returncode == 2 and "not a folder" in done.stderr


def test_skills_commands_have_help_and_json() -> None:
    for path in (["skills", "install"], ["skills", "list"], ["init"], ["hook", "stop"]):
        command = resolve(path)
        assert command is not None
        assert {"--help", "--json"} <= options_of(command)


def test_the_goal_skill_focuses_the_session_on_the_goal_it_activates() -> None:
    """Without a focus the Stop hook holds the session to every active goal: the goal skill
    runs `goalfile focus PATH` right after activating, on both of its paths."""
    assert ("goal", "focus", ()) in SKILL_COMMANDS
    body = split(SKILLS / "goal" / "SKILL.md")[1]
    after_new = body.index("--activate`")
    assert after_new < body.index("`goalfile focus goals/SLUG.md`")
    after_activate = body.index("`goalfile activate PATH`")
    assert after_activate < body.index("`goalfile focus PATH`", after_activate)
