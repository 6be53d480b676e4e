"""The command boundary: an interrupt that arrives wrapped in another exception is still an
interrupt (exit 130 / 143 and the usual message), never a traceback."""

from __future__ import annotations

import signal
from typing import Any

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


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_run_while_the_handlers_are_put_back_exits_as_an_interrupt(
    signum: signal.Signals,
    code: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`signal.signal` runs the handler of a signal that is already pending before it replaces
    it. A signal that lands just after the command's last step is therefore run, with the
    command's raising handler, by the boundary's first call that puts the old handlers back.
    It must end as an interrupt, not escape to click as "Aborted!" with exit 1."""
    real = signal.signal
    pending = [signum]
    before = (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT))

    def signal_with_a_pending_signal(number: int, handler: Any) -> Any:
        if pending and number == signal.SIGTERM and handler is before[0]:
            # the boundary's first call putting back what it replaced: the pending signal runs
            # first, with the handler the command installed
            signal.getsignal(pending.pop())(signum, None)
        return real(number, handler)

    monkeypatch.setattr(signal, "signal", signal_with_a_pending_signal)
    with pytest.raises(SystemExit) as stopped:
        boundary(lambda: 0)()
    assert stopped.value.code == code
    assert "goalfile: interrupted" in capsys.readouterr().err  # (what it wrote: none here)
    assert not pending
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before
