"""Git attributes that make git store, or a checkout write, other bytes than a goal file holds,
and the staging of a goal file that stores exactly its bytes.

A clean filter (``filter=NAME`` with ``filter.NAME.clean`` in ``.git/config``) is a program git
runs on `git add` and `git commit PATH`: its output, not the file, is what git stores. Set in
``.git/info/attributes`` or ``core.attributesFile`` and ``.git/config``, it shows in no `git
status`, so an agent could make a person's own commit of the goal they approved store another
goal (docs/trust.md, "A git filter on a goal file"). ``ident`` and ``working-tree-encoding``
rewrite what git stores too. So goalfile stages a goal with `git hash-object --no-filters` and
`git update-index --cacheinfo` (:func:`stage_exact`), checks that git's index holds exactly the
file's bytes, and refuses a goal path any of :data:`REFUSED` applies to
(:func:`conversions`, :func:`refusal`): `activate`, the Stop hook and `audit` name the attribute,
the line that sets it and the command that deletes that line. ``text`` and ``eol`` change only
line endings, which goalfile reads alike (a CRLF goal file has the same contract), and are let be.

A diff driver with a program (``diff=NAME`` with ``diff.NAME.textconv`` or ``diff.NAME.command``)
stores the file's bytes, but `git diff`, `git log -p` and `git show` show what the program
prints instead: a loosened, self-re-approved and verified goal showed no change at all to the
person reviewing it with git. It is refused the same way (:data:`SHOWN`); a driver without a
program (``*.md diff=markdown``, which only names hunks) is let be.

Two attributes hide a goal file's changes from the person reviewing them (:data:`HIDDEN`):
``-diff`` (or the ``binary`` macro, or ``diff=NAME`` with ``diff.NAME.binary`` true in `git
config`) makes `git diff`, `git log -p` and `git show` print "Binary files differ", and
``linguist-generated`` makes GitHub fold the file in a pull request's diff as a generated one.
With one line in a committed ``.gitattributes``, a check the agent loosened and re-approved
itself (recorded, for the reviewer to judge) reached the reviewer as no change at all, while
`audit --against` was clean and CI's re-run met. `audit` reports them and `activate` refuses
them (``hidden=True``); the Stop hook does not hold the agent on them: what git stores is the
file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Final

from goalfile.shellword import sed_command, shell_word
from goalfile.value import Compared

REFUSED = ("filter", "ident", "working-tree-encoding")
"""The attributes that make git store other bytes than a goal file holds (not only other line
endings); set, or given a value, on a goal path they are refused."""

SHOWN = ("diff",)
"""The attributes that make git show other text than a goal file holds when their driver names
a program (``diff.NAME.textconv``, ``diff.NAME.command``)."""

HIDDEN = ("diff", "linguist-generated")
"""The attributes that hide a goal file's changes from a reviewer: ``diff`` unset (``-diff``,
``binary``) or naming a driver that ``diff.NAME.binary`` makes treat it as binary, and
``linguist-generated`` set (GitHub folds the file's diff)."""

_GIT = ["--no-replace-objects", "-c", "core.fsmonitor=false"]

GIT_IGNORED = "a .gitignore file ignores it"
"""What :func:`stage_exact` says of a file git ignores (it is refused, as `git add` does)."""


# written out on goalfile.value, not as frozen dataclasses: each dataclass compiled its methods
# at every start of `activate` (see docs/performance.md)
class Setting(Compared):
    """A line of an attributes file that sets one of :data:`REFUSED`."""

    __slots__ = ("file", "line", "text")

    def __init__(self, file: Path, line: int, text: str) -> None:
        self.file: Final = file
        self.line: Final = line
        self.text: Final = text


class Conversion(Compared):
    """One attribute of :data:`REFUSED` that applies to a goal path, as `git check-attr` says."""

    __slots__ = ("attribute", "binary", "driver", "value")

    def __init__(self, attribute: str, value: str, driver: str = "", binary: bool = False) -> None:
        self.attribute: Final = attribute
        self.value: Final = value  # "set", or the value (the filter's name)
        self.driver: Final = driver  # for a filter: what `git config` says its programs are
        # a diff driver that `diff.NAME.binary` makes treat the file as binary
        self.binary: Final = binary


class Found(Compared):
    """What applies to one goal path: the conversions, and the lines that may set them."""

    __slots__ = ("conversions", "settings", "tracked")

    def __init__(
        self,
        conversions: tuple[Conversion, ...],
        settings: tuple[Setting, ...],
        tracked: frozenset[Path],
    ) -> None:
        self.conversions: Final = conversions
        self.settings: Final = settings
        # of the files of ``settings``: those git tracks (.gitattributes)
        self.tracked: Final = tracked


def conversions(folder: Path | str, name: str, *, hidden: bool = False) -> Found | None:
    """What of :data:`REFUSED` (and :data:`SHOWN` with a program; with ``hidden``, of
    :data:`HIDDEN` too) applies to the file ``name`` (relative to ``folder``), with the lines
    of the attributes files that set it; None when nothing does, or when git cannot say (no
    repository there: nothing converts it)."""
    from goalfile.gitrun import GitUnreadable, _git_clean, _git_read

    env = _git_clean()
    asked = [*REFUSED, *SHOWN, *(["linguist-generated"] if hidden else [])]
    try:
        done = _git_read(str(folder), [*_GIT, "check-attr", "-z", *asked, "--", name], env)
    except GitUnreadable:
        return None
    if done.returncode != 0:
        return None
    fields = done.stdout.split(b"\0")
    found: list[Conversion] = []
    for at in range(0, len(fields) - 2, 3):
        attribute = fields[at + 1].decode("utf-8", "replace")
        value = fields[at + 2].decode("utf-8", "replace")
        if hidden and _hides(attribute, value):
            found.append(Conversion(attribute=attribute, value=value))
            continue
        if value in ("unspecified", "unset") or attribute == "linguist-generated":
            continue
        if attribute in SHOWN:
            driver = "" if value == "set" else _driver(str(folder), value, env, kind=attribute)
            if not driver and hidden and value != "set" and _binary(str(folder), value, env):
                # `diff.NAME.binary` true: "Binary files differ", as for `-diff`
                found.append(Conversion(attribute=attribute, value=value, binary=True))
            if not driver:
                continue  # git's own diff, or a driver that runs no program
        else:
            driver = _driver(str(folder), value, env) if attribute == "filter" else ""
        found.append(Conversion(attribute=attribute, value=value, driver=driver))
    if not found:
        return None
    files, tracked = _attribute_files(str(folder), name, env)
    wanted = {conversion.attribute for conversion in found}
    target = (Path(folder) / name).parent.resolve() / Path(name).name
    settings = [
        setting
        for file, base in files
        if target.is_relative_to(base)
        for setting in _settings(file, wanted, target.relative_to(base).as_posix())
    ]
    return Found(conversions=tuple(found), settings=tuple(settings), tracked=frozenset(tracked))


def _hides(attribute: str, value: str) -> bool:
    """Whether git's answer ``value`` for ``attribute`` hides the file's changes from a
    reviewer (:data:`HIDDEN`)."""
    if attribute == "diff":
        return value == "unset"
    return attribute == "linguist-generated" and value not in ("unspecified", "unset", "false")


def _driver(folder: str, name: str, env: dict[str, str], *, kind: str = "filter") -> str:
    """The programs `git config` names for the filter ``name`` (``filter.NAME.clean=...``),
    or, with ``kind`` "diff", for the diff driver ``name`` (``diff.NAME.textconv=...``,
    ``diff.NAME.command=...``)."""
    from goalfile.gitrun import GitUnreadable, _git_read

    key = (
        f"^filter\\.{re.escape(name)}\\."
        if kind == "filter"
        else f"^diff\\.{re.escape(name)}\\.(textconv|command)$"
    )
    try:
        done = _git_read(folder, ["config", "--get-regexp", key], env)
    except GitUnreadable:
        return ""
    lines = done.stdout.decode("utf-8", "replace").splitlines()
    return "; ".join(f"{k} = {v}" for k, _, v in (line.partition(" ") for line in lines))


def _binary(folder: str, name: str, env: dict[str, str]) -> bool:
    """Whether `git config` makes the diff driver ``name`` treat files as binary
    (``diff.NAME.binary`` true): `git diff` then prints "Binary files differ" for them."""
    from goalfile.gitrun import GitUnreadable, _git_read

    try:
        done = _git_read(folder, ["config", "--bool", "--get", f"diff.{name}.binary"], env)
    except GitUnreadable:
        return False
    return done.returncode == 0 and done.stdout.strip() == b"true"


def _attribute_files(
    folder: str, name: str, env: dict[str, str]
) -> tuple[list[tuple[Path, Path]], set[Path]]:
    """The attributes files git reads for ``name``, most binding first, each with the folder
    its patterns are relative to: the repository's ``info/attributes``, each
    ``.gitattributes`` from the file's folder up to the top, the ``core.attributesFile`` (or
    its default) and the system's; and of them, those git tracks."""
    from goalfile.gitrun import GitUnreadable, _git_read

    try:
        paths = _git_read(
            folder, ["rev-parse", "--show-toplevel", "--git-path", "info/attributes"], env
        )
        config = _git_read(folder, ["config", "--path", "--get", "core.attributesFile"], env)
    except GitUnreadable:
        return [], set()
    told = paths.stdout.decode("utf-8", "surrogateescape").splitlines()
    if paths.returncode != 0 or len(told) != 2:
        return [], set()
    top = Path(told[0]).resolve()
    files = [(Path(folder) / told[1], top)]
    tracked: set[Path] = set()
    here = (Path(folder) / name).parent.resolve()
    chain = [here, *here.parents]
    for level in chain[: chain.index(top) + 1] if top in chain else [top]:
        files.append((level / ".gitattributes", level))
        tracked.add(level / ".gitattributes")
    own = config.stdout.decode("utf-8", "surrogateescape").strip()
    if own:
        files.append((Path(folder) / os.path.expanduser(own), top))
    else:
        home = env.get("HOME") or os.path.expanduser("~")  # git's environment: its own files
        xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        files.append((Path(xdg) / "git" / "attributes", top))
    if not env.get("GIT_ATTR_NOSYSTEM"):
        files.append((Path("/etc/gitattributes"), top))
    return files, tracked


def _settings(file: Path, wanted: set[str], relative: str) -> list[Setting]:
    """The lines of the attributes file ``file`` that set (or give a value to) one of
    ``wanted`` for a pattern that may match ``relative`` (the goal's path from the folder the
    file's patterns are relative to), a macro's definition included; none when it cannot be
    read."""
    from goalfile.errors import GoalfileError
    from goalfile.files import read_regular

    try:  # a FIFO or a device there is not waited on
        text = read_regular(file, what="git attributes file", limit=1 << 20).decode(
            "utf-8", "replace"
        )
    except (OSError, GoalfileError):
        return []
    found: list[Setting] = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if not words[0].startswith("[attr]") and not _may_match(words[0], relative):
            continue  # a line for other files (`*.png filter=lfs`) is not the goal's
        if any(_named(word) in wanted for word in words[1:]):
            found.append(Setting(file=file, line=number, text=line.strip()))
    return found


def _named(word: str) -> str:
    """The attribute a word of an attributes line sets, unsets or gives a value to
    (``-diff``, ``!diff`` and ``diff=x`` name ``diff``; the ``binary`` macro unsets it)."""
    name = word.lstrip("-!").split("=", 1)[0]
    return "diff" if name == "binary" else name


def _may_match(pattern: str, relative: str) -> bool:
    """Whether the attributes pattern ``pattern`` may match the path ``relative``: a pattern
    without a slash matches the file's name, one with a slash the whole path (a leading one
    anchors it). ``*`` is read as crossing slashes, as ``**`` does: a line named that git does
    not apply is better than a line git applies left unnamed."""
    from fnmatch import fnmatchcase

    if pattern.startswith('"'):
        return True  # a quoted pattern: named rather than read
    if "/" not in pattern.rstrip("/"):
        return fnmatchcase(relative.rsplit("/", 1)[-1], pattern.rstrip("/"))
    return fnmatchcase(relative, pattern.strip("/"))


def refusal(found: Found, shown: str, here: Path) -> tuple[str, str]:
    """What to say of a goal file (named ``shown``) that ``found`` applies to, and the fix that
    works as written from ``here``."""
    said = []
    for conversion in found.conversions:
        what = (
            f"`{conversion.attribute}`"
            if conversion.value == "set"
            else f"`-{conversion.attribute}`"
            if conversion.value == "unset"
            else f"`{conversion.attribute}={conversion.value}`"
        )
        if conversion.attribute == "diff" and (conversion.value == "unset" or conversion.binary):
            binary = f" with diff.{conversion.value}.binary = true" if conversion.binary else ""
            what += (
                f'{binary} (`git diff`, `git log -p` and `git show` print "Binary files differ" '
                "in place of its changes)"
            )
        elif conversion.attribute == "linguist-generated":
            what += " (GitHub folds its changes in a pull request, as a generated file's)"
        elif conversion.attribute == "filter":
            driver = conversion.driver or "no program configured yet"
            what += f" (a program git runs on `git add` and `git commit`: {driver})"
        elif conversion.attribute in SHOWN:
            what += (
                " (a program whose output `git diff`, `git log -p` and `git show` show in "
                f"place of the file: {conversion.driver})"
            )
        said.append(what)
    where = [
        f"{_shown(setting.file, here)}:{setting.line}: `{setting.text}`"
        for setting in found.settings
    ]
    source = f", set by {'; '.join(where)}" if where else ""
    kinds = {_kind(conversion) for conversion in found.conversions}
    message = f"git applies {', '.join(said)} to {shown}{source}: " + (
        "git would store (and `git diff` and a commit would show) other bytes than the goal "
        "file holds"
        if "stored" in kinds
        else "a person reviewing it with git would read what that program prints, not the goal file"
        if "shown" in kinds
        else "a person reviewing a change of it would not see the change (a check loosened and "
        "re-approved reaches them as nothing)"
    )
    by_file: dict[Path, list[int]] = {}
    for setting in found.settings:
        by_file.setdefault(setting.file, []).append(setting.line)
    if not by_file:
        return message, (
            f"`git check-attr -a -- {shell_word(shown)}` lists what git applies; delete the line "
            "that sets it in .gitattributes, .git/info/attributes or core.attributesFile"
        )
    commands = [  # each `[ ! -e BACKUP ] && sed -i... && rm -- BACKUP`, without its backticks
        sed_command(_shown(file, here), [f"{line}d" for line in lines])[1:-1]
        for file, lines in by_file.items()
    ]
    fix = f"`{' && '.join(commands)}`"
    if any(file in found.tracked for file in by_file):
        fix += " (then commit the changed .gitattributes)"
    return message, fix


def _kind(conversion: Conversion) -> str:
    """ "stored" (git stores other bytes), "shown" (a program's output is shown in place of
    the file) or "hidden" (the file's changes are not shown)."""
    if conversion.attribute == "linguist-generated" or (
        conversion.attribute == "diff" and (conversion.value == "unset" or conversion.binary)
    ):
        return "hidden"
    return "shown" if conversion.attribute in SHOWN else "stored"


def _shown(file: Path, here: Path) -> str:
    """``file`` as a command run from ``here`` names it: relative when it lies below ``here``."""
    absolute = Path(os.path.abspath(file))
    try:
        return absolute.relative_to(Path(os.path.abspath(here))).as_posix()
    except ValueError:
        return str(absolute)


def stage_exact(folder: str, relative: str) -> str | None:
    """Put the file at ``relative`` (from the top of the repository at ``folder``) in git's
    index as exactly the bytes it holds (a symlink as the path it holds), with no filter or
    conversion git's attributes name: `git hash-object -w --no-filters` and `git update-index
    --add --cacheinfo`; then check that the index holds those bytes and the file still does.
    None when it did; else what went wrong (an ignored file is refused, as `git add` does:
    :data:`GIT_IGNORED`)."""
    from goalfile.gitrepo import git_ignored, git_index_entry, git_write_blob
    from goalfile.gitrun import GitUnreadable, _git_clean, _git_read

    if git_ignored(folder, relative):
        return GIT_IGNORED
    env = _git_clean()
    path = os.path.join(folder, relative)
    try:
        data, mode = _bytes_of(path)
        blob = git_write_blob(folder, data)
        git_index_entry(folder, mode=mode, blob=blob, name=relative)
        spec = f":(literal){relative}"
        listed = _git_read(folder, [*_GIT, "ls-files", "-s", "-z", "--", spec], env)
        stored = _git_read(folder, [*_GIT, "cat-file", "blob", blob], env)
    except GitUnreadable as exc:
        return str(exc)
    except OSError as exc:
        return f"it cannot be read: {exc.strerror or exc}"
    entry = listed.stdout.split(b"\0")[0].split(b"\t")[0].split(b" ")
    if listed.returncode != 0 or entry[:2] != [mode.encode(), blob.encode()]:
        return "git's index does not hold the bytes written"
    try:
        now = _bytes_of(path)[0]
    except OSError:
        now = None
    if stored.returncode != 0 or stored.stdout != data or now != data:
        return "git's index does not hold the bytes the file holds"
    return None


def _bytes_of(path: str) -> tuple[bytes, str]:
    """The bytes git stores for the file at ``path`` and its mode: a symlink's target, or the
    file's content."""
    if os.path.islink(path):
        return os.fsencode(os.readlink(path)), "120000"
    with open(path, "rb") as handle:
        data = handle.read()
        executable = os.fstat(handle.fileno()).st_mode & 0o100
    return data, "100755" if executable else "100644"


def check(path: str, here: Path, *, hidden: bool = False) -> tuple[str, str] | None:
    """:func:`refusal` for the goal file at ``path`` (relative to ``here``, or absolute) when
    an attribute of :data:`REFUSED` (or, with ``hidden``, of :data:`HIDDEN`) applies to it
    (asked of git in its folder), else None."""
    where = here / path
    if not where.parent.is_dir():
        return None
    found = conversions(where.parent, where.name, hidden=hidden)
    return None if found is None else refusal(found, path, here)


def require_plain(path: str, here: Path, *, doing: str) -> None:
    """Raise :class:`~goalfile.errors.Refused` (exit 3) when git converts the goal file at
    ``path``, or hides its changes from a reviewer (:data:`HIDDEN`); ``doing`` says what was
    not done (``nothing was approved``)."""
    from goalfile.errors import Refused

    refused = check(path, here, hidden=True)
    if refused is not None:
        message, fix = refused
        raise Refused(f"{message}; {doing}", file=path, hint=fix)
