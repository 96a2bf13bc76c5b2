"""Waiting in the main thread for SIGTERM or SIGINT, or for another thread's say-so, without a race.

The obvious way -- a signal handler that sets a ``threading.Event`` the main thread waits on --
hangs now and then, and did so in our tests (`tablectl run` ignoring SIGTERM, about one start
in 40). CPython runs a Python signal handler only when the main thread next evaluates bytecode.
A signal that lands after the main thread's last such check but before it blocks in
``Event.wait`` (a C-level semaphore wait) is noted and never acted on: the main thread sleeps on,
and nothing else will set the event. The same happens when the kernel hands the signal to
another thread, which does not interrupt the main thread's wait.

Here the C-level handler's own write to a wake-up pipe (``signal.set_wakeup_fd``) is what the
main thread waits for, with ``select``: a signal that arrives before the wait leaves its byte in
the pipe, one that arrives during it wakes it, whichever thread the kernel chose. No polling.

It lives in ``drivers`` (the layer that talks to the operating system) because the controller's
commands and the simulator's processes both need it, and ``hw_sim`` may not import the
controller (DESIGN.md, the import rule).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
from collections.abc import Iterable
from types import TracebackType

WOKEN = 0
"""What :meth:`StopSignal.wait` returns when :meth:`StopSignal.wake` woke it, not a signal."""


class StopSignal:
    """Install once in the main thread, before the work starts; then :meth:`wait`.

    Another thread that should end the wait (a table thread that stopped by itself) calls
    :meth:`wake`. A command leaves it installed through its shutdown: a second SIGTERM while the
    table stops must not kill it half-way, as the default action would. Tests use it as a context
    manager, which gives back the handlers and wake-up fd it found.
    """

    def __init__(self, signals: Iterable[signal.Signals] = (signal.SIGTERM, signal.SIGINT)) -> None:
        self.signals = tuple(signals)
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        os.set_blocking(self._w, False)
        try:
            self._old_fd = signal.set_wakeup_fd(self._w, warn_on_full_buffer=False)
        except ValueError:   # not the main thread: only it runs signal handlers
            os.close(self._r)
            os.close(self._w)
            raise
        # A Python-level handler must be set for the C-level one to write the fd; it does nothing:
        # the byte in the pipe is the signal.
        self._old = {sig: signal.signal(sig, _noted) for sig in self.signals}
        self.received: int | None = None
        """The signal that ended the wait, once one has."""

    def wake(self) -> None:
        """End the wait from another thread (safe from any thread)."""
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._w, bytes([WOKEN]))

    def wait(self) -> int:
        """Block until one of the signals arrives (returns its number) or :meth:`wake` (returns
        :data:`WOKEN`). A signal that arrived before the call returns at once."""
        with selectors.DefaultSelector() as sel:
            sel.register(self._r, selectors.EVENT_READ)
            while True:
                got = self._drain()
                if got is not None:
                    return got
                sel.select()

    def _drain(self) -> int | None:
        try:
            data = os.read(self._r, 64)
        except BlockingIOError:
            return None
        wanted = [b for b in data if b in {int(s) for s in self.signals}]
        if wanted:
            self.received = wanted[0]
            return wanted[0]
        # A wake() byte, or another signal Python has a handler for (it runs as usual).
        return WOKEN if WOKEN in data else None

    def close(self) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
        signal.set_wakeup_fd(self._old_fd)
        os.close(self._r)
        os.close(self._w)

    def __enter__(self) -> StopSignal:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _noted(_signum: int, _frame: object) -> None:
    """The signal is read from the wake-up pipe; the Python-level handler has nothing to do."""
