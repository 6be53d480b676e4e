"""The host suite fails, and never skips, when it cannot install a host CLI: without node or
npm on PATH, or without the npm registry, the error names what is missing and what ran."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, clean_env
from host_install import HostInstallError, install_cli
from host_run_more import GEMINI_CLI, PI
from hosts_fixtures import CLAUDE_CODE, CODEX


def test_a_host_case_without_node_fails_and_says_what_is_missing(tmp_path: Path) -> None:
    """A real host case, run by pytest in a process whose PATH has no node and no npm and
    whose CLI cache is empty: the case errors (not skips) with the install error."""
    case = "tests/hosts/test_stop_hook.py::test_a_paused_goal_lets_the_agent_stop_at_once[claude]"
    env = clean_env(
        {
            "PATH": str(Path(sys.executable).parent),  # python and goalfile, no node or npm
            "GOALFILE_HOSTS_CACHE": str(tmp_path / "cache"),
        }
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rfEs", case,
         "--basetemp", str(tmp_path / "run")],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "1 error" in output, output
    assert "skipped" not in output, output
    assert "HostInstallError: `node` is not on PATH" in output, output
    assert "apt-get install nodejs npm" in output


def test_node_without_npm_is_an_error_naming_npm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = shutil.which("node")
    assert node is not None, "the host suite needs node on PATH"
    only_node = tmp_path / "bin"
    only_node.mkdir()
    (only_node / "node").symlink_to(node)
    monkeypatch.setenv("PATH", str(only_node))
    with pytest.raises(HostInstallError, match="`npm` is not on PATH"):
        install_cli(CODEX, root=tmp_path / "cache")


def test_an_unreachable_registry_is_an_error_naming_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as closed:  # bound, never listening: every connection is refused
        closed.bind(("127.0.0.1", 0))
        registry = f"http://127.0.0.1:{closed.getsockname()[1]}/"
        monkeypatch.setenv("npm_config_registry", registry)
        monkeypatch.setenv("npm_config_fetch_retries", "0")
        monkeypatch.setenv("npm_config_cache", str(tmp_path / "npm-cache"))  # nothing cached
        root = tmp_path / "cache"
        with pytest.raises(HostInstallError) as raised:
            install_cli(CODEX, root=root)
    message = str(raised.value)
    assert "is the npm registry reachable?" in message, message
    assert f"install --prefix {root}" in message and CODEX.spec in message, message
    # nothing half-installed is left where a later run would take it for an install
    assert not (root / CODEX.key).exists()
    assert [p.name for p in root.iterdir() if not p.name.endswith(".lock")] == []


def test_docs_name_the_pinned_versions() -> None:
    """docs/hosts.md says which versions are tested: the ones the suite pins."""
    docs = (REPO / "docs" / "hosts.md").read_text(encoding="utf-8")
    for cli in (CLAUDE_CODE, CODEX, GEMINI_CLI, PI):
        assert f"| `{cli.package}` | {cli.version} |" in docs, cli
