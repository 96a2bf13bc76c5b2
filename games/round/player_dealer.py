"""The player-dealer part of a round machine, for the California card-room games.

A game's machine inherits :class:`PlayerDealer` (before
:class:`~games.round.lifecycle.RoundMachine`) to get the rotation of
:mod:`games.round.rotation` at the table: the ``pass`` button, the offer held
in ``ready``, the ``player_dealer`` light group, the ``player_dealer``
events, and its own save and restore across a restart.

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
from games.round.rotation import MAX_CONSECUTIVE, Direction, PlayerDealerRotation


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

    ROTATION: ClassVar[Direction] = "clockwise"
    """Which way the position is offered (seats are numbered clockwise): a game whose sheet says
    otherwise sets it (Pai Gow Tiles: counterclockwise)."""

    def __init__(self, *, player_dealer_seat: int = 1, player_dealer_limit: int = MAX_CONSECUTIVE,
                 **kw: Any) -> None:
        self.rotation = PlayerDealerRotation(kw["seats"], player_dealer_seat, player_dealer_limit,
                                             self.ROTATION)
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
        origin = self.rotation.offer.origin if self.rotation.offer is not None else self.rotation.seat
        limit = self.rotation.limit
        self._alarm("game_broken", "critical",
                    f"the deal went round the table back to seat {origin} after its {limit} "
                    f"consecutive round{'s' if limit > 1 else ''}: no other player accepted it, so the game is "
                    "broken (Player-dealer and Deal)",
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
            breaks = self.rotation.pass_breaks_game
            prompt["text"] = (f"The player-dealer position is offered to seat {offer}: deal = seat {offer} "
                              f"accepts{' ' + accepts if accepts else ''}; pass = seat {offer} declines"
                              + (" and, as every other seat has declined, the game is broken" if breaks else "")
                              + "." + self._last_round_note())
            if breaks:
                prompt["pass_breaks_game"] = True
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
