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
