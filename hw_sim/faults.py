"""Fault injection by name and moment: ``[DEVICE.]NAME@WHEN[+SECONDSs]``.

A spec names a fault of a simulated device and the moment it happens, as
`tablectl sim --fault` and the tests write it::

    jam@shuffle            the shuffler's first shuffle stops with a jam
    door_open@deck_check   the first deck check stops: the shuffler's door is open
    misread@card:12        the dealer's 12th draw leaves the shoe unread
    double_card@card:30    the 30th draw brings a second card with it
    bad_checksum@card:4    the 4th card's frame goes out once with a broken CRC
    unplug@round:3         the shoe's cable comes out as round 3's first card is
                           due, and goes back in 1 s later (``+2s``: 2 s later)
    heartbeat@round:2+5s   the shoe falls silent (no heartbeat, nothing) as round
                           2's first card is due, and recovers 5 s later
    garbage@5s             64 random bytes on the shoe's line 5 s after the start
    weak_shuffle@shuffle:2 from the 2nd shuffle on, 3 riffles only (also cut_only; stacked_shoe: once)
    shuffler.unplug@shuffle   another device than the fault's usual one
    die_on_edge@dice:2     the dealer's 2nd shake of the dice cup lands a die on its edge
    cup.unplug@dice:3+2s   the cup's cable comes out as its 3rd shake is due, back 2 s later
    wrong_decks@deck_check the boxes loaded for the first deck check hold twice the configured decks
    biased_hands@round:15  from round 15 on, a hand-forming shuffler makes a quarter of its hands
                           hold a pair (a shuffler biased towards a class)

WHEN is one of

- ``<seconds>s``: that long after the scheduler starts (a timer thread);
- ``<step>`` or ``<step>:<n>``: the n-th time (default 1) the simulated dealer
  is prompted for that step, just before it acts: ``deck_check``,
  ``shuffle``, ``load_shoe``, ``bets``, ``card`` (``card:n`` = the dealer's
  n-th draw), ``hand`` (the n-th hand from a hand-forming shuffler), ``dice``
  (``dice:n`` = the n-th shake), ``settle``, ``fault``;
- ``round:<n>``: the first dealing prompt (a draw, a hand, a shake, a step
  the dealer presses, a player's decision) of the n-th round this simulator deals.

A spec is checked against the table before anything starts
(:func:`check_faults`): a fault of a device the table lacks, of a device of
another kind, or at a step the game never prompts for could never fire, and
is refused with a :class:`FaultSpecError` naming the fault and why.

Steps and rounds are counted by the simulated dealer as it follows the
controller's prompts, so a fault fires at the same point of a seeded run
every time and nothing on the controller's side waits or sleeps; only the
simulator's own timers (``<seconds>s``, the replug and the recovery) run on
a clock.

What each fault does is in :data:`FAULTS`; the devices' own injectors are
:meth:`hw_sim.devices.SimDevice.inject`.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games import registry
from hw_sim.kinds import DOES

log = logging.getLogger(__name__)

DEVICES: tuple[str, ...] = ("shoe", "shuffler", "cup")

STEPS: tuple[str, ...] = ("deck_check", "shuffle", "load_shoe", "bets", "card", "hand", "dice", "settle", "fault")
"""Prompt ``expect`` values a WHEN may name (the simulated dealer acts on these)."""

DEALT: frozenset[str] = frozenset({"card", "hand", "dice", "press", "decision"})
"""The prompts of a round's dealing: the first of a new round counts it (``round:N``). A shoe game
deals cards, a hand-forming shuffler hands, Pai Gow Tiles shakes the dice, and in the poker room
the dealer pitches the cards and presses ``deal`` at each step."""

SERIAL = ("card_shoe", "shuffler", "hand_shuffler")
ORDER_FAULTS = frozenset({"weak_shuffle", "cut_only", "stacked_shoe"})
"""Faults of the order a shuffle leaves, which only a table that reads its cards as they are dealt
(a reading shoe, a hand-forming shuffler) can see (controller.table.shuffle_stats)."""
SHUFFLERS = ("shuffler", "hand_shuffler")


@dataclass(frozen=True)
class FaultKind:
    """One injectable fault: where it can happen and what it does."""

    name: str
    devices: tuple[str, ...]
    """The devices it can happen on; the first is the default."""
    what: str
    duration: float | None = None
    """Seconds until the device comes back, for a fault that takes it away; None: no duration."""
    kinds: tuple[str, ...] = SERIAL
    """The kinds of device (drivers.kinds) that can have it."""


FAULTS: dict[str, FaultKind] = {f.name: f for f in (
    FaultKind("garbage", ("shoe", "shuffler", "cup"),
              "64 seeded random bytes on the line, between frames (the cup: one report of 16 random bytes, now)",
              kinds=(*SERIAL, "dice_cup")),
    FaultKind("bad_checksum", ("shoe", "shuffler"), "the next data frame goes out once with a broken CRC"),
    FaultKind("jam", ("shuffler", "shoe"),
              "the shuffler's next deck check or shuffle stops with JAM (a shoe reports JAM at once)"),
    FaultKind("door_open", ("shuffler", "shoe"),
              "the shuffler's next deck check or shuffle stops with DOOR_OPEN (a shoe reports it at once)"),
    FaultKind("unreadable", ("shuffler",), "the shuffler's next deck check or shuffle stops with UNREADABLE",
              kinds=SHUFFLERS),
    FaultKind("count_wrong", ("shuffler",), "the shuffler's next deck check or shuffle stops with COUNT_WRONG",
              kinds=SHUFFLERS),
    FaultKind("unreadable_cards", ("shuffler",), "the next deck check cannot read its first card", kinds=SHUFFLERS),
    FaultKind("weak_shuffle", ("shuffler",),
              "from the next shuffle on, the shuffler riffles only 3 times (Gilbert-Shannon-Reeds), for good",
              kinds=SHUFFLERS),
    FaultKind("cut_only", ("shuffler",), "from the next shuffle on, the shuffler only cuts the cards, for good",
              kinds=SHUFFLERS),
    FaultKind("stacked_shoe", ("shuffler",),
              "the next shuffle keeps 40 cards of the last deal in their order, planted where they will be dealt",
              kinds=SHUFFLERS),
    FaultKind("misread", ("shoe",), "the next card drawn leaves the shoe unread (MISREAD)", kinds=("card_shoe",)),
    FaultKind("double_card", ("shoe",), "the next draw brings two cards out at once (DOUBLE)", kinds=("card_shoe",)),
    FaultKind("unknown_card", ("shoe",), "the next card drawn is read as a code that names no card",
              kinds=("card_shoe",)),
    FaultKind("heartbeat", ("shoe", "shuffler"),
              "the device falls silent, heartbeats included, and recovers after the duration", 5.0),
    FaultKind("unplug", ("shoe", "shuffler", "cup"),
              "the device's cable comes out and goes back in after the duration", 1.0, (*SERIAL, "dice_cup")),
    FaultKind("dropout", ("shoe", "shuffler"),
              "the line drops every byte both ways for the duration, the ports left open (a flaky cable)", 2.2),
    FaultKind("stall", ("cup",), "the cup's interrupt-IN endpoint halts until the driver clears it",
              kinds=("dice_cup",)),
    FaultKind("malformed_report", ("cup",), "the next shake's reading goes out with a broken CRC", kinds=("dice_cup",)),
    FaultKind("repeat_report", ("cup",), "the cup sends its last report again, the same bytes (a duplicate)",
              kinds=("dice_cup",)),
    FaultKind("stale_report", ("cup",), "the cup sends its third-last report again, out of order",
              kinds=("dice_cup",)),
    FaultKind("die_on_edge", ("cup",), "the next shake lands a die on its edge: the cup reports it, no reading",
              kinds=("dice_cup",)),
    FaultKind("die_unreadable", ("cup",), "the next shake leaves a die the cup cannot read: no reading",
              kinds=("dice_cup",)),
    FaultKind("lifted_early", ("cup",), "the next shake: the cup is lifted before the shake ended", kinds=("dice_cup",)),
    FaultKind("wrong_decks", ("shuffler",),
              "the boxes the dealer loads next hold twice the decks the table's config names (a config for "
              "another deck count than the shoe's: the deck check refuses it)", kinds=SHUFFLERS),
    FaultKind("biased_hands", ("shuffler",),
              "from then on a quarter of the hands the hand-forming shuffler delivers are made to hold a pair "
              "(pairs and better too often: the table's outcome monitor, issue 25)", kinds=("hand_shuffler",)),
)}

EXAMPLES = "e.g. jam@shuffle, misread@card:12, unplug@round:3, heartbeat@round:2+5s, dropout@card:3+2.2s, garbage@5s"


class FaultSpecError(ValueError):
    """A fault spec that cannot be scheduled; the message names what is wrong."""


@dataclass(frozen=True)
class FaultSpec:
    """One parsed ``[DEVICE.]NAME@WHEN[+SECONDSs]``."""

    name: str
    device: str
    when: str
    """``time``, ``step`` or ``round``."""
    step: str | None = None
    count: int = 1
    seconds: float = 0.0
    duration: float | None = None

    @property
    def kind(self) -> FaultKind:
        return FAULTS[self.name]

    def __str__(self) -> str:
        dev = "" if self.device == self.kind.devices[0] else f"{self.device}."
        if self.when == "time":
            at = f"{self.seconds:g}s"
        elif self.when == "round":
            at = f"round:{self.count}"
        else:
            at = self.step if self.count == 1 else f"{self.step}:{self.count}"
        dur = f"+{self.duration:g}s" if self.duration is not None and self.duration != self.kind.duration else ""
        return f"{dev}{self.name}@{at}{dur}"


def parse_fault(text: str) -> FaultSpec:
    """Parse one spec; raise :class:`FaultSpecError` naming what is wrong."""
    def bad(why: str) -> FaultSpecError:
        return FaultSpecError(f"fault spec {text!r}: {why}")

    head, at, when = text.strip().partition("@")
    if not at:
        raise bad(f"expected NAME@WHEN ({EXAMPLES})")
    device, dot, name = head.rpartition(".")
    if not name:
        raise bad(f"the fault name is missing before '@'; known faults: {', '.join(sorted(FAULTS))}")
    kind = FAULTS.get(name)
    if kind is None:
        raise bad(f"unknown fault {name!r}; known faults: {', '.join(sorted(FAULTS))}")
    if dot:
        if device not in DEVICES:
            raise bad(f"unknown device {device!r}; devices: {', '.join(DEVICES)}")
        if device not in kind.devices:
            raise bad(f"{name} is a fault of the {' or '.join(kind.devices)}, not of the {device}")
    else:
        device = kind.devices[0]
    when, plus, dur_text = when.partition("+")
    duration = kind.duration
    if plus:
        if kind.duration is None:
            with_dur = ", ".join(n for n, k in sorted(FAULTS.items()) if k.duration is not None)
            raise bad(f"{name} takes no duration (only {with_dur} do)")
        duration = _seconds(dur_text, bad, "duration")
        if duration <= 0:
            raise bad(f"the duration must be more than 0 s, not {dur_text!r}")
    if not when:
        raise bad(f"WHEN is missing after '@' ({EXAMPLES})")
    spec = {"name": name, "device": device, "duration": duration}
    if when[0].isdigit() or when[0] in "+-.":
        return FaultSpec(when="time", seconds=_seconds(when, bad, "time"), **spec)
    word, colon, number = when.partition(":")
    if word == "round":
        if not colon:
            raise bad("round needs its number: round:N (the N-th round dealt, from 1)")
        return FaultSpec(when="round", count=_count(number, bad), **spec)
    if word not in STEPS:
        raise bad(f"unknown moment {word!r}: WHEN is SECONDSs (e.g. 5s), round:N, or a step "
                  f"{', '.join(STEPS)} with an optional :N")
    return FaultSpec(when="step", step=word, count=_count(number, bad) if colon else 1, **spec)


def parse_faults(texts: Iterable[str]) -> list[FaultSpec]:
    return [parse_fault(t) for t in texts]


def table_steps(kinds: Iterable[str], *, plays_cards: bool = True, plays_a_shoe: bool = False) -> frozenset[str]:
    """The steps a WHEN may name that a table's dealer is ever prompted for: betting, settling and
    a fault at every table; a device's step where a device of the table does it (hw_sim.kinds.DOES:
    a card from a reading shoe, a hand from a hand-forming shuffler, a shake of a cup, a deck
    check and a shuffle by a shuffler, if the game plays cards); loading the shoe in a game dealt
    from a shoe over many rounds."""
    kinds = set(kinds)
    steps = {"bets", "settle", "fault"}
    steps |= {step for step in ("card", "hand", "dice", "deck_check", "shuffle") if kinds & set(DOES[step])}
    if not plays_cards:
        steps -= {"card", "hand", "deck_check", "shuffle"}
    if plays_a_shoe and "card" in steps:
        steps.add("load_shoe")
    return frozenset(steps)


def check_faults(specs: Iterable[FaultSpec | str], kinds: Mapping[str, str], steps: Iterable[str] | None = None,
                 game: str = "the game") -> list[FaultSpec]:
    """The specs, parsed and checked against a table: its devices by name (``kinds``: name -> kind)
    and, when known, the ``steps`` its dealer is prompted for (:func:`table_steps`). A fault that
    could never fire is a :class:`FaultSpecError`, one line naming each such fault and why."""
    parsed = [s if isinstance(s, FaultSpec) else parse_fault(s) for s in specs]
    known = None if steps is None else set(steps)
    problems = []
    for spec in parsed:
        why = _never_fires(spec, kinds, known, game)
        if why:
            problems.append(f"fault {spec}: {why}")
    if problems:
        raise FaultSpecError("; ".join(problems))
    return parsed


def check_table_faults(specs: Iterable[FaultSpec | str], game: str, kinds: Mapping[str, str]) -> list[FaultSpec]:
    """:func:`check_faults` for a table of ``game`` (from the registry: whether it plays cards, and
    a shoe over many rounds) with these devices (name -> kind)."""
    entry = registry.get(game)
    steps = table_steps(kinds.values(), plays_cards=entry.machine.PLAYS_CARDS, plays_a_shoe=entry.machine.PLAYS_A_SHOE)
    return check_faults(specs, kinds, steps, entry.title)


def _never_fires(spec: FaultSpec, kinds: Mapping[str, str], steps: set[str] | None, game: str) -> str | None:
    kind = kinds.get(spec.device)
    if kind is None:
        able = [n for n in spec.kind.devices if kinds.get(n) in spec.kind.kinds]
        hint = f"; {able[0]}.{_without_device(spec)} names the {able[0]}" if able else ""
        return (f"the table has no {spec.device} (its devices: {', '.join(sorted(kinds)) or 'none'}), so it can "
                f"never happen{hint}")
    if kind not in spec.kind.kinds:
        return f"the {spec.device} is a {kind}, which has no {spec.name} fault (a fault of a {' or '.join(spec.kind.kinds)})"
    if spec.name in ORDER_FAULTS and steps is not None and not steps & {"card", "hand"}:
        return (f"{game} reads no card as it is dealt (no reading shoe, no hand-forming shuffler), so the order "
                "a shuffle leaves can never show")
    if spec.when == "step" and steps is not None and spec.step not in steps:
        return (f"{game} never prompts the dealer for {spec.step}, so it can never happen "
                f"(its steps: {', '.join(s for s in STEPS if s in steps)})")
    return None


def _without_device(spec: FaultSpec) -> str:
    text = str(spec)
    return text.split(".", 1)[1] if text.startswith(f"{spec.device}.") else text


def _seconds(text: str, bad: Any, what: str) -> float:
    if not text.endswith("s"):
        raise bad(f"a {what} needs its unit, seconds: {text or '5'}s, not {text!r}")
    try:
        value = float(text[:-1])
    except ValueError:
        raise bad(f"a {what} is a number of seconds such as 5s or 0.5s, not {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise bad(f"a {what} must be 0 s or more, not {text!r}")
    return value


def _count(text: str, bad: Any) -> int:
    if not re.fullmatch(r"[0-9]+", text) or int(text) < 1:
        raise bad(f"the count after ':' must be a whole number from 1, not {text!r}")
    return int(text)


class FaultScheduler:
    """Fires faults on simulated devices at their moments.

    ``devices`` maps ``shoe``/``shuffler`` to :class:`hw_sim.devices.SimDevice`.
    The simulated dealer calls :meth:`before_prompt` before it acts on each
    new prompt; :meth:`start` arms the timed faults. Every fault fires once;
    ``fired`` lists them in order.
    """

    def __init__(self, specs: Iterable[FaultSpec | str], devices: Mapping[str, Any]) -> None:
        self.specs = [s if isinstance(s, FaultSpec) else parse_fault(s) for s in specs]
        self.devices = devices
        self.fired: list[FaultSpec] = []
        self._pending = list(self.specs)
        self._steps: Counter[str] = Counter()
        self._rounds = 0
        self._last_round: object = object()
        self._last_step: str | None = None
        self._lock = threading.Lock()
        self._timers: list[threading.Timer] = []
        self._stopped = False

    def start(self) -> FaultScheduler:
        for spec in self.specs:
            if spec.when == "time":
                self._later(spec.seconds, self._fire_timed, spec)
        return self

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            timers, self._timers = self._timers, []
        for t in timers:
            t.cancel()

    # --- the dealer's hook -------------------------------------------------------
    def before_prompt(self, expect: str, round_: int | None = None) -> None:
        """The dealer is about to act on a prompt for ``expect`` in round ``round_``."""
        with self._lock:
            self._steps[expect] += 1
            new_round = False
            if expect in DEALT:
                new_round = round_ != self._last_round if round_ is not None else self._last_step == "bets"
                if new_round:
                    self._rounds += 1
                    self._last_round = round_
            self._last_step = expect
            due = [s for s in self._pending if self._due(s, expect, new_round)]
            for s in due:
                self._pending.remove(s)
        for spec in due:
            self.fire(spec)

    def _due(self, spec: FaultSpec, expect: str, new_round: bool) -> bool:
        if spec.when == "step":
            return spec.step == expect and self._steps[expect] == spec.count
        if spec.when == "round":
            return new_round and self._rounds == spec.count
        return False

    # --- firing ------------------------------------------------------------------
    def fire(self, spec: FaultSpec) -> None:
        """Inject ``spec`` now (and schedule the device's return, for a fault that takes it away).
        Never raises: it runs in the dealer's hook, which must not cost him his prompt."""
        name = spec.name
        log.info("injecting %s", spec)
        self.fired.append(spec)
        try:
            device = self.devices[spec.device]   # a table without it was refused at start (check_faults)
            if name in ("jam", "door_open", "unreadable", "count_wrong") and spec.device == "shuffler":
                device.inject(name, next_job=True)
            elif name == "unknown_card":
                device.inject(name, now=False)
            elif name == "heartbeat":
                device.inject("hang")
                self._later(spec.duration or 0.0, device.inject, "recover")
            elif name == "unplug":
                device.inject("unplug")
                self._later(spec.duration or 0.0, device.inject, "replug")
            elif name == "dropout":
                device.inject("dropout", seconds=spec.duration or 0.0)
            else:
                device.inject(name)
        except Exception:  # a fault that cannot be injected must not kill the dealer
            log.exception("injecting %s failed", spec)

    def _fire_timed(self, spec: FaultSpec) -> None:
        with self._lock:
            if spec not in self._pending:
                return
            self._pending.remove(spec)
        self.fire(spec)

    def _later(self, seconds: float, fn: Any, *args: Any) -> None:
        with self._lock:
            if self._stopped:
                return
            timer = threading.Timer(seconds, fn, args)
            timer.daemon = True
            self._timers.append(timer)
        timer.start()
