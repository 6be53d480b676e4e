"""SHA-256 of short texts without loading OpenSSL.

``hashlib`` loads OpenSSL's library (``_hashlib``) when imported: about 3 ms of a start of a
goalfile process, which hashes a contract, a lock's name or a plan of a few kilobytes. The
interpreter has its own SHA-256 as a small built-in module (``_sha256`` up to Python 3.11,
``_sha2`` from 3.12 on); the digests are the same, and ``hashlib`` is the fallback for an
interpreter built without them. OpenSSL is faster per byte (about three times here), which
only a file of megabytes would notice; those are hashed with ``hashlib`` directly.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from hashlib import _Hash

__all__ = ["sha256"]


def sha256(data: bytes = b"") -> _Hash:
    """A SHA-256 hash object fed ``data``, as ``hashlib.sha256(data)`` gives."""
    return _constructor()(data)


@functools.cache
def _constructor() -> Callable[[bytes], _Hash]:
    for name in ("_sha256", "_sha2"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        return cast("Callable[[bytes], _Hash]", module.sha256)
    import hashlib

    return hashlib.sha256
