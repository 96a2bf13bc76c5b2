"""Panguingue's round ("hand"), as the controller sequences it (california-card-room-games.txt,
"PANGUINGUE (also called PAN)" and "PAN RULES").

The house dealer pitches the cards by hand: no device reads them, and Pan has no showdown by poker
ranks. The controller proves the deck and sequences the hand:

1. ``deck_check`` (new decks) and ``shuffle``: the shuffler checks the 320 (or 400) cards of the
   eight (ten) decks of 40 card by card against the spec, naming missing and extra cards; every
   shuffle's count is checked. A shuffle follows every hand.
2. ``betting``: the hand has a number and its players (the seats in: seat buttons ``sit_out``,
   ``sit_in``), its first seat -- the previous winner, lit on the ``dealer_button`` seat lights -- and
   its fee and ante by condition. ``deal`` starts the hand: an ``action_button`` event publishes
   the first seat, the dealing order, the players and the collection.
3. ``dealing``: the deal plan (games.poker.deal_plan ``panguingue``, then the play):
   ``collect`` the fee and the antes (press), ``deal`` ten cards each in two rounds of five to the
   right (press), ``declare`` (each seat in turn presses ``play`` or ``throw_in``: a ``decision``
   prompt, the ``turn`` light), ``draw`` the play (press, once a player went out). A count of a
   seat's cards (``cmd/count``) is taken from the deal to the end of the play and ruled by the
   sheet (games.panguingue.rules.count_ruling): a ``hand_status`` event says alive, corrected,
   dead or foul, and why. The winner is entered while the play is due (``cmd/winner``): a
   ``hand_status`` with status ``winner``. When every other live seat has thrown in, the last is
   the winner without play.
4. ``result``: the players, the collection, each seat's hand, the winner, the Tops and the antes
   returned, and where the next deal starts. ``deal`` settles and the cards go back to the shuffler.

A voided hand is dealt again from the same first seat: nobody won it.

Secrecy: the controller never learns a card of this game: no event, prompt, state or reply names
one, and a refusal names a seat and a number, never a card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.panguingue import rules
from games.panguingue.options import PanOptions
from games.poker.deal_plan import Step as PlanStep
from games.poker.pitched import PitchedRound, money
from games.round import Emit, Refused
from games.round.steps import DecisionDue, PressDue

DECLARE: tuple[str, ...] = ("play", "throw_in")
"""DECLARING: "A knock in turn means you will play"; not playing, "he throws his hand into the discards"."""
COUNTED_IN: tuple[str, ...] = ("deal", "declare", "draw")
"""The steps during which a count of a seat's cards is taken: from the deal to the end of the play."""


class PanRound(PitchedRound):
    """Panguingue's round machine (API: docs/internals.md; the hand: docs/panguingue.md)."""

    game = "panguingue"
    TABLE = "Panguingue"
    SEAT_BUTTONS: ClassVar[tuple[str, ...]] = ("sit_out", "sit_in", *DECLARE)
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("dealer_button", "turn")
    """``dealer_button``: the seat the deal starts with (the previous winner): Pan has no button, and
    this is what the button tells the dealer in the other poker games. ``turn``: the seat to declare."""

    def __init__(self, options: PanOptions, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.steps: tuple[PlanStep, ...] = options.steps
        self.seated: set[int] = set(options.seats_in if options.seats_in is not None
                                    else range(1, options.seats + 1))
        self.start = options.first_seat         # where the next deal starts: the previous winner
        self.start_why = "the first hand: game.first_seat"
        self.players: frozenset[int] = frozenset()
        self.order: list[int] = []              # this hand's seats in dealing order
        self.take: dict[str, Any] | None = None
        self.done = 0                           # plan steps done this hand
        self.declared: dict[int, str] = {}
        self.statuses: dict[int, str] = {}      # seat -> the last count's ruling (alive, corrected, dead, foul)
        self.counts: dict[int, int] = {}
        self.returned: set[int] = set()         # dead hands: the ante goes back (rule 7)
        self.winner: int | None = None
        self.how: str | None = None             # how the hand was decided without an entry (rules.settle)
        self.outcome: dict[str, Any] | None = None
        super().__init__(spec=options.spec, emit=emit, seats=options.seats, first_round=first_round)

    # --- the hand's players, first seat and collection ----------------------------------------

    def _place_players(self) -> None:
        if len(self.seated) < 2:
            self.players, self.order, self.take = frozenset(), [], None
            return
        self.players = frozenset(self.seated)
        self.order = rules.deal_order(self.seats, self.players, self.start)
        self.take = rules.collection(self.options.economics, len(self.players), self.options.schedule_name)

    def _first_why(self) -> str:
        if self.order and self.order[0] != self.start:
            return f"{self.start_why}, seat {self.start}, is not in: the first seat in to his right"
        return self.start_why

    def _entered_betting(self) -> None:
        super()._entered_betting()
        self._place_players()

    def _clear_layout(self) -> None:
        self.done, self.declared, self.statuses, self.counts = 0, {}, {}, {}
        self.returned, self.winner, self.how, self.outcome = set(), None, None, None

    def _entered_dealing(self) -> None:
        self._emit("action_button", {"seat": self.order[0], "why": self._first_why(), "order": list(self.order),
                                     "players": sorted(self.players), "condition": self.options.condition,
                                     "collection": self.take})

    def _out(self) -> set[int]:
        return {s for s, status in self.statuses.items() if status in ("dead", "foul")}

    # --- the steps (games.poker.deal_plan, then the play) ---------------------------------------

    def _next_step(self) -> PressDue | DecisionDue | None:  # type: ignore[override]
        if self.done >= len(self.steps):
            return None
        step = self.steps[self.done]
        if step.action == "declare":
            due = rules.next_declarer(self.order, self.declared, self._out())
            if due is not None:
                seat, choices = due
                why = ("every other seat has thrown its hand in: play takes the Tops" if choices == ("play",)
                       else "DECLARING: a knock in turn means play; throwing the hand in forfeits the ante")
                return DecisionDue(seat, choices, why)
        return PressDue("deal", "press", self._step_text(step))

    def _pressed(self, due: PressDue) -> None:
        super()._pressed(due)
        self._advance()

    def _decide(self, seat: int, choice: str) -> None:
        self.declared[seat] = choice
        self._advance()

    def _advance(self) -> None:
        """Past the declarations once every live seat has declared; then, with one seat in action,
        the hand is his without play (rules choice 3), and with none nobody's."""
        while self.done < len(self.steps) and self.steps[self.done].action == "declare":
            if rules.next_declarer(self.order, self.declared, self._out()) is not None:
                return
            self.done += 1
            live = rules.playing(self.order, self.declared, self._out())
            if len(live) <= 1 and self.done < len(self.steps) and self.steps[self.done].action == "draw":
                self.done += 1          # no play
                if live:
                    self.winner, self.how = live[0], "last_seat"
                    self._emit("hand_status", {"seat": live[0], "status": "winner", "cards": None,
                                               "reason": "every other hand is thrown in or dead: the only player "
                                                         "left in action takes the Tops without play",
                                               "rule": "DECLARING", "action": f"push the Tops to seat {live[0]}"})
                else:
                    self.how = "none_playing"

    def _after_step(self) -> None:
        """A declaration or a ruling was taken: the hand is over, or the next request goes out (not
        the same one again: a prompt is a request, and asked twice it is answered twice)."""
        if self._next_step() is None:
            self._fire("hands_complete")
        else:
            self._publish_prompt_if_changed()

    # --- one prompt per step ---------------------------------------------------------------------

    _shown_step: Any = None

    def _step_key(self) -> tuple[Any, ...]:
        """What a prompt asks for, as the dealer answers it: the state, the step of the hand, the
        seat a decision waits for, the device the table waits for -- not its words. A count during
        the play changes the play's words (who draws, a seat left alone) but not the step: the
        dealer's one press still ends the play."""
        step = self._next_step() if self.state == "dealing" else None
        seat = step.seat if isinstance(step, DecisionDue) else None
        waiting = self._waiting_for() if self.state != "fault" else None
        return (self.state, self.round, self.done, seat, waiting[0] if waiting else None)

    def _publish_prompt(self) -> None:
        self._shown_step = self._step_key()
        super()._publish_prompt()

    def _publish_prompt_if_changed(self) -> None:
        """One prompt per step: a prompt whose words changed for the same step (a count during the
        play) is not published again -- a dealer who follows prompts would press twice, and the
        second press ends the hand; the state topic's prompt carries the new words."""
        if self.state == "dealing" and self._step_key() == self._shown_step:
            return
        super()._publish_prompt_if_changed()

    def _step_text(self, step: PlanStep) -> str:
        assert self.take is not None
        n = len(self.players)
        if step.action == "collect":
            t = self.take
            return (f"Hand {self.round} (condition {money(t['condition'])}): collect the fee {money(t['fee_each'])} "
                    f"and the ante {money(t['ante_each'])} from each of the {n} players (fee {money(t['fee'])}; "
                    f"the antes, {money(t['ante'])}, go on the block: the Tops); press deal.")
        if step.action == "deal":
            return (f"Deal ten cards to each player in two rounds of five, to the right, starting with seat "
                    f"{self.order[0]} ({self._first_why()}): seats {', '.join(map(str, self.order))}; "
                    "press deal.")
        if step.action == "draw":
            live = rules.playing(self.order, self.declared, self._out())
            if self.winner is not None:
                return f"Seat {self.winner} is entered as the winner; press deal when the hand is over."
            if not live:
                return "No hand is left in action: press deal to end the hand."
            if len(live) == 1 and self._out():
                return (f"Seat {live[0]} is the only player left in action (the other hands are dead or foul): he "
                        "settles with the fouled players or plays the hand out face up under the dealer's "
                        "supervision (FOUL HANDS AND CARDS 5); enter the winner (cmd/winner); press deal when "
                        "the hand is over.")
            drawn = rules.draw_order(self.seats, live, self.order[0])
            note = ("" if drawn[0] == self.order[0] else
                    f" (seat {self.order[0]}, the first seat, does not play: the first player to his right "
                    "draws first)")
            return (f"The draw begins with seat {drawn[0]}{note}, who draws twice on the first draw, then to the "
                    f"right: seats {', '.join(map(str, drawn))}. When a player goes out, enter the winner "
                    "(cmd/winner); press deal when the hand is over.")
        return f"{step.action}: press deal."

    # --- betting and the seats in -------------------------------------------------------------

    def _can_deal(self) -> bool:
        return bool(self.players)

    def _betting_text(self) -> str:
        return (f"Hand {self.round}: {len(self.players)} players (seats "
                f"{', '.join(map(str, sorted(self.players)))}); the deal starts with seat {self.order[0]} "
                f"({self._first_why()}); press deal to start the hand.")

    def _seats_changed(self, name: str, seat: int) -> None:
        if self.state == "betting":      # before the deal: this hand's players follow at once
            self._place_players()

    def _prompt_for_state(self) -> dict:
        prompt = super()._prompt_for_state()
        if self.state == "result" and self.outcome is not None:
            won = self.outcome["winner"]
            tops = money(self.outcome["tops"])
            who = f"push the Tops ({tops}) to seat {won}" if won is not None else f"no winner: settle the Tops ({tops})"
            back = self.outcome["antes_returned"]
            returned = f", return the ante of seat {', '.join(map(str, back))}" if back else ""
            prompt["text"] = (f"Hand {self.round} is over: {who}{returned}; gather every card for the shuffler, "
                              "press deal for the shuffle.")
        return prompt

    def _light_seats(self) -> dict[str, list[int]]:
        seats = super()._light_seats()
        lit = self.state in ("betting", "dealing", "result") and bool(self.order)
        return {**seats, "dealer_button": [self.order[0]] if lit else []}

    # --- declarations: the seat buttons play and throw_in ---------------------------------------

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        if name not in DECLARE:
            return super()._seat_refusal(name, seat)
        due = self._deciding()
        if due is None:
            now = self._step()
            doing = f", {now.action} is due" if now is not None else ""
            return f"no declaration is due (state {self.state}{doing})"
        if name == "play" and rules.may_change_to_play(seat, self.order, self.declared, self._out()):
            return None
        if seat != due.seat:
            if seat not in self.players:
                return f"seat {seat} is not in this hand"
            if seat in self._out():
                return f"seat {seat}'s hand is {self.statuses[seat]}: it does not declare"
            if seat in self.declared:
                return (f"seat {seat} has declared ({self.declared[seat]}); a seat may change to play only until "
                        "the next player has declared (DECLARING)")
            return f"seat {due.seat} declares first"
        if name not in due.choices:
            return f"seat {seat} may press {' or '.join(due.choices)} now, not {name} ({due.why})"
        return None

    def _seat_pressed(self, name: str, seat: int) -> None:
        if name not in DECLARE:
            super()._seat_pressed(name, seat)
            return
        self._decide(seat, name)
        self._after_step()

    def _seat_buttons_lit(self) -> dict[str, list[int]]:
        lit = super()._seat_buttons_lit()
        due = self._deciding()
        if due is not None:
            change = [s for s in self.declared if rules.may_change_to_play(s, self.order, self.declared, self._out())]
            lit["play"] = sorted({due.seat, *change})
            if "throw_in" in due.choices:
                lit["throw_in"] = [due.seat]
        return lit

    # --- the pit's entries: a count, the winner -------------------------------------------------

    def _hand_seat(self, args: Mapping[str, Any]) -> int:
        seat = args.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise Refused("seat is a seat number")
        if seat not in self.players:
            who = ", ".join(map(str, sorted(self.players))) or "none"
            raise Refused(f"seat {seat} is not in hand {self.round}: the players are {who}")
        return seat

    def _command_count(self, args: Mapping[str, Any]) -> dict:
        """``cmd/count`` {"seat", "cards", "touched_deck"?, "before_second_five"?}: a seat's cards as
        counted, ruled by the sheet (games.panguingue.rules.count_ruling) and published as a
        ``hand_status``."""
        step = self._step()
        if step is None or step.action not in COUNTED_IN:
            now = f", {step.action} is due" if step is not None else ""
            raise Refused(f"no count is taken now (state {self.state}{now}): a count is taken from the deal to the "
                          "end of the play")
        seat = self._hand_seat(args)
        touched = args.get("touched_deck", False)
        early = args.get("before_second_five", False)
        if not isinstance(touched, bool) or not isinstance(early, bool):
            raise Refused("touched_deck and before_second_five are true or false")
        if touched and step.action != "draw":
            raise Refused(f"nobody has touched the deck yet ({step.action} is due): the draw has not begun")
        if touched and early:
            raise Refused("before_second_five is a count before touching the deck, not after")
        if seat in self._out():
            raise Refused(f"seat {seat}'s hand is already {self.statuses[seat]}: it is out of this hand")
        if self.declared.get(seat) == "throw_in":
            raise Refused(f"seat {seat} threw its hand in: it is not counted")
        if seat == self.winner:
            raise Refused(f"seat {seat} is entered as the winner: enter the winner again first (cmd/winner)")
        try:
            ruling = rules.count_ruling(args.get("cards"), touched_deck=touched, before_second_five=early,
                                        nine_cards=self.options.nine_cards)
        except rules.EntryError as exc:
            raise Refused(str(exc)) from None
        cards = args["cards"]
        self.counts[seat], self.statuses[seat] = cards, ruling.status
        if ruling.ante_returned:
            self.returned.add(seat)
        self._emit("hand_status", {"seat": seat, "status": ruling.status, "cards": cards, "touched_deck": touched,
                                   "reason": ruling.reason, "rule": ruling.rule, "action": ruling.action})
        self._advance()
        self._after_step()
        return {"seat": seat, "status": ruling.status, "reason": ruling.reason, "action": ruling.action}

    def _command_winner(self, args: Mapping[str, Any]) -> dict:
        """``cmd/winner`` {"seat"}: the seat that went out, while the play is due. Entered again, the
        new seat replaces the first (both are published)."""
        step = self._step()
        if step is None or step.action != "draw":
            now = f", {step.action} is due" if step is not None else ""
            raise Refused(f"no winner is due (state {self.state}{now}): the winner is entered during the play, "
                          "before the dealer presses deal")
        seat = self._hand_seat(args)
        why = rules.winner_refusal(seat, self.players, self.declared, self.statuses)
        if why is not None:
            raise Refused(why)
        before = self.winner
        if before == seat:
            raise Refused(f"seat {seat} is already entered as the winner")
        self.winner, self.how = seat, "entered"
        if before is not None:
            self._emit("hand_status", {"seat": before, "status": self.statuses.get(before, "alive"),
                                       "cards": self.counts.get(before),
                                       "reason": f"no longer the winner: seat {seat} is entered in its place",
                                       "rule": "rule 9: 'There are no ties in this game'", "action": "none"})
        self._emit("hand_status", {"seat": seat, "status": "winner", "cards": None,
                                   "reason": "went out: entered as the winner" + (
                                       f" in place of seat {before}" if before is not None else ""),
                                   "rule": "rule 6: 'the player who is first to meld 11 cards face-up on the "
                                           "table wins the hand'",
                                   "action": f"the Tops to seat {seat}; the dealer calls the pay for the hand"})
        return {"winner": seat}

    # --- the result -----------------------------------------------------------------------------

    def _entered_result(self) -> None:
        assert self.take is not None
        how = self.how or ("entered" if self.winner is not None else "not_entered")
        self.outcome = rules.settle(self.order, statuses=self.statuses, declared=self.declared, counts=self.counts,
                                    returned=self.returned, winner=self.winner, start=self.order[0], how=how,
                                    ante_each=self.take["ante_each"])
        if self.winner is not None:
            self.start, self.start_why = self.winner, "the previous winner"
        else:
            self.start, self.start_why = self.order[0], f"no winner of hand {self.round}: the same first seat"
        self._emit("result", {"first_seat": self.order[0], "order": list(self.order),
                              "players": sorted(self.players), "condition": self.options.condition,
                              "collection": self.take, **self.outcome})

    # --- restart and snapshot -------------------------------------------------------------------

    def save(self) -> dict:
        data = super().save()
        data["panguingue"] = {"seated": sorted(self.seated), "start": self.start, "start_why": self.start_why}
        return data

    def restore(self, saved: Mapping[str, Any], stopped_in: str | None) -> None:
        """The seats in and the next first seat (the last winner) go on across a restart; a saved
        picture that does not fit this table is dropped, and the alarm says so."""
        super().restore(saved, stopped_in)
        mine = saved.get("panguingue")
        if not isinstance(mine, Mapping):
            return
        try:
            seated = {int(s) for s in mine["seated"]}
            start = mine["start"]
            if isinstance(start, bool) or not isinstance(start, int):
                raise TypeError("start is a seat number")
            if not all(1 <= s <= self.seats for s in (*seated, start)):
                raise ValueError("a seat beyond this table")
            why = str(mine.get("start_why", "the previous winner"))
        except (KeyError, TypeError, ValueError):
            self._alarm("panguingue_seats_reset", "warning",
                        "the seats in and the first seat could not be carried over from before the restart",
                        action="check the seats in (seat buttons sit_in, sit_out); the next deal starts with "
                               f"seat {self.start} (game.first_seat)")
            return
        self.seated, self.start, self.start_why = seated, start, why

    def _snapshot_game(self) -> dict:
        step = self._step()
        return {"condition": self.options.condition, "seats_in": sorted(self.seated),
                "players": sorted(self.players), "order": list(self.order),
                "first_seat": self.order[0] if self.order else None, "collection": self.take,
                "step": None if step is None else step.action,
                "hands": [{"seat": s, "status": self.statuses.get(s, "alive"), "declared": self.declared.get(s),
                           "cards": self.counts.get(s)} for s in self.order],
                "winner": self.winner}
