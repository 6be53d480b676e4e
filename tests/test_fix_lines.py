"""A `fix:` line is a command that works as written: each situation below is brought about in
a real repository, the real goalfile prints its fix, and the command in it is run, as written,
by a shell, to the effect it promises. What no command can mend is said in the message, with
no `fix:` line (docs/lifecycle.md, Hints).

One test reads goalfile's source: a hint written as a literal (or an f-string) must name a
command; what only a person can write (a criteria row, an entry heading) is said in the message,
with no hint.
"""

from __future__ import annotations

import ast
import ctypes
import functools
import io
import json
import os
import re
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import (
    REPO,
    RULE,
    WITH_GOALFILE,
    clean_env,
    goal_text,
    make_git_repo,
    row,
    run_goalfile,
    shell,
    write_goal,
)

from goalfile.parse import parse_goal

FIX_LINE = re.compile(r"^\s*fix: (.*)$", re.MULTILINE)
SPAN = re.compile(r"`([^`]+)`")


def fix_lines(text: str) -> list[str]:
    return FIX_LINE.findall(text)


def commands(text: str) -> list[str]:
    """The commands the fix lines of ``text`` name, in order."""
    return [span for fix in fix_lines(text) for span in SPAN.findall(fix)]


def active_goal(repo: Path) -> Path:
    return write_goal(repo / "goals", goal_text(rows=(row("C1", "true", "exit 0"),)))


# --------------------------------------------------------------------------- a file not writable


def _without_permission_bypass() -> None:
    """In the child before exec, for root (who writes any folder): keep uid 0 but lose the
    capabilities that bypass file permissions, so a folder's mode holds for it too."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2, 3):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def test_a_goal_in_a_folder_it_cannot_write_is_made_writable_then_run_again(repo: Path) -> None:
    """verify writes a temporary file beside the goal and renames it over; in a folder without
    write permission that fails, and the fix makes the folder writable, then runs the very
    command line again, which then records its entry (both run as the user the refusal was
    printed to)."""
    path = active_goal(repo)
    folder = repo / "goals"
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        done = run_goalfile(
            "verify", "goals/demo.md", cwd=repo, preexec_fn=_without_permission_bypass
        )
        assert done.returncode == 3, done.stdout + done.stderr
        assert "fix: `chmod u+w -- goals`, then `goalfile verify goals/demo.md`" in done.stderr
        fix = " && ".join(commands(done.stderr))
        ran = subprocess.run(
            fix, shell=True, cwd=repo, env=clean_env(WITH_GOALFILE), capture_output=True,
            text=True, preexec_fn=_without_permission_bypass, check=False,
        )  # fmt: skip
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert parse_goal(path.read_text(), path=str(path)).status.value == "met"
    finally:
        folder.chmod(0o755)


# --------------------------------------------------------------------------- usage errors mended


def test_an_empty_skills_target_is_fixed_to_all(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile("skills", "install", "--target", "", cwd=repo)
    assert done.returncode == 2, done.stderr
    assert commands(done.stderr) == ["goalfile skills install --target all"], done.stderr
    ran = shell(commands(done.stderr)[0], repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert (repo / ".agents" / "skills" / "goal").is_dir()


def test_a_timeout_that_is_no_number_is_fixed_to_600(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    args = ("new", "quick", "it works", "--check", "true", "--expected", "exit 0")
    done = run_goalfile(*args, "--timeout", "soon", cwd=repo)
    assert done.returncode == 2, done.stderr
    fix = commands(done.stderr)
    assert fix == ["goalfile new quick 'it works' --check true --expected 'exit 0' --timeout 600"]
    ran = shell(fix[0], repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "\ntimeout: 600\n" in (repo / "goals" / "quick.md").read_text()


def test_a_review_of_another_file_is_fixed_to_the_rows_artifact(repo: Path) -> None:
    (repo / "docs").mkdir()
    (repo / "docs" / "auth.md").write_text("The refresh token is renewed hourly.\n")
    (repo / "README.md").write_text("readme\n")
    rows = (row("C1", "true", "exit 0"), row("R1", "docs/auth.md", "explains refresh", "review"))
    path = write_goal(repo / "goals", goal_text(rows=rows))
    args = ["review", "goals/demo.md", "R1", "--verdict", "met", "--reason", "it does"]
    quote = ["--quote", "The refresh token is renewed hourly."]
    done = run_goalfile(*args, "--artifact", "README.md", *quote, cwd=repo)
    assert done.returncode == 3, done.stderr
    assert "R1 reviews docs/auth.md, not README.md" in done.stderr
    fix = commands(done.stderr)
    assert len(fix) == 1 and "--artifact docs/auth.md" in fix[0], done.stderr
    ran = shell(fix[0], repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "R1" in path.read_text().split("## Iterations", 1)[1]


@pytest.mark.parametrize(
    ("artifact", "verdict", "said"),
    [
        # a quote the artifact does not hold: only the person's reading can mend it
        ("docs/auth.md", ("met", "--quote", "a sentence it does not hold"),
         "a quote is a passage copied verbatim from it"),
        # an artifact that is not there: no command writes the work it stands for
        ("docs/none.md", ("unmet",), "does not exist"),
    ],
)  # fmt: skip
def test_a_review_no_command_can_mend_says_so_with_no_fix_line(
    repo: Path, artifact: str, verdict: tuple[str, ...], said: str
) -> None:
    (repo / "docs").mkdir()
    (repo / "docs" / "auth.md").write_text("The refresh token is renewed hourly.\n")
    rows = (row("C1", "true", "exit 0"), row("R1", artifact, "explains refresh", "review"))
    write_goal(repo / "goals", goal_text(rows=rows))
    done = run_goalfile(
        "review", "goals/demo.md", "R1", "--artifact", artifact, "--verdict", verdict[0],
        "--reason", "it does", *verdict[1:], cwd=repo,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert said in done.stderr
    assert not fix_lines(done.stderr), done.stderr


def test_new_with_options_that_do_not_pair_points_at_its_help(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile("new", "d", "x", "--check", "true", "--check", "false",
                        "--expected", "exit 0", "--expected", "exit 1", "--criterion", "a",
                        "--criterion", "b", "--criterion", "c", cwd=repo)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert commands(done.stderr) == ["goalfile new --help"], done.stderr
    ran = shell("goalfile new --help", repo)
    assert ran.returncode == 0 and "--criterion" in ran.stdout


def test_a_token_count_in_the_environment_that_is_no_number_is_unset(repo: Path) -> None:
    path = active_goal(repo)
    done = run_goalfile("verify", "goals/demo.md", cwd=repo, env={"GOALFILE_TOKENS_USED": "lots"})
    assert done.returncode == 2, done.stderr
    fix = commands(done.stderr)
    assert fix == ["unset GOALFILE_TOKENS_USED", "goalfile verify goals/demo.md"], done.stderr
    ran = shell("export GOALFILE_TOKENS_USED=lots; " + " && ".join(fix), repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert parse_goal(path.read_text(), path=str(path)).status.value == "met"


def test_a_transcript_and_a_token_count_together_keep_the_transcript(repo: Path) -> None:
    active_goal(repo)
    transcript = repo / "session.jsonl"
    transcript.write_text("")
    done = run_goalfile(
        "verify", "goals/demo.md", "--transcript", "session.jsonl", "--tokens-used", "5", cwd=repo
    )
    assert done.returncode == 2, done.stderr
    fix = commands(done.stderr)
    assert fix == ["goalfile verify goals/demo.md --transcript session.jsonl"], done.stderr


def test_a_key_given_twice_loses_the_line_yaml_does_not_read(repo: Path) -> None:
    path = active_goal(repo)
    text = path.read_text()
    path.write_text(text.replace("tokens_used: 0\n", "tokens_used: 0\nstall_limit: 4\n"
                                 "stall_limit: 3\n", 1))  # fmt: skip
    done = run_goalfile("lint", "goals/demo.md", cwd=repo)
    assert done.returncode == 3, done.stderr
    assert "deletes line" in done.stderr and "the value YAML reads stays" in done.stderr
    fix = commands(done.stderr)
    assert len(fix) == 1 and fix[0].startswith("[ ! -e goals/demo.md.goalfile-bak ]"), fix
    ran = shell(fix[0], repo)
    assert ran.returncode == 0, ran.stderr
    assert run_goalfile("lint", "goals/demo.md", cwd=repo).returncode == 0
    assert parse_goal(path.read_text(), path=str(path)).meta["stall_limit"] == 3


def test_a_key_with_lines_under_it_given_twice_loses_its_first_block(repo: Path) -> None:
    """`budget:` twice: YAML reads the last block whole, and the fix deletes the first one,
    its indented lines with it."""
    path = active_goal(repo)
    text = path.read_text()
    path.write_text(text.replace("iterations_used: 1\n", "budget:\n  iterations: 3\n"
                                 "  tokens: null\niterations_used: 1\n", 1))  # fmt: skip
    done = run_goalfile("lint", "goals/demo.md", cwd=repo)
    assert done.returncode == 3, done.stderr
    assert "deletes lines 5-7: the value YAML reads stays" in done.stderr, done.stderr
    ran = shell(commands(done.stderr)[0], repo)
    assert ran.returncode == 0, ran.stderr
    after = parse_goal(path.read_text(), path=str(path))
    assert after.budget.iterations == 3 and path.read_text().count("budget:") == 1


@pytest.mark.parametrize(
    ("line", "tagged", "plain"),
    [("status", "status: !foo draft", "status: draft"),
     ("iterations", "  iterations: !int 5", "  iterations: 5")],
)  # fmt: skip
def test_a_yaml_tag_in_the_frontmatter_is_deleted(
    repo: Path, line: str, tagged: str, plain: str
) -> None:
    """A tag YAML would build an object from: the fix said "remove the tag and write the value
    as plain text"; it is the sed command that deletes it, keeping the value."""
    path = write_goal(repo / "goals", goal_text(status="draft", iterations_used=0))
    text = path.read_text()
    found = next(x for x in text.split("\n") if x.lstrip().startswith(f"{line}:"))
    path.write_text(text.replace(found, tagged + found[len(plain) :], 1))
    done = run_goalfile("lint", "goals/demo.md", cwd=repo)
    assert done.returncode == 3 and "tags are not allowed" in done.stderr, done.stderr
    fix = commands(done.stderr)
    assert len(fix) == 1 and "sed" in fix[0], done.stderr
    ran = shell(fix[0], repo)
    assert ran.returncode == 0, ran.stderr
    assert path.read_text() == text


def test_a_shell_that_runs_nothing_is_deleted_then_the_goal_activated(repo: Path) -> None:
    fake = repo / "tools" / "bash"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    text = goal_text(status="draft", iterations_used=0, extra=(f"shell: {fake}",))
    path = write_goal(repo / "goals", text)
    done = run_goalfile("activate", "goals/demo.md", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "does not run its command" in done.stderr
    fix = commands(done.stderr)
    assert fix[-1] == "goalfile activate goals/demo.md", fix
    ran = shell(" && ".join(fix), repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    after = path.read_text()
    assert "shell:" not in after
    assert parse_goal(after, path=str(path)).status.value == "active"


# --------------------------------------------------------------------------- host settings files


def test_a_codex_config_that_is_no_toml_gets_no_fix_line_from_doctor(tmp_path: Path) -> None:
    """Doctor names the line and column where the TOML breaks, and says to mend it by hand: no
    command can, so it prints no `fix:` line for it (nor one inside another finding)."""
    repo = make_git_repo(tmp_path / "repo")
    (repo / ".codex").mkdir()
    (repo / ".codex" / "config.toml").write_text('[hooks\nx = "y"\n')
    done = run_goalfile("doctor", cwd=repo, env={"HOME": str(tmp_path)})
    assert done.returncode == 1, done.stdout + done.stderr
    said = [line for line in done.stdout.splitlines() if "config.toml:1" in line]
    assert said and "not valid TOML" in said[0], done.stdout
    for fix in fix_lines(done.stdout):
        assert "TOML" not in fix and "by hand" not in fix, fix
    for command in commands(done.stdout):
        assert command.startswith("goalfile "), command


@pytest.mark.parametrize(
    ("file", "broken", "mended", "flags", "said"),
    [
        (".claude/settings.json", '{"hooks": []}\n', '{"hooks": {}}\n', (),
         'once "hooks" is a map of event names to lists'),
        (".claude/settings.json", "[]\n", "{}\n", (), "once its top level is a JSON object"),
        (".claude/settings.json", '{"hooks": {"Stop": {}}}\n', '{"hooks": {"Stop": []}}\n', (),
         'once "Stop" is a list of matcher groups'),
        (".claude/settings.json", '{"x": "\xff"}\n', '{"x": "y"}\n', (),
         "once the file is saved as UTF-8"),
        (".mcp.json", '{"mcpServers": []}\n', '{"mcpServers": {}}\n', ("--mcp",),
         'once "mcpServers" is a map of server names'),
        (".codex/config.toml", "mcp_servers = 1\n", "", ("--mcp",),
         "once mcp_servers is one table per server"),
    ],
    ids=["hooks-list", "top-list", "stop-object", "not-utf8", "mcp-servers", "codex-mcp"],
)  # fmt: skip
def test_a_settings_file_of_the_wrong_shape_is_mended_by_hand_then_init_runs_again(
    tmp_path: Path, file: str, broken: str, mended: str, flags: tuple[str, ...], said: str
) -> None:
    """The fix is the init command line as typed, once the file is mended (no command can
    know what the person meant it to hold): it works as written after that step."""
    repo = make_git_repo(tmp_path / "repo")
    path = repo / file
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(broken.encode("latin-1"))
    done = run_goalfile("init", "--no-goal", "--no-skills", *flags, cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    fixes = [f for f in fix_lines(done.stderr) if said in f]
    assert fixes, done.stderr
    again = SPAN.findall(fixes[0])
    assert again == [" ".join(["goalfile init --no-goal --no-skills", *flags])], fixes
    path.write_text(mended)  # the step by hand
    ran = shell(again[0], repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "goalfile" in path.read_text()


# --------------------------------------------------------------------------- no command can


def test_a_goal_file_named_by_a_folder_it_cannot_list_points_at_status(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "goals").mkdir()
    active_goal(repo)
    done = run_goalfile("verify", "goals", cwd=repo)
    assert done.returncode == 2, done.stderr
    for command in commands(done.stderr):
        ran = shell(command, repo)
        assert ran.returncode in (0, 1), ran.stdout + ran.stderr


# --------------------------------------------------------------------------- the source


COMMAND_WORDS = (
    "goalfile", "git", "sed", "rm", "mv", "chmod", "cp", "mkdir", "unlink", "export", "unset",
    "pip", "python3", "[ ! -e", "ln", "cd", "kill",
)  # fmt: skip
NAMED = re.compile(
    r"\{[^}]*(?<![A-Za-z])"
    r"(command|executable|git|fix|hint|restore|rerun|reset|sed|_set_back|delete|move|checkout)s?"
    r"(?![a-z])"
)
"""A value of an f-string that holds a command goalfile composed (``{restore}``,
``{sed_command(...)}``), or a hint passed on (``{finding.hint}``, checked where it is made):
a hint that holds one names a command. A word of its own (``{composed}`` holds no `sed`)."""


def _segment(lines: list[str], node: ast.expr) -> str:
    """The source of ``node``, as ``ast.get_source_segment`` reads it, from the lines of its
    file split once (that function splits the whole file again on each call)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    start, end = node.col_offset, node.end_col_offset
    if first == last:
        return lines[first].encode()[start:end].decode()
    return "".join(
        [
            lines[first].encode()[start:].decode(),
            *lines[first + 1 : last],
            lines[last].encode()[:end].decode(),
        ]
    )


def _text(node: ast.expr, lines: list[str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                parts.append("{" + _segment(lines, value.value) + "}")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left, lines), _text(node.right, lines)
        return None if left is None or right is None else left + right
    return None


def _names_a_command(text: str) -> bool:
    for candidate in (*SPAN.findall(text), text):
        candidate = candidate.strip()
        if not candidate or candidate.startswith(COMMAND_WORDS):
            return True
    return NAMED.search(text) is not None


HINT_NAMES = ("hint", "fix")
"""The names a fix is passed under: a keyword (``hint=``, ``fix=``), a parameter given in its
place (``err(message, fix)``, ``_error(row, message, hint)``), a name assigned to."""


def _hint_positions(tree: ast.AST) -> dict[str, int]:
    """Each function defined in ``tree``, by name, with the position of its `hint` or `fix`
    parameter (``self`` not counted in a method)."""
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
            if names[:1] in (["self"], ["cls"]):
                names = names[1:]
            for index, name in enumerate(names):
                if name in HINT_NAMES:
                    found[node.name] = index
    return found


def _given_hints(tree: ast.AST, positions: dict[str, int]) -> Iterator[ast.expr]:
    """Every value ``tree`` passes or assigns as a hint or fix."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield from (kw.value for kw in node.keywords if kw.arg in HINT_NAMES)
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            at = positions.get(name) if isinstance(name, str) else None
            if at is not None and at < len(node.args):
                yield node.args[at]
        elif isinstance(node, ast.Assign | ast.AnnAssign):  # not `+=`: a hint's tail
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if node.value is not None and any(
                isinstance(t, ast.Name) and t.id in HINT_NAMES for t in targets
            ):
                yield node.value


WRITTEN_FIX = re.compile(r"(?:^|\n)[ \t]*fix: (.*)", re.DOTALL)


def _written_fix_lines(tree: ast.AST, lines: list[str]) -> Iterator[tuple[int, str]]:
    """The text after each `fix: ` that starts a line a literal writes itself
    (``f"...\\n  fix: {hint}"``); a piece of a literal whose command goes on in another
    piece (an open backtick) is read with that piece, or not at all."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if id(node) in inside:
            continue
        if isinstance(node, ast.BinOp):
            inside.update(id(n) for n in ast.walk(node) if n is not node)
        elif not isinstance(node, ast.JoinedStr | ast.Constant):
            continue
        text = _text(node, lines) if not isinstance(node, ast.Constant) else node.value
        found = WRITTEN_FIX.search(text) if isinstance(text, str) else None
        if found is not None and found.group(1).strip() and found.group(1).count("`") % 2 == 0:
            yield node.lineno, found.group(1)


@functools.cache
def literal_prose_hints() -> tuple[str, ...]:
    """Each literal hint in goalfile's source that names no command (read once per run)."""
    found: list[str] = []
    sources = {
        path.relative_to(REPO).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted((REPO / "goalfile").rglob("*.py"))
    }
    trees = {relative: ast.parse(source) for relative, source in sources.items()}
    own = {relative: _hint_positions(tree) for relative, tree in trees.items()}
    everywhere: dict[str, int] = {}
    for positions in own.values():
        everywhere.update(positions)
    for relative, tree in trees.items():
        lines = io.StringIO(sources[relative], newline="").readlines()  # \n, \r\n, \r as ast
        positions = {**everywhere, **own[relative]}  # a function of its own first
        given = list(_given_hints(tree, positions))
        named = _module_strings(tree)  # a hint given by the name of a module's constant
        given = [named.get(v.id, v) if isinstance(v, ast.Name) else v for v in given]
        if "/doctorchecks/" in relative:  # doctor's `hint` is printed with no `fix:`
            given = [v for v in given if _passed_as(tree, v) == "fix"]
        for value in given:
            for one in (value.body, value.orelse) if isinstance(value, ast.IfExp) else (value,):
                text = _text(one, lines)
                if text is not None and not _names_a_command(text):
                    found.append(f"{relative}:{one.lineno}: {text[:100]}")
        for line, after in _written_fix_lines(tree, lines):
            if not _names_a_command(after):
                found.append(f"{relative}:{line}: fix: {after[:100]}")
    return tuple(found)


def _module_strings(tree: ast.Module) -> dict[str, ast.expr]:
    """Each name a module assigns a string (or an f-string) to at its top level."""
    found: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            text = isinstance(node.value, ast.Constant | ast.JoinedStr)
            if isinstance(target, ast.Name) and text:
                found[target.id] = node.value
    return found


def _passed_as(tree: ast.AST, value: ast.expr) -> str | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.value is value:
                    return kw.arg
    return None


def test_every_literal_hint_names_a_command() -> None:
    """doctor's `hint` (printed without `fix:`, under the command or in its place) is not a fix
    line and is not read."""
    prose = literal_prose_hints()
    assert not prose, "hints that name no command:\n" + "\n".join(prose)


def test_a_json_error_with_no_command_to_fix_it_has_no_hint(repo: Path) -> None:
    rows = (row("C1", "true", "exit 0"), row("R1", "docs/none.md", "explains", "review"))
    write_goal(repo / "goals", goal_text(rows=rows))
    done = run_goalfile(
        "review", "goals/demo.md", "R1", "--artifact", "docs/none.md", "--verdict", "unmet",
        "--reason", "missing", "--json", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 3
    assert json.loads(done.stdout)["error"]["hint"] is None


# --------------------------------------------------------------------------- lint's findings


def _findings(repo: Path, code: str) -> list[dict[str, object]]:
    done = run_goalfile("lint", "--json", "goals/demo.md", cwd=repo)
    files = json.loads(done.stdout)["files"]
    return [f for f in files[0]["findings"] if f["code"] == code]


def _draft(repo: Path, old: str, new: str) -> Path:
    """A draft goal (its rows may change) with ``old`` written as ``new``; where ``old`` holds
    a line break, each of its lines is written as the same line of ``new``."""
    text = goal_text(status="draft", iterations_used=0)
    if old.count("\n") != new.count("\n"):
        assert old in text, old
        return write_goal(repo / "goals", text.replace(old, new, 1))
    for was, now in zip(old.split("\n"), new.split("\n"), strict=True):
        assert was in text, was
        text = text.replace(was, now, 1)
    return write_goal(repo / "goals", text)


@pytest.mark.parametrize(
    ("old", "new", "code", "approved"),
    [
        # a check that is not one code span is put in one by `lint --fix`
        ("| `true` |", "| true |", "check-not-code", False),
        # raw HTML in a check: `lint --fix` shows it in a code span of what runs
        ("| `true` |", "| true <!-- x --> |", "hidden-markup", False),
        # a header name that reads as `kind` in other letters is retyped in ASCII
        ("| expected | kind |", "| expected | k\u0456nd |", "unseen-text", False),
        # an approved limit's line deleted by hand is written under `budget:` again
        ("  iterations: 5", "", "budget-unbacked", True),
        ("budget:\n  iterations: 5\n  tokens: null", "", "budget-unbacked", True),
        # a frontmatter value goalfile cannot take is set to the one it means, or deleted
        ("status: draft", "status: DRAFT", "frontmatter", False),
        ("  iterations: 5", "  iterations: lots", "frontmatter", False),
        ("iterations_used: 0", "iterations_used: -1", "frontmatter", False),
        ("tokens_used: 0", "tokens_used: 0\nshell: 5", "frontmatter", False),
        ("tokens_used: 0", "tokens_used: 0\ncwd: 5", "frontmatter", False),
        ("tokens_used: 0", "tokens_used: 0\nstall_limit: 0", "frontmatter", False),
        # a frontmatter never closed gets its `---` above the goal's heading
        ("tokens_used: 0\n---\n# Goal:", "tokens_used: 0\n# Goal:", "unreadable", False),
    ],
    ids=[
        "check-not-code",
        "hidden-markup",
        "unseen-header",
        "budget-key-gone",
        "budget-gone",
        "status",
        "budget-value",
        "counter",
        "shell",
        "cwd",
        "stall-limit",
        "unclosed",
    ],
)
def test_a_finding_of_lint_is_gone_once_its_fix_has_run(
    repo: Path, old: str, new: str, code: str, approved: bool
) -> None:
    """``approved``: the draft is activated, then the lines that start with a line of ``old``
    are deleted by hand."""
    if approved:
        path = _draft(repo, "", "")
        assert run_goalfile("activate", "goals/demo.md", cwd=repo).returncode == 0
        gone = old.split("\n")
        lines = path.read_text().split("\n")
        path.write_text("\n".join(x for x in lines if not x.startswith(tuple(gone))))
    else:
        _draft(repo, old, new)
    found = _findings(repo, code)
    assert found and isinstance(found[0]["hint"], str), found
    printed = run_goalfile("lint", "goals/demo.md", cwd=repo).stderr
    assert f"fix: {found[0]['hint']}" in printed, printed
    fix = commands(f"fix: {found[0]['hint']}")
    assert fix, found[0]["hint"]
    ran = shell(" && ".join(fix), repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert not _findings(repo, code), _findings(repo, code)


@pytest.mark.parametrize(
    ("old", "new", "code", "said"),
    [
        ("| C1 |", "|  |", "criteria", "give it one, such as C1"),
        ("| exit 0 |", '| stdout contains "ok" |', "no-exit-clause", "add `exit 0`"),
        ("| `true` |", "| `true \\|\\| true` |", "status-forced", "drop `|| true`"),
        ("| `true` | exit 0 |", "| `grep -r x src \\| wc -l` | prints 0 |", "pipeline-status",
         "judge the command that measures instead"),
        ("| `true` |", "| `printf 'a\tb'` |", "unrecordable", "write a space instead"),
        ("| exit 0 |", "| stdout matches /^(a+)+$/ |", "backtracking-pattern",
         "each character can be matched one way only"),
        ("| `true` |", "| `tru\u200be` |", "unseen-text", "delete the character"),
        (f"criterion | check\n{RULE}\n| `true` |", f"criterion | run | check\n|--{RULE}\n"
         "| `make` | `true` |", "decoy-column", "right of `check`"),
    ],
    ids=["no-id", "no-exit-clause", "status-forced", "pipeline-status", "unrecordable",
         "backtracking", "unseen-cell", "decoy-column"],
)  # fmt: skip
def test_a_finding_of_lint_no_command_can_mend_says_what_to_write_with_no_fix_line(
    repo: Path, old: str, new: str, code: str, said: str
) -> None:
    _draft(repo, old, new)
    found = _findings(repo, code)
    assert found and found[0]["hint"] is None, found
    assert said in str(found[0]["message"]), found[0]["message"]
