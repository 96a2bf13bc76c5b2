"""Commission-Free Baccarat: the round machine (california-card-room-games.txt).

The rules themselves (card points, naturals, the rule-16 chart, payouts,
the action button) are in :mod:`games.baccarat.rules`; this module only
sequences a round on the common :class:`~games.round.RoundMachine` and adds
the ``dealing`` phase and its guards.

The round, as the controller sequences it (GAMES.md):

1. ``betting``: ``deal`` means no more bets (rule 7: wagers are placed
   before the deal).
2. ``dealing``: player, banker, player, banker (rule 11). The banker's
   second card is dealt face down (rule 10): its ``card`` event names the
   hand and position and says ``face: "down"``, with no card and no value.
3. When the player's hand is complete -- it stands on its two cards
   (rules 13a and 18) or has taken its third card (rules 13b, 14) -- the
   face-down card is turned (``reveal``), and then the banker draws its
   third card if the chart says so (rules 15-16).

   A prompt for the player's third card necessarily tells the table that
   the banker has no natural (rule 18 would stop the draw); that is the
   rule working as printed, not a leak of the card. No event, prompt,
   alarm or snapshot names the face-down card or its value before the
   ``reveal``.
4. ``result``: ``result`` (rule 19 outcome and pays, and ``player_dealer``:
   the seat that banked this round, after any pass and acceptance while
   bets were open -- the authoritative banker, where ``round_start`` only
   says who held or was offered the deal when betting opened), then
   ``action_button`` from the banker's second card (rule 21), counted from
   that seat: ``seat`` is where the button goes (the snapshot's
   ``lights.action_seat``), ``first_action_seat`` who acts first (the
   player to the player-dealer's left when the count lands on position 0).
5. ``deal`` settles the round: ``ready``, then at once ``betting`` for the
   next round (or the ``ready`` wait for a player-dealer offer), or the
   shuffle when the cut card came out.

Guards: every card arriving in ``dealing`` goes to the hand the rules
expect next (:func:`games.baccarat.rules.next_card`): the shoe's cards are
dealt in order, so "a card for the wrong hand" cannot happen; what can
happen is a card when none is due. Once both hands are complete the
machine is in ``result``, and a card there is an ``unexpected_card`` alarm
naming the card and why no card was due ("no card: player stands on 7,
banker stands on 6"), and the round goes to ``fault``. ``deal`` pressed
while a card is still due is a ``missing_draw`` alarm (warning) naming the
card due; the round is unchanged.

Player-dealer ("Player-dealer and Deal"): seat
``first_player_dealer_seat`` holds the position when the table first opens;
:class:`games.round.PlayerDealerRotation` counts settled rounds (voided
rounds do not count), offers the position clockwise after two, and breaks
the game when nobody intervenes. The action button is counted from the
seat that banked the round.
"""

from __future__ import annotations

from typing import ClassVar

from games.baccarat import rules
from games.baccarat.options import BaccaratOptions
from games.baccarat.rules import HOLE_POSITION, ActionButton, Outcome
from games.cards import Card
from games.round import DeviceRole, Emit, PlayerDealer, RoundMachine, ShoePlay

ROLES: dict[str, DeviceRole] = {
    "shoe": DeviceRole(kinds=("card_shoe",), needed_in=frozenset({"dealing"}), reads_cards=True),
    "shuffler": DeviceRole(kinds=("shuffler",), needed_in=frozenset({"deck_check", "shuffle"}),
                           prepares_deck=True),
}
"""Rule 1: cards dealt from a shoe; the shuffler checks and shuffles the eight decks (GAMES.md)."""


class BaccaratRound(PlayerDealer, ShoePlay, RoundMachine):
    """The Commission-Free Baccarat round machine (API: docs/internals.md)."""

    game = "baccarat"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void", "shuffle_ack", "pass")
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("action", "player_dealer")
    ROLES = ROLES


    def _round_cards_most(self) -> int:
        """Two cards each and a third card each at most (rules 11, 13 and 16): six."""
        return 6

    def __init__(self, options: BaccaratOptions, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.player: list[Card] = []
        self.banker: list[Card] = []
        self.revealed = False
        self.outcome: Outcome | None = None
        self.action: ActionButton | None = None
        super().__init__(spec=options.spec, emit=emit, seats=options.seats,
                         player_dealer_seat=options.first_player_dealer_seat, first_round=first_round)

    # --- dealing -----------------------------------------------------------------------------

    def _entered_dealing(self) -> None:
        self._clear_layout()

    def _deal_card(self, card: Card) -> None:
        due = rules.next_card(self.player, self.banker)
        if due is None:  # cannot happen: a complete round has left ``dealing``
            raise AssertionError("dealing with both hands complete")
        hand, position = due
        (self.player if hand == "player" else self.banker).append(card)
        if hand == "banker" and position == HOLE_POSITION:
            self._emit("card", {"hand": hand, "position": position, "face": "down"})
        else:
            self._emit("card", {"hand": hand, "position": position, "face": "up",
                                "card": card.code, "value": rules.point(card)})
        if not self.revealed and rules.player_complete(self.player, self.banker):
            self.revealed = True
            hole = self.banker[HOLE_POSITION - 1]
            self._emit("reveal", {"hand": "banker", "position": HOLE_POSITION, "card": hole.code,
                                  "value": rules.point(hole)})
        if rules.next_card(self.player, self.banker) is None:
            self._fire("hands_complete")
        else:
            self._publish_prompt()

    def _dealing_prompt(self) -> dict:
        due = rules.next_card(self.player, self.banker)
        if due is None:
            return {"expect": "none", "hand": None, "text": "Both hands are complete."}
        hand, position = due
        face = "down" if hand == "banker" and position == HOLE_POSITION else "up"
        text = f"Card to the {hand} hand, position {position}"
        text += " (face down, rule 10)" if face == "down" else ""
        text += f": {self._reason()}."
        return {"expect": "card", "hand": hand, "position": position, "face": face, "text": text}

    def _reason(self) -> str:
        """Why the next card is due; says nothing of the banker's hand before the reveal."""
        if len(self.player) + len(self.banker) < len(rules.DEAL_ORDER):
            return "the deal, rule 11"
        return rules.draw_reason(self.player, self.banker)

    def _due_text(self) -> str:
        due = rules.next_card(self.player, self.banker)
        if due is None:
            return "no card"
        return f"card -> {due[0]} ({self._reason()})"

    def _no_card_text(self) -> str:
        if self.state in ("result", "fault") and self.outcome is not None:
            return rules.stand_reason(self.player, self.banker)
        return super()._no_card_text()

    # --- result ------------------------------------------------------------------------------

    def _entered_result(self) -> None:
        """Rule 19 (outcome and pays), then rule 21 (the action button), after the reveal.

        ``result.player_dealer`` is the seat that banked the round: no offer
        is pending once bets close (``deal`` in ``betting`` with an offer
        pending only accepts it), so it is the rotation's holder now.
        """
        self.outcome = rules.outcome(self.player, self.banker)
        assert self.rotation is not None and self.rotation.offered is None
        banker_seat = self.rotation.seat
        self._emit("result", self._result_data())
        self.action = rules.action_button(self.banker[HOLE_POSITION - 1], banker_seat,
                                          self.options.seats, self.options.action_wrap)
        self.action_seat = self.action.seat
        self._emit("action_button", self.action.to_dict())

    def _result_data(self) -> dict | None:
        if self.outcome is None:
            return None
        assert self.rotation is not None
        return {**self.outcome.to_dict(), "player_dealer": self.rotation.seat}

    # --- layout and snapshot -----------------------------------------------------------------

    def _clear_layout(self) -> None:
        self.player = []
        self.banker = []
        self.revealed = False
        self.outcome = None
        self.action = None

    def _snapshot_game(self) -> dict:
        banker: list[str | None] = [
            None if (i == HOLE_POSITION - 1 and not self.revealed) else c.code
            for i, c in enumerate(self.banker)
        ]
        return {
            "hands": {"player": [c.code for c in self.player], "banker": banker},
            "result": self._result_data(),
            "action_button": self.action.to_dict() if self.action is not None else None,
        }
