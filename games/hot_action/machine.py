"""Hot Action Blackjack's round, as the controller sequences it (california-card-room-games.txt,
"HOT ACTION BLACKJACK"; paragraph tags as in :mod:`games.hot_action.rules`: I instructions, G game
rules, H house rules).

1. ``betting``: bets against the Bank; ``deal`` is "no more bets". The Banker banks at most two
   consecutive hands (I3), then the bank is offered clockwise (games.round.rotation); on its second
   hand the bets prompt says whether its bank must match its first (G6, from the first hand's
   results: the controller sees no chips).
2. ``dealing``, by steps (games.round.steps):
   a. the Banker shakes the dice cup (three dice): the total, counted round the table from the
      Banker's position as 1, places the action button (H5), where pay-off begins (H12);
   b. the deal, from position one (H21): a card face up to each player in seat order, the Banker's
      up card; a second card to each player, the Banker's hole card face down (G3), published
      without its identity;
   c. H14: with an up card that can make a two card 22 (an ace, a joker, a 10-point card) the
      Banker checks its hole card: a two card 22 is turned up at once and every hand stands;
   d. the players, in seat order from position one: a soft 18 gets its card without a press (G12,
      G13); a hard 18 or more and a soft 19-22 stand (G9, G10); below that the seat presses ``hit``
      or ``stand`` (G4);
   e. the Banker's hole card is turned up in turn (then all hands stand: H16) and the Banker draws
      by its rules (games.hot_action.rules.banker_must).
3. ``result``: each seat's bet against the Bank (I5-I9, the readings), the Bank's round (G6), the
   pay-off order from the action button (H12).

Irregularities the sheet settles, carried out as it says:

- H17: a card drawn while a hand's decision is due (the player did not ask for a card; a hand that
  must stand is never due one) is a dead card: ``card`` with hand ``dead``, a ``dead_card``
  warning, and play goes on in turn.
- H19: a card drawn before any card is due (the dice are due) is pulled out prematurely: dead, and
  five more cards are burned (``premature_card``); two cards out of the shoe at once (the shoe's
  ``double_card``) except on the deal: both dead, five more burned (``two_cards_at_once``). On the
  deal two cards at once leave unread cards on the layout: the lifecycle's void-only fault.
  Burned cards go face down to the burn and are never published.
- H13 (``cmd/hole_exposed``, ``by`` dealer or banker): exposed by the dealer, the hole card is dead
  (turned up as such), five cards are burned and the next card is the new hole card; after a
  check found no two card 22 the new hand cannot rank as one (H14). Exposed by the Banker, it plays.
- H15, a missed mandatory hit: while a soft 18's card (or the Banker's forced draw) is due, a seat
  button is refused and a ``missed_mandatory_hit`` warning names the hand; ``deal`` is refused with
  the lifecycle's ``missing_draw``. A press on a hand that must stand is refused with the rule (H17).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import Card
from games.dice import seat_for_total
from games.hot_action import rules
from games.round import DeviceRole, Emit, PlayerDealer, Refused, RoundMachine, ShoePlay
from games.round.steps import CardDue, DecisionDue, DiceDue, Step, Steps

ROLES: dict[str, DeviceRole] = {
    "shoe": DeviceRole(kinds=("card_shoe",), needed_in=frozenset({"dealing"}), reads_cards=True),
    "shuffler": DeviceRole(kinds=("shuffler",), needed_in=frozenset({"deck_check", "shuffle"}),
                           prepares_deck=True),
    "cup": DeviceRole(kinds=("dice_cup",), needed_in=frozenset({"dealing"}), reads_dice=True),
}
"""GAMES.md: a reading shoe, the dice cup (H5) and lights; the shuffler checks the decks and shuffles."""

EXPOSED_BY: tuple[str, ...] = ("dealer", "banker")
"""H13: who exposed the Banker's hole card out of turn."""

HOLE_EXPOSED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"id": {"type": ["string", "integer"]}, "by": {"enum": list(EXPOSED_BY)}},
    "required": ["by"],
    "additionalProperties": False,
}
"""``cmd/hole_exposed``: the floor tells the table that the Banker's hole card was exposed out of
turn, and by whom (H13): no device can see it."""


@dataclass(frozen=True)
class SeatCard(CardDue):
    """A card to a player's hand; ``mandatory`` when the rules draw it without a press (G12, G13)."""

    mandatory: bool = False


@dataclass(frozen=True)
class BankCard(CardDue):
    """A card to the Banker's hand."""

    mandatory: bool = False

    @property
    def where(self) -> str:
        return f"the Banker (seat {self.seat})"


@dataclass(frozen=True)
class BurnCard(CardDue):
    """A card burned face down (H13, H19): it goes out of play unseen."""

    @property
    def where(self) -> str:
        return "the burn"


class HotActionRound(Steps, PlayerDealer, ShoePlay, RoundMachine):
    """The Hot Action Blackjack round machine (API: docs/internals.md)."""

    game = "hot_action"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void", "shuffle_ack", "pass")
    SEAT_BUTTONS: ClassVar[tuple[str, ...]] = rules.BUTTONS
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("action", "player_dealer", "turn")
    ROLES = ROLES

    def __init__(self, options: Any, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.readings: rules.Rules = options.readings
        self.last_bank: dict[str, Any] | None = None
        """The last settled round's Banker and whether its bank lost money (G6)."""
        self._clear_layout()
        super().__init__(spec=options.spec, emit=emit, seats=options.seats,
                         player_dealer_seat=options.first_player_dealer_seat, first_round=first_round)

    def _clear_layout(self) -> None:
        self.thrown: tuple[int, ...] | None = None
        self.action: dict[str, Any] | None = None
        self.hands: dict[int, list[Card]] = {}
        self.asked: dict[int, str] = {}       # a player's press not yet carried out (hit) or its stand
        self.bank: list[Card] = []
        self.bank_asked: str | None = None
        self.revealed: str | None = None      # how the hole card came face up; None while face down
        self.check_done = False
        self.checked = False                  # H14: checked for a two card 22 and found none
        self.replaced = False                 # H13: the hole card was replaced
        self.all_stand = False                # the Banker's two card 22 turned up: every hand stands
        self.banker_turn = False              # the players are done and the hole card is up (H16)
        self.burns_due = 0
        self.burned = 0
        self.burn_why = ""
        self.hole_due = False                 # H13: the replacement hole card is due
        self.dead: list[Card] = []
        self.outcome: dict[str, Any] | None = None
        self._order: list[tuple[int | None, int]] | None = None
        self._dealt = 0

    @property
    def banker(self) -> int:
        return self.rotation.seat

    def players(self) -> list[int]:
        """Every position but the Banker's, from position one (H21; the controller sees no chips:
        every seat is dealt, and a seat without a bet has nothing to settle)."""
        return [s for s in range(1, self.seats + 1) if s != self.banker]

    def _lay(self) -> list[tuple[int | None, int]]:
        """The deal (G3), fixed when dealing starts: a card to each player, the Banker's up card, a
        second card to each player, the Banker's hole card last (H21: "once the banker receives his
        down card" the deal is done). None is the Banker."""
        if self._order is None:
            players = self.players()
            self._order = [(s, 1) for s in players] + [(None, 1)] + [(s, 2) for s in players] + [(None, 2)]
            self.hands = {s: [] for s in players}
        return self._order

    def _initial_complete(self) -> bool:
        return self._dealt >= len(self._lay())

    def _on_the_deal(self) -> bool:
        """H19's "except on the deal": the dice are thrown and the two cards each are going out."""
        return self.thrown is not None and not self._initial_complete()

    # --- the steps -------------------------------------------------------------------------------

    def _next_step(self) -> Step | None:
        if self.burns_due:
            return BurnCard("burn", self.burned + 1, "down", why=self.burn_why)
        if self.hole_due:
            return BankCard("banker", 2, "down", seat=self.banker,
                            why="the Banker's new hole card, the next card off the deck (H13)")
        if self.thrown is None:
            return DiceDue(rules.DICE, self.banker, "the Banker places the action button, H5")
        order = self._lay()
        if self._dealt < len(order):
            seat, position = order[self._dealt]
            if seat is None:
                if position == 1:
                    return BankCard("banker", 1, "up", seat=self.banker, why="the Banker's up card (G3)")
                return BankCard("banker", 2, "down", seat=self.banker, why="the Banker's hole card, face down (G3)")
            return SeatCard("seat", position, "up", seat=seat, why="two cards each, face up (G3)")
        if self.all_stand:
            return None
        step = self._player_step()
        if step is not None or not self.banker_turn:
            return step
        return self._banker_step()

    def _player_step(self) -> Step | None:
        """The first player's step left, in seat order from position one (H21)."""
        for seat in self.players():
            hand = self.hands[seat]
            asked = self.asked.get(seat)
            if asked == "stand":
                continue
            if asked == "hit":
                return SeatCard("seat", len(hand) + 1, "up", seat=seat, why=f"seat {seat} asked for a card (G4)")
            must, why = rules.player_must(hand)
            if must == "stand":
                continue
            if must == "hit":
                return SeatCard("seat", len(hand) + 1, "up", seat=seat, why=why, mandatory=True)
            codes = " ".join(c.code for c in hand)
            return DecisionDue(seat, rules.BUTTONS, f"{codes}: {rules.total(hand).describe()}; G4")
        return None

    def _banker_step(self) -> Step | None:
        """The Banker's draws, once its hole card is up in turn (games.hot_action.rules.banker_must)."""
        b = self.banker
        if self.bank_asked == "stand":
            return None
        if self.bank_asked == "hit":
            return BankCard("banker", len(self.bank) + 1, "up", seat=b, why="the Banker asked for a card (G4)")
        must, why = rules.banker_must(self.bank, self.readings)
        if must == "stand":
            return None
        if must == "hit":
            return BankCard("banker", len(self.bank) + 1, "up", seat=b, why=why, mandatory=True)
        codes = " ".join(c.code for c in self.bank)
        return DecisionDue(b, rules.BUTTONS, f"the Banker: {codes}: {rules.total(self.bank).describe()}; "
                                             "game.banker_below_18 = choice")

    def _place(self, due: CardDue, card: Card) -> None:
        if isinstance(due, BurnCard):
            self.burns_due -= 1
            self.burned += 1
            return
        if due.hand == "banker":
            if self.hole_due:
                self.hole_due = False
            elif not self._initial_complete():
                self._dealt += 1
            self.bank.append(card)
            self.bank_asked = None
            return
        assert due.seat is not None
        if not self._initial_complete():
            self._dealt += 1
        self.hands[due.seat].append(card)
        self.asked.pop(due.seat, None)

    def _decide(self, seat: int, choice: str) -> None:
        if seat == self.banker:
            self.bank_asked = choice
        else:
            self.asked[seat] = choice

    def _shaken(self, due: DiceDue, values: tuple[int, ...]) -> None:
        self.thrown = values
        self.action = rules.action_button(values, self.banker, self.seats, self.options.dice_direction)
        self.action_seat = self.action["seat"]
        self._emit("action_button", self.action)

    def _dice_data(self, due: DiceDue, values: tuple[int, ...]) -> dict[str, Any]:
        return {"reaches": seat_for_total(sum(values), self.banker, range(1, self.seats + 1),
                                          self.options.dice_direction)}  # type: ignore[arg-type]

    def _step_done(self) -> None:
        if self.state == "dealing":
            self._turn_up_if_due()
        super()._step_done()

    def _turn_up_if_due(self) -> None:
        """After the deal's last card the Banker checks for a two card 22 (H14); when every player is
        done the hole card is turned up in turn and the Banker plays (H16)."""
        if (self.burns_due or self.hole_due or self.thrown is None or not self._initial_complete()
                or self.banker_turn or self.all_stand):
            return
        if not self.check_done:
            self.check_done = True
            if self.readings.check_two_card_22 and rules.check_due(self.bank[0]):
                if rules.total(self.bank).two_card_22:
                    self._reveal("two_card_22")
                    self.all_stand = True
                    return
                self.checked = True
        if self._player_step() is None:
            self.banker_turn = True
            if self.revealed is None:
                self._reveal("in_turn")

    def _reveal(self, when: str, dead: bool = False) -> None:
        self.revealed = when
        self._emit("reveal", {"hand": "banker", "seat": self.banker, "position": 2, "card": self.bank[1].code,
                              "when": when, "dead": dead})

    # --- irregularities ------------------------------------------------------------------------------

    def _deal_card(self, card: Card) -> None:
        step = self._next_step() if self.state == "dealing" else None
        if isinstance(step, DecisionDue):
            self._dead_card(card, step)
        elif isinstance(step, DiceDue):
            self._premature_card(card)
        else:
            super()._deal_card(card)

    def _dead(self, card: Card, rule: str) -> None:
        self.dead.append(card)
        self._emit("card", {"hand": "dead", "position": len(self.dead), "face": "up", "card": card.code,
                            "rule": rule})

    def _dead_card(self, card: Card, step: DecisionDue) -> None:
        """H17: a hit the player did not ask for (its decision is due), or to a hand that must stand
        (never due a card), is a dead card; play continues in turn."""
        self._dead(card, "H17")
        who = "the Banker" if step.seat == self.banker else f"seat {step.seat}"
        standing = self._standing_text()
        self._alarm("dead_card", "warning",
                    f"{card.code} drawn, but {who} has not asked for a card ({step.why})"
                    + (f" and {standing}" if standing else "")
                    + ": a card given to a hand that did not ask for one or must stand is a dead card (H17)",
                    card=card.code, expected=self._due_text(),
                    action=f"put {card.code} with the discards; play continues in turn: {who} hits or stands")
        self._publish_prompt_if_changed()

    def _standing_text(self) -> str:
        stand = [f"seat {s} {rules.player_must(self.hands[s])[1]}" for s in self.players()
                 if len(self.hands.get(s, [])) >= 2 and rules.player_must(self.hands[s])[0] == "stand"]
        return "; ".join(stand)

    def _premature_card(self, card: Card) -> None:
        """H19: a card pulled out of the shoe before any card is due is dead; five more are burned."""
        self._dead(card, "H19")
        self._burn(f"five cards burned after {card.code} was pulled out prematurely (H19)")
        self._alarm("premature_card", "warning",
                    f"{card.code} drawn while the dice were due (the Banker shakes to place the action button, "
                    "H5): a card pulled out of the shoe prematurely is a dead card, and five more cards are "
                    "burned (H19)", card=card.code, expected=self._due_text(),
                    action=f"put {card.code} with the discards, burn five cards face down, then play continues")
        self._publish_prompt()

    def _burn(self, why: str) -> None:
        self.burns_due += rules.BURN
        self.burn_why = why

    def device_fault(self, device: str, code: str, detail: str) -> None:
        """H19: two cards out of the shoe at once, except on the deal, are dead and five more cards are
        burned; play continues. Everything else is the lifecycle's (on the deal two unread cards on
        the layout make the round void-only)."""
        role = self.ROLES.get(device)
        if (role is not None and role.reads_cards and code == "double_card" and self.state == "dealing"
                and not self._on_the_deal()):
            self._burn("five cards burned after two came out of the shoe at once (H19)")
            self._alarm("two_cards_at_once", "warning",
                        f"the {device} let two cards out at once during round {self.round}, not on the deal: both "
                        "are dead cards and five more cards are burned (H19)", expected=self._expected_text(),
                        action="put both cards with the discards unseen, burn five cards face down; play continues")
            self._publish_prompt()
            return
        super().device_fault(device, code, detail)

    def _command_hole_exposed(self, args: Any) -> dict[str, Any]:
        """``cmd/hole_exposed`` (H13): the Banker's hole card was exposed out of turn. By the dealer:
        a dead card, five cards burned, the next card the new hole card (and after a check that
        found no two card 22 the new hand cannot rank as one: H14). By the Banker: the card plays."""
        by = args.get("by")
        if by not in EXPOSED_BY:
            raise Refused(f"by: must be one of {', '.join(EXPOSED_BY)} (H13)")
        if self.state != "dealing":
            raise Refused(f"no Banker's hole card is on the layout (state {self.state}); H13 applies while it "
                          "is face down")
        if self.hole_due or len(self.bank) < 2:
            raise Refused("the Banker's hole card has not been dealt yet (H13 applies once it is face down)")
        if self.revealed is not None:
            raise Refused(f"the Banker's hole card is already face up ({self.revealed.replace('_', ' ')}): "
                          "H13 is about a card exposed out of turn")
        hole = self.bank[1]
        b = self.banker
        if by == "banker":
            self._reveal("exposed_by_banker")
            self._alarm("hole_card_exposed", "warning",
                        f"the Banker (seat {b}) exposed its hole card {hole.code} out of turn: the card plays (H13)",
                        card=hole.code, expected=self._expected_text(),
                        action="leave the card face up; play continues in turn")
            self._publish_prompt_if_changed()
            return {"hole_card": "plays", "card": hole.code, "burn": 0}
        self._reveal("exposed_by_dealer", dead=True)
        self.dead.append(hole)
        self.bank = self.bank[:1]
        self.revealed = None
        self.replaced = True
        self.hole_due = True
        self._burn("five cards burned after the Banker's hole card was exposed by the dealer (H13)")
        h14 = (" The Banker had checked for a two card 22 and found none: the new hand cannot rank as one (H14)."
               if self.checked else "")
        self._alarm("hole_card_exposed", "warning",
                    f"the dealer exposed the Banker's hole card {hole.code} out of turn: it is a dead card; five "
                    f"cards are burned and the next card off the deck is the Banker's new hole card (H13).{h14}",
                    card=hole.code, expected=self._expected_text(),
                    action=f"put {hole.code} with the discards, burn five cards face down, deal the new hole card "
                           "face down; play continues where it was")
        self._publish_prompt()
        return {"hole_card": "dead", "card": hole.code, "burn": rules.BURN}

    # --- refusals, texts and lights ------------------------------------------------------------------

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        if self.state != "dealing":
            return super()._seat_refusal(name, seat)
        step = self._next_step()
        b = self.banker
        if isinstance(step, DecisionDue) and step.seat == seat:
            return None
        if seat != b and self.banker_turn:
            return "the players are done: once the Banker's hole card is exposed in turn, all hands stand (H16)"
        if isinstance(step, (SeatCard, BankCard)) and step.mandatory:
            who = "the Banker" if step.seat == b else f"seat {step.seat}"
            if step.seat == seat and name == "hit":
                return f"{who}'s card is already due without a press: {step.why}"
            self._alarm("missed_mandatory_hit", "warning",
                        f"seat {seat} pressed {name} while {who}'s mandatory hit is due ({step.why}): the hit "
                        "must not be missed (G12, G13; H15)", expected=self._due_text(),
                        action=f"deal the card to {who} first; then play goes on in turn")
            return f"{who} must be hit first: {step.why} (H15)"
        if isinstance(step, DiceDue):
            return f"the Banker shakes the dice cup first (H5): {self._due_text()}"
        if isinstance(step, BurnCard):
            return f"cards are being burned first: {step.why}"
        if self.hole_due:
            return "the Banker's new hole card is dealt first (H13)"
        if not self._initial_complete():
            return (f"seat {seat} may not {name} before the deal is complete: two cards each, the Banker's hole "
                    "card last (G3)")
        if self.all_stand:
            return "the Banker's two card 22 was turned up after its check: every hand stands (H14, H16)"
        if seat == b:
            if not self.banker_turn:
                return (f"seat {seat} is the Banker: it plays after every player, once its hole card is turned up "
                        "in turn (H16)")
            must, why = rules.banker_must(self.bank, self.readings)
            if self.bank_asked == "stand":
                return "the Banker stood"
            if must != "choice":
                return f"{why}: the Banker's hand is played by the rules, not by its seat buttons"
        else:
            hand = self.hands[seat]
            if self.asked.get(seat) == "stand":
                return f"seat {seat} stood on {rules.total(hand).describe()}"
            must, why = rules.player_must(hand)
            if must == "stand":
                return f"seat {seat} {why}; a hit to it would be a dead card (H17)"
        if isinstance(step, DecisionDue):
            who = "the Banker" if step.seat == b else f"seat {step.seat}"
            return f"{who} decides first: play goes in turn from position one (H17, H18, H21)"
        if isinstance(step, CardDue):
            return f"a card is due first: {self._due_text()}"
        return "no decision is due"

    def _prompt_for_state(self) -> dict:
        """The bets prompt of a Banker's second consecutive hand says whether its bank must match its
        first (G6): by the first hand's results, which are all the controller knows of the chips."""
        prompt = super()._prompt_for_state()
        rotation = self.rotation
        if (self.state in ("ready", "betting") and prompt.get("expect") == "bets" and rotation.offered is None
                and rotation.consecutive == 1):
            seat = rotation.seat
            lost = self.last_bank.get("lost_money") if self.last_bank and self.last_bank.get("seat") == seat else None
            if lost is True:
                note = "it lost money on its first bank, so it need not match it (G6)"
            elif lost is False:
                note = "its bank must match its first bank: it did not lose money on it (G6)"
            else:
                note = "its bank must match its first bank unless it lost money on it: the chips decide (G6)"
            prompt["text"] = f"{prompt['text']} Seat {seat} banks its second consecutive hand (I3): {note}."
        return prompt

    def _no_card_text(self) -> str:
        if self.state == "result" and self.outcome is not None:
            return f"no card: round {self.round} is complete"
        return super()._no_card_text()

    # --- result ------------------------------------------------------------------------------------

    def _entered_result(self) -> None:
        assert self.revealed is not None, "the hole card is turned up before every result"
        b = self.banker
        ranked = not (self.checked and self.replaced)
        outcome = rules.settle(self.bank, {s: self.hands[s] for s in self.players()}, ranked, self.readings)
        outcome["bank"].update(seat=b, checked=self.checked, replaced=self.replaced)
        outcome["bank_round"]["hand"] = self.rotation.consecutive + 1
        assert self.action is not None
        outcome.update(player_dealer=b, action_seat=self.action["seat"], payoff_order=self.action["payoff_order"],
                       dead=[c.code for c in self.dead], burned=self.burned)
        self.outcome = outcome
        self.last_bank = {"seat": b, "lost_money": outcome["bank_round"]["lost_money"]}
        self._emit("result", outcome)

    def _snapshot_game(self) -> dict:
        """The layout as the table shows it: the hole card is null until it is turned up; the burned
        cards are a count."""
        shown: list[str | None] = [c.code for c in self.bank]
        if len(shown) >= 2 and self.revealed is None:
            shown[1] = None
        return {
            "bank": {"seat": self.banker, "cards": shown},
            "hands": {str(s): {"cards": [c.code for c in h],
                               "total": rules.total(h).value if h else None,
                               "stood": self.asked.get(s) == "stand"} for s, h in sorted(self.hands.items())},
            "dice": None if self.thrown is None else list(self.thrown),
            "action_button": self.action,
            "checked_two_card_22": self.checked,
            "dead": [c.code for c in self.dead],
            "burned": self.burned,
            "result": self.outcome,
        }

    # --- restart -------------------------------------------------------------------------------------

    def save(self) -> dict:
        data = super().save()
        data["last_bank"] = self.last_bank
        return data

    def restore(self, saved: Any, stopped_in: str | None) -> None:
        """The rotation (PlayerDealer) and what G6 needs of the last settled round: a Banker's second
        hand after a restart is still told whether its bank must match its first."""
        super().restore(saved, stopped_in)
        last = saved.get("last_bank") if isinstance(saved, dict) else None
        if (isinstance(last, dict) and type(last.get("seat")) is int and 1 <= last["seat"] <= self.seats
                and any(last.get("lost_money") is v for v in (True, False, None))):
            self.last_bank = {"seat": last["seat"], "lost_money": last["lost_money"]}
