"""Small pieces of the words the games' lines are made of (each game's ``narrate``): money as
money, seats as seats, a wager's outcome as the sheet says it. Here so that fourteen games say
them the same way."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def money(cents: int | None) -> str:
    """``$3.00``: every amount of an event is in cents (the collection schedules')."""
    return "$0.00" if not cents else f"${cents / 100:,.2f}"


def seat_list(seats: Iterable[int]) -> str:
    """``seat 2`` or ``seats 1, 3 and 4``: a seat is never written as a bare number beside money."""
    runs: list[list[int]] = []
    for seat in sorted(set(int(x) for x in seats)):
        if runs and seat == runs[-1][1] + 1:
            runs[-1][1] = seat
        else:
            runs.append([seat, seat])
    if not runs:
        return "no seat"
    if len(runs) == 1 and runs[0][0] == runs[0][1]:
        return f"seat {runs[0][0]}"
    s = [part for a, b in runs for part in ([f"{a}-{b}"] if b > a + 1 else sorted({str(a), str(b)}, key=int))]
    return f"seats {', '.join(s[:-1])} and {s[-1]}" if len(s) > 1 else f"seats {s[0]}"


def cards(codes: Sequence[str] | None) -> str:
    return " ".join(codes) if codes else "(cards not read)"


def outcomes(wagers: Sequence[Mapping[str, Any]]) -> str:
    """``ante wins 1 to 1, play wins, bonus loses``: each wager once, with what it pays."""
    out = []
    for w in wagers:
        name = str(w.get("wager", "")).replace("_", " ")
        verb = {"win": "wins", "lose": "loses", "push": "pushes"}.get(w.get("outcome"), str(w.get("outcome")))
        pays = f" {w['pays']}" if w.get("outcome") == "win" and w.get("pays") else ""
        out.append(f"{name} {verb}{pays}")
    return ", ".join(out)


def collection(take: Mapping[str, Any]) -> str:
    """What the house collects from a poker-room hand (the game banks no wager): a fee per hand
    and the jackpot drop, or time per person."""
    if take.get("basis") == "time":
        return f"time {money(take.get('time_fee_each'))} a person"
    jackpot = f", jackpot drop {money(take['jackpot'])}" if take.get("jackpot") else ""
    return f"fee {money(take.get('fee'))}{jackpot}"


def showdown(show: Mapping[str, Any] | None, board: Sequence[str] | None = None) -> str:
    """The winner of a poker-room hand when the dealer entered its showdown, else that none was:
    the controller reads no card at these games until the dealer enters them (cmd/showdown)."""
    if not show:
        return "no showdown entered"
    parts = []
    if board or show.get("board"):
        parts.append(f"board {cards(board or show.get('board'))}")
    if show.get("high"):
        parts.append(f"high hand {seat_list(show['high'])}")
    if show.get("low"):
        parts.append(f"low hand {seat_list(show['low'])}")
    return "showdown: " + ", ".join(parts) if parts else "showdown entered, no winner named"


def rotating_player_dealer(rule: str | None) -> str:
    """The legend of "player-dealer" where the position rotates as the card games' sheets have it
    (Baccarat rule 21, Three Card Poker R8, No Bust): said once, with the game's rule."""
    where = f" ({rule})" if rule else ""
    return ("a seated player who banks the round in turn, offered the position round the table, never more "
            f"than two rounds running; the house dealer deals and banks no wager{where}.")


def card_action_button(data: Mapping[str, Any], card: str) -> list[str]:
    """The ``action_button`` of a game whose player-dealer's card places it (Baccarat rule 21,
    Three Card Poker R8, No Bust): the seat, what placed it, and who acts first when that is
    another seat (the count landed on the player-dealer)."""
    first = data.get("first_action_seat", data["seat"])
    also = "" if first == data["seat"] else f", first action seat {first}"
    return [f"action button: seat {data['seat']} (the player-dealer's {card} {data['card']} counts "
            f"{data['count']}{also})"]
