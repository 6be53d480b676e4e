"""Install pinned host CLIs from the npm registry into a cache outside the repository.

Each package version gets its own npm prefix under the cache folder
(``$GOALFILE_HOSTS_CACHE``, else ``$XDG_CACHE_HOME/goalfile-hosts``, else
``~/.cache/goalfile-hosts``), named after the package and its exact version, so a second test
session (or another test module that pins another CLI) reuses it and a version bump installs
afresh. An install is written to a temporary folder and renamed into place only when the binary
works, under a file lock, so two sessions never see half an install.

Nothing is skipped: without node, npm or the registry, :func:`install_cli` raises
:class:`HostInstallError` with the command that failed and its output.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

__all__ = ["HostInstallError", "NpmCli", "cache_root", "install_cli", "install_npm_prefix"]

INSTALL_TIMEOUT = 600  # seconds: a cold install downloads a few hundred MB
# seconds another process waits for the lock of an install under way (pytest -n's workers, a
# second run): longer than that install may take, its npm install and --version probe together
LOCK_TIMEOUT = INSTALL_TIMEOUT + 120


class HostInstallError(RuntimeError):
    """A host CLI could not be installed: the message says what is missing and what ran."""


@dataclass(frozen=True, kw_only=True)
class NpmCli:
    """One npm package pinned to an exact version, and the binary it provides."""

    package: str  # e.g. "@anthropic-ai/claude-code"
    version: str  # exact, e.g. "2.1.332"
    bin: str  # e.g. "claude"

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"

    @property
    def key(self) -> str:
        return self.spec.lstrip("@").replace("/", "+")


def cache_root() -> Path:
    given = os.environ.get("GOALFILE_HOSTS_CACHE")
    if given:
        return Path(given).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "goalfile-hosts"


def _require(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise HostInstallError(
            f"`{tool}` is not on PATH ({os.environ.get('PATH', '')}): the host suite installs "
            "the host CLIs with npm and needs node and npm (e.g. `apt-get install nodejs npm`)"
        )
    return found


def _probe(binary: Path) -> str:
    done = subprocess.run(
        [str(binary), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        raise HostInstallError(
            f"{binary} --version exited {done.returncode}:\n{done.stdout}{done.stderr}"
        )
    return (done.stdout + done.stderr).strip()  # pi prints its version on stderr


def install_cli(cli: NpmCli, *, root: Path | None = None) -> Path:
    """The path of ``cli``'s binary, installed into the cache first when it is not there yet."""
    prefix = install_npm_prefix(
        root or cache_root(), cli.key, [cli.spec], bin=cli.bin, version=cli.version
    )
    return prefix / "node_modules" / ".bin" / cli.bin


def install_npm_prefix(root: Path, key: str, specs: list[str], *, bin: str, version: str) -> Path:
    """The npm prefix ``root/key`` holding ``specs`` installed together, installed first when
    it is not there yet: built in a temporary folder under a file lock and renamed into place
    only once ``bin --version`` prints ``version``."""
    prefix = root / key
    binary = prefix / "node_modules" / ".bin" / bin
    marker = prefix / ".installed"
    if marker.is_file() and binary.exists():
        return prefix
    root.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root / f".{key}.lock"), timeout=LOCK_TIMEOUT):
        if marker.is_file() and binary.exists():
            return prefix
        _require("node")
        npm = _require("npm")
        staging = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=root))
        command = [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund", *specs]
        try:
            run_install(command, registry="npm registry")
            said = _probe(staging / "node_modules" / ".bin" / bin)
            if version not in said:
                raise HostInstallError(f"{bin} --version says {said!r}, not {version}")
            (staging / ".installed").write_text("\n".join(specs) + "\n", encoding="utf-8")
            if prefix.exists():  # a broken earlier install
                shutil.rmtree(prefix)
            staging.rename(prefix)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
    return prefix


def run_install(command: list[str], *, registry: str) -> None:
    """Run one step of an install; a :class:`HostInstallError` with the command and its output
    when it fails (``registry`` names where it installs from)."""
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        raise HostInstallError(
            f"`{' '.join(command)}` exited {done.returncode} (is the {registry} reachable?):"
            f"\n{done.stdout[-4000:]}{done.stderr[-4000:]}"
        )
