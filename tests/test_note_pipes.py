"""A code span goalfile writes outside a table and reads back (a review entry's artifact and
quote, an approval entry's run settings) shows its pipes as they are on GitHub: a `\\|` there is
no escape, and cmark-gfm shows the backslash (a quoted `ls | wc -l` read `ls \\| wc -l`, a
passage the artifact does not hold). Entries written before, with every `|` as `\\|`, read back
as they did."""

from __future__ import annotations

from pathlib import Path

import cmarkgfm
from hypothesis import example, given, settings
from hypothesis import strategies as st

from goalfile import contract, ledger
from goalfile.contract import Contract, ContractRow
from goalfile.model import Entry
from tests.conftest import make_git_repo, run_goalfile


def shown(markdown: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(markdown)


def reviewed(tmp_path: Path, artifact: str) -> Path:
    """A repository whose goal's review row R1 reads ``artifact``, reviewed met with the quote
    `ls | wc -l`: the goal file."""
    repo = make_git_repo(tmp_path / "r")
    (repo / artifact).write_text("Count them: ls | wc -l prints 3.\n", encoding="utf-8")
    made = run_goalfile(
        "new", "g", "x", "--review", f"{artifact}=the count", "--activate", cwd=repo
    )
    assert made.returncode == 0, made.stderr
    done = run_goalfile("review", "goals/g.md", "R1", "--artifact", artifact, "--quote",
                        "ls | wc -l", "--verdict", "met", "--reason", "r", cwd=repo)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return repo / "goals" / "g.md"


def test_a_reviews_quote_and_artifact_show_their_pipes_as_they_are(tmp_path: Path) -> None:
    goal = reviewed(tmp_path, "a|b.md")
    text = goal.read_text(encoding="utf-8")
    page = shown(text[text.index("by review") :])
    assert "<code>ls | wc -l</code>" in page, page
    assert "<code>a|b.md</code>" in page, page
    assert "\\|" not in page, page
    # and it reads back: verify counts the review, audit finds it clean
    verified = run_goalfile("verify", "goals/g.md", cwd=goal.parent.parent)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    audit = run_goalfile("audit", "goals/g.md", cwd=goal.parent.parent)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_a_review_entry_written_with_escaped_pipes_still_counts(tmp_path: Path) -> None:
    """The form goalfile wrote before: `quote: \\`ls \\\\| wc -l\\``."""
    goal = reviewed(tmp_path, "notes.md")
    text = goal.read_text(encoding="utf-8")
    assert text.count("quote: `ls | wc -l`") == 1
    goal.write_text(text.replace("quote: `ls | wc -l`", "quote: `ls \\| wc -l`"), "utf-8")
    verified = run_goalfile("verify", "goals/g.md", cwd=goal.parent.parent)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def _activate_entry(settings: tuple[tuple[str, str], ...]) -> list[str]:
    row = ContractRow(id="C1", check="true", expected="exit 0", kind="deterministic", timeout=None)
    approved = Contract(rows=(row,), non_goals=(), settings=settings)
    entry = Entry(
        iteration=0,
        date="2026-12-04",
        by="activate",
        notes=tuple(contract.approval_lines(approved)),
        contract=contract.short(approved.digest()),
    )
    return ledger.render_entry(entry)


def test_a_run_setting_shows_its_pipes_as_they_are_and_reads_back() -> None:
    settings = (("cwd", "a|b"), ("shell", "sh -c 'x || y'"))
    lines = _activate_entry(settings)
    page = shown("\n".join(lines))
    assert "<li>cwd: <code>a|b</code></li>" in page, page
    assert "<code>sh -c 'x || y'</code>" in page, page
    back = ledger.parse_entry(lines)
    assert back is not None
    found = contract.recorded(back)
    assert found is not None and found.settings == settings
    # the form written before (each `|` as `\|`) reads back the same
    old = [line.replace("a|b", "a\\|b").replace("x || y", "x \\|\\| y") for line in lines]
    assert old != lines
    back = ledger.parse_entry(old)
    assert back is not None
    found = contract.recorded(back)
    assert found is not None and found.settings == settings


TEXT = st.text(alphabet=st.sampled_from("a |\\`*_x"), min_size=1, max_size=12).filter(
    lambda t: t == t.strip()  # a note is read stripped
)


@settings(max_examples=300, deadline=None)
@given(text=TEXT)
@example(text="a \\| b")
@example(text="\\|")
@example(text="a || b")
def test_a_note_span_reads_back_and_shows_the_text(text: str) -> None:
    span = ledger.note_code(text)
    assert ledger.note_code_text(span) == text
    escaped = "|" in text and all(text[i - 1 : i] == "\\" for i, c in enumerate(text) if c == "|")
    if text and not escaped:  # shown with no backslash of goalfile's own
        page = shown(f"quote: {span}")
        code = page[page.index("<code>") + 6 : page.index("</code>")]
        assert (code.count("\\"), code.count("|")) == (text.count("\\"), text.count("|")), page
