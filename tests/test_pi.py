"""pi: the extension goalfile ships and installs, the hook's pi protocol, pi's session usage."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, REPO, goal_text, make_git_repo, row, run_goalfile, write_goal

from goalfile.pi_extension import EXTENSION, EXTENSION_DIR, FORMER, shipped_extension
from goalfile.usage import Host, read_usage
from goalfile.usage_hosts import PiTally

SESSION = DATA / "transcripts" / "pi-session-a.jsonl"
FORMER_SHIPPED = DATA / "legacy" / "pi-extension-goalfile.ts"  # the last .ts goalfile shipped


@pytest.fixture
def pi_repo(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "repo")
    (root / "goals").mkdir()
    text = goal_text(rows=[row("C1", "test -f done.txt", "exit 0")], extra=("stall_limit: 20",))
    write_goal(root / "goals", text)
    return root


def agent_end(repo: Path, *, active: bool = False) -> dict[str, object]:
    data = {
        "session_id": "01a23252-aa84-7707-b217-e4e0a41ef669",
        "transcript_path": str(SESSION),
        "cwd": str(repo),
        "hook_event_name": "agent_end",
        "stop_hook_active": active,
    }
    done = run_goalfile("hook", "stop", cwd=repo, input=json.dumps(data))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer


def test_the_session_file_is_read() -> None:
    usage = read_usage(SESSION)
    assert usage.host is Host.PI
    assert usage.session_id == "01a23252-aa84-7707-b217-e4e0a41ef669"
    assert usage.tokens == 3438


def test_tally_counts_each_entry_once_and_never_cache_reads() -> None:
    tally = PiTally()
    tally.feed({"type": "session", "version": 3, "id": "s", "cwd": "/x"})
    usage = {"input": 10, "output": 5, "cacheRead": 999, "cacheWrite": 3, "totalTokens": 1017}
    entry = {"type": "message", "id": "e1", "message": {"role": "assistant", "usage": usage}}
    tally.feed(entry)
    tally.feed(entry)
    tally.feed({"type": "message", "id": "u1", "message": {"role": "user", "content": "hi"}})
    assert (tally.session_id, tally.tokens) == ("s", 18)


def test_the_hook_answers_in_the_extensions_protocol(pi_repo: Path) -> None:
    answer = agent_end(pi_repo)
    assert answer["decision"] == "block"
    assert str(answer["reason"]).startswith("verify-goal demo iteration ")
    text = (pi_repo / "goals" / "demo.md").read_text()
    assert re.search(r"\| pi +\|", text), "the session's usage is accounted"
    (pi_repo / "done.txt").write_text("")
    answer = agent_end(pi_repo, active=True)
    assert "decision" not in answer
    assert "status: met" in str(answer["systemMessage"])


def test_init_installs_the_shipped_extension_once(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    first = run_goalfile("init", "--no-goal", cwd=repo)
    assert first.returncode == 0, first.stderr
    installed = repo / EXTENSION
    assert installed.read_text() == shipped_extension()
    shipped = REPO / "extensions" / "pi" / "goalfile"
    assert shipped_extension() == (shipped / "goalfile.mjs").read_text()
    # pi loads the folder's module through the package.json that names it
    manifest = json.loads((repo / EXTENSION_DIR / "package.json").read_text())
    assert manifest["pi"] == {"extensions": ["./goalfile.mjs"]}
    assert sorted(p.name for p in (repo / EXTENSION_DIR).iterdir()) == [
        "goalfile.mjs",
        "package.json",
    ]
    second = run_goalfile("init", "--no-goal", "--json", cwd=repo)
    assert json.loads(second.stdout)["pi_extension"]["changed"] is False


def test_an_edited_extension_is_kept_and_the_fix_works(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    installed = repo / EXTENSION
    installed.parent.mkdir(parents=True)
    installed.write_text("// mine\n")
    done = run_goalfile("init", "--no-goal", cwd=repo)
    assert done.returncode == 0
    assert installed.read_text() == "// mine\n"
    hint = done.stdout.split("(`", 1)[1].split("`", 1)[0]
    assert hint == "rm -r .pi/extensions/goalfile && goalfile init"
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    subprocess.run(["sh", "-c", hint], cwd=repo, env=env, check=True, capture_output=True)
    assert installed.read_text() == shipped_extension()


def test_init_removes_the_former_extension_goalfile_shipped(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    former = repo / FORMER
    former.parent.mkdir(parents=True)
    shutil.copyfile(FORMER_SHIPPED, former)
    done = run_goalfile("init", "--no-goal", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["pi_extension"]["former"] == "removed"
    assert not former.exists()
    assert (repo / EXTENSION).read_text() == shipped_extension()


def test_an_edited_former_extension_is_kept_reported_and_the_fix_works(tmp_path: Path) -> None:
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "TMPDIR": str(tmp_path)}
    repo = make_git_repo(tmp_path / "repo")
    former = repo / FORMER
    former.parent.mkdir(parents=True)
    former.write_text(FORMER_SHIPPED.read_text() + "// mine\n")
    done = run_goalfile("init", "--no-goal", cwd=repo, env=env)
    assert done.returncode == 0, done.stderr
    assert former.is_file()
    assert "rm .pi/extensions/goalfile.ts` removes it" in done.stdout
    report = json.loads(run_goalfile("doctor", "--json", cwd=repo, env=env).stdout)
    (found,) = [f for f in report["findings"] if f["check"] == "former-extension"]
    assert found["health"] == "problem"
    assert "jiti's file cache" in found["detail"]
    assert found["fix"] == "rm -- .pi/extensions/goalfile.ts"
    subprocess.run(["sh", "-c", found["fix"]], cwd=repo, check=True)
    report = json.loads(run_goalfile("doctor", "--json", cwd=repo, env=env).stdout)
    pi = [f["check"] for f in report["findings"] if f["host"] == "pi" and f["check"] != "commit"]
    assert pi == ["extension"]


def test_the_extension_only_runs_the_goalfile_command() -> None:
    source = shipped_extension()
    assert 'const GOALFILE = "goalfile";' in source
    for forbidden in ("node:fs", "require(", "writeFile", "fetch("):
        assert forbidden not in source
    for tool in ("goal_get", "goal_verify", "goal_block"):
        assert f'name: "{tool}"' in source
    assert "hook stop --agent pi" in source


def _pi_finding(repo: Path, env: dict[str, str]) -> dict[str, object]:
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    report = json.loads(done.stdout)
    (finding,) = [f for f in report["findings"] if f["host"] == "pi" and f["check"] != "commit"]
    return dict(finding)


def test_doctor_checks_the_extension_and_each_fix_works(tmp_path: Path) -> None:
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    repo = make_git_repo(tmp_path / "repo")
    missing = _pi_finding(repo, env)
    assert missing["health"] == "problem"
    assert "does not exist" in str(missing["detail"])
    done = subprocess.run(
        ["sh", "-c", str(missing["fix"])], cwd=repo, env=env, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert _pi_finding(repo, env)["health"] == "ok"
    (repo / EXTENSION).write_text("// edited\n")
    modified = _pi_finding(repo, env)
    assert modified["health"] == "problem"
    assert (
        modified["fix"] == "rm -r -- .pi/extensions/goalfile && goalfile init --no-goal --no-skills"
    )
    done = subprocess.run(
        ["sh", "-c", str(modified["fix"])], cwd=repo, env=env, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert _pi_finding(repo, env)["health"] == "ok"
    assert (repo / EXTENSION).read_text() == shipped_extension()


def test_doctor_names_every_other_extension_pi_loads(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"HOME": str(home), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    repo = make_git_repo(tmp_path / "repo")
    assert run_goalfile("init", "--no-goal", cwd=repo, env=env).returncode == 0
    project = repo / ".pi" / "extensions"
    (project / "aaa-format.ts").write_text("process.env.PATH = '/x:' + process.env.PATH;\n")
    (project / "tools").mkdir()
    (project / "tools" / "index.ts").write_text("export default function () {}\n")
    (project / ".hidden.ts").write_text("")  # pi skips a dot name
    (repo / ".pi" / "settings.json").write_text('{"packages": ["npm:pi-x"], "extensions": []}\n')
    user = home / ".pi" / "agent"
    (user / "extensions").mkdir(parents=True)
    (user / "extensions" / "mine.js").write_text("")
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    found = [f for f in json.loads(done.stdout)["findings"] if f["check"] == "other-extension"]
    assert [(f["health"], f["detail"].split(": ")[0], f["fix"]) for f in found] == [
        ("problem", ".pi/extensions/aaa-format.ts", "rm -r -- .pi/extensions/aaa-format.ts"),
        ("problem", ".pi/extensions/tools", "rm -r -- .pi/extensions/tools"),
        ("problem", ".pi/settings.json", None),
        ("problem", str(user / "extensions" / "mine.js"), None),
    ], found
    assert "packages: `npm:pi-x`" in found[2]["detail"]
    for finding in found[:2]:
        subprocess.run(["sh", "-c", finding["fix"]], cwd=repo, check=True)
    (repo / ".pi" / "settings.json").unlink()
    (user / "extensions" / "mine.js").unlink()
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    pi = json.loads(done.stdout)["findings"]
    assert [f["check"] for f in pi if f["host"] == "pi" and f["check"] != "commit"] == ["extension"]


def test_doctor_passes_over_pi_settings_it_cannot_read(tmp_path: Path) -> None:
    """pi's settings nested past Python's recursion limit were a traceback of doctor's check
    of the other extensions, and a FIFO there made doctor wait for a writer."""
    import os

    home = tmp_path / "home"
    env = {"HOME": str(home), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    repo = make_git_repo(tmp_path / "repo")
    (repo / ".pi").mkdir()
    (repo / ".pi" / "settings.json").write_text("[" * 200_000)
    (home / ".pi" / "agent").mkdir(parents=True)
    os.mkfifo(home / ".pi" / "agent" / "settings.json")
    done = run_goalfile("doctor", "--json", cwd=repo, env=env, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    found = [f for f in json.loads(done.stdout)["findings"] if f["check"] == "other-extension"]
    assert found == []


def test_jitis_cache_folder_follows_nodes_tmpdir() -> None:
    from goalfile.jiticache import cache_dir

    assert cache_dir({}) == Path("/tmp/jiti")
    assert cache_dir({"TMPDIR": "/x/tmp/"}) == Path("/x/tmp/jiti")
    assert cache_dir({"TMPDIR": "", "TMP": "/y"}) == Path("/y/jiti")
    assert cache_dir({"TEMP": "/z"}) == Path("/z/jiti")


def test_a_path_node_reads_as_a_url_is_not_imported_as_is() -> None:
    from goalfile.jiticache import imported_as_is

    assert imported_as_is(Path("/home/me/my project/.pi/extensions/goalfile/goalfile.mjs"))
    for odd in ("work#1", "a?b", "100%", "tab\there"):
        assert not imported_as_is(Path("/home") / odd / "goalfile.mjs"), odd
