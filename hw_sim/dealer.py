"""The simulated dealer: plays only by following the controller's prompts.

It reads prompts as any pit subscriber does and acts on the physical table,
so it needs no copy of any game's rules (DESIGN.md, "The round machine"):
whatever the controller asks for, it does, and a test can tell it to
disobey once. It acts on its own thread so that whoever feeds it events
(an MQTT callback) never blocks.

Only the newest prompt matters: when several arrive together (the
controller passed through states in one step), the dealer acts on the last.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

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


class SimDealer:
    """Acts on prompts: load decks, shuffle, load the shoe, call bets, draw, settle."""

    def __init__(self, table: Table, shoe, shuffler, press: Callable[[str], None], *,
                 cut_from_end: int = 16, seed: int = 0, pass_probability: float = 0.0,
                 pace: float = 0.0, on_fault: str = "void") -> None:
        self.table = table
        self.shoe = shoe
        self.shuffler = shuffler
        self.press = press
        self.cut_from_end = cut_from_end
        self.rng = random.Random(seed)
        self.pass_probability = pass_probability
        self.pace = pace
        self.on_fault = on_fault
        self.misbehave = Misbehaviour()
        self.stats = DealerStats()
        self._inbox: queue.Queue = queue.Queue()
        self._seen_seq = -1
        self._thread: threading.Thread | None = None
        self.paused = threading.Event()

    # feeding ---------------------------------------------------------------
    def on_event(self, envelope: dict) -> None:
        """Give the dealer an event as a subscriber received it (any thread)."""
        if envelope.get("kind") == "prompt":
            self._inbox.put(envelope)

    def start(self) -> SimDealer:
        self._thread = threading.Thread(target=self._run, name="sim-dealer", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._inbox.put(None)
        if self._thread:
            self._thread.join(5)

    # acting ----------------------------------------------------------------
    def _run(self) -> None:
        while True:
            item = self._inbox.get()
            if item is None:
                return
            while True:  # only the newest prompt matters
                try:
                    newer = self._inbox.get_nowait()
                except queue.Empty:
                    break
                if newer is None:
                    return
                item = newer
            seq = item.get("seq", 0)
            if seq <= self._seen_seq:  # QoS 1 duplicate
                continue
            self._seen_seq = seq
            if self.paused.is_set():
                continue
            try:
                self.act(item.get("data", {}))
            except Exception:  # the simulated dealer must not die silently
                log.exception("simulated dealer failed on prompt %s", item)

    def act(self, prompt: dict) -> None:
        expect = prompt.get("expect")
        self.stats.prompts += 1
        if self.pace:
            time.sleep(self.pace)  # a human's pace, in the simulator only
        if expect == "deck_check":
            self.table.load_boxes_into_shuffler()
            self.shuffler.start_deck_check()
        elif expect == "shuffle":
            self.table.gather_into_shuffler()
            self.shuffler.start_shuffle()
        elif expect == "load_shoe":
            self.table.load_shoe(self.cut_from_end)
            self.press("shuffle_ack")
        elif expect == "bets":
            buttons = prompt.get("buttons", [])
            if "pass" in buttons and self.pass_probability and self.rng.random() < self.pass_probability:
                self.press("pass")
            else:
                self.press("deal")
        elif expect == "card":
            self.shoe.draw()
        elif expect == "settle":
            if self.misbehave.extra_card_at_settle:
                self.misbehave.extra_card_at_settle = False
                self.shoe.draw()
                self.stats.count("extra_card")
                return
            self.table.clear_layout()
            self.press("deal")
        elif expect == "fault":
            if self.misbehave.skip_void:
                return
            self.table.clear_layout()
            self.press(self.on_fault)
        else:
            return
        self.stats.count(expect)
