"""Formatters from the npm registry that need packages beside their CLI (remark-cli with its
plugins, dprint with its Markdown plugin), installed together into one npm prefix, pinned, in
the cache the host CLIs use (tests/hosts/host_install.py), under a file lock: the prefix is
built in a temporary folder and renamed into place only once its tool runs, so a second test
session (or another worker) reuses it and a version bump installs afresh. Nothing is
skipped: without node, npm or the registry, :func:`install_npm` raises with the command that
failed and its output."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from tests.hosts.host_install import cache_root, install_npm_prefix


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
    return install_npm_prefix(
        cache_root(), tool.key, list(tool.packages), bin=tool.bin, version=tool.version
    )
