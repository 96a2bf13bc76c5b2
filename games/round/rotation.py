"""Player-dealer rotation: one pure rule set for the California card-room games.

California card-room games, "Player-dealer and Deal": "The person in
player-dealer position may not act as player-dealer position more than two
consecutive hands or rounds of play. There must be an intervening
player-dealer [...]. The game will be broken if at least one other
intervening player at the table does not accept the deal when offered."

How the controller reads it (docs/baccarat.md, "Player-dealer rotation"):

1. **What counts.** Only *settled* rounds count: a voided round was not a
   round of play (nobody won or lost against the player-dealer), so it neither
   adds to a seat's run nor breaks it. A seat's run is the number of settled
   rounds it banked in a row, counted over the table's settled rounds and
   nothing else: passing, accepting, offering or a restart never restarts it.
   This is the one number the limit is checked against.
2. **The limit.** A seat whose run is :data:`MAX_CONSECUTIVE` is *barred*: it
   may not bank the next settled round. It stays barred until another seat
   banks a settled round (that seat's run starts at 1, the barred seat's
   ends).
3. **The forced offer.** When the holder's run reaches the limit, the deal is
   offered clockwise from it. Each seat in turn accepts (``deal``) or declines
   (``pass``).
4. **Broken.** If every other seat declines the forced offer and it comes
   back round to the barred seat, no player intervened: the game is broken.
   That is the sheet's condition, and the only way the game breaks.
5. **"Accepts the deal".** A seat that accepts an offer has accepted the
   deal: it holds the position. If it passes before banking, that is a
   voluntary pass (6); it does not undo its acceptance, so the game is not
   broken by it.
6. **A voluntary pass.** The holder may decline to bank the next round; the
   deal is offered clockwise. A barred seat is skipped: it may not take the
   deal. If nobody takes it, the offer comes back round to the seat that
   passed, which keeps the deal.

So no seat ever banks three consecutive settled rounds (2, and 6's skip),
whatever the order of presses, settles, voids and restarts: the run lives in
the saved state and never restarts except by rule 2.

Seats are numbered 1..N clockwise; the dealer passes empty seats. "Clockwise" above is the
California default; a game whose sheet offers the position the other way (Pai Gow Tiles: "offered
in a continuous and systematic manner counterclockwise every two hands") passes ``direction``,
and every offer then goes to the next lower seat number -- nothing else changes. Each
method returns the ``player_dealer`` events' data to emit. This module is
pure: the machine part that presses buttons and emits events is
:mod:`games.round.player_dealer`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MAX_CONSECUTIVE = 2
"""Player-dealer and Deal: nobody acts as player-dealer more than two consecutive rounds."""

Direction = Literal["clockwise", "counterclockwise"]
DIRECTIONS: tuple[str, ...] = ("clockwise", "counterclockwise")


@dataclass(frozen=True, slots=True)
class Offer:
    """The deal on offer: to ``seat``, from ``origin`` (the seat giving it up); ``forced`` when
    the origin banked :data:`MAX_CONSECUTIVE` settled rounds and may not take it back."""

    seat: int
    origin: int
    forced: bool


class PlayerDealerRotation:
    """Who holds the player-dealer position, each seat's run of settled rounds, and the offer.

    ``seat`` is the holder: the seat that banks the next round dealt. ``run_seat`` banked the
    last settled round, ``run`` settled rounds in a row (rule 1 of the module docstring).
    """

    def __init__(self, seats: int, seat: int, limit: int = MAX_CONSECUTIVE,
                 direction: Direction = "clockwise") -> None:
        if seats < 2:
            raise ValueError(f"a player-dealer game needs at least 2 seats, not {seats}")
        if not 1 <= seat <= seats:
            raise ValueError(f"player-dealer seat {seat} is not one of seats 1..{seats}")
        if not 1 <= limit <= MAX_CONSECUTIVE:
            raise ValueError(f"a seat banks 1 to {MAX_CONSECUTIVE} consecutive rounds, not {limit}")
        if direction not in DIRECTIONS:
            raise ValueError(f"the deal is offered clockwise or counterclockwise, not {direction!r}")
        self.seats = seats
        self.seat = seat
        self.limit = limit
        """Rule 2's limit: :data:`MAX_CONSECUTIVE` by the sheet's "Player-dealer and Deal"; a game
        whose own rules move the position sooner says so (Double-Hand Poker: "each position takes a
        turn as a designated player", one round each)."""
        self.direction: Direction = direction
        """Which way an offer goes round the table (seats are numbered clockwise)."""
        self.run_seat: int | None = None
        self.run = 0
        self.offer: Offer | None = None

    # --- what the table shows ----------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The seat an offer goes to after ``seat``: clockwise (the next seat number), or
        counterclockwise (the one before) for a game that offers the position that way."""
        if self.direction == "counterclockwise":
            return (seat - 2) % self.seats + 1
        return seat % self.seats + 1

    def run_of(self, seat: int) -> int:
        """The settled rounds ``seat`` has banked in a row, up to the last settled round."""
        return self.run if seat == self.run_seat else 0

    @property
    def consecutive(self) -> int:
        """The holder's run."""
        return self.run_of(self.seat)

    def barred(self, seat: int) -> bool:
        """Rule 2: ``seat`` may not bank the next settled round."""
        return self.run_of(seat) >= self.limit

    @property
    def offered(self) -> int | None:
        return None if self.offer is None else self.offer.seat

    @property
    def lit_seat(self) -> int:
        """The seat the player-dealer light shows: the offered seat while an offer is pending."""
        return self.offered if self.offered is not None else self.seat

    @property
    def pass_breaks_game(self) -> bool:
        """The offered seat is the last that may intervene: its ``pass`` breaks the game (rule 4).
        The prompt says so, so that the seat knows what declining means."""
        offer = self.offer
        return offer is not None and offer.forced and self._next_offer(offer.seat, offer.origin) is None

    # --- what happens at the table -----------------------------------------------------------

    def round_played(self) -> list[dict]:
        """A round was settled with the holder banking (rules 1-3)."""
        self.offer = None  # a round is dealt only with no offer pending; a stale one cannot survive it
        if self.run_seat == self.seat:
            self.run += 1
        else:
            self.run_seat, self.run = self.seat, 1
        if self.run >= self.limit:
            self.offer = Offer(self.next_seat(self.seat), self.seat, forced=True)
            return [self._event(self.offer.seat, "offered")]
        return [self._event(self.seat, "kept")]

    def accept(self) -> list[dict]:
        """The offered seat takes the deal (rule 5)."""
        if self.offer is None:
            return []
        self.seat, self.offer = self.offer.seat, None
        return [self._event(self.seat, "accepted")]

    def pass_(self) -> tuple[list[dict], bool]:
        """The ``pass`` button: the offered seat declines, or with no offer pending the holder
        passes voluntarily (rule 6). Returns the events and whether the game is broken (rule 4)."""
        if self.offer is None:
            offer = Offer(self.seat, self.seat, forced=False)
            events = [self._event(self.seat, "passed")]
        else:
            offer = self.offer
            events = [self._event(offer.seat, "passed")]
        nxt = self._next_offer(offer.seat, offer.origin)
        if nxt is not None:
            self.offer = Offer(nxt, offer.origin, offer.forced)
            events.append(self._event(nxt, "offered"))
            return events, False
        if offer.forced:
            # Round the table back to the seat that banked two rounds: nobody intervened. When the
            # table reopens the offer starts again clockwise of it.
            self.offer = Offer(self.next_seat(offer.origin), offer.origin, forced=True)
            return events, True
        self.offer = None  # back round to the seat that passed: it keeps the deal
        events.append(self._event(self.seat, "kept"))
        return events, False

    def _next_offer(self, after: int, origin: int) -> int | None:
        """The next seat (in :attr:`direction`) after ``after`` that may take the deal, or None when the offer
        comes back round to ``origin`` first. A barred seat is skipped (rule 6)."""
        seat = self.next_seat(after)
        while seat != origin:
            if not self.barred(seat):
                return seat
            seat = self.next_seat(seat)
        return None

    # --- restart -----------------------------------------------------------------------------

    def snapshot(self) -> dict:
        return {"seat": self.seat, "consecutive": self.consecutive, "offered": self.offered}

    def saved(self) -> dict:
        """Everything the rotation knows, for the journal: a restarted controller must not hand a
        seat a third consecutive round because it forgot the two before the restart."""
        offer = self.offer
        return {"seats": self.seats, "seat": self.seat, "run_seat": self.run_seat, "run": self.run,
                "offer": None if offer is None else {"seat": offer.seat, "origin": offer.origin,
                                                     "forced": offer.forced}}

    def restore(self, saved: object) -> str | None:
        """Take up a :meth:`saved` rotation (or one saved before runs were kept, with
        ``consecutive``/``offered``/``origin``/``barred``); None when done, else why it was not
        (the table then starts again from its configured seat, and says so)."""
        if not isinstance(saved, dict):
            return f"not a saved rotation: {type(saved).__name__}"
        if saved.get("seats") != self.seats:
            return f"saved for {saved.get('seats')} seats, the table now has {self.seats}"
        found = self._parse(saved) if "run" in saved else self._parse_before_runs(saved)
        if found is None:
            return f"not a valid rotation: {saved}"
        self.seat, self.run_seat, self.run, self.offer = found
        return None

    def _is_seat(self, value: object) -> bool:
        return type(value) is int and 1 <= value <= self.seats

    def _parse(self, saved: dict) -> tuple[int, int | None, int, Offer | None] | None:
        seat, run_seat, run, offer = saved.get("seat"), saved.get("run_seat"), saved.get("run"), saved.get("offer")
        if not self._is_seat(seat) or type(run) is not int or not 0 <= run <= MAX_CONSECUTIVE:
            return None
        if (run_seat is None) != (run == 0) or (run_seat is not None and not self._is_seat(run_seat)):
            return None
        if offer is None:
            return seat, run_seat, run, None
        if not isinstance(offer, dict) or not self._is_seat(offer.get("seat")) \
                or not self._is_seat(offer.get("origin")) or type(offer.get("forced")) is not bool:
            return None
        return seat, run_seat, run, Offer(offer["seat"], offer["origin"], offer["forced"])

    def _parse_before_runs(self, saved: dict) -> tuple[int, int | None, int, Offer | None] | None:
        """A journal written before runs were kept: the holder's ``consecutive``, and ``barred``
        for a seat that banked two (it kept that through an acceptance by another seat)."""
        seat, consecutive = saved.get("seat"), saved.get("consecutive")
        offered, origin, barred = saved.get("offered"), saved.get("origin"), saved.get("barred")
        if not self._is_seat(seat) or type(consecutive) is not int or not 0 <= consecutive <= MAX_CONSECUTIVE:
            return None
        if not all(v is None or self._is_seat(v) for v in (offered, origin, barred)):
            return None
        if barred is not None:
            run_seat, run = barred, MAX_CONSECUTIVE
        else:
            run_seat, run = (seat, consecutive) if consecutive else (None, 0)
        offer = None
        if offered is not None:
            giver = origin if origin is not None else seat
            offer = Offer(offered, giver, forced=giver == barred)
        return seat, run_seat, run, offer

    def _event(self, seat: int, change: str) -> dict:
        return {"seat": seat, "consecutive": self.run_of(seat), "change": change}
