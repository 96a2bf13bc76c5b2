"""A broker of the demo's own: Mosquitto when installed, else embedded amqtt.

Production tables use a real broker (DESIGN.md, MQTT); the demo, the
benchmark (hw_sim.bench) and the tests start one so that a newcomer needs
nothing running first. The port is chosen free on loopback and the broker
listens on 127.0.0.1 only. It is part of the simulated world around a table,
not of the daemon, which only ever connects to a broker it is given: so it
lives in hw_sim, and `tablectl demo` imports it only when it runs.
"""

from __future__ import annotations

import asyncio
import errno
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PortBusy(RuntimeError):
    """The port asked for is taken: another broker (or another program) listens there. A broker
    started there would fail to bind, and a client would talk to whatever holds the port."""

    def __init__(self, host: str, port: int) -> None:
        super().__init__(f"port {port} on {host} is in use (another broker, or another program, listens there)")
        self.host, self.port = host, port


def port_taken(host: str, port: int) -> bool:
    """Something listens on ``host:port`` (a bind fails as a broker's would; SO_REUSEADDR as
    Mosquitto sets it, so a port a closed connection left in TIME_WAIT counts as free)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            return exc.errno == errno.EADDRINUSE   # anything else the broker reports itself
    return False


def mosquitto_path() -> str | None:
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if Path(p).exists()), None)


def wait_for_port(host: str, port: int, deadline_s: float = 10.0,
                  exited: Callable[[], str | None] | None = None) -> None:
    """Block until a TCP connect succeeds. Start-up only, never the event path. ``exited``: says
    why the broker being waited for is gone (None while it runs), so that a broker that failed is
    reported at once, and another process answering on the port is never taken for it."""
    end = time.monotonic() + deadline_s
    while True:
        why = exited() if exited is not None else None
        if why is not None:
            raise RuntimeError(why)
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > end:
                raise RuntimeError(f"broker on {host}:{port} did not start within {deadline_s:.0f} s") from None
            time.sleep(0.05)


def _closing_amqtt_broker() -> type:
    """amqtt's Broker, closing every connection once it is done with it.

    amqtt gives up on a connection that never sends CONNECT (``wait_for_port``'s probe, a port
    check, a client that gives up) without closing it. Its asyncio transport and StreamWriter
    are then cyclic garbage, and the garbage collector finalizes them on whichever thread it
    runs (the demo's table, its devices, paho): the transport's ``__del__`` closes the socket,
    freeing its descriptor number, the next client accepted may get that number, and then
    the StreamWriter's ``__del__`` closes the transport, which unregisters that descriptor from
    the broker's event loop: the new client got its CONNACK and the broker never read another
    byte from it (``tablectl demo --broker embedded``: a subscriber that connected right after
    the address was printed had no SUBACK). Closed here, on the broker's own loop, the
    connection is over before anything can reuse its number."""
    from amqtt.broker import Broker
    from amqtt.session import Session

    class ClosingBroker(Broker):
        async def stream_connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                                   listener_name: str) -> None:
            try:
                await super().stream_connected(reader, writer, listener_name)
            finally:
                writer.close()  # a no-op when amqtt closed it

        async def _publish_retained_messages_for_subscription(self, subscription: tuple[str, int],
                                                              session: Session) -> None:
            """The retained messages for ``subscription`` only if it is ``session``'s own.

            On every CONNECT amqtt 0.12 sends the new client the retained messages matching each
            filter in ``self._subscriptions``, meant for a resumed session's subscriptions but
            holding every session's: a client that subscribed to ``casino/t/event/#`` also got
            the retained ``casino/t/status`` because the controller subscribes to it (a
            ``KeyError: 'kind'`` in a test that read its first message), and one that subscribed
            to nothing got them too. That loop also awaits the sending while it iterates the
            dict, so another client's SUBSCRIBE to a new filter at that moment raised "dictionary
            changed size during iteration" and the connecting client, which had its CONNACK,
            was never served again (no SUBACK). Another session's filter now returns at once,
            without yielding to the loop: the client gets what it subscribed to, as from
            Mosquitto. A SUBSCRIBE has already added its filter, so this does not affect it."""
            if any(own.client_id == session.client_id for own, _ in self._subscriptions.get(subscription[0], ())):
                await super()._publish_retained_messages_for_subscription(subscription, session)

    return ClosingBroker


@dataclass
class LocalBroker:
    """A broker on 127.0.0.1 that this process owns and stops; or, with ``prefer="external"``, the
    broker already listening on ``port`` (asked for by name: never taken by accident).

    A ``port`` asked for that something else listens on is :class:`PortBusy` before anything is
    started: the demo once used such a broker without a word, its own Mosquitto having failed to
    bind with its error sent nowhere. A free port chosen here that another process takes before
    Mosquitto binds it (a race) is chosen again."""

    port: int = 0
    prefer: str = "auto"  # "auto" | "mosquitto" | "embedded" | "external"
    host: str = "127.0.0.1"
    kind: str = ""
    settings: str = ""
    """More lines of Mosquitto's config (the bench's floor part: a site broker's limits)."""
    _proc: subprocess.Popen | None = field(default=None, repr=False)
    _loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)
    _tmp: tempfile.TemporaryDirectory | None = field(default=None, repr=False)
    _log: Path | None = field(default=None, repr=False)

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self) -> LocalBroker:
        if self.prefer == "external":
            if not self.port:
                raise ValueError("an external broker needs its port")
            try:
                wait_for_port(self.host, self.port, deadline_s=2.0)
            except RuntimeError:
                raise RuntimeError(f"no broker listens on {self.host}:{self.port}") from None
            self.kind = "external"
            return self
        chosen = not self.port
        if not chosen and port_taken(self.host, self.port):
            raise PortBusy(self.host, self.port)
        exe = mosquitto_path()
        if self.prefer == "mosquitto" and not exe:
            raise RuntimeError("mosquitto is not installed (apt-get install -y mosquitto)")
        if not (exe and self.prefer != "embedded"):
            self.port = self.port or free_port()
            self._start_embedded()
            wait_for_port(self.host, self.port)
            return self
        for _attempt in range(5):
            self.port = free_port() if chosen else self.port
            self._start_mosquitto(exe)
            try:
                self._wait_running()
                wait_for_port(self.host, self.port, exited=self._mosquitto_exited)
                return self
            except RuntimeError as exc:
                self.stop()
                if "Address already in use" not in str(exc):
                    raise
                if not chosen:
                    raise PortBusy(self.host, self.port) from None
        raise RuntimeError(f"mosquitto found no free port on {self.host} in 5 tries")

    def _start_mosquitto(self, exe: str) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="tablectl-broker-")
        conf = Path(self._tmp.name) / "mosquitto.conf"
        conf.write_text(
            f"listener {self.port} {self.host}\nallow_anonymous true\npersistence false\n"
            "max_queued_messages 100000\nset_tcp_nodelay true\nlog_dest stderr\nlog_type error\n"
            "log_type information\n" + self.settings)
        self._log = Path(self._tmp.name) / "mosquitto.log"
        with self._log.open("wb") as log:   # its errors (a port it cannot bind), read if it exits
            self._proc = subprocess.Popen([exe, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=log)
        self.kind = "mosquitto"

    def _said(self) -> str:
        """What Mosquitto wrote (its start-up and its errors), without its timestamps."""
        text = self._log.read_text(errors="replace") if self._log is not None and self._log.exists() else ""
        return " ".join(line.split(": ", 1)[-1] for line in text.strip().splitlines())[-500:]

    def _mosquitto_exited(self) -> str | None:
        if self._proc is None or self._proc.poll() is None:
            return None
        return (f"mosquitto exited with status {self._proc.returncode} before listening on {self.address}: "
                f"{self._said() or 'it said nothing'}")

    def _wait_running(self, deadline_s: float = 10.0) -> None:
        """Until Mosquitto says it is running (it has bound its port), or has exited saying why. Its
        own word, not a connect: another process that holds the port would answer a connect.
        Start-up only, never the event path."""
        end = time.monotonic() + deadline_s
        while True:
            why = self._mosquitto_exited()
            if why is not None:
                raise RuntimeError(why)
            if " running" in self._said():
                return
            if time.monotonic() > end:
                raise RuntimeError(f"mosquitto did not say it was running on {self.address} within {deadline_s:.0f} s: "
                                   f"{self._said() or 'it said nothing'}")
            time.sleep(0.05)

    def _start_embedded(self) -> None:
        try:
            Broker = _closing_amqtt_broker()
        except ImportError as exc:  # pragma: no cover - depends on the machine
            raise RuntimeError("no broker: install mosquitto, or pip install 'tablectl[embedded-broker]'") from exc
        cfg = {"listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
               "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}}}
        loop = asyncio.new_event_loop()
        ready = threading.Event()
        failure: list[BaseException] = []

        async def serve() -> None:
            broker = Broker(cfg, loop=loop)
            try:
                await broker.start()
            except BaseException as exc:
                failure.append(exc)
                ready.set()
                return
            ready.set()
            self._stop_embedded = asyncio.Event()
            await self._stop_embedded.wait()
            await broker.shutdown()

        self._loop = loop
        self._thread = threading.Thread(target=loop.run_until_complete, args=(serve(),),
                                        name="embedded-broker", daemon=True)
        self._thread.start()
        ready.wait(10)
        if failure:
            raise RuntimeError(f"embedded broker failed to start: {failure[0]}")
        self.kind = "embedded (amqtt)"

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
            self._proc = None
        if self._loop is not None and self._thread is not None:
            stop = getattr(self, "_stop_embedded", None)
            if stop is not None:
                self._loop.call_soon_threadsafe(stop.set)
            self._thread.join(5)
            self._loop = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
