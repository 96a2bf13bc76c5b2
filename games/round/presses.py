"""Presses: a dealer's button, or a player's seat button with its seat. Every press is a ``button``
event, accepted or refused with its reason, and the verdict says the same; a button that is not
lit is refused, never acted on (a ``deal`` while a card is due is also a ``missing_draw``
warning)."""

from __future__ import annotations

from typing import Any

from games.round.contract import Verdict


class Presses:
    """Dealer and seat buttons: the lifecycle part that answers presses with verdicts."""

    def press(self, name: str, seat: int | None = None) -> Verdict:
        """A dealer's button, or a player's seat button with its seat. Every press is a
        ``button`` event, accepted or refused with its reason; the verdict says the same."""
        if seat is not None or name in self.SEAT_BUTTONS:
            return self._press_seat(name, seat)
        if name not in self.BUTTONS:
            buttons = ", ".join(self.BUTTONS)
            return self._refuse(name, None, f"unknown button: the buttons are {buttons}"
                                + (f"; seat buttons {', '.join(self.SEAT_BUTTONS)}" if self.SEAT_BUTTONS else ""))
        if name not in self._buttons():
            waiting = self._waiting_for()
            if waiting is not None and name == "deal" and self.state in ("ready", "betting"):
                return self._refuse(name, None, f"the {waiting[0]} {waiting[1]}: no card can be read until it "
                                                "is back")
            if name == "deal" and self.state == "dealing":
                due = self._due_text()
                verdict = self._refuse(name, None, f"a card is due: {due}")
                self._alarm("missing_draw", "warning", f"deal pressed but a card is due: {due}",
                            expected=due, action="draw the card the prompt names")
                return verdict
            return self._refuse(name, None, f"{name} is not lit in state {self.state}")
        self._emit("button", {"button": name, "accepted": True, "reason": None})
        getattr(self, f"_button_{name}")()
        return Verdict(True)

    def button(self, name: str) -> Verdict:
        """A dealer button (:meth:`press` without a seat)."""
        return self.press(name)

    def _press_seat(self, name: str, seat: int | None) -> Verdict:
        if name not in self.SEAT_BUTTONS:
            have = (f"its seat buttons are {', '.join(self.SEAT_BUTTONS)}" if self.SEAT_BUTTONS
                    else "it has no seat buttons")
            return self._refuse(name, seat, f"{name} is not a seat button of {self.game}: {have}")
        if seat is None:
            return self._refuse(name, seat, f"{name} is a seat button: the press must name its seat")
        if not 1 <= seat <= self.seats:
            return self._refuse(name, seat, f"seat {seat} is not one of seats 1..{self.seats}")
        why = self._seat_refusal(name, seat)
        if why is not None:
            return self._refuse(name, seat, why)
        self._emit("button", {"button": name, "accepted": True, "reason": None, "seat": seat})
        self._seat_pressed(name, seat)
        return Verdict(True)

    def _seat_pressed(self, name: str, seat: int) -> None:
        """An accepted seat button: the game's ``_seat_<name>(seat)``."""
        getattr(self, f"_seat_{name}")(seat)

    def _refuse(self, name: str, seat: int | None, reason: str) -> Verdict:
        data: dict[str, Any] = {"button": name, "accepted": False, "reason": reason}
        if seat is not None:
            data["seat"] = seat
        self._emit("button", data)
        return Verdict(False, reason)

    def _seat_refusal(self, name: str, seat: int) -> str | None:
        """Why seat ``seat`` may not press ``name`` now, or None (the game decides)."""
        return f"{name} is not expected from seat {seat} in state {self.state}"

    def _button_shuffle_ack(self) -> None:
        self._fire("shoe_loaded")

    def _button_deal(self) -> None:
        if self.state == "ready":
            self._fire("betting_opened")
        elif self.state == "betting":
            self._fire("no_more_bets")
        elif self.state == "result":
            self._fire("shoe_finished" if self._shuffle_due() else "round_settled")

    def _button_void(self) -> None:
        self._void("dealer pressed void", "dealer")
