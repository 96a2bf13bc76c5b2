"""Shoe play: a part for games dealt from one shuffled shoe over many rounds.

Commission-Free Baccarat deals round after round from a shoe the dealer
loads after the shuffle, with a cut card placed near its end: the cut card
coming out makes the round in progress (or the next to start) the last of
the shoe, and the shuffle follows its result. A game without this part
goes back to the shuffler after every round (Joker Seven rule 7, a
hand-forming shuffler, the poker room).

What the part adds to the lifecycle: ``load_shoe`` after a good shuffle
(the dealer presses ``shuffle_ack``), the ``cut_card`` and ``shoe_empty``
inputs of a card-reading shoe, the last-round note on prompts, and the
rule that a round cannot resume once the shoe ran out mid-round.

A round is never started that the cards left cannot complete (issue 23.5: Three Card Poker from
one deck with six seats began an 18-card round with 16 cards behind the cut card, and voided a
third of its rounds). A game whose round takes a bounded number of cards says how many at most
for the seats in play (:meth:`ShoePlay._round_cards_most`):
- the ``load_shoe`` prompt asks for the cut card that many cards from the back
  (``cut_from_end``): every round that starts before the cut card comes out has them;
- whatever the dealer did with the cut card, a round that ends with fewer cards left than the
  next round may take ends the shoe: a ``shoe`` event ``short`` (``remaining``, ``needed``), the
  round is the last, and the shuffle follows it;
- a table whose full complement of seats cannot be dealt from the deck at all is refused by its
  options (:func:`games.options.check_round_fits`).
A blackjack-like game (No Bust, Hot Action) draws until its hands stand, so no count of cards
bounds its round below the shoe itself: it gives no bound, and a shoe that runs out mid-round is
still the ``shoe_empty`` fault (its doc says so).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.round.lifecycle import CARDS_IN_PLAY, RoundMachine


class ShoePlay(RoundMachine):
    """The shoe-play part: ``class Game(..., ShoePlay, RoundMachine)``."""

    PLAYS_A_SHOE: ClassVar[bool] = True
    NEEDS_BUTTONS: ClassVar[tuple[str, ...]] = ("shuffle_ack",)

    def __init__(self, **kw: Any) -> None:
        self._shoe_empty = False
        super().__init__(**kw)

    def _shuffle_due(self) -> bool:
        return self.last_round

    def _round_cards_most(self) -> int | None:
        """The most cards the next round can take for the seats in play (every card the rules may
        deal, burns included), or None when the game's rules bound it by no count (a blackjack
        hand draws until it stands)."""
        return None

    def _onward(self) -> str | None:
        if self.state in ("result", "voided") and not self.last_round:
            self._check_cards_left()
        return super()._onward()

    def _check_cards_left(self) -> None:
        """After a round (settled or voided): if the next round could take more cards than are
        left, this round was the shoe's last (the shuffle follows), whatever the cut card said."""
        most = self._round_cards_most()
        left = self.ledger.remaining
        if most is None or left >= most:
            return
        self.last_round = True
        self._emit("shoe", {"event": "short", "last_round": True, "remaining": left, "needed": most})

    def _prompt_for_state(self) -> dict:
        prompt = super()._prompt_for_state()
        most = self._round_cards_most()
        if self.state == "load_shoe" and most is not None:
            prompt["cut_from_end"] = most
            prompt["text"] = (f"Load the shuffled cards into the shoe, place the cut card {most} cards from the back "
                              f"(the most a round of this table can take), press shuffle_ack.")
        return prompt

    def _shuffled_ok(self) -> None:
        self.last_round = False
        self._shoe_empty = False
        super()._shuffled_ok()

    def _resume_refusal(self) -> str | None:
        if self._shoe_empty and self.fault is not None and self.fault.origin in ("betting", "dealing"):
            return "the shoe is empty: the round cannot go on; void it"
        return super()._resume_refusal()

    def _input_cut_card(self, role: str) -> None:
        self.cut_card()

    def _input_shoe_empty(self, role: str) -> None:
        self.shoe_empty()

    def cut_card(self) -> None:
        """The cut card came out: the round in progress (or the next to start) is the shoe's last.

        After that round's result, ``deal`` leads to ``shuffle`` instead of ``betting``.
        """
        if self.state not in CARDS_IN_PLAY:
            self._unexpected_input(f"cut card read while no shoe is in play (state {self.state})")
            return
        self.last_round = True
        self._emit("shoe", {"event": "cut_card", "last_round": True,
                            "remaining": self.ledger.remaining})
        if self.state in ("result", "ready", "betting"):
            self._publish_prompt()

    def shoe_empty(self) -> None:
        """The shoe ran out. Mid-round (betting or dealing) that is a fault: void, then shuffle."""
        in_play = self.state in CARDS_IN_PLAY and self.state != "load_shoe"
        self._emit("shoe", {"event": "empty", "last_round": in_play or self.last_round,
                            "remaining": self.ledger.remaining})
        if not in_play:
            return
        self.last_round = True
        self._shoe_empty = True
        if self.state in ("betting", "dealing"):
            message = f"the shoe ran out during round {self.round}"
            self._alarm("shoe_empty", "fault", message, expected=self._expected_text(),
                        action="void the round; the table goes to the shuffle")
            self._enter_fault("shoe_empty", message)
        elif self.state == "ready":
            self._fire("shoe_finished")
        elif self.state == "result":
            self._publish_prompt()
