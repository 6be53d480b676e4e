"""Light commands import only what they use: what a real `goalfile` process imports, read from
Python's own import log (``PYTHONPROFILEIMPORTTIME``), so a start-up cost that creeps back in
fails here instead of only in bench/run.py."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from goalfile import __version__
from tests.conftest import frontmatter

GOALFILE = Path(sys.executable).with_name("goalfile")
_IMPORT_RE = re.compile(r"^import time:\s*\d+ \|\s*\d+ \| ( *)(\S+)$", re.M)

GOAL = (
    frontmatter("light", extra=("cwd: .",))
    + """# Goal: the notes file exists

## Non-goals
- nothing else changes

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | the notes exist | `test -f notes.txt` | exit 0 | deterministic |

## Token accounting

## Iterations

## Lessons
"""
)


def run(
    args: list[str], cwd: Path, stdin: str = ""
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run the installed `goalfile` and return the process and every module it imported."""
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    env = {key: value for key, value in env.items() if not key.startswith("GOALFILE_")}
    assert GOALFILE.is_file(), f"{GOALFILE} is missing: install goalfile into this venv"
    done = subprocess.run(
        [str(GOALFILE), *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    imported = {match.group(2) for match in _IMPORT_RE.finditer(done.stderr)}
    assert "goalfile" in imported, done.stderr[-2000:]  # the import log was read
    return done, imported


def met_goal(folder: Path) -> Path:
    goal = folder / "goal.md"
    goal.write_text(GOAL, encoding="utf-8")
    (folder / "notes.txt").write_text("notes\n", encoding="utf-8")
    for args in (["activate", str(goal)], ["verify", str(goal)]):
        done = subprocess.run(
            [str(GOALFILE), *args], cwd=folder, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr
    assert "\nstatus: met\n" in goal.read_text(encoding="utf-8")
    return goal


def test_version_imports_neither_click_nor_a_goal_file_reader(tmp_path: Path) -> None:
    done, imported = run(["--version"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"goalfile, version {__version__}\n"
    needless = {"click", "yaml", "markdown_it", "frontmatter", "filelock", "goalfile.parse"}
    assert imported & needless == set()
    # nor what only a command's signal handling needs: the `signal` module's enumerations and
    # goalfile.errors' (the program answers before it sets that handling up)
    assert imported & {"signal", "goalfile.errors", "goalfile.patterncache"} == set()


def test_the_hook_on_a_met_goal_neither_locks_nor_runs_anything(tmp_path: Path) -> None:
    goal = met_goal(tmp_path)
    stop = json.dumps({"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "Stop"})
    done, imported = run(["hook", "stop", "--goal", str(goal)], tmp_path, stdin=stop)
    assert done.returncode == 0, done.stderr
    assert "is met" in done.stdout
    needless = {
        "filelock",
        "goalfile.run",
        "goalfile.tail",
        "goalfile.judge",
        "goalfile.commands.verify",
        "goalfile.commands.iteration",
        "goalfile.commands.focus",  # --goal names the goal: no focus to read
        # a met is backed only by a verify entry whose digest is the contract's now
        # (handedit._contract_since): its digest, of `exit 0`, needs neither of these
        "goalfile.contract",
        "goalfile.expect",
        "goalfile.accounting",
        "goalfile.usage",
        "goalfile.hostjson",  # the settings files of `init`
        "goalfile.cli.hosts",  # the other host commands (init, focus, doctor, skills)
        "goalfile.commands.workdir",  # where checks run: the repositories come from gittop
        "tempfile",
        "hashlib",
        "shlex",  # only hints and notes quote a path
        "goalfile.lint",  # only its look-alike heading rule is asked (goalfile.headingrule)
        "goalfile.metgap",  # the newest verify entry backs the met
    }
    assert imported & needless == set()
    # nor the rules of a hold or a verify run: each is imported where its rule is called
    rules = {
        "approval",  # criteria no person approved: only an active goal, or one checked again
        "failures",  # an error the rules did not foresee
        "focus",  # --goal reads no focus
        "githolds",  # a goal file git tracks: no repository here
        "loadholds",  # a goal file that does not load
        "lockwait",  # a lock held
        "loosened",  # a met written or checked again at this stop
        "reason",  # a block's reason
        "settingsrule",  # an active goal's settings
        "verdict",  # verify's verdict
        "verifyrun",  # a verify run
    }
    assert imported & {f"goalfile.commands.hookrules.{rule}" for rule in rules} == set()
    # and what those rules, or a hold that cannot be ledgered, call on
    called_on = {
        "goalfile.budgethint",
        "goalfile.hostwords",
        "goalfile.holdmark",
        "goalfile.holdseen",
    }
    assert imported & called_on == set()


def test_a_one_row_verify_imports_no_judge_pool_or_transcript_reader(tmp_path: Path) -> None:
    goal = met_goal(tmp_path)
    done, imported = run(["verify", "--no-write", str(goal)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    needless = {
        "goalfile.judge",
        "goalfile.commands.parallel",
        "goalfile.commands.reviewing",
        "concurrent.futures",
        "goalfile.mcp_server",
        "tempfile",  # a run that writes nothing takes no lock
        "hashlib",  # the pin's digest is the interpreter's own SHA-256, without OpenSSL
        "_hashlib",
        "goalfile.accounting",  # the section holds no table: nothing for its reader to read
        "goalfile.contractdiff",  # the contract matches its pin: nothing to compare
        "goalfile.expecttext",  # `exit 0` looks at no output: no parser, no output clauses
        "goalfile.edit",  # nothing is written
        "shlex",  # only hints and notes quote a path
        "goalfile.hiddenblock",  # nothing may be hidden: no Markdown block to name
        "goalfile.gitdeadline",  # no time limit on git: only the Stop hook sets one
        "goalfile.commands.uncovered",  # the approval covers the working directory
        "goalfile.htmlcontract",  # no `<` in the goal: no HTML block to look for
        "goalfile.gfmblocks",  # no `<` in the goal: no line GitHub reads as another block
        "goalfile.unseen",  # the criteria header is plain ASCII: nothing hidden in its names
        "goalfile.metgap",  # the newest verify entry backs the met
        "goalfile.gfmdifference",  # every cell shows on GitHub as goalfile reads it
        # lint passes: no fix for git's state to read (goalfile.commands.githints)
        "goalfile.commands.mergefix",
        "goalfile.commands.rewrapfix",
    }
    assert imported & needless == set()


# Patterns that reading and checking a goal as goalfile writes it never uses, compiled on first
# use: by a cached function of their module (ledger.heading_like_re()...), or by `re`'s own
# cache from a module constant that holds the pattern's text (parse._CONFLICT...).
LAZY_PATTERN_FUNCTIONS = {
    "goalfile.ledger": (
        "heading_like_re",
        "_heading_like_scan_re",
        "_escape_or_run_re",
        "_escape_re",
        "_autolink_re",
        "_fence_mark_re",
        "marker_scans",
        "_margin_block_re",
        "_indented_mark_re",
        "_unfenced_lines_re",  # only for a text of half a megabyte or more
    ),
    "goalfile.parse": ("fence_re",),
    "goalfile.hidden": ("_row_patterns",),
    "goalfile.lint": ("_rewrapped_patterns",),
    "goalfile.headingrule": ("lookalike_scan", "_shows"),
    # the check prints nothing
    "goalfile.expect": ("_error_line", "_trailer", "_npm_line", "_npm_tail", "_npm_key"),
    "goalfile.gfmview": (
        "_shortcode",
        "_footnote_reference",
        "_footnote_definition",
        "_definition_start",
    ),
    "goalfile.termsafe": ("_patterns",),  # nothing printed holds a control character
    "goalfile.shellword": ("_unplain",),  # every word printed is a plain path
}
LAZY_PATTERN_TEXTS = {
    "goalfile.parse": ("_CONFLICT",),
    "goalfile.handedit": ("BUDGET_RAISED", "_LIMIT", "_BUDGET_KEY"),
    "goalfile.lint": ("_HEADING_LINE",),
    "goalfile.backtrack": ("MAY_BACKTRACK",),
    "goalfile.hidden": ("_FENCE_LINE", "_ATX", "_OPEN_HTML"),
    "goalfile.gfmtable": ("_LEADING", "_TRAILING", "_SETEXT", "_DELIMITER", "_CONTAINER"),
}
# run as the `goalfile` program (so it ends as it does), reporting at exit which of them the
# run compiled
_REPORT_PATTERNS = """
import atexit, json, sys
from re import _compiler
functions, texts = json.loads(sys.argv[1]), json.loads(sys.argv[2])
compile_, compiled = _compiler.compile, set()
def recording(pattern, flags=0):  # re's cache may hold a pattern made from goalfile.patterntable
    compiled.add(pattern)
    return compile_(pattern, flags)
_compiler.compile = recording
def report():
    used = []
    for name, names in functions.items():
        module = sys.modules.get(name)
        asked = [n for n in names if module and getattr(module, n).cache_info().currsize]
        used += [f"{name}.{n}" for n in asked]
    for name, names in texts.items():
        module = sys.modules.get(name)
        used += [f"{name}.{c}" for c in names if module and getattr(module, c) in compiled]
    print("compiled:", json.dumps(used), file=sys.stderr)
atexit.register(report)
sys.argv = ["goalfile", *sys.argv[3:]]
from goalfile.__main__ import run
run()
"""


def compiled_patterns(args: list[str], cwd: Path) -> list[str]:
    """The patterns of LAZY_PATTERN_FUNCTIONS and LAZY_PATTERN_TEXTS that a real `goalfile`
    process run with ``args`` compiled."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOALFILE_")}
    lazy = (json.dumps(LAZY_PATTERN_FUNCTIONS), json.dumps(LAZY_PATTERN_TEXTS))
    done = subprocess.run(
        [sys.executable, "-c", _REPORT_PATTERNS, *lazy, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    reported = [line for line in done.stderr.splitlines() if line.startswith("compiled: ")]
    assert len(reported) == 1, done.stdout + done.stderr[-2000:]
    used: list[str] = json.loads(reported[0].removeprefix("compiled: "))
    return used


def test_a_one_row_verify_compiles_no_pattern_it_does_not_use(tmp_path: Path) -> None:
    """Compiling a pattern at import costs 0.05 to 0.5 ms: those a one-row `verify` never uses
    are compiled only when a goal needs them."""
    goal = met_goal(tmp_path)
    assert compiled_patterns(["verify", "--no-write", str(goal)], tmp_path) == []


def test_the_lazy_patterns_are_compiled_when_a_goal_needs_them(tmp_path: Path) -> None:
    """The guard above can fail: a ledger with fenced output and a line that looks like an entry
    heading (lint then looks up the blocks) compiles the pattern that matches its blocks."""
    goal = met_goal(tmp_path)
    text = goal.read_text(encoding="utf-8").replace(
        "## Lessons", "```\nout\n```\n\n#### iteration by hand\n\n## Lessons"
    )
    goal.write_text(text, encoding="utf-8")
    used = compiled_patterns(["lint", str(goal)], tmp_path)
    assert "goalfile.ledger._margin_block_re" in used


def test_status_neither_locks_nor_runs_anything(tmp_path: Path) -> None:
    goal = met_goal(tmp_path)
    done, imported = run(["status", str(goal)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    needless = {
        "filelock",
        "goalfile.run",
        "goalfile.tail",
        "subprocess",
        "tempfile",
        "goalfile.commands.audit",  # a folder's goals are found by goalfile.commands.folders
        "goalfile.audit",
    }
    assert imported & needless == set()


def test_lint_of_a_valid_goal_reads_no_fix_for_gits_state(tmp_path: Path) -> None:
    """The fixes of a rewrapped or merged ledger for the state git is in
    (goalfile.commands.githints) are read only for a goal that has such a finding."""
    goal = met_goal(tmp_path)
    done, imported = run(["lint", str(goal)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert imported & {"goalfile.commands.mergefix", "goalfile.commands.rewrapfix"} == set()


def test_importing_the_command_line_loads_no_lock_writer_or_goal_reader(tmp_path: Path) -> None:
    """`import goalfile.cli` (what every goalfile process does first) costs nothing a command
    may not need: the lock, the temporary files of a write and the readers come with the
    command that uses them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOALFILE_")}
    code = (
        "import sys, goalfile.cli; "
        "print('\\n'.join(sorted(m for m in sys.modules if m.split('.')[0] != 'encodings')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "goalfile.cli" in loaded
    needless = {"click", "filelock", "yaml", "markdown_it", "tempfile", "hashlib", "typing"}
    assert loaded & needless == set()
    assert not {m for m in loaded if m.startswith("goalfile.commands")}


def test_a_goal_read_again_unchanged_is_not_parsed_again(tmp_path: Path) -> None:
    from goalfile.files import load_goal

    path = tmp_path / "goal.md"
    path.write_text(GOAL, encoding="utf-8")
    first = load_goal(path)
    assert load_goal(path) is first
    path.write_text(GOAL.replace("slug: light", "slug: other"), encoding="utf-8")
    changed = load_goal(path)
    assert changed is not first
    assert changed.slug == "other"
    copy = tmp_path / "copy.md"
    copy.write_text(GOAL.replace("slug: light", "slug: other"), encoding="utf-8")
    assert load_goal(copy).path == str(copy)


def test_a_goal_written_is_read_back_without_parsing_it_again(tmp_path: Path) -> None:
    """An editing command keeps the goal it read back before writing: the next read of the same
    bytes (the Stop hook's new iteration after its verify) gets it, equal to a fresh parse."""
    from goalfile import edit
    from goalfile.commands.context import Context
    from goalfile.commands.mutate import update_goal
    from goalfile.files import load_goal, parse_text, read_text
    from goalfile.parse import parse_goal

    path = tmp_path / "goal.md"
    path.write_text(GOAL, encoding="utf-8")
    ctx = Context.from_process(notify=lambda message: None)

    def change(text: str, goal: object) -> tuple[str, None]:
        return edit.set_value(text, "iterations_used", 1), None

    update_goal(str(path), ctx, command="test", change=change)
    again = load_goal(path)
    assert again is parse_text(str(path), read_text(path))
    assert again == parse_goal(read_text(path), path=str(path))
    assert again.iterations_used == 1


def test_a_written_text_that_reads_back_otherwise_is_parsed_from_the_file(tmp_path: Path) -> None:
    """Lone surrogates that stand for the bytes of a valid UTF-8 character read back as that
    character: the goal kept from before the write would not be the file's."""
    from goalfile.files import load_goal, read_text, write_atomic
    from goalfile.parse import parse_goal

    path = tmp_path / "goal.md"
    text = GOAL.replace("the notes exist", "the notes exist \udcc3\udca9")
    before = parse_goal(text, path=str(path))
    write_atomic(path, text, parsed=before)
    read = load_goal(path)
    assert read is not before
    assert read.text == read_text(path)
    assert "the notes exist é" in read.text


# run as the `goalfile` program, writing to the file sys.argv[1] each class `dataclasses` builds
# (at once: the Stop hook's work is a forked process that ends without exit handlers)
_REPORT_DATACLASSES = """
import dataclasses, sys
report = sys.argv[1]
def note(line):
    with open(report, "a", encoding="utf-8") as handle:
        handle.write(line + "\\n")
note("ready")
process = dataclasses._process_class
def recorded(cls, *args, **options):
    note(f"{cls.__module__}.{cls.__qualname__}")
    return process(cls, *args, **options)
dataclasses._process_class = recorded
sys.argv = ["goalfile", *sys.argv[2:]]
from goalfile.__main__ import run
run()
"""


def built_dataclasses(args: list[str], cwd: Path, stdin: str = "") -> list[str]:
    """The goalfile classes a real `goalfile` process run with ``args`` built with
    ``@dataclass``, which compiles the source of each method it adds at every start."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOALFILE_")}
    report = cwd / "dataclasses.txt"
    report.unlink(missing_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", _REPORT_DATACLASSES, str(report), *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    lines = report.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "ready", lines
    return [name for name in lines[1:] if name.startswith("goalfile.")]


def test_a_one_row_verify_and_the_hook_on_a_met_goal_build_no_dataclass(tmp_path: Path) -> None:
    """Each frozen dataclass cost 1.5 to 8 M instructions of a start (its methods compiled from
    their source): the value classes these two commands make are written out
    (goalfile.value)."""
    goal = met_goal(tmp_path)
    assert built_dataclasses(["verify", "--no-write", str(goal)], tmp_path) == []
    stop = json.dumps({"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "Stop"})
    hook = ["hook", "stop", "--goal", str(goal)]
    assert built_dataclasses(hook, tmp_path, stdin=stop) == []


def test_the_guard_loads_its_own_module_only(tmp_path: Path) -> None:
    """The guard starts with every check: it imports goalfile.checkguard from its cached bytecode
    (compiling its code from a `-c` string cost about 5 M instructions a start) and nothing of
    goalfile's package or of the modules `os` and `signal` build in Python."""
    from goalfile.run import guard_command

    python, *options = guard_command()
    done = subprocess.run(
        [python, "-X", "importtime", *options, "X=1", str(tmp_path / "no-proc")],
        input=b"",
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    imported = {match.group(2) for match in _IMPORT_RE.finditer(done.stderr.decode())}
    assert "checkguard" in imported
    assert imported & {"goalfile", "os", "signal", "enum", "typing"} == set()


def test_status_and_lint_build_no_dataclass(tmp_path: Path) -> None:
    """The two commands tests and pre-commit hooks start most after verify: `status` built six
    dataclasses of goalfile's at every start, `lint` three."""
    goal = met_goal(tmp_path)
    assert built_dataclasses(["status", str(goal)], tmp_path) == []
    assert built_dataclasses(["lint", str(goal)], tmp_path) == []


def test_new_and_activate_build_no_dataclass(tmp_path: Path) -> None:
    """`new` built nine dataclasses of goalfile's at every start (the expected language's clauses
    and tokens among them), `activate` seventeen (with the attributes git may convert a goal
    with and the readers of a check's operands)."""
    made = built_dataclasses(["new", "--dir", str(tmp_path / "goals"), "light"], tmp_path)
    assert made == []
    goal = tmp_path / "goal.md"
    goal.write_text(GOAL, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("notes\n", encoding="utf-8")
    assert built_dataclasses(["activate", str(goal)], tmp_path) == []


def test_lint_of_a_grep_check_builds_no_dataclass(tmp_path: Path) -> None:
    """A check that is one `grep` (most goals hold one) makes lint and verify ask how its error
    status counts (goalfile.errorstatus), whose answer was a dataclass built at each start."""
    goal = tmp_path / "goal.md"
    goal.write_text(GOAL.replace("`test -f notes.txt`", "`grep -q notes notes.txt`"), "utf-8")
    assert built_dataclasses(["lint", str(goal)], tmp_path) == []
