"""doctor reads a hook's command line as the shell does, edits only goalfile's own words, and
names a settings file it cannot read without a traceback. Real settings files, goalfile as a
real process; every `fix:` printed is run as written, and the hook it leaves as the host runs
it (tests/test_doctor_timeouts.py)."""

from __future__ import annotations

from pathlib import Path

from conftest import host_env, run_goalfile
from test_doctor_timeouts import answers, doctor, edit, hook_entry, run_fix, timeouts
from test_doctor_timeouts import home as home
from test_doctor_timeouts import made as made
from test_doctor_timeouts import repo as repo

FIX_TIMEOUTS = "goalfile doctor --fix-timeouts"
FLOCK = "flock --timeout 30 .git/gf.lock goalfile hook stop --agent claude"


def _claude(report: dict[str, object]) -> dict[str, object]:
    (found,) = [f for f in timeouts(report) if f["host"] == "claude"]  # type: ignore[arg-type]
    return found


def test_fix_timeouts_leaves_another_programs_timeout_alone(repo: Path, home: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    edit(settings, command=FLOCK, timeout=120)
    found = _claude(doctor(repo, home))
    assert found["health"] == "problem" and found["fix"] == FIX_TIMEOUTS, found

    run_fix(str(found["fix"]), repo, home)
    command = hook_entry(settings)["command"]
    assert command.startswith("flock --timeout 30 .git/gf.lock goalfile hook stop"), command
    assert "--timeout 120" in command and hook_entry(settings)["timeout"] == 120
    assert _claude(doctor(repo, home))["health"] == "ok"

    # with goalfile's own --timeout as well: only that one changes
    edit(settings, command=FLOCK + " --timeout 600", timeout=120)
    run_fix(FIX_TIMEOUTS, repo, home)
    assert hook_entry(settings)["command"] == FLOCK + " --timeout 120"


def test_a_hook_fix_timeouts_cannot_edit_is_said_so(repo: Path, home: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    edit(settings, command='goalfile "hook" stop --agent claude', timeout=120)
    found = _claude(doctor(repo, home))
    assert found["health"] == "problem" and found.get("fix") is None, found
    assert "cannot edit" in str(found["hint"]) and "--timeout 120" in str(found["hint"])

    said = run_fix(FIX_TIMEOUTS, repo, home)
    assert 'cannot edit `goalfile "hook" stop --agent claude`' in said, said
    assert hook_entry(settings)["command"] == 'goalfile "hook" stop --agent claude'


def test_shell_operators_end_the_hooks_words(repo: Path, home: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    for command in (
        "goalfile hook stop --agent claude --timeout 300; true",
        "(goalfile hook stop --agent claude --timeout=300)",
    ):
        edit(settings, command=command, timeout=600)
        found = _claude(doctor(repo, home))
        assert found["health"] == "ok", found
        assert "counts on 300 s" in str(found["detail"]), found
        answers(command, repo, home)  # the shell passes it 300: a real answer

    edit(settings, command="goalfile hook stop --agent claude --timeout 900; true", timeout=600)
    run_fix(FIX_TIMEOUTS, repo, home)
    command = hook_entry(settings)["command"]
    assert command == "goalfile hook stop --agent claude --timeout 600; true", command
    answers(command, repo, home)


def test_big_numbers_in_settings_are_findings_not_tracebacks(repo: Path, home: Path) -> None:
    user = home / ".claude" / "settings.json"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('{\n  "n": ' + "1" * 5000 + "\n}\n", encoding="utf-8")
    report = doctor(repo, home)
    unknown = [f for f in timeouts(report, "unknown") if f["host"] == "claude"]
    assert unknown and f"{user}:2:8: the number 1111111111" in unknown[0]["detail"], report
    assert "is too long to read" in unknown[0]["detail"]
    user.unlink()

    settings = repo / ".claude" / "settings.json"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace('"timeout": 600', '"timeout": 1' + "0" * 400), "utf-8")
    found = _claude(doctor(repo, home))
    assert found["health"] == "problem" and "is no timeout" in str(found["detail"]), found

    big = text.replace('"timeout": 600', '"timeout": ' + "9" * 5000)
    settings.write_text(big, "utf-8")
    line = 1 + text[: text.index('"timeout": 600')].count("\n")
    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=host_env(home))
    assert done.returncode == 3, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert f".claude/settings.json:{line}:" in done.stderr and "too long to read" in done.stderr
    assert settings.read_text(encoding="utf-8") == big  # left untouched
