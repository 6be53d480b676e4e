"""Environment variables a host's settings give the hooks it runs, where they decide which
program goalfile's Stop hook is, or what it does.

A hook command is run by name (``goalfile hook stop --agent claude``), so the ``PATH`` the host
gives it decides which ``goalfile`` starts: Claude Code 2.1.332 applies the ``env`` object of
every settings file it reads (the project's ``.claude/settings.local.json`` too) to the hooks
it runs, and a ``PATH`` there naming a folder with a file called ``goalfile`` first runs that
file as the Stop hook, in every later session. Gemini CLI 0.61.0 adds a hook entry's own
``env`` object to the environment it runs that hook with. Python's own variables decide which
``goalfile`` package the program imports, a shell's start-up variables what a check's shell
runs first, goalfile's own and git's what the hook reads. Claude Code's own variables decide
how it starts a hook at all: with ``CLAUDE_CODE_SHELL_PREFIX`` set it runs every hook command
as ``PREFIX "COMMAND"``, so that program, not goalfile, decides whether the hook runs (an
absolute path in the command does not help), and its Stop hook's blocks are obeyed only
``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`` times in a row (one below the default, 8, is named; one at
or above it, or 0, which is no cap, is not: it changes nothing the hook relies on). Such
variables are known by name (the shells' and goalfile's own, ``PYTHON*``, ``LD_*``,
``GIT_*``, a bash function's ``BASH_FUNC_NAME%%``, which makes ``goalfile`` in ``/bin/sh -c``
that function where ``/bin/sh`` is bash) and, for Claude Code's, by the words ``HOOK`` and
``SHELL`` in a ``CLAUDE*`` name, since it adds more with each release.

Pure: :mod:`goalfile.commands.doctor` reads the files and resolves the program.
"""

from __future__ import annotations

from dataclasses import dataclass

from goalfile.hookentries import hook_entries
from goalfile.hostprotocol import HostAgent

__all__ = [
    "EnvSetting",
    "dotenv_risky",
    "is_risky",
    "is_unknown",
    "lowered_cap",
    "risky_settings",
    "unknown_settings",
    "without_risky",
]

# variables that change which program or package a hook command runs, how it is started, or
# what it does
_NAMES = frozenset(
    {
        "PATH",
        "VIRTUAL_ENV",
        "BASH_ENV",
        "ENV",
        "SHELLOPTS",
        "BASHOPTS",
        "PS4",
        "IFS",
        "CDPATH",
        "HOME",
        "XDG_CONFIG_HOME",
        # where the Stop hook keeps the session's record (goalfile.sessionmemory): a folder
        # that cannot be written (`/dev/null`) lets go the holds it keeps to once per session
        "XDG_STATE_HOME",
        "TMPDIR",
        # Claude Code 2.1.332 runs every hook command as `PREFIX "COMMAND"` when this is set,
        # so the program it names decides whether goalfile's hook runs at all
        "CLAUDE_CODE_SHELL_PREFIX",
        # the shell Claude Code picks for its commands (`CLAUDE_CODE_SHELL`, `SHELL`), the bash
        # it runs hooks with on Windows, the file a hook's exports are read from
        "CLAUDE_CODE_SHELL",
        "SHELL",
        "CLAUDE_CODE_GIT_BASH_PATH",
        "CLAUDE_ENV_FILE",
        # how many Stop-hook blocks in a row Claude Code obeys before it ends the turn anyway
        "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP",
    }
)
# BASH_FUNC_NAME%% is a shell function bash imports, also as /bin/sh: `goalfile` in the hook
# command is then that function (Claude Code runs hooks with `/bin/sh -c`)
_PREFIXES = ("GOALFILE_", "GIT_", "DYLD_", "LD_", "PYTHON", "BASH_FUNC_")
# Claude Code's own variables about its hooks or the shell it runs commands with: it adds such
# variables with each release, so they are known by their words, not listed one by one
_HOST_PREFIX = "CLAUDE"
_HOST_WORDS = ("HOOK", "SHELL")


def is_risky(name: str) -> bool:
    """Whether an environment variable named ``name`` can change which ``goalfile`` a hook
    runs, how the host starts it, or what it does."""
    upper = name.upper()
    return (
        upper in _NAMES
        or upper.startswith(_PREFIXES)
        or "%%" in name  # an exported function, however bash spells it
        or (upper.startswith(_HOST_PREFIX) and any(word in upper for word in _HOST_WORDS))
    )


# names a settings `env` commonly holds that say nothing to a hook's shell or to goalfile: the
# model provider's, telemetry, proxies, the host's own time and size limits
_HARMLESS_PREFIXES = ("ANTHROPIC_", "OTEL_", "DISABLE_", "AWS_", "VERTEX_", "CLOUD_ML_")
_HARMLESS = frozenset(
    {
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "NO_PROXY",
        "MAX_THINKING_TOKENS",
        "MAX_MCP_OUTPUT_TOKENS",
        "MCP_TIMEOUT",
        "MCP_TOOL_TIMEOUT",
        "BASH_DEFAULT_TIMEOUT_MS",
        "BASH_MAX_TIMEOUT_MS",
        "BASH_MAX_OUTPUT_LENGTH",
    }
)


def is_unknown(name: str) -> bool:
    """Whether goalfile cannot tell what a variable named ``name`` does to a hook: neither
    :func:`is_risky` nor one of the few names known to be harmless to it. A host's list of
    variables grows with each release, so such a variable is named as ``unknown``."""
    upper = name.upper()
    harmless = upper in _HARMLESS or upper.startswith(_HARMLESS_PREFIXES)
    return not harmless and not is_risky(name)


def unknown_settings(document: object) -> list[EnvSetting]:
    """Each variable of :func:`is_unknown` in the top-level ``env`` of a Claude Code settings
    ``document``, which Claude Code gives every hook it runs."""
    env = document.get("env") if isinstance(document, dict) else None
    return [
        EnvSetting(path=("env", name), name=name, value=str(value))
        for name, value in (env.items() if isinstance(env, dict) else ())
        if isinstance(name, str) and is_unknown(name)
    ]


@dataclass(frozen=True, kw_only=True)
class EnvSetting:
    """One variable a settings document gives goalfile's Stop hook, and where."""

    path: tuple[str | int, ...]  # its keys: ("env", "PATH"), or a Gemini hook entry's
    name: str
    value: str

    @property
    def where(self) -> str:
        out = ""
        for part in self.path:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
        return out


def lowered_cap(value: str) -> int | None:
    """The cap on Stop-hook holds in a row that ``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=value`` puts
    in force when it is below Claude Code's default (:mod:`goalfile.blockcap`), else None."""
    from goalfile.blockcap import CAP_VARIABLE, DEFAULT_CAP, cap_in_force

    cap = cap_in_force({CAP_VARIABLE: value})
    return cap if cap is not None and cap < DEFAULT_CAP else None


def _cap_kept(name: str, value: str) -> bool:
    """A cap on Stop-hook holds in a row set to Claude Code's default or above, or to none: it
    changes nothing goalfile's hook relies on."""
    from goalfile.blockcap import CAP_VARIABLE

    return name.upper() == CAP_VARIABLE and lowered_cap(value) is None


def risky_settings(document: object, agent: HostAgent) -> list[EnvSetting]:
    """Every variable of :func:`is_risky` that ``document`` (a host's parsed settings) gives
    the hooks the host runs: Claude Code's top-level ``env`` (it applies to every hook, the
    Stop hook too); Gemini CLI's ``env`` of a ``goalfile hook stop`` hook entry. Codex's
    settings give a hook no environment of their own."""
    if not isinstance(document, dict):
        return []
    found: list[EnvSetting] = []
    if agent is HostAgent.CLAUDE:
        env = document.get("env")
        for name, value in env.items() if isinstance(env, dict) else ():
            if isinstance(name, str) and is_risky(name) and not _cap_kept(name, str(value)):
                found.append(EnvSetting(path=("env", name), name=name, value=str(value)))
    elif agent is HostAgent.GEMINI:
        from goalfile.hostjson import is_ours

        for hook in hook_entries(document):
            if not isinstance(hook.entry, dict) or not is_ours(hook.command):
                continue
            env = hook.entry.get("env")
            for name, value in env.items() if isinstance(env, dict) else ():
                if isinstance(name, str) and is_risky(name):
                    path = ("hooks", hook.event, hook.group, "hooks", hook.index, "env", name)
                    found.append(EnvSetting(path=path, name=name, value=str(value)))
    return found


def without_risky(document: dict[str, object], taken: list[EnvSetting]) -> dict[str, object]:
    """``document`` with the settings ``taken`` out (an ``env`` object they leave empty too).
    Pure: the document is copied."""
    import copy

    new = copy.deepcopy(document)
    for setting in taken:
        parents: list[tuple[object, str | int]] = []
        node: object = new
        for part in setting.path[:-1]:
            parents.append((node, part))
            node = node[part]  # type: ignore[index]
        if isinstance(node, dict):
            node.pop(setting.path[-1], None)
            if not node and parents:  # an env left empty
                parent, key = parents[-1]
                if isinstance(parent, dict):
                    parent.pop(key, None)
    return new


def dotenv_risky(text: str) -> list[tuple[int, str, str]]:
    """The variables of :func:`is_risky` a ``.env`` file sets (``NAME=VALUE``, optionally
    after ``export``): each one's line (from 1), name and value. ``PATH`` is left out: Gemini
    CLI sets a variable from the file only when it is not set already, and PATH always is."""
    import re

    found: list[tuple[int, str, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = re.match(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$", line)
        if match and match.group(1).upper() != "PATH" and is_risky(match.group(1)):
            found.append((number, match.group(1), match.group(2).strip()))
    return found
