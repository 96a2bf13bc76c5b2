"""The table loop: one thread owns the round machine, the journal, the lights and the MQTT socket.

DESIGN.md, "How an event travels": drivers, paho's callbacks and whoever stops the table only
put items on one inbox. This thread waits on the inbox's wake-up pipe and on paho's socket at
once (controller.table.reactor, as Klipper's reactor: no polling, no sleeps), serving the
socket meanwhile, and takes the items one at a time. For each item it

1. hands it to whoever it concerns -- a device event to :mod:`~controller.table.devices` (and so
   to the round machine), a pit command to :mod:`~controller.table.requests`, a (re)connect to
   :mod:`~controller.table.sessions` -- and collects what the machine emits through ``emit``;
2. journals those events in one transaction, which gives them their ``seq`` before anything else
   sees them, with the machine's saved state (and the dice counts) in the same commit;
3. publishes them at once (QoS 1: :mod:`~controller.table.outbox` decides the order and the pace,
   behind a backlog or a stall);
4. then sets the seat lights and lit buttons from the machine's snapshot (a change is a
   ``lights`` event, journaled in the same transaction), tells the local listeners, publishes the
   retained state when the table looks otherwise, and sends the command replies.

PUBACKs come back as :class:`~controller.table.inbox.Acked` items: whatever is queued is marked
delivered together. What a restart does first is :mod:`~controller.table.recovery`'s. No rule of
any game lives here: the machine comes from games.registry (:mod:`~controller.table.machine`).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.table import recovery
from controller.table.commands import Request
from controller.table.config import Config
from controller.table.devices import Devices
from controller.table.inbox import Acked, Command, Connected, Disconnected, ForeignStatus, Inbox, Stop
from controller.table.instance_lock import AnotherController
from controller.table.integrity import Integrity
from controller.table.journal import Event, Journal, Pending
from controller.table.journal_check import JournalError, fault_of
from controller.table.machine import Machine, MachineFactory, build_machine
from controller.table.outbox import HOLD_REASON, Outbox
from controller.table.publisher import Publisher
from controller.table.reactor import Reactor
from controller.table.requests import Requests
from controller.table.secrecy import LineErrorGate
from controller.table.sessions import Sessions
from drivers.events import DeviceEvent
from games.round import Verdict
from games.round.contract import empty_lights

log = logging.getLogger(__name__)

__all__ = ["HOLD_REASON", "Health", "Lights", "Machine", "Table", "build_machine"]


class Lights(Protocol):
    """``drivers.gpio.TableGpio`` as the table uses it."""

    def show(self, lights: Mapping[str, Any]) -> list[str] | None: ...


def _compact(obj: Mapping[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass(frozen=True)
class Health:
    """What a systemd watchdog ping should check (DESIGN.md, Lessons: systemd)."""

    running: bool
    mqtt_connected: bool
    devices: dict[str, str]
    undelivered_in_flight: int
    drivers_alive: dict[str, bool] = field(default_factory=dict)
    """Each driver's own ``alive`` (port open, device heard within its heartbeat
    timeout): unlike ``devices`` it goes false when a reader thread stops too."""
    publisher_alive: bool = True
    """The MQTT client is started and not stopped (connected or reconnecting). Its socket is
    served by the table thread itself (controller.table.reactor), whose life is ``running``."""
    undelivered: int = 0
    """Events in the journal the broker has not acknowledged (the outbox)."""


class Table:
    """One table: its inbox, its round machine and the thread that owns both.

    ``drivers`` maps device names (``shoe``, ``shuffler``) to driver objects
    that put :mod:`drivers.events` on ``inbox``; the table starts and stops
    those that have ``start()``/``stop()``. ``gpio`` is optional (a table
    with remote buttons only). ``on_tick`` is called from the table thread
    every ``tick`` seconds with :class:`Health`, for a watchdog; without it
    the thread wakes only when an item arrives.
    """

    def __init__(self, config: Config, *, inbox: Inbox, journal: Journal, publisher: Publisher,
                 drivers: Mapping[str, Any] | None = None, gpio: Lights | None = None,
                 machine_factory: MachineFactory = build_machine,
                 on_ready: Callable[[], None] | None = None,
                 on_tick: Callable[[Health], None] | None = None, tick: float = 10.0) -> None:
        self.config = config
        self.inbox = inbox
        self.journal = journal
        self.publisher = publisher
        self.reactor = Reactor(inbox, publisher)   # one thread: the inbox and the MQTT socket
        self.drivers = dict(drivers or {})
        self.gpio = gpio
        self.machine_factory = machine_factory
        self.on_ready = on_ready
        self.on_tick = on_tick
        self.tick = tick
        self.ready = threading.Event()
        self.done = threading.Event()
        self.error: BaseException | None = None
        self.machine: Machine | None = None
        self.listeners: list[Callable[[Event], None]] = []
        """Local consumers of every journaled event, broker or not (the dealer's
        display; a simulated dealer in tests). Called on the table thread, in
        ``seq`` order: they must not block."""
        self.line_errors = LineErrorGate()  # no published figure depends on a face-down card
        self.devices = Devices(self, config, self.drivers)
        self.integrity = Integrity(self, config)  # outcome (and shuffle) counts: journaled, published retained
        self.outbox = Outbox(journal, publisher, config.journal, alarm=self.alarm, deal_again=self._deal_again)
        self.requests = Requests(self)
        self.sessions = Sessions(self)
        self._pending: list[Pending] = []
        self._lights: dict[str, Any] | None = None
        self._light_problems: set[str] = set()
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------

    def start(self) -> Table:
        """Run the loop on a thread of its own; :meth:`wait_ready` blocks until it is up."""
        self._thread = threading.Thread(target=self.run, name=f"table-{self.config.table.id}", daemon=True)
        self._thread.start()
        return self

    def wait_ready(self, timeout: float | None = None) -> None:
        """Block until the table is READY; raise if it failed to start."""
        if not self.ready.wait(timeout):
            raise TimeoutError(f"table {self.config.table.id} not ready within {timeout} s")
        if isinstance(self.error, JournalError):
            raise self.error  # its own line names the file, the fault and what to do (tablectl exits 2)
        if self.error is not None:
            raise RuntimeError(f"table {self.config.table.id} failed to start: {self.error}") from self.error

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the drivers (so that all they read is queued), then let the
        loop finish everything queued, wait briefly for PUBACKs, publish the
        offline status and close the journal."""
        for name, driver in self.drivers.items():
            if hasattr(driver, "stop"):
                try:
                    driver.stop()
                except Exception:
                    log.exception("stopping %s failed", name)
        self.inbox.put(Stop())
        if self._thread is not None:
            self._thread.join(timeout)

    def run(self) -> None:
        """The loop itself, on the calling thread (``start()`` runs it on its own)."""
        try:
            self._startup()
            self.ready.set()
            if self.on_ready is not None:
                self.on_ready()
            self._loop()
        except BaseException as exc:  # the journal failed: nothing may be published unjournaled
            fault = fault_of(exc, self.journal.path)  # a damaged or read-only journal: no restart fixes it
            self.error = fault or exc
            log.critical("table %s stopped: %s", self.config.table.id, self.error, exc_info=fault is None)
        finally:
            self.ready.set()
            try:
                self._shutdown()
            finally:
                self.done.set()   # whatever the shutdown met: the caller waiting on done must not hang

    def health(self) -> Health:
        """Safe from any thread (it only copies)."""
        return Health(self._thread is not None and self._thread.is_alive() and self.error is None,
                      self.outbox.online, dict(self.devices.status), len(self.publisher.in_flight()),
                      {name: bool(getattr(d, "alive", True)) for name, d in self.drivers.items()},
                      bool(getattr(self.publisher, "alive", True)),
                      undelivered=self.journal.undelivered_count)

    # -- the loop --------------------------------------------------------------

    def _startup(self) -> None:
        birth = self.journal.next_birth()
        recovery.journal_notices(self.journal, self.tell)
        recovery.void_interrupted_round(self.journal, self.tell)
        self.machine = self.machine_factory(self.config, self.emit, recovery.first_round(self.journal))
        saved = recovery.saved_machine(self.journal)
        if saved is not None:  # what that means for the game (a round stopped after its result ...) is its rule
            self.machine.restore(saved, self.journal.meta("state"))
        self.devices.load_dice(self.journal.meta("dice"))
        self.integrity.load(self.journal.meta("integrity"))
        self.publisher.start(birth, self.journal.journal_id)  # its status says which journal publishes
        for name, driver in self.drivers.items():
            if hasattr(driver, "start"):
                log.info("starting device %s", name)
                driver.start()
        self.devices.arm_autostart(self.config.table.autostart)
        self._maybe_autostart()
        self._flush()

    def _loop(self) -> None:
        next_tick = time.monotonic() + self.tick
        outbox = self.outbox
        while True:
            due = [t for t in (next_tick if self.on_tick is not None else None, outbox.marks_deadline())
                   if t is not None]
            self.reactor.wait(min(due) if due else None)   # the inbox, the MQTT socket served meanwhile
            outbox.write_marks_if_due(time.monotonic())
            if self.on_tick is not None and time.monotonic() >= next_tick:
                next_tick = time.monotonic() + self.tick
                self.on_tick(self.health())
            batch = []
            while len(batch) < 256:  # whatever is queued: acks go in one transaction
                try:
                    batch.append(self.inbox.get_nowait())
                except queue.Empty:
                    break
            if not batch:
                continue
            acks = [item for item in batch if isinstance(item, Acked)]
            if acks:
                outbox.acked(acks)
                if outbox.filling or self._pending:  # the backlog shrinks: the alarm re-arms, the hold may lift
                    self._flush()
            for item in batch:
                if isinstance(item, Stop):
                    outbox.drain_acks(self.inbox, self.reactor)
                    return
                if not isinstance(item, Acked):
                    self._handle(item)
                    self._flush()
                    if isinstance(self.error, AnotherController):
                        return  # the younger of two controllers of one table: stop, publish nothing more
            outbox.marks_carried()

    def _handle(self, item: object) -> None:
        """One inbox item; a failure of the machine is an alarm, never the end of the loop."""
        try:
            if isinstance(item, DeviceEvent):
                try:   # the order cards leave the shoe, before the round sees them; never at the card's cost
                    self.integrity.device_event(item)
                except Exception:
                    log.exception("integrity: a device event not recorded for the shuffle monitor")
                self.devices.handle(item)
                self._maybe_autostart()
            elif isinstance(item, Command):
                self.requests.handle(item)
            elif isinstance(item, Connected):
                self.sessions.connected(item.prior)
            elif isinstance(item, ForeignStatus):
                self.sessions.another_controller(item.status)
            elif isinstance(item, Disconnected):
                self.outbox.online = False
            else:
                log.error("unknown inbox item %r ignored", type(item).__name__)
        except Exception:
            log.exception("handling %s failed", type(item).__name__)
            self.alarm("controller_error", "critical",
                       f"internal error while handling {type(item).__name__}; see the controller's log",
                       "the pit decides whether to void the round")

    def _flush(self) -> None:
        """Journal what the item produced, publish it, then the lights (DESIGN.md, step 6).

        A journal failure propagates and ends the loop: an event that cannot
        be journaled must not be published."""
        machine = self.machine
        assert machine is not None
        outbox = self.outbox
        outbox.check_cap(len(self._pending))
        try:
            snapshot = machine.snapshot()
        except Exception:
            log.exception("the machine's snapshot failed")
            snapshot = None
        lights = self._lights if snapshot is None else snapshot["lights"]
        changed = lights != self._lights
        if changed:
            self.emit("lights", lights)
        events: list[Event] = []
        dice = self.devices.dice_to_save()
        integrity = self.integrity.to_save()
        if self._pending:
            pending, self._pending = self._pending, []
            meta = {"state": machine.state, "round": machine.round, "round_open": machine.round_open,
                    "machine": machine.save()}
            if dice is not None:
                meta["dice"] = dice  # the counts and the throw's events in one transaction
            if integrity is not None:
                meta["integrity"] = integrity  # the outcome counts and the result they counted, likewise
            events = self.journal.append_many(pending, meta=meta)
        elif dice is not None or integrity is not None:
            # a throw counted that made no event (no dice were due); counts reset by a refused command
            self.journal.set_meta(**{k: v for k, v in (("dice", dice), ("integrity", integrity)) if v is not None})
        self.devices.dice_owed = self.devices.dice_owed or dice is not None
        self.integrity.owed = self.integrity.owed or integrity is not None
        # First what the pit needs: the events go to the socket now (paho writes on this thread,
        # controller.table.reactor); the lights, the local listeners and the state after.
        outbox.send(events)
        if changed:
            self._lights = lights
            missing = self._show(lights)
            if missing:  # a light the config lacks: say so once (journaled and published just below)
                self.alarm("light_missing", "warning", "; ".join(missing),
                           "add the light to [gpio] in the table's config")
        self.tell(events)
        if outbox.online:
            if events and snapshot is not None:
                outbox.offer_state(*self.state_of(snapshot))  # only when the table looks otherwise
            if self.devices.dice_owed:
                self.devices.publish_dice(self.publisher, self.config.table.id)
            if self.integrity.owed:
                self.integrity.publish(self.publisher, self.config.table.id)
        self.requests.send_replies(self.publisher)
        outbox.pump()   # replays after the replies: a reply overtakes the replayed events it answers
        if self._pending:  # an alarm raised while publishing (a damaged row in the backlog): journal it now
            self._flush()

    # -- what the table's parts call ---------------------------------------------------

    def emit(self, kind: str, data: dict) -> None:
        """The machine's ``emit``: held until the item is finished, then journaled.

        The envelope's round is the round the event is about: the one in the
        data when it names one (``round_start``, ``void``), else the machine's.
        """
        rnd = data.get("round")
        if not isinstance(rnd, int) or isinstance(rnd, bool):
            rnd = self.machine.round if self.machine is not None else None
        self._pending.append(Pending(kind, rnd, data, time.time()))
        if kind != "alarm":
            self.integrity.observe(kind, data)   # what the pit sees: a result counted, a deck change
        if kind != "line_errors":
            for released in self.line_errors.observe(kind, data):  # counts the reveal made public
                self.emit("line_errors", released)

    def pending_mark(self) -> int:
        """Where the events waiting to be journaled end now (for :meth:`emitted_since`)."""
        return len(self._pending)

    def emitted_since(self, mark: int) -> list[str]:
        """The kinds of the events emitted since ``mark`` (:meth:`pending_mark`), still waiting:
        the dice counts ask whether a reading became the round's throw."""
        return [p.kind for p in self._pending[mark:]]

    def alarm(self, code: str, severity: str, message: str, action: str) -> None:
        """An alarm of the controller's own (no card involved)."""
        self.emit("alarm", recovery.alarm_data(code, severity, message, action))

    def press(self, name: str, seat: int | None = None) -> Verdict:
        """A dealer's or a seat's button (GPIO or ``cmd/button``); the machine's verdict.
        At the outbox cap ``deal`` in ``betting`` (no more bets: the deal would start) is refused."""
        machine = self.machine
        assert machine is not None
        if name == "deal" and seat is None and machine.state == "betting" and self.outbox.refuses_deal():
            self.emit("button", {"button": name, "accepted": False, "reason": HOLD_REASON})
            return Verdict(False, HOLD_REASON)
        return machine.press(name, seat)

    def _deal_again(self) -> None:
        """The outbox's hold lifted after it refused a deal: the dealer is asked again."""
        if self.machine is not None and self.machine.state == "betting":
            self.emit("prompt", dict(self.machine.snapshot()["prompt"]))

    def _maybe_autostart(self) -> None:
        """``table.autostart``: open (start the deck check) once every device is in sync."""
        if self.devices.autostart_due() and self.machine is not None and self.machine.state == "closed":
            self.requests.run(Request("open", None))

    def tell(self, events: list[Event]) -> None:
        """The local listeners, in seq order; one that fails is logged, never fatal."""
        for listener in self.listeners:
            for event in events:
                try:
                    listener(event)
                except Exception:
                    log.exception("a local listener failed on event %d", event.seq)

    def state_of(self, snapshot: dict) -> tuple[bytes, bytes]:
        """What the table looks like (the snapshot's JSON and its devices), and the retained
        state: the snapshot with the table, the seq it is as of, the time, the devices and the
        outbox. The snapshot is encoded once and the rest spliced on, so that telling whether the
        table changed (issue 11: the state goes out only when it did) costs no second encoding.
        The devices are in it so that a pit that starts after the table's birth sees them as they
        are now (issue 22). The snapshot never has those keys (games.round.contract)."""
        body = _compact(snapshot)
        devices = _compact(self.devices.status)
        tail = _compact({"table": self.config.table.id, "seq": self.journal.next_seq - 1, "ts": time.time(),
                         "outbox": {"undelivered": self.journal.undelivered_count,
                                    "max_undelivered": self.config.journal.max_undelivered,
                                    "held": self.outbox.held}})
        tail = tail[:-1] + b',"devices":' + devices + b"}"
        return body + devices, (tail if body == b"{}" else body[:-1] + b"," + tail[1:])

    # -- lights and the end ----------------------------------------------------------

    def _show(self, lights: dict[str, Any]) -> list[str]:
        """Set the lights; return the problems not reported before (a seat
        or button without a light), so that each becomes one alarm."""
        if self.gpio is None:
            return []
        try:
            problems = self.gpio.show(lights) or []
        except Exception:  # a broken light must not stop the table
            log.exception("setting the lights failed")
            return []
        new = [p for p in problems if p not in self._light_problems]
        self._light_problems.update(new)
        return new

    def _shutdown(self) -> None:
        try:
            self._show(empty_lights())
            if self.gpio is not None and hasattr(self.gpio, "close"):
                self.gpio.close()
            # The pit hears why the table went away: a journal that cannot be written (a full
            # disk) stops the table, since nothing may be published that was not journaled.
            why = "shutdown" if self.error is None else f"the table stopped: {type(self.error).__name__}: {self.error}"
            # Of two controllers of one table, the one that stops leaves the status to the other.
            self.publisher.stop(reason=why[:300], say_offline=not isinstance(self.error, AnotherController))
        finally:
            self.journal.close()
