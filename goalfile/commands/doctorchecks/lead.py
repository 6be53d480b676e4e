"""The commands `goalfile doctor` leads with: in a repository goalfile has not been set up in
(a fresh ``git init``), a dozen problems share two fixes, `goalfile init --no-goal` and the
commit of what it wrote. The one or two commands that fix most problems come first, run in
that order; the problems they fix are listed under them, without a fix line each. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from goalfile.commands.doctorchecks.finding import INIT_HOOKS, Finding, Health

INIT = "goalfile init --no-goal"
"""What `init` writes with no goal: the hooks, the pi extension and the skills."""

SKILLS_INSTALL = "goalfile skills install"

MOST = 2
"""Commands to lead with, at most."""


@dataclass(frozen=True)
class Lead:
    commands: tuple[str, ...]  # to run in this order
    covers: frozenset[str]  # the problems' fixes these commands stand for


NONE = Lead((), frozenset())


def lead(
    findings: tuple[Finding, ...], *, commit: str | None, commit_after: Mapping[str, str]
) -> Lead:
    """The commands to run first. ``commit`` is the fix of the problem "not committed" (for
    what exists now); ``commit_after`` gives, for :data:`INIT` and :data:`INIT_HOOKS`, the
    commit of all that command leaves to commit, which follows it when it leads. No lead
    when no command fixes two problems or more."""
    fixes = [f.fix for f in findings if f.health is Health.PROBLEM and f.fix]
    count = {fix: fixes.count(fix) for fix in dict.fromkeys(fixes)}
    if INIT_HOOKS in count and SKILLS_INSTALL in count:  # init writes both
        count[INIT] = count.pop(INIT_HOOKS) + count.pop(SKILLS_INSTALL)
    ranked = sorted((fix for fix in count if count[fix] >= 2), key=lambda fix: -count[fix])
    chosen = ranked[:MOST]
    init = next((fix for fix in chosen if fix in (INIT, INIT_HOOKS)), None)
    if init is not None:  # then the commit of all it wrote, as README says
        covers = {init, commit} | ({INIT_HOOKS, SKILLS_INSTALL} if init == INIT else set())
        return Lead((init, commit_after[init]), frozenset(fix for fix in covers if fix))
    return Lead(tuple(chosen), frozenset(chosen))
