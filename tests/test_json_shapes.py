"""Every command's `--json` document has the top-level keys docs/json.md lists for it, run as
a program through a goal's whole life: a program that reads them can rely on the page."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import git, make_git_repo, run_goalfile

DOC = Path(__file__).parent.parent / "docs" / "json.md"

PLAN_HEAD = (
    "| step | change | files | serves | check |\n|------|--------|-------|--------|-------|\n"
)
PLAN = PLAN_HEAD + "| 1 | make it pass | src/ | C1 | `true` |\n"

# (command line, stdin): in this order, each as a person or a host runs it
LIFE: list[tuple[tuple[str, ...], str | None]] = [
    (("new", "g", "x", "--check", "true", "--expected", "exit 0", "--review",
      "notes.md=the count", "--non-goal", "src/ stays"), None),
    (("lint", "goals/g.md"), None),
    (("activate", "goals/g.md"), None),
    (("plan", "goals/g.md"), None),
    (("verify", "goals/g.md"), None),
    (("refine", "goals/g.md"), None),
    (("review", "goals/g.md", "R1", "--artifact", "notes.md", "--quote", "ls | wc -l",
      "--verdict", "met"), None),
    (("status", "goals/g.md"), None),
    (("pause", "goals/g.md"), None),
    (("resume", "goals/g.md"), None),
    (("block", "goals/g.md", "--reason", "r", "--tried", "t"), None),
    (("reopen", "goals/g.md", "--reason", "r"), None),
    (("budget", "goals/g.md", "--iterations", "9"), None),
    (("impossible", "goals/g.md", "C1", "--reason", "r"), None),
    (("restore", "goals/g.md"), None),
    (("audit", "goals/g.md"), None),
    (("focus", "goals/g.md"), None),
    (("log", "goals/g.md"), None),
    (("init", "--no-hooks", "--no-skills", "--no-goal"), None),
    (("doctor",), None),
    (("skills", "list", "--project"), None),
    (("skills", "install", "--project"), None),
    (("hook", "start", "--agent", "claude"), "{}"),
    (("hook", "stop", "--agent", "claude"), "{}"),
]  # fmt: skip


def documented() -> dict[str, set[str]]:
    """The table of docs/json.md: `command` | `key`, `key`, ..."""
    shapes: dict[str, set[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and (cells[0].startswith("`goalfile ") or cells[0] == "an error"):
            shapes[cells[0].strip("`")] = set(re.findall(r"`([a-z_]+)`", cells[1]))
    return shapes


def command_name(args: tuple[str, ...]) -> str:
    words = ["goalfile"]
    for word in args:
        if word.startswith("-") or "/" in word or word in ("g", "x", "R1", "C1"):
            break
        words.append(word)
    return " ".join(words)


def test_every_json_document_has_the_keys_docs_json_lists(tmp_path: Path) -> None:
    shapes = documented()
    repo = make_git_repo(tmp_path / "r")
    (repo / "notes.md").write_text("Count them: ls | wc -l prints 3.\n", encoding="utf-8")
    seen: set[str] = set()
    for args, stdin in LIFE:
        if args[0] == "plan":
            goal = repo / "goals" / "g.md"
            text = goal.read_text(encoding="utf-8")
            goal.write_text(text.replace(PLAN_HEAD, PLAN, 1), "utf-8")
            git(repo, "add", "-A")
            git(repo, "commit", "-qm", "plan")
        if args[0] == "restore":  # the working tree lost the entries since activate
            git(repo, "add", "-A")
            git(repo, "commit", "-qm", "work")
            goal = repo / "goals" / "g.md"
            goal.write_text(
                goal.read_text("utf-8").replace("review of R1: met", "review of R1: unmet"), "utf-8"
            )
        done = run_goalfile(*args, "--json", cwd=repo, input=stdin, timeout=120)
        document = json.loads(done.stdout)
        name = command_name(args)
        said = f"{name}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        assert "error" not in document, said
        assert name in shapes, f"docs/json.md lists no keys for {name}"
        assert set(document) == shapes[name], said
        assert document["schema_version"] == 1, said
        seen.add(name)
        if args[0] == "activate":
            git(repo, "add", "-A")
            git(repo, "commit", "-qm", "goal")
            git(repo, "tag", "approved")
    assert shapes.keys() - {"an error"} <= seen, shapes.keys() - seen


def test_an_error_document_has_the_keys_docs_json_lists(tmp_path: Path) -> None:
    done = run_goalfile("verify", "goals/missing.md", "--json", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr  # no such file: a usage error
    document = json.loads(done.stdout)
    assert set(document) | set(document["error"]) == documented()["an error"], document
