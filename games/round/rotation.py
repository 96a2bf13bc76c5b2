"""Player-dealer rotation: a part a California card-room game picks for its round machine.

California card-room games, "Player-dealer and Deal": one seat holds the
player-dealer position, nobody holds it more than two consecutive rounds,
then it is offered clockwise, and the game is broken when no other player
intervenes. :class:`PlayerDealerRotation` is the bookkeeping;
:class:`PlayerDealer` is the part a game's machine inherits (before
:class:`~games.round.lifecycle.RoundMachine`) to get it: the ``pass``
button, the offer held in ``ready``, the ``player_dealer`` light group, the
``player_dealer`` events, and its own save and restore across a restart.

Player-dealer decisions happen between rounds: settling a round (``deal``
in ``result``) counts it and may offer the deal (``player_dealer`` events
come before the transition to ``ready``). While an offer is pending the
table waits in ``ready``: ``deal`` accepts it *and* opens betting. The
holder may still pass voluntarily while bets are open; then ``deal`` in
``betting`` only accepts the offer (bets stay open until the next ``deal``,
so bettors see who banks before bets close). ``round_start.player_dealer``
is the seat holding (or offered) the deal when betting opens; the seat that
actually banked is in the game's ``result``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.round.lifecycle import RoundMachine

MAX_CONSECUTIVE = 2
"""Player-dealer and Deal: nobody acts as player-dealer more than two consecutive rounds."""


class PlayerDealerRotation:
    """Who holds the player-dealer position, and the clockwise offer of it.

    California card-room games, "Player-dealer and Deal": one seat holds the
    position; nobody holds it more than two consecutive rounds; then it is
    offered clockwise, and "the game will be broken if at least one other
    intervening player at the table does not accept the deal when offered".

    - :meth:`round_played` counts a *settled* round. A voided round is not
      counted: nobody won or lost against the player-dealer in it, so it is
      not a round "of play" in the sheet's sense, and counting it would take
      the deal from a seat that never banked a hand.
    - After :data:`MAX_CONSECUTIVE` rounds the holder is *barred* until
      another seat has banked a round, and the position is offered to the
      next seat clockwise.
    - :meth:`pass_` is the dealer's ``pass`` button: the offered seat
      declines and the offer moves on clockwise; with no offer pending it
      is the holder passing voluntarily.
    - :meth:`accept` is ``deal`` while an offer is pending.
    - An offer that comes back round to the barred seat means nobody
      intervened: the game is broken (the caller raises the alarm and
      closes the table). An offer that comes back to a holder who passed
      voluntarily and is not barred returns the deal to that holder
      (``kept``): nobody else took it, and the holder may keep banking up
      to the limit.

    Seats are numbered 1..N clockwise; empty seats are passed by the dealer.
    Each method returns the ``player_dealer`` events' data to emit.
    """

    def __init__(self, seats: int, seat: int) -> None:
        if seats < 2:
            raise ValueError(f"a player-dealer game needs at least 2 seats, not {seats}")
        if not 1 <= seat <= seats:
            raise ValueError(f"player-dealer seat {seat} is not one of seats 1..{seats}")
        self.seats = seats
        self.seat = seat
        self.consecutive = 0
        self.offered: int | None = None
        self.origin: int | None = None
        self.barred: int | None = None

    def next_seat(self, seat: int) -> int:
        """The seat clockwise of ``seat``."""
        return seat % self.seats + 1

    @property
    def lit_seat(self) -> int:
        """The seat the player-dealer light shows: the offered seat while an offer is pending."""
        return self.offered if self.offered is not None else self.seat

    def round_played(self) -> list[dict]:
        """A round was settled with ``seat`` as player-dealer."""
        self.consecutive += 1
        self.barred = None
        if self.consecutive >= MAX_CONSECUTIVE:
            self.barred = self.seat
            return [self._offer_from(self.seat)]
        return [self._event(self.seat, self.consecutive, "kept")]

    def accept(self) -> list[dict]:
        """The offered seat takes the deal."""
        if self.offered is None:
            return []
        self.seat, self.consecutive = self.offered, 0
        self.offered = self.origin = None
        return [self._event(self.seat, 0, "accepted")]

    def pass_(self) -> tuple[list[dict], bool]:
        """The ``pass`` button. Returns the events and whether the game is broken."""
        if self.offered is None:
            events = [self._event(self.seat, self.consecutive, "passed")]
            self.origin = self.seat
            nxt = self.next_seat(self.seat)
        else:
            events = [self._event(self.offered, 0, "passed")]
            nxt = self.next_seat(self.offered)
        if nxt == self.barred:
            # Round the table back to the seat that banked two rounds: nobody intervened.
            self.offered, self.origin = self.next_seat(self.barred), self.barred
            return events, True
        if nxt == self.origin:
            self.offered = self.origin = None
            events.append(self._event(self.seat, self.consecutive, "kept"))
            return events, False
        self.offered = nxt
        events.append(self._event(nxt, 0, "offered"))
        return events, False

    def snapshot(self) -> dict:
        return {"seat": self.seat, "consecutive": self.consecutive, "offered": self.offered}

    def saved(self) -> dict:
        """Everything the rotation knows, for the journal: a restarted controller
        must not hand a seat a third consecutive round (the limit of "Player-dealer
        and Deal") because it forgot the two before the restart."""
        return {"seats": self.seats, "seat": self.seat, "consecutive": self.consecutive,
                "offered": self.offered, "origin": self.origin, "barred": self.barred}

    def restore(self, saved: object) -> str | None:
        """Take up a :meth:`saved` rotation; None when done, else why it was not
        (the table then starts again from its configured seat, and says so)."""
        if not isinstance(saved, dict):
            return f"not a saved rotation: {type(saved).__name__}"
        if saved.get("seats") != self.seats:
            return f"saved for {saved.get('seats')} seats, the table now has {self.seats}"
        seat, consecutive = saved.get("seat"), saved.get("consecutive")
        seats_ok = all(v is None or (type(v) is int and 1 <= v <= self.seats)
                       for v in (saved.get("offered"), saved.get("origin"), saved.get("barred")))
        if type(seat) is not int or not 1 <= seat <= self.seats or type(consecutive) is not int \
                or not 0 <= consecutive <= MAX_CONSECUTIVE or not seats_ok:
            return f"not a valid rotation: {saved}"
        self.seat, self.consecutive = seat, consecutive
        self.offered, self.origin, self.barred = saved.get("offered"), saved.get("origin"), saved.get("barred")
        return None

    def _offer_from(self, origin: int) -> dict:
        self.origin = origin
        self.offered = self.next_seat(origin)
        return self._event(self.offered, 0, "offered")

    @staticmethod
    def _event(seat: int, consecutive: int, change: str) -> dict:
        return {"seat": seat, "consecutive": consecutive, "change": change}


class PlayerDealer(RoundMachine):
    """The player-dealer part of a round machine: ``class Game(PlayerDealer, ..., RoundMachine)``.

    It hooks the lifecycle at its seams: which buttons are lit
    (:meth:`_buttons`), what ``deal`` means while an offer is pending
    (:meth:`_button_deal`), whether ``ready`` waits (:meth:`_hold_in_ready`),
    the prompt's offer text, the light group and the snapshot, and it saves
    and restores its rotation. A voided round is not counted (see
    :class:`PlayerDealerRotation`).
    """

    rotation: PlayerDealerRotation
    NEEDS_BUTTONS: ClassVar[tuple[str, ...]] = ("pass",)

    def __init__(self, *, player_dealer_seat: int = 1, **kw: Any) -> None:
        self.rotation = PlayerDealerRotation(kw["seats"], player_dealer_seat)
        super().__init__(**kw)

    # --- lifecycle seams -----------------------------------------------------------------

    def _buttons(self) -> list[str]:
        lit = super()._buttons()
        if self.state in ("ready", "betting"):
            lit.append("pass")
        return lit

    def _hold_in_ready(self) -> bool:
        return self.rotation.offered is not None

    def _button_deal(self) -> None:
        rotation = self.rotation
        if self.state == "ready":
            self._emit_player_dealer(rotation.accept())
        elif self.state == "betting" and rotation.offered is not None:
            # Accepting the deal does not also close the bets: bettors see who banks first.
            self._emit_player_dealer(rotation.accept())
            self._publish_prompt()
            return
        elif self.state == "result":
            # The round is settled: count it for the player-dealer, then ready (-> betting) or shuffle.
            self._emit_player_dealer(rotation.round_played())
        super()._button_deal()

    def _button_pass(self) -> None:
        events, broken = self.rotation.pass_()
        self._emit_player_dealer(events)
        if not broken:
            if self.state == "ready" and not self._hold_in_ready():
                self._fire("betting_opened")  # nobody took it: betting opens
            else:
                self._publish_prompt()
            return
        barred = self.rotation.barred
        self._alarm("game_broken", "critical",
                    f"the deal went round the table back to seat {barred} after its {MAX_CONSECUTIVE} "
                    "consecutive rounds: no other player accepted it, so the game is broken "
                    "(Player-dealer and Deal)",
                    action="the table closes; the pit decides when to reopen it")
        if self.state == "betting":
            self._emit("void", {"round": self.round,
                                "reason": "game broken: no intervening player-dealer", "by": "controller"})
            self._clear_layout()
        self._fire("game_broken")

    def _player_dealer_seat(self) -> int | None:
        return self.rotation.lit_seat

    def _prompt_for_state(self) -> dict:
        prompt = super()._prompt_for_state()
        offer = self.rotation.offered
        if offer is not None and self.state in ("ready", "betting"):
            prompt["seat"] = offer
            accepts = "and betting opens" if self.state == "ready" else ""
            prompt["text"] = (f"The player-dealer position is offered to seat {offer}: deal = seat {offer} "
                              f"accepts{' ' + accepts if accepts else ''}; pass = seat {offer} declines."
                              + self._last_round_note())
        return prompt

    def _light_seats(self) -> dict[str, list[int]]:
        seats = super()._light_seats()
        seats["player_dealer"] = [self.rotation.lit_seat]
        return seats

    def _snapshot_parts(self) -> dict:
        data = super()._snapshot_parts()
        data["player_dealer"] = self.rotation.snapshot()
        return data

    # --- restart -------------------------------------------------------------------------

    def save(self) -> dict:
        data = super().save()
        data["player_dealer"] = self.rotation.saved()
        return data

    def restore(self, saved: Mapping[str, Any], stopped_in: str | None) -> None:
        """Who held the position, and for how many rounds, goes on across a restart: the limit
        of two consecutive rounds holds whatever happens to the controller.

        A round stopped in ``result`` (killed after its result, before the dealer settled it)
        keeps its result -- it is not voided -- so it was banked and counts, as the settle
        would have counted it; without this a seat could bank a third round.
        """
        super().restore(saved, stopped_in)
        rotation = self.rotation
        if saved.get("player_dealer") is None:
            return
        why = rotation.restore(saved["player_dealer"])
        if why is not None:
            self._alarm("player_dealer_reset", "warning",
                        f"the player-dealer rotation could not be carried over from before the restart "
                        f"({why}); seat {rotation.seat} holds the deal with no rounds counted",
                        action="check who banked the last rounds; pass the deal if that seat has banked two")
            return
        self._emit("player_dealer", {"seat": rotation.seat,
                                     "consecutive": rotation.consecutive, "change": "restored"})
        if stopped_in == "result":
            self._emit_player_dealer(rotation.round_played())

    def _emit_player_dealer(self, events: list[dict]) -> None:
        for data in events:
            self._emit("player_dealer", data)
