"""A check that passes because nothing was tested, or because the program crashed: a real
`cargo test` whose name matches no test (exit 0, "0 passed"), and a real program killed by a
signal under a negative exit clause (`exit nonzero`, `exit != 1`). Neither is met."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from goalfile.testcount import TestCount, runners
from tests.conftest import goal_text, last_line, make_git_repo, row, run_goalfile, write_goal
from tests.hosts.host_install import NpmCli, install_cli

LIB = """\
pub fn add(left: u64, right: u64) -> u64 {
    left + right
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn NAME() {
        assert_eq!(add(2, 2), 4);
    }
}
"""


def _crate(repo: Path, test_name: str) -> None:
    assert shutil.which("cargo"), "cargo is not on PATH: install Rust (rustup) to run this test"
    (repo / "Cargo.toml").write_text(
        '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
    )
    (repo / "src").mkdir(exist_ok=True)
    (repo / "src" / "lib.rs").write_text(LIB.replace("NAME", test_name))


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    _crate(repo, "it_works")
    return repo


MET = (0, "verify-goal demo iteration 1: C1 met; status: met")
UNMET = (1, "verify-goal demo iteration 1: C1 unmet; status: active")


def _project(tmp_path: Path, name: str, text: str) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    (repo / name).write_text(text)
    return repo


def _verify(repo: Path, check: str, expected: str) -> tuple[int, str, str]:
    write_goal(repo / "goals", goal_text(rows=(row("C1", check, expected),)))
    done = run_goalfile("verify", "goals/demo.md", cwd=repo, timeout=300)
    return done.returncode, last_line(done.stdout), (repo / "goals" / "demo.md").read_text()


def test_cargo_test_whose_name_matches_no_test_is_unmet(crate: Path) -> None:
    code, summary, text = _verify(crate, "cargo test --offline the_feature", "exit 0")
    assert (code, summary) == UNMET
    assert "0 passed; 0 failed" in text
    assert "no test ran" in text


def test_cargo_test_is_met_once_the_named_test_exists(crate: Path) -> None:
    _crate(crate, "the_feature_works")
    code, summary, _ = _verify(crate, "cargo test --offline the_feature", "exit 0")
    assert (code, summary) == MET


def test_a_test_binary_that_ran_none_beside_one_that_ran_some_is_met() -> None:
    """cargo runs one binary per target: the library's may run the test while the doc tests'
    filter out all theirs; what counts is the tests of every binary together."""
    count = TestCount()
    for chunk in (
        b"running 1 test\ntest tests::the_feature ... ok\n\ntest result: ok. 1 pass",
        b"ed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n",
        b"running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; "
        b"2 filtered out; finished in 0.00s",
    ):
        count.feed(chunk)
    count.finish()
    assert count.ran == 1 and not count.none_ran


def test_a_summary_line_split_at_every_byte_is_read() -> None:
    line = b"test result: \x1b[32mok\x1b[0m. 0 passed; 0 failed; 0 ignored; 3 filtered out\n"
    text = b"x" * 700 + b"\n" + line + b"test result: nothing\n"
    count = TestCount()
    for at in range(len(text)):
        count.feed(text[at : at + 1])
    count.finish()
    assert count.none_ran and count.evidence.startswith("test result:")


SKIPPED = """\
import pytest


@pytest.mark.skip(reason="later")
def test_the_feature():
    assert False


@pytest.mark.xfail
def test_the_feature_fails_cleanly():
    assert False


def test_other():
    pass
"""


@pytest.mark.parametrize(
    "check",
    [
        "python3 -m pytest -q test_f.py -k the_feature",
        "python3 -m pytest --color=yes test_f.py -k the_feature",
        "python3 -m pytest -q test_f.py -k nothing_matches; exit 0",
    ],
)
def test_a_pytest_run_whose_every_test_was_skipped_is_unmet(tmp_path: Path, check: str) -> None:
    """The agent marks the failing test skipped (or xfail): pytest exits 0 with `1 skipped,
    1 xfailed, 1 deselected in 0.05s`."""
    repo = _project(tmp_path, "test_f.py", SKIPPED)
    code, summary, text = _verify(repo, check.replace("python3", sys.executable), "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran" in text


def test_a_pytest_run_where_one_test_passed_beside_skipped_ones_is_met(tmp_path: Path) -> None:
    repo = _project(tmp_path, "test_f.py", SKIPPED)
    code, summary, _ = _verify(repo, f"{sys.executable} -m pytest -q test_f.py", "exit 0")
    assert (code, summary) == MET


UNITTEST = """\
import unittest


class T(unittest.TestCase):
    @unittest.skip("later")
    def test_the_feature(self):
        self.fail()

    @unittest.expectedFailure
    def test_the_feature_fails(self):
        self.fail()
"""


def test_a_unittest_run_whose_every_test_was_skipped_is_unmet(tmp_path: Path) -> None:
    """unittest says `Ran 2 tests` then `OK (skipped=1, expected failures=1)`, on stderr."""
    repo = _project(tmp_path, "test_u.py", UNITTEST)
    code, summary, text = _verify(repo, "python3 -m unittest test_u", "exit 0")
    assert (code, summary) == UNMET
    assert "OK (skipped=1, expected failures=1)" in text and "no test ran" in text
    passing = UNITTEST.replace('    @unittest.skip("later")\n', "").replace(
        "test_the_feature(self):\n        self.fail()", "test_the_feature(self):\n        pass"
    )
    (repo / "test_u.py").write_text(passing)
    done = run_goalfile("verify", "goals/demo.md", cwd=repo)
    assert last_line(done.stdout).endswith("C1 met; status: met"), done.stdout


CRASH = "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n"


@pytest.mark.parametrize("expected", ["exit nonzero", "exit != 0", "exit != 1"])
def test_a_check_killed_by_a_signal_meets_no_negative_exit_clause(
    tmp_path: Path, expected: str
) -> None:
    """The shell reports its child's death by SIGSEGV as exit 139: a crash is not the failure a
    negative exit clause asks for."""
    repo = _project(tmp_path, "crash.py", CRASH)
    code, summary, text = _verify(repo, "cd . && python3 crash.py", expected)
    assert (code, summary) == UNMET
    assert "signal 11" in text


def test_a_crash_named_by_its_status_is_met(tmp_path: Path) -> None:
    repo = _project(tmp_path, "crash.py", CRASH)
    code, summary, _ = _verify(repo, "cd . && python3 crash.py", "exit 139")
    assert (code, summary) == MET


def test_a_program_that_fails_is_met_by_a_negative_exit_clause(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    code, summary, _ = _verify(repo, "cd . && python3 -c 'raise SystemExit(2)'", "exit != 0")
    assert (code, summary) == MET


@pytest.mark.parametrize(
    ("config", "check"),
    [
        # pytest's configuration example and the row's own `-q`: verbosity -2, no summary line
        ('[tool.pytest.ini_options]\naddopts = "-ra -q"\n', "python3 -m pytest -q test_f.py"),
        ("", "python3 -m pytest -qq --color=yes test_f.py"),
    ],
)
def test_a_quiet_pytest_run_that_prints_only_its_progress_line_is_read(
    tmp_path: Path, config: str, check: str
) -> None:
    """pytest run twice quiet (`-qq`, or `-q` over a configuration's `-q`) prints no summary
    line, only the progress line `sx      [100%]`: its letters say which tests ran."""
    only_skipped = SKIPPED.replace("def test_other():\n    pass\n", "")
    repo = _project(tmp_path, "test_f.py", only_skipped)
    (repo / "pyproject.toml").write_text(config)
    code, summary, text = _verify(repo, check.replace("python3", sys.executable), "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran" in text
    (repo / "test_f.py").write_text(SKIPPED)
    done = run_goalfile("verify", "goals/demo.md", cwd=repo)
    assert last_line(done.stdout).endswith("C1 met; status: met"), done.stdout


def test_a_progress_line_counts_its_letters() -> None:
    for text, ran in (
        (b"sx" * 40 + b" [ 50%]\n" + b"s" * 20 + b"     [100%]\n", 0),
        (b"ss.                [100%]\n", 1),
        (b"\x1b[33ms\x1b[0m\x1b[31mF\x1b[0m\x1b[31m      [100%]\x1b[0m\n", 1),
        (b"test_f.py ss                [100%]\n", None),  # not -qq: its summary line counts
        (b"[100%]\n", None),
    ):
        count = TestCount()
        count.feed(text)
        count.finish()
        assert (count.ran if count.first is not None else None) == ran, text


NODE_TEST = """\
const test = require('node:test');
const assert = require('node:assert');
test('the feature', { skip: 'later' }, () => { assert.fail(); });
test('other', () => {});
"""


@pytest.mark.parametrize(
    "check",
    [
        "node --test --test-name-pattern=feature f.test.js",
        "node --test --test-reporter=spec --test-name-pattern=nothing f.test.js",
        "FORCE_COLOR=1 node --test --test-reporter=spec --test-name-pattern=feature f.test.js",
    ],
)
def test_a_node_test_run_whose_every_test_was_skipped_is_unmet(tmp_path: Path, check: str) -> None:
    """Node's test runner ends `# pass 0` / `# fail 0` (TAP) or `ℹ pass 0` (spec) and exits 0
    when its tests were skipped or none matched the name pattern."""
    assert shutil.which("node"), "node is not on PATH: install Node.js to run this test"
    repo = _project(tmp_path, "f.test.js", NODE_TEST)
    code, summary, text = _verify(repo, check, "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran" in text
    (repo / "f.test.js").write_text(NODE_TEST + "test('the feature, nothing else', () => {});\n")
    done = run_goalfile("verify", "goals/demo.md", cwd=repo)
    assert last_line(done.stdout).endswith("C1 met; status: met"), done.stdout


@pytest.mark.parametrize("option", ["--co", "--setup-plan", "--setup-only", "--fixtures"])
def test_a_pytest_run_that_only_collected_or_planned_is_unmet(tmp_path: Path, option: str) -> None:
    """A pytest option that lists the tests or their fixtures without running them, put into
    the project's configuration, ends `1 test collected in 0.5s` or `no tests ran in 0.5s` and
    exits 0, the failing test never run."""
    repo = _project(tmp_path, "test_f.py", "def test_the_feature():\n    assert False\n")
    (repo / "pyproject.toml").write_text(f'[tool.pytest.ini_options]\naddopts = "{option}"\n')
    code, summary, text = _verify(repo, f"{sys.executable} -m pytest -q test_f.py", "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran" in text


def test_a_pytest_summary_padded_to_a_wide_terminal_is_read(tmp_path: Path) -> None:
    """pytest pads its summary line with `=` to the terminal's width, which it takes from
    `COLUMNS`: 1,200 columns made a line longer than a summary line was thought to be."""
    repo = _project(tmp_path, "test_f.py", SKIPPED.replace("def test_other():\n    pass\n", ""))
    check = f"COLUMNS=1200 {sys.executable} -m pytest test_f.py"
    code, summary, text = _verify(repo, check, "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran" in text


def _runner_that_runs_nothing(crate: Path) -> None:
    (crate / ".cargo").mkdir()
    (crate / ".cargo" / "config.toml").write_text(
        '[target.x86_64-unknown-linux-gnu]\nrunner = "true"\n'
        '[target.aarch64-unknown-linux-gnu]\nrunner = "true"\n'
    )


def test_cargo_test_through_a_runner_that_runs_nothing_is_unmet(crate: Path) -> None:
    """`.cargo/config.toml` names a program every test binary is run through: `runner = "true"`
    runs none, prints nothing, and cargo exits 0 after its `Running unittests ...` line."""
    _runner_that_runs_nothing(crate)
    code, summary, text = _verify(crate, "cargo test --offline it_works", "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran" in text and "Running unittests src/lib.rs" in text


MOCHA = NpmCli(package="mocha", version="10.8.2", bin="mocha")
MOCHA_TEST = """\
const assert = require('assert');
describe('s', () => {
  it.skip('the feature', () => assert.fail());
  it('other', () => {});
});
"""


@pytest.mark.parametrize("grep", ["feature", "nothing"])
def test_a_mocha_run_whose_every_test_was_pending_is_unmet(tmp_path: Path, grep: str) -> None:
    """mocha ends `0 passing (2ms)` and `1 pending` and exits 0 when its tests were skipped or
    none matched `--grep`; a failing test (`1 failing`) counts as one that ran."""
    mocha = install_cli(MOCHA)
    repo = _project(tmp_path, "t.spec.js", MOCHA_TEST)
    code, summary, text = _verify(repo, f"{mocha} t.spec.js --grep {grep}", "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran" in text and "0 passing" in text
    failing = MOCHA_TEST.replace("it.skip('the feature'", "it('the feature, nothing'")
    (repo / "t.spec.js").write_text(failing)
    code, summary, _ = _verify(repo, f"{mocha} t.spec.js --grep {grep}", "exit 1")
    assert (code, summary) == MET


@pytest.mark.parametrize("option", ["--co", "--collect-only", "--setup-plan"])
def test_a_listing_the_check_itself_asks_for_is_judged_by_its_clauses(
    tmp_path: Path, option: str
) -> None:
    """`pytest --co -q` with `stdout contains "test_the_feature"` asks whether the test exists:
    a listing named in the check is what the row measures, not a run that ran nothing."""
    repo = _project(tmp_path, "test_f.py", "def test_the_feature():\n    assert False\n")
    check = f"{sys.executable} -m pytest {option} -q test_f.py"
    code, summary, _ = _verify(repo, check, 'exit 0; stdout contains "test_the_feature"')
    assert (code, summary) == MET


@pytest.mark.parametrize(
    "select", ["-k the_feature", "-k 'the_feature and not cleanly'", "-qq -k the_feature"]
)
def test_a_pytest_session_that_ran_no_test_beside_one_that_ran_some_is_unmet(
    tmp_path: Path, select: str
) -> None:
    """`pytest tests/unit -q && pytest tests/feature -q -k the_feature`: the first session's
    `1 passed` says nothing of the second's `1 skipped` (or `1 deselected`, or `s  [100%]`);
    each session is judged on its own."""
    repo = make_git_repo(tmp_path / "repo")
    (repo / "unit").mkdir()
    (repo / "unit" / "test_u.py").write_text("def test_other():\n    pass\n")
    (repo / "feature").mkdir()
    only_skipped = SKIPPED.replace("def test_other():\n    pass\n", "")
    (repo / "feature" / "test_f.py").write_text(only_skipped)
    pytest_ = f"{sys.executable} -m pytest -p no:cacheprovider"
    check = f"{pytest_} -q unit && {pytest_} -q feature {select}"
    code, summary, text = _verify(repo, check, "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran" in text
    (repo / "feature" / "test_f.py").write_text(SKIPPED.replace("test_other", "test_the_feature_x"))
    done = run_goalfile("verify", "goals/demo.md", cwd=repo)
    assert last_line(done.stdout).endswith("C1 met; status: met"), done.stdout


def test_quiet_cargo_test_through_a_runner_that_runs_nothing_is_unmet(crate: Path) -> None:
    """`cargo test -q` prints no `Running unittests ...` line: through `runner = "true"` the
    run printed nothing at all and exited 0, the test never run (it would fail)."""
    (crate / "src" / "lib.rs").write_text(LIB.replace("NAME", "it_works").replace("), 4)", "), 5)"))
    _runner_that_runs_nothing(crate)
    code, summary, text = _verify(crate, "cargo test -q --offline it_works", "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran: the check runs cargo test" in text
    (crate / "src" / "lib.rs").write_text(LIB.replace("NAME", "it_works"))
    (crate / ".cargo" / "config.toml").unlink()
    done = run_goalfile("verify", "goals/demo.md", cwd=crate, timeout=300)
    assert last_line(done.stdout).endswith("C1 met; status: met"), done.stdout


@pytest.mark.parametrize("style", ["count", "classic", "times"])
def test_a_quiet_pytest_run_in_each_progress_style_is_read(tmp_path: Path, style: str) -> None:
    """`console_output_style` in the configuration changes the progress line pytest run twice
    quiet prints alone: `s    [1/1]` (count), `s` (classic), `s    169.8us` (times)."""
    only_skipped = SKIPPED.replace("def test_other():\n    pass\n", "")
    repo = _project(tmp_path, "test_f.py", only_skipped)
    (repo / "pytest.ini").write_text(f"[pytest]\nconsole_output_style = {style}\naddopts = -q\n")
    check = f"{sys.executable} -m pytest -q -p no:cacheprovider test_f.py"
    code, summary, text = _verify(repo, check, "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran" in text
    (repo / "test_f.py").write_text(SKIPPED)
    done = run_goalfile("verify", "goals/demo.md", cwd=repo)
    assert last_line(done.stdout).endswith("C1 met; status: met"), done.stdout


@pytest.mark.parametrize(
    ("config", "redirect"),
    [("[pytest]\naddopts = -p no:terminal\n", ""), ("", " >/dev/null")],
)
def test_a_pytest_run_whose_output_shows_no_summary_is_unmet(
    tmp_path: Path, config: str, redirect: str
) -> None:
    """`-p no:terminal` planted in the configuration silences pytest, which exits 0 with its
    test skipped; a check that sends pytest's output elsewhere is read alike (as `cargo test
    >/dev/null` is): the output must show the run."""
    only_skipped = SKIPPED.replace("def test_other():\n    pass\n", "")
    repo = _project(tmp_path, "test_f.py", only_skipped)
    (repo / "pytest.ini").write_text(config)
    check = f"{sys.executable} -m pytest -q -p no:cacheprovider test_f.py{redirect}"
    code, summary, text = _verify(repo, check, "exit 0")
    assert (code, summary) == UNMET
    assert "no test ran: the check runs pytest" in text
    (repo / "pytest.ini").write_text("")
    check = f"{sys.executable} -m pytest -q -p no:cacheprovider test_f.py | tail -n 1"
    code, summary, _ = _verify(repo, check, 'exit 0; stdout contains "skipped"')
    assert (code, summary) == UNMET  # the summary shown: `1 skipped, 1 xfailed`


@pytest.mark.parametrize(
    ("command", "names"),
    [
        ("cargo test -q --offline it_works", {"cargo test"}),
        ("FOO=1 uv run pytest tests && cargo +nightly test", {"pytest", "cargo test"}),
        ("cd sub && /srv/.venv/bin/python3.12 -m pytest -q", {"pytest"}),
        ("pip install pytest", set()),
        ("grep -c pytest pyproject.toml", set()),
        ("echo cargo test", set()),
        ("pytest --version", set()),
        ("pytest --co -q", set()),
        ("cargo test --no-run", set()),
        ("cargo test -- --list", set()),
    ],
)
def test_the_runners_a_command_starts(command: str, names: set[str]) -> None:
    assert runners(command) == names
