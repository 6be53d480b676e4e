"""Performance ratios of goalfile, each measured side by side with a baseline in the same run.

    .venv/bin/python bench/run.py [--repeats N] [--quick] [--json] [--clock wall|cpu]
                                  [--only GROUPS]

Every row times goalfile and its baseline alternately, ``--repeats`` times (the startup,
overhead, ledger and parallel rows after one untimed warm-up of each), and reports the medians
(peak memory and leftover processes: the worst repeat; 64 MB is read as 64 MiB, as in the
memory test). ``--quick`` is a smoke run: fewer repeats and smaller sizes, so its figures are
not the ones the targets are about. Progress goes to stderr; the result goes to stdout as one
Markdown table (ready for docs/performance.md) and a line describing the machine, or with
``--json`` as one JSON document. ``--clock cpu`` times the side-by-side rows by the CPU time
of each process and its children instead of elapsed time (on a machine busy with other work
elapsed time mostly measures the others); ``--only`` measures some groups of rows.

Exit status: 0 when every target is met; 1 when one is not; 2 when goalfile misbehaved (a
refusal, an unexpected exit code, a lint error in a bench goal), with a message saying what.

Uses only the standard library and the installed goalfile (its command and bench/verify_peak.py);
it is not part of the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import platform
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

# The checks of the overhead rows. A trivial check starts one small program, as nearly every
# real check does; a shell builtin starts none, so it shows the fixed costs at their largest.
TRIVIAL_CHECK = "grep -q small notes.txt"
BUILTIN_CHECK = "test -d ."
TRIVIAL_EXPECTED = "exit 0"

SHELL = "/bin/sh"
WRAPPER = Path(__file__).with_name("verify_peak.py")  # verify in-process, reporting its VmHWM
RUN_TIMEOUT = 1800.0  # seconds any one command may take before the bench gives up on it
LEDGER_MARK = "987654"  # the output of the real run whose entry is renumbered into the ledger
EXIT_MET, EXIT_ACTIVE, EXIT_BLOCKED = 0, 1, 4
# GOALFILE_* would change what goalfile does; without bytecode written once (the warm-up run
# writes it), every goalfile process would compile its modules again
ENV = {
    key: value
    for key, value in os.environ.items()
    if not key.startswith("GOALFILE_") and key != "PYTHONDONTWRITEBYTECODE"
}


class BenchError(Exception):
    """goalfile did something the bench does not expect; the run cannot go on."""


@dataclass(frozen=True)
class Sizes:
    repeats: int
    checks: int  # trivial checks of the overhead row
    entries: int  # prior ledger entries of the ledger rows
    big_bytes: int  # output of the big-output check
    sleep: float  # seconds of each of the parallel row's eight checks
    length: int = 3000  # ledger entries (of eight rows each) of the ledger-length rows


FULL = Sizes(repeats=5, checks=200, entries=5000, big_bytes=1_000_000_000, sleep=1.0)
QUICK = Sizes(repeats=2, checks=50, entries=500, big_bytes=100_000_000, sleep=0.5, length=300)


@dataclass(frozen=True)
class Target:
    limit: float
    at_least: bool = False  # else: at most

    def met(self, value: float) -> bool:
        return value >= self.limit if self.at_least else value <= self.limit

    def text(self, unit: str) -> str:
        sign = "≥" if self.at_least else "≤"
        return f"{sign} {self.limit:g}{'' if unit in ('×', '') else ' '}{unit}"


@dataclass(frozen=True)
class Row:
    measure: str
    goalfile: float | None
    baseline: float | None
    unit: str  # of the goalfile and baseline columns
    value: float | None
    value_unit: str
    target: Target | None

    @property
    def ok(self) -> bool | None:
        """None: no target."""
        if self.target is None:
            return None
        return self.value is not None and self.target.met(self.value)


@dataclass(frozen=True)
class Command:
    label: str
    argv: tuple[str, ...]
    cwd: Path
    expect: int
    restore: tuple[Path, Path] | None = None  # copy source to target before each run
    stdin: bytes = b""


# --- running and timing ---------------------------------------------------------------------


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def goalfile_argv() -> tuple[str, ...]:
    """The `goalfile` script next to this Python (the venv's bin), else `python -m goalfile`."""
    script = Path(sys.executable).with_name("goalfile")
    if script.is_file() and os.access(script, os.X_OK):
        return (str(script),)
    return (sys.executable, "-m", "goalfile")


def goalfile(*args: str | Path) -> tuple[str, ...]:
    return (*goalfile_argv(), *(str(arg) for arg in args))


def timed_run(command: Command) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    """Restore the file the command changes, then run it; the restore is not timed."""
    if command.restore is not None:
        shutil.copyfile(*command.restore)
    began = time.perf_counter()
    done = subprocess.run(
        command.argv,
        cwd=command.cwd,
        env=ENV,
        input=command.stdin,
        capture_output=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    return time.perf_counter() - began, done


def expect_exit(command: Command, done: subprocess.CompletedProcess[bytes]) -> None:
    if done.returncode != command.expect:
        tail = (done.stdout + done.stderr).decode(errors="replace")[-2000:]
        raise BenchError(
            f"{command.label}: exit {done.returncode}, expected {command.expect}\n"
            f"  command: {shlex.join(command.argv)}\n{tail}"
        )


# what side-by-side rows time: "wall" (elapsed) or "cpu" (user and system time of the process
# and its children, which other work on a busy machine barely changes); set by --clock
CLOCK = "wall"


def run_once(command: Command, clock: str = "wall") -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    took, done = timed_run(command)
    expect_exit(command, done)
    if clock == "cpu":
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took


def side_by_side(first: Command, second: Command, repeats: int) -> tuple[float, float]:
    """Median seconds of each, run alternately (order swapped every repeat) after a warm-up."""
    run_once(first)
    run_once(second)
    times: tuple[list[float], list[float]] = ([], [])
    for repeat in range(repeats):
        progress(f"  {first.label} vs {second.label}: {repeat + 1}/{repeats}")
        for index in (0, 1) if repeat % 2 == 0 else (1, 0):
            times[index].append(run_once((first, second)[index], CLOCK))
    return statistics.median(times[0]), statistics.median(times[1])


# --- goal files -----------------------------------------------------------------------------


def goal_text(slug: str, checks: Sequence[str], expected: str, timeout: float) -> str:
    """A draft goal whose checks run in its own folder (`cwd: .`), with the sections of the
    template `goalfile new` writes."""
    rows = "".join(
        f"| C{n} | check {n} | `{check.replace('|', chr(92) + '|')}` | {expected} |"
        " deterministic |\n"
        for n, check in enumerate(checks, 1)
    )
    return (
        f"---\nslug: {slug}\nstatus: draft\ncreated: 2026-11-30\n"
        "budget:\n  iterations: 1000000\n  tokens: null\n"
        f"iterations_used: 0\ntokens_used: 0\ncwd: .\ntimeout: {timeout:g}\n---\n"
        f"# Goal: bench {slug}\n\n## Non-goals\n- no check changes a file\n\n"
        "## Acceptance criteria\n| id | criterion | check | expected | kind |\n"
        "|----|-----------|-------|----------|------|\n"
        f"{rows}\n## Token accounting\n\n## Iterations\n\n## Lessons\n"
    )


def lint(path: Path) -> None:
    run_once(Command(f"lint {path.name}", goalfile("lint", path), path.parent, EXIT_MET))


def prepared(
    folder: Path, checks: Sequence[str], expected: str = "exit 0", timeout: float = 60
) -> Path:
    """An active goal, linted and pinned by `goalfile activate`, alone in ``folder``."""
    folder.mkdir(parents=True)
    path = folder / "pristine.md"
    path.write_text(goal_text(folder.name, checks, expected, timeout), encoding="utf-8")
    lint(path)
    run_once(Command(f"activate {folder.name}", goalfile("activate", path), folder, EXIT_MET))
    return path


def verify(pristine: Path, expect: int, *options: str) -> Command:
    """`goalfile verify` of a working copy that is reset to ``pristine`` before each run."""
    work = pristine.with_name("goal.md")
    return Command(
        " ".join(("verify", pristine.parent.name, *options)),
        goalfile("verify", *options, work),
        pristine.parent,
        expect,
        restore=(pristine, work),
    )


# --- startup --------------------------------------------------------------------------------


def python_pass(folder: Path) -> Command:
    return Command("python -c pass", (sys.executable, "-c", "pass"), folder, EXIT_MET)


IMPORT_FLOOR = "import click, yaml, markdown_it, frontmatter"  # the named dependencies


def import_floor(folder: Path) -> Command:
    argv = (sys.executable, "-c", IMPORT_FLOOR)
    return Command(f"python -c {IMPORT_FLOOR!r}", argv, folder, EXIT_MET)


def startup_rows(root: Path, sizes: Sizes) -> list[Row]:
    progress("startup")
    small = prepared(root / "small", [TRIVIAL_CHECK], TRIVIAL_EXPECTED)
    (small.parent / "notes.txt").write_text("a small file for the checks to read\n", "utf-8")
    rows: list[Row] = []
    for name, target in (("--version", Target(3)), ("--help", Target(3)), ("status GOAL", None)):
        argv = goalfile(*(name.split() if name != "status GOAL" else ("status", small)))
        command = Command(f"goalfile {name}", argv, root, EXIT_MET)
        mine, base = side_by_side(command, python_pass(root), sizes.repeats)
        measure = f"startup: `goalfile {name}` vs `python -c pass`"
        rows.append(ratio_row(measure, mine, base, target))
    met = met_goal(small)
    floor = f'`python -c "{IMPORT_FLOOR}"`'
    for name, command in (
        ("one-row `verify --no-write`", verify_no_write(met, EXIT_MET)),
        ("`hook stop` on a met goal", hook_stop(met)),
    ):
        mine, base = side_by_side(command, import_floor(root), sizes.repeats)
        rows.append(ratio_row(f"cold start: {name} vs {floor}", mine, base, Target(1.25)))
    # the command the test suite and a pre-commit hook start most often; no target of its own
    lint = Command(f"lint {met.parent.name}", goalfile("lint", met), met.parent, EXIT_MET)
    mine, base = side_by_side(lint, import_floor(root), sizes.repeats)
    rows.append(ratio_row(f"cold start: one-row `lint` vs {floor}", mine, base))
    return rows


def met_goal(pristine: Path) -> Path:
    """A copy of ``pristine`` made met by a real verify, in its own file."""
    run_once(verify(pristine, EXIT_MET))
    met = pristine.with_name("met.md")
    shutil.copyfile(pristine.with_name("goal.md"), met)
    if "\nstatus: met\n" not in met.read_text(encoding="utf-8"):
        raise BenchError(f"{met}: verify did not make the goal met")
    return met


def verify_no_write(path: Path, expect: int) -> Command:
    argv = goalfile("verify", "--no-write", path)
    return Command(f"verify --no-write {path.parent.name}", argv, path.parent, expect)


def hook_stop(path: Path, restore: Path | None = None) -> Command:
    """`goalfile hook stop --goal PATH` with the JSON a host sends; it always exits 0."""
    stop = {"session_id": "bench", "cwd": str(path.parent), "hook_event_name": "Stop"}
    return Command(
        f"hook stop {path.parent.name}",
        goalfile("hook", "stop", "--goal", path),
        path.parent,
        EXIT_MET,
        restore=(restore, path) if restore is not None else None,
        stdin=json.dumps(stop).encode(),
    )


def ratio_row(measure: str, mine: float, base: float, target: Target | None = None) -> Row:
    return Row(measure, mine, base, "s", mine / base, "×", target)


# --- overhead -------------------------------------------------------------------------------


def shell_loop(folder: Path, check: str, count: int, *, capture: bool) -> Command:
    """One sh script running `sh -c CHECK` ``count`` times: keeping each run's output and exit
    status (what a checker needs to judge it), or sending the output to /dev/null."""
    run = f"{SHELL} -c {shlex.quote(check)}"
    line = f"out=$({run} 2>&1); status=$?\n" if capture else f"{run} >/dev/null 2>&1\n"
    script = folder / ("capture.sh" if capture else "discard.sh")
    script.write_text(line * count, encoding="utf-8")
    return Command(f"sh loop of {count}", (SHELL, str(script)), folder, EXIT_MET)


def overhead_rows(root: Path, sizes: Sizes) -> list[Row]:
    rows: list[Row] = []
    for check, target in ((TRIVIAL_CHECK, Target(1.5)), (BUILTIN_CHECK, None)):
        progress(f"overhead: {sizes.checks} × `{check}`")
        folder = root / f"overhead-{len(rows)}"
        pristine = prepared(folder, [check] * sizes.checks, TRIVIAL_EXPECTED)
        (folder / "notes.txt").write_text("a small file for the checks to read\n", "utf-8")
        for capture in (True, False):
            loop = shell_loop(folder, check, sizes.checks, capture=capture)
            mine, base = side_by_side(verify(pristine, EXIT_MET), loop, sizes.repeats)
            kept = "keeping each output" if capture else "output to /dev/null"
            measure = f"overhead: verify of {sizes.checks} × `{check}` vs sh loop, {kept}"
            rows.append(ratio_row(measure, mine, base, target if capture else None))
    return rows


# --- ledger growth --------------------------------------------------------------------------


def real_entry(pristine: Path) -> str:
    """The entry a real verify appends: C1 unmet, printing LEDGER_MARK, status active."""
    (pristine.parent / "left.txt").write_text(f"{LEDGER_MARK}\n", encoding="utf-8")
    run_once(verify(pristine, EXIT_ACTIVE))
    text = pristine.with_name("goal.md").read_text(encoding="utf-8")
    entry = text[text.rindex("### Iteration 0 (") : text.index("\n## Lessons")]
    if "by verify-goal" not in entry or "status: active" not in entry:
        raise BenchError(f"unexpected verify entry:\n{entry}")
    return entry.strip("\n") + "\n"


def renumbered(entry: str, iteration: int, left: int) -> str:
    return entry.replace("### Iteration 0 ", f"### Iteration {iteration} ", 1).replace(
        LEDGER_MARK, str(left)
    )


def replaced(text: str, old: str, new: str) -> str:
    if old not in text:
        raise BenchError(f"cannot find {old!r} in the bench goal")
    return text.replace(old, new, 1)


def with_ledger(text: str, entry: str, count: int) -> str:
    """``text`` with ``count`` entries 1..count after its activate entry, counting down the
    output so no two runs look alike, and ``iterations_used`` at the newest entry."""
    ledger = "\n".join(renumbered(entry, n, count - n + 1) for n in range(1, count + 1))
    text = replaced(text, "\niterations_used: 0\n", f"\niterations_used: {count}\n")
    return replaced(text, "\n## Lessons\n", f"\n{ledger}\n## Lessons\n")


def ledger_goals(root: Path, entries: int) -> tuple[Path, Path]:
    """The fresh goal (only its activate entry) and the same goal with ``entries`` more."""
    fresh = prepared(root / "fresh", ["cat left.txt"], "exit 0; prints 0")
    entry = real_entry(fresh)
    grown = root / "grown" / "pristine.md"
    grown.parent.mkdir()
    text = fresh.read_text(encoding="utf-8")
    grown.write_text(with_ledger(text, entry, entries), encoding="utf-8")
    lint(grown)
    for path in (fresh, grown):
        (path.parent / "left.txt").write_text("0\n", encoding="utf-8")
    return fresh, grown


def status(path: Path) -> Command:
    return Command(f"status {path.parent.name}", goalfile("status", path), path.parent, EXIT_MET)


def ledger_rows(root: Path, sizes: Sizes) -> list[Row]:
    progress(f"ledger growth: {sizes.entries:,} entries")
    fresh, grown = ledger_goals(root, sizes.entries)
    mine, base = side_by_side(verify(grown, EXIT_MET), verify(fresh, EXIT_MET), sizes.repeats)
    name = f"{sizes.entries:,} ledger entries vs fresh goal"
    rows = [ratio_row(f"ledger: verify, {name}", mine, base, Target(1.2))]
    mine, base = side_by_side(status(grown), status(fresh), sizes.repeats)
    rows.append(ratio_row(f"ledger: status, {name}", mine, base, Target(1.2)))
    return rows


# --- ledger length ----------------------------------------------------------------------

LENGTH_ROWS = 8  # rows of each ledger entry of the ledger-length rows
NOTES = "notes.md"  # the artifact the review row names
QUOTE = "the notes say what was done"


def length_goal_text(slug: str) -> str:
    """An active goal with one check and one review row (the review command needs one)."""
    text = goal_text(slug, ["cat left.txt"], "exit 0; prints 0", 60)
    text = replaced(text, "\nstatus: draft\n", "\nstatus: active\n")
    review = f"| R1 | notes | `{NOTES}` | reviewed | review |\n"
    text = replaced(text, "deterministic |\n\n", f"deterministic |\n{review}\n")
    plan = (
        "## Plan\n| step | change | files | serves | check |\n"
        "|------|--------|-------|--------|-------|\n"
        f"| 1 | write the notes | {NOTES} | C1, R1 | `cat left.txt` |\n\n"
    )
    return replaced(text, "## Token accounting", plan + "## Token accounting")


def eight_row_entry(root: Path) -> str:
    """The entry a real verify of an eight-row goal appends (every row unmet, printing
    LEDGER_MARK)."""
    pristine = prepared(root / "source", ["cat left.txt"] * LENGTH_ROWS, "exit 0; prints 0")
    entry = real_entry(pristine)
    verdicts = [line.split("|")[2].strip() for line in entry.splitlines() if line.startswith("| C")]
    if verdicts != ["unmet"] * LENGTH_ROWS:
        raise BenchError(f"unexpected verify entry:\n{entry}")
    return entry


def length_goals(root: Path, entries: int, pinned: bool) -> tuple[Path, Path]:
    """An active goal with an empty ledger (pinned: only its activate entry) and the same goal
    with ``entries`` entries of eight rows after it; with ``pinned`` False the goal has no
    `contract:` pin and no activate entry, as a goal a skill writes."""
    kind = "pinned" if pinned else "unpinned"
    source = eight_row_entry(root / kind)
    empty = root / kind / "empty" / "pristine.md"
    empty.parent.mkdir(parents=True)
    text = length_goal_text(f"{kind}-empty")
    if pinned:
        empty.write_text(text.replace("\nstatus: active\n", "\nstatus: draft\n"), "utf-8")
        run_once(Command(f"activate {kind}", goalfile("activate", empty), empty.parent, EXIT_MET))
        text = empty.read_text(encoding="utf-8")
    else:
        empty.write_text(text, encoding="utf-8")
    grown = root / kind / "grown" / "pristine.md"
    grown.parent.mkdir()
    grown.write_text(with_ledger(text, source, entries), encoding="utf-8")
    for path in (empty, grown):
        (path.parent / "left.txt").write_text("0\n", encoding="utf-8")
        (path.parent / NOTES).write_text(f"{QUOTE}.\n", encoding="utf-8")
    return empty, grown


def length_commands(pristine: Path) -> list[tuple[str, Command]]:
    """The commands whose cost must not grow with the ledger, each on a working copy reset to
    ``pristine`` before each run when it writes."""
    work = pristine.with_name("goal.md")
    shutil.copyfile(pristine, work)
    folder = pristine.parent
    restore = (pristine, work)
    review = goalfile(
        "review", work, "R1", "--artifact", NOTES, "--quote", QUOTE, "--verdict", "met"
    )
    return [
        ("verify --no-write", verify_no_write(work, EXIT_ACTIVE)),
        ("status", status(work)),
        ("hook stop", hook_stop(work, restore=pristine)),
        ("plan", Command(f"plan {folder.name}", goalfile("plan", work), folder, EXIT_MET, restore)),
        ("review", Command(f"review {folder.name}", review, folder, EXIT_MET, restore)),
    ]


def markdown_read(path: Path) -> Command:
    """One process that reads the goal file once with markdown-it, as goalfile configures it."""
    script = (
        "import sys; from markdown_it import MarkdownIt; "
        "MarkdownIt('commonmark').enable('table').parse(open(sys.argv[1]).read())"
    )
    argv = (sys.executable, "-c", script, str(path))
    return Command(f"markdown-it {path.parent.name}", argv, path.parent, EXIT_MET)


def audit(path: Path) -> Command:
    return Command(f"audit {path.parent.name}", goalfile("audit", path), path.parent, EXIT_MET)


def length_rows(root: Path, sizes: Sizes) -> list[Row]:
    rows: list[Row] = []
    name = f"{sizes.length:,} entries of {LENGTH_ROWS} rows vs empty ledger"
    for pinned in (True, False):
        kind = "pinned" if pinned else "unpinned"
        progress(f"ledger length, {kind}: {sizes.length:,} entries")
        empty, grown = length_goals(root / "length", sizes.length, pinned)
        for (label, long), (_, short) in zip(
            length_commands(grown), length_commands(empty), strict=True
        ):
            mine, base = side_by_side(long, short, sizes.repeats)
            measure = f"ledger length, {kind}: {label}, {name}"
            rows.append(ratio_row(measure, mine, base, Target(1.1)))
        if pinned:
            continue
        work = grown.with_name("goal.md")
        mine, base = side_by_side(audit(work), markdown_read(work), sizes.repeats)
        measure = f"ledger length: audit vs one markdown-it read, {sizes.length:,} entries"
        rows.append(ratio_row(measure, mine, base, Target(2)))
        double = root / "length" / "double" / "pristine.md"
        double.parent.mkdir()
        source = eight_row_entry(root / "length" / "double")
        text = length_goal_text("unpinned-double")
        double.write_text(with_ledger(text, source, 2 * sizes.length), encoding="utf-8")
        mine, base = side_by_side(audit(double), audit(work), sizes.repeats)
        measure = f"ledger length: audit, {2 * sizes.length:,} vs {sizes.length:,} entries"
        rows.append(ratio_row(measure, mine, base, Target(2)))
    return rows


# --- big output -----------------------------------------------------------------------------


def peak_run(goal: Path, size: int) -> tuple[float, float]:
    """Seconds and peak RSS (MiB) of `verify --no-write --json` in the bench/verify_peak.py
    wrapper; checks it exited 0 and that its check printed ``size`` bytes."""
    report = goal.with_name("report.json")
    argv = (sys.executable, str(WRAPPER), str(report), str(goal))
    took, done = timed_run(Command("verify_peak", argv, goal.parent, EXIT_MET))
    try:
        measured = json.loads(report.read_text(encoding="utf-8"))
        seen = json.loads(done.stdout)["rows"][0]["output"]["stdout_bytes"]
    except (OSError, ValueError, LookupError) as exc:
        raise BenchError(f"verify of {size:,} bytes: no report ({exc}): {done.stderr!r}") from exc
    if measured["exit"] != EXIT_MET or seen != size:
        raise BenchError(f"verify of {size:,} bytes: {measured}, saw {seen} bytes")
    return took, measured["maxrss_kib"] / 1024


@dataclass(frozen=True)
class BigOutput:
    verify: float  # median seconds of verify
    quiet: float  # of the check with its output sent to /dev/null
    cat: float  # of the check with its output read by `cat` (the cost of any pipe reader)
    peak: float  # verify's worst peak RSS, MiB


def big_output_runs(goal: Path, size: int, repeats: int) -> BigOutput:
    quiet = f"yes | head -c {size} > /dev/null"
    piped = f"yes | head -c {size} | cat > /dev/null"
    baseline = Command("sh > /dev/null", (SHELL, "-c", quiet), goal.parent, EXIT_MET)
    reader = Command("sh | cat", (SHELL, "-c", piped), goal.parent, EXIT_MET)
    seconds: list[float] = []
    bases: list[float] = []
    cats: list[float] = []
    peaks: list[float] = []
    for repeat in range(repeats):
        progress(f"  verify vs {quiet} vs cat: {repeat + 1}/{repeats}")
        took, peak = peak_run(goal, size)
        seconds.append(took)
        peaks.append(peak)
        bases.append(run_once(baseline))
        cats.append(run_once(reader))
    return BigOutput(
        verify=statistics.median(seconds),
        quiet=statistics.median(bases),
        cat=statistics.median(cats),
        peak=max(peaks),
    )


def value_row(measure: str, value: float, unit: str, target: Target) -> Row:
    """A row of one figure of goalfile's, with no baseline."""
    return Row(measure, value, None, unit, value, unit, target)


def big_output_rows(root: Path, sizes: Sizes) -> list[Row]:
    size = sizes.big_bytes
    progress(f"big output: {size:,} bytes")
    goal = prepared(root / "big", [f"yes | head -c {size}"], timeout=RUN_TIMEOUT)
    runs = big_output_runs(goal, size, sizes.repeats)
    label = f"{size / 1e9:g} GB" if size >= 1e9 else f"{size / 1e6:g} MB"
    quiet = f"`yes | head -c {size} > /dev/null`"
    return [
        value_row(
            f"big output: verify peak RSS (worst repeat), {label}", runs.peak, "MiB", Target(64)
        ),
        ratio_row(
            f"big output: verify --no-write time vs {quiet}", runs.verify, runs.quiet, Target(1.5)
        ),
        ratio_row(
            f"big output, for reference: the same check through `| cat` vs {quiet}",
            runs.cat,
            runs.quiet,
        ),
    ]


# --- timeout --------------------------------------------------------------------------------


def leftovers(argument: str) -> list[int]:
    """Processes whose command line holds ``argument`` as a whole word."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argument.encode() in words:
            found.append(int(entry.name))
    return found


def kill_all(pids: Sequence[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def timeout_runs(command: Command, argument: str, repeats: int) -> tuple[float, int]:
    """Median seconds until verify returns, and the most processes running ``argument`` found
    right after it returned (they are then killed, so each repeat starts clean)."""
    seconds: list[float] = []
    left: list[int] = []
    for repeat in range(repeats):
        progress(f"  {command.label}: {repeat + 1}/{repeats}")
        took, done = timed_run(command)
        found = leftovers(argument)  # at once: waiting a moment is not allowed
        kill_all(found)
        expect_exit(command, done)
        seconds.append(took)
        left.append(len(found))
    return statistics.median(seconds), max(left)


def timeout_rows(root: Path, sizes: Sizes) -> list[Row]:
    argument = f"100.{os.getpid()}"  # a sleep no other process runs
    check = f"sleep {argument} & sleep {argument}"
    progress(f"timeout: `{check}`, 1 s limit")
    command = verify(prepared(root / "timeout", [check], timeout=1), EXIT_BLOCKED)
    took, left = timeout_runs(command, argument, sizes.repeats)
    name = "`sleep 100 & sleep 100` with `timeout: 1`"
    return [
        value_row(f"timeout: {name}, time until verify returns", took, "s", Target(3)),
        value_row(f"timeout: {name}, processes left (worst repeat)", left, "", Target(0)),
    ]


# --- parallel -------------------------------------------------------------------------------


def parallel_row(root: Path, sizes: Sizes) -> Row:
    measure = f"parallel: verify of 8 × `sleep {sizes.sleep:g}`, --jobs 4 vs --jobs 1 (speedup)"
    progress(measure)
    pristine = prepared(root / "parallel", [f"sleep {sizes.sleep:g}"] * 8)
    four = verify(pristine, EXIT_MET, "--jobs", "4")
    one = verify(pristine, EXIT_MET, "--jobs", "1")
    mine, base = side_by_side(four, one, sizes.repeats)
    return Row(measure, mine, base, "s", base / mine, "×", Target(3, at_least=True))


# --- output ---------------------------------------------------------------------------------


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "×":
        return f"{value:.2f}×"
    if unit == "MiB":
        return f"{value:.1f} MiB"
    return f"{value:g}"


def ok_text(row: Row) -> str:
    return {None: "-", True: "yes", False: "**no**"}[row.ok]


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| measure | goalfile | baseline | ratio/value | target | ok |",
        "|---------|----------|----------|-------------|--------|----|",
    ]
    for row in rows:
        target = row.target.text(row.value_unit) if row.target else "-"
        value = fmt(row.value, row.value_unit)
        mine, base = fmt(row.goalfile, row.unit), fmt(row.baseline, row.unit)
        cells = (row.measure, mine, base, value, target, ok_text(row))
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)


def machine(sizes: Sizes, took: float) -> dict[str, object]:
    version = subprocess.run(goalfile("--version"), capture_output=True, text=True, check=False)
    return {
        "nproc": len(os.sched_getaffinity(0)),
        "python": platform.python_version(),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "goalfile": version.stdout.strip(),
        "repeats": sizes.repeats,
        "clock": CLOCK,
        "seconds": round(took, 1),
    }


def machine_line(info: dict[str, object]) -> str:
    return (
        f"Machine: nproc {info['nproc']}, Python {info['python']}, {info['date']}, "
        f"load average {info['load_average']}; {info['goalfile']}; medians of "
        f"{info['repeats']} repeats ({info['clock']} time); the run took {info['seconds']} s."
    )


def as_json(rows: Sequence[Row], info: dict[str, object]) -> str:
    document = [
        {
            "measure": row.measure,
            "goalfile": row.goalfile,
            "baseline": row.baseline,
            "unit": row.unit,
            "value": row.value,
            "value_unit": row.value_unit,
            "target": row.target.text(row.value_unit) if row.target else None,
            "ok": row.ok,
        }
        for row in rows
    ]
    return json.dumps({"machine": info, "rows": document}, indent=2, ensure_ascii=False)


# --- main -----------------------------------------------------------------------------------


# --- big goal files -------------------------------------------------------------------------

BIG_FILE_MB = {True: 5, False: 50}  # quick, full
PEAK_CODE = """
import json, runpy, sys
report, sys.argv = sys.argv[1], ["goalfile", *sys.argv[2:]]
code = None
try:
    runpy.run_module("goalfile", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
with open("/proc/self/status") as status:
    peak = int(next(x for x in status if x.startswith("VmHWM:")).split()[1])
with open(report, "w") as handle:
    json.dump({"exit": code, "maxrss_kib": peak}, handle)
"""
"""A goalfile command in-process, reporting its own peak RSS (VmHWM), as bench/verify_peak.py
does for verify."""


def command_peak(folder: Path, pristine: Path, expect: int, *args: str) -> float:
    """Peak RSS in MiB of ``goalfile ARGS goal.md`` on a fresh copy of ``pristine``."""
    work = pristine.with_name("goal.md")
    shutil.copyfile(pristine, work)
    report = folder / "peak.json"
    argv = (sys.executable, "-c", PEAK_CODE, str(report), *args, str(work))
    timed_run(Command(f"{args[0]} peak", argv, folder, expect))
    result = json.loads(report.read_text(encoding="utf-8"))
    if result["exit"] != expect:
        raise BenchError(f"{args[0]} on a big goal: exit {result['exit']}")
    return float(result["maxrss_kib"]) / 1024


def big_file_rows(root: Path, sizes: Sizes) -> list[Row]:
    """Peak memory of a write command and of verify on a goal file whose ledger makes it
    50 MB (5 MB with --quick), as a multiple of the file's size; the target is a small
    multiple (a text is held as a str of up to 2 bytes a character when the file has
    non-ASCII, and the new text, the old one and its encoding meet during a write)."""
    quick = sizes.length < FULL.length
    pristine = prepared(root / "bigfile", ["cat left.txt"], "exit 0; prints 0")
    entry = real_entry(pristine)
    count = BIG_FILE_MB[quick] * 1_000_000 // len(entry.encode())
    text = pristine.read_text(encoding="utf-8")
    pristine.write_text(with_ledger(text, entry, count), encoding="utf-8")
    size = pristine.stat().st_size / (1 << 20)
    rows = []
    for label, expect, args in (
        ("budget --iterations", EXIT_MET, ("budget", "--iterations", "2000000")),
        ("verify", EXIT_ACTIVE, ("verify",)),
    ):
        peak = max(command_peak(root, pristine, expect, *args) for _ in range(sizes.repeats))
        measure = f"big file: {label} peak RSS / file size ({size:.0f} MiB goal)"
        rows.append(value_row(measure, peak / size, "×", Target(10)))
    return rows


BIG_TABLE_ROWS = {True: 10_000, False: 100_000}  # quick, full


def table_goal(path: Path, rows: int) -> Path:
    """A draft goal whose criteria table has ``rows`` rows of about 63 bytes each, as in the
    100,000-row goal (6.3 MB) that took 0.9 GB and most of a minute to lint."""
    table = "".join(
        f"| C{n} | check {n} | `test -f out/{n}` | exit 0 | deterministic |\n"
        for n in range(1, rows + 1)
    )
    text = goal_text(path.parent.name, [], "exit 0", 60).replace(
        "|----|-----------|-------|----------|------|\n",
        f"|----|-----------|-------|----------|------|\n{table}",
    )
    path.write_text(text, encoding="utf-8")
    return path


def table_peak(folder: Path, goal: Path, command: str) -> float:
    """Peak RSS in MiB of ``goalfile COMMAND`` on ``goal`` (a draft: both exit 0)."""
    return command_peak(folder, goal, EXIT_MET, command)


def big_table_rows(root: Path, sizes: Sizes) -> list[Row]:
    """Memory and time of `lint` and `status` on a goal with a 100,000-row criteria table
    (10,000 with --quick). Memory: the peak RSS above that of the same goal with ten rows, as
    a multiple of the file size (the interpreter and its imports are the same for both), and
    the whole peak too. Time: what the rows add to a ten-row goal's `lint`, against ten times
    what a tenth of the rows adds; 1 is linear."""
    count = BIG_TABLE_ROWS[sizes.length < FULL.length]
    goals = {}
    for label, rows in (("small", 10), ("tenth", count // 10), ("full", count)):
        (root / label).mkdir()
        goals[label] = table_goal(root / label / "pristine.md", rows)
    size = goals["full"].stat().st_size / (1 << 20)
    result = []
    for command in ("lint", "status"):
        progress(f"big table: {command} peak RSS, {count:,} rows")
        small = max(table_peak(root, goals["small"], command) for _ in range(sizes.repeats))
        peak = max(table_peak(root, goals["full"], command) for _ in range(sizes.repeats))
        measure = f"big table: {command} peak RSS / file size ({count:,} rows, {size:.1f} MiB)"
        result.append(Row(measure, peak, None, "MiB", peak / size, "×", None))
        measure = (
            f"big table: {command} peak RSS above a 10-row goal's / file size ({count:,} rows)"
        )
        result.append(
            Row(measure, peak - small, None, "MiB", (peak - small) / size, "×", Target(10))
        )
    times: dict[str, list[float]] = {label: [] for label in goals}
    for repeat in range(sizes.repeats):
        progress(f"big table: lint time {repeat + 1}/{sizes.repeats}")
        for label, goal in goals.items():
            command = Command(f"lint {label}", goalfile("lint", goal), goal.parent, EXIT_MET)
            times[label].append(run_once(command, CLOCK))
    small, tenth, full = (statistics.median(times[label]) for label in ("small", "tenth", "full"))
    measure = f"big table: lint time, {count:,} rows against 10 × {count // 10:,} (over 10 rows)"
    result.append(ratio_row(measure, full - small, 10 * (tenth - small), Target(1.5)))
    return result


GROUPS: dict[str, Callable[[Path, Sizes], list[Row]]] = {
    "startup": startup_rows,
    "overhead": overhead_rows,
    "ledger": ledger_rows,
    "length": length_rows,
    "big": big_output_rows,
    "timeout": timeout_rows,
    "parallel": lambda root, sizes: [parallel_row(root, sizes)],
    "bigfile": big_file_rows,
    "bigtable": big_table_rows,
}


def measure_all(sizes: Sizes, groups: Sequence[str] = tuple(GROUPS)) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="goalfile-bench-") as folder:
        root = Path(folder)
        rows: list[Row] = []
        for group in groups:
            (root / group).mkdir()
            rows += GROUPS[group](root / group, sizes)
        return rows


def parse_args(argv: Sequence[str] | None) -> tuple[Sizes, bool, list[str]]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--repeats", type=int, help=f"repeats per row (default {FULL.repeats})")
    parser.add_argument("--quick", action="store_true", help="a smoke run: smaller and fewer")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what the side-by-side rows time: elapsed time (default), or the CPU time of "
        "each process and its children, steadier on a machine busy with other work",
    )
    parser.add_argument(
        "--only",
        metavar="GROUPS",
        help=f"comma-separated groups of rows to measure (of {', '.join(GROUPS)}; default all)",
    )
    args = parser.parse_args(argv)
    global CLOCK
    CLOCK = args.clock
    groups = args.only.split(",") if args.only else list(GROUPS)
    unknown = [group for group in groups if group not in GROUPS]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; the groups are {', '.join(GROUPS)}")
    sizes = QUICK if args.quick else FULL
    if args.repeats is not None:
        if args.repeats < 1:
            parser.error("--repeats must be at least 1")
        sizes = Sizes(
            args.repeats, sizes.checks, sizes.entries, sizes.big_bytes, sizes.sleep, sizes.length
        )
    return sizes, args.json, groups


def main(argv: Sequence[str] | None = None) -> int:
    sizes, want_json, groups = parse_args(argv)
    began = time.perf_counter()
    try:
        rows = measure_all(sizes, groups)
    except (BenchError, subprocess.TimeoutExpired) as exc:
        progress(f"bench/run.py: {exc}")
        return 2
    info = machine(sizes, time.perf_counter() - began)
    print(as_json(rows, info) if want_json else f"{table(rows)}\n\n{machine_line(info)}")
    return 0 if all(row.ok is not False for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
