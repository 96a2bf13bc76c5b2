"""Mexican Stud's round ("hand"), as the controller sequences it (california-card-room-games.txt,
"MEXICAN POKER (5-Card Stud--Mexico Style)" and its "Stud-Loce Rules").

The dealer pitches the cards by hand: no device reads them. The controller proves the deck and
sequences the hand:

1. ``deck_check`` (a new deck) and ``shuffle``: the shuffler's deck check names missing and extra
   cards against the 41-card deck (52 and a joker, no 8, 9 or 10); every shuffle's count is
   checked against 41. A shuffle follows every hand.
2. ``betting`` (the lifecycle's "bets open"): the hand has a number, its button (lit on the
   ``dealer_button`` seat light; it moves one seat in clockwise after each completed hand) and its
   players, the seats in (seat buttons ``sit_out`` and ``sit_in``; before the deal they count at
   once, after it from the next hand). ``deal`` starts the hand: an ``action_button`` event
   publishes the button, the players and the house's collection.
3. ``dealing``: the deal plan (games.poker.deal_plan.plan("mexican_stud")), one ``press`` prompt
   per step, each closed by the dealer's ``deal``: the collection; the first two cards (down, up)
   from the left of the button; the forced bet's round; then three times: the players may open
   their down card, a burn, the next card (face down to each seat whose down card is open, face up
   to the others: the prompt names them), a betting round; the showdown.
   The pit enters while the steps are due (docs/mexican_stud.md): each street's up cards
   (``cmd/up_cards``: the forced bet or who acts first is named, ``action_button`` and the
   ``turn`` light), a down card a seat opened (``cmd/expose``), the hands shown
   (``cmd/showdown``, five codes each).
4. ``result``: the button, the players, the collection, the cards entered and the showdown (None
   when nobody entered one); the button moves on from this hand. ``deal`` settles and the cards go
   back to the shuffler. A voided hand is dealt again with the same button (the button rotates
   "after each hand is complete").

Secrecy: the controller never learns a down card, a burn or the stub; it names only what the pit
enters (cards dealt or turned face up, and hands shown), after checking it, and a refusal names
no code entered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.cards import Card
from games.mexican_stud import rules
from games.mexican_stud.options import GAME, MexicanOptions
from games.poker.deal_plan import Step as PlanStep
from games.poker.deal_plan import check_deck
from games.poker.pitched import PitchedRound, money
from games.round import Emit, Refused
from games.round.steps import PressDue

STUB = {"stud_scramble": "if the stub runs short, deal all but the last card, then scramble the last card with the "
                         "burns, cut, burn and deliver the rest",
        "stud_community": "if the stub runs short even after scrambling the last card with the burns, burn and "
                          "turn one community card up in the centre for everyone"}
KEEP_ONE_DOWN = ("keep_one_down",)


class MexicanStudRound(PitchedRound):
    """Mexican Stud's round machine (API: docs/internals.md)."""

    game = GAME
    TABLE = "Mexican Stud"
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("dealer_button", "turn")
    SEAT_BUTTONS: ClassVar[tuple[str, ...]] = ("sit_out", "sit_in", "extra_shuffle")

    def __init__(self, options: MexicanOptions, emit: Emit, first_round: int = 1) -> None:
        self.options = options
        self.steps: tuple[PlanStep, ...] = options.plan.steps
        self.seated: set[int] = set(options.seats_in if options.seats_in is not None
                                    else range(1, options.seats + 1))
        self.last_button: int | None = None   # the last completed hand's
        self.button: int | None = None        # this hand's (provisional while betting)
        self.again: int | None = None         # a voided hand's button: the hand is dealt again with it
        self.players: frozenset[int] = frozenset()
        self.take: dict[str, Any] | None = None
        self.done = 0                                       # plan steps done this hand
        self.up: dict[int, dict[int, Card | None]] = {}     # street -> seat -> up card (None: dealt down)
        self.dealt_down: dict[int, frozenset[int]] = {}     # street -> seats whose card came down
        self.opened: set[int] = set()                       # seats whose down card is open: next card down
        self.down_at: dict[int, int] = {}                   # seat -> the card its down card is (1 if absent)
        self.exposed: dict[int, list[tuple[int, Card, str]]] = {}   # seat -> (card number, card, by)
        self.all_in: set[int] = set()                       # seats the dealer exposed: may declare all-in
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.evaluation: dict[str, Any] | None = None
        self.pool = options.jackpot_pool     # the jackpot the table holds, in cents (choice 6)
        self.extra_shuffle: int | None = None   # the button's seat, who asked for an additional shuffle
        super().__init__(spec=options.spec, emit=emit, seats=options.seats, first_round=first_round)

    # --- button, players and collection ---------------------------------------------------

    def _place_players(self) -> None:
        self.button = rules.hand_button(self.seats, self.seated, self.last_button, first=self.options.button)
        if self.button is not None and self.again in self.seated:
            self.button = self.again
        if self.button is None:
            self.players, self.take = frozenset(), None
            return
        self.players = frozenset(self.seated)
        self.take = rules.collection(self.options.economics, len(self.players))

    def _entered_betting(self) -> None:
        super()._entered_betting()
        self._place_players()

    def _clear_layout(self) -> None:
        self.jackpot_paid = None
        self.done, self.up, self.dealt_down, self.opened, self.down_at = 0, {}, {}, set(), {}
        self.exposed, self.all_in, self.shown, self.evaluation = {}, set(), {}, None

    def _void(self, reason: str, by: str) -> None:
        if self.button is not None:
            self.again = self.button
        super()._void(reason, by)

    def _entered_dealing(self) -> None:
        self._emit("action_button", {"seat": self.button, "players": sorted(self.players), "collection": self.take})

    # --- the steps of the deal (games.poker.deal_plan) ------------------------------------

    def _pressed(self, due: PressDue) -> None:
        step = self.steps[self.done]
        if step.action == "deal" and step.faces == KEEP_ONE_DOWN:
            # The card goes down to each seat whose down card is open, and it is that seat's down card now.
            street = rules.street_of(step.name)
            down = frozenset(self.opened & self.players)
            self.dealt_down[street] = down
            self.down_at.update({s: street for s in down})
            self.opened -= down
        super()._pressed(due)

    def _exposed_cards(self) -> dict[int, list[Card]]:
        return {s: [c for _, c, _ in found] for s, found in self.exposed.items()}

    def _acting(self) -> dict[str, Any] | None:
        """Who acts first now, when a betting round is due."""
        step = self._step()
        if step is None or step.action != "bet":
            return None
        return self._who_acts(rules.street_of(step.name))

    def _who_acts(self, street: int) -> dict[str, Any]:
        assert self.button is not None
        return rules.who_acts(street, self.up, self._exposed_cards(), self.button,
                              tie=self.options.forced_bet_tie)  # type: ignore[arg-type]

    def _step_text(self, step: PlanStep) -> str:
        assert self.take is not None and self.button is not None
        n = len(self.players)
        first = rules.deal_order(self.seats, self.button, self.players)[0]
        if step.action == "collect":
            return f"Hand {self.round} (Mexican Stud): button seat {self.button}; {self._collect_text()}; press deal."
        if step.action == "deal" and step.faces != KEEP_ONE_DOWN:
            return (f"Deal two cards to each of the {n} players, one at a time, clockwise from seat {first} (left of "
                    "the button): the first face down, the second face up; press deal.")
        if step.action == "deal":
            street = rules.street_of(step.name)
            faces = rules.next_faces(self.players, self.opened)
            stub = ""
            if street == 5:
                check = check_deck(GAME, n)
                stub = f" ({STUB[check.fallback]})" if check.fallback else ""
            if not faces["down"]:
                how = "face up to each player still in (no down card is open)"
            else:
                how = (f"face down to {_seats(faces['down'])} (the down card is open), face up to every other "
                       "player still in")
            return f"Deal {rules.card_name(street)}, clockwise from seat {first}: {how}{stub}; press deal."
        if step.action == "bet":
            street = rules.street_of(step.name)
            acts = self._who_acts(street)
            if acts["seat"] is not None:
                who = acts["why"]
            elif street == 2:
                who = ("the high card showing makes the forced opening bet, the joker highest (not named: "
                       f"{acts['why']}; the pit may enter them: cmd/up_cards street 2)")
            else:
                who = (f"the highest hand showing acts first (not named: {acts['why']}; the pit may enter them: "
                       f"cmd/up_cards street {street})")
            all_in = (f"; {_seats(sorted(self.all_in))} may declare all-in (the dealer exposed the down card)"
                      if self.all_in else "")
            return f"Betting round ({step.name}): {who}{all_in}; press deal when the betting is complete."
        if step.action == "expose":
            nxt = next(s for s in self.steps[self.done:] if s.action == "deal")
            opened = (f" Open so far: {_seats(sorted(self.opened & self.players))}, whose next card comes face down."
                      if self.opened & self.players else "")
            return (f"Before {rules.card_name(rules.street_of(nxt.name))}: each player may expose his down card "
                    "(the pit enters it: cmd/expose); a player who opens it gets his next card face down."
                    f"{opened} Press deal when every player has chosen.")
        if step.action == "burn":
            return "Burn the top card face down; press deal."
        return ("Showdown: the hands still in are shown (cards speak, five cards each, the joker wild); a disputed "
                "showdown is entered by the pit (cmd/showdown); press deal when the pot is awarded.")

    def _collect_text(self) -> str:
        take = self.take
        assert take is not None
        n = len(self.players)
        jackpot = (f"the jackpot {money(take['jackpot'])}" if take["jackpot"]
                   else "no jackpot (fewer than 5 players)" if self.options.economics.schedule.jackpot
                   else "no jackpot")
        if take["basis"] == "player":
            return (f"each of the {n} players places the collection {money(take['fee_each'])} "
                    f"({money(take['fee'])} in all); {jackpot}")
        if take["basis"] == "time":
            return (f"the house's collection is by time, {money(take['time_fee_each'])} per person per "
                    f"{take['period_minutes']} minutes, nothing from this pot")
        return f"collect the fee {money(take['fee'])} ({n} players); {jackpot}"

    def _dealing_prompt(self) -> dict:
        prompt = super()._dealing_prompt()
        step = self._step()
        if step is not None and (step.action == "expose" or step.faces == KEEP_ONE_DOWN):
            prompt["down"] = rules.next_faces(self.players, self.opened)["down"]
        return prompt

    # --- betting and the seats in -----------------------------------------------------------

    def _can_deal(self) -> bool:
        return self.button is not None

    def _betting_text(self) -> str:
        return (f"Hand {self.round}: button seat {self.button}, {len(self.players)} players (seats "
                f"{', '.join(map(str, sorted(self.players)))}); press deal to start the hand.")

    def _seats_changed(self, name: str, seat: int) -> None:
        if self.state == "betting":      # before the deal: this hand's button and players follow at once
            self._place_players()
            if self.extra_shuffle is not None and self.extra_shuffle != self.button:
                self.extra_shuffle = None   # the seat that asked no longer has the button

    # --- the button's additional shuffle ("Only the player with the dealer button may ask") ---

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        if name != "extra_shuffle":
            return super()._seat_refusal(name, seat)
        if self.state != "betting" or self.button is None:
            return f"an additional shuffle is asked for before the hand is dealt, not in state {self.state}"
        if seat != self.button:
            return (f"only the player with the dealer button (seat {self.button}) may ask for an additional shuffle "
                    "(Stud-Loce Rules)")
        if self.extra_shuffle is not None:
            return "an additional shuffle is already asked for: the shuffler's count is awaited"
        return None

    def _seat_pressed(self, name: str, seat: int) -> None:
        if name != "extra_shuffle":
            super()._seat_pressed(name, seat)
            return
        self.extra_shuffle = seat
        self._publish_prompt()

    def _seat_buttons_lit(self) -> dict[str, list[int]]:
        lit = super()._seat_buttons_lit()
        if lit:
            asking = self.state == "betting" and self.button is not None and self.extra_shuffle is None
            lit["extra_shuffle"] = [self.button] if asking else []
        return lit

    def _buttons(self) -> list[str]:
        lit = super()._buttons()
        if self.state == "betting" and self.extra_shuffle is not None and "deal" in lit:
            lit.remove("deal")   # the hand starts after the shuffle the button asked for
        return lit

    def _prompt_for_state(self) -> dict:
        prompt = super()._prompt_for_state()
        if self.state == "betting" and self.extra_shuffle is not None:
            prompt.update(expect="shuffle", text=f"Seat {self.extra_shuffle}, the dealer button, asks for an "
                                                 "additional shuffle (\"Only the player with the dealer button may "
                                                 "ask for an additional shuffle\"): gather every card into the "
                                                 f"shuffler and shuffle; hand {self.round} is dealt after it.")
        return prompt

    def shuffled(self, count: int) -> None:
        """The shuffler's count: the shuffle after a hand (the lifecycle's), or while the hand
        waits, the additional shuffle the button asked for, checked against the 41 cards; a wrong
        count keeps the hand waiting and asks for the pit's void (the shuffle after it checks the
        deck again)."""
        if self.state != "betting" or self.extra_shuffle is None:
            super().shuffled(count)
            return
        ok = count == self.spec.size
        self._emit("shuffle", {"ok": ok, "count": count, "expected": self.spec.size})
        if ok:
            self.extra_shuffle = None
            self._publish_prompt()
            return
        self._alarm("shuffle_count", "fault",
                    f"the additional shuffle counted {count} cards; a {self.spec.name} deck holds {self.spec.size}",
                    action="void the hand (pit cmd/void): the shuffle after it checks the deck")

    def _light_seats(self) -> dict[str, list[int]]:
        seats = super()._light_seats()
        acts = self._acting()
        button = [] if self.button is None or self.state in ("closed", "deck_check") else [self.button]
        return {**seats, "dealer_button": button, "turn": [] if acts is None or acts["seat"] is None else [acts["seat"]]}

    # --- what the pit enters ----------------------------------------------------------------

    def _taken(self) -> dict[Card, str]:
        taken: dict[Card, str] = {}
        for street, cards in self.up.items():
            taken.update({c: f"seat {s}'s {rules.ORDINAL[street]} card" for s, c in cards.items() if c is not None})
        for s, found in self.exposed.items():
            taken.update({c: f"seat {s}'s opened card" for _, c, _ in found})
        for s, hand in self.shown.items():
            taken.update({c: f"seat {s}'s hand" for c in hand})
        return taken

    def _now(self) -> str:
        step = self._step()
        if step is None:
            return f"state {self.state}"
        return f"state {self.state}, {step.action}{f' ({step.name})' if step.name else ''} is due"

    def _command_up_cards(self, args: Mapping[str, Any]) -> dict:
        """``cmd/up_cards`` {"street": n, "cards": {seat: code or "down"}}: the up cards of the
        ``n``-th card (2 to 5), while that card's betting round is due. Checked
        (games.mexican_stud.rules.parse_up), published as ``reveal`` events (hand ``up``), and
        who acts first is named (``action_button``, the prompt, the ``turn`` light)."""
        street = args.get("street")
        if isinstance(street, bool) or not isinstance(street, int):
            raise Refused("street is a number, 2 to 5 (the card whose betting round is due)")
        step = self._step()
        if not (step is not None and step.action == "bet" and rules.street_of(step.name) == street):
            raise Refused(f"the up cards of card {street} are not due ({self._now()}): they are entered while "
                          "that card's betting round is due")
        if street in self.up:
            raise Refused(f"{rules.card_name(street)}'s up cards are already entered for this hand "
                          "(a reveal is never taken back)")
        try:
            cards = rules.parse_up(args.get("cards"), street, sorted(self.players), self.spec, self._taken(),
                                   self.dealt_down.get(street, frozenset()))
        except rules.EntryError as exc:
            raise Refused(str(exc)) from None
        self.up[street] = cards
        for seat, c in cards.items():
            if c is not None:
                self._emit("reveal", {"hand": "up", "seat": seat, "street": street, "card": c.code})
        acts = self._who_acts(street)
        # Not a new prompt event: a prompt is a request, and the same step asked again is pressed
        # twice by whoever follows prompts. The state topic's prompt carries the new text.
        self._emit("action_button", {"seat": acts["seat"], "street": street, "by": acts["by"], "why": acts["why"]})
        return {"street": street, "first_to_act": acts}

    def _command_expose(self, args: Mapping[str, Any]) -> dict:
        """``cmd/expose`` {"seat": n, "card": code, "by": "player" or "dealer"}: seat ``n``'s down
        card is face up now, so its next card comes face down. A player opens it while the exposing
        step is due; the house dealer's exposure is entered whenever no card is being dealt, before
        the fifth card (rules choice 4). Published as a ``reveal`` (hand ``up``, ``exposed``)."""
        by = args.get("by", "player")
        if by not in ("player", "dealer"):
            raise Refused("by is \"player\" (he opened it) or \"dealer\" (the house dealer exposed it)")
        seat = args.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise Refused("seat is a seat number")
        step = self._step()
        if step is None:
            raise Refused(f"no hand is being dealt ({self._now()})")
        if by == "player" and step.action != "expose":
            raise Refused(f"a player opens his down card after a betting round, before the next card: not now "
                          f"({self._now()})")
        if by == "dealer":
            if self.done < next(i for i, s in enumerate(self.steps) if s.action == "deal"):
                raise Refused(f"no card is dealt yet ({self._now()}): a down card is exposed once it is dealt")
            if not any(s.faces == KEEP_ONE_DOWN for s in self.steps[self.done:]):
                raise Refused(f"no card is left to deal to this seat ({self._now()}): an exposure after the fifth "
                              "card changes nothing; the card is seen at the showdown")
            if step.action == "deal":
                raise Refused(f"the cards are being dealt ({self._now()}): enter the exposure once the deal is "
                              "done (press deal); it makes the seat's next card come down")
        if seat not in self.players:
            raise Refused(f"seat {seat} is not in hand {self.round}: the players are "
                          f"{', '.join(map(str, sorted(self.players)))}")
        if self.up:
            last = max(self.up)
            if seat not in self.up[last]:
                raise Refused(f"seat {seat} is not among the seats entered for {rules.card_name(last)}: it has "
                              "folded")
        if seat in self.opened:
            raise Refused(f"seat {seat}'s down card is already open: its next card comes face down")
        try:
            c = rules.parse_exposed(args.get("card"), seat, self.spec, self._taken())
        except rules.EntryError as exc:
            raise Refused(str(exc)) from None
        street = self.down_at.get(seat, 1)
        self.exposed.setdefault(seat, []).append((street, c, by))
        self.opened.add(seat)
        if by == "dealer":
            self.all_in.add(seat)
        self._emit("reveal", {"hand": "up", "seat": seat, "street": street, "card": c.code, "exposed": by})
        return {"seat": seat, "next_card": "down", "all_in": by == "dealer"}

    def _command_showdown(self, args: Mapping[str, Any]) -> dict:
        """``cmd/showdown`` {"seat": n, "cards": [five codes]}: a hand shown, while the showdown is
        due. Checked (games.mexican_stud.rules.parse_hand), published as a ``reveal``, and the
        showdown so far is the reply."""
        step = self._step()
        if step is None or step.action != "showdown":
            raise Refused(f"no showdown is due ({self._now()}): a showdown is entered after the fifth card's "
                          "betting round, before the dealer presses deal")
        if set(args) - {"id", "seat", "cards"}:
            raise Refused("give seat and cards (a hand shown, five cards): Mexican Stud has no board")
        seat, codes = args.get("seat"), args.get("cards")
        if seat is None or codes is None:
            raise Refused("a hand shown needs both seat and cards")
        if seat not in self.players:
            raise Refused(f"seat {seat} is not in hand {self.round}: the players are "
                          f"{', '.join(map(str, sorted(self.players)))}")
        if seat in self.shown:
            raise Refused(f"seat {seat}'s hand is already entered for this hand (a reveal is never taken back)")
        mine = f"seat {seat}'s "
        taken = {c: where for c, where in self._taken().items() if not where.startswith(mine)}
        held = [(f"its {rules.ORDINAL[street]} card", cards[seat]) for street, cards in sorted(self.up.items())
                if cards.get(seat) is not None]
        held += [(f"its opened {rules.ORDINAL[n]} card", c) for n, c, _ in self.exposed.get(seat, ())]
        try:
            hand = rules.parse_hand(codes, seat, self.spec, taken, held)  # type: ignore[arg-type]
        except rules.EntryError as exc:
            raise Refused(str(exc)) from None
        self.shown[seat] = hand
        self._emit("reveal", {"hand": "seat", "seat": seat, "cards": [c.code for c in hand]})
        self.evaluation = rules.evaluate(self.shown)
        return {"showdown": self.evaluation, "entered": {"seats": sorted(self.shown)}}

    # --- the result -----------------------------------------------------------------------

    def _entered_result(self) -> None:
        self.last_button, self.again = self.button, None
        assert self.take is not None
        self.pool += self.take.get("jackpot", 0)   # this hand's drop (choice 6)
        self.jackpot_paid = (None if self.options.jackpot_pays is None
                             else rules.jackpot_payout(self.shown, self.options.jackpot_pays, self.pool))
        if self.jackpot_paid is not None:
            self.pool -= self.jackpot_paid["paid"]
        self._emit("result", self._result_data())

    jackpot_paid: dict[str, Any] | None = None

    def _entered_cards(self) -> dict[str, Any]:
        return {"up_cards": {str(street): {str(s): rules.DOWN if c is None else c.code for s, c in cards.items()}
                             for street, cards in sorted(self.up.items())},
                "exposed": {str(s): [{"street": n, "card": c.code, "by": by} for n, c, by in found]
                            for s, found in sorted(self.exposed.items())}}

    def _result_data(self) -> dict[str, Any]:
        data = {"button": self.button, "players": sorted(self.players), "collection": self.take,
                **self._entered_cards(), "showdown": self.evaluation}
        if self.options.jackpot_pays is not None:
            data["jackpot_paid"] = self.jackpot_paid
            data["jackpot_pool"] = self.pool
        return data

    # --- restart and snapshot -------------------------------------------------------------

    def save(self) -> dict:
        data = super().save()
        data["mexican_stud"] = {"seated": sorted(self.seated), "last_button": self.last_button, "again": self.again,
                                "pool": self.pool}
        return data

    def restore(self, saved: Mapping[str, Any], stopped_in: str | None) -> None:
        """The seats in and the last hand's button go on across a restart (the button keeps moving
        one seat per completed hand); a saved picture that does not fit this table is dropped."""
        super().restore(saved, stopped_in)
        mine = saved.get("mexican_stud")
        if not isinstance(mine, Mapping):
            return
        try:
            seated = {int(s) for s in mine["seated"]}
            last, again = (None if mine.get(k) is None else int(mine[k]) for k in ("last_button", "again"))
            if not all(1 <= s <= self.seats for s in (*seated, *(b for b in (last, again) if b is not None))):
                raise ValueError("a seat beyond this table")
        except (KeyError, TypeError, ValueError):
            self._alarm("mexican_stud_seats_reset", "warning", "the button and the seats in could not be carried "
                        "over from before the restart", action="check the button's seat; the first hand puts it on "
                        "the configured seat")
            return
        self.seated, self.last_button, self.again = seated, last, again
        pool = mine.get("pool")
        if isinstance(pool, int) and not isinstance(pool, bool) and pool >= 0:
            self.pool = pool   # the jackpot goes on across a restart

    def _snapshot_game(self) -> dict:
        step = self._step()
        return {"button": self.button, "seats_in": sorted(self.seated), "players": sorted(self.players),
                "collection": self.take, "step": None if step is None else step.action,
                **self._entered_cards(), "next_card_down": sorted(self.opened & self.players),
                "first_to_act": self._acting(), "showdown": self.evaluation, "jackpot_pool": self.pool,
                "extra_shuffle": self.extra_shuffle}


def _seats(seats: list[int]) -> str:
    return f"seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))}"
