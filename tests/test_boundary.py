"""The command boundary: an interrupt that arrives wrapped in another exception is still an
interrupt (exit 130 / 143 and the usual message), never a traceback."""

from __future__ import annotations

import pytest

from goalfile.cli.base import boundary
from goalfile.errors import Terminated


def _wrapped(interrupt: KeyboardInterrupt) -> None:
    # what Python does to an interrupt raised while a class body's __set_name__ runs
    try:
        raise interrupt
    except KeyboardInterrupt as exc:
        raise RuntimeError("Error calling __set_name__") from exc


@pytest.mark.parametrize(("interrupt", "code"), [(KeyboardInterrupt(), 130), (Terminated(), 143)])
def test_a_wrapped_interrupt_exits_as_an_interrupt(
    interrupt: KeyboardInterrupt, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    command = boundary(lambda: _wrapped(interrupt))
    with pytest.raises(SystemExit) as stopped:
        command()
    assert stopped.value.code == code
    assert "goalfile: interrupted" in capsys.readouterr().err


def test_any_other_exception_is_not_taken_for_an_interrupt() -> None:
    def fails() -> None:
        raise RuntimeError("a bug")

    with pytest.raises(RuntimeError, match="a bug"):
        boundary(fails)()
