"""Joker Seven's round, as the controller sequences it (joker-seven.txt, joker-seven-nj.txt).

1. ``betting``: wagers on the layout; ``deal`` closes them.
2. ``dealing``: exactly seven cards, face up, from the shoe (rule 3; N.J.A.C.
   13:47-20.26(f)2 "face up ... one at a time"). An eighth card is an ``unexpected_card``
   alarm naming rule 3, and the round goes to ``fault``.
3. ``result``: every wager of the configured paytable is settled from the seven cards
   (games.joker_seven.rules), but the ``result`` is published only once the deck is proved
   complete (rule 12: "the dealer shall invalidate the outcome of any round of play if it is
   found that the deck contains an incorrect number of cards"): the dealer gathers the cards and
   shuffles (rule 7: after each round), and the shuffler's count is checked against the 54 of
   rule 2. The pit has seen the seven cards meanwhile.
   - right: the ``result``; ``deal`` settles the round and the next opens (no second shuffle);
   - wrong: the round is voided (``void``, ``by: "controller"``, the reason naming rule 12 and
     the count) and the table goes to the deck check, whose alarm names the missing and extra
     cards. Choice: it is *this* round that is invalidated -- the deck was proved complete by the
     count before it (every round starts from a counted shuffle), so the fault arose in it.
4. Deck change (rules 8-11): ``change_deck`` between rounds (betting, no card dealt: that
   round is voided, nothing was at stake on cards yet) proves the old deck complete with a deck
   check (rule 10a), then asks for a new deck of the other back colour (rule 11:
   ``game.backs``, alternating) and proves it complete (rule 10b) before the shuffle. A table
   opening (rule 8) starts with a new deck too: the first deck check's prompt names its colour.

Nothing is dealt face down and no seat holds cards, so nothing is secret but the undealt order.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.cards import Card
from games.ledger import check_deck
from games.round import DeviceRole, Emit, Refused, RoundMachine
from games.round.steps import CardDue, Step, Steps
from games.wagers import WagerResult

CARDS = 7
"""Rule 3: no more than seven cards in a round; the wagers of rule 14 need all seven."""

ROLES: dict[str, DeviceRole] = {
    "shoe": DeviceRole(kinds=("card_shoe",), needed_in=frozenset({"dealing"}), reads_cards=True),
    "shuffler": DeviceRole(kinds=("shuffler",), needed_in=frozenset({"deck_check", "shuffle", "result"}),
                           prepares_deck=True),
}
"""N.J.A.C. 13:47-20.26(c): a dealing shoe and an automated shuffler (here both required: the
shoe reads the seven cards, the shuffler proves the count after every round)."""


class JokerSevenRound(Steps, RoundMachine):
    """The Joker Seven round machine (API: docs/internals.md)."""

    game = "joker_seven"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void", "change_deck")
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ()
    ROLES = ROLES

    def __init__(self, options: Any, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.layout: list[Card] = []
        self.wagers: list[WagerResult] | None = None
        self.proved = False          # this round's deck count came back right (rule 12)
        self.deck_change: str | None = None   # "old": proving the old deck; "new": the new one
        self.backs = 0               # index into options.backs: the deck in play
        super().__init__(spec=options.spec, emit=emit, seats=options.seats, first_round=first_round)

    @staticmethod
    def _transitions() -> list[dict]:
        table = RoundMachine._transitions()
        table += [
            {"trigger": "count_wrong", "source": "result", "dest": "deck_check"},
            {"trigger": "change_deck", "source": ["ready", "betting"], "dest": "deck_check"},
        ]
        return table

    # --- dealing: seven cards face up -----------------------------------------------------

    def _next_step(self) -> Step | None:
        if len(self.layout) < CARDS:
            return CardDue("layout", len(self.layout) + 1, "up", why="seven cards face up, rule 3")
        return None

    def _place(self, due: CardDue, card: Card) -> None:
        self.layout.append(card)

    def _clear_layout(self) -> None:
        self.layout = []
        self.wagers = None

    def _no_card_text(self) -> str:
        if self.state in ("result", "fault") and len(self.layout) == CARDS:
            return f"no card: the {CARDS} cards of the round are dealt (rule 3: no more than seven)"
        return super()._no_card_text()

    def _entered_betting(self) -> None:
        self.proved = False
        super()._entered_betting()

    # --- result, pending the count (rules 7 and 12) ---------------------------------------

    def _entered_result(self) -> None:
        self.wagers = self.options.settle(self.layout)  # published once the count proves the deck

    def _result_data(self) -> dict | None:
        if self.wagers is None or not self.proved:
            return None
        return {"cards": [c.code for c in self.layout], "paytable": self.options.paytable,
                "wagers": [w.to_dict() for w in self.wagers]}

    def _shuffle_due(self) -> bool:
        return not self.proved  # settled after a right count: the shuffle of rule 7 is done

    def _result_published(self) -> bool:
        return self.proved  # the result goes out only once the count proves the deck (rule 12)

    def _buttons(self) -> list[str]:
        lit = super()._buttons()
        if self.state == "result" and not self.proved:
            return []  # the count first (rule 12), then the settle
        if self.state in ("ready", "betting"):
            lit.append("change_deck")
        return lit

    def shuffled(self, count: int) -> None:
        if self.state != "result":
            super().shuffled(count)
            return
        if self.proved:
            self._unexpected_input(f"a second shuffle count arrived for round {self.round}: ignored")
            return
        ok = count == self.spec.size
        self._emit("shuffle", {"ok": ok, "count": count, "expected": self.spec.size})
        if ok:
            self.ledger.refill()
            self.proved = True
            self._emit("result", self._result_data())
            self._publish_prompt()
            return
        reason = (f"rule 12: the deck held {count} cards after round {self.round}, not {self.spec.size}: "
                  "the round's outcome is invalid")
        self._alarm("shuffle_count", "fault", reason,
                    action="return every wager of the round; check the deck to find the missing or extra cards")
        self._emit("void", {"round": self.round, "reason": reason, "by": "controller"})
        self._clear_layout()
        self._fire("count_wrong")

    # --- deck change (rules 8-11) ---------------------------------------------------------

    def _button_change_deck(self) -> None:
        if self.state == "betting":
            self._emit("void", {"round": self.round, "reason": "deck change before the deal (rule 9)",
                                "by": "dealer"})
            self._clear_layout()
        self.deck_change = "old"
        self._fire("change_deck")

    def _command_change_deck(self, args: Any) -> dict:
        """The pit asks for a new deck (rule 9: the players' majority, or a mutilated card): as
        the dealer's button, between rounds only."""
        if self.state not in ("ready", "betting"):
            raise Refused(f"a deck change waits for the round to end (state {self.state}): rules 9-11")
        self._button_change_deck()
        return {"deck_change": self.deck_change, "reason": args.get("reason")}

    def deck_checked(self, cards: Any, unreadable: int) -> None:
        if self.state == "deck_check" and self.deck_change == "old":
            # Rule 10a: the deck being replaced is proved complete (or the alarm says what it lacks).
            check = check_deck(self.spec, list(cards))
            ok = check.ok and unreadable == 0
            self._emit("deck_check", {"ok": ok, "expected": check.expected, "counted": check.counted,
                                      "missing": [c.code for c in check.missing],
                                      "extra": [c.code for c in check.extra], "unreadable": unreadable})
            if ok:
                self.deck_change = "new"
                self.backs = (self.backs + 1) % len(self.options.backs)
            else:
                self._alarm("deck_check_failed", "fault",
                            "rule 10a: the deck being replaced is not complete: " + check.summary(),
                            missing=[c.code for c in check.missing], extra=[c.code for c in check.extra],
                            action="find the missing cards, then check the old deck again; the pit decides "
                                   "about the rounds it dealt")
            self._publish_prompt()
            return
        super().deck_checked(cards, unreadable)

    def _deck_proved(self) -> None:
        self.deck_change = None  # the new deck (rule 10b), or the deck a table opens with (rule 8)
        super()._deck_proved()

    def _prompt_for_state(self) -> dict:
        prompt = super()._prompt_for_state()
        colour = self.options.backs[self.backs]
        if self.state == "deck_check" and self.deck_change == "old":
            prompt.update(expect="deck_check", text="Deck change (rule 9): gather the old deck into the shuffler "
                                                    "and run a deck check to prove it complete (rule 10a).")
        elif self.state == "deck_check" and self.deck_change == "new":
            prompt.update(expect="new_deck", text=f"Put the old deck away; open a new deck with {colour} backs "
                                                  f"(rule 11) and run a deck check to prove it complete (rule 10b).")
        elif self.state == "deck_check":
            prompt["text"] = f"Open a new deck with {colour} backs (rule 8) and run a deck check ({self.spec.size} cards)."
        elif self.state == "result" and not self.proved:
            prompt.update(expect="shuffle", text=f"Gather the seven cards into the shuffler and shuffle (rule 7): round "
                                                 f"{self.round}'s result follows once the count proves the deck "
                                                 f"(rule 12).")
        return prompt

    def _snapshot_game(self) -> dict:
        return {"layout": [c.code for c in self.layout], "result": self._result_data(),
                "paytable": self.options.paytable, "backs": self.options.backs[self.backs],
                "deck_change": self.deck_change}
