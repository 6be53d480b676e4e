"""A new user's first hour on cachetools 5.5.2 (setup.cfg, tox.ini, src/ layout), the sdist
downloaded once into the cache outside the clone (tests/test_walk.sdist).

npm: a failed npm command ends its stderr with the path of its log (`npm error A complete log of
this run can be found in: ...`); the row's evidence is the first line of npm's error block that
says why (`npm error Missing script: "lnit"`), with the real npm under a real verify.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from goalfile.expect import Evaluator, parse_expected
from tests.conftest import built_once_near, make_git_repo, run_goalfile
from tests.pypi_tools import install_venv
from tests.test_operands_pluggy import RUNNERS, new_with_notes
from tests.test_walk import sdist

VERSION = "5.5.2"
NAME = f"cachetools-{VERSION}"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with tarfile.open(sdist("cachetools", VERSION, f"{NAME}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    return make_git_repo(tmp_path / NAME)


def env(home: Path) -> dict[str, str]:
    path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    return {"PATH": path, "HOME": str(home)}  # npm's logs go under HOME


def test_an_npm_row_says_why_not_where_the_log_is(project: Path, tmp_path: Path) -> None:
    assert shutil.which("npm"), "this test needs npm on PATH (README: Node.js and npm)"
    above = [p for p in project.parents if (p / "package.json").exists()]
    assert not above, f"npm would find {above[0]}: this test needs no package.json above"
    (project / "docs" / "package.json").write_text('{"scripts": {"build": "true"}}\n')
    checks = {
        "C1": ("cd docs && npm run lnit", 'npm error Missing script: "lnit"', "1"),
        "C2": (
            "npm test",
            "npm error enoent Could not read package.json: Error: ENOENT: no such file or "
            f"directory, open '{project.resolve()}/package.json'",
            "254",
        ),
    }
    notes = new_with_notes(project, "npm", [c for c, _, _ in checks.values()], env(tmp_path))
    assert set(notes) == {"C1", "C2"}, notes
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md",
        cwd=project, env=env(tmp_path), timeout=300,
    )  # fmt: skip
    rows = {row["id"]: row for row in json.loads(ran.stdout)["rows"]}
    for cid, (_, said, status) in checks.items():
        assert (rows[cid]["verdict"], rows[cid]["exit"]) == ("unmet", status), rows[cid]
        assert rows[cid]["evidence"] == said, rows[cid]
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md", cwd=project, env=env(tmp_path), timeout=300
    )
    c1 = next(line for line in shown.stdout.splitlines() if line.startswith("C1 "))
    assert c1.endswith('last line: npm error Missing script: "lnit"'), c1
    # what npm printed, fed in pieces of every size, and with the notice of a newer npm that it
    # prints before its log's path now and then (as npm 11.19.1 did): the same line
    lines = shown.stdout.splitlines()
    after = lines[lines.index(c1) + 1 :]
    printed = [
        line.split("│ ", 1)[1]
        for line in after[: after.index(next(x for x in after if "C2" in x))]
        if "│ " in line
    ]
    assert printed[-1].startswith("npm error A complete log of this run can be found in"), printed
    notice = [
        "npm notice",
        "npm notice New minor version of npm available! 11.19.1 -> 11.21.3",
        "npm notice Changelog: https://github.com/npm/cli/releases/tag/v11.21.3",
        "npm notice To update run: npm install -g npm@11.21.3",
        "npm notice",
    ]
    for shape in (printed, [*printed[:-1], *notice, printed[-1]], [*printed, *notice]):
        output = ("\n".join(shape) + "\n").encode()
        for size in (1, 7, 64, len(output)):
            evaluator = Evaluator(parse_expected("exit 0"))
            for at in range(0, len(output), size):
                evaluator.feed("stderr", output[at : at + size])
            assert evaluator.finish(1).evidence == 'npm error Missing script: "lnit"', size


def project_venv(project: Path) -> tuple[Path, str]:
    """`python -m venv .venv` in ``project``: its python and its site-packages folder.

    Made once in the run and copied (pip's install into it, 3.7 CPU-s, was most of a test's
    setup), with the path of the copy written where `python -m venv` writes its own
    (pyvenv.cfg, the scripts in bin/, and their hashes in pip's RECORD)."""
    venv = project / ".venv"
    made = built_once_near(project, "python -m venv, with pip", lambda f: _venv(f / ".venv"))
    if made is None:
        _venv(venv)
    else:
        shutil.copytree(made / ".venv", venv, symlinks=True)
        old, new = os.fsencode(made / ".venv"), os.fsencode(venv)
        for path in [venv / "pyvenv.cfg", *(venv / "bin").iterdir()]:
            if path.is_file() and not path.is_symlink() and old in (data := path.read_bytes()):
                path.write_bytes(data.replace(old, new))
        for record in venv.glob("lib/python*/site-packages/pip-*.dist-info/RECORD"):
            record.write_text(_rehashed(record.read_text(encoding="utf-8"), record.parent.parent))
    python = venv / "bin" / "python"
    places = subprocess.run(
        [str(python), "-c", "import site; print(site.getsitepackages()[0])"],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.strip()  # fmt: skip
    return python, places


def _venv(where: Path) -> None:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)


def _rehashed(record: str, folder: Path) -> str:
    """A RECORD whose lines for the scripts in bin/ give those files' hash and size now."""
    lines = []
    for line in record.splitlines(keepends=True):
        name = line.split(",", 1)[0]
        if name.startswith("../../../bin/"):
            data = (folder / name).read_bytes()
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            line = f"{name},sha256={digest.decode()},{len(data)}\n"
        lines.append(line)
    return "".join(lines)


def src_venv(project: Path) -> Path:
    """A virtual environment in the project, as a new user makes one (`python -m venv .venv`),
    that has pytest (this test's own site-packages, through a .pth path line) but not the
    project: its package is under src/, and nothing installed it."""
    python, places = project_venv(project)
    ours = next(p for p in sys.path if p.endswith("site-packages") and Path(p, "pytest").is_dir())
    Path(places, "goalfile-tests.pth").write_text(ours + "\n")
    script = python.parent / "pytest"  # as pip writes it
    script.write_text(
        f"#!{python}\nimport sys\nfrom pytest import console_main\nsys.exit(console_main())\n"
    )
    script.chmod(0o755)
    (project / ".git" / "info").mkdir(parents=True, exist_ok=True)
    (project / ".git" / "info" / "exclude").write_text(".venv\n")
    return python


def test_a_src_package_not_installed_is_named_with_its_install(
    project: Path, tmp_path: Path
) -> None:
    python = src_venv(project)
    environ = {**env(tmp_path), "PATH": f"{python.parent}:{env(tmp_path)['PATH']}"}
    tests = "python -m pytest -q -p no:cacheprovider tests/test_ttl.py"
    checks = [tests, ".venv/bin/python -m pytest -q tests/test_lru.py", "pytest -q tests"]
    notes = new_with_notes(project, "the tests pass", checks, environ)
    assert set(notes) == {"C1", "C2", "C3"}, notes
    for cid, runs, install in (
        ("C1", "python", "python -m pip install -e ."),
        ("C2", ".venv/bin/python", ".venv/bin/python -m pip install -e ."),
        ("C3", str(python), f"{python} -m pip install -e ."),
    ):
        line = notes[cid]
        assert line.startswith(f"note: {cid}: pytest runs with `{runs}"), line
        assert "cannot import `cachetools`, the package under `src/`" in line, line
        assert "pytest exits 2, and verify judges the row `unmet`" in line, line
        assert line.endswith(f"until `{install}` installs it"), line
    # what the note says: the real pytest exits 2 for a test module that cannot import it
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    rows = {row["id"]: row for row in json.loads(ran.stdout)["rows"]}
    assert [(r["verdict"], r["exit"]) for r in rows.values()] == [("unmet", "2")] * 3, rows
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    assert "No module named 'cachetools'" in shown.stdout
    # and verify says why at each run, with the same command
    for cid, runs, install in (
        ("C1", "python", "python -m pip install -e ."),
        ("C2", ".venv/bin/python", ".venv/bin/python -m pip install -e ."),
        ("C3", str(python), f"{python} -m pip install -e ."),
    ):
        assert (
            f"note: {cid}: pytest ran with `{runs}`, which cannot import `cachetools`, the "
            "package under `src/`: nothing installed it there, and a test module that imports "
            f"it cannot be collected; `{install}` (where the checks run) installs it\n"
        ) in shown.stderr, shown.stderr
    # the note's command, run as printed, installs it: no note, and the rows are met
    done = subprocess.run(
        "python -m pip install -q -e .", shell=True, cwd=project, env={**os.environ, **environ},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    again = run_goalfile(
        "new", "again", "the tests pass", "--non-goal", "src/ stays",
        *[w for c in checks for w in ("--check", c, "--expected", "exit 0")],
        cwd=project, env=environ,
    )  # fmt: skip
    assert again.returncode == 0 and "note:" not in again.stderr, again.stderr
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/again.md", cwd=project, env=environ, timeout=300
    )
    assert [r["verdict"] for r in json.loads(ran.stdout)["rows"]] == ["met"] * 3, ran.stdout
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    assert shown.returncode == 0 and "note: C" not in shown.stderr, shown.stderr


def test_the_src_note_is_in_verify_s_json_and_in_the_stop_hook_s_message(
    project: Path, tmp_path: Path
) -> None:
    """The note on a package under `src/` not installed was printed by `verify` on stderr only:
    `verify --json` and the Stop hook's message (what the agent reads) had the row unmet with
    no word of why no work on the code meets it. Both now carry the note and its command."""
    python = src_venv(project)
    environ = {**env(tmp_path), "PATH": f"{python.parent}:{env(tmp_path)['PATH']}"}
    made = run_goalfile(
        "new", "t", "the tests pass", "--non-goal", "src/ stays", "--check",
        "python -m pytest -q -p no:cacheprovider tests/test_ttl.py", "--expected", "exit 0",
        "--activate", cwd=project, env=environ,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    note = (
        "note: C1: pytest ran with `python`, which cannot import `cachetools`, the package under "
        "`src/`: nothing installed it there, and a test module that imports it cannot be "
        "collected; `python -m pip install -e .` (where the checks run) installs it"
    )
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/t.md", cwd=project, env=environ, timeout=300
    )
    assert json.loads(ran.stdout)["notes"] == [note], ran.stdout
    stop = {"cwd": str(project), "hook_event_name": "Stop", "stop_hook_active": False}
    held = run_goalfile(
        "hook", "stop", cwd=project, env=environ, input=json.dumps(stop), timeout=300
    )
    assert held.returncode == 0, held.stderr
    answer = json.loads(held.stdout)
    assert answer["decision"] == "block", answer
    assert note in answer["reason"], answer["reason"]


def test_a_tox_python_not_there_is_named(project: Path, tmp_path: Path) -> None:
    """`tox -e py399`: no Python 3.99 anywhere, a `python3.99` on PATH that fails as a pyenv
    shim of a version not selected does. The note is there and the real tox (cachetools'
    tox.ini, tox without tox-uv) fails the environment, exit 1; the environment of the Python tox
    runs with gets no note and goes on to run."""
    runners = install_venv(RUNNERS).parent
    shims = tmp_path / "shims"
    shims.mkdir()
    shim = shims / "python3.99"
    shim.write_text("#!/bin/sh\necho 'pyenv: python3.99: command not found' >&2\nexit 127\n")
    shim.chmod(0o755)
    environ = {**env(tmp_path), "PATH": f"{runners}:{shims}:{env(tmp_path)['PATH']}"}
    here = "py{}{}".format(*sys.version_info[:2])
    notes = new_with_notes(
        project,
        "tox",
        ["tox -e py399", f"tox -e {here} --notest", f"tox -e py3.99,{here} --notest"],
        environ,
    )
    assert set(notes) == {"C1", "C3"}, notes
    for cid in ("C1", "C3"):
        assert notes[cid].startswith(
            f"note: {cid}: tox finds no Python 3.99 where the checks run (neither the Python tox "
            "runs with nor a `python3.99`, `python3` or `python` on PATH runs as 3.99): it fails "
            'that environment, "could not find python interpreter", exit 1'
        ), notes[cid]
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=project, env=environ, timeout=600
    )
    c1, c2, _ = json.loads(ran.stdout)["rows"]
    assert (c2["verdict"], c2["exit"]) == ("met", "0"), c2
    assert (c1["verdict"], c1["exit"]) == ("unmet", "1"), c1
    assert c1["evidence"] == (
        "py399: failed with could not find python interpreter matching any of the specs py399"
    ), c1


def test_the_pythons_on_path_are_run_only_until_the_one_tox_needs_is_found(
    project: Path, tmp_path: Path
) -> None:
    """`tox -e py399` with a `python3.99` first on PATH that is 3.99: that one is run, and no
    candidate after it (the `python3` beside it, a second `python3.99` further on), each of
    which writes a mark when run; a PATH of pyenv shims took seconds when every one was run."""
    runners = install_venv(RUNNERS).parent
    marks = tmp_path / "marks"
    marks.mkdir()
    folders = []
    for folder, name, says in (("a", "python3.99", "3.99"), ("a", "python3", "3.98"),
                               ("b", "python3.99", "3.99")):  # fmt: skip
        where = tmp_path / folder
        where.mkdir(exist_ok=True)
        fake = where / name
        fake.write_text(f"#!/bin/sh\ntouch {marks}/{folder}-{name}\necho {says}\n")
        fake.chmod(0o755)
        folders.append(str(where))
    path = f"{runners}:{folders[0]}:{folders[2]}:{env(tmp_path)['PATH']}"
    notes = new_with_notes(project, "tox", ["tox -e py399"], {**env(tmp_path), "PATH": path})
    assert notes == {}, notes  # a Python 3.99 is there
    assert sorted(p.name for p in marks.iterdir()) == ["a-python3.99"]


def test_a_goal_made_active_in_a_checkout_another_user_owns_says_how_to_trust_and_stage_it(
    project: Path, tmp_path: Path
) -> None:
    """`new --activate` where git refuses the repository as another user's: goalfile reads it
    as no repository, so nothing was staged, and it said nothing. It names git's refusal and
    the commands that, run as printed, trust the repository and stage the goal. Needs root."""
    assert os.geteuid() == 0, "this test gives the checkout to another user: run it as root"
    for folder, _, names in os.walk(project):
        for name in [".", *names]:
            os.chown(os.path.join(folder, name), 65534, 65534, follow_symlinks=False)
    home = tmp_path / "home"
    home.mkdir()
    environ = {**env(tmp_path), "HOME": str(home)}
    made = run_goalfile(
        "new", "t", "the suite passes", "--non-goal", "src/ stays", "--check", "true",
        "--expected", "exit 0", "--activate", cwd=project, env=environ,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    trust = f"git config --global --add safe.directory {project}"
    assert f"note: git refuses the repository at {project}: another user owns it" in made.stderr
    assert f"if you trust it: `{trust}`, then `git add -- goals/t.md`\n" in made.stderr
    fix = f"{trust} && git add -- goals/t.md"
    subprocess.run(fix, shell=True, cwd=project, env={**os.environ, **environ}, check=True)
    listed = subprocess.run(
        ["git", "ls-files", "goals"], cwd=project, env={**os.environ, **environ},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert listed.stdout.splitlines() == ["goals/t.md"]


def test_a_checkout_another_user_owns_gets_git_s_fix_not_git_init(
    project: Path, tmp_path: Path
) -> None:
    """cachetools unpacked as root keeps its archive's owner (a container's mounted volume is
    the same): git refuses the repository ("detected dubious ownership"). `init` said the
    folder was in no repository and that `git init` makes one, `focus` gave `git init` as its
    fix: git init there changes nothing and git still refuses. Both name git's refusal and the
    safe.directory command, which, run as printed, lets focus work. Needs root."""
    assert os.geteuid() == 0, "this test gives the checkout to another user: run it as root"
    subprocess.run(["git", "add", "-A"], cwd=project, check=True, timeout=60)
    made = run_goalfile(
        "new", "t", "the suite passes", "--non-goal", "src/ stays", "--check", "true",
        "--expected", "exit 0", "--activate", cwd=project, env=env(tmp_path),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    for folder, _, names in os.walk(project):
        for name in [".", *names]:
            os.chown(os.path.join(folder, name), 65534, 65534, follow_symlinks=False)
    home = tmp_path / "home"
    home.mkdir()
    environ = {**env(tmp_path), "HOME": str(home)}
    fix = f"git config --global --add safe.directory {project}"
    init = run_goalfile("init", "--no-goal", cwd=project, env=environ)
    assert init.returncode == 0, init.stderr
    assert "git init" not in init.stderr, init.stderr
    assert f"note: git refuses the repository at {project}: another user owns it" in init.stderr
    assert init.stderr.rstrip().endswith(f"if you trust it: `{fix}`"), init.stderr
    focus = run_goalfile("focus", "goals/t.md", cwd=project, env=environ)
    assert focus.returncode == 2, focus.stderr
    assert "git init" not in focus.stderr, focus.stderr
    assert f"fix: if you trust it: `{fix}`, then `goalfile focus goals/t.md`\n" in focus.stderr
    subprocess.run(fix, shell=True, cwd=project, env={**os.environ, **environ}, check=True)
    again = run_goalfile("focus", "goals/t.md", cwd=project, env=environ)
    assert again.returncode == 0, again.stderr
