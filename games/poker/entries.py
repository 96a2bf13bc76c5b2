"""What the pit enters by card code in a pitched poker game (a showdown, up cards, an opened or
exposed card, a community card): one card checked against the deck, and a seat given as a JSON
key -- the same in every poker-room game, so written once.

A refusal names the card by its place ("card 2 of seat 3's hand"), never by its code, and gives
no example code either: a refused entry may hold a card still face down, and the refusal is
published, journaled and archived (DESIGN.md, "What must never leave the controller").
"""

from __future__ import annotations

from typing import Any

from games.cards import Card, try_card
from games.decks import DeckSpec


class EntryError(ValueError):
    """An entry the rules refuse; the message names no card code entered."""


def card_of(code: Any, what: str, spec: DeckSpec) -> Card:
    """One card entered (``what`` names its place), or :class:`EntryError`."""
    c = try_card(code) if isinstance(code, str) else None
    if c is None:
        joker = "; or the joker's code" if any(card.is_joker for card in spec.counts) else ""
        raise EntryError(f"{what} is not a card code: a rank (2-10, J, Q, K, A) then a suit (C, D, H, S){joker}")
    if c not in spec.counts:
        raise EntryError(f"{what} is not a card of the deck ({spec.name})")
    return c


def seat_key(key: Any) -> int | None:
    """A seat given as a JSON object's key ("3") or a number; None when it is no seat number."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key
    if isinstance(key, str) and key.isdigit() and len(key) <= 2:
        return int(key)
    return None


__all__ = ["EntryError", "card_of", "seat_key"]
