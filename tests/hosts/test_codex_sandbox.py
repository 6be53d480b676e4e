"""Codex under ``sandbox_mode = "workspace-write"``, what most of its users run: each command
runs in a bubblewrap sandbox that mounts an empty read-only folder over ``.git``, ``.codex``,
``.agents`` and ``.aws`` in every folder it lets the command write (the session's folder,
``$TMPDIR``, ``/tmp``), and where one of those is missing it makes an empty folder of that name
as the mount's target, there until the command ends. A command left running at the model's
``yield_time_ms`` keeps them there at the stop: an empty ``.git`` in ``$TMPDIR``, above the
repository. The Stop hook passes over it (git does: it holds no HEAD), so a goal the agent met
in the sandbox is let go and an unmet one held for itself; before, both were held with "goalfile
cannot tell which goal files git tracks in the repository at ..".

``$TMPDIR`` is the test's own folder, above the repository, and ``/tmp`` is left out of the
writable folders (``exclude_slash_tmp``), so the sandbox's folders land there and nowhere else
(Codex still makes ``/tmp/codex-daemon-0``, a folder no .git is put in). The recorded-input
versions are in tests/test_hook_repository.py (an emptied ``.git`` still holds)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fake_model import Reply, Say, Shell, Turn
from host_install import install_cli
from host_run import codex_env, codex_rollouts, run_host, trust_codex_hooks, write_codex_config
from hosts_fixtures import CODEX, GOAL, SERVERS, Isolation, goal_repo, goal_state, start_server
from hosts_fixtures import isolation as isolation
from skill_goals import on_the_users_path

# the sandbox's mount targets, listed from inside it while the sleeper keeps them there
LOOK = (
    'for d in "$TMPDIR" .; do test -d "$d/.git" && echo "$d/.git: $(ls -A "$d/.git" | wc -l) '
    'entries"; done'
)


class Agent:
    """At the prompt: ``work`` (a goalfile verify), then a command that runs on past its
    ``yield_time_ms`` (so Codex answers and leaves it running, its sandbox standing), then the
    end of the turn; at a Stop hook's reason it ends its turn at once."""

    def __init__(self, work: str) -> None:
        self.steps = [Shell(work), Shell(f"{LOOK}; sleep 40", timeout_ms=2000)]
        self.outputs: list[str] = []

    def __call__(self, turn: Turn) -> Reply:
        if turn.after_tool:
            self.outputs.append(turn.tool_output or "")
        elif turn.feedback is not None:
            return Say("Done.")
        if (turn.after_tool or not self.outputs) and len(self.outputs) < len(self.steps):
            return self.steps[len(self.outputs)]
        return Say("Done.")


def codex_session(tmp_path: Path, repo: Path, agent: Agent, isolation: Isolation) -> list[str]:
    """`codex exec` in ``repo`` under workspace-write with ``$TMPDIR`` the test's folder: the
    Stop hook's reasons the model was given."""
    home = tmp_path / "home"
    on_the_users_path(home)  # Codex's `bash -lc` finds python and goalfile
    with start_server(SERVERS["codex"], agent, isolation) as server:
        codex, codex_home = install_cli(CODEX), home / ".codex"
        write_codex_config(
            codex_home,
            server_url=server.url,
            repo=repo,
            sandbox="workspace-write",
            extra="\n[sandbox_workspace_write]\nexclude_slash_tmp = true\n",
        )
        trust_codex_hooks(codex, repo=repo, codex_home=codex_home, netns=isolation.netns)
        env = {**codex_env(codex_home=codex_home), "TMPDIR": str(tmp_path)}
        # outside git, `codex exec` asks for this option ("Not inside a trusted directory")
        more = [] if (repo / ".git").exists() else ["--skip-git-repo-check"]
        argv = [str(codex), "exec", "--json", *more, "Make the goal in goals/demo.md met."]
        run = run_host(argv, cwd=repo, env=env, netns=isolation.netns, timeout=180)
    log = server.write_log(tmp_path / "codex-requests.jsonl")
    assert run.returncode == 0, f"{run.explain()}\nrequest log: {log}"
    assert codex_rollouts(codex_home), run.explain()
    assert len(agent.outputs) == 2, f"{agent.outputs}\n{run.explain()}"
    return server.feedbacks()


@pytest.mark.parametrize(
    ("met", "in_git"),
    [(True, True), (False, True), (False, False)],
    ids=["met", "unmet", "unmet-outside-git"],
)
def test_an_empty_git_folder_the_sandbox_leaves_is_no_repository(
    isolation: Isolation, tmp_path: Path, met: bool, in_git: bool
) -> None:
    """In a repository, the empty ``.git`` is in ``$TMPDIR`` above it; in a project folder that
    is no repository, in the project folder itself."""
    repo = goal_repo(tmp_path)
    if not in_git:
        shutil.rmtree(repo / ".git")
    work = f"touch done.txt && goalfile verify {GOAL}" if met else f"goalfile verify {GOAL}"
    agent = Agent(work)
    reasons = codex_session(tmp_path, repo, agent, isolation)
    empty = f"{tmp_path}/.git: 0 entries" if in_git else "./.git: 0 entries"
    assert empty in agent.outputs[1], agent.outputs[1]  # there at the stop
    # the agent's verify ran in the sandbox: it wrote the goal file and took its lock
    said = "C1 met; status: met" if met else "C1 unmet; status: active"
    assert f"verify-goal demo iteration 0: {said}" in agent.outputs[0], agent.outputs[0]
    if met:
        assert reasons == [], reasons
        assert goal_state(repo)["status"] == "met"
    else:
        assert reasons, agent.outputs
        first = reasons[0].splitlines()[0]
        assert first == "verify-goal demo iteration 0: C1 unmet; status: active", reasons[0]
        assert "cannot tell which goal files git tracks" not in "\n".join(reasons)
