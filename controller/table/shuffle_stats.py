"""Shuffle integrity: did the shuffle destroy the order the cards were last dealt in?

Every card a reading shoe or a hand-forming shuffler deals is recorded in the order it left the
device (:meth:`ShuffleStats.dealt`); it counts once its face is public (:meth:`ShuffleStats.observe`
sees the table's events: a card dealt face up, a reveal that is not a player's). A card whose
face never becomes public (a Three Card Poker hand folded and collected unseen, R4; a misread) is a
gap, and so is a player's hand shown at the player's choice (a hand played rather than folded leans
high: counted, it would bend the comparison of a fair shuffle). When the next shuffle completes, the deal is over: its public order is compared with the
previous deal's (:mod:`controller.table.carried_order`) and the figures are published (the
``shuffle`` key of the retained ``<prefix>/<table>/integrity`` topic, :meth:`ShuffleStats.payload`).
Nothing is published about a deal before that shuffle, so before its last card was dealt: the
order of cards still in a shoe never leaves the controller, and no figure depends on it.

Two tests, each at :data:`P_SUSPECT`, each a ``shuffle_suspect`` warning:

- **the shoe**: one deal against the one before, when its expected count is at least
  :data:`MIN_SHOE` (an eight-deck baccarat shoe expects about 490 matches; a Joker Seven deck of 7
  cards dealt about 0.1, so it is never tested alone);
- **the run**: every deal compared since the counts began, summed (each deal's expected count is
  exact given the one before, so the sums of observed minus expected counts make a martingale and
  their variances add), once its expected sum is at least :data:`MIN_RUN`: a shuffler that always
  shuffles a little too little, and the small deals of a game shuffled every round. It warns once,
  until the counts are reset.

Which of these a fair shuffle trips over a shift, and how fast each simulated fault is named:
docs/operations.md, "Shuffle integrity" (tools/shuffle_calibration.py measures it).

The state is the journal's (``meta.integrity["shuffle"]``, with the events of the same batch, at
each round's start and each shuffle: controller.table.integrity): the deal so far (cards dealt face down included: they have left the shoe,
and the round machine's saved state holds them too), the previous deal's public order and the run. A deck change drops the previous deal
(new physical cards); the counts start afresh on :meth:`ShuffleStats.reset`.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from controller.table.carried_order import WINDOW, Comparison, compare, upper_p

log = logging.getLogger(__name__)

P_SUSPECT = 0.001
"""A deal (or the run) whose p-value is below this is a ``shuffle_suspect`` warning."""
MIN_SHOE = 50.0
"""The expected count a deal needs to be tested alone: a shoe of many rounds (eight decks of
baccarat: about 490). A deal shuffled every round is tested only in the run: with hundreds of them a
shift, each tested alone would trip the threshold several times a week."""
MIN_RUN = 1.0
"""The expected count the run needs: below it one chance match would look like a signal."""
HISTORY = 10
"""The last deals compared that the topic shows."""

UNREAD_BY_FAULT = {"misread": 1, "double_card": 2}
"""A card-reading device's fault that means cards left it unread: how many."""


@dataclass(frozen=True)
class ShoeResult:
    """One deal compared with the one before it: what the topic shows and the warning says."""

    shoe: int
    """Deals compared since the counts began, this one included."""
    rounds: tuple[int | None, int | None]
    dealt: int
    public: int
    links: int
    pairs: int
    observed: int
    expected: float
    variance: float
    z: float
    p_value: float
    tested: bool
    suspect: bool

    @classmethod
    def of(cls, shoe: int, rounds: tuple[int | None, int | None], dealt: int, public: int,
           c: Comparison) -> ShoeResult:
        tested = c.mean >= MIN_SHOE
        p = c.p_value
        return cls(shoe, rounds, dealt, public, c.links, c.pairs, c.observed, round(c.mean, 4),
                   round(c.variance, 4), round(c.z, 3), p, tested, tested and p < P_SUSPECT)

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["rounds"] = list(self.rounds)
        return out


@dataclass(frozen=True)
class Suspect:
    """What the ``shuffle_suspect`` warning says."""

    message: str
    action: str
    code: str = "shuffle_suspect"


@dataclass
class Run:
    """Every deal compared since the counts began."""

    since: float
    shoes: int = 0
    observed: int = 0
    expected: float = 0.0
    variance: float = 0.0
    flagged: bool = False

    @property
    def p_value(self) -> float:
        return upper_p(self.observed, self.expected, self.variance)

    @property
    def tested(self) -> bool:
        return self.expected >= MIN_RUN


@dataclass
class Deal:
    """The deal since the last shuffle: each card's face (None: left unread) and whether it is public."""

    faces: list[str | None] = field(default_factory=list)
    public: list[bool] = field(default_factory=list)
    round_from: int = 0
    """Where the current round's cards begin (a reveal names a card of the current round)."""
    rounds: list[int | None] = field(default_factory=lambda: [None, None])

    def order(self) -> list[str | None]:
        return [f if p else None for f, p in zip(self.faces, self.public, strict=True)]


def _rounds_text(rounds: tuple[int | None, int | None]) -> str:
    first, last = rounds
    if first is None:
        return "the last shoe"
    return f"the shoe of round {first}" if first == last else f"the shoe of rounds {first}-{last}"


class ShuffleStats:
    """One table's shuffle monitor, for a shoe of the composition ``copies`` (face code -> copies)."""

    def __init__(self, copies: Mapping[str, int], *, clock: Callable[[], float] = time.time) -> None:
        if sum(copies.values()) < 4:
            raise ValueError("a shuffle monitor needs a shoe of 4 cards at least")
        self.copies = dict(copies)
        self._clock = clock
        self.deal = Deal()
        self.previous: list[str | None] | None = None
        self.run = Run(since=clock())
        self.history: list[ShoeResult] = []
        self._new_deck_due = False
        self.changed = False
        """Something to journal since the table last took :meth:`save`: a round begun after cards were
        dealt, a shuffle, a reset. Not every card: writing the deal (some kilobytes) with each card
        would cost the card's way to the pit; a restart loses at most the round in progress, which
        the recovery voids, and a deal with cards missing is still a fair test (any positions of a
        random order are random), with a few pairs fewer."""

    # --- what the devices and the table say -----------------------------------------------------
    def dealt(self, face: str | None) -> None:
        """A card left the shoe (or the hand-forming shuffler): its face, None if it left unread."""
        self.deal.faces.append(face if face in self.copies else None)
        self.deal.public.append(False)

    def observe(self, kind: str, data: Mapping[str, Any]) -> list[Suspect]:
        """One of the table's events (what the pit sees): a face made public, a round begun, a deck
        change, or a shuffle, which ends the deal. The warnings a finished deal raises."""
        if kind == "round_start":
            self.changed = self.changed or self.deal.round_from != len(self.deal.faces)  # the last round's cards
            self.deal.round_from = len(self.deal.faces)
            rnd = data.get("round")
            if isinstance(rnd, int) and not isinstance(rnd, bool):
                if self.deal.rounds[0] is None:
                    self.deal.rounds[0] = rnd
                self.deal.rounds[1] = rnd
        elif kind == "card" or (kind == "reveal" and data.get("hand") != "seat"):
            # A player's hand (``hand: seat``) is shown when the player chose to (played rather than
            # folded, stayed to a showdown), and the choice follows the cards: a shown hand leans
            # high. Counted, the shown faces would bend the comparison on a fair shuffle (a fair
            # Three Card Poker table drifted to z = +9 in 20,000 rounds: found by review): gaps.
            faces = [data.get("card")] if kind == "reveal" or data.get("face") == "up" else []
            cards = data.get("cards")
            faces += cards if isinstance(cards, list) else []
            for face in faces:
                if isinstance(face, str):
                    self._made_public(face)
        elif kind == "prompt":
            if data.get("expect") == "new_deck":
                self._new_deck_due = True
        elif kind == "deck_check":
            if self._new_deck_due:   # new physical cards: the last deal's order says nothing of them
                self._new_deck_due = False
                found = self.shuffled()
                self.previous = None
                return found
        elif kind == "shuffle":
            return self.shuffled()
        return []

    def _made_public(self, face: str) -> None:
        """The latest card of the current round with this face that is not public yet is now."""
        deal = self.deal
        for i in range(len(deal.faces) - 1, deal.round_from - 1, -1):
            if deal.faces[i] == face and not deal.public[i]:
                deal.public[i] = True
                return

    def shuffled(self) -> list[Suspect]:
        """The cards were shuffled: the deal since the last shuffle is over. A deal with no card
        dealt (a shuffle again, after a fault) leaves the previous deal as the one compared with."""
        deal = self.deal
        if not deal.faces:
            return []
        self.deal = Deal()
        self.changed = True
        order = deal.order()
        previous, self.previous = self.previous, order
        if previous is None:
            return []
        try:
            comparison = compare(previous, order, self.copies)
        except ValueError as exc:   # more public copies of a face than the shoe holds: a deal to forget
            log.error("shuffle monitor: the deal of rounds %s not compared: %s", _rounds_text(deal.rounds), exc)
            self.previous = None
            return []
        run = self.run
        result = ShoeResult.of(run.shoes + 1, (deal.rounds[0], deal.rounds[1]), len(order),
                               sum(f is not None for f in order), comparison)
        run.shoes += 1
        run.observed += comparison.observed
        run.expected += comparison.mean
        run.variance += comparison.variance
        self.history = [*self.history, result][-HISTORY:]
        found = []
        where = _rounds_text(result.rounds)
        if result.suspect:
            found.append(Suspect(
                f"{where} repeats the order of the deal before it: {result.observed} pairs of cards dealt within "
                f"{WINDOW} of each other came out within {WINDOW} again, {result.expected:.1f} expected of a fair "
                f"shuffle (z = {result.z:.1f}, p = {result.p_value:.2g} < {P_SUSPECT}; {result.public} of "
                f"{result.dealt} cards public)",
                "have the shuffler checked (a weak or partial shuffle, or a shoe stacked with the last deal); "
                "surveillance: the shoe's figures are on the table's integrity topic"))
        if not run.flagged and run.tested and run.p_value < P_SUSPECT:
            run.flagged = True
            found.append(Suspect(
                f"the {run.shoes} deals compared since the counts began, together, repeat the order of the deals before "
                f"them: {run.observed} "
                f"pairs of cards came out near each other again, {run.expected:.1f} expected of fair shuffles "
                f"(p = {run.p_value:.2g} < {P_SUSPECT})",
                "have the shuffler checked (it shuffles too little); with the shuffler serviced, reset the "
                "integrity counts"))
        return found

    def reset(self) -> int:
        """The counts start afresh (the pit's reset; a new shuffler): the deals compared, set aside.
        The deal in progress and the previous deal's order stay: they are what the next deal is
        compared with."""
        discarded = self.run.shoes
        self.run = Run(since=self._clock())
        self.history = []
        self.changed = True
        return discarded

    # --- journal and topic --------------------------------------------------------------------------
    def save(self) -> dict[str, Any]:
        """JSON for the journal (``meta.integrity["shuffle"]``)."""
        self.changed = False
        d = self.deal
        return {"deal": {"faces": d.faces, "public": d.public, "round_from": d.round_from, "rounds": d.rounds},
                "previous": self.previous, "new_deck_due": self._new_deck_due,
                "run": asdict(self.run), "history": [r.as_dict() for r in self.history]}

    def load(self, saved: Any) -> list[str]:
        """Take up :meth:`save` from before a restart; what cannot be taken up starts afresh, said
        in one line for the table's warning."""
        if saved is None:
            return []
        try:
            deal_in, run_in = saved["deal"], saved["run"]
            faces, public = list(deal_in["faces"]), [bool(p) for p in deal_in["public"]]
            if len(faces) != len(public) or not all(f is None or f in self.copies for f in faces):
                raise ValueError("the deal names cards the shoe has not got")
            previous = saved["previous"]
            if previous is not None and not all(f is None or f in self.copies for f in previous):
                raise ValueError("the previous deal names cards the shoe has not got")
            rounds = list(deal_in["rounds"])
            run = Run(since=float(run_in["since"]), shoes=int(run_in["shoes"]), observed=int(run_in["observed"]),
                      expected=float(run_in["expected"]), variance=float(run_in["variance"]),
                      flagged=bool(run_in["flagged"]))
            history = [ShoeResult(**{**h, "rounds": tuple(h["rounds"])}) for h in saved.get("history", [])]
            numbers = [run.since, run.expected, run.variance, *(v for h in history for v in asdict(h).values()
                                                                if isinstance(v, float))]
            if not all(math.isfinite(v) for v in numbers):   # the topic's schema takes no NaN: the pit would drop it
                raise ValueError("a figure is not a finite number")
            deal = Deal(faces, public, int(deal_in["round_from"]), rounds if len(rounds) == 2 else [None, None])
        except (KeyError, TypeError, ValueError) as exc:
            self.changed = True
            return [f"the journal's shuffle figures cannot be taken up ({exc}): they start afresh"]
        self.deal, self.previous, self.run, self.history = deal, previous, run, history
        self._new_deck_due = bool(saved.get("new_deck_due", False))
        return []

    def payload(self) -> dict[str, Any]:
        """The ``shuffle`` key of the retained integrity topic: figures of finished deals only."""
        run = self.run
        return {"window": WINDOW, "p_suspect": P_SUSPECT, "min_expected_shoe": MIN_SHOE, "min_expected_run": MIN_RUN,
                "run": {"since": run.since, "shoes": run.shoes, "observed": run.observed,
                        "expected": round(run.expected, 4), "variance": round(run.variance, 4),
                        "p_value": run.p_value, "tested": run.tested, "suspect": run.flagged},
                "shoes": [r.as_dict() for r in self.history]}
