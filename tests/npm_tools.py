"""Formatters from the npm registry that need packages beside their CLI (remark-cli with its
plugins, dprint with its Markdown plugin), installed together into one npm prefix, pinned, in
the cache the host CLIs use (tests/hosts/host_install.py), under a file lock: the prefix is
built in a temporary folder and renamed into place only once its tool runs, so a second test
session (or another worker) reuses it and a version bump installs afresh. Nothing is
skipped: without node, npm or the registry, :func:`install_npm` raises with the command that
failed and its output."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

from tests.hosts.host_install import LOCK_TIMEOUT, HostInstallError, cache_root, run_install


@dataclass(frozen=True, kw_only=True)
class NpmTool:
    """Packages pinned to exact versions, installed together, and the binary one provides."""

    packages: tuple[str, ...]  # exact specs, e.g. "remark-cli@12.0.1"
    bin: str
    version: str  # what `BIN --version` prints a part of

    @property
    def key(self) -> str:
        digest = hashlib.sha256("\n".join(self.packages).encode()).hexdigest()[:12]
        return f"npm+{self.bin}+{digest}"


def install_npm(tool: NpmTool) -> Path:
    """The prefix ``tool`` is installed in (its binary under ``node_modules/.bin``), installed
    first when it is not there yet."""
    root = cache_root()
    prefix = root / tool.key
    marker = prefix / ".installed"
    if marker.is_file():
        return prefix
    root.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root / f".{tool.key}.lock"), timeout=LOCK_TIMEOUT):
        if marker.is_file():
            return prefix
        npm = shutil.which("npm")
        if npm is None or shutil.which("node") is None:
            raise HostInstallError("node and npm must be on PATH to install " + tool.bin)
        staging = Path(tempfile.mkdtemp(prefix=f".{tool.key}.", dir=root))
        try:
            run_install(
                [
                    npm,
                    "install",
                    "--prefix",
                    str(staging),
                    "--no-audit",
                    "--no-fund",
                    *tool.packages,
                ],
                registry="npm registry",
            )
            done = subprocess.run(
                [str(staging / "node_modules" / ".bin" / tool.bin), "--version"],
                capture_output=True, text=True, timeout=120, check=False,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip
            said = done.stdout + done.stderr
            if done.returncode != 0 or tool.version not in said:
                raise HostInstallError(f"{tool.bin} --version exited {done.returncode}: {said}")
            (staging / ".installed").write_text("\n".join(tool.packages) + "\n", "utf-8")
            if prefix.exists():  # a broken earlier install
                shutil.rmtree(prefix)
            staging.rename(prefix)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
    return prefix
