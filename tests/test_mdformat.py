"""A Markdown formatter never changes what a goal means: every goal file in tests/data and
examples/, run through the real mdformat (with mdformat-gfm and mdformat-frontmatter, as a
pre-commit hook runs it), gives the same lint findings, the same verify verdicts and the same
audit against the unformatted commit. A change to one rendered cell of an old entry is still
found."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import mdformat  # the formatter itself: a missing test dependency fails loudly
import mdformat._cli
import mdformat_frontmatter  # noqa: F401
import mdformat_gfm  # noqa: F401
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from goalfile import ledger
from tests.conftest import DATA, REPO, git, goal_text, row, run_goalfile, shell

# The tests of the module fixture `formatted` (a repository whose every goal file is checked
# before and after formatting: 9 s) run in one process under `pytest -n`, which builds it once.
pytestmark = pytest.mark.xdist_group("mdformat")

GOAL_FILES = sorted(
    [
        *(p.relative_to(REPO).as_posix() for p in (DATA / "parse").glob("*.md")),
        *(p.relative_to(REPO).as_posix() for p in (DATA / "ledger").glob("*.md")),
        *(p.relative_to(REPO).as_posix() for p in (REPO / "examples").glob("*.md")),
    ]
)


def mdformat_files(repo: Path, *paths: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mdformat", *paths],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def no_places(text: str) -> str:
    """Messages without line and column numbers: formatting adds blank lines."""
    text = re.sub(r"(?m)^(\S+?\.md):\d+(?::\d+)?:", r"\1:", text)
    return re.sub(r"\((?:line \d+|lines? [\d, ]+)\)", "", re.sub(r"\bline \d+\b", "line", text))


def results(repo: Path, path: str) -> dict[str, object]:
    lint = run_goalfile("lint", path, cwd=repo)
    verify = run_goalfile("verify", "--no-write", path, cwd=repo, timeout=120)
    audit = run_goalfile("audit", "--against", "HEAD", path, cwd=repo)
    summary = verify.stdout.rstrip("\n").rsplit("\n", 1)[-1] if verify.stdout else ""
    return {
        "lint": (lint.returncode, no_places(lint.stdout + lint.stderr)),
        "verify": (verify.returncode, summary if summary.startswith("verify-goal") else ""),
        "audit": (audit.returncode, no_places(audit.stdout)),
    }


@pytest.fixture(scope="module")
def formatted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """A repository holding the goal files and what their checks read, committed; the results
    before formatting; then every goal file formatted in place."""
    repo = tmp_path_factory.mktemp("mdformat") / "repo"
    repo.mkdir()
    for folder in ("skills", "templates", "docs"):
        shutil.copytree(REPO / folder, repo / folder)
    shutil.copy(REPO / "README.md", repo / "README.md")
    for path in GOAL_FILES:
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / path, repo / path)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "unformatted")
    before = {path: results(repo, path) for path in GOAL_FILES}
    mdformat_files(repo, *GOAL_FILES)
    return repo, before


@pytest.mark.parametrize("path", GOAL_FILES)
def test_mdformat_changes_no_lint_verdict_or_audit_finding(
    formatted: tuple[Path, dict[str, object]], path: str
) -> None:
    repo, before = formatted
    assert results(repo, path) == before[path]


def test_mdformat_really_reformatted_the_files(formatted: tuple[Path, dict[str, object]]) -> None:
    repo, _ = formatted
    changed = git(repo, "diff", "--name-only").split()
    assert "examples/hello.md" in changed and "tests/data/parse/hostile.md" in changed
    text = (repo / "tests/data/parse/hostile.md").read_text()
    # the output excerpt became a fenced block whose lines start at the margin: still data
    assert "\n### Iteration 9 (2026-01-01) by verify-goal\n" in text
    assert "\n- `config/*.yaml` | stays unchanged\n" in text  # the `\|` escape was dropped


def test_changing_one_rendered_cell_of_an_old_entry_is_still_found(
    formatted: tuple[Path, dict[str, object]],
) -> None:
    repo, _ = formatted
    path = "examples/hello.md"
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qam", "formatted")
    clean = run_goalfile("audit", "--against", "HEAD~1", path, cwd=repo)
    assert clean.returncode == 0, clean.stdout
    text = (repo / path).read_text()
    row = re.search(r"(?m)^\| C3 +\| deterministic .*$", text)
    assert row is not None
    (repo / path).write_text(text.replace(row[0], row[0].replace("prints 1", "prints 2")))
    try:
        found = run_goalfile("audit", "--against", "HEAD~1", path, cwd=repo)
        assert found.returncode == 1
        assert "entry-rewritten: Iteration 1 (2026-11-30) by activate" in found.stdout
    finally:
        git(repo, "checkout", "-q", "--", path)


def test_a_fenced_output_line_is_never_an_entry(
    formatted: tuple[Path, dict[str, object]],
) -> None:
    """mdformat writes an indented excerpt as a fence; the heading, row and status a check
    printed are still output, not ledger."""
    repo, _ = formatted
    out = run_goalfile("status", "--json", "tests/data/parse/hostile.md", cwd=repo)
    assert '"iteration": 3' in out.stdout and '"iteration": 9' not in out.stdout
    lint = run_goalfile("lint", "tests/data/parse/hostile.md", cwd=repo)
    assert "entry heading" not in lint.stderr


def test_a_pin_made_from_the_source_text_needs_a_reapproval(tmp_path: Path) -> None:
    """A goal activated before cells were read as Markdown shows them, by an activate that
    recorded no rows: its pin was computed from `\\.` and `\\|` as typed, and Markdown shows
    other text, so the pin cannot say which was approved. verify refuses (exit 3) with a fix
    that works as written; lint says what the cells mean now, and `lint --fix` refuses to move
    the cell until a person re-approves."""
    repo = tmp_path / "repo"
    (repo / "goals").mkdir(parents=True)
    shutil.copyfile(DATA / "legacy" / "unrecorded-pin.md", repo / "goals" / "escaped.md")
    git(repo, "init", "-q")
    status = run_goalfile("status", "goals/escaped.md", cwd=repo)
    assert status.returncode == 0, status.stderr  # still read
    done = run_goalfile("verify", "--no-write", "goals/escaped.md", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "the pin is the digest of the cells' source text" in done.stderr
    assert "`goalfile activate --reapprove goals/escaped.md --reason TEXT`" in done.stderr
    audit = run_goalfile("audit", "goals/escaped.md", cwd=repo)
    assert audit.returncode == 1 and "approval-rows-missing" in audit.stdout, audit.stdout
    lint = run_goalfile("lint", "goals/escaped.md", cwd=repo)
    assert "means `exit 0; stdout matches /^a.b$/` as Markdown shows it" in lint.stderr
    before = (repo / "goals" / "escaped.md").read_text()
    fixed = run_goalfile("lint", "--fix", "goals/escaped.md", cwd=repo)
    assert "the `contract:` pin was made from the cells' source text" in fixed.stderr
    assert (repo / "goals" / "escaped.md").read_text() == before
    again = run_goalfile(
        "activate", "--reapprove", "goals/escaped.md", "--reason", "TEXT", cwd=repo
    )
    assert again.returncode == 0, again.stderr
    audit = run_goalfile("audit", "goals/escaped.md", cwd=repo)
    assert "approval-rows-missing" not in audit.stdout, audit.stdout  # it recorded its rows
    assert run_goalfile("lint", "--fix", "goals/escaped.md", cwd=repo).returncode == 0
    after = (repo / "goals" / "escaped.md").read_text()
    assert "| `exit 0; stdout matches /^a.b$/` |" in after
    assert run_goalfile("verify", "goals/escaped.md", cwd=repo).returncode == 0


def test_a_source_text_pin_is_held_to_the_rows_its_approval_recorded(tmp_path: Path) -> None:
    """The approval recorded `/^a\\.b$/` (a literal dot); Markdown shows the cell as `/^a.b$/`
    (any character). The source text still digests to the pin, but goalfile would run a
    looser pattern than the one approved: verify refuses, naming the row, until a person
    re-approves what Markdown shows."""
    repo = tmp_path / "repo"
    (repo / "goals").mkdir(parents=True)
    shutil.copyfile(DATA / "legacy" / "escaped-pin.md", repo / "goals" / "escaped.md")
    git(repo, "init", "-q")
    before = (repo / "goals" / "escaped.md").read_bytes()
    done = run_goalfile("verify", "goals/escaped.md", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "goals/escaped.md:10: the contract changed since it was approved" in done.stderr
    assert "the cells' source text digests to the pin" in done.stderr
    assert "C1 expected: `exit 0; stdout matches /^a\\.b$/` → `exit 0; stdout matches /^a.b$/`" in (
        done.stderr
    )
    assert (repo / "goals" / "escaped.md").read_bytes() == before
    audit = run_goalfile("audit", "goals/escaped.md", cwd=repo)
    assert audit.returncode == 1 and "contract-drift" in audit.stdout, audit.stdout
    again = run_goalfile("activate", "--reapprove", "goals/escaped.md", "--reason", "x", cwd=repo)
    assert again.returncode == 0, again.stderr
    assert run_goalfile("verify", "goals/escaped.md", cwd=repo).returncode == 0


# --------------------------------------------------------------------------- goalfile's own text
# Each piece goalfile writes into a ledger is already what the real mdformat (with mdformat-gfm)
# writes: running the formatter over it changes nothing, and it still shows the same text.

EXTENSIONS = {"gfm", "tables", "frontmatter"}
# every character besides the space and a tab that mdformat counts as whitespace (Unicode's
# space separators): markdown-it trims them off a table cell, CommonMark takes only U+0020 off
# a code span's ends, and mdformat pads a span only when its text is not blanks alone
BLANKS = ["\u00a0", "\u1680", *map(chr, range(0x2000, 0x200B)), "\u202f", "\u205f", "\u3000"]
PIECES = [
    *"ab1 *_[]<>`&~\\|!#-+.()=:;'\"/\t",
    *"中😀é\u0301\u200d❤️",  # wide, emoji, combining, joiner, variation selector
    "&amp;",
    "&#35;",
    "&copy",
    "[x]:",
    "[x](y)",
    "[ ] ",
    "[x] ",
    "- ",
    "> ",
    "=",
    "~~",
    "**",
    "__",
    "a_b",
    "1. ",
    "- ",
    "# ",
    "👨‍👩‍👧",
    "ｗｉｄｅ",
    "x\u0308",
    *BLANKS,
]
# a bare URL or e-mail address is a link to mdformat-gfm, which splits the text around it, so a
# `*` or `_` right next to one may be escaped differently; such text is tested on its own below
# three tildes or more in a row have no form mdformat keeps (it writes `\~~~`, which it then
# reads as strikethrough), so they are left out; see docs/format.md
texts = st.lists(st.sampled_from(PIECES), max_size=14).map("".join).filter(lambda t: "~~~" not in t)
blanks = st.lists(st.sampled_from([" ", "\t", *BLANKS]), max_size=6).map("".join)


def formatted_text(source: str) -> str:
    return mdformat.text(source, extensions=EXTENSIONS)


def shown(source: str) -> str:
    """The text a paragraph or table cell shows (code spans' content, escapes consumed)."""
    html = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(source)
    text = re.sub(r"<[^>]+>", "", html)
    import html as html_module

    return html_module.unescape(text).strip()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=texts,
    around=st.sampled_from([("", ""), ("note: ", ""), ("status: x (", ")"), ("- ", "")]),
)
def test_plain_text_is_written_as_mdformat_writes_it(text: str, around: tuple[str, str]) -> None:
    prefix, suffix = around
    cleaned = ledger.clean_line(text, limit=1_000)
    # a run of spaces is shown as one, and whitespace at the ends is not shown
    meant = re.sub(" {2,}", " ", cleaned).strip()
    if prefix == "- ":  # a list item: the text is the item's own paragraph
        if not meant:
            return  # goalfile writes no empty item
        paragraph = f"- {ledger.md_line(ledger.md_text(cleaned))}\n"
    else:
        source = ledger.md_text(cleaned, before=prefix[-1:], after=suffix[:1])
        paragraph = ledger.md_line(f"{prefix}{source}{suffix}") + "\n"
        meant = f"{prefix}{meant}{suffix}".strip()
    if not paragraph.strip():
        return  # nothing to show: goalfile writes no such line
    assert formatted_text(paragraph) == paragraph
    assert shown(paragraph) == meant


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain=texts | blanks, code=texts | blanks, wide=texts | blanks)
@example(plain="", code=" \u3000 ", wide="")  # mdformat wrote `  \u3000  ` as ` \u3000 `
def test_a_table_is_padded_and_escaped_as_mdformat_gfm_writes_it(
    plain: str, code: str, wide: str
) -> None:
    rows = [
        [ledger.text_cell(plain), ledger.code_span(code)],
        [ledger.code_span(wide), ledger.text_cell(wide)],
    ]
    source = "\n".join(ledger.table_lines(["id", "evidence"], rows)) + "\n"
    assert formatted_text(source) == source


def inline_code_content(source: str) -> str:
    """The text markdown-it shows for one code span."""
    (token,) = MarkdownIt("commonmark").parseInline(source)
    assert token.children is not None
    (span,) = token.children
    assert span.type == "code_inline", source
    return span.content


@pytest.mark.parametrize("blank", BLANKS, ids=lambda blank: f"U+{ord(blank):04X}")
def test_a_span_of_blanks_is_written_as_mdformat_leaves_it_and_read_so(blank: str) -> None:
    """A text of blanks alone with a space at both ends has no form mdformat keeps: CommonMark
    takes a space off each end of `  B  ` and mdformat writes ` B ` (no padding around
    blanks alone), then `B`. goalfile writes the form mdformat leaves, and reads a span
    written before (`  B  `) as it reads mdformat's rewrite of it, for every blank B."""
    for text in (f" {blank} ", f"  {blank}{blank} ", f"\t{blank} ", f" {blank} a "):
        span = ledger.code_span(text)
        table = "\n".join(ledger.table_lines(["id", "evidence"], [["C1", span]])) + "\n"
        assert formatted_text(table) == table, repr(text)
        assert ledger.unquote(span) == inline_code_content(span)
    old = f"`  {blank}  `"  # what goalfile wrote for ` B ` before
    lines = ["### Iteration 1 (2026-12-01) by verify-goal", "", "| id | evidence |", "|---|---|"]
    source = "\n".join([*lines, f"| C1 | {old} |"]) + "\n"
    rewritten = formatted_text(source)
    assert f"| C1  | ` {blank} `" in rewritten  # what mdformat makes of it
    assert ledger.unquote(old) == blank == ledger.unquote(f"` {blank} `")
    assert ledger.meaning_lines(source.splitlines()) == ledger.meaning_lines(rewritten.splitlines())


def test_a_ledger_span_of_blanks_reads_the_same_after_mdformat(tmp_path: Path) -> None:
    """A verdict row whose evidence is a span of blanks alone, as goalfile wrote it before
    (`  U+3000  `), run through mdformat (` U+3000 `): status, lint, verify and audit against
    the unformatted commit read the goal as before (audit found the entry rewritten)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    made = run_goalfile(
        "new", "demo", "it prints", "--check", "printf 'ok\\n'", "--expected",
        'exit 0; stdout contains "ok"', "--non-goal", "n", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    for step in (("activate",), ("verify",)):
        done = run_goalfile(*step, "goals/demo.md", cwd=repo)
        assert done.returncode == 0, done.stderr
    path = repo / "goals" / "demo.md"
    text = path.read_text(encoding="utf-8")
    found = re.search(r"(?m)^\| C1 +\| met .*\| `ok` +\|$", text)
    assert found is not None, text
    path.write_text(text.replace(found[0], found[0].replace("`ok`", "`  \u3000  `")), "utf-8")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "verified")

    def read() -> tuple[object, ...]:
        status = run_goalfile("status", "--json", "goals/demo.md", cwd=repo)
        (goal,) = json.loads(status.stdout)["goals"]
        return goal["criteria"], results(repo, "goals/demo.md")

    before = read()
    mdformat_files(repo, "goals/demo.md")
    assert "| ` \u3000 ` " in path.read_text(encoding="utf-8")
    assert read() == before
    assert before[0] == [
        {"id": "C1", "kind": "deterministic", "verdict": "met", "evidence": "\u3000"}
    ]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(texts, min_size=1, max_size=4))
def test_an_excerpt_is_fenced_as_mdformat_writes_it(lines: list[str]) -> None:
    quoted = [f"    {ledger.clean_line(line, limit=1_000)}".rstrip() for line in lines]
    source = "\n".join(["label:", "", *ledger.fenced(quoted)]) + "\n"
    assert formatted_text(source) == source


@pytest.mark.parametrize(
    "text",
    [
        "see https://example.com/a_b?x=1 for why",
        "mail ops@example.com, or www.example.org",
        "snake_case, __init__, *args and [x] in a reason",
    ],
)
def test_links_and_words_in_goalfile_text_are_kept(text: str) -> None:
    paragraph = f"reason: {ledger.md_text(text, before=' ')}\n"
    assert formatted_text(paragraph) == paragraph
    assert shown(paragraph) == f"reason: {text}"


def test_an_approval_formatted_by_mdformat_is_still_read(tmp_path: Path) -> None:
    """An approval entry whose table mdformat padded (`| id  | kind ...`, `| --- |`) and whose
    non-goals list it set off with a blank line still records the approved rows: a re-approval
    shows what changed, and a loosening of a formatted approval is still refused."""
    repo = tmp_path / "repo"
    (repo / "goals").mkdir(parents=True)
    git(repo, "init", "-q")
    shutil.copyfile(REPO / "examples" / "hello.md", repo / "goals" / "g.md")
    text = (repo / "goals" / "g.md").read_text(encoding="utf-8")
    text = re.sub(r"(?s)\n## Iterations\n.*?(\n## |\Z)", r"\n## Iterations\n\1", text)
    text = re.sub(r"(?m)^status: \w+", "status: draft", text, count=1)
    text = re.sub(r"(?m)^contract: .*\n", "", text, count=1)
    (repo / "goals" / "g.md").write_text(text, encoding="utf-8")
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    mdformat_files(repo, "goals/g.md")
    formatted = (repo / "goals" / "g.md").read_text(encoding="utf-8")
    assert "\n| --- |" in formatted and "\nnon-goals:\n\n- " in formatted
    row = re.search(r"(?m)^\| C1 .*$", formatted)
    assert row is not None
    tightened = row[0].replace("exit 0", 'exit 0; stdout lacks "zzz"', 1)
    assert tightened != row[0]
    (repo / "goals" / "g.md").write_text(formatted.replace(row[0], tightened), encoding="utf-8")
    done = run_goalfile("activate", "--reapprove", "goals/g.md", "--reason", "r", cwd=repo)
    assert done.returncode == 0, done.stderr
    after = (repo / "goals" / "g.md").read_text(encoding="utf-8")
    assert "were not recorded in the ledger" not in after
    assert "clause added" in after


def test_the_budget_fix_works_on_a_limit_mdformat_frontmatter_emptied(tmp_path: Path) -> None:
    """mdformat-frontmatter writes `tokens: null  # null = unbounded` as `tokens:       # null
    = unbounded` (ruamel.yaml drops the null and keeps the comment's column). A limit lifted by
    hand so, then formatted, is named with a fix that sets the approved limit back; run as
    written, that fix gives a line YAML reads as the limit, not the string `5000# null ...`."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    new = ["new", "g", "a exists", "--check", "test -f a", "--expected", "exit 0"]
    assert run_goalfile(*new, "--tokens", "5000", "--activate", cwd=repo).returncode == 0
    path = repo / "goals" / "g.md"
    text = path.read_text(encoding="utf-8")
    assert "\n  tokens: 5000  # null = unbounded\n" in text, text
    path.write_text(text.replace("tokens: 5000  #", "tokens: null  #", 1), encoding="utf-8")
    mdformat_files(repo, "goals/g.md")
    assert "\n  tokens:       # null = unbounded\n" in path.read_text(encoding="utf-8")
    lint = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert "budget.tokens is unbounded, but the ledger records 5000" in lint.stderr, lint.stderr
    [fix] = re.findall(r"fix: `([^`]+)`", lint.stderr)
    assert shell(fix, repo).returncode == 0, fix
    assert "\n  tokens: 5000 # null = unbounded\n" in path.read_text(encoding="utf-8")
    after = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert (after.returncode, after.stdout, after.stderr) == (0, "goals/g.md: ok\n", "")


# --------------------------------------------------------------------------- verify on a clean file

AWKWARD = r"""case "$1" in
pipes) printf 'a | b | c\n| C9 | met | `x` | 0 | `y` |\n' ;;
ticks) printf 'tick ``` run ```` x `` y\n```\n`\n' ;;
tabs) printf 'a\tb\t\tc 中文 😀 é ｗｉｄｅ x\314\210\n' ;;
long) head -c 5000 /dev/zero | tr '\0' x; printf ' end\n' ;;
empty) ;;
markup) printf '*bold* _it_ <b> &amp; [x](y) ~~s~~ \\back # not a heading\n' ;;
both) printf 'out 中文\n'; printf 'err | `e`\n' >&2 ;;
esac
"""


def mdformat_check(repo: Path, path: str) -> tuple[int, str]:
    """`mdformat --check PATH`: its exit code and what it wrote to stderr. Its own command line
    (``mdformat._cli.run``: the plugins, options and comparison a process would use) runs here,
    in this process: a process of its own for each of the many checks cost 0.2 CPU-seconds
    apiece. The files themselves are formatted by real processes (:func:`mdformat_files`)."""
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        code = mdformat._cli.run(["--check", str(repo / path)], cache_toml=False)
    return code, said.getvalue()


def clean_goal(repo: Path, rows: list[tuple[str, str, str, str]]) -> str:
    """A goal file under goals/, formatted by the real mdformat, committed; its path."""
    (repo / "goals").mkdir(parents=True, exist_ok=True)
    (repo / "docs").mkdir(exist_ok=True)
    (repo / "docs" / "a.md").write_text("The flow is *described* here.\n", encoding="utf-8")
    (repo / "out.sh").write_text(AWKWARD, encoding="utf-8")
    path = "goals/g.md"
    (repo / path).write_text(goal_text(slug="g", rows=rows, lessons="- keep"), encoding="utf-8")
    git(repo, "init", "-q")
    assert mdformat_check(repo, path)[0] == 1  # the check sees a file mdformat would change
    mdformat_files(repo, path)
    assert mdformat_check(repo, path)[0] == 0
    return path


AWKWARD_ROWS = [
    # (`&lt;y>`, not `<y>`: a raw HTML tag outside a code span is a lint error)
    row("C1", "sh out.sh pipes", 'exit 0; stdout contains "zz*_[x] \\| &lt;y> &amp; `t`"'),
    row("C2", "sh out.sh ticks; exit 1", "exit 0"),
    row("C3", "sh out.sh tabs; exit 1", "exit 0; stdout matches /^中文 \\| [*_]+$/"),
    row("C4", "sh out.sh long; exit 1", "exit 0"),
    row("C5", "sh out.sh empty; exit 1", "exit 0"),
    # (in a code span: outside one, GitHub shows `s` struck out, a lint error)
    row("C6", "sh out.sh markup", '`exit 0; stdout lacks "~~s~~"`'),
    row("C7", "sh out.sh both", 'exit 0; stdout contains "中文"'),
    row("C8", "sh out.sh tabs", 'exit 0; output contains "😀"'),
    ("R1", "docs/a.md", "the flow is described", "review"),
]


def test_verify_on_an_mdformat_clean_file_leaves_it_clean(tmp_path: Path) -> None:
    """Checks that print pipes, backtick runs, tabs, wide and combining characters, a line of
    5,000 characters, nothing at all, and Markdown markup: the entry verify appends is already
    what mdformat writes, twice in a row, and reads back with the same verdicts."""
    repo = tmp_path / "repo"
    path = clean_goal(repo, AWKWARD_ROWS)
    for run in (1, 2):
        done = run_goalfile("verify", path, cwd=repo)
        assert done.returncode == 1, done.stderr
        summary = done.stdout.rstrip("\n").rsplit("\n", 1)[-1]
        assert summary == (
            "verify-goal g iteration 1: C1 unmet, C2 unmet, C3 unmet, C4 unmet, C5 unmet, "
            "C6 unmet, C7 met, C8 met, R1 unmet; status: active"
        )
        checked = mdformat_check(repo, path)
        assert checked[0] == 0, (run, checked[1], (repo / path).read_text())
    text = (repo / path).read_text(encoding="utf-8")
    # the excerpt's fence is longer than the longest backtick run inside (four)
    assert "\n`````text\n    tick ``` run ```` x `` y\n    ```\n    `\n`````\n" in text
    status = json.loads(run_goalfile("status", "--json", path, cwd=repo).stdout)
    (goal,) = status["goals"]
    evidence = {r["id"]: r["evidence"] for r in goal["criteria"]}
    assert evidence["C1"] == "| C9 | met | `x` | 0 | `y` |"  # output, read back as printed
    assert evidence["C5"] == "exit 0 expected, got 1 (no output)"  # goalfile's own words
    assert [(r["id"], r["verdict"]) for r in goal["criteria"]] == [
        ("C1", "unmet"), ("C2", "unmet"), ("C3", "unmet"), ("C4", "unmet"), ("C5", "unmet"),
        ("C6", "unmet"), ("C7", "met"), ("C8", "met"), ("R1", "unmet"),
    ]  # fmt: skip
    assert run_goalfile("lint", path, cwd=repo).returncode == 0
    assert run_goalfile("audit", path, cwd=repo).returncode == 0


# ------------------------------------------------------------------ every command that writes

MARKUP = "*not* _emphasis_ [x](y) <b> &amp; `tick` ~~s~~ a\\b snake_case 中文"


def test_every_writing_command_keeps_an_mdformat_clean_file_clean(tmp_path: Path) -> None:
    """On a goal file that passes `mdformat --check`, each command that writes leaves it
    passing, with reasons, lessons and quotes that hold Markdown markup and wide characters,
    and each text reads back as it was given."""
    repo = tmp_path / "repo"
    rows = [
        row("C1", "true", "exit 0"),
        row("C2", "sh out.sh markup; exit 1", '`exit 0; stdout lacks "~~s~~"`'),
        row("C3", "sh out.sh ticks", "exit 0"),
        ("R1", "docs/a.md", "the flow is described", "review"),
    ]
    path = clean_goal(repo, rows)
    text = (repo / path).read_text(encoding="utf-8")
    text = text.replace("status: active ", "status: draft  ").replace(
        "## Plan\n",
        "## Plan\n\n| step | change | files | serves | check |\n| --- | --- | --- | --- | --- |\n"
        "| 1 | make it so | out.sh | C1, C2, C3, R1 | `sh out.sh` |\n",
    )
    (repo / path).write_text(text, encoding="utf-8")
    mdformat_files(repo, path)
    assert mdformat_check(repo, path)[0] == 0

    def step(*args: str, codes: tuple[int, ...] = (0,)) -> None:
        done = run_goalfile(*args, cwd=repo)
        assert done.returncode in codes, (args, done.stdout, done.stderr)
        checked = mdformat_check(repo, path)
        assert checked[0] == 0, (args, checked[1], (repo / path).read_text(encoding="utf-8"))

    step("activate", path)
    step("plan", path, codes=(0, 1))
    step("verify", path, codes=(1,))
    review = ("review", path, "R1", "--artifact", "docs/a.md")
    step(*review, "--verdict", "unmet", "--reason", MARKUP)
    step(*review, "--quote", "flow is", "--verdict", "met")
    transcript = tmp_path / "session.jsonl"  # a host session: the token accounting table
    shutil.copyfile(DATA / "transcripts" / "claude-session-a.jsonl", transcript)
    step("verify", path, "--transcript", str(transcript), codes=(1,))
    step("refine", path, "--lesson", MARKUP)
    step("block", path, "--reason", MARKUP, "--tried", MARKUP, "--tried", "- [ ] a_b_")
    step("resume", path, "--resolved", MARKUP)
    step("pause", path, "--reason", MARKUP)
    step("resume", path)
    step("pause", path)
    step("reopen", path, "--reason", MARKUP)
    step("impossible", path, "C3", "--reason", MARKUP)
    step("budget", path, "--iterations", "9")
    # a person adds a row, and formats the file as their hook would; then re-approves
    text = (repo / path).read_text(encoding="utf-8")
    r1 = re.search(r"(?m)^\| R1 .*$", text)
    assert r1 is not None
    (repo / path).write_text(
        text.replace(r1[0], f"| C4 | more | `true` | exit 0 | deterministic |\n{r1[0]}"),
        encoding="utf-8",
    )
    mdformat_files(repo, path)
    step("activate", "--reapprove", path, "--reason", MARKUP)
    step("verify", path, codes=(1,))
    # the Stop hook writes a verify entry and the next iteration's
    stop = json.dumps({"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop"})
    hooked = run_goalfile("hook", "stop", "--goal", path, cwd=repo, input=stop)
    assert hooked.returncode == 0 and '"decision": "block"' in hooked.stdout, hooked
    checked = mdformat_check(repo, path)
    assert checked[0] == 0, ("hook", checked[1], (repo / path).read_text(encoding="utf-8"))

    # each text reads back as given, and the ledger reads as before
    done = run_goalfile("log", "--json", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    text = (repo / path).read_text(encoding="utf-8")
    assert "\n- \\*not\\* \\_emphasis\\_ " in text  # the lesson, in `## Lessons`, as given
    assert run_goalfile("lint", path, cwd=repo).returncode == 0
    audit = run_goalfile("audit", path, cwd=repo)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "\n## Token accounting\n\n| session " in text
    status = json.loads(run_goalfile("status", "--json", path, cwd=repo).stdout)
    (goal,) = status["goals"]
    assert goal["impossible"] == {"C3": " ".join(MARKUP.split())}


def test_lint_fix_keeps_a_padded_criteria_table_padded(tmp_path: Path) -> None:
    """`lint --fix` rewrites `exits 0` and `empty` in a table mdformat padded: the table is
    padded again (`output empty` is longer than any cell of its column was, so the column
    widens in every row), the file still passes `mdformat --check`, and it lints clean."""
    repo = tmp_path / "repo"
    rows = [row("C1", "true", "exits 0"), row("C2", "true", "empty")]
    path = clean_goal(repo, rows)
    before = (repo / path).read_text(encoding="utf-8")
    assert "| C2 " in before
    fixed = run_goalfile("lint", "--fix", path, cwd=repo)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    after = (repo / path).read_text(encoding="utf-8")
    assert after != before
    assert re.search(r"(?m)^\| C2 .*\| output empty \|", after), after
    checked = mdformat_check(repo, path)
    assert checked[0] == 0, checked[1] + "\n" + after
    assert run_goalfile("lint", path, cwd=repo).returncode == 0
    # only the criteria table changed: the lines above and below it are byte for byte the same
    table = [n for n, line in enumerate(after.split("\n")) if line.startswith("| ")]
    old, new = before.split("\n"), after.split("\n")
    assert old[: table[0]] == new[: table[0]] and old[table[-1] + 1 :] == new[table[-1] + 1 :]


def test_lint_fix_leaves_the_other_rows_of_an_unpadded_table_alone(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "goals").mkdir(parents=True)
    git(repo, "init", "-q")
    text = goal_text(slug="g", rows=[row("C1", "true", "exits 0"), row("C2", "true", "exit 0")])
    (repo / "goals" / "g.md").write_text(text, encoding="utf-8")
    fixed = run_goalfile("lint", "--fix", "goals/g.md", cwd=repo)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    old, new = text.split("\n"), (repo / "goals" / "g.md").read_text(encoding="utf-8").split("\n")
    changed = [n for n in range(len(old)) if old[n] != new[n]]
    assert len(old) == len(new) and len(changed) == 1 and "exit 0" in new[changed[0]]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts.map(lambda t: ledger.clean_line(t, limit=1_000)))
def test_a_text_cell_reads_back_as_markdown_it_shows_it(text: str) -> None:
    """A row's id or exit cell as goalfile writes it and reads it back: the reader (escapes and
    code spans, left to right) agrees with markdown-it's own reading of the table cell."""
    cell = ledger.text_cell(text)
    table = f"| id | x |\n| --- | --- |\n| {cell} | x |\n"
    seen = shown(table).rsplit("\n", 2)[-2]  # the body row's first cell; its second is `x`
    assert ledger.shown_text(cell.replace("\\|", "|")) == seen
