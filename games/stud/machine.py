"""The Stud family's round ("hand"), as the controller sequences it (california-card-room-games.txt,
"STUD POKER AND VARIATIONS": 7-CARD STUD, 7-CARD STUD HIGH-LOW SPLIT, "RAZZ").

The dealer pitches the cards by hand: no device reads them. The controller proves the deck and
sequences the hand:

1. ``deck_check`` (a new deck) and ``shuffle``: the shuffler's deck check names missing and extra
   cards; every shuffle's count is checked against the 52. A shuffle follows every hand.
2. ``betting`` (the lifecycle's "bets open"): the hand has a number and its players, the seats in
   (seat buttons ``sit_out`` and ``sit_in``; before the deal they count at once, after it from
   the next hand). ``deal`` starts the hand: an ``action_button`` event (``seat`` null: no
   button in stud, the house dealer deals) publishes the players and the house's collection.
3. ``dealing``: the deal plan of the variant (games.poker.deal_plan.plan), one ``press`` prompt
   per step -- the antes and the fee, two down and one up, each street's betting, each burn, each
   street, the seventh card down, the showdown -- each closed by the dealer's ``deal``.
   While a street's betting is due, the pit enters that street's up cards (``cmd/up_cards``):
   they are published (``reveal``, hand ``up``: they were dealt face up), and the bring-in or the
   first to act is named (an ``action_button`` with the seat; the prompt's text on the state
   topic; the ``turn`` seat light). Without them the prompt says first to act is unknown and the
   hand goes on. While the showdown is due the pit enters the hands shown (``cmd/showdown``,
   seven codes each).
4. ``result``: the players, the collection, the up cards entered and the showdown (None when
   nobody entered one). ``deal`` settles and the cards go back to the shuffler.
5. ``cmd/irregularity`` (games.stud.irregularities): a wrong number of cards (a misdeal on the deal
   before any action, else the seat is out with its money back, or foul at the showdown), a burn
   error (rectified, or the down card accepted), the last card dealt face up or off the table (the
   seat's all-in option). A misdeal voids the hand, which is redealt to the same players, their
   antes in the pot.

Secrecy: the controller never learns a down card, a burn or the stub; it names only what the pit
enters, after checking it, and a refusal names no code entered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.cards import Card
from games.poker.deal_plan import Step as PlanStep
from games.poker.deal_plan import check_deck
from games.poker.pitched import PitchedRound, money
from games.poker.time_clock import TimeClock, collect_phrase
from games.round import Emit, Refused
from games.stud import irregularities as irr
from games.stud import rules
from games.stud.options import StudOptions

STUB = {"stud_scramble": "if the stub runs short, deal all but the last card, then scramble the last card with "
                         "the four burns, cut, burn and deliver the rest",
        "stud_community": "if the stub runs short even after scrambling the last card with the burns, burn and "
                          "turn one community card up in the centre for everyone; the player high on 6th "
                          "street acts first"}


class StudRound(PitchedRound):
    """The Stud family's round machine (API: docs/internals.md)."""

    game = "stud"
    TABLE = "Stud"
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("turn",)

    def __init__(self, options: StudOptions, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.steps: tuple[PlanStep, ...] = options.plan.steps
        self.seated: set[int] = set(options.seats_in if options.seats_in is not None
                                    else range(1, options.seats + 1))
        self.players: frozenset[int] = frozenset()
        self.done = 0                                   # plan steps done this hand
        self.up: dict[int, dict[int, Card]] = {}        # street -> seat -> up card entered
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.community: Card | None = None              # turned up when the stub ran short
        self.evaluation: dict[str, Any] | None = None
        self.take: dict[str, Any] | None = None
        self.out: dict[int, str] = {}                   # seat -> "refunded" or "foul" (irregularities)
        self.all_in: set[int] = set()                   # seats whose last card came face up
        self.irregularities: list[dict[str, Any]] = []
        self.redeal_of: int | None = None               # the misdealt hand this hand redeals
        self._misdealt: tuple[int, frozenset[int], dict[str, Any]] | None = None   # (hand, players, take)
        schedule = options.economics.schedule
        self.time_clock = (TimeClock(schedule.time_fee, schedule.period_minutes) if schedule.basis == "time"
                           else None)
        """Stud Hi-Lo's time collection (games.poker.time_clock): collected as each hand starts."""
        super().__init__(spec=options.spec, emit=emit, seats=options.seats, first_round=first_round)

    # --- players and collection -----------------------------------------------------------

    def _place_players(self) -> None:
        if self._misdealt is not None:   # a redeal: the misdealt hand's players and antes (irregularities choice 2)
            hand, players, take = self._misdealt
            self.redeal_of = hand
            self.players = frozenset(players & self.seated) if len(players & self.seated) >= 2 else frozenset()
            self.take = take if self.players else None
            return
        self.redeal_of = None
        if len(self.seated) < 2:
            self.players, self.take = frozenset(), None
            return
        self.players = frozenset(self.seated)
        self.take = rules.collection(self.options.economics, len(self.players), self.options.schedule_name)

    def _entered_betting(self) -> None:
        super()._entered_betting()
        self._place_players()

    def _clear_layout(self) -> None:
        self.done, self.up, self.shown, self.community, self.evaluation = 0, {}, {}, None, None
        self.out, self.all_in, self.irregularities = {}, set(), []

    def _entered_dealing(self) -> None:
        if self.time_clock is not None and self.take is not None and self.redeal_of is None:
            self.take = {**self.take, **self.time_clock.collect(self.players)}
        self._misdealt = None
        self._emit("action_button", {"seat": None, "players": sorted(self.players),
                                     "variant": self.options.variant, "collection": self.take,
                                     "redeal_of": self.redeal_of})

    # --- the steps of the deal (games.poker.deal_plan) ------------------------------------

    def _acting(self) -> dict[str, Any] | None:
        """Who acts first now, when a betting round is due."""
        step = self._step()
        if step is None or step.action != "bet":
            return None
        return rules.who_acts(self.options.variant, self.options.game, rules.street_of(step.name), self.up)

    def _step_text(self, step: PlanStep) -> str:
        assert self.take is not None
        n = len(self.players)
        first = min(self.players)
        if step.action == "collect":
            if self.take["basis"] == "time":
                fee = collect_phrase(self.take)
            else:
                fee = f"collect the fee {money(self.take['fee'])} ({n} players; no jackpot in this game)"
            if self.redeal_of is not None:
                return (f"Hand {self.round} redeals hand {self.redeal_of} (misdeal) to the same players: their antes "
                        "stay in the pot and the collection taken stands: take nothing again; press deal.")
            return (f"Hand {self.round} ({rules.TITLES[self.options.variant]}): take each player's ante; {fee}; "
                    "press deal.")
        if step.action == "deal":
            street = rules.street_of(step.name)
            if street == 3:
                return (f"Deal two cards face down and one face up to each of the {n} players, one at a time, "
                        f"starting with seat {first} (left of the dealer); press deal.")
            if street == 7:
                check = check_deck(self.options.game, n)
                stub = f" ({STUB[check.fallback]})" if check.fallback else ""
                return (f"Deal 7th street: one card face down to each player still in{stub}; press deal.")
            return f"Deal {step.name}: one card face up to each player still in; press deal."
        if step.action == "bet":
            street = rules.street_of(step.name)
            acts = rules.who_acts(self.options.variant, self.options.game, street, self.up)
            if acts["seat"] is not None:
                who = acts["why"]
            elif street == 7:
                who = "first to act is unknown (6th street's up cards were not entered): the player high on " \
                      "6th street acts first"
            else:
                who = (f"first to act is unknown ({acts['why']}; the pit may enter them: cmd/up_cards "
                       f"street {min(street, 6)})")
            all_in = (f"; seat{'s' if len(self.all_in) > 1 else ''} {', '.join(map(str, sorted(self.all_in)))} "
                      "(the last card dealt face up) may declare all-in for the pot already played, or stay active"
                      if street == 7 and self.all_in else "")
            return f"Betting round ({step.name}): {who}{all_in}; press deal when the betting is complete."
        if step.action == "burn":
            return "Burn the top card face down; press deal."
        return ("Showdown: the hands still in are shown (cards speak, seven cards each); a disputed showdown is "
                "entered by the pit (cmd/showdown); press deal when the pot is awarded.")

    # --- betting and the seats in -----------------------------------------------------------

    def _can_deal(self) -> bool:
        return bool(self.players)

    def _betting_text(self) -> str:
        return (f"Hand {self.round}: {len(self.players)} players (seats "
                f"{', '.join(map(str, sorted(self.players)))}); press deal to start the hand.")

    def _seats_changed(self, name: str, seat: int) -> None:
        if self.state == "betting":      # before the deal: this hand's players follow at once
            self._place_players()

    def _light_seats(self) -> dict[str, list[int]]:
        seats = super()._light_seats()
        acts = self._acting()
        return {**seats, "turn": [] if acts is None or acts["seat"] is None else [acts["seat"]]}

    # --- the up cards, entered by the pit -------------------------------------------------

    def _taken(self) -> dict[Card, str]:
        taken: dict[Card, str] = {}
        for street, cards in self.up.items():
            taken.update({c: f"seat {s}'s up card of {rules.ordinal(street)}" for s, c in cards.items()})
        if self.community is not None:
            taken[self.community] = "the community card"
        for s, hand in self.shown.items():
            taken.update({c: f"seat {s}'s hand" for c in hand})
        return taken

    def _command_up_cards(self, args: Mapping[str, Any]) -> dict:
        """``cmd/up_cards`` {"street": n, "cards": {seat: code}}: a street's up cards, while that
        street's betting round is due. Checked (games.stud.rules.parse_up), published as ``reveal``
        events (hand ``up``), and who acts first is named (``action_button``, the prompt)."""
        street = args.get("street")
        if isinstance(street, bool) or not isinstance(street, int):
            raise Refused("street is a number, 3 to 6 (the streets dealt with an up card)")
        step = self._step()
        due = step is not None and step.action == "bet" and rules.street_of(step.name) == street
        if not due:
            now = (f", {step.action}{f' ({step.name})' if step.name else ''} is due" if step is not None
                   else "")
            raise Refused(f"{rules.ordinal(street)}'s up cards are not due (state {self.state}{now}): they are "
                          f"entered while {rules.ordinal(street)}'s betting round is due")
        if street in self.up:
            raise Refused(f"{rules.ordinal(street)}'s up cards are already entered for this hand "
                          "(a reveal is never taken back)")
        try:
            cards = rules.parse_up(args.get("cards"), street, sorted(self.players), self.spec, self._taken())
        except rules.EntryError as exc:
            raise Refused(str(exc)) from None
        self.up[street] = cards
        for seat, c in cards.items():
            self._emit("reveal", {"hand": "up", "seat": seat, "street": street, "card": c.code})
        acts = rules.who_acts(self.options.variant, self.options.game, street, self.up)
        # Not a new prompt event: a prompt is a request, and the same step asked again is pressed
        # twice by whoever follows prompts. The state topic's prompt carries the new text.
        self._emit("action_button", {"seat": acts["seat"], "street": street, "by": acts["by"], "why": acts["why"]})
        return {"street": street, "first_to_act": acts}

    # --- irregularities, reported by the dealer or the pit ----------------------------------

    def _view(self) -> irr.HandView:
        street = max((rules.street_of(s.name) for s in self.steps[:self.done] if s.action == "deal"), default=0)
        step = self._step()
        bet3 = next(i for i, s in enumerate(self.steps) if s.action == "bet")
        phase = ("showdown" if step is not None and step.action == "showdown"
                 else "deal" if self.done <= bet3 else "streets")
        dealing = rules.street_of(step.name) if step is not None and step.action == "deal" else 0
        return irr.HandView(phase, street, self.players, frozenset(self.out), self.spec, self._taken(),  # type: ignore[arg-type]
                            dealing)

    def _command_irregularity(self, args: Mapping[str, Any]) -> dict:
        """``cmd/irregularity`` {"what": ..., ...}: what went wrong at the table, and the sheet's
        consequence (games.stud.irregularities): a misdeal voids the hand (redealt to the same
        players), a wrong count after action puts the seat out with its money back, a foul hand
        cannot win, the rest plays on."""
        if self.state != "dealing" or self._step() is None:
            raise Refused(f"no hand is being dealt (state {self.state}): an irregularity is reported during the hand")
        try:
            ruling = irr.rule(args, self._view())
        except irr.IrregularityError as exc:
            raise Refused(str(exc)) from None
        phase = self._view().phase
        self._alarm(f"irregularity_{ruling.what}", "warning", ruling.message, expected=self._expected_text(),
                    action=ruling.action)
        reply = {"what": ruling.what, "consequence": ruling.consequence, "message": ruling.message,
                 "action": ruling.action}
        if ruling.consequence == "misdeal":
            assert self.take is not None and self.round is not None
            self._misdealt = (self.redeal_of or self.round, self.players, self.take)
            self._void(ruling.message, "pit")
            return reply
        if ruling.consequence == "out_refund" and ruling.seat is not None:
            self.out[ruling.seat] = "refunded"
        elif ruling.consequence == "foul" and ruling.seat is not None:
            self.out[ruling.seat] = "foul"
        elif ruling.consequence == "all_in_option" and ruling.seat is not None:
            self.all_in.add(ruling.seat)
            if ruling.card is not None:
                self.up.setdefault(7, {})[ruling.seat] = ruling.card
                self._emit("reveal", {"hand": "up", "seat": ruling.seat, "street": 7, "card": ruling.card.code,
                                      "exposed": True})   # it lies face up
        self.irregularities.append({"what": ruling.what, "phase": phase, "consequence": ruling.consequence,
                                    "seat": ruling.seat, "message": ruling.message})
        if self._step() is not None and self._step().action == "bet":
            self._publish_prompt()
        return reply

    # --- the showdown, entered by the pit -------------------------------------------------

    def _command_showdown(self, args: Mapping[str, Any]) -> dict:
        """``cmd/showdown`` {"seat": n, "cards": [seven codes]}: a hand shown, while the showdown is
        due. Checked (games.stud.rules.parse_hand), published as a ``reveal``, and the showdown so
        far is the reply."""
        step = self._step()
        if step is None or step.action != "showdown":
            now = f", {step.action} is due" if step is not None else ""
            raise Refused(f"no showdown is due (state {self.state}{now}): a showdown is entered after 7th "
                          "street's betting round, before the dealer presses deal")
        if "board" in args:
            return self._community(args)
        if set(args) - {"id", "seat", "cards"}:
            raise Refused("give seat and cards (a hand shown, seven cards), or board (the community card)")
        seat, codes = args.get("seat"), args.get("cards")
        if seat is None or codes is None:
            raise Refused("a hand shown needs both seat and cards")
        if seat not in self.players:
            raise Refused(f"seat {seat} is not in hand {self.round}: the players are "
                          f"{', '.join(map(str, sorted(self.players)))}")
        if seat in self.shown:
            raise Refused(f"seat {seat}'s hand is already entered for this hand (a reveal is never taken back)")
        if seat in self.out:
            raise Refused(f"seat {seat} is out of the hand ({self.out[seat]}, cmd/irregularity): it cannot win the pot")
        taken = {c: where for c, where in self._taken().items() if not where.startswith(f"seat {seat}'s up")}
        mine = [(street, cards[seat]) for street, cards in sorted(self.up.items()) if seat in cards]
        try:
            hand = rules.parse_hand(codes, seat, self.spec, taken, mine, community=self.community is not None)
        except rules.EntryError as exc:
            raise Refused(str(exc)) from None
        self.shown[seat] = hand
        self._emit("reveal", {"hand": "seat", "seat": seat, "cards": [c.code for c in hand]})
        return self._evaluate()

    def _community(self, args: Mapping[str, Any]) -> dict:
        """``cmd/showdown`` {"board": [code]}: the community card of a hand whose stub ran short
        (7-CARD STUD's rule, only where this hand's players could need it), entered before the
        hands shown, which then hold six cards each."""
        if set(args) - {"id", "board"}:
            raise Refused("give the board alone (the community card), or a hand shown (seat and cards)")
        check = check_deck(self.options.game, len(self.players))
        if check.fallback != "stud_community":
            raise Refused(f"no community card in this hand: {len(self.players)} players do not run the stub short "
                          "enough for one (the sheet's community card is for when scrambling the last card with "
                          "the burns still leaves too few)")
        if self.community is not None:
            raise Refused("the community card is already entered for this hand (a reveal is never taken back)")
        if self.shown:
            raise Refused(f"hands are already entered with seven cards (seats {', '.join(map(str, sorted(self.shown)))}):"
                          " a community card is entered before the hands shown")
        try:
            self.community = rules.parse_community(args["board"], self.spec, self._taken())
        except rules.EntryError as exc:
            raise Refused(str(exc)) from None
        self._emit("reveal", {"hand": "community", "card": self.community.code})
        return self._evaluate()

    def _evaluate(self) -> dict:
        """The showdown so far: each hand shown with the community card, if any, in it."""
        board = (self.community,) if self.community is not None else ()
        self.evaluation = (rules.evaluate(self.options.game, {s: h + board for s, h in self.shown.items()})
                           if self.shown else None)
        entered: dict[str, Any] = {"seats": sorted(self.shown)}
        if self.community is not None:
            entered["community"] = self.community.code
        return {"showdown": self.evaluation, "entered": entered}

    # --- the result -----------------------------------------------------------------------

    def _entered_result(self) -> None:
        self._emit("result", self._result_data())

    def _result_data(self) -> dict[str, Any]:
        return {"players": sorted(self.players), "variant": self.options.variant, "collection": self.take,
                "up_cards": {str(street): {str(s): c.code for s, c in cards.items()}
                             for street, cards in sorted(self.up.items())},
                "community": None if self.community is None else self.community.code,
                "showdown": self.evaluation, "redeal_of": self.redeal_of,
                "out": {str(s): why for s, why in sorted(self.out.items())}, "all_in_option": sorted(self.all_in),
                "irregularities": self.irregularities}

    # --- restart and snapshot -------------------------------------------------------------

    def save(self) -> dict:
        data = super().save()
        data["stud"] = {"seated": sorted(self.seated)}
        return data

    def restore(self, saved: Mapping[str, Any], stopped_in: str | None) -> None:
        """The seats in go on across a restart; a saved list that does not fit this table is dropped."""
        super().restore(saved, stopped_in)
        mine = saved.get("stud")
        if not isinstance(mine, Mapping):
            return
        try:
            seated = {int(s) for s in mine["seated"]}
            if not all(1 <= s <= self.seats for s in seated):
                raise ValueError("a seat beyond this table")
        except (KeyError, TypeError, ValueError):
            self._alarm("stud_seats_reset", "warning", "the seats in could not be carried over from before the "
                        "restart", action="check the seats in (seat buttons sit_in, sit_out)")
            return
        self.seated = seated

    def _snapshot_game(self) -> dict:
        step = self._step()
        return {"variant": self.options.variant, "seats_in": sorted(self.seated), "players": sorted(self.players),
                "collection": self.take, "step": None if step is None else step.action,
                "up_cards": {str(street): {str(s): c.code for s, c in cards.items()}
                             for street, cards in sorted(self.up.items())},
                "first_to_act": self._acting(),
                "showdown": self.evaluation}
