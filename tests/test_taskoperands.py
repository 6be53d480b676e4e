"""goalfile.commands.taskoperands on the files a task runner reads, as text (the real tox,
nox and npm run in tests/test_operands_pluggy.py, tests/test_nox_sessions.py and
tests/test_yarn_pnpm.py)."""

from __future__ import annotations

from pathlib import Path

from goalfile.commands.taskoperands import undefined


def test_a_nox_given_another_noxfile_with_its_value_attached_is_left_alone(
    tmp_path: Path,
) -> None:
    """`nox -fother.py -s x` (the short option's value attached, as nox's parser takes it) was
    read as a nox of this folder's noxfile.py: "there is no noxfile.py", or "defines no session
    `x`" from a noxfile nox does not load. `-f other.py` and `--noxfile=other.py` were left
    alone already."""
    (tmp_path / "other.py").write_text("import nox\n", encoding="utf-8")
    for noxfile in (False, True):
        if noxfile:
            (tmp_path / "noxfile.py").write_text(
                "import nox\n\n\n@nox.session\ndef tests(session):\n    pass\n", encoding="utf-8"
            )
        for words in (["nox", "-fother.py", "-s", "x"], ["nox", "-P3.13", "-s", "x"]):
            assert undefined(words, tmp_path) is None, (noxfile, words)
        assert undefined(["nox", "-s", "x"], tmp_path) is not None, noxfile
