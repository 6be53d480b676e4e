"""`audit --format markdown` (the job summary docs/ci.md writes) shows every goal and finding,
whatever the goal files are named: a name holding a line `<!--` and a later one holding `-->`
made an HTML comment of the rows and findings between them. Real goalfile and git processes in
a real repository; markdown-it (goalfile's own dependency) stands for GitHub's rendering."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import git, make_git_repo, run_goalfile
from markdown_it import MarkdownIt


def shown(markdown: str) -> str:
    """The text a reader sees: comments dropped, tags gone, whitespace collapsed."""
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    visible = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", visible).split())


def test_names_with_line_breaks_hide_nothing_in_the_markdown_audit(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "r")
    made = run_goalfile("new", "real", "x", "--check", "false", "--expected", "exit 0",
                        "--activate", cwd=repo)  # fmt: skip
    assert made.returncode == 0, made.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "branch", "base")
    git(repo, "checkout", "-qb", "pr")
    real = repo / "goals" / "real.md"
    real.write_text(real.read_text("utf-8").replace("status: active", "status: met", 1), "utf-8")
    for slug, name in (("aa", "a\n<!--\n.md"), ("zz", "zz\n-->\n.md")):
        made = run_goalfile("new", slug, "x", "--check", "true", "--expected", "exit 0",
                            "--activate", cwd=repo)  # fmt: skip
        assert made.returncode == 0, made.stderr
        (repo / "goals" / f"{slug}.md").rename(repo / "goals" / name)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "pr")

    done = run_goalfile("audit", "--against", "base", "--format", "markdown", cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr
    text = shown(done.stdout)
    assert "goals/real.md 2 findings" in text, text
    assert "status-hand-edited" in text and "met-without-verify" in text, text
    # each name on one line, its line breaks shown as escapes
    assert "goals/a\\n&lt;!--\\n.md clean" in text and "goals/zz\\n--&gt;\\n.md clean" in text
    assert "<!--\n" not in done.stdout and "\n-->" not in done.stdout


def test_the_approved_rows_note_shows_the_expected_as_code_not_as_markup(tmp_path: Path) -> None:
    """A goal new since the base is noted with the rows its approval approved: the `expected`
    was written bare into the job summary, so `stdout lacks "**FAILED**"` (a code span in the
    goal file) read there as `lacks "FAILED"` in bold, while the log held `3 FAILED` and the
    goal was met, the audit clean."""
    import cmarkgfm

    repo = make_git_repo(tmp_path / "r")
    git(repo, "commit", "-q", "--allow-empty", "-m", "base")
    git(repo, "branch", "base")
    git(repo, "checkout", "-qb", "pr")
    expected = 'exit 0; stdout lacks "**FAILED**"'
    made = run_goalfile("new", "g", "x", "--check", "cat log.txt", "--expected", expected,
                        "--activate", cwd=repo)  # fmt: skip
    assert made.returncode == 0, made.stderr
    (repo / "log.txt").write_text("3 FAILED\n", encoding="utf-8")
    assert run_goalfile("verify", "goals/g.md", cwd=repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "pr")

    done = run_goalfile("audit", "--against", "base", "--format", "markdown", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    page = cmarkgfm.github_flavored_markdown_to_html(done.stdout)
    assert "<strong>" not in page, page
    assert "<code>exit 0; stdout lacks &quot;**FAILED**&quot;</code>" in page, page


def test_a_pipe_in_a_check_shows_as_it_runs_in_the_markdown_audit(tmp_path: Path) -> None:
    """The job summary escaped every `|` of a note or finding as `\\|`, as for a table cell,
    but these are list items: inside a code span the backslash shows. The note's approved row
    `pytest -q || true` (exit 0 whatever pytest says) read on GitHub as `pytest -q \\|\\| true`,
    to a shell reader two literal arguments for pytest, whose own status is judged; so did the
    contract change that re-approved it. GitHub's renderer (cmark-gfm) now shows each command
    as it runs."""
    import cmarkgfm

    repo = make_git_repo(tmp_path / "r")
    made = run_goalfile("new", "old", "x", "--check", "python3 -m pytest -q", "--expected",
                        "exit 0", "--activate", cwd=repo)  # fmt: skip
    assert made.returncode == 0, made.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "branch", "base")
    git(repo, "checkout", "-qb", "pr")
    old = repo / "goals" / "old.md"
    old.write_text(old.read_text("utf-8").replace("`python3 -m pytest -q`", "`ls \\| wc -l`", 2))
    done = run_goalfile("activate", "--reapprove", "goals/old.md", "--reason", "r", cwd=repo)
    assert done.returncode == 0, done.stderr
    made = run_goalfile("new", "g", "x", "--check", "pytest -q || true", "--expected", "exit 0",
                        "--activate", cwd=repo)  # fmt: skip
    assert made.returncode == 0, made.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "pr")

    done = run_goalfile("audit", "--against", "base", "--format", "markdown", cwd=repo)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    page = cmarkgfm.github_flavored_markdown_to_html(done.stdout)
    assert "<code>pytest -q || true</code>" in page, page
    assert "<code>ls | wc -l</code>" in page, page
    assert "\\|" not in page, page
