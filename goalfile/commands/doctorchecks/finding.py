"""What `goalfile doctor` reports: each finding (``ok``, ``problem`` with the command that fixes
it, or ``unknown`` with why), the commands its fixes name, and the result. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from goalfile.errors import ExitCode

SCHEMA_VERSION = 1


INIT_HOOKS = "goalfile init --no-goal --no-skills"


TRUST_CODEX = "goalfile init --no-goal --no-skills --trust-codex"


FIX_TIMEOUTS = "goalfile doctor --fix-timeouts"


FIX_HOOKS = "goalfile doctor --fix-hooks"


REMOVE_OTHER_STOP_HOOKS = "goalfile doctor --remove-other-stop-hooks"


class Health(StrEnum):
    OK = "ok"
    PROBLEM = "problem"
    UNKNOWN = "unknown"


@dataclass(frozen=True, kw_only=True)
class Finding:
    host: str  # "claude", "codex", "skills"
    check: str  # "hook", "path", "trust", "skill"
    health: Health
    detail: str
    fix: str | None = None  # a command that fixes it, as written
    hint: str | None = None  # what to do when no command can

    def to_json(self) -> dict[str, object]:
        return {
            "host": self.host,
            "check": self.check,
            "health": self.health.value,
            "detail": self.detail,
            "fix": self.fix,
            "hint": self.hint,
        }


@dataclass(frozen=True)
class Check:
    """One check of one host, to write its findings by their health:
    ``Check("codex", "trust").problem(detail=..., fix=..., hint=...)``."""

    host: str
    check: str

    def ok(self, *, detail: str) -> Finding:
        return Finding(host=self.host, check=self.check, health=Health.OK, detail=detail)

    def problem(self, *, detail: str, fix: str | None = None, hint: str | None = None) -> Finding:
        return Finding(
            host=self.host,
            check=self.check,
            health=Health.PROBLEM,
            detail=detail,
            fix=fix,
            hint=hint,
        )

    def unknown(self, *, detail: str, hint: str | None = None) -> Finding:
        return Finding(
            host=self.host, check=self.check, health=Health.UNKNOWN, detail=detail, hint=hint
        )


@dataclass(frozen=True, kw_only=True)
class DoctorResult:
    root: str
    findings: tuple[Finding, ...]
    fixed: tuple[str, ...] = ()  # what --fix-timeouts changed, one sentence each
    first: tuple[str, ...] = ()  # the commands that fix most problems, in order (text only)
    covered: frozenset[str] = frozenset()  # the problems' fixes ``first`` stands for

    @property
    def ok(self) -> bool:
        return all(f.health is not Health.PROBLEM for f in self.findings)

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.ok else ExitCode.UNMET

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": SCHEMA_VERSION,
            "root": self.root,
            "ok": self.ok,
            "findings": [f.to_json() for f in self.findings],
            "fixed": list(self.fixed),
            "exit_code": int(self.exit_code),
        }
