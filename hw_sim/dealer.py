"""The simulated dealer: plays only by following the controller's prompts.

It reads prompts as any pit subscriber does and acts on the physical table,
so it needs no copy of any game's rules (DESIGN.md, "The round machine"):
whatever the controller asks for, it does, and a test can tell it to
disobey once. It acts on its own thread so that whoever feeds it events
(an MQTT callback) never blocks.

Only the newest prompt matters: when several arrive together (the
controller passed through states in one step), the dealer acts on the last.

Faults: on a ``fault`` prompt the dealer clears the layout and presses
``void`` if it is lit (otherwise the pit decides). A device that is dead --
unplugged, or hung -- is what a dealer sees as its link light going out: the
dealer does not draw from that shoe or start that shuffler, and holds the
prompt until the device is back (``SimDevice.on_back``) or a newer prompt
arrives. Hooks in ``before_act`` run before each new prompt is acted on;
:class:`hw_sim.faults.FaultScheduler` injects faults from there. A hook that
fails is logged and the dealer acts all the same: a broken hook must not
cost the table its prompt (the dealer would wait for nothing).

Pace (:mod:`hw_sim.pace`): before an action the dealer waits as long as its
pace says, on an event rather than in ``time.sleep``: :meth:`SimDealer.stop`
ends the wait at once, and so does a newer prompt (the table moved on while
the dealer was taking his time: he acts on what it asks now).
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hw_sim.kinds import device_for
from hw_sim.pace import Pace, as_pace
from hw_sim.physical import Table

log = logging.getLogger(__name__)


@dataclass
class Misbehaviour:
    """One-shot disobedience, for tests of the controller's checks."""

    extra_card_at_settle: bool = False   # draw a card when both hands stand
    skip_void: bool = False              # leave a fault for the pit to void


@dataclass
class DealerStats:
    prompts: int = 0
    actions: dict[str, int] = field(default_factory=dict)

    def count(self, action: str) -> None:
        self.actions[action] = self.actions.get(action, 0) + 1


_RETRY = object()
"""Inbox token: act on the held prompt now (a device came back, or release())."""

ACTS: frozenset[str] = frozenset({"deck_check", "new_deck", "shuffle", "load_shoe", "bets", "card", "hand", "press",
                                  "dice", "count", "decision", "settle", "fault"})
"""The prompts the dealer does something about; any other (``open``, ``device``, ``none``) he only reads."""


class SimDealer:
    """Acts on prompts: load decks, shuffle, load the shoe, call bets, draw, settle."""

    def __init__(self, table: Table, devices: dict[str, Any], kinds: dict[str, str], press: Callable[..., None], *,
                 cut_from_end: int = 16, seed: int = 0, pass_probability: float = 0.0,
                 pace: Pace | str | float = 0.0, on_fault: str = "void") -> None:
        self.table = table
        self.devices = devices
        self.kinds = kinds
        self.press = press
        self.cut_from_end = cut_from_end
        self.rng = random.Random(seed)
        self.pass_probability = pass_probability
        self.pace = as_pace(pace)
        self.on_fault = on_fault
        self.misbehave = Misbehaviour()
        self.stats = DealerStats()
        self._inbox: queue.Queue = queue.Queue()
        self._seen_seq = -1
        self._thread: threading.Thread | None = None
        self.paused = threading.Event()
        self.before_act: list[Callable[[str, int | None], None]] = []
        """Called with (expect, round) before the dealer acts on each new prompt."""
        self._held: tuple[dict, bool] | None = None   # (envelope, hooks already ran)
        self._stopping = threading.Event()
        self._nudge = threading.Event()   # set by a stop and by each prompt that arrives: ends a pace wait
        self._newest = -1                 # the newest prompt's seq that arrived (any thread writes it)
        self._acting = -1                 # the seq of the prompt being acted on (the dealer's thread)

    # feeding ---------------------------------------------------------------
    def on_event(self, envelope: dict) -> None:
        """Give the dealer an event as a subscriber received it (any thread)."""
        if envelope.get("kind") == "prompt":
            seq = envelope.get("seq")
            if isinstance(seq, int) and seq > self._newest:
                self._newest = seq
            self._inbox.put(envelope)
            self._nudge.set()

    def start(self) -> SimDealer:
        self._thread = threading.Thread(target=self._run, name="sim-dealer", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop at once, even in the middle of a pace's wait."""
        self._stopping.set()
        self._nudge.set()
        self._inbox.put(None)
        if self._thread:
            self._thread.join(5)

    def poke(self) -> None:
        """Act on the held prompt, if any (a device came back). Any thread."""
        self._inbox.put(_RETRY)

    def release(self) -> None:
        """Stop pausing and act on the newest prompt that came meanwhile."""
        self.paused.clear()
        self.poke()

    def hold_at(self, expect: str, count: int = 1) -> threading.Event:
        """Pause (as :attr:`paused`) at the ``count``-th new prompt for ``expect``,
        before acting on it; the returned event is set when that happens."""
        reached = threading.Event()
        seen = 0

        def hook(prompt_expect: str, _round: int | None) -> None:
            nonlocal seen
            if prompt_expect == expect:
                seen += 1
                if seen == count:
                    self.paused.set()
                    reached.set()
        self.before_act.append(hook)
        return reached

    # acting ----------------------------------------------------------------
    def _run(self) -> None:
        while True:
            batch = [self._inbox.get()]
            while True:  # only the newest prompt matters
                try:
                    batch.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            if any(item is None for item in batch):
                return
            prompts = [item for item in batch if item is not _RETRY]
            newest = max(prompts, key=lambda e: e.get("seq", 0), default=None)
            if newest is not None and newest.get("seq", 0) > self._seen_seq:  # else a QoS 1 duplicate
                self._seen_seq = newest.get("seq", 0)
                self._held = None
                self._take(newest, hooked=False)
            elif len(prompts) < len(batch) and self._held is not None:
                envelope, hooked = self._held
                self._held = None
                self._take(envelope, hooked)

    def _pause(self, seconds: float) -> bool:
        """Wait ``seconds`` (the pace) before acting; False when a stop or a newer prompt ended the
        wait, and the prompt at hand is no longer to be acted on. Waits on an event, never sleeps."""
        end = time.monotonic() + seconds
        while True:
            self._nudge.clear()
            if self._stopping.is_set() or self._newest > self._acting:
                return False
            left = end - time.monotonic()
            if left <= 0:
                return True
            self._nudge.wait(left)

    def _take(self, envelope: dict, hooked: bool) -> None:
        data = envelope.get("data", {})
        seq = envelope.get("seq")
        self._acting = seq if isinstance(seq, int) else self._newest
        try:
            if not self.paused.is_set() and not hooked:
                hooked = True
                for hook in list(self.before_act):
                    try:
                        hook(data.get("expect"), envelope.get("round"))
                    except Exception:   # logged; the prompt is still acted on
                        log.exception("simulated dealer: a before_act hook failed on prompt %s", envelope)
            if self.paused.is_set() or not self.act(data):
                self._held = (envelope, hooked)
        except Exception:  # the simulated dealer must not die silently
            log.exception("simulated dealer failed on prompt %s", envelope)

    def _passes(self, prompt: dict) -> bool:
        """The seated players and the player-dealer position (Player-dealer and Deal): a seat
        offered it (the prompt names the seat) declines with ``pass_probability``; the holder
        gives it up less often, a quarter of that. No player breaks the game by declining when
        the prompt says every other seat already has -- unless ``pass_probability`` is 1: a table
        of players who never take the deal, which breaks its game."""
        if "pass" not in prompt.get("buttons", []) or not self.pass_probability:
            return False
        offered = prompt.get("seat") is not None
        if offered and prompt.get("pass_breaks_game") and self.pass_probability < 1:
            return False
        return self.rng.random() < (self.pass_probability if offered else self.pass_probability / 4)

    def act(self, prompt: dict) -> bool:
        """Do what the prompt asks. False: a device it needs is dead, nothing was done."""
        expect = prompt.get("expect")
        device = device_for(expect, self.devices, self.kinds)
        if getattr(device, "dead", False):
            self.stats.count("held")
            return False
        self.stats.prompts += 1
        if expect not in ACTS:
            return True
        if expect == "fault" and (self.misbehave.skip_void or self.on_fault not in prompt.get("buttons", [self.on_fault])):
            return True  # the pit decides
        wait = self.pace.draw(prompt)
        if wait and not self._pause(wait):
            return True   # stopped, or the table moved on meanwhile: the newer prompt is what counts
        if getattr(device, "dead", False):   # it went while the dealer took his time
            self.stats.count("held")
            return False
        if expect == "deck_check":
            # Every card on the table goes into the shuffler: new decks, or after
            # a close and reopen, what the shoe, the layout and the discards hold.
            self.table.load_boxes_into_shuffler()
            self.table.gather_into_shuffler()
            device.start_deck_check()
        elif expect == "new_deck":
            # A deck change: the old deck is put away, the new one opened and checked.
            self.table.new_deck()
            self.table.load_boxes_into_shuffler()
            device.start_deck_check()
        elif expect == "shuffle":
            self.table.gather_into_shuffler()
            device.start_shuffle()
        elif expect == "load_shoe":
            # The cut card where the prompt asks (the most a round can take), else the dealer's habit.
            self.table.load_shoe(prompt.get("cut_from_end", self.cut_from_end))
            self.press("shuffle_ack")
        elif expect == "bets":
            self.press("pass" if self._passes(prompt) else "deal")
        elif expect == "card":
            if self.table.shuffled_waiting():
                self.table.load_shoe(None)  # shuffled for this round: into the reading shoe, no cut card
            device.draw()
        elif expect == "hand":
            device.deliver_hand(prompt["count"])  # the dealer takes the next hand from the tray
        elif expect == "press":
            # A phase the dealer closes with a button (re-bets complete, discards placed).
            self.press(prompt["buttons"][0])
        elif expect == "dice":
            device.shake()   # the cup reports shaken, opened with the dice, closed
        elif expect == "count":
            device.report_count()   # the shuffler counts the cards it still holds
        elif expect == "decision":
            # A player's choice: any of the buttons the prompt offers that seat.
            self.press(self.rng.choice(prompt["choices"]), prompt["seat"])
        elif expect == "settle":
            reader = device_for("card", self.devices, self.kinds)
            if self.misbehave.extra_card_at_settle and reader is not None:
                self.misbehave.extra_card_at_settle = False
                reader.draw()
                self.stats.count("extra_card")
                return
            self.table.clear_layout()
            self.press("deal")
        elif expect == "fault":
            self.table.clear_layout()
            self.press(self.on_fault)
        self.stats.count(expect)
        return True
