"""Every wait has a prompt that can end it (issue 19): a property over every game's round machine.

The simulated dealer (hw_sim/dealer.py) knows no game: it does what the newest prompt asks, once
per prompt, and holds a prompt whose device is dead until the device is back. So a machine that
waits for an input its published prompt does not ask for -- a shake, a press, a card -- is a table
that stops. Here each registered game (and the test games Dice High and High Card) is driven as
the table drives it, by a model of that dealer and of the devices, through a seeded battery of
device trouble for every role it has: links going down and coming back, a dice cup's faults,
damaged, lost, repeated and reordered reports, stray shakes and readings, device events arriving
late and out of order with the dealer's actions. Two things are checked:

- after every input, the prompt the machine published last asks for exactly what the machine
  waits for now (``snapshot()["prompt"]``, the retained state's: what the pit and the lights
  show): its ``expect`` and the fields that say what, where and by whom; a ``device`` prompt names
  a role that is down, so the device's return ends it;
- once the battery is over and every device is back, following the prompts (the dealer once per
  prompt, the pit where a prompt is the pit's: ``open``, a fault without a lit ``void``) deals
  further rounds to a result.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest
from dice_game import GAME as DICE_HIGH
from neutral_game import GAME as HIGH_CARD

from games import registry
from games.round import Refused

ASKS = ("expect", "device", "seat", "count", "hand", "position", "face", "choices", "buttons")
"""A prompt's fields that say what it asks for, where and of whom (its text only words it)."""

BATTERY = 300
"""Steps of the battery (each a dealer's action, a device event delivered, or trouble)."""
CHECKPOINT = 10
"""Every so many steps of it, a copy of the table is let go on without trouble: it deals on too."""
MORE = 4
"""Rounds to a result after it."""
LIMIT = 6000
"""Steps at most after the battery (a round takes a few dozen)."""

LINK_EVENTS = frozenset({"device_offline", "device_online", "reads_accounted"})
REPORTS = frozenset({"cup_shaken", "dice_read", "cup_closed", "device_fault"})
CUP_FAULTS = ("bad_report", "reports_lost", "stall", "die_on_edge", "die_unreadable", "lifted_early",
              "wrong_dice", "duplicate_report", "stale_report", "restarted")
LINK_FAULTS = ("link_lost", "heartbeat_lost")


def ask(prompt: dict) -> dict:
    return {k: prompt.get(k) for k in ASKS}


@pytest.fixture(scope="module", autouse=True)
def test_games() -> Iterator[None]:
    registry.register(DICE_HIGH)
    registry.register(HIGH_CARD)
    yield
    registry.unregister(DICE_HIGH.name)
    registry.unregister(HIGH_CARD.name)


class Table:
    """A game's machine with the model of the dealer, the devices and the pit around it."""

    def __init__(self, game: str, seed: int) -> None:
        entry = registry.get(game)
        self.rng = random.Random(seed)
        self.prompts: list[dict] = []
        self.results = 0
        self.m = entry.build(entry.options(entry.demo.get("game", {}), entry.demo["seats"]), self.emit, 1)
        roles = self.m.ROLES
        self.dice = next((r for r, p in roles.items() if p.reads_dice), None)
        self.deck = next((r for r, p in roles.items() if p.prepares_deck), None)
        self.reader = next((r for r, p in roles.items() if p.reads_cards and not p.prepares_deck), None) or \
            next((r for r, p in roles.items() if p.reads_cards), None)
        self.pending: deque[tuple[str, str, dict]] = deque()   # device events on their way, in order
        self.dead: set[str] = set()
        self.acted = 0             # the dealer has seen prompts[:acted]
        self.held: dict | None = None
        self.poked = False
        self.shoe: list[Any] = []
        self.log: deque[str] = deque(maxlen=16)

    def emit(self, kind: str, data: dict) -> None:
        if kind == "prompt":
            self.prompts.append(data)
        elif kind == "result":
            self.results += 1

    def check(self) -> None:
        shown, now = self.prompts[-1], self.m.snapshot()["prompt"]
        assert ask(shown) == ask(now), (f"{self.m.game} in {self.m.state} waits for {ask(now)} but its prompt "
                                        f"asks for {ask(shown)}; last inputs {list(self.log)}")
        if now["expect"] == "device":  # a device that is down, or a reader of a voided round not yet settled
            assert now["device"] in {**self.m.down, **getattr(self.m, "unsettled", {})}, (self.m.game, now, self.m.down)

    # --- the machine's inputs, each checked ------------------------------------------------

    def device(self, role: str, kind: str, data: dict) -> None:
        self.log.append(f"{role} {kind}")
        self.m.device_input(role, kind, data)
        self.check()

    def press(self, name: str, seat: int | None = None) -> None:
        self.log.append(f"press {name}" + ("" if seat is None else f" {seat}"))
        self.m.press(name, seat)
        self.check()

    def pit(self, what: str) -> None:
        self.log.append(f"pit {what}")
        try:
            if what == "open":
                self.m.open()
            elif what == "resume":
                self.m.resume("pit")
        except Refused:
            self.m.void("the pit voids it", "pit")
        self.check()

    # --- the dealer (hw_sim.dealer.SimDealer, as a model) -------------------------------------

    def needs(self, expect: str) -> str | None:
        if expect == "card":
            return self.reader
        if expect in ("deck_check", "new_deck", "shuffle", "count", "hand"):
            return self.deck
        if expect == "dice":
            return self.dice
        return None

    def draw(self, n: int) -> tuple[Any, ...]:
        if len(self.shoe) < n:
            self.shoe = list(self.m.spec.all_cards())
            self.rng.shuffle(self.shoe)
        return tuple(self.shoe.pop() for _ in range(n))

    def act(self, prompt: dict) -> None:
        """What the dealer does for ``prompt`` (the pit for ``open`` and a fault without void)."""
        expect = prompt["expect"]
        device = self.needs(expect)
        if device in self.dead:
            self.held = prompt
            return
        if expect in ("deck_check", "new_deck"):
            self.pending.append((self.deck, "deck_verified", {"cards": tuple(self.m.spec.all_cards()), "unreadable": 0}))
        elif expect == "shuffle":
            self.shoe = []
            self.pending.append((self.deck, "shuffle_complete", {"count": self.m.spec.size}))
        elif expect == "card":
            self.pending.append((self.reader, "card_drawn", {"card": self.draw(1)[0]}))
        elif expect == "hand":
            self.pending.append((self.deck, "hand_delivered", {"cards": self.draw(prompt["count"])}))
        elif expect == "count":
            self.pending.append((self.deck, "card_count", {"count": prompt.get("count", 0)}))
        elif expect == "dice":
            values = tuple(self.rng.randint(1, 6) for _ in range(prompt["count"]))
            self.pending.extend([(self.dice, "cup_shaken", {}), (self.dice, "dice_read", {"values": values}),
                                 (self.dice, "cup_closed", {})])
        elif expect in ("load_shoe", "bets", "press", "settle"):
            self.press(prompt["buttons"][0] if expect == "press" else "shuffle_ack" if expect == "load_shoe" else "deal")
        elif expect == "decision":
            self.press(self.rng.choice(prompt["choices"]), prompt["seat"])
        elif expect == "fault":
            if "void" in prompt["buttons"]:
                self.press("void")
            else:
                self.pit("resume")
        elif expect == "open":
            self.pit("open")
        else:
            assert expect == "device", f"{self.m.game}: a prompt nobody acts on: {prompt}"

    # --- trouble ---------------------------------------------------------------------------------

    def session(self, role: str) -> list[int]:
        """Where in the events on their way the device's present session is: after its last
        going offline or coming back (a report never crosses one: the driver reads reports only
        while the device is open)."""
        links = [i for i, e in enumerate(self.pending) if e[0] == role and e[1] in LINK_EVENTS]
        return list(range(links[-1] + 1 if links else 0, len(self.pending) + 1))

    def reports(self, role: str) -> list[int]:
        first = self.session(role)[0]
        return [i for i, e in enumerate(self.pending) if i >= first and e[0] == role and e[1] in REPORTS]

    def insert(self, event: tuple[str, str, dict]) -> None:
        """A report that overtakes, or falls behind, the device's others on their way."""
        self.pending.insert(self.rng.choice(self.session(event[0])), event)

    def trouble(self) -> None:
        rng, roles = self.rng, sorted(self.m.ROLES)
        # trouble comes most often while a shake's reports are on their way
        role = self.dice if self.dice is not None and self.reports(self.dice) and rng.random() < 0.7 else rng.choice(roles)
        what = rng.choice(["unplug", "replug", "link", "late"] + (["cup"] * 4 if role == self.dice else []))
        self.log.append(f"trouble {role} {what}")
        if what == "unplug" and role not in self.dead:
            self.dead.add(role)
            self.pending = deque(e for e in self.pending if e[0] != role)   # lost with its power
            self.pending.append((role, "device_offline", {"reason": "unplugged"}))
        elif what == "replug" and role in self.dead:
            self.back(role)
        elif what == "link" and role not in self.dead and role != self.dice:
            self.dead.add(role)
            self.pending.append((role, "device_offline", {"reason": rng.choice(LINK_FAULTS)}))
        elif what == "late" and self.dice is not None and len(self.reports(self.dice)) > 1:
            i, j = rng.sample(self.reports(self.dice), 2)   # out of order: one report overtakes another
            self.pending[i], self.pending[j] = self.pending[j], self.pending[i]
        elif what == "cup" and role not in self.dead:
            kind = rng.choice(["fault", "fault", "lost", "damaged", "reading", "shaken", "repeat"])
            ours = self.reports(role)
            if kind == "fault":
                self.insert((role, "device_fault", {"code": rng.choice(CUP_FAULTS), "detail": ""}))
            elif kind in ("lost", "damaged") and ours:
                i = rng.choice(ours)
                if kind == "lost":   # the next report's seq shows the gap
                    del self.pending[i]
                    self.pending.insert(i, (role, "device_fault", {"code": "reports_lost", "detail": ""}))
                else:
                    self.pending[i] = (role, "device_fault", {"code": "bad_report", "detail": ""})
            elif kind == "reading":   # a reading of no shake, or not of dice at all
                self.insert((role, "dice_read", {"values": rng.choice([(3, 4, 5), (6, 6), (7, 0, 1), ()])}))
            elif kind == "shaken":
                self.insert((role, "cup_shaken", {}))
            elif kind == "repeat" and ours:
                self.insert(self.pending[rng.choice(ours)])

    def back(self, role: str) -> None:
        self.dead.discard(role)
        self.pending.append((role, "device_online", {"info": "back"}))
        if self.m.ROLES[role].reads_cards:
            self.pending.append((role, "reads_accounted", {"count": 0}))
        self.poked = True   # the device is back: the dealer acts on the prompt he held

    # --- the run ---------------------------------------------------------------------------------

    def step(self, troubled: bool) -> bool:
        """One thing happens; False when nothing can (nobody has anything to do)."""
        choices = []
        if len(self.prompts) > self.acted:
            choices.append("act")
        if self.poked and self.held is not None:
            choices.append("retake")
        if self.pending:
            choices += ["deliver"] * 2
        if troubled:
            choices.append("trouble")
        if not choices:
            return False
        choice = self.rng.choice(choices)
        if choice == "act":
            self.acted, self.held, self.poked = len(self.prompts), None, False
            self.act(self.prompts[-1])
        elif choice == "retake":
            prompt, self.held, self.poked = self.held, None, False
            self.act(prompt)
        elif choice == "deliver":
            self.device(*self.pending.popleft())
        else:
            self.trouble()
        return True

    def run(self) -> None:
        self.pit("open")
        for n in range(BATTERY):
            self.step(troubled=True)
            if n % CHECKPOINT == 0:
                copy.deepcopy(self).deals_on(1)   # had the trouble ended here
        self.deals_on(MORE)

    def deals_on(self, rounds: int) -> None:
        """The trouble is over: every device is back, and following the prompts deals ``rounds``
        more rounds to a result."""
        for role in sorted(self.dead):
            self.back(role)
        goal = self.results + rounds
        for _ in range(LIMIT):
            if self.results >= goal:
                return
            if not self.step(troubled=False):
                break
        raise AssertionError(f"{self.m.game} dealt {self.results - goal + rounds} of {rounds} rounds after the "
                             f"trouble: state {self.m.state}, prompt {self.prompts[-1]}, down {self.m.down}, held "
                             f"{self.held}; last inputs {list(self.log)}")


GAMES = [*registry.PACKAGES, DICE_HIGH.name, HIGH_CARD.name]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("game", GAMES)
def test_every_wait_has_a_prompt_that_ends_it(game: str, seed: int) -> None:
    Table(game, seed).run()
