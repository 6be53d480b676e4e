"""Whether the program each new check starts can be found where the checks will run.

`goalfile new --check "pytset -q"` wrote and approved a check whose first verify could only
end `error` (127, command not found), blocking the goal, and correcting it then needs a
re-approval. Before that, `new` asks the goal's own shell, in the folder the checks run in,
`command -v` of the first word of each check (after any `NAME=value` words), and of each
command after it in an `&&` list or in the TEXT of `sh -c TEXT` (`cd docs && mkae html` exits 127
just the same: :mod:`goalfile.commands.shellparts`), and names the first one it does not know: a
note, not a refusal, since a tool may be installed later.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from goalfile.run import probe

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def program(command: str) -> str | None:
    """The first word the shell would run as a program; None when it cannot be told without
    the shell (an expansion, a quote that does not close)."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return None
    for word in words:
        if _ASSIGNMENT.match(word):
            continue
        if not word or any(char in word for char in "$`*?[(){}<>|;&!~"):
            return None
        return word
    return None


def programs(command: str, cwd: Path) -> list[str]:
    """The programs the simple commands of ``command`` run, in order, as far as they can be
    told without the shell; a relative path after a `cd` is left out (it names a file of
    another folder)."""
    from goalfile.commands.shellparts import parts

    split = parts(command, cwd)
    if split is None:
        first = program(command)
        return [] if first is None else [first]
    found: list[str] = []
    for part in split:
        word = next((w for w in part.words if not _ASSIGNMENT.match(w)), None)
        if word is None or part.gone_folder is not None or (part.moved and "/" in word):
            continue
        if word and not any(char in word for char in "$`*?[(){}<>|;&!~"):
            found.append(word)
    return found


def unknown(
    checks: Sequence[tuple[str, str]], *, shell: str, cwd: Path, env: Mapping[str, str]
) -> dict[str, str]:
    """Of ``(id, command)`` pairs, the ids whose program ``shell`` (run in ``cwd`` with
    ``env``) cannot find, each with that program; a shell that cannot be run tells nothing
    (empty)."""
    named = {cid: found for cid, command in checks if (found := programs(command, cwd))}
    if not named:
        return {}
    asked = dict.fromkeys(word for found in named.values() for word in found)
    words = " ".join(shlex.quote(word) for word in asked)
    script = f'for word in {words}; do command -v -- "$word" >/dev/null 2>&1 || echo "$word"; done'
    answered = probe(shell=shell, command=script, cwd=str(cwd), env=env)
    if answered is None:
        return {}
    missing = set(answered[1].decode("utf-8", "surrogateescape").splitlines())
    gone = {cid: next((w for w in found if w in missing), None) for cid, found in named.items()}
    return {cid: word for cid, word in gone.items() if word is not None}
