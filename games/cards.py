"""The card vocabulary shared by every game, driver and simulator.

A card is named by a short code: rank then suit (``AS``, ``10H``, ``QD``),
or ``JK`` for a joker. Bet'Win's French-lettered deck (betwin.txt, 1.1) uses
ranks ``1``-``5`` and ``M`` (Beggar), ``V`` (Jack), ``C`` (Rider),
``D`` (Lady), ``R`` (King) with the same suit letters.

Every valid code maps to one interned :class:`Card`, so parsing on the hot
path (a card frame from the shoe) is a dictionary lookup and cards compare
by identity as well as by value. Every invalid code gets a
:class:`CardCodeError` that says exactly what is wrong with it, because that
text ends up in an alarm a dealer or a technician has to act on.
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS: tuple[str, ...] = ("C", "D", "H", "S")
"""Clubs, diamonds, hearts, spades: also the bring-in order of 7 Card Stud."""

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}

STANDARD_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BETWIN_RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "M", "V", "C", "D", "R")
"""Bet'Win ranks in ascending order (betwin.txt 1.1): numbers, then Beggar,
Jack, Rider, Lady, King."""

RANK_NAMES = {
    "A": "ace", "J": "jack", "Q": "queen", "K": "king",
    "1": "one", "M": "beggar", "V": "jack (Bet'Win)", "C": "rider", "D": "lady", "R": "king (Bet'Win)",
}
JOKER_CODE = "JK"


class CardCodeError(ValueError):
    """A card code that names no card; the message says why."""

    def __init__(self, code: object, reason: str) -> None:
        self.code = code
        self.reason = reason
        super().__init__(f"bad card code {code!r}: {reason}")


@dataclass(frozen=True, slots=True)
class Card:
    """One card face. ``suit`` is None for a joker."""

    rank: str
    suit: str | None

    @property
    def code(self) -> str:
        return JOKER_CODE if self.suit is None else self.rank + self.suit

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


JOKER = Card("JK", None)

_ALL_RANKS = tuple(dict.fromkeys(STANDARD_RANKS + BETWIN_RANKS))
_BY_CODE: dict[str, Card] = {JOKER_CODE: JOKER}
for _rank in _ALL_RANKS:
    for _suit in SUITS:
        _card = Card(_rank, _suit)
        _BY_CODE[_card.code] = _card


def card(code: str) -> Card:
    """Parse a card code; raise :class:`CardCodeError` naming the fault."""
    found = _BY_CODE.get(code) if isinstance(code, str) else None
    if found is not None:
        return found
    raise CardCodeError(code, _diagnose(code))


def try_card(code: str) -> Card | None:
    """Parse a card code, or None: for codecs, which must never raise."""
    return _BY_CODE.get(code)


def cards(codes: str) -> list[Card]:
    """Parse space-separated codes: ``cards("AS 10H JK")``. For tests and configs."""
    return [card(c) for c in codes.split()]


def _diagnose(code: object) -> str:
    if not isinstance(code, str):
        return f"a card code is text, not {type(code).__name__}"
    if code == "":
        return "empty"
    if code != code.strip():
        return "has surrounding whitespace"
    if code.upper() in _BY_CODE:
        return f"codes are upper case: {code.upper()!r}"
    if not code.isascii() or not code.isalnum():
        return "contains a character that is neither a letter nor a digit"
    if code.upper() in ("JOKER", "JKR", "JO", "J*"):
        return f"a joker is written {JOKER_CODE!r}"
    if len(code) < 2:
        return "too short: a code is a rank followed by a suit (C, D, H, S)"
    rank, suit = code[:-1], code[-1]
    if suit not in SUITS:
        return f"unknown suit {suit!r}: suits are C, D, H, S"
    if rank in ("T", "0"):
        return "ten is written '10'"
    if rank == "1" + "0" * (len(rank) - 1) and len(rank) > 2:
        return "ten is written '10'"
    if rank.isdigit():
        return f"no rank {rank!r}: number ranks are 2-10 (and 1-5 in Bet'Win)"
    return f"unknown rank {rank!r}: ranks are A 2-10 J Q K, Bet'Win 1-5 M V C D R"
