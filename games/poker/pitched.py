"""The round machine of a poker-room game whose cards the dealer pitches by hand (issue 9).

No device reads a card: the shuffler proves the deck (a deck check for a new deck, a count after
every hand) and the controller sequences the hand from the game's deal plan
(games.poker.deal_plan), one ``press`` prompt per step, each closed by the dealer's ``deal``.
Seats sit in and out with the seat buttons; a hand needs two players. What differs between the
families -- the positions (Hold'em's button and blinds) or the up cards (Stud), the text of
each step, the showdown -- is the subclass's (games.holdem, games.stud).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.cards import Card
from games.poker.deal_plan import Step as PlanStep
from games.poker.positions import Positions
from games.round import DeviceRole, RoundMachine
from games.round.steps import PressDue, Steps

ROLES: dict[str, DeviceRole] = {
    "shuffler": DeviceRole(kinds=("shuffler",), needed_in=frozenset({"deck_check", "shuffle"}), prepares_deck=True),
}
"""GAMES.md: a shuffler (deck check and count) and the lights; the cards are pitched by hand."""


def money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


class PitchedRound(Steps, RoundMachine):
    """The part of a pitched poker game's machine that is the same in every family. Subclasses set
    ``steps`` and ``seated`` before ``super().__init__`` and give :meth:`_step_text`,
    :meth:`_can_deal`, :meth:`_betting_text` and :meth:`_seats_changed`."""

    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void")
    SEAT_BUTTONS: ClassVar[tuple[str, ...]] = ("sit_out", "sit_in")
    ROLES = ROLES
    TABLE: ClassVar[str] = "poker"
    """The family's name in a sentence ("a Hold'em table has a shuffler only")."""

    steps: tuple[PlanStep, ...]
    seated: set[int]
    done: int

    # --- hooks -----------------------------------------------------------------------------

    def _step_text(self, step: PlanStep) -> str:
        raise NotImplementedError

    def _can_deal(self) -> bool:
        """Enough players for a hand (two at least)."""
        raise NotImplementedError

    def _betting_text(self) -> str:
        """The prompt while bets are open and a hand can be dealt."""
        raise NotImplementedError

    def _waiting_text(self) -> str:
        """The prompt while bets are open and too few players are in for a hand."""
        return (f"Hand {self.round} waits for players: two seats at least must be in (seats in: "
                f"{', '.join(map(str, sorted(self.seated))) or 'none'}; seat button sit_in).")

    def _seats_changed(self, name: str, seat: int) -> None:
        """A seat sat in or out (``seated`` already says so); before the deal the hand follows."""
        raise NotImplementedError

    # --- the steps of the deal (games.poker.deal_plan) ------------------------------------

    def _step(self) -> PlanStep | None:
        return self.steps[self.done] if self.state == "dealing" and self.done < len(self.steps) else None

    def _next_step(self) -> PressDue | None:  # type: ignore[override]
        if self.done >= len(self.steps):
            return None
        return PressDue("deal", "press", self._step_text(self.steps[self.done]))

    def _pressed(self, due: PressDue) -> None:
        self.done += 1

    def _dealing_prompt(self) -> dict:
        prompt = super()._dealing_prompt()
        if self.done < len(self.steps):
            step = self.steps[self.done]
            prompt["step"] = step.action
            if step.name:
                prompt["street"] = step.name
        return prompt

    def _due_text(self) -> str:
        if self.done < len(self.steps):
            return f"no card is read: the dealer pitches by hand ({self.steps[self.done].action} is due)"
        return "no card"

    def _deal_card(self, card: Card) -> None:
        # No device reads cards in this game (ROLES); the lifecycle hands one over only in dealing.
        message = f"a card read arrived, but {self.game} reads no cards: the dealer pitches by hand"
        self._alarm("unexpected_card", "warning", message, expected=self._due_text(),
                    action=f"check the table's device config: a {self.TABLE} table has a shuffler only")

    # --- betting: no deal without two players ---------------------------------------------

    def _buttons(self) -> list[str]:
        lit = super()._buttons()
        if self.state == "betting" and not self._can_deal() and "deal" in lit:
            lit.remove("deal")
        return lit

    def _prompt_for_state(self) -> dict:
        prompt = super()._prompt_for_state()
        if self.state == "betting" and not self._can_deal():
            prompt.update(expect="none", text=self._waiting_text())
        elif self.state == "betting":
            prompt["text"] = self._betting_text()
        elif self.state == "result":
            prompt["text"] = (f"Hand {self.round} is over: push the pot, gather every card for the shuffler, "
                              "press deal for the shuffle.")
        return prompt

    # --- seat buttons: in and out ---------------------------------------------------------

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        if self.state == "closed":
            return "the table is closed"
        if name == "sit_in" and seat in self.seated:
            return f"seat {seat} is already in"
        if name == "sit_out" and seat not in self.seated:
            return f"seat {seat} is already out"
        return None

    def _seat_pressed(self, name: str, seat: int) -> None:
        if name == "sit_in":
            self.seated.add(seat)
        else:
            self.seated.discard(seat)
        self._seats_changed(name, seat)
        if self.state == "betting":
            self._publish_prompt()

    def _seat_buttons_lit(self) -> dict[str, list[int]]:
        if self.state == "closed":
            return {}
        everyone = set(range(1, self.seats + 1))
        return {"sit_out": sorted(self.seated), "sit_in": sorted(everyone - self.seated)}


class BlindsRound(PitchedRound):
    """A pitched game with a dealer button and blinds (Hold'em, Draw & Low-Ball): the seat lights
    show the button and the blinds, and a seat sitting in waits rather than be dealt in the middle
    of the blinds (games.poker.positions.deal_in). Subclasses keep ``pos`` (this hand's
    :class:`~games.poker.positions.Positions`), ``last`` (the last completed hand's), ``waiting``,
    and give :meth:`_place_positions`."""

    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("dealer_button", "small_blind", "big_blind")

    RESET_ACTION: ClassVar[str] = "check the button's seat"
    """What the alarm asks when the saved button and seats could not be carried over a restart."""
    SEATED_BEYOND_TABLE_DROPS: ClassVar[bool] = True
    """A saved seat in beyond this table: dropped quietly (Hold'em), or the whole picture reset
    with an alarm (Draw)."""

    pos: Positions | None
    last: Positions | None
    waiting: dict[int, str]

    def _place_positions(self) -> None:
        raise NotImplementedError

    def _seats_changed(self, name: str, seat: int) -> None:
        if name == "sit_in":
            if self.last is not None:
                self.waiting[seat] = "new"   # positions.deal_in: not dealt in the middle of the blinds
        else:
            self.waiting.pop(seat, None)
        if self.state == "betting":      # before the deal: this hand's positions follow at once
            self._place_positions()

    def _light_seats(self) -> dict[str, list[int]]:
        seats = super()._light_seats()
        pos = self.pos
        if pos is None or self.state in ("closed", "deck_check"):
            return {**seats, "dealer_button": [], "small_blind": [], "big_blind": []}
        return {**seats, "dealer_button": [pos.button], "small_blind": [s for s in pos.blinds[:-1] if s is not None],
                "big_blind": [s for s in pos.blinds[-1:] if s is not None]}

    def _restored_fits(self, restored: Positions) -> bool:
        """Whether a saved last hand's positions suit this table's options (Draw: its blinds)."""
        return True

    # --- restart: the seats in and the last hand's button go on --------------------------

    def save(self) -> dict:
        data = super().save()
        last = self.last
        data[self.game] = {"seated": sorted(self.seated),
                           "waiting": {str(k): v for k, v in sorted(self.waiting.items())},
                           "last": None if last is None else {"button": last.button, "spots": list(last.spots),
                                                              "blinds": list(last.blinds),
                                                              "dead_button": last.dead_button}}
        return data

    def restore(self, saved: Mapping[str, Any], stopped_in: str | None) -> None:
        """The seats in and the last hand's button go on across a restart (the button keeps moving
        one place per completed hand); a saved picture that does not fit this table is dropped."""
        super().restore(saved, stopped_in)
        mine = saved.get(self.game)
        if not isinstance(mine, Mapping):
            return
        try:
            seated = {int(s) for s in mine["seated"]}
            if self.SEATED_BEYOND_TABLE_DROPS:
                seated = {s for s in seated if 1 <= s <= self.seats}
            last = mine.get("last")
            restored = None if last is None else Positions(
                int(last["button"]), tuple(last["spots"]), tuple(last["blinds"]), bool(last["dead_button"]))
            if restored is not None and not self._restored_fits(restored):
                raise ValueError("another number of blinds")
            seats = [*seated, *([] if restored is None else (restored.button, *restored.spots, *restored.blinds))]
            if not all(s is None or 1 <= s <= self.seats for s in seats):
                raise ValueError("a seat beyond this table")
            waiting = {int(k): v for k, v in dict(mine.get("waiting", {})).items() if v == "new"}
        except (KeyError, TypeError, ValueError):
            self._alarm(f"{self.game}_positions_reset", "warning",
                        "the button and the seats in could not be carried over from before the restart",
                        action=self.RESET_ACTION)
            return
        self.seated, self.last, self.waiting = seated, restored, waiting
