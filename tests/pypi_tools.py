"""Formatters from PyPI that cannot share the test environment, each in a virtual environment of
its own, pinned, in the cache the npm tools use (tests/hosts/host_install.py): mdformat with
`mdformat-tables` needs mdformat 0.7 (the test environment has 1.0 with `mdformat-gfm`), and
mdformat's plugins are all enabled once installed, so `mdformat-myst` next to `mdformat-gfm`
would change what every other mdformat test runs.

An environment is built under a file lock and marked done only when its tool runs, so a
second test session (or another worker) reuses it and a version bump builds afresh. Nothing
is skipped: without pip or the registry, :func:`install_venv` raises with the command that
failed and its output."""

from __future__ import annotations

import hashlib
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

from tests.hosts.host_install import LOCK_TIMEOUT, cache_root, run_install


@dataclass(frozen=True, kw_only=True)
class PypiTool:
    """Pinned requirements and the console script they provide."""

    requirements: tuple[str, ...]  # exact pins, e.g. "mdformat==0.7.22"
    bin: str
    probe: tuple[str, ...] = ("--version",)  # arguments with which the installed tool exits 0

    @property
    def key(self) -> str:
        digest = hashlib.sha256("\n".join(self.requirements).encode()).hexdigest()[:12]
        return f"pypi+{self.bin}+{digest}"


def install_venv(tool: PypiTool) -> Path:
    """The path of ``tool``'s console script, its environment built first when it is not
    there yet."""
    root = cache_root()
    prefix = root / tool.key
    binary = prefix / "bin" / tool.bin
    marker = prefix / ".installed"
    if marker.is_file() and binary.exists():
        return binary
    root.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root / f".{tool.key}.lock"), timeout=LOCK_TIMEOUT):
        if marker.is_file() and binary.exists():
            return binary
        # built where it stays (a venv's scripts name their own path); the marker, written
        # last, is what a reader without the lock trusts
        shutil.rmtree(prefix, ignore_errors=True)
        python = prefix / "bin" / "python"
        for command in (
            [sys.executable, "-m", "venv", str(prefix)],
            [str(python), "-m", "pip", "install", "-q", *tool.requirements],
            [str(binary), *tool.probe],
        ):
            run_install(command, registry="package registry")
        marker.write_text("\n".join(tool.requirements) + "\n", encoding="utf-8")
    return binary
