"""The table loop: one thread owns the round machine, the journal and the lights.

DESIGN.md, "How an event travels": drivers, the MQTT client and whoever
stops the table only put items on one ``queue.Queue``; this thread takes
them one at a time, blocking on the queue (no polling, no sleeps), and for
each item

1. fires the matching trigger on the round machine (device events, pit
   commands) and collects what the machine emits through ``emit``;
2. journals those events in one transaction, which assigns their ``seq``
   before anything else sees them;
3. drives the seat lights and lit buttons from the machine's snapshot, and
   journals a ``lights`` event when they changed (in the same transaction);
4. publishes the events (QoS 1), the retained state, and any command reply.

PUBACKs come back as :class:`~controller.table.inbox.Acked` items; all that are
queued are marked delivered in one transaction. A (re)connect publishes the
birth, the state and the journal's backlog, in ``seq`` order.

Device events reach the machine through one method, ``device_input(role,
kind, data)``: the kind is the event class's name in snake case
(``CardDrawn`` -> ``card_drawn``) and the data its fields, so a new device
class needs no change here. What a fault means for the round is the
machine's to decide, by the device's role (games.round.lifecycle); every
device change is also a ``device`` event, journaled here. No rule of any
game lives in this module: the game comes from games.registry.

A restart in the middle of a round (power loss) cannot continue that round:
the shoe's ledger is gone and the machine starts ``closed``. The journal's
``meta`` remembers the last state, and the table journals a ``void`` of
that round (``by: "controller"``) before anything else.

Store and forward (docs/internals.md): while the broker is away the table
deals on and the journal holds the events. On each (re)connect the backlog
goes out in ``seq`` order, at most :data:`DRAIN_WINDOW` publishes in paho's
hands at a time, topped up as PUBACKs return; new events wait behind it.
The journal counts what is undelivered; at ``journal.warn_at`` of
``journal.max_undelivered`` an ``outbox_filling`` alarm, at the cap an
``outbox_full`` alarm and a hold: the round in progress finishes, ``deal``
in ``betting`` (no more bets: the start of the deal) is refused, and no
event is ever dropped. The hold lifts, and the warning re-arms, once the
backlog is down to half the warning level.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import queue
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from controller.shared.schemas import show
from controller.table.answered import AnsweredCommands
from controller.table.commands import CommandError, Request, parse
from controller.table.config import Config, ConfigError
from controller.table.dice_stats import DiceStats
from controller.table.inbox import Acked, Command, Connected, Disconnected, ForeignStatus, Inbox, Stop
from controller.table.instance_lock import AnotherController
from controller.table.journal import Event, Journal, Pending
from controller.table.journal_check import JournalError, fault_of
from controller.table.publisher import Publisher
from controller.table.reactor import Reactor
from controller.table.secrecy import LineErrorGate
from drivers.dice_report import DEFAULT_DICE
from drivers.events import (
    ButtonPressed,
    CardCount,
    DeviceEvent,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    DiceRead,
    FramesDropped,
)
from games import registry
from games.round import Refused, Verdict
from games.round.contract import empty_lights

log = logging.getLogger(__name__)

Emit = Callable[[str, dict], None]


class Machine(Protocol):
    """The round-machine contract of docs/internals.md (games.round.contract), as the table uses it."""

    state: str
    round: int | None
    BUTTONS: tuple[str, ...]
    SEAT_BUTTONS: tuple[str, ...]

    def open(self) -> None: ...
    def close(self) -> None: ...
    def void(self, reason: str, by: str) -> None: ...
    def resume(self, by: str) -> None: ...
    def device_input(self, role: str, kind: str, data: Mapping[str, Any]) -> None: ...
    def press(self, name: str, seat: int | None = None) -> Verdict: ...
    def snapshot(self) -> dict: ...
    def save(self) -> dict: ...
    def restore(self, saved: Mapping[str, Any], stopped_in: str | None) -> None: ...
    def command(self, name: str, args: Mapping[str, Any]) -> dict: ...

    @property
    def round_open(self) -> bool: ...


MachineFactory = Callable[[Config, Emit, int], Machine]


class Lights(Protocol):
    """``drivers.gpio.TableGpio`` as the table uses it."""

    def show(self, lights: Mapping[str, Any]) -> list[str] | None: ...


def _compact(obj: Mapping[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def _alarm_data(code: str, severity: str, message: str, action: str) -> dict[str, Any]:
    """An ``alarm`` event's data for an alarm of the controller's own (no card involved)."""
    return {"code": code, "severity": severity, "message": message, "card": None,
            "expected": None, "missing": [], "extra": [], "action": action}


def build_machine(config: Config, emit: Emit, first_round: int = 1) -> Machine:
    """The round machine of ``config.table.game`` (games.registry), fed the options checked at load."""
    try:
        entry = registry.get(config.table.game)
    except KeyError as exc:
        raise ConfigError(config.source, [f"table.game: {exc.args[0]}"]) from None
    options = config.options if config.options is not None else _options(config, entry)
    return entry.build(options, emit, first_round)


def _options(config: Config, entry: registry.GameEntry) -> Any:
    from games.options import OptionError

    try:
        return entry.load_options(config.game, config.table.seats)
    except OptionError as exc:
        raise ConfigError(config.source, [f"{exc.field}: {exc.why}"]) from None


@cache
def _input_of(event_type: type) -> tuple[str, tuple[str, ...]]:
    """A device event class as a machine input: its kind (``CardDrawn`` -> ``card_drawn``)
    and the fields it carries besides the device's name. Worked out once per class."""
    kind = re.sub(r"(?<!^)(?=[A-Z])", "_", event_type.__name__).lower()
    return kind, tuple(f.name for f in dataclasses.fields(event_type) if f.name != "device")


ROUND_IN_PROGRESS = frozenset({"betting", "dealing", "fault"})
"""States in which a restart leaves a round that must be voided, for a journal
written before ``meta`` kept ``round_open`` (see :func:`_round_open`)."""

DRAIN_WINDOW = 1000
"""At most this many publishes in paho's hands (unacknowledged) while a backlog
drains: memory stays bounded and paho's 16-bit message ids never run out."""

DRAIN_BATCH = 500
"""Backlog rows read from the journal at a time."""

REPLAY_LIMIT = 10_000
"""Events one ``cmd/replay`` may ask for: a gap after a broker restart is a few
hundred at most; a pit that needs a whole day reads the journal instead."""

REPLAYS_QUEUED = 8
"""Replay requests waiting at once; more are refused until these have gone out."""

LIVE_WINDOW = 20_000
"""Live events in paho's hands, unacknowledged, at most: beyond it (a broker that stalls) events
wait in the journal and drain in seq order, well before paho's 16-bit message ids run out."""

REPLAY_BUDGET = REPLAY_LIMIT
"""Events all waiting replays may still have to send, together: eight requests of 10,000 each
once made the table republish 80,000 events, and the pit's live latency went from 1.4 ms to
4.5 s. A request past the budget is refused until the others have gone out."""

REPLAY_WINDOW = 50
"""Replayed publishes paho may hold unacknowledged at once: replays fill what the live events
leave, a few at a time, so a live card never waits behind thousands of old events."""

HOLD_REASON = ("the outbox is full: the broker has not acknowledged journal.max_undelivered events; "
               "no new round is dealt until the backlog drains")

MARK_DELAY = 0.25
"""Seconds a delivered mark may wait in memory for the next event commit to carry
it (controller.table.journal, "Durability"); then the table writes it on its own."""

ACK_GRACE = 2.0
"""Seconds a clean stop waits for the broker to acknowledge what is in flight."""


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
        self.devices: dict[str, str] = {name: "unknown" for name in {*config.devices, *self.drivers}}
        self.machine: Machine | None = None
        try:
            self._game_commands = dict(registry.get(config.table.game).commands)
        except KeyError:  # a game the registry does not know fails at build_machine, with its reason
            self._game_commands = {}
        self._pending: list[Pending] = []
        self._replies: list[tuple[Command, dict[str, Any]]] = []
        self._answered = AnsweredCommands()  # a command that comes twice is carried out once
        self._lights: dict[str, Any] | None = None
        self._light_problems: set[str] = set()
        self._online = False
        self._thread: threading.Thread | None = None
        self.listeners: list[Callable[[Event], None]] = []
        """Local consumers of every journaled event, broker or not (the dealer's
        display; a simulated dealer in tests). Called on the table thread, in
        ``seq`` order: they must not block."""
        self._draining = False   # a backlog is going out: new events wait behind it
        self._cursor = 0         # the last seq of the backlog handed to paho this session
        self._drain_started = 0.0
        self._drained = 0
        self._marks_due: float | None = None  # when waiting delivered marks must be written
        self._state_owed: bytes | None = None  # the newest retained state not yet handed to paho
        self._state_made: tuple[bytes, bool] | None = None  # the snapshot's JSON and the hold of the last state made
        self._replays: deque[list[int]] = deque()  # [next seq, last seq] of each cmd/replay still going out
        self._filling = False    # outbox_filling raised, not yet back under the warning level
        self._held = False       # at the cap: no new round until under the warning level
        self._held_deal = False  # a deal was refused during the hold: prompt again when it lifts
        self._autostart = False  # table.autostart, until every device has said hello
        self._autostart_logged = False
        self._damaged_told: set[int] = set()  # damaged journal rows already raised as an alarm
        self._line_errors = LineErrorGate()  # no published figure depends on a face-down card
        self._sessions = 0       # MQTT sessions this process has had
        self._others: set[str] = set()  # journals of other controllers of this table already raised
        cups = {name: dev.settings.get("dice", DEFAULT_DICE) for name, dev in config.devices.items()
                if dev.kind == "dice_cup"}
        self._dice = DiceStats(cups) if cups else None  # dice integrity: counts journaled, published retained
        self._dice_owed = False  # the retained dice topic changed since it was last handed to paho

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
                      self._online, dict(self.devices), len(self.publisher.in_flight()),
                      {name: bool(getattr(d, "alive", True)) for name, d in self.drivers.items()},
                      bool(getattr(self.publisher, "alive", True)),
                      undelivered=self.journal.undelivered_count)

    # -- the loop --------------------------------------------------------------

    def _startup(self) -> None:
        birth = self.journal.next_birth()
        self._journal_notices()
        self._void_interrupted_round()
        restarted = self.journal.meta("restarted")
        before = restarted.get("last_round") if isinstance(restarted, dict) else None
        first_round = max(self.journal.last_round() or 0, before if isinstance(before, int) else 0) + 1
        self.machine = self.machine_factory(self.config, self._emit, first_round)
        self._restore_machine()
        if self._dice is not None:
            for problem in self._dice.load(self.journal.meta("dice")):
                self._alarm("dice_counts_reset", "warning", problem, "nothing to do: the cup's throws are counted "
                            "again from now")
        self.publisher.start(birth, self.journal.journal_id)  # its status says which journal publishes
        for name, driver in self.drivers.items():
            if hasattr(driver, "start"):
                log.info("starting device %s", name)
                driver.start()
        self._autostart = self.config.table.autostart
        self._maybe_autostart()
        self._flush()

    def _loop(self) -> None:
        next_tick = time.monotonic() + self.tick
        while True:
            due = [t for t in (next_tick if self.on_tick is not None else None, self._marks_due) if t is not None]
            self.reactor.wait(min(due) if due else None)   # the inbox, the MQTT socket served meanwhile
            if self._marks_due is not None and time.monotonic() >= self._marks_due:
                self.journal.flush_marks()  # no event came to carry them
                self._marks_due = None
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
                seqs = self.publisher.delivered(acks)
                if self._draining or self._filling or self._held:
                    self.journal.mark_delivered(seqs)  # the outbox count decides things now
                else:
                    self.journal.mark_delivered_later(seqs)  # the next event commit carries them
                    if self._marks_due is None:
                        self._marks_due = time.monotonic() + MARK_DELAY
                self._pump()
                self._pay_state()
                if self._filling or self._pending:  # the backlog shrinks: the alarm re-arms, the hold may lift
                    self._flush()
            for item in batch:
                if isinstance(item, Stop):
                    self._drain_acks()
                    return
                if not isinstance(item, Acked):
                    self._handle(item)
                    self._flush()
                    if isinstance(self.error, AnotherController):
                        return  # the younger of two controllers of one table: stop, publish nothing more
            if not self.journal.marks_waiting:
                self._marks_due = None  # an event commit carried them

    def _handle(self, item: object) -> None:
        """One inbox item; a failure of the machine is an alarm, never the end of the loop."""
        try:
            if isinstance(item, DeviceEvent):
                self._device(item)
                self._maybe_autostart()
            elif isinstance(item, Command):
                self._command(item)
            elif isinstance(item, Connected):
                self._connected(item.prior)
            elif isinstance(item, ForeignStatus):
                self._another_controller(item.status)
            elif isinstance(item, Disconnected):
                self._online = False
            else:
                log.error("unknown inbox item %r ignored", type(item).__name__)
        except Exception:
            log.exception("handling %s failed", type(item).__name__)
            self._alarm("controller_error", "critical",
                        f"internal error while handling {type(item).__name__}; see the controller's log",
                        "the pit decides whether to void the round")

    def _flush(self) -> None:
        """Journal what the item produced, publish it, then the lights (DESIGN.md, step 6).

        A journal failure propagates and ends the loop: an event that cannot
        be journaled must not be published."""
        machine = self.machine
        assert machine is not None
        self._check_outbox()
        try:
            snapshot = machine.snapshot()
        except Exception:
            log.exception("the machine's snapshot failed")
            snapshot = None
        lights = self._lights if snapshot is None else snapshot["lights"]
        changed = lights != self._lights
        if changed:
            self._emit("lights", lights)
        events: list[Event] = []
        dice = self._dice.save() if self._dice is not None and self._dice.changed else None
        if self._pending:
            pending, self._pending = self._pending, []
            meta = {"state": machine.state, "round": machine.round, "round_open": machine.round_open,
                    "machine": machine.save()}
            if dice is not None:
                meta["dice"] = dice  # the counts and the throw's events in one transaction
            events = self.journal.append_many(pending, meta=meta)
        elif dice is not None:
            self.journal.set_meta(dice=dice)  # a throw counted that made no event (no dice were due)
        self._dice_owed = self._dice_owed or dice is not None
        if self._online:
            # First what the pit needs: the events go to the socket now (paho writes on this
            # thread, controller.table.reactor); the lights, the local listeners and the state after.
            if not self._draining and events and self.publisher.in_flight_count() + len(events) > LIVE_WINDOW:
                # The broker has stopped acknowledging (a stall): paho would run out of its 65,535
                # message ids and lose track of publishes. New events wait in the journal like any
                # backlog and go out in seq order as PUBACKs come back.
                log.warning("MQTT: %d publishes unacknowledged: events wait in the journal",
                            self.publisher.in_flight_count())
                self._draining, self._cursor = True, events[0].seq - 1
                self._drain_started, self._drained = time.monotonic(), 0
            if self._draining:
                self._pump()  # behind the backlog: seq order
            else:
                for event in events:
                    self.publisher.publish_event(event)
                if self._replays:
                    self._pump()
        if changed:
            self._lights = lights
            missing = self._show(lights)
            if missing:  # a light the config lacks: say so once (journaled and published just below)
                self._alarm("light_missing", "warning", "; ".join(missing),
                            "add the light to [gpio] in the table's config")
        self._tell(events)
        if self._online:
            if events and snapshot is not None:
                body, state = self._state(snapshot)
                if (body, self._held) != self._state_made:  # only when the table looks otherwise
                    self._state_made = (body, self._held)
                    self._state_owed = state
                    self._pay_state()
            if self._dice_owed:
                self._publish_dice()
        for command, reply in self._replies:
            self.publisher.reply(command, **reply)  # queued by paho until connected
        self._replies.clear()
        if self._pending:  # an alarm raised while publishing (a damaged row in the backlog): journal it now
            self._flush()

    # -- device events ---------------------------------------------------------

    def _device(self, event: DeviceEvent) -> None:
        """Buttons and line errors are the table's; everything else goes to the machine,
        which knows what it means for the round (after a ``device`` event for a status change)."""
        machine = self.machine
        assert machine is not None
        if self._dice is not None:
            self._count_dice(event)
        before = len(self._pending)
        match event:
            case ButtonPressed(button=button, seat=seat):
                self._press(button, seat)
                return
            case FramesDropped(device=device, counts=counts):
                for data in self._line_errors.dropped(device, counts):  # held while a face-down card is out
                    self._emit("line_errors", data)
                return
            case DeviceFault(device=device, code=code, detail=detail):
                self._device_status(device, "fault", code, detail)
            case DeviceOnline(device=device, info=info):
                self._device_status(device, "online", None, info)
            case DeviceOffline(device=device, reason=reason):
                # A silent device (heartbeat lost) is its own fault, with its own alarm;
                # a port error or a port that cannot be opened is plain ``offline``.
                code = "heartbeat_lost" if reason == "heartbeat_lost" else None
                self._device_status(device, "offline", code, reason)
            case CardCount(device=device, count=count):
                log.info("%s counted %d cards", device, count)
        kind, fields = _input_of(type(event))
        machine.device_input(event.device, kind, {f: getattr(event, f) for f in fields})
        if self._dice is not None and isinstance(event, DiceRead) and any(
                p.kind == "dice" for p in self._pending[before:]):
            self._count_throw(event.device, event.values)

    def _count_throw(self, device: str, values: tuple[int, ...]) -> None:
        """Dice integrity (controller.table.dice_stats): a reading counts when the round took it as
        the throw it asked for (its ``dice`` event came of this reading), so each physical throw the
        round used counts once; a die whose counts reject fairness is a ``dice_bias`` warning."""
        assert self._dice is not None
        for bias in self._dice.read(device, values):
            self._alarm("dice_bias", "warning", bias.message, bias.action)

    def _count_dice(self, event: DeviceEvent) -> None:
        """A cup's hello: another serial than the one counted is another cup, whose counts start afresh."""
        assert self._dice is not None
        match event:
            case DeviceOnline(device=device, serial=serial):
                discarded = self._dice.online(device, serial)
                if discarded:
                    self._alarm("dice_counts_reset", "warning",
                                f"the {device} says serial {serial}: another cup than the one counted; the "
                                f"{discarded} throws counted are set aside and its counts start afresh",
                                "nothing to do: a new cup's dice are counted from its first throw")

    def _device_status(self, device: str, status: str, code: str | None, detail: str) -> None:
        self.devices[device] = status
        self._emit("device", {"device": device, "status": status, "code": code, "detail": detail})

    # -- commands --------------------------------------------------------------

    def _command(self, command: Command) -> None:
        try:
            request = parse(command, remote_buttons=self.config.dealer.remote_buttons, game=self._game_commands)
        except CommandError as exc:
            self._answer(command, exc.request_id, error=str(exc))
            return
        if request.name == "button":
            bad = self._bad_button(request.args)
            if bad:
                self._answer(command, request.id, error=f"bad button command: {bad}")
                return
        again = self._answered.get(request)
        if again is not None:  # delivered twice, or sent again: answered, not carried out twice
            log.info("command %s id %s came again: answered as the first time, not carried out again",
                     request.name, show(request.id, 40))
            self._replies.append((command, again | {"repeated": True}))
            return
        try:
            data = self._run_request(request)
        except Refused as exc:
            answer = self._answer(command, request.id, error=f"refused: {exc}")
        except Exception:
            log.exception("command %s failed", request.name)
            answer = self._answer(command, request.id,
                                  error="internal error: the command failed; see the controller's log")
        else:
            answer = self._answer(command, request.id, data=data)
        self._answered.put(request, answer)

    def _bad_button(self, args: Mapping[str, Any]) -> str | None:
        """A ``cmd/button`` naming a button the game does not have is a malformed command
        (the game's vocabulary, from its machine); a known one out of place is the machine's
        refusal, in the reply's data."""
        machine = self.machine
        assert machine is not None
        names = (*machine.BUTTONS, *machine.SEAT_BUTTONS)
        if args["button"] not in names:   # what was sent is not quoted back (controller.table.commands)
            quoted = ", ".join(f'"{n}"' for n in names)
            return f"button: must be one of {quoted}"
        return None

    def _run_request(self, request: Request) -> dict[str, Any]:
        machine = self.machine
        assert machine is not None
        name, args = request.name, request.args
        extra: dict[str, Any] = {}
        if name == "open":
            waiting = self._unsynced()
            if waiting:
                raise Refused(f"{', '.join(waiting)} not answered yet since the controller started; "
                              f"open again in a moment")
            machine.open()
            self._emit("table", {"status": "open"})
        elif name == "close":
            machine.close()
            self._emit("table", {"status": "closed"})
        elif name == "void":
            machine.void(args["reason"], by="pit")
        elif name == "resume":
            machine.resume(by="pit")
        elif name == "rebirth":
            extra = self._rebirth()
        elif name == "replay":
            extra = self._queue_replay(args["from"], args["to"])
        elif name == "button":
            verdict = self._press(args["button"], args.get("seat"))
            extra = {"accepted": verdict.accepted, "reason": verdict.reason}
        elif name == "dice_reset":
            extra = self._dice_reset(args["cup"])
        elif name in self._game_commands:
            extra = machine.command(name, args)   # the game's own (Refused when out of place)
        return {"state": machine.state, "round": machine.round, **extra}

    def _dice_reset(self, cup: str) -> dict[str, Any]:
        """``cmd/dice_reset``: new dice in a cup, so its counts start afresh (and its die may raise
        ``dice_bias`` again). Refused, naming the cups, for a cup the table does not have."""
        if self._dice is None:
            raise Refused("this table has no dice cup")
        try:
            discarded = self._dice.reset(cup)
        except KeyError as exc:
            raise Refused(exc.args[0]) from None
        log.info("dice counts of %s reset by the pit (%d throws set aside)", cup, discarded)
        return {"cup": cup, "discarded": discarded}

    def _answer(self, command: Command, request_id: Any, *, data: dict | None = None,
                error: str | None = None) -> dict[str, Any]:
        ok = error is None
        self._emit("command", {"name": command.name[:64], "id": request_id, "ok": ok, "error": error})
        answer = {"ok": ok, "request_id": request_id, "data": data, "error": error}
        self._replies.append((command, answer))
        return answer

    # -- MQTT sessions -----------------------------------------------------------

    # -- two controllers, one table ------------------------------------------------

    def _connected(self, prior: dict | None) -> None:
        """A (re)connect. The table's retained status as the broker held it before this session
        (``prior``) says who published as this table last. A status from another journal is no
        proof at the first connect (a replaced Pi, a new journal: docs/operations.md); but once
        this process has had a session, it means another controller published as this table
        meanwhile -- with one client id, the two take each other's session over at every
        reconnect, and each sees the other's birth here."""
        foreign = isinstance(prior, dict) and prior.get("journal") not in (None, self.publisher.journal_id)
        log.info("MQTT session %d of this process; the table's status before it: %s", self._sessions + 1,
                 "none" if not isinstance(prior, dict) else
                 f"journal {str(prior.get('journal'))[:64]}, birth {str(prior.get('birth'))[:20]}, "
                 f"online {prior.get('online') is True}")
        if foreign and self._sessions:
            self._another_controller(prior)  # type: ignore[arg-type]
            if isinstance(self.error, AnotherController):
                return
        elif foreign and prior.get("online"):  # type: ignore[union-attr]
            log.warning("the broker's retained status of table %s was published by another journal (%s, birth %s): "
                        "if another controller runs as this table, the younger of the two will stop",
                        self.config.table.id, prior.get("journal"), prior.get("birth"))  # type: ignore[union-attr]
        self._sessions += 1
        self._online = True
        self._rebirth()

    def _another_controller(self, other: dict) -> None:
        """Another controller publishes as this table (issue 13, defect 5): its seqs would repeat
        ours with other payloads. The younger process (``started``; the journal id breaks a tie)
        stops without a word on the broker (its offline status would be about the other); the
        older raises a critical alarm once per other journal and publishes its birth again."""
        mine = (self.publisher.started, str(self.publisher.journal_id))
        started = other.get("started")
        theirs = (started if isinstance(started, (int, float)) and not isinstance(started, bool) else 0.0,
                  str(other.get("journal")))
        if theirs < mine:
            self.error = AnotherController(
                f"another controller publishes as table {self.config.table.id} on {self.config.mqtt.host}:"
                f"{self.config.mqtt.port} (journal {theirs[1]}, birth {other.get('birth')}, running since before "
                f"this one): this one stops so that no seq goes out twice; run each table on one Pi only")
            return
        if theirs[1] in self._others:
            return
        self._others.add(theirs[1])
        self._alarm("another_controller", "critical",
                    f"another controller published as table {self.config.table.id} (journal {theirs[1][:64]}, "
                    f"birth {str(other.get('birth'))[:20]}): events under its seqs are not this table's; it stops "
                    "itself as the younger of the two",
                    "find the second Pi or process configured as this table and stop it; check the pit's events "
                    "for seqs seen twice")
        if self._online:
            self._rebirth()

    def _rebirth(self) -> dict[str, Any]:
        """Birth, state and the backlog: on every (re)connect and on ``cmd/rebirth``.

        The backlog (every undelivered event) then drains through :meth:`_pump`.
        """
        if self._online:
            self.publisher.publish_birth(self.journal.next_seq, self.devices)
            if self.machine is not None:
                self._state_owed = None  # the state now is newer than any that waited for room
                body, state = self._state(self.machine.snapshot())
                self._state_made = (body, self._held)
                self.publisher.publish_state(state)
            self._publish_dice()
            self._draining, self._cursor = True, 0
            self._drain_started, self._drained = time.monotonic(), 0
            self._pump()
        return {"birth": self.publisher.birth, "undelivered": self.journal.undelivered_count}

    def _publish_dice(self) -> None:
        """The retained dice topic (docs/schemas/dice.json): newest only, like the state."""
        if self._dice is not None:
            self._dice_owed = False
            self.publisher.publish_dice({"table": self.config.table.id, "ts": time.time(), **self._dice.payload()})

    def _queue_replay(self, first: int, last: int) -> dict[str, Any]:
        """``cmd/replay``: a pit that found a gap in ``seq`` (DESIGN.md, MQTT) asks
        for it again. A broker that acknowledged an event and then lost it (a
        crash before its persistence was written, a restart without persistence
        while the pit's copy was in flight) leaves a hole that only the journal
        can fill: the events go out again, same bytes, on their usual topics,
        behind any backlog, at most :data:`DRAIN_WINDOW` unacknowledged. The
        journal holds only what was published, so a replay reveals nothing
        that was not already revealed."""
        top = self.journal.next_seq - 1
        # A refusal names the keys and the table's own seqs, never the numbers asked for (controller.table.commands).
        if first > last:
            raise Refused("from is after to")
        if last - first + 1 > REPLAY_LIMIT:
            raise Refused(f"from..to holds more than {REPLAY_LIMIT} events, the most one replay sends; "
                          f"ask for the range in parts")
        if last > top:
            raise Refused(f"to is beyond the last event journaled, seq {top}")
        oldest = self.journal.first_seq
        if first < oldest:
            raise Refused(f"the journal no longer holds seqs before {oldest} (pruned: tablectl prune); "
                          f"ask from {oldest}")
        if len(self._replays) >= REPLAYS_QUEUED:
            raise Refused(f"{len(self._replays)} replays are still going out; ask again when they have")
        waiting = sum(hi - lo + 1 for lo, hi in self._replays)
        if waiting + (last - first + 1) > REPLAY_BUDGET:
            raise Refused(f"{waiting} replayed events are still to go out and at most {REPLAY_BUDGET} may wait "
                          f"at once; ask again when they have gone out")
        self._replays.append([first, last])
        return {"from": first, "to": last, "count": last - first + 1,
                "queued_before": len(self._replays) - 1}

    def _pump(self) -> None:
        """Hand the backlog to paho in ``seq`` order, keeping at most
        :data:`DRAIN_WINDOW` publishes unacknowledged; called again as PUBACKs
        come back. Events paho still holds are skipped: paho resends those
        itself, before the table hears of the session (controller.table.publisher),
        so they stay ahead of these. Ends when the journal has nothing
        undelivered after the cursor; new events then go out as they come.
        Replays (:meth:`_queue_replay`) go out after the backlog, in the same window."""
        while self._draining and self._online:
            room = DRAIN_WINDOW - self.publisher.in_flight_count()
            if room <= 0:
                return
            batch = self.journal.undelivered(after_seq=self._cursor, limit=min(room, DRAIN_BATCH))
            self._report_damaged()
            if not batch:
                self._draining = False
                if self._drained:
                    log.info("MQTT: backlog of %d events handed over in %.2f s", self._drained,
                             time.monotonic() - self._drain_started)
                break
            held = self.publisher.in_flight()
            for event in batch:
                if event.seq not in held:
                    self.publisher.publish_event(event)
                    self._drained += 1
            self._cursor = batch[-1].seq
        while self._replays and self._online and not self._draining:
            room = REPLAY_WINDOW - self.publisher.in_flight_count()
            if room <= 0:
                return
            span = self._replays[0]
            batch = self.journal.events(after_seq=span[0] - 1, limit=min(room, DRAIN_BATCH, span[1] - span[0] + 1),
                                        until=span[1])  # rows pruned from the journal leave holes
            self._report_damaged()
            for event in batch:
                self.publisher.publish_event(event)
            span[0] = batch[-1].seq + 1 if batch else span[1] + 1
            if span[0] > span[1]:
                self._replays.popleft()
                log.info("MQTT: replay up to seq %d handed over", span[1])

    def _pay_state(self) -> None:
        """The retained state, newest only, once paho has room: during a stall only the last one
        matters, and each held publish would take one of paho's message ids."""
        if self._state_owed is not None and self._online and self.publisher.in_flight_count() < LIVE_WINDOW:
            state, self._state_owed = self._state_owed, None
            self.publisher.publish_state(state)

    # -- the outbox cap ----------------------------------------------------------

    def _check_outbox(self) -> None:
        """Alarms and the hold from the journal's undelivered count (kept in
        memory: no COUNT(*) per event). Before each flush and after PUBACKs."""
        cap = self.config.journal.max_undelivered
        warn = max(1, int(cap * self.config.journal.warn_at))
        level = self.journal.undelivered_count + len(self._pending)
        if self._filling and level <= warn // 2:  # re-arm well under the level: no flapping
            if self._held:
                self._held = False
                log.warning("outbox back to %d events (warning level %d): the hold is lifted", level, warn)
                if self._held_deal and self.machine is not None and self.machine.state == "betting":
                    self._emit("prompt", dict(self.machine.snapshot()["prompt"]))  # deal again
                self._held_deal = False
            self._filling = False
            return
        if level < warn:
            return
        if not self._filling:
            self._filling = True
            log.warning("outbox: %d events not acknowledged by the broker (warning level %d, cap %d)",
                        level, warn, cap)
            self._alarm("outbox_filling", "warning",
                        f"{level} events are waiting for the broker to acknowledge them "
                        f"(warning at {warn}, cap {cap})",
                        f"check the broker and the pit network; at {cap} the table deals no new round")
        if level >= cap and not self._held:
            self._held = True
            log.critical("outbox full: %d events not acknowledged (cap %d): no new round until it drains",
                         level, cap)
            self._alarm("outbox_full", "critical",
                        f"{level} events are waiting for the broker (cap {cap}): the table deals no new "
                        f"round until they are acknowledged; nothing is dropped",
                        f"finish the round in progress; deal resumes when the backlog is under {warn // 2}")

    def _unsynced(self) -> list[str]:
        """Devices that have not said hello to this process yet (``synced`` of
        drivers.serial_driver). Until they have, a frame a device queued for a
        controller process that is gone may still come; the dealer must not be
        asked for anything before it has (docs/internals.md, "Store and forward")."""
        return sorted(name for name, driver in self.drivers.items() if not getattr(driver, "synced", True))

    def _maybe_autostart(self) -> None:
        """``table.autostart``: open (start the deck check) once every device is in sync."""
        if not self._autostart:
            return
        waiting = self._unsynced()
        if waiting:
            if not self._autostart_logged:
                self._autostart_logged = True
                log.info("autostart: waiting for %s to answer", ", ".join(waiting))
            return
        self._autostart = False
        if self.machine is not None and self.machine.state == "closed":
            self._run_request(Request("open", None))

    def _press(self, name: str, seat: int | None = None) -> Verdict:
        """A dealer's or a seat's button (GPIO or ``cmd/button``); the machine's verdict.
        At the outbox cap ``deal`` in ``betting`` (no more bets: the deal would start) is refused."""
        machine = self.machine
        assert machine is not None
        if self._held and name == "deal" and seat is None and machine.state == "betting":
            self._held_deal = True
            self._emit("button", {"button": name, "accepted": False, "reason": HOLD_REASON})
            return Verdict(False, HOLD_REASON)
        return machine.press(name, seat)

    def _drain_acks(self) -> None:
        """At stop: give the broker a moment to acknowledge what is in flight.
        A timeout here is shutdown, not the event path; what is not acknowledged
        stays undelivered in the journal and goes out after the next start."""
        deadline = time.monotonic() + ACK_GRACE
        while self._online and self.publisher.in_flight():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                self.reactor.wait(deadline)   # PUBACKs are read here now
                continue
            if isinstance(item, Acked):
                self.journal.mark_delivered(self.publisher.delivered([item]))
            elif isinstance(item, Disconnected):
                self._online = False
        self.journal.flush_marks()

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

    # -- helpers -------------------------------------------------------------------

    def _emit(self, kind: str, data: dict) -> None:
        """The machine's ``emit``: held until the item is finished, then journaled.

        The envelope's round is the round the event is about: the one in the
        data when it names one (``round_start``, ``void``), else the machine's.
        """
        rnd = data.get("round")
        if not isinstance(rnd, int) or isinstance(rnd, bool):
            rnd = self.machine.round if self.machine is not None else None
        self._pending.append(Pending(kind, rnd, data, time.time()))
        if kind != "line_errors":
            for released in self._line_errors.observe(kind, data):  # counts the reveal made public
                self._emit("line_errors", released)

    def _alarm(self, code: str, severity: str, message: str, action: str) -> None:
        self._emit("alarm", _alarm_data(code, severity, message, action))

    def _journal_notices(self) -> None:
        """At start, before anything else is journaled: a journal started anew by `tablectl
        journal new` (its first start) and ``meta`` values that were damaged and ignored."""
        notes: list[Pending] = []
        restarted = self.journal.meta("restarted")
        if isinstance(restarted, dict) and self.journal.empty:
            old, last = restarted.get("from"), restarted.get("last_seq")
            numbering = (f"seq goes on from {self.journal.next_seq}" if isinstance(last, int)
                         and self.journal.next_seq == last + 1 else f"seq starts again at {self.journal.next_seq}")
            message = (f"the journal was started anew by tablectl journal new at {restarted.get('at')}: "
                       f"{numbering}; events up to seq {last if isinstance(last, int) else 'unknown'} are in the old "
                       f"journal, kept at {old}, and can no longer be replayed")
            log.warning("%s", message)
            notes.append(Pending("alarm", None, _alarm_data(
                "journal_restarted", "critical", message,
                "pit: a subscriber that de-duplicates by seq must start this table's count afresh if seq starts "
                "again; archive the old journal from the controller (docs/operations.md, 'A damaged journal')"),
                time.time()))
        if self.journal.damaged_meta:
            damaged = self.journal.damaged_meta
            message = (f"the journal's meta value{'s' if len(damaged) > 1 else ''} "
                       f"{', '.join(sorted(damaged))} could not be read and "
                       f"{'were' if len(damaged) > 1 else 'was'} ignored: "
                       + "; ".join(f"{k}: {why}" for k, why in sorted(damaged.items())))
            log.warning("%s", message)
            notes.append(Pending("alarm", None, _alarm_data(
                "journal_meta_damaged", "warning", message[:500],
                "what it kept starts afresh (the player-dealer rotation: check who banked the last rounds); "
                "the table writes a good value in its place"), time.time()))
        if notes:
            self._tell(self.journal.append_many(notes))

    def _report_damaged(self) -> None:
        """Rows the journal could not read while draining or replaying: one alarm per seq per
        process (a drain quarantines the row, so a restart does not find it again)."""
        for seq, why in self.journal.take_damaged():
            if seq in self._damaged_told:
                continue
            self._damaged_told.add(seq)
            self._alarm("journal_row_damaged", "critical",
                        f"event seq {seq} cannot be read from the journal ({why}): it is not published; "
                        f"the table goes on and the journal keeps the row",
                        f"pit: seq {seq} stays a gap; read the row from the journal "
                        f"(docs/operations.md, 'A damaged journal') and run tablectl journal check")

    def _void_interrupted_round(self) -> None:
        state, rnd = self.journal.meta("state"), self.journal.meta("round")
        round_open = self.journal.meta("round_open")
        if round_open is None:  # a journal from before round_open was kept
            round_open = state in ROUND_IN_PROGRESS
        if round_open and rnd is not None:
            reason = f"the controller restarted during round {rnd} (state {state})"
            log.warning("%s: voiding it", reason)
            self._tell(self.journal.append_many(
                [Pending("void", rnd, {"round": rnd, "reason": reason, "by": "controller"}, time.time())],
                meta={"state": "closed", "round": None, "round_open": False}))

    def _restore_machine(self) -> None:
        """What the machine saved before a restart (its rotation, for a player-dealer game)
        goes back to it with the state the last process journaled; what that means for the
        game (a round stopped after its result counts as banked ...) is the game's rule."""
        assert self.machine is not None
        saved = self.journal.meta("machine")
        if saved is None and self.journal.meta("player_dealer") is not None:
            saved = {"player_dealer": self.journal.meta("player_dealer")}  # a journal from before "machine"
        if not isinstance(saved, dict):
            return
        self.machine.restore(saved, self.journal.meta("state"))

    def _tell(self, events: list[Event]) -> None:
        """The local listeners, in seq order; one that fails is logged, never fatal."""
        for listener in self.listeners:
            for event in events:
                try:
                    listener(event)
                except Exception:
                    log.exception("a local listener failed on event %d", event.seq)

    def _state(self, snapshot: dict) -> tuple[bytes, bytes]:
        """The snapshot's JSON, and the retained state's: the snapshot with the table, the seq it
        is as of, the time and the outbox. The snapshot is encoded once and the rest spliced on,
        so that telling whether the table changed (issue 11: the state goes out only when it
        did) costs no second encoding. The snapshot never has those four keys (the machine's
        contract, games.round.contract)."""
        body = _compact(snapshot)
        tail = _compact({"table": self.config.table.id, "seq": self.journal.next_seq - 1, "ts": time.time(),
                         "outbox": {"undelivered": self.journal.undelivered_count,
                                    "max_undelivered": self.config.journal.max_undelivered, "held": self._held}})
        return body, (tail if body == b"{}" else body[:-1] + b"," + tail[1:])

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
