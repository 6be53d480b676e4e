"""``python -m goalfile`` and the ``goalfile`` program: the command line, with the signals that
come before a command has begun or after it has finished handled too.

Until a command's own handling begins (goalfile's modules load, the command line is parsed),
SIGINT and SIGTERM are only noted; the command boundary then ends the program with the usual
message and exit code (130 / 143) instead of a traceback from inside an import or click's
"Aborted!". Once a command has finished, both signals get their default action again: a signal
that comes while the interpreter shuts down ends the process quietly, as a shell would report
it, instead of raising inside Python's own exit handlers.
"""

# Nothing is imported at the top (not even __future__): a Ctrl-C while this module loads would
# be a traceback. `_signal` is the interpreter's own module, so importing it is instant; the
# `signal` module around it builds enums and takes milliseconds, and what is done here needs
# none of them (`signal.signal` hands its numbers to `_signal.signal`).


def run() -> None:
    import _signal  # type: ignore[import-not-found]  # no stub: the C half of `signal`

    noted: list[int] = []
    for signum in (_signal.SIGINT, _signal.SIGTERM):
        _signal.signal(signum, lambda number, frame: noted.append(number))
    import gc

    # The cyclic garbage collector is off for a command: it would scan every object the imports
    # make (click, PyYAML, markdown-it, goalfile) again and again as they are made, 5 to 7 ms
    # of a start of about 90, and a command leaves no cycles behind for it to find (a verify
    # of 50 MB of output, a write to a long ledger and an audit leave the same few hundred
    # cyclic objects as a one-row run). Reference counting still frees everything else.
    # `goalfile mcp`, a server that lives long, turns it back on.
    gc.disable()

    code: str | int | None = None
    try:
        try:
            from goalfile.cli import answer_plainly, main

            # `--version` and `--help` exit here: a signal before they answer stays only noted,
            # as it would under the handler below (neither answer reaches the command boundary)
            answer_plainly()
            from goalfile import errors

            for signum in (_signal.SIGINT, _signal.SIGTERM):
                _signal.signal(signum, errors.note_signal)
            errors.NOTED_SIGNALS[:0] = noted  # those noted before, first
            errors.IN_PROGRAM = True
            main()
        except SystemExit as exc:
            code = exc.code
        finally:
            _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
            _signal.signal(_signal.SIGTERM, _signal.SIG_DFL)
    except KeyboardInterrupt:  # cannot come from a noting handler; kept as a last guard
        code = 130
    _end(code)
    raise SystemExit(code)


RUNPY_FILES = ("runpy.py", "<frozen runpy>")
"""How the frames of runpy name their file: ``<frozen runpy>`` where the interpreter has it
frozen in (3.11 on), ``runpy.py`` where it loads it from the library."""


def _end(code: str | int | None) -> None:
    """End the process with ``code`` as the interpreter's own exit would, without tearing the
    interpreter down: at exit it frees every module, class and function that click, PyYAML,
    markdown-it and goalfile made (and runs the cyclic collector over them once more), 10 to
    15 ms of CPU that no one needs once the command has answered. What an exit must still do is
    done here in the interpreter's order: the exit handlers run (``atexit``: logging's, any
    library's), then standard output and error are flushed. Returns, leaving the exit to the
    interpreter, when that order cannot be kept or a flush fails (the interpreter then reports
    it as it always does): another thread is alive (the exit waits for it), the interpreter
    stays interactive (``python -i``), ``code`` is not an exit status as is (a message), or
    another program called :func:`run` and goes on after it (``bench/verify_peak.py`` runs the
    command with ``runpy`` and then writes its report)."""
    import sys

    if code is None:
        status = 0
    elif type(code) is int and 0 <= code <= 255:
        status = code
    else:
        return
    threading = sys.modules.get("threading")
    if sys.flags.inspect or (threading is not None and threading.active_count() > 1):
        return
    # run()'s caller must be the program's own top level with nothing above it: the goalfile
    # script or `python -c`, or `python -m goalfile` (the module's top level under the two
    # frames of runpy the interpreter starts it with); any other caller may go on after run()
    caller = sys._getframe(1).f_back
    if caller is None or caller.f_code.co_name != "<module>":
        return
    above = caller.f_back
    for name in ("_run_code", "_run_module_as_main"):
        if above is None:
            break
        if above.f_code.co_name != name or not above.f_code.co_filename.endswith(RUNPY_FILES):
            return
        above = above.f_back
    if above is not None:
        return
    import atexit
    import os

    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if stream is not None:
                stream.flush()
    except Exception:  # the interpreter's own exit reports it, as before
        return
    os._exit(status)


if __name__ == "__main__":
    run()
