"""Tools goalfile did not write, run on a goal at every stage of its life (tests/lifecycle_goals.py:
a draft, an approved goal, an unmet ledger, a met one after a long ledger, paused, blocked,
exhausted, and the goal files the skill family's skills write), each tool as a project runs it:

- tools that keep what a goal means, alone or one after another as a project's pre-commit
  hooks run them: mdformat 1.0 with `mdformat-gfm` and `mdformat-frontmatter`, then pre-commit's
  stock hooks (`trailing-whitespace`, `end-of-file-fixer`, `mixed-line-ending --fix=crlf`);
  mdformat 0.7 with `mdformat-tables --compact-tables`; mdformat with `mdformat-myst`; prettier
  with its defaults, then `markdownlint-cli2 --fix`; a clone with `core.autocrlf=true`;
  `mdformat --number`; remark-cli with `remark-gfm` and `remark-frontmatter`; dprint with its
  Markdown plugin; an editor's EditorConfig save actions (`eclint fix`: CRLF, trimmed blanks, a
  final newline, indentation in fours); `*.md text eol=crlf` in `.gitattributes`. After
  each, goalfile reads every goal the same: lint, status, the ledger's runs, verify's verdicts,
  `audit --against` the unformatted commit and the Stop hook's answer; and the next write goes
  on from the formatted file.
- formatters that rewrap paragraphs (mdformat `--wrap 60` and `--wrap no`, prettier
  `--prose-wrap always --print-width 40` and `--prose-wrap never`, dprint with `"textWrap":
  "always"`): no verdict is read from a
  rewrapped ledger. lint names each such file and line with one error, `entry-rewrapped`, whose
  fix undoes the change as written; verify, status and the hook refuse the goal; the fixes that
  lint and the hook print, run as written, give back goals that read as before.

The tools are pinned and installed once into a cache outside the repository (npm's from the
npm registry: tests/npm_tools.py for those that need packages beside their CLI; PyPI's into
virtual environments of their own: tests/pypi_tools.py)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import built_once, copy_of, git, goalfile_here, run_goalfile, shell
from tests.formatted_goals import MARKDOWNLINT, PRETTIER, no_places, npm_tool, run_tool
from tests.lifecycle_goals import GOALS, shared_stages
from tests.npm_tools import NpmTool, install_npm
from tests.pypi_tools import PypiTool, install_venv

# The module fixture (the goals at every stage, 30 s) is built once per run: the tests of the
# tools from tests/npm_tools.py share a second worker (their own group), the others one, so
# the two halves run side by side under `pytest -n` and neither is a long chain of its own.
pytestmark = pytest.mark.xdist_group("formatter-matrix")
SECOND_HALF = ("remark-gfm-frontmatter", "dprint-then-eclint-fix-crlf", "dprint-text-wrap-always")


def halves(names: list[str]) -> list[object]:
    """The tool names as parameters, those of :data:`SECOND_HALF` in the second group."""
    second = pytest.mark.xdist_group("formatter-matrix-npm")
    return [pytest.param(n, marks=second) if n in SECOND_HALF else n for n in names]


MDFORMAT_TABLES = PypiTool(
    requirements=(
        "mdformat==0.7.22",
        "mdformat-tables==1.0.0",
        "mdformat-frontmatter==2.1.2",
        "markdown-it-py==3.0.0",
    ),
    bin="mdformat",
)
MDFORMAT_MYST = PypiTool(
    requirements=("mdformat==1.0.0", "mdformat-myst==0.3.0", "markdown-it-py==4.3.0"),
    bin="mdformat",
)
PRECOMMIT_HOOKS = PypiTool(
    requirements=("pre-commit-hooks==6.0.0",), bin="mixed-line-ending", probe=("--help",)
)

REMARK = NpmTool(
    packages=("remark-cli@12.0.1", "remark-gfm@4.0.1", "remark-frontmatter@5.0.0"),
    bin="remark",
    version="remark-cli: 12.0.1",
)
DPRINT = NpmTool(
    packages=("dprint@0.57.4", "@dprint/markdown@0.28.1"), bin="dprint", version="0.57.4"
)
ECLINT = NpmTool(packages=("eclint@2.8.1",), bin="eclint", version="2.8.1")

# the goals whose ledger holds an entry with `status:` and `contract:` lines: a rewrap joins them
LEDGERED = ("approved", "unmet", "met", "paused", "blocked", "exhausted", "version-flag", "auth")
DRAFTS = ("draft", "proposed")
assert sorted(LEDGERED + DRAFTS) == sorted(GOALS)


def run(command: list[str], repo: Path, codes: tuple[int, ...] = (0,)) -> str:
    done = run_tool(command, repo)
    assert done.returncode in codes, (command, done.stdout, done.stderr)
    return done.stdout + done.stderr


def goal_paths(repo: Path) -> list[str]:
    return [f"goals/{slug}.md" for slug in GOALS]


def mdformat(*args: str) -> Callable[[Path], None]:
    def apply(repo: Path) -> None:
        run([sys.executable, "-m", "mdformat", *args, "goals"], repo)

    return apply


def venv_mdformat(tool: PypiTool, *args: str) -> Callable[[Path], None]:
    def apply(repo: Path) -> None:
        run([str(install_venv(tool)), *args, "goals"], repo)

    return apply


def prettier(*args: str) -> Callable[[Path], None]:
    def apply(repo: Path) -> None:
        run([str(npm_tool(PRETTIER)), *args, "--write", "goals"], repo)

    return apply


def remark(repo: Path) -> None:
    """remark-cli writing each file back (`--output`), with the plugins a project adds for
    GitHub's tables and for frontmatter (named by path: they live in the tool's cache)."""
    modules = install_npm(REMARK) / "node_modules"
    plugins = [modules / name / "index.js" for name in ("remark-gfm", "remark-frontmatter")]
    uses = [arg for plugin in plugins for arg in ("--use", str(plugin))]
    run([str(modules / ".bin" / "remark"), "goals", *uses, "--output", "--quiet"], repo)


def dprint(**markdown: object) -> Callable[[Path], None]:
    """dprint with its Markdown plugin (the wasm file npm ships), its `markdown` settings
    given; the configuration lives beside the repository."""

    def apply(repo: Path) -> None:
        prefix = install_npm(DPRINT)
        config = repo.with_name("dprint.json")
        plugin = prefix / "node_modules" / "@dprint" / "markdown" / "plugin.wasm"
        config.write_text(json.dumps({"markdown": markdown, "plugins": [str(plugin)]}), "utf-8")
        dprint_bin = prefix / "node_modules" / ".bin" / "dprint"
        out = run([str(dprint_bin), "fmt", "--config", str(config), "goals/*.md"], repo)
        assert "Formatted" in out, out

    return apply


def eclint_fix(repo: Path) -> None:
    """An editor's save actions as EditorConfig asks for them (CRLF line endings, trailing
    blanks trimmed, a final newline, spaces for indentation), applied by eclint's `fix`."""
    (repo / ".editorconfig").write_text(
        "root = true\n\n[*]\ncharset = utf-8\nend_of_line = crlf\nindent_style = space\n"
        "indent_size = 4\ntrim_trailing_whitespace = true\ninsert_final_newline = true\n",
        encoding="utf-8",
    )
    eclint = install_npm(ECLINT) / "node_modules" / ".bin" / "eclint"
    run([str(eclint), "fix", *goal_paths(repo)], repo)


def eol_crlf_attributes(repo: Path) -> None:
    """`*.md text eol=crlf` committed in `.gitattributes`, and the goal files checked out
    anew: CRLF in the working tree, LF in git."""
    (repo / ".gitattributes").write_text("*.md text eol=crlf\n", encoding="utf-8")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-qm", "Markdown checked out with CRLF")
    for path in goal_paths(repo):
        (repo / path).unlink()
    git(repo, "checkout", "--", "goals")


def markdownlint_fix(repo: Path) -> None:
    # exit 1: what it cannot fix (long lines, headings repeated by design) is still reported
    out = run([str(npm_tool(MARKDOWNLINT)), "--fix", "goals/*.md"], repo, codes=(0, 1))
    assert "MD013/line-length" in out, out


def stock_hooks(repo: Path) -> None:
    """The hooks as pre-commit runs them (each hook's entry, with a project's args, given the
    files): an exit of 1 says a file was changed."""
    bin_dir = install_venv(PRECOMMIT_HOOKS).parent
    paths = goal_paths(repo)
    for entry in ("trailing-whitespace-fixer", "end-of-file-fixer"):
        run([str(bin_dir / entry), *paths], repo, codes=(0, 1))
    out = run([str(bin_dir / "mixed-line-ending"), "--fix=crlf", *paths], repo, codes=(1,))
    assert "fixed mixed line endings" in out, out


def autocrlf_clone(repo: Path) -> None:
    """The repository cloned anew with `core.autocrlf=true` (as a Windows git checks it out)
    in place of the copy; the files the checks read come along."""
    source = repo.with_name("source")
    repo.rename(source)
    git(source.parent, "-c", "core.autocrlf=true", "clone", "-q", str(source), str(repo))
    git(repo, "config", "core.autocrlf", "true")
    git(repo, "config", "user.email", "tests@example.invalid")
    git(repo, "config", "user.name", "goalfile tests")
    for name in ("d.txt", "e.txt", "build.txt"):
        shutil.copyfile(source / name, repo / name)


def chain(*tools: Callable[[Path], None]) -> Callable[[Path], None]:
    """Tools run one after the other, as a project's pre-commit hooks run them."""

    def apply(repo: Path) -> None:
        for tool in tools:
            tool(repo)

    return apply


KEEPING: dict[str, Callable[[Path], None]] = {
    "mdformat-gfm-then-stock-hooks-crlf": chain(mdformat(), stock_hooks),
    "mdformat-tables-compact": venv_mdformat(MDFORMAT_TABLES, "--compact-tables"),
    "mdformat-myst": venv_mdformat(MDFORMAT_MYST),
    "prettier-then-markdownlint-fix": chain(prettier(), markdownlint_fix),
    "autocrlf": autocrlf_clone,
    "eol-crlf-checkout-then-mdformat-number": chain(
        eol_crlf_attributes, mdformat("--number", "--end-of-line", "keep")
    ),
    "remark-gfm-frontmatter": remark,
    "dprint-then-eclint-fix-crlf": chain(dprint(), eclint_fix),
}

REWRAPPING: dict[str, Callable[[Path], None]] = {
    "mdformat-wrap-60": mdformat("--wrap", "60"),
    "mdformat-wrap-no": mdformat("--wrap", "no"),
    "prettier-always-40": prettier("--prose-wrap", "always", "--print-width", "40"),
    "prettier-never": prettier("--prose-wrap", "never"),
    "dprint-text-wrap-always": dprint(textWrap="always", lineWidth=60),
}
assert set(SECOND_HALF) <= set(KEEPING) | set(REWRAPPING)


# The environment of every goalfile run here, so of every check: the goal skill's worked example
# checks `python -m pytest -q`, which collects nothing in these repositories and exits 5 either
# way; the plugins of whatever Python is on PATH, loaded for nothing, cost more CPU than the
# rest of a verify run.
CHECKS_ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def goalfile(
    *args: str, cwd: Path, input: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return run_goalfile(*args, cwd=cwd, env=CHECKS_ENV, input=input, timeout=timeout)


def read(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A command that only reads the goals (lint, status, log, audit), run in this process
    (:func:`goalfile_here`): its subject here is what goalfile reads from a formatted file, the
    same code without an interpreter started around it. verify and the Stop hook, which run
    the checks, run as processes (:func:`goalfile`)."""
    return goalfile_here(*args, cwd=cwd, env=CHECKS_ENV)


def norm(text: str, repo: Path) -> str:
    """A message without the repository's path, line and column numbers (a formatter adds
    blank lines) and run times."""
    text = no_places(text.replace(str(repo), "REPO"))
    return re.sub(r"\b\d+(?:\.\d+)?s\b", "Ns", text)


def hook(repo: Path) -> str:
    """The Stop hook's answer to Claude Code, given in a copy (the hook writes entries)."""
    copy = repo.with_name("hook-copy")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(repo, copy, symlinks=True)
    try:
        stop = {"cwd": str(copy), "hook_event_name": "Stop", "stop_hook_active": False}
        done = goalfile(
            "hook", "stop", "--agent", "claude", cwd=copy, input=json.dumps(stop), timeout=300
        )
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        return norm(done.stdout, copy)
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def readings(repo: Path) -> dict[str, object]:
    """What goalfile reads from every goal: lint's findings, each goal's status, the verify
    runs of each ledger (`log`), `verify --no-write`'s summary lines, `audit --against HEAD`
    and the Stop hook's answer; as JSON reads it back (lists for tuples), so that readings
    stored in a file compare equal. The commands that only read run in this process
    (:func:`read`)."""
    lint = read("lint", cwd=repo)
    status = read("status", "--json", cwd=repo)
    log = read("log", "--json", cwd=repo)
    verify = goalfile("verify", "--no-write", cwd=repo, timeout=300)
    audit = read("audit", "--against", "HEAD", cwd=repo)
    found = {
        "lint": (lint.returncode, norm(lint.stdout + lint.stderr, repo)),
        "status": (status.returncode, json.loads(norm(status.stdout, repo))),
        "log": (log.returncode, json.loads(log.stdout)),
        "verify": (
            verify.returncode,
            [line for line in verify.stdout.splitlines() if line.startswith("verify-goal ")],
        ),
        "audit": (audit.returncode, norm(audit.stdout, repo)),
        "hook": hook(repo),
    }
    return json.loads(json.dumps(found))  # type: ignore[no-any-return]


def stage_readings(factory: pytest.TempPathFactory) -> dict[str, object]:
    """What goalfile reads from the goals at every stage, read once for the run (in a copy:
    the hook writes entries, verify may leave files) and shared by the two worker groups."""

    def build(folder: Path) -> None:
        repo = copy_of(shared_stages(factory), folder / "repo")
        (folder / "readings.json").write_text(json.dumps(readings(repo)), encoding="utf-8")

    folder = built_once(factory, "lifecycle stages: what goalfile reads", build)
    return json.loads((folder / "readings.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def stages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, object]]]:
    """The goals at every stage (made once for the run: :func:`shared_stages`), copied for
    this worker, with what goalfile reads from them."""
    repo = copy_of(shared_stages(tmp_path_factory), tmp_path_factory.mktemp("stages") / "repo")
    yield repo, stage_readings(tmp_path_factory)


def formatted(stages: tuple[Path, dict[str, object]], tmp_path: Path, name: str) -> Path:
    source, _ = stages
    repo = tmp_path / "repo"
    shutil.copytree(source, repo, symlinks=True)
    (KEEPING | REWRAPPING)[name](repo)
    return repo


def changed(repo: Path, before: Path) -> list[str]:
    """The goal files whose bytes the tool changed."""
    return [p for p in goal_paths(repo) if (repo / p).read_bytes() != (before / p).read_bytes()]


@pytest.mark.parametrize("name", halves(list(KEEPING)))
def test_a_tool_that_keeps_the_meaning_changes_nothing_goalfile_reads(
    stages: tuple[Path, dict[str, object]], tmp_path: Path, name: str
) -> None:
    source, before = stages
    repo = formatted(stages, tmp_path, name)
    assert changed(repo, source), "the tool changed no goal file"
    after = readings(repo)
    for key in before:
        assert after[key] == before[key], (name, key, after[key])
    # the next write goes on from the formatted file, and audits clean
    (repo / "clean.txt").write_text("", encoding="utf-8")
    (repo / "build.txt").write_text("version 1.4.0\n", encoding="utf-8")
    done = goalfile("verify", "goals/unmet.md", cwd=repo, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr  # R1 is not reviewed yet
    assert done.stdout.rstrip().endswith("C1 met, C2 met, R1 unmet; status: active"), done.stdout
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "formatted, then verified")
    audit = run_goalfile("audit", "--against", "HEAD~1", "goals/unmet.md", cwd=repo)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "goals/unmet.md: clean (1 entry added since HEAD~1)" in audit.stdout, audit.stdout


@pytest.mark.parametrize("name", halves(list(REWRAPPING)))
def test_a_rewrapped_ledger_is_named_and_the_printed_fixes_work(
    stages: tuple[Path, dict[str, object]], tmp_path: Path, name: str
) -> None:
    source, before = stages
    repo = formatted(stages, tmp_path, name)
    assert changed(repo, source), "the tool changed no goal file"
    lint = read("lint", "--json", cwd=repo)
    assert lint.returncode == 3, lint.stdout
    files = {f["path"]: f for f in json.loads(lint.stdout)["files"]}
    # verify refuses each rewrapped goal, naming the joined line, and runs the others' checks
    refused = goalfile("verify", "--no-write", cwd=repo, timeout=300)
    assert refused.returncode == 3, (refused.stdout, refused.stderr)
    summaries = re.findall(r"(?m)^verify-goal (\S+) ", refused.stdout)
    assert summaries == ["proposed"], refused.stdout
    fixes = {}
    for slug in LEDGERED:
        path = f"goals/{slug}.md"
        errors = [f for f in files[path]["findings"] if f["severity"] == "error"]
        # one error, on the joined line, whose fix is the one thing to do: undo the change
        assert [f["code"] for f in errors] == ["entry-rewrapped"], (path, errors)
        lines = (repo / path).read_text(encoding="utf-8").split("\n")
        joined = lines[errors[0]["line"] - 1]
        assert re.match(r"status: [a-z]+\b.* contract: [0-9a-f]{12}\r?$", joined), joined
        hint = errors[0]["hint"]
        assert f"`git checkout -- {path}` undoes an unstaged one" in hint, hint
        fixes[path] = f"git checkout -- {path}"
        assert f"\ngoalfile: {path}:{errors[0]['line']}:" in "\n" + refused.stderr, path
    for slug in DRAFTS:  # a draft holds no ledger paragraph: it reads as before
        assert [f["code"] for f in files[f"goals/{slug}.md"]["findings"]] in (
            [],
            ["placeholder"] * 3,
        )
    status = json.loads(read("status", "--json", cwd=repo).stdout)
    invalid = {g["path"] for g in status["goals"] if "joined into one" in str(g.get("error"))}
    assert invalid == set(fixes), status
    answer = json.loads(hook(repo))
    assert answer["decision"] == "block", answer

    # the Stop hook's fix, run as written in a copy, puts back the ledger: verdicts as before
    copy = repo.with_name("restored")
    shutil.copytree(repo, copy, symlinks=True)
    hook_fixes = re.findall(r"fix: `(goalfile restore [^`]+)`", answer["reason"])
    assert hook_fixes, answer["reason"]
    for command in hook_fixes:
        done = shell(command, copy)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    verify = goalfile("verify", "--no-write", cwd=copy, timeout=300)
    summaries = [line for line in verify.stdout.splitlines() if line.startswith("verify-goal ")]
    assert [verify.returncode, summaries] == before["verify"]

    # lint's fix, run as written, gives back the goals as they were, byte for byte
    for path, command in fixes.items():
        done = shell(command, repo)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert (repo / path).read_bytes() == (source / path).read_bytes(), path
