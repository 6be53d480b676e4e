"""Bad input on the command line never ends in a traceback: odd arguments and options, goal
files that are missing, empty, binary, huge, CRLF, with a BOM, in UTF-16, a folder, a link
that leads back to itself, a name that is not UTF-8 or holds a line break. Every command ends
with an exit code of DESIGN §7, says what went wrong on stderr (or, with `--json`, in one JSON
document with a `schema_version`), names the file, and prints no `fix:` that needs `$(...)`.

Hypothesis drives click's main in this process for breadth (:func:`goalfile_here`); a bounded
number of the same command lines run as real processes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import git, goal_text, goalfile_here, make_git_repo, run_goalfile

GOOD = goal_text()

ODD_FILES: dict[str, bytes | None] = {
    "goals/good.md": GOOD.encode(),
    "goals/crlf.md": GOOD.replace("\n", "\r\n").encode(),
    "goals/bom.md": b"\xef\xbb\xbf" + GOOD.encode(),
    "goals/empty.md": b"",
    "goals/binary.md": bytes(range(256)) * 4,
    "goals/latin1.md": GOOD.replace("the checks pass", "caf\xe9").encode("latin-1"),
    "goals/huge.md": GOOD.encode() + b"x" * 200_000 + b"\n" * 50_000,
    "goals/utf16.md": GOOD.encode("utf-16"),
    "goals/nul.md": GOOD.encode().replace(b"# Goal", b"# Go\x00al"),
    "goals/frontmatter.md": b"---\nslug: x\n---\n",
    "goals/yaml.md": b"---\nslug: [x\n---\n# Goal: x\n",
    "goals/folder.md": None,  # a folder
    os.fsdecode(b"goals/bad\xff.md"): GOOD.encode(),
    "goals/line\nbreak.md": GOOD.encode(),
    "goals/-dash.md": GOOD.encode(),
}
PATHS = [*ODD_FILES, "goals/loop.md", "goals/missing.md", "goals", ".", "/dev/null", ""]

# command, the words after PATH (a review or impossible names a row)
COMMANDS: list[tuple[str, tuple[str, ...]]] = [
    ("lint", ()),
    ("lint", ("--fix",)),
    ("activate", ()),
    ("verify", ("--no-write",)),
    ("verify", ()),
    ("status", ()),
    ("plan", ()),
    ("refine", ()),
    ("block", ("--reason", "waiting")),
    ("resume", ()),
    ("reopen", ()),
    ("pause", ()),
    ("impossible", ("C1", "--reason", "r")),
    ("budget", ("--iterations", "9")),
    ("audit", ()),
    ("restore", ()),
    ("focus", ()),
    ("log", ()),
    ("review", ("R1", "--artifact", "x.md", "--verdict", "met", "--quote", "q")),
]
ODD_WORDS = [
    "--",
    "-",
    "--json",
    "--no-such-option",
    "-1",
    "0",
    "1e309",
    "nan",
    "x" * 5000,
    "☃",
    "C1",
    "c1",
    "--iterations",
    "--reason",
    "\t",
    " ",
    "a\nb",
    "'",
    '"',
    "$(touch pwned)",
]
EXITS = {0, 1, 2, 3, 4, 5}


def odd_repo(path: Path) -> Path:
    repo = make_git_repo(path)
    (repo / "goals").mkdir()
    for name, data in ODD_FILES.items():
        if data is None:
            (repo / name).mkdir()
        else:
            (repo / name).write_bytes(data)
    os.symlink("loop.md", repo / "goals" / "loop.md")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "odd goals")
    return repo


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return odd_repo(tmp_path_factory.mktemp("odd") / "repo")


def fresh(template: Path, into: Path) -> Path:
    shutil.rmtree(into, ignore_errors=True)
    shutil.copytree(template, into, symlinks=True)
    return into


def check_answer(args: list[str], done: subprocess.CompletedProcess[str]) -> None:
    """What every run must be, whatever it was given."""
    said = f"{args!r} exit {done.returncode}\nstdout: {done.stdout[-2000:]}\nstderr: {done.stderr}"
    said = said.encode("utf-8", "backslashreplace").decode("utf-8")  # a report must be UTF-8
    assert done.returncode in EXITS, said
    assert "Traceback" not in done.stderr, said
    assert "$(" not in "".join(ln for ln in done.stderr.splitlines() if "fix:" in ln), said
    if "--json" in args and done.returncode != 2 and done.stdout.strip():
        document = json.loads(done.stdout)
        assert isinstance(document, dict) and "schema_version" in document, said
    elif done.returncode >= 2:
        assert done.stderr.strip(), said


ARGV = st.tuples(
    st.sampled_from(COMMANDS),
    st.sampled_from(PATHS),
    st.booleans(),
    st.lists(st.sampled_from(ODD_WORDS), max_size=3),
    st.integers(min_value=0, max_value=3),
)


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(argv=ARGV)
@example(argv=(("activate", ()), os.fsdecode(b"goals/bad\xff.md"), True, ["--", "--"], 0))
def test_odd_command_lines_end_with_a_message_and_an_exit_code(
    template: Path,
    tmp_path: Path,
    argv: tuple[tuple[str, tuple[str, ...]], str, bool, list[str], int],
) -> None:
    (command, rest), path, as_json, odd, at = argv
    words = [path, *rest]
    words[at % (len(words) + 1) : at % (len(words) + 1)] = odd
    args = [command, *(["--json"] if as_json else []), *words]
    repo = fresh(template, tmp_path / "w")
    check_answer(args, goalfile_here(*args, cwd=repo))


@pytest.mark.parametrize(
    "path",
    ["goals/empty.md", "goals/binary.md", "goals/utf16.md", "goals/folder.md", "goals/loop.md",
     "goals/missing.md", "goals/line\nbreak.md", os.fsdecode(b"goals/bad\xff.md"),
     "goals/yaml.md", "goals/huge.md"],
    ids=ascii,  # a test id must be UTF-8
)  # fmt: skip
@pytest.mark.parametrize("command", ["lint", "verify", "status", "audit"])
def test_odd_goal_files_as_real_processes(
    template: Path, tmp_path: Path, command: str, path: str
) -> None:
    """40 real runs: the message names the file (escaped where its name needs it)."""
    repo = fresh(template, tmp_path / "w")
    done = run_goalfile(command, path, cwd=repo, timeout=120)
    check_answer([command, path], done)
    if done.returncode >= 2:
        name = os.path.basename(path).split("\n")[0].encode("utf-8", "surrogateescape")
        shown = done.stderr.encode("utf-8", "surrogateescape") + done.stdout.encode()
        assert name.split(b"\xff")[0] in shown, ascii(done.stderr)


def test_a_folder_that_cannot_be_read_is_named_not_passed_over(tmp_path: Path) -> None:
    """A folder named on the command line stands for the goal files under it. One that cannot
    be listed (here /proc/1/map_files, which needs CAP_SYS_ADMIN, root or not) was taken as a
    folder with no goal file ("it holds no goal file"), and a subfolder that went away while
    `goalfile lint /` walked /proc ended in a traceback: now either names the folder, exit 3."""
    folder = Path("/proc/1/map_files")
    with pytest.raises(PermissionError):
        os.listdir(folder)
    for command in ("lint", "audit"):
        done = run_goalfile(command, str(folder), cwd=tmp_path)
        assert done.returncode == 3, done.stdout + done.stderr
        assert "Traceback" not in done.stderr
        assert f"{folder}: cannot read this folder: Permission denied" in done.stderr, done.stderr


def test_a_json_document_naming_a_file_that_is_not_utf8_is_utf8(
    template: Path, tmp_path: Path
) -> None:
    """A usage error with --json quoted the extra argument, a name that is not UTF-8, as the
    raw byte (no UTF-8, so no JSON a strict reader takes) or, on a strict stdout, ended in a
    traceback. The byte is now its JSON escape, which reads back as the name."""
    repo = fresh(template, tmp_path / "w")
    name = os.fsdecode(b"goals/bad\xff.md")
    args = ["activate", "--json", "--", "--", name]
    done = run_goalfile(*args, cwd=repo, env={"PYTHONIOENCODING": "utf-8:strict"})
    check_answer(args, done)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["message"].endswith(f"({name})"), ascii(done.stdout)
