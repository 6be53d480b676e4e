"""The hook entries of a host's parsed settings: ``hooks.<event>[group].hooks[index]``.

Claude Code, Codex and Gemini CLI write their hooks in this one shape: under ``hooks``, each
event names a list of matcher groups, and each group a list ``hooks`` of entries. A part that
is not written so (an event whose value is no list, such as Codex's ``hooks.state``; a group
that is no object or holds no list of entries) holds no entry and is passed over.

Pure: the callers (:mod:`goalfile.otherhooks`, :mod:`goalfile.hookshape`,
:mod:`goalfile.hostenv`, :mod:`goalfile.hosttimeouts`, doctor) read the files and decide what
an entry means.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["HookEntry", "hook_entries"]


@dataclass(frozen=True, kw_only=True)
class HookEntry:
    """One entry of a settings document's hooks, and where it stands."""

    event: str
    group: int  # hooks.<event>[group].hooks[index]
    index: int
    matcher_group: dict[str, object]  # as the file writes it
    entry: object  # as the file writes it: an object, or whatever else stands there

    @property
    def command(self) -> object:
        """The entry's ``command`` (None when the entry is no object or has none)."""
        return self.entry.get("command") if isinstance(self.entry, dict) else None


def hook_entries(document: object, event: str | None = None) -> Iterator[HookEntry]:
    """Every hook entry of ``document``, in the order the file writes them; only those under
    ``hooks.<event>`` when ``event`` is given."""
    hooks = document.get("hooks") if isinstance(document, dict) else None
    if not isinstance(hooks, dict):
        return
    events = hooks.items() if event is None else [(event, hooks.get(event))]
    for name, groups in events:
        if not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list):
                continue
            for i, entry in enumerate(inner):
                yield HookEntry(event=name, group=g, index=i, matcher_group=group, entry=entry)
