"""pi: goalfile's extension is the one goalfile ships, the former ``.ts`` is gone, none of it
runs through jiti's file cache, and no other extension is loaded beside it.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import INIT_HOOKS, Check, Finding
from goalfile.commands.doctorchecks.settingsfiles import shown_from


def pi_findings(root: Path, ctx: Context) -> list[Finding]:
    from goalfile.pi_extension import EXTENSION, EXTENSION_DIR, extension_state

    state = extension_state(root=root)
    folder = shown_from(root / EXTENSION_DIR, ctx)
    module = shown_from(root / EXTENSION, ctx)
    extension = Check("pi", "extension")
    rest = [
        *_pi_extension_cached(root, ctx),
        *_former_pi_extension(root, ctx),
        *_other_pi_extensions(root, ctx),
    ]
    if state == "current":
        return [extension.ok(detail=f"goalfile's extension in {folder}"), *rest]
    if state == "missing":
        return [
            extension.problem(
                detail=f"{module} does not exist: pi will not run the Stop hook",
                fix=INIT_HOOKS,
            ),
            *rest,
        ]
    return [
        extension.problem(
            detail=f"{folder} differs from the extension this goalfile ships",
            fix=f"rm -r -- {shlex.quote(folder)} && {INIT_HOOKS}",
            hint="keep it instead if you changed it on purpose",
        ),
        *rest,
    ]


def _pi_extension_cached(root: Path, ctx: Context) -> list[Finding]:
    """goalfile's ``.mjs`` goes through jiti's file cache after all when Node cannot import it
    by its path (:func:`goalfile.jiticache.imported_as_is`): then any process of the user can
    put what pi runs in its place."""
    from goalfile import jiticache
    from goalfile.pi_extension import EXTENSION

    module = root.resolve() / EXTENSION
    if jiticache.imported_as_is(module):
        return []
    detail = (
        f"the project's path holds one of # ? % (or a tab or line break), which Node reads as "
        f"part of a URL: pi's import of {shown_from(root / EXTENSION, ctx)} fails, and jiti "
        "transpiles it and keeps it in its file cache, where any process of yours can put "
        "what pi runs instead"
    )
    used = jiticache.entries_used(module, ctx.env)
    if used:
        detail += f"; pi would run {', '.join(map(str, used))} in its place"
    hint = "move the project to a folder whose path holds none of them"
    return [Check("pi", "extension-cache").problem(detail=detail, hint=hint)]


def _former_pi_extension(root: Path, ctx: Context) -> list[Finding]:
    """``.pi/extensions/goalfile.ts``, the extension goalfile shipped before: pi loads it beside
    the current one, through jiti's file cache, where any process of the user can put the code
    pi runs instead (:mod:`goalfile.jiticache`); each entry pi would run is named."""
    from goalfile import jiticache
    from goalfile.pi_extension import FORMER, former_state

    state = former_state(root=root)
    if state is None:
        return []
    shown = shown_from(root / FORMER, ctx)
    what = (
        "goalfile's former extension"
        if state == "shipped"
        else "where goalfile's extension was, a file goalfile did not ship"
    )
    detail = (
        f"{shown}: {what}; pi loads it beside .pi/extensions/goalfile/ and, as TypeScript, "
        "through jiti's file cache, where any process of yours can put what pi runs instead"
    )
    used = jiticache.entries_used((root / FORMER).resolve(), ctx.env)
    if used:
        detail += f"; pi would run {', '.join(map(str, used))} in its place"
    fix = f"rm -- {shlex.quote(shown)}"
    if used:
        fix += " " + " ".join(shlex.quote(str(entry)) for entry in used)
    return [Check("pi", "former-extension").problem(detail=detail, fix=fix)]


def _other_pi_extensions(root: Path, ctx: Context) -> list[Finding]:
    """A problem for each extension pi loads beside goalfile's (:mod:`goalfile.piothers`): it
    runs in the same process, where it can change which program goalfile's extension runs
    (``process.env.PATH``) or end the session before goalfile's hook answers."""
    from goalfile import piothers

    check = Check("pi", "other-extension")
    why = (
        "pi runs it in the process that runs goalfile's extension, where it can change which "
        "`goalfile` that extension starts (process.env.PATH) or end the session first"
    )
    found: list[Finding] = []
    for other in piothers.other_extensions(root, ctx.env):
        if other.path is not None:
            shown = shown_from(other.path, ctx)
            if other.path.is_relative_to(root):
                fix, hint = f"rm -r -- {shlex.quote(shown)}", "keep it if you put it there"
            else:
                fix, hint = (
                    None,
                    f"remove it (rm -r -- {shlex.quote(shown)}) unless you put it there",
                )
            found.append(check.problem(detail=f"{shown}: {why}", fix=fix, hint=hint))
        elif other.settings is not None:
            shown = shown_from(other.settings, ctx)
            detail = f"{shown}: {other.key}: `{other.value[:120]}`: {why}"
            hint = (
                f"delete `{other.value[:120]}` from {other.key} in {shown} unless you put it there"
            )
            found.append(check.problem(detail=detail, hint=hint))
    return found
