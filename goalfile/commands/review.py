"""`goalfile review PATH ID --artifact FILE --quote TEXT --verdict met|unmet`: record a review."""

from __future__ import annotations

from dataclasses import dataclass

from goalfile import edit
from goalfile.artifacts import covers, read_artifact, relative, resolve_artifact
from goalfile.commands.context import Context
from goalfile.commands.mutate import require_status, update_goal
from goalfile.commands.verify import working_directory
from goalfile.errors import ExitCode, MeantOther, NoSuchRow, Refused, UsageError
from goalfile.handedit import reopen_notes
from goalfile.lint import require_valid
from goalfile.model import Goal, Kind, Status, Verdict
from goalfile.parse import review_artifact
from goalfile.review import quote_present, render_review
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name

QUOTE_LIMIT = 4_000


class NamedArtifact(MeantOther):
    """`--artifact` names another file than the one the review row names (exit 3, nothing
    recorded): the fix is the command line with the row's artifact."""

    exit_code = ExitCode.INVALID


@dataclass(frozen=True, kw_only=True)
class ReviewResult:
    path: str
    id: str
    verdict: Verdict
    artifact: str
    iteration: int

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "path": self.path,
            "id": self.id,
            "verdict": self.verdict.value,
            "artifact": self.artifact,
            "iteration": self.iteration,
        }


def review(
    *,
    path: str,
    row_id: str,
    artifact: str,
    quote: str,
    verdict: Verdict,
    reason: str,
    ctx: Context,
) -> ReviewResult:
    if verdict not in (Verdict.MET, Verdict.UNMET):
        raise UsageError("--verdict must be met or unmet")
    if len(quote) > QUOTE_LIMIT:
        raise UsageError(
            f"--quote is longer than {QUOTE_LIMIT} characters; quote the passage "
            "that decides, not the whole artifact"
        )
    if verdict is Verdict.MET and not quote.strip():
        raise UsageError("a met review needs --quote: the passage of the artifact that decides")
    if verdict is Verdict.UNMET and not reason.strip():
        raise UsageError("an unmet review needs --reason: what the artifact lacks")

    def change(text: str, goal: Goal) -> tuple[str, ReviewResult]:
        require_valid(goal)
        row = goal.criterion(row_id)
        if row is None:
            raise NoSuchRow(
                f"no criterion {row_id} in {file_name(path)}",
                given=row_id,
                ids=[r.id for r in goal.criteria],
                path=path,
            )
        if row.kind is not Kind.REVIEW:
            raise Refused(
                f"{row_id} is a deterministic row: its check decides it, not a review",
                file=path,
                line=row.line,
                hint=f"run `goalfile verify {shell_word(path)}`"
                if goal.status is Status.ACTIVE
                else f"to run its check without writing: `goalfile verify --no-write "
                f"{shell_word(path)}`",
            )
        require_status(goal, path, (Status.ACTIVE,), "review")
        workdir = working_directory(goal)
        target = resolve_artifact(workdir, artifact)
        named = review_artifact(row)
        if named is not None and not covers(resolve_artifact(workdir, named), target):
            raise NamedArtifact(
                f"{row_id} reviews {named}, not {artifact}; nothing was recorded",
                given=artifact,
                instead=named,
                hint="",  # the command line with `--artifact NAMED` (the CLI boundary writes it)
            )
        content, _ = read_artifact(target)
        if quote.strip() and not quote_present(quote, content):
            raise Refused(
                f"the quote does not occur in {artifact} (whitespace aside): a quote is a "
                "passage copied verbatim from it; nothing was recorded",
            )
        shown = relative(workdir, target)
        lines = render_review(
            iteration=goal.iterations_used,
            date=ctx.today,
            row_id=row_id,
            verdict=verdict,
            artifact=shown,
            quote=quote,
            reason=reason,
            preface=reopen_notes(goal),
        )
        text = edit.append_to_section(text, "Iterations", lines)
        return text, ReviewResult(
            path=path, id=row_id, verdict=verdict, artifact=shown, iteration=goal.iterations_used
        )

    return update_goal(path, ctx, command="goalfile review", change=change)
