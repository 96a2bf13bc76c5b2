"""Dealing by steps: a part for games whose rules say, at every moment, what comes next --
a card to a named place, face up or down, or a seat's decision.

Most games deal in an order their rules fix (Three Card Poker: three cards to each seat from
the left of the player-dealer; Joker Seven: seven cards to the layout; Bet'Win: a card to each
seat, the dealer's Waiting card, each seat's change or stand, the Adjoining card). The game
names the next step from what is on the layout (:meth:`Steps._next_step`), and this part does
the rest the same way for every game: the prompt (``card`` with hand, seat, position and face,
or ``decision`` with the seat and its choices), the ``card`` event (a face-down card without its
code or value), a card arriving while a decision is due (``unexpected_card``, fault), the seat
buttons (lit for the deciding seat only; another seat's press refused with the reason), the
``turn`` light, and ``hands_complete`` when no step is left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from games.cards import Card
from games.round.lifecycle import RoundMachine


@dataclass(frozen=True)
class CardDue:
    """The next card: where it goes and why (the rule, for the prompt)."""

    hand: str
    position: int
    face: Literal["up", "down"] = "up"
    seat: int | None = None
    why: str = ""

    @property
    def where(self) -> str:
        return f"seat {self.seat}" if self.seat is not None and self.hand == "seat" else f"the {self.hand}"


@dataclass(frozen=True)
class DecisionDue:
    """A seat's decision: which seat, the seat buttons it may press, and why."""

    seat: int
    choices: tuple[str, ...]
    why: str = ""


@dataclass(frozen=True)
class PressDue:
    """The dealer closes a phase with a button (Bet'Win's "re-bet completed": ``deal``)."""

    button: str
    expect: str
    text: str


Step = CardDue | DecisionDue | PressDue


class Steps(RoundMachine):
    """``class Game(Steps, ..., RoundMachine)``; the game implements :meth:`_next_step`,
    :meth:`_place` and :meth:`_decide`, and ``_card_data`` for a face-up card's extra fields."""

    def _next_step(self) -> Step | None:
        """What the rules want next, from the layout; None: the round is complete."""
        raise NotImplementedError

    def _place(self, due: CardDue, card: Card) -> None:
        """Put ``card`` where ``due`` says (the game's layout)."""
        raise NotImplementedError

    def _decide(self, seat: int, choice: str) -> None:
        """Seat ``seat`` pressed ``choice`` (one of the choices its decision offered)."""
        raise NotImplementedError

    def _pressed(self, due: PressDue) -> None:
        """The dealer pressed the button a :class:`PressDue` asked for (the game records it)."""
        raise NotImplementedError

    def _card_data(self, due: CardDue, card: Card) -> dict[str, Any]:
        """Extra fields of a face-up card's event (a value the game counts)."""
        return {}

    # --- the lifecycle's hooks -------------------------------------------------------

    def _deal_card(self, card: Card) -> None:
        step = self._next_step()
        if not isinstance(step, CardDue):
            why = (f"seat {step.seat} has not decided ({' or '.join(step.choices)})"
                   if isinstance(step, DecisionDue) else
                   f"{step.text[0].lower()}{step.text[1:].rstrip('.')} first" if isinstance(step, PressDue)
                   else "no card is due")
            message = f"{card.code} drawn, but {why}"
            self._alarm("unexpected_card", "fault", message, card=card.code, expected=self._due_text(),
                        action="void the round, or resume to burn the card")
            self._enter_fault("unexpected_card", message, card)
            return
        self._place(step, card)
        data: dict[str, Any] = {"hand": step.hand, "position": step.position, "face": step.face}
        if step.seat is not None:
            data["seat"] = step.seat
        if step.face == "up":
            data.update(card=card.code, **self._card_data(step, card))
        self._emit("card", data)
        self._step_done()

    def _seat_pressed(self, name: str, seat: int) -> None:
        self._decide(seat, name)
        self._step_done()

    def _buttons(self) -> list[str]:
        lit = super()._buttons()
        step = self._next_step() if self.state == "dealing" else None
        if isinstance(step, PressDue) and step.button not in lit:
            lit.append(step.button)
        return lit

    def _button_deal(self) -> None:
        step = self._next_step() if self.state == "dealing" else None
        if isinstance(step, PressDue) and step.button == "deal":
            self._pressed(step)
            self._step_done()
            return
        super()._button_deal()

    def _step_done(self) -> None:
        if self._next_step() is None:
            self._fire("hands_complete")
        else:
            self._publish_prompt()

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        step = self._next_step() if self.state == "dealing" else None
        if not isinstance(step, DecisionDue):
            return f"no decision is due (state {self.state})"
        if seat != step.seat:
            return f"seat {step.seat} decides first"
        if name not in step.choices:
            return f"seat {seat} may press {' or '.join(step.choices)} now, not {name}"
        return None

    def _dealing_prompt(self) -> dict:
        step = self._next_step()
        if isinstance(step, DecisionDue):
            text = f"Seat {step.seat}: {' or '.join(step.choices)}" + (f" ({step.why})" if step.why else "") + "."
            return {"expect": "decision", "seat": step.seat, "choices": list(step.choices), "text": text}
        if step is None:
            return {"expect": "none", "hand": None, "text": "Every hand is complete."}
        if isinstance(step, PressDue):
            return {"expect": step.expect, "hand": None, "text": step.text}
        face = " face down" if step.face == "down" else ""
        text = f"Card to {step.where}, position {step.position}{face}" + (f": {step.why}" if step.why else "") + "."
        prompt: dict[str, Any] = {"expect": "card", "hand": step.hand, "position": step.position, "face": step.face,
                                  "text": text}
        if step.seat is not None:
            prompt["seat"] = step.seat
        return prompt

    def _due_text(self) -> str:
        step = self._next_step()
        if isinstance(step, DecisionDue):
            return f"seat {step.seat} to {' or '.join(step.choices)}"
        if isinstance(step, PressDue):
            return f"no card: {step.text[0].lower()}{step.text[1:].rstrip('.')}"
        if step is None:
            return "no card"
        return f"card -> {step.where}" + (f" ({step.why})" if step.why else "")

    def _deciding(self) -> DecisionDue | None:
        step = self._next_step() if self.state == "dealing" else None
        return step if isinstance(step, DecisionDue) else None

    def _light_seats(self) -> dict[str, list[int]]:
        seats = super()._light_seats()
        due = self._deciding()
        seats["turn"] = [] if due is None else [due.seat]
        return seats

    def _seat_buttons_lit(self) -> dict[str, list[int]]:
        due = self._deciding()
        return {} if due is None else {choice: [due.seat] for choice in due.choices}
