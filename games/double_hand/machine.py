"""Double-Hand Poker's round, as the controller sequences it (rule tags: games.double_hand.rules).

1. ``ready`` / ``betting``: the designated player holds the player-dealer position (the Palace's
   fee schedule for this game charges the "Player/Dealer"), rotated by games.round.rotation with
   the table's ``designated_turns`` (T: one round each by default); every seat wagers (P2) and
   ``deal`` is "no more bets".
2. ``dealing``, by steps:
   a. seven hands of seven from the hand-forming shuffler, face down in a row, place 1 (left) to
      7 (P3): each a ``hand`` prompt and one ``D`` delivery; each card a ``card`` event
      (``hand_<place>``, face down, no code). A hand of another size, a card the deck cannot
      hold, or an eighth hand is an alarm and the round can only be voided;
   b. the shuffler counts what it still holds (a ``count`` prompt, answered by its ``T``): seven
      hands of seven leave exactly 4 (GAMES.md); another count is a ``cards_left`` alarm (the
      round can only be voided, or with ``cards_left_wrong = "flag"`` it goes on, flagged);
   c. the designated player places the action button on a hand: the dealer presses the button
      of its place, ``hand_1`` .. ``hand_7`` (a ``press`` prompt naming the seat, P4);
   d. the designated player shakes three dice (a ``dice`` prompt); the total counts the
      positions clockwise from the designated player's left, and the ``action_button`` event
      names the seat that receives the selected hand and which hand every seat receives (P4-P5);
   e. the hands go out and the players set them face down (P5-P7): the dealer presses ``deal``
      when every hand is set (a ``press`` prompt that names where each hand goes);
   f. the showdown, the designated player's hand first, then clockwise from its left (P9-P10):
      each hand is turned up (a ``reveal`` of its seven cards), then the dealer says how it was
      set -- the pit command ``set_hand`` {seat, two, five} with the card codes, checked against
      that hand and against P7, or the ``house_way`` button (P8: the center dealer set it; the
      controller's house way, games.double_hand.rules.house_way). A ``reveal`` of the setting
      follows (``hand: "set"``).
3. ``result``: every seat's setting against the designated player's: each hand's comparison and
   the wager (O, P11, P12; ties by the ``ties`` option); the dead hands (fewer than seven
   positions) and the four cards left are never shown.

What never leaves the controller before its hand is turned up: any card of a hand (events,
state, logs, alarms, refusals). A refusal of ``set_hand`` names only the cards of the hand being
shown, never a code entered that is not in it (it may be a card of a hand still face down).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import Card, CardCodeError, card
from games.double_hand import rules
from games.double_hand.options import DoubleHandOptions
from games.round import (
    CARDS_IN_PLAY,
    LINK_FAULTS,
    DeviceRole,
    Emit,
    PlayerDealer,
    Refused,
    RoundMachine,
    Verdict,
)
from games.round.devices import alarm_code
from games.round.steps import DiceDue, PressDue, Step, Steps

HAND_BUTTONS: tuple[str, ...] = tuple(f"hand_{place}" for place in range(1, rules.HANDS + 1))
"""The dealer's buttons for the row's places, left to right: where the action button lies (P4)."""

ROLES: dict[str, DeviceRole] = {
    "shuffler": DeviceRole(kinds=("hand_shuffler",), needed_in=frozenset({"deck_check", "shuffle", "dealing"}),
                           prepares_deck=True, reads_cards=True),
    "cup": DeviceRole(kinds=("dice_cup",), needed_in=frozenset({"dealing"}), reads_dice=True),
}
"""GAMES.md: a (hand-forming) shuffler, a dice cup of three dice, the lights."""

@dataclass(frozen=True)
class HandDue:
    """The next hand of seven from the shuffler's tray, to ``place`` in the row (P3)."""

    place: int


@dataclass(frozen=True)
class CountDue:
    """The shuffler's count of the cards it still holds (exactly :data:`rules.LEFT`)."""


@dataclass(frozen=True)
class ActionDue:
    """The designated player places the action button on a hand (P4)."""

    seat: int


@dataclass(frozen=True)
class ShowDue:
    """``seat``'s hand is turned up and its setting is entered (P9-P10)."""

    seat: int
    designated: bool


DoubleHandStep = Step | HandDue | CountDue | ActionDue | ShowDue


class DoubleHandRound(Steps, PlayerDealer, RoundMachine):
    """The Double-Hand Poker round machine (API: docs/internals.md)."""

    game = "double_hand"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void", "pass", "house_way", *HAND_BUTTONS)
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("player_dealer",)
    ROLES = ROLES

    def __init__(self, options: DoubleHandOptions, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.row: dict[int, list[Card]] = {}
        self.cards_left: int | None = None
        self.selected: int | None = None
        self.thrown: tuple[int, ...] | None = None
        self.first: int | None = None
        self.out: dict[int, int] = {}
        self.hands_set = False
        self.shown: dict[int, list[str]] = {}
        self.sets: dict[int, rules.SetHand] = {}
        self.set_by: dict[int, str] = {}
        self.outcome: dict[str, Any] | None = None
        self.flagged: str | None = None
        super().__init__(spec=options.spec, emit=emit, seats=options.seats,
                         player_dealer_seat=options.first_designated_player,
                         player_dealer_limit=options.designated_turns, first_round=first_round)

    def _clear_layout(self) -> None:
        self.row, self.cards_left, self.selected, self.thrown, self.first = {}, None, None, None, None
        self.out, self.hands_set, self.shown, self.sets, self.set_by = {}, False, {}, {}, {}
        self.outcome, self.flagged = None, None

    @property
    def designated(self) -> int:
        """The round's designated player (the player-dealer position's holder)."""
        return self.rotation.seat

    # --- the steps ------------------------------------------------------------------------

    def _next_step(self) -> DoubleHandStep | None:  # type: ignore[override]
        for place in range(1, rules.HANDS + 1):
            if place not in self.row:
                return HandDue(place)
        if self.cards_left is None:
            return CountDue()
        if self.selected is None:
            return ActionDue(self.designated)
        if self.thrown is None:
            return DiceDue(rules.DICE, self.designated, "the designated player's throw: the total counts the "
                                                        "positions clockwise from its left, P4")
        if not self.hands_set:
            return PressDue("deal", "press", self._setting_text())
        for seat in rules.showdown_order(self.designated, self.seats):
            if seat not in self.sets:
                return ShowDue(seat, seat == self.designated)
        return None

    def _setting_text(self) -> str:
        goes = ", ".join(f"hand {place} to seat {seat}" for seat, place in
                         sorted(self.out.items(), key=lambda kv: (kv[0] - (self.first or 1)) % self.seats))
        dead = rules.dead_hands(self.out)
        unused = f"; hand{'s' if len(dead) > 1 else ''} {', '.join(map(str, dead))} not dealt (dead)" if dead else ""
        return (f"The hands go out clockwise: {goes}{unused} (P4-P5). The players set them face down, two cards "
                f"in front and five behind (P6-P7); press deal when every hand is set")

    def _step_done(self) -> None:
        """A step is done: when the next is a hand to turn up, its seven cards go out first (the
        hand is face up from now on, so a refusal of its setting may name them)."""
        step = self._next_step() if self.state == "dealing" else None
        if isinstance(step, ShowDue) and step.seat not in self.shown:
            seven = self.row[self.out[step.seat]]
            self.shown[step.seat] = rules.in_rank_order(seven)
            self._emit("reveal", {"hand": "seat", "seat": step.seat, "cards": self.shown[step.seat],
                                  "designated": step.designated})
        super()._step_done()

    # --- prompts ----------------------------------------------------------------------------

    def _dealing_prompt(self) -> dict:
        step = self._next_step()
        if isinstance(step, HandDue):
            return {"expect": "hand", "hand": f"hand_{step.place}", "count": rules.CARDS,
                    "text": f"Take the next hand of {rules.CARDS} from the shuffler's tray to place {step.place} "
                            f"of the row, face down (hands 1 to {rules.HANDS}, left to right, P3)."}
        if isinstance(step, CountDue):
            return {"expect": "count", "hand": None, "count": rules.LEFT,
                    "text": f"Have the shuffler count the cards it still holds: {rules.HANDS} hands of "
                            f"{rules.CARDS} from {rules.DECK} leave exactly {rules.LEFT} (P3, D)."}
        if isinstance(step, ActionDue):
            return {"expect": "press", "hand": None, "seat": step.seat,
                    "text": f"Seat {step.seat}, the designated player, places the action button on a hand: press "
                            f"the button of its place in the row, hand_1 (left) to hand_{rules.HANDS} (P4)."}
        if isinstance(step, ShowDue):
            whose = "the designated player's hand, first (P9)" if step.designated else \
                f"compared with seat {self.designated}'s, the designated player's (P10)"
            return {"expect": "press", "hand": "seat", "seat": step.seat,
                    "text": f"Turn up seat {step.seat}'s hand, {whose}: enter its two-card and five-card hands "
                            f"(pit cmd/set_hand with seat {step.seat}), or press house_way if it is set the house "
                            "way (P8). The five-card hand must outrank the two-card hand (P7)."}
        return super()._dealing_prompt()

    def _due_text(self) -> str:
        step = self._next_step()
        if isinstance(step, HandDue):
            return f"hand {step.place} of {rules.HANDS}: {rules.CARDS} cards from the shuffler (P3)"
        if isinstance(step, CountDue):
            return f"no card: the shuffler's count of the cards it holds, {rules.LEFT} (P3)"
        if isinstance(step, ActionDue):
            return f"no card: seat {step.seat} places the action button (hand_1..hand_{rules.HANDS}, P4)"
        if isinstance(step, ShowDue):
            return f"no card: seat {step.seat}'s setting (cmd/set_hand or house_way, P7-P10)"
        return super()._due_text()

    def _buttons(self) -> list[str]:
        lit = super()._buttons()
        step = self._next_step() if self.state == "dealing" else None
        if isinstance(step, ActionDue):
            lit += [b for b in HAND_BUTTONS if b not in lit]
        elif isinstance(step, ShowDue) and "house_way" not in lit:
            lit.append("house_way")
        return lit

    # --- the hands ------------------------------------------------------------------------

    def _input_hand_delivered(self, role: str, cards: Sequence[Card]) -> None:
        """One hand from the shuffler's tray (a ``D``): checked card by card against the deck,
        then its size; its cards are face down and named nowhere."""
        cards = tuple(cards)
        step = self._next_step() if self.state == "dealing" else None
        if not isinstance(step, HandDue):
            self._hand_not_due(role, cards)
            return
        for c in cards:
            fault = self.ledger.take(c)
            if fault is not None:
                code = "foreign_card" if fault.kind == "foreign" else "card_too_many"
                why = (f"hand {step.place} holds a card the deck cannot hold ({'a foreign card' if code == 'foreign_card' else 'a copy too many'}): "
                       "the hands no longer come from one proved deck (D)")
                self._alarm(code, "fault", why, expected=self._due_text(),
                            action="void the round; check the deck (a deck check follows the shuffle)")
                self._enter_fault(code, why, no_resume=why)
                return
        if len(cards) != rules.CARDS:
            why = (f"the shuffler delivered {len(cards)} card(s) for hand {step.place}: a Double-Hand Poker hand is "
                   f"{rules.CARDS} (P3)")
            self._alarm("hand_size", "fault", why, expected=self._due_text(), action="void the round; check the shuffler")
            self._enter_fault("hand_size", why, no_resume=why)
            return
        self.row[step.place] = list(cards)
        for position in range(1, rules.CARDS + 1):
            self._emit("card", {"hand": f"hand_{step.place}", "position": position, "face": "down"})
        self._step_done()

    def _hand_not_due(self, role: str, cards: tuple[Card, ...]) -> None:
        """A hand when none is due. Its cards left the shuffler face down: each is taken from the
        deck's ledger (what the shuffler still holds is less by them) and none is named."""
        n = len(cards)
        if self.state not in CARDS_IN_PLAY:
            if self.state != "closed":
                self._alarm("hand_not_due", "warning",
                            f"the {role} delivered a hand of {n} card(s) in state {self.state}: no hand is due (P3)",
                            expected=self._expected_text(), action="put the cards back in the shuffler")
            return
        wrong = sum(1 for c in cards if self.ledger.take(c) is not None)
        odd = f"; {wrong} of its cards cannot be in the deck" if wrong else ""
        if self.state == "dealing" or (self.state == "fault" and self.fault is not None
                                       and self.fault.origin == "dealing"):
            why = (f"the {role} delivered an eighth hand ({n} card(s)){odd}: Double-Hand Poker deals exactly "
                   f"{rules.HANDS} hands of {rules.CARDS}, leaving {rules.LEFT} cards (P3)")
            self._alarm("extra_hand", "fault", why, expected=self._expected_text(),
                        action="void the round: the cards left are no longer the four the rules leave")
            self._enter_fault("extra_hand", why, no_resume=why)
            return
        why = f"the {role} delivered a hand of {n} card(s) in state {self.state}{odd}: no hand is due (P3)"
        if self.state == "betting":
            self._alarm("hand_not_due", "fault", why, expected=self._expected_text(),
                        action="void the round: its cards go back to the shuffler for a new shuffle")
            self._enter_fault("hand_not_due", why, no_resume="a hand left the shuffler before the deal")
        elif self.state == "ready":
            self._alarm("hand_not_due", "warning", why, expected=self._expected_text(),
                        action="gather every card into the shuffler: a new shuffle follows")
            self._fire("shoe_finished")
        else:
            self._alarm("hand_not_due", "warning", why, expected=self._expected_text(),
                        action="set the cards aside with the round's: they go back at the next shuffle")

    def _input_card_count(self, role: str, count: int) -> None:
        """The shuffler's count of what it holds: due once, after the seven hands (GAMES.md: exactly 4
        cards remain). A count at any other time is a count on request: nothing depends on it."""
        step = self._next_step() if self.state == "dealing" else None
        if not isinstance(step, CountDue):
            return
        self.cards_left = count
        if count == rules.LEFT:
            self._step_done()
            return
        why = (f"the {role} counts {count} card(s) left after {rules.HANDS} hands of {rules.CARDS}: {rules.DECK} cards "
               f"leave exactly {rules.LEFT} (P3, D)")
        if self.options.cards_left_wrong == "flag":
            self.flagged = why
            self._alarm("cards_left", "warning", why + "; the round goes on, flagged (cards_left_wrong = flag)",
                        expected=f"{rules.LEFT} cards left", action="the pit reviews the round; check the deck after it")
            self._step_done()
            return
        self.cards_left = None
        self._alarm("cards_left", "fault", why, expected=f"{rules.LEFT} cards left",
                    action="void the round (a misdeal); a deck check follows")
        self._enter_fault("cards_left", why, no_resume=why)

    # --- the action button and the dice -------------------------------------------------------

    def _select(self, place: int) -> None:
        self.selected = place
        self._step_done()

    def _button_hand_1(self) -> None:
        self._select(1)

    def _button_hand_2(self) -> None:
        self._select(2)

    def _button_hand_3(self) -> None:
        self._select(3)

    def _button_hand_4(self) -> None:
        self._select(4)

    def _button_hand_5(self) -> None:
        self._select(5)

    def _button_hand_6(self) -> None:
        self._select(6)

    def _button_hand_7(self) -> None:
        self._select(7)

    def _dice_data(self, due: DiceDue, values: tuple[int, ...]) -> dict[str, Any]:
        return {"reaches": rules.first_seat(sum(values), self.designated, self.seats), "hand": self.selected}

    def _shaken(self, due: DiceDue, values: tuple[int, ...]) -> None:
        assert self.selected is not None
        self.thrown = values
        self.first = rules.first_seat(sum(values), self.designated, self.seats)
        self.out = rules.hands_out(self.selected, self.first, self.seats)
        self.action_seat = self.first
        self._emit("action_button", {
            "seat": self.first, "hand": self.selected, "total": sum(values),
            "counted_from": self.designated % self.seats + 1, "designated_player": self.designated,
            "hands_out": {str(seat): place for seat, place in sorted(self.out.items())},
            "dead_hands": rules.dead_hands(self.out)})

    def _pressed(self, due: PressDue) -> None:
        self.hands_set = True

    # --- the settings -------------------------------------------------------------------------

    def _showing(self) -> ShowDue | None:
        step = self._next_step() if self.state == "dealing" else None
        return step if isinstance(step, ShowDue) else None

    def _button_house_way(self) -> None:
        step = self._showing()
        assert step is not None  # lit only then
        seven = self.row[self.out[step.seat]]
        self._set(step.seat, rules.house_way(seven, self.options.poker), "house_way")

    def _command_set_hand(self, args: Mapping[str, Any]) -> dict:
        """Pit ``cmd/set_hand`` {seat, two, five}: how the hand being shown was set (P6-P7)."""
        seat, two_codes, five_codes = args["seat"], list(args["two"]), list(args["five"])
        step = self._showing()
        if step is None:
            raise Refused(f"no hand is being set now: {self._expected_text()}")
        if seat != step.seat:
            when = "was set already" if seat in self.sets else "is turned up later"
            if not 1 <= seat <= self.seats:
                when = f"is not one of seats 1..{self.seats}"
            raise Refused(f"seat {step.seat}'s hand is being set; seat {seat} {when} (P9-P10: the designated "
                          "player's hand first, then clockwise from its left)")
        entered = [self._entered(code, f"{key}[{i}]") for key, codes in (("two", two_codes), ("five", five_codes))
                   for i, code in enumerate(codes)]
        hand = self.row[self.out[seat]]
        if Counter(entered) != Counter(hand):
            raise Refused(self._mismatch(seat, hand, entered))
        try:
            setting = rules.arrange(entered[:rules.TWO], entered[rules.TWO:], self.options.poker)
        except rules.SetError as exc:
            raise Refused(f"seat {seat}: {exc}; set it again") from None
        self._set(seat, setting, "dealer")
        return {"seat": seat, **setting.to_dict()}

    def _entered(self, code: str, where: str) -> Card:
        """A code the dealer typed, at ``where`` (``five[2]``). A code that is not a card of this
        deck is refused by its place, never quoted: the refusal is published, and what was typed
        may be a card of a hand still face down, mistyped (controller.table.commands)."""
        try:
            found = card(code)
        except CardCodeError:
            raise Refused(f"{where} is not a card code: a rank (2-10, J, Q, K, A) then a suit (C, D, H, S), "
                          "or JK for the joker") from None
        if self.spec.counts.get(found, 0) == 0:
            raise Refused(f"{where} is not a card of this deck (52 cards and a joker, D)")
        return found

    def _mismatch(self, seat: int, hand: Sequence[Card], entered: Sequence[Card]) -> str:
        """Why the codes are not seat ``seat``'s seven cards, naming only cards of that hand (it is
        turned up): which of them were not entered or entered twice, and how many codes entered
        are not in it -- never those codes, which may be cards still face down in another hand."""
        have, got = Counter(hand), Counter(entered)
        missing = rules.in_rank_order(list((have - got).elements()))
        twice = rules.in_rank_order([c for c in got if c in have and got[c] > have[c]])
        foreign = sum(n for c, n in got.items() if c not in have)
        parts = []
        if missing:
            parts.append(f"{', '.join(missing)} of its hand {'is' if len(missing) == 1 else 'are'} not entered")
        if twice:
            parts.append(f"{', '.join(twice)} {'is' if len(twice) == 1 else 'are'} entered twice")
        if foreign:
            parts.append(f"{foreign} code{'s' if foreign > 1 else ''} entered {'is' if foreign == 1 else 'are'} not "
                         "in it")
        return (f"the codes entered are not seat {seat}'s seven cards (P6: a player sets the seven cards he was "
                f"dealt): {'; '.join(parts)}")

    def _set(self, seat: int, setting: rules.SetHand, by: str) -> None:
        self.sets[seat] = setting
        self.set_by[seat] = by
        two, five = rules.in_rank_order(setting.two), rules.in_rank_order(setting.five)
        self._emit("reveal", {"hand": "set", "seat": seat, "cards": two + five, "two": two, "five": five,
                              "two_hand": rules.describe(setting.two_rank),
                              "five_hand": rules.describe(setting.five_rank), "set_by": by})
        self._step_done()

    # --- presses out of place ---------------------------------------------------------------

    def press(self, name: str, seat: int | None = None) -> Verdict:
        """The row's buttons, ``house_way`` and ``deal`` out of place get the reason in this
        game's words; everything else as every game."""
        if seat is None and name in self.BUTTONS and name not in self._buttons():
            step = self._next_step() if self.state == "dealing" else None
            if name in HAND_BUTTONS:
                where = (f"the action button is on hand {self.selected} already (P4)" if self.selected is not None
                         else "the action button is placed after the seven hands are dealt and counted (P3-P4)")
                if self.state != "dealing":
                    where = f"no round is being dealt (state {self.state})"
                return self._refuse(name, None, f"{name} is not lit: {where}")
            if name == "house_way":
                return self._refuse(name, None, f"house_way is not lit: no hand is turned up to set now "
                                                f"({self._expected_text()})")
            if name == "deal" and step is not None and not isinstance(step, HandDue):
                return self._refuse(name, None, f"deal is not lit: {self._due_text()}")
        return super().press(name, seat)

    # --- devices ------------------------------------------------------------------------------

    def _needs_shuffler(self) -> bool:
        """In ``dealing`` the shuffler is needed until the seven hands are out and counted."""
        return isinstance(self._next_step(), (HandDue, CountDue))

    def device_fault(self, device: str, code: str, detail: str) -> None:
        """The shuffler's link going down once every hand is out and counted is a warning: the
        round no longer needs it (the next shuffle waits for it)."""
        role = self.ROLES.get(device)
        if (role is not None and role.reads_cards and self.state == "dealing" and code in LINK_FAULTS
                and not self._needs_shuffler()):
            what = "went offline" if code == "offline" else f"lost its link ({code})"
            self._alarm(alarm_code(device, code), "warning",
                        f"the {device} {what} during round {self.round}: every hand is out and counted, so the "
                        "round goes on without it", expected=self._expected_text(),
                        action=f"check the {device}'s cable and power before the next shuffle")
            return
        super().device_fault(device, code, detail)

    def _waiting_for(self) -> tuple[str, str] | None:
        found = super()._waiting_for()
        if found is None or self.state != "dealing" or self._needs_shuffler():
            return found
        policy = self.ROLES.get(found[0])
        if policy is None or not policy.reads_cards:
            return found
        if self._dice_due() is not None:   # the cup may still be what the step waits for
            for role, why in sorted(self.down.items()):
                cup = self.ROLES.get(role)
                if cup is not None and cup.reads_dice:
                    return role, why
        return None

    # --- result -------------------------------------------------------------------------------

    def _entered_result(self) -> None:
        assert self.thrown is not None and self.selected is not None and self.first is not None
        out = rules.outcome(self.designated, self.sets, self.options.ties)
        for seat, data in out["seats"].items():
            data["set_by"] = self.set_by[int(seat)]
        out["designated"]["set_by"] = self.set_by[self.designated]
        self.outcome = {
            "designated_player": self.designated, "selected_hand": self.selected, "dice": list(self.thrown),
            "total": sum(self.thrown), "first_seat": self.first,
            "hands_out": {str(seat): place for seat, place in sorted(self.out.items())},
            "dead_hands": rules.dead_hands(self.out), "cards_left": self.cards_left,
            "flagged": self.flagged, "ties": self.options.ties, **out}
        self._emit("result", self.outcome)

    def _snapshot_game(self) -> dict:
        return {"designated_player": self.designated, "row": sorted(self.row), "cards_left": self.cards_left,
                "selected_hand": self.selected, "dice": list(self.thrown) if self.thrown else None,
                "hands_out": {str(s): p for s, p in sorted(self.out.items())},
                "shown": {str(s): c for s, c in sorted(self.shown.items())},
                "sets": {str(s): {**h.to_dict(), "set_by": self.set_by[s]} for s, h in sorted(self.sets.items())},
                "result": self.outcome}
