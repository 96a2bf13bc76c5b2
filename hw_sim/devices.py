"""Simulated shoe and shuffler speaking the real wire protocols.

Each device is a :class:`drivers.link.Link` on the device's end of a cable
(:mod:`hw_sim.transport`) plus the device's behaviour on the physical card
model (:mod:`hw_sim.physical`): what it reports is always what physically
happened to real card objects. Faults are injected by name with
:meth:`SimDevice.inject`; everything random comes from one seeded
``random.Random``, so a run repeats exactly.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from typing import Any

from drivers import messages
from drivers.framing import Frame
from drivers.link import Link, Port
from games.cards import Card
from hw_sim import shuffles
from hw_sim.physical import CUT_CARD, Arrange, PhysicalCard, Table

log = logging.getLogger(__name__)


class SimDevice:
    """What the shoe and the shuffler share: hello, heartbeats, ``S``, faults."""

    REQUESTS: frozenset[str] = messages.SHOE_REQUESTS
    KIND = "device"

    def __init__(
        self,
        table: Table,
        port: Port,
        *,
        heartbeat: float | None = 1.0,
        retransmit: float = 0.25,
        model: str = "SIMDEV",
        firmware: str = "1.0",
        seed: int | random.Random = 0,
        name: str | None = None,
    ) -> None:
        self.table = table
        self.port = port
        self.model = model
        self.firmware = firmware
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.lost: list[str] = []           # types of frames the controller never acknowledged
        self.on_back: list[Callable[[], None]] = []   # called when a dead device talks to the controller again
        self._lock = threading.Lock()
        self._splice: list[bytes] = []
        self._splice_rng: random.Random | None = None
        self._unplugged = False
        self._hung = False
        self._awaiting_controller = False
        self.link = Link(
            lambda: _Wire(self.port, self),
            name=name or self.KIND,
            on_frame=self._on_request,
            on_link_lost=self.lost.append,
            retransmit=retransmit,
            retries=None,     # a device never abandons a frame it sent: a card read must arrive
                              # (docs/protocols.md, "Reliability"); the controller notices a silence

            heartbeat=heartbeat,
            rng=random.Random(self.rng.random()),
        )

    # --- lifecycle -------------------------------------------------------------
    def start(self) -> None:
        """Power on: announce ourselves (``I``) and start the heartbeat."""
        self.link.start()
        self.link.send(*self.hello())

    def stop(self) -> None:
        self.link.stop()

    def __enter__(self) -> SimDevice:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def idle(self, timeout: float | None = 5.0) -> bool:
        """Wait until everything sent was acknowledged or given up on."""
        return self.link.idle(timeout)

    @property
    def dead(self) -> bool:
        """Unplugged (until the controller has opened the line again) or hung:
        what a dealer sees as the device's link light being off."""
        return self._unplugged or self._hung

    def _back(self) -> None:
        for callback in list(self.on_back):
            try:
                callback()
            except Exception:
                log.exception("%s: on_back callback failed", self.KIND)

    # --- requests from the controller ------------------------------------------
    def _on_request(self, frame: Frame) -> str | None:
        if self._awaiting_controller:
            # Replugged, and now the controller has opened its end (it sends S on every open).
            self._awaiting_controller = False
            self._unplugged = False
            self._back()
        reason = messages.parse_request(frame, self.REQUESTS)
        if reason is None:
            self._answer(frame.type)
        return reason

    def _answer(self, type_: str) -> None:
        if type_ == messages.STATUS:
            self.link.send(*self.hello())

    def hello(self) -> messages.Message:
        """What this device says when it starts, is plugged in, or is asked (``S``)."""
        return messages.hello(self.model, self.firmware)

    # --- faults --------------------------------------------------------------------
    def inject(self, name: str, **kw: Any) -> None:
        """Inject a fault by name. Common to both devices:

        ``garbage`` (``n=64`` seeded random bytes, or ``data=b"..."``),
        ``bad_checksum`` (next data frame once with a broken CRC),
        ``splice`` (``data=b"..."``: the next frame written carries these bytes
        inside it, as noise on the line in the middle of a frame),
        ``jam``, ``door_open``, ``misread``, ``double_card``, ``unreadable``,
        ``count_wrong`` (an ``X`` frame now), ``unknown_card`` (a ``C`` frame
        carrying ``code="ZZ"``), ``hang`` / ``recover`` (fall silent, heartbeats
        included, and come back), ``unplug`` / ``replug``.
        Scheduling faults by name and moment: :mod:`hw_sim.faults`.
        """
        handler = self._injectors().get(name)
        if handler is None:
            raise ValueError(f"{self.KIND}: no fault named {name!r}; known: {sorted(self._injectors())}")
        handler(**kw)

    def _injectors(self) -> dict[str, Callable[..., None]]:
        faults = {code: (lambda c=code: self.link.send(*messages.fault(c)))
                  for code in ("jam", "door_open", "unreadable", "count_wrong", "misread", "double_card")}
        return {
            **faults,
            "garbage": self._garbage,
            "splice": self._arm_splice,
            "bad_checksum": self.link.corrupt_next,
            "unknown_card": lambda code="ZZ": self.link.send(messages.CARD, code.encode("latin-1")),
            "hang": self.hang,
            "recover": self.recover,
            "unplug": self.unplug,
            "replug": self.replug,
            "dropout": self.dropout,
        }

    def dropout(self, seconds: float = 2.2) -> None:
        """The line drops every byte both ways for ``seconds``, the ports left open (a flaky cable
        or relay): what the device sends meanwhile is retransmitted until it gets through."""
        self.link.blackhole(True)
        timer = threading.Timer(seconds, self._dropout_over)
        timer.daemon = True
        timer.start()

    def _dropout_over(self) -> None:
        self.link.blackhole(False)
        self._back()

    def _garbage(self, n: int = 64, data: bytes | None = None) -> None:
        self.link.send_raw(data if data is not None else self.rng.randbytes(n))

    def _arm_splice(self, data: bytes) -> None:
        with self._lock:
            if self._splice_rng is None:   # drawn here, on the injecting thread: a seeded run repeats
                self._splice_rng = random.Random(self.rng.random())
            self._splice.append(bytes(data))

    @property
    def splice_pending(self) -> bool:
        """An armed ``splice`` has not gone out with a frame yet."""
        return bool(self._splice)

    def _splice_offset(self, length: int) -> int:
        """Where in a frame of ``length`` bytes the noise goes: after its first byte, before its last."""
        rng = self._splice_rng or self.rng
        return rng.randrange(1, length)

    def _take_splice(self) -> bytes | None:
        if not self._splice:
            return None
        with self._lock:
            return self._splice.pop(0) if self._splice else None

    def hang(self) -> None:
        """Fall silent: nothing goes out, not even ACKs or heartbeats; what is
        sent meanwhile waits in the link and goes out on :meth:`recover`."""
        self._hung = True
        self.link.mute(True)

    def recover(self) -> None:
        self.link.mute(False)
        self._hung = False
        self._back()

    def unplug(self) -> None:
        """Pull the cable: the device's end closes, the controller's reads fail."""
        self._unplugged = True
        self._awaiting_controller = False
        self.link.disconnect()

    def replug(self) -> None:
        """Plug it back in at the same address (pty symlink or hwsim name).

        The device counts as back (``dead`` false, ``on_back`` called) once
        the controller has opened the line again and asked for its status."""
        reopen = getattr(self.port, "reopen", None)
        if reopen is None:
            raise ValueError(f"{self.KIND}: this port cannot be replugged")
        self.port = reopen()
        self._awaiting_controller = True
        self.link.reconnect()
        self.link.send(*self.hello())


class SimShoe(SimDevice):
    """A card-reading dealing shoe on the physical table's shoe stack."""

    KIND = "shoe"

    def __init__(self, table: Table, port: Port, *, model: str = "SIMSHOE", **kw: Any) -> None:
        super().__init__(table, port, model=model, **kw)
        self._next_draw_fault: str | None = None
        self._unknown_code = "ZZ"
        self.drawn: list[PhysicalCard] = []   # every card that physically left the shoe, in order
        self.read: list[Card] = []            # every card reported in a C frame, in order

    def hello(self) -> messages.Message:
        """The shoe's hello carries how many cards it has read since it started: the controller
        compares it with what arrived (docs/protocols.md, "Reliability")."""
        return messages.hello(self.model, self.firmware, reads=len(self.read))

    def draw(self) -> PhysicalCard | None:
        """The dealer slides the next card out: report it as the shoe would.

        The cut card is reported (``U``) and the card behind it is drawn.
        An armed ``misread`` or ``double_card`` changes what this draw reports.
        """
        with self.table.lock:
            top = self.table.draw()
            if top == CUT_CARD:
                self.link.send(*messages.cut_card())
                top = self.table.draw()
            if not isinstance(top, PhysicalCard):
                self.link.send(*messages.shoe_empty())
                return None
            with self._lock:
                fault, self._next_draw_fault = self._next_draw_fault, None
            self.drawn.append(top)
            if fault == "misread":
                self.link.send(*messages.fault("misread"))
            elif fault == "double_card":
                stuck = self.table.draw()   # the card stuck to it comes out too
                if isinstance(stuck, PhysicalCard):
                    self.drawn.append(stuck)
                self.link.send(*messages.fault("double_card"))
                if stuck == CUT_CARD:
                    self.link.send(*messages.cut_card())
            elif fault == "unknown_card":
                self.link.send(messages.CARD, self._unknown_code.encode("latin-1"))
            else:
                self.read.append(top.face)
                self.link.send(*messages.card_drawn(top.face, read=len(self.read)))
            return top

    def _injectors(self) -> dict[str, Callable[..., None]]:
        out = super()._injectors()
        out["misread"] = lambda now=False: self._arm("misread", now)
        out["double_card"] = lambda now=False: self._arm("double_card", now)
        out["unknown_card"] = self._arm_unknown
        return out

    def _arm_unknown(self, code: str = "ZZ", now: bool = True) -> None:
        """``now``: a ``C`` frame with ``code`` at once; else the next card drawn is read as ``code``."""
        if now:
            self.link.send(messages.CARD, code.encode("latin-1"))
            return
        with self._lock:
            self._unknown_code = code
            self._next_draw_fault = "unknown_card"

    def _arm(self, fault: str, now: bool) -> None:
        """By default the next draw misreads (a card really went out unread);
        ``now=True`` just sends the fault frame."""
        if now:
            self.link.send(*messages.fault(fault))
        else:
            with self._lock:
                self._next_draw_fault = fault


class SimShuffler(SimDevice):
    """An automatic shuffler with a card reader, on the table's hopper."""

    KIND = "shuffler"
    REQUESTS = messages.SHUFFLER_REQUESTS

    def __init__(self, table: Table, port: Port, *, model: str = "SIMSHUF", **kw: Any) -> None:
        super().__init__(table, port, model=model, **kw)
        self._unreadable_next = 0
        self._job_fault: str | None = None
        self._worn: Arrange | None = None
        """A shuffle that goes wrong from now on (``weak_shuffle``, ``cut_only``)."""
        self._stack_next: Arrange | None = None
        """The next shuffle only (``stacked_shoe``)."""

    def _job_failed(self) -> bool:
        """An armed job fault stops this deck check or shuffle: the cards stay in the hopper."""
        with self._lock:
            fault, self._job_fault = self._job_fault, None
        if fault is None:
            return False
        self.link.send(*messages.fault(fault))
        return True

    def start_deck_check(self) -> None:
        """Read every card in the hopper, in hopper order, and report them all."""
        if self._job_failed():
            return
        with self.table.lock:
            faces = [c.face for c in self.table.hopper]
        with self._lock:
            skip, self._unreadable_next = min(self._unreadable_next, len(faces)), 0
        self.link.send(*messages.deck_check(faces[skip:], unreadable=skip))

    def start_shuffle(self) -> None:
        """Shuffle the hopper into the output stack and report the count."""
        if self._job_failed():
            return
        with self._lock:
            arrange, self._stack_next = self._stack_next or self._worn, None
        self.link.send(*messages.shuffle_complete(self.table.shuffle_hopper(arrange)))

    def count(self) -> int:
        with self.table.lock:
            return len(self.table.hopper) + len(self.table.shuffled)

    def report_count(self) -> None:
        """The dealer has the shuffler count the cards it holds (its count button): a ``T``, as in
        answer to the controller's request (Double-Hand Poker proves the 4 cards left this way)."""
        self.link.send(*messages.card_count(self.count()))

    def _answer(self, type_: str) -> None:
        if type_ == messages.DECK_CHECK:
            self.start_deck_check()
        elif type_ == messages.SHUFFLED:
            self.start_shuffle()
        elif type_ == messages.COUNT:
            self.link.send(*messages.card_count(self.count()))
        else:
            super()._answer(type_)

    def _injectors(self) -> dict[str, Callable[..., None]]:
        out = super()._injectors()
        out["unreadable_cards"] = self._arm_unreadable
        out["weak_shuffle"] = self._weak
        out["cut_only"] = self._cut_only
        out["stacked_shoe"] = self._stacked
        out["wrong_decks"] = self._wrong_decks
        for code in ("jam", "door_open", "unreadable", "count_wrong"):
            out[code] = lambda next_job=False, c=code: self._job_fault_now(c, next_job)
        return out

    def _job_fault_now(self, code: str, next_job: bool) -> None:
        """An ``X`` frame now, or (``next_job``) instead of the next deck check or shuffle."""
        if not next_job:
            self.link.send(*messages.fault(code))
            return
        with self._lock:
            self._job_fault = code

    def _weak(self, riffles: int = shuffles.RIFFLES) -> None:
        """From the next shuffle on, only ``riffles`` riffles (hw_sim.shuffles.riffles): a worn
        shuffler stays worn."""
        if riffles < 1:
            raise ValueError(f"{self.KIND}: a weak shuffle riffles at least once, not {riffles}")
        with self._lock:
            self._worn = lambda stack, rng, _dealt: shuffles.riffles(stack, rng, riffles)

    def _cut_only(self) -> None:
        """From the next shuffle on, no shuffle: one cut (hw_sim.shuffles.cut_only)."""
        with self._lock:
            self._worn = lambda stack, rng, _dealt: shuffles.cut_only(stack, rng)

    def _stacked(self, slug: int = shuffles.SLUG) -> None:
        """The next shuffle keeps a slug of the last deal in its order (hw_sim.shuffles.stacked)."""
        if slug < 2:
            raise ValueError(f"{self.KIND}: a slug is 2 cards at least, not {slug}")
        with self._lock:
            self._stack_next = lambda stack, rng, dealt: shuffles.stacked(stack, rng, dealt, slug)

    def _wrong_decks(self) -> None:
        """The table's config says one number of decks and the shoe holds another (issue 25.4: a
        wrong options config): every card of the configured shoe is put in the new boxes a second
        time, so the next deck check reads twice the decks the config names."""
        for face in self.table.spec.all_cards():
            self.table.add_to_boxes(face)

    def _arm_unreadable(self, n: int = 1) -> None:
        """The next deck check cannot read its first ``n`` cards."""
        with self._lock:
            self._unreadable_next = n


class SimHandShuffler(SimShuffler):
    """A hand-forming shuffler: after a shuffle it delivers hands of the size the dealer asks
    for, each as one ``D`` message, from the top of its shuffled stack to the layout.

    Its ``biased_hands`` fault (issue 25.4) is a shuffler that forms hands towards a class: from
    then on, a share of the hands (:data:`BIASED_SHARE`, seeded) is made to hold a pair -- the
    hand's first card is matched from deeper in the stack -- so pairs and better come too often,
    which the table's outcome monitor sees in the hands it reveals."""

    KIND = "hand_shuffler"
    BIASED_SHARE = 0.25

    def __init__(self, table: Table, port: Port, *, model: str = "SIMHAND", **kw: Any) -> None:
        super().__init__(table, port, model=model, **kw)
        self.delivered: list[list[Card]] = []
        self.biased = 0.0
        """The share of hands made to hold a pair (0: a fair shuffler)."""

    def deliver_hand(self, size: int) -> list[Card]:
        with self.table.lock:
            if self.biased and size >= 2 and self.table.rng.random() < self.biased:
                self._pair_on_top(size)
            taken = self.table.shuffled[:size]
            del self.table.shuffled[:size]
            self.table.layout.extend(taken)
        faces = [c.face for c in taken]
        if faces:
            self.delivered.append(faces)
            self.link.send(*messages.hand(faces))
        return faces

    def _pair_on_top(self, size: int) -> None:
        """The next hand of ``size`` is made to hold a pair (under the table's lock): if it holds
        none, a card of its first card's rank from deeper in the stack takes its second card's
        place (that card goes where the match was). A joker on top, or no match left: unchanged."""
        stack = self.table.shuffled
        hand = stack[:size]
        if len(hand) < 2 or hand[0].face.is_joker:
            return
        ranks = [c.face.rank for c in hand if not c.face.is_joker]
        if len(ranks) != len(set(ranks)):
            return
        for i in range(size, len(stack)):
            if not stack[i].face.is_joker and stack[i].face.rank == hand[0].face.rank:
                stack[1], stack[i] = stack[i], stack[1]
                return

    def _injectors(self) -> dict[str, Callable[..., None]]:
        out = super()._injectors()
        out["biased_hands"] = self._bias
        return out

    def _bias(self, share: float = BIASED_SHARE) -> None:
        with self.table.lock:
            self.biased = share


class _Wire:
    """The device's port as its link sees it: everything passes through, and
    an armed ``splice`` goes out inside the next frame written (at a seeded
    offset), as noise on the line in the middle of a frame would."""

    def __init__(self, port: Port, device: SimDevice) -> None:
        self._port = port
        self._device = device

    @property
    def timeout(self) -> float | None:
        return self._port.timeout

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        self._port.timeout = value

    @property
    def in_waiting(self) -> int:
        return self._port.in_waiting

    def read(self, size: int = 1) -> bytes:
        return self._port.read(size)

    def write(self, data: bytes) -> int | None:
        noise = self._device._take_splice()
        if noise is not None and len(data) > 1:
            at = self._device._splice_offset(len(data))
            self._port.write(bytes(data[:at]) + noise + bytes(data[at:]))
            return len(data)
        if noise is not None:
            data = bytes(data) + noise
        return self._port.write(data)

    def close(self) -> None:
        self._port.close()

    def __getattr__(self, name: str) -> Any:
        # cancel_read, baudrate, ...: whatever the port has (or not)
        return getattr(self._port, name)
