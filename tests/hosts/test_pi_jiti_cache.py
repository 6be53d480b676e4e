"""A file written into jiti's cache does not replace goalfile's pi extension.

pi 0.73.1 loads extensions with jiti 2.7.0, which keeps what it transpiles in a file cache:
``$TMPDIR/jiti`` (``/tmp/jiti`` without ``TMPDIR``), one file per source, named after the
source's folder and name and the md5 of its path, and used whenever it ends with a comment that
holds the md5 of the source text. Every part of that name and comment can be computed by any
process of the user who runs pi, such as a shell command of the agent's, so a file written
there before pi starts is what pi runs instead of the extension (the tool's own output, no
goal gate). goalfile's extension is an ES module (``.mjs``), which jiti imports natively, with
no transpile and so no cache.

The first test writes every cache entry jiti could read for every file under
``.pi/extensions/`` (:func:`poison`), as the agent's shell could, then starts the real pi. A
second extension of the test's own, ``probe.ts``, which jiti transpiles, shows that the entries
are the ones pi reads: its poisoned entry runs in its place. goalfile's extension still holds
the agent until the goal is met.

The second shows the limit: in a project whose path holds ``#`` (or ``?``, ``%``), Node cannot
import the module by the path jiti gives it, and jiti transpiles and caches it after all; the
written entry replaces goalfile's extension, and `goalfile doctor` names the entry.

The third: a ``.pi/extensions/goalfile.ts`` left from an earlier goalfile is still loaded
through the cache; after the real pi wrote its entry there, `goalfile doctor` names the file and
the entry, and its fix, run as written, removes both.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from conftest import git, run_goalfile
from fake_chat import ChatServer
from fake_model import fix_after_feedback
from host_install import install_cli
from host_run import HostRun
from host_run_more import PI, run_pi_rpc
from hosts_fixtures import FIX, PROMPT, Isolation, goal_repo, goal_state, start_server
from hosts_fixtures import isolation as isolation

from goalfile.pi_extension import EXTENSION, FORMER

JITI_CACHE_VERSION = "9"  # jiti 2.7.0's CACHE_VERSION
SOURCES = (".ts", ".js", ".mjs", ".cjs", ".mts", ".cts", ".tsx", ".jsx")


def _md5(text: str) -> str:
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def cache_names(source: Path) -> list[str]:
    """Every name jiti 2.7.0 (``getCache``) gives the cache entry of ``source``: with or
    without source maps and default interop, for its ES module and CommonJS output."""
    stem = source.name[: source.name.rfind(".")] if source.name.rfind(".") > 0 else source.name
    key = _md5(str(source))[:8]
    return [
        f"{source.parent.name}-{stem}{maps}{interop}.{key}.{kind}"
        for maps in ("", "+map")
        for interop in ("", ".i")
        for kind in ("mjs", "cjs")
    ]


def poison(extensions: Path, cache: Path, log: Path) -> list[Path]:
    """Write, for every source file under ``extensions``, each cache entry jiti could read for
    it: a module that notes its own name in ``log`` and does nothing else."""
    cache.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sorted(extensions.resolve().rglob("*")):
        if not source.is_file() or source.suffix not in SOURCES:
            continue
        tag = _md5(source.read_text(encoding="utf-8"))[:16]
        body = (
            '"use strict";Object.defineProperty(exports, "__esModule", { value: true });'
            "exports.default = function () {};"
            f'require("node:fs").appendFileSync({json.dumps(str(log))}, '
            '"poisoned " + __filename + "\\n");'
        )
        for name in cache_names(source):
            entry = cache / name
            entry.write_text(f"{body} /* v{JITI_CACHE_VERSION}-{tag} */\n", encoding="utf-8")
            written.append(entry)
    return written


def pi_session(
    repo: Path, home: Path, tmpdir: Path, isolation: Isolation
) -> tuple[ChatServer, HostRun]:
    """The real pi in RPC mode in ``repo``, jiti's cache under ``tmpdir``, its model meeting
    the goal once a Stop hook's reason says it is unmet; the run must end with exit 0."""
    with start_server(ChatServer, fix_after_feedback(FIX), isolation) as server:
        run = run_pi_rpc(
            install_cli(PI),
            repo=repo,
            home=home,
            server_url=server.url,
            prompt=PROMPT,
            netns=isolation.netns,
            tmpdir=tmpdir,
        )
    assert isinstance(server, ChatServer)
    assert run.returncode == 0, run.explain()
    return server, run


PROBE = """import {{ appendFileSync }} from "node:fs";

export default function probe(_pi: unknown): void {{
  appendFileSync({log}, "real " + __filename + "\\n");
}}
"""


def test_a_poisoned_jiti_cache_entry_does_not_replace_goalfiles_extension(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    log = tmp_path / "loaded.log"
    extensions = repo / ".pi" / "extensions"
    probe = extensions / "probe.ts"
    probe.write_text(PROBE.format(log=json.dumps(str(log))), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal, hosts and a probe extension")
    tmpdir = tmp_path / "tmp"
    written = poison(extensions, tmpdir / "jiti", log)
    assert written, "nothing under .pi/extensions to poison"

    server, run = pi_session(repo, tmp_path / "home", tmpdir, isolation)
    loaded = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    # the entries are the ones pi reads: the probe's poisoned entry ran instead of the probe
    assert f"poisoned {probe.resolve()}" in loaded, loaded
    # goalfile's extension was not replaced: it held the agent until the goal was met
    assert (server.stops(), len(server.feedbacks())) == (2, 1), (loaded, run.explain())
    assert goal_state(repo)["status"] == "met"
    assert loaded == [f"poisoned {probe.resolve()}"], loaded
    # and jiti wrote no entry of its own: goalfile's module went through no cache
    assert sorted((tmpdir / "jiti").iterdir()) == sorted(written)


def test_in_a_path_node_reads_as_a_url_the_module_is_cached_and_doctor_names_the_entry(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path / "work#1")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal and hosts")
    log = tmp_path / "loaded.log"
    tmpdir = tmp_path / "tmp"
    written = poison(repo / ".pi" / "extensions", tmpdir / "jiti", log)
    module = (repo / EXTENSION).resolve()
    server, run = pi_session(repo, repo.parent / "home", tmpdir, isolation)
    # the written entry ran instead of goalfile's module: nothing held the agent
    assert log.read_text(encoding="utf-8").splitlines() == [f"poisoned {module}"]
    assert (server.stops(), server.feedbacks()) == (1, []), run.explain()
    assert goal_state(repo)["status"] == "active"

    env = {"HOME": str(repo.parent / "home"), "TMPDIR": str(tmpdir)}
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    (found,) = [f for f in json.loads(done.stdout)["findings"] if f["check"] == "extension-cache"]
    assert found["health"] == "problem" and found["fix"] is None
    ours = [e for e in written if e.name.startswith("goalfile-goalfile")]
    assert len(ours) == 8 and all(str(e) in found["detail"] for e in ours), found


def test_doctor_names_the_cache_entry_pi_runs_for_a_former_goalfile_ts(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    log = tmp_path / "loaded.log"
    former = repo / FORMER
    former.write_text(PROBE.format(log=json.dumps(str(log))), encoding="utf-8")
    tmpdir = tmp_path / "tmp"
    pi_session(repo, tmp_path / "home", tmpdir, isolation)
    assert log.read_text(encoding="utf-8").splitlines() == [f"real {former.resolve()}"]
    # the real pi transpiled it and wrote its entry: the one an agent could have written
    (entry,) = (tmpdir / "jiti").iterdir()
    assert entry.name in cache_names(former.resolve())

    env = {"HOME": str(tmp_path / "home"), "TMPDIR": str(tmpdir)}
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    findings = json.loads(done.stdout)["findings"]
    (found,) = [f for f in findings if f["check"] == "former-extension"]
    assert found["health"] == "problem"
    assert found["detail"].startswith(
        ".pi/extensions/goalfile.ts: where goalfile's extension was, a file goalfile did not ship;"
    )
    assert found["detail"].endswith(f"pi would run {entry} in its place")
    assert found["fix"] == f"rm -- .pi/extensions/goalfile.ts {entry}"
    subprocess.run(["sh", "-c", found["fix"]], cwd=repo, check=True)
    assert not former.exists() and not entry.exists()
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    findings = json.loads(done.stdout)["findings"]  # (the extension is not committed: aside)
    assert [f["check"] for f in findings if f["host"] == "pi" and f["check"] != "commit"] == [
        "extension"
    ]
