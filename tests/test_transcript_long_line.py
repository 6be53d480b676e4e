"""A transcript line too long for any host is skipped, in bounded memory.

An unterminated line was held whole and then joined: `truncate -s +64G` on the agent's own
transcript (a sparse file, no disk used) made every verify that reads it, the Stop hook's too,
take 64 GB of memory. The real `goalfile verify` reads real files here, under an address-space
limit that a reader holding the line would exceed.
"""

from __future__ import annotations

import json
import os
import resource
from pathlib import Path

from tests.conftest import git, run_goalfile

GOAL = "goals/t.md"
MEMORY = 1 << 30  # the address space goalfile may take: a fraction of the line below


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def usage_line(rid: str, tokens_in: int, tokens_out: int) -> bytes:
    usage = {"input_tokens": tokens_in, "output_tokens": tokens_out}
    line = {"type": "assistant", "message": {"id": rid, "usage": usage}, "requestId": "r" + rid}
    return json.dumps(line).encode() + b"\n"


def goal(repo: Path) -> Path:
    (repo / "test.sh").write_text("exit 1\n")
    git(repo, "add", "test.sh")
    git(repo, "commit", "-qm", "init")
    made = run_goalfile(
        "new", "t", "tests pass", "--check", "sh test.sh", "--expected", "exit 0",
        "--non-goal", "n", "--tokens", "2000000", "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return repo / GOAL


def latest(path: Path) -> str:
    """The `latest` cell of the goal's token accounting row."""
    text = path.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `s`"))
    return row.split("|")[5].strip()


def test_a_sparse_line_of_gigabytes_is_skipped_in_bounded_memory(repo: Path) -> None:
    path = goal(repo)
    transcript = repo / "s.jsonl"
    transcript.write_bytes(usage_line("m1", 10, 1))
    os.truncate(transcript, transcript.stat().st_size + 4 * MEMORY)  # NUL bytes, no newline
    done = run_goalfile(
        "verify", "--transcript", transcript, GOAL, cwd=repo, preexec_fn=limited, timeout=120
    )
    assert done.returncode == 1, done.stdout + done.stderr  # judged: C1 unmet, nothing else
    assert done.stdout.splitlines()[-1] == "verify-goal t iteration 0: C1 unmet; status: active"
    assert latest(path) == "11"


def test_lines_after_an_overlong_line_still_count(repo: Path) -> None:
    path = goal(repo)
    transcript = repo / "s.jsonl"
    with transcript.open("wb") as out:
        out.write(usage_line("m1", 10, 1))
        out.write(b"x" * (40 << 20) + b"\n")  # longer than any host writes: skipped
        out.write(b"\0" * (1 << 20))
        os.truncate(out.fileno(), out.tell() + MEMORY * 2)  # and one with a hole in it
        out.seek(0, os.SEEK_END)
        out.write(b"\n" + usage_line("m2", 20, 2))
    done = run_goalfile(
        "verify", "--transcript", transcript, GOAL, cwd=repo, preexec_fn=limited, timeout=120
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert latest(path) == "33"
