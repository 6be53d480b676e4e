"""A process the agent leaves running puts another file at a goal file's path while the Stop
hook reads it, and the real file back after: the hook decides on one read of the file, and
verify runs that same text or nothing.

The hook read a tracked goal file once to compare it with HEAD's copy and again to load it;
a watcher (inotify on `goals/`) that let the comparison see the real file and the load a draft
of the same goal made the hook say "no active goal" and let the agent stop, nothing printed.
One read later, a decoy of the same slug whose check is `true` (activated by the agent in a
scratch folder) given to the hook's verify was run and written `met`, and the hook told the
person `status: met`; the real goal was put back, active and unmet. Real git repositories,
the real hook's decision (its verify a real run); the file is swapped at the exact read, as
the watcher did, and once by a real watcher process around a real `goalfile hook stop`.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from conftest import (
    clean_env,
    git,
    goal_text,
    make_git_repo,
    row,
    run_goalfile,
    wait_for,
    write_goal,
)

from goalfile.commands.context import Context
from goalfile.commands.hook import HookOptions, StopInput, decide_stop
from goalfile.commands.hookrules import look as look_module
from goalfile.commands.hookrules.verifyrun import run_verify
from goalfile.hostjson import HostAgent

GOAL = "goals/real.md"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository whose goal goals/real.md is active and unmet (`test -f ok`), approved and
    committed as README's start has it (`goalfile new --activate --commit`)."""
    root = make_git_repo(tmp_path / "project")
    done = run_goalfile(
        "new", "real", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--activate", "--commit", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return root


def draft_of(text: str) -> str:
    """The same goal as a draft with an empty ledger: a goal that holds no one."""
    text = re.sub(r"(?m)^status: active", "status: draft", text, count=1)
    return text.split("## Iterations")[0] + "## Iterations\n\n## Lessons\n"


def met_decoy(tmp_path: Path) -> str:
    """A goal of the same slug whose check is `true`, activated by the agent in a scratch
    folder: verify accepts its own approval entry and pin."""
    scratch = make_git_repo(tmp_path / "scratch")
    done = run_goalfile(
        "new", "real", "ok exists", "--check", "true", "--expected", "exit 0", "--activate",
        cwd=scratch,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return (scratch / GOAL).read_text(encoding="utf-8")


def swap_in(path: Path, text: str) -> Callable[[], None]:
    """Rename a file holding ``text`` over ``path``, as the watcher does; the returned call
    renames the real file back."""
    real = path.read_bytes()
    spare = path.with_name(".spare")
    spare.write_text(text, encoding="utf-8")
    spare.replace(path)

    def back() -> None:
        spare.write_bytes(real)
        spare.replace(path)

    return back


def decide(project: Path, *, active: bool = False, runner=run_verify):  # type: ignore[no-untyped-def]
    ctx = Context(today=date.today().isoformat(), env=clean_env(), cwd=project)
    stop = StopInput(session_id="race", cwd=str(project), stop_hook_active=active)
    return decide_stop(stop, HookOptions(), ctx, runner=runner)


def test_a_draft_put_in_place_between_the_comparison_and_the_load_holds_the_agent(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = project / GOAL
    decoy = draft_of(path.read_text(encoding="utf-8"))
    real_load = look_module.load_goal
    served: list[str] = []

    def load_goal(where):  # type: ignore[no-untyped-def]
        if Path(where) != path or served:
            return real_load(where)
        back = swap_in(path, decoy)  # the comparison with HEAD has read the real file
        try:
            goal = real_load(where)
        finally:
            back()
        served.append(goal.text)
        return goal

    monkeypatch.setattr(look_module, "load_goal", load_goal)
    decision = decide(project)
    assert served == [decoy]
    assert decision.block, decision.to_json(HostAgent.CLAUDE)
    reason = decision.reason or ""
    assert "goalfile cannot verify goals/real.md: it changed while the Stop hook read it" in reason
    assert "Iteration 0" in reason and "was deleted" in reason, reason
    # the stop after it (the agent continuing because of the hold) is told, never silent
    served.clear()
    again = decide(project, active=True)
    assert served == [decoy]
    assert not again.block and "changed while the Stop hook read it" in (again.message or "")


def paused_decoy(text: str) -> str:
    """The same goal paused by an old entry in place of the ledger git holds (as many entries):
    a status its ledger backs, which the hook lets go without a word."""
    text = re.sub(r"(?m)^status: active", "status: paused", text, count=1)
    entry = "### Iteration 0 (2026-11-01) by pause\n\nreason: waiting\n\nstatus: paused\n"
    return text.split("## Iterations")[0] + f"## Iterations\n\n{entry}\n## Lessons\n"


def test_a_symlink_put_in_place_for_the_load_holds_the_agent(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same swap with a symlink to the decoy: a link at the goal's path was taken as the
    tracked link a person may commit, and the text read through it decided."""
    path = project / GOAL
    decoy = tmp_path / "decoy.md"
    decoy.write_text(paused_decoy(path.read_text(encoding="utf-8")), encoding="utf-8")
    real_load = look_module.load_goal
    served: list[str] = []

    def load_goal(where):  # type: ignore[no-untyped-def]
        if Path(where) != path or served:
            return real_load(where)
        real = path.with_name(".real")
        path.replace(real)
        path.symlink_to(decoy)
        goal = real_load(where)
        served.append(goal.status.value)
        return goal

    monkeypatch.setattr(look_module, "load_goal", load_goal)
    decision = decide(project)
    assert served == ["paused"]
    assert decision.block, decision.to_json(HostAgent.CLAUDE)
    reason = decision.reason or ""
    assert "it changed while the Stop hook read it" in reason, reason
    assert f"it is a symlink (to {decoy})" in reason, reason


def test_a_decoy_given_to_the_hooks_verify_is_not_run(project: Path, tmp_path: Path) -> None:
    path = project / GOAL
    decoy = met_decoy(tmp_path)
    ran: list[str] = []

    def runner(options, ctx):  # type: ignore[no-untyped-def]
        back = swap_in(path, decoy)  # the hook's own reads saw the real file
        try:
            result = run_verify(options, ctx)
        finally:
            back()
        ran.append(result.summary)
        return result

    decision = decide(project, runner=runner)
    assert ran == []  # verify refused the decoy: no check of it ran
    assert decision.block
    reason = decision.reason or ""
    assert "goalfile could not verify goals/real.md" in reason, reason
    assert "the goal file changed while the Stop hook read it" in reason, reason
    assert "met" not in re.sub(r"unmet|not met", "", reason), reason
    assert "status: active" in path.read_text(encoding="utf-8")


def test_a_decoy_given_to_the_recheck_of_a_met_is_not_run(project: Path, tmp_path: Path) -> None:
    """A `met` git does not hold yet has its checks run again (`verify --no-write`): a decoy put
    there for that run made the recheck run `true`."""
    path = project / GOAL
    (project / "ok").write_text("", encoding="utf-8")
    done = run_goalfile("verify", GOAL, cwd=project)  # the agent's own run, then it undoes it
    assert done.returncode == 0, done.stderr
    (project / "ok").unlink()
    decoy = met_decoy(tmp_path)

    def runner(options, ctx):  # type: ignore[no-untyped-def]
        assert not options.write
        back = swap_in(path, decoy)
        try:
            return run_verify(options, ctx)
        finally:
            back()

    decision = decide(project, runner=runner)
    assert decision.block
    assert "the goal file changed while the Stop hook read it" in (decision.reason or "")


WATCHER = Path(__file__).parent / "swap_watcher.py"


def test_a_watcher_process_that_swaps_the_file_for_the_hooks_load(
    project: Path, tmp_path: Path
) -> None:
    """The attack as found: a real inotify watcher and a real `goalfile hook stop`."""
    path = project / GOAL
    decoy = tmp_path / "decoy.md"
    decoy.write_text(draft_of(path.read_text(encoding="utf-8")), encoding="utf-8")
    armed = tmp_path / "armed"
    watcher = subprocess.Popen([sys.executable, str(WATCHER), str(path), str(decoy), str(armed)])
    try:
        wait_for(armed.exists, what="the watcher to watch goals/")
        stop = json.dumps({"session_id": "race", "cwd": str(project), "stop_hook_active": False})
        done = run_goalfile("hook", "stop", "--agent", "claude", cwd=project, input=stop)
    finally:
        watcher.kill()
        watcher.wait()
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer.get("decision") == "block", (answer, done.stderr)
    assert "no active goal" not in done.stderr


@pytest.mark.parametrize("where", ["HEAD", "the index"])
def test_draft_typed_over_an_approved_goal_with_an_empty_ledger_holds_the_agent(
    tmp_path: Path, where: str
) -> None:
    """A goal as the goal skill writes it (active, an empty ledger) that the person committed,
    or staged over its committed draft: `status: draft` typed over it was a draft no entry
    contradicts, and a draft holds no one: "no active goal", nothing printed. No command makes
    a goal a draft again."""
    root = make_git_repo(tmp_path / "skill")
    active = goal_text(slug="real", rows=(row("C1", "test -f ok", "exit 0"),))
    first = active.replace("status: active", "status: draft", 1) if where != "HEAD" else active
    path = write_goal(root / "goals", first, "real.md")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the goal")
    path.write_text(active, encoding="utf-8")
    git(root, "add", "goals/real.md")  # the index holds it approved
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("status: active", "status: draft", 1), encoding="utf-8")
    stop = json.dumps({"session_id": "draft", "cwd": str(root), "stop_hook_active": False})
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=root, input=stop)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer.get("decision") == "block", (answer, done.stderr)
    reason = str(answer["reason"])
    assert f"the status is `draft`, but the goal {where} holds there is `active`" in reason, reason
    fix = reason.split("fix: `", 1)[1].split("`", 1)[0]
    assert subprocess.run(fix, shell=True, cwd=root, check=False).returncode == 0
    assert path.read_text(encoding="utf-8") == text
