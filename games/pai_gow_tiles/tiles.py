"""The tile vocabulary of Pai Gow Tiles (california-card-room-games.txt, "Pai Gow Tiles"):
32 Chinese dominoes that form 16 possible pairs.

A tile is written by its two halves' spots, the smaller first: ``"6-6"`` (Teen), ``"1-1"`` (Dey),
``"1-2"`` (a Gee Joon tile). That code is what a pit command carries and what events publish:
nobody at a card room has to learn a spelling, and the spots are on the tile.

The set (Rules of Play: "32 Chinese dominoes ... which form 16 possible pairs"): the 21 ways two
dice can fall, eleven of them twice (the *matched* tiles: two identical tiles make a pair) and
ten once (the *mixed* tiles: two different tiles of the same spots make a pair -- Mixed 9s, 8s,
7s, 5s -- and the two Gee Joon tiles make the Supreme Pair). 11 x 2 + 10 = 32.

Ranks (Hand Rankings; the sheet's pictures are lost in its text, so the order within the
matched pairs is the order every Pai Gow room posts): Supreme Pair (Gee Joon, 1-2 and 2-4); the
matched pairs Teen 6-6, Dey 1-1, Yun 4-4, Gor 1-3, Mooy 5-5, Chong 3-3, Bon 2-2, Foo 5-6, Ping 4-6,
Tit 1-6, Look 1-5; the unmatched pairs Mixed 9s (4-5, 3-6), 8s (3-5, 2-6), 7s (3-4, 2-5), 5s (1-4,
2-3), in the sheet's order. A single tile
ranks in the same order (Scoring: "take the highest ranked tile in each hand and compare them"),
the two tiles of a mixed kind equal, the Gee Joon tiles lowest.

Pure, no I/O: the dispute command's tiles are parsed here, and every refusal says which tile
and why.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("teen", ("6-6",)),
    ("dey", ("1-1",)),
    ("yun", ("4-4",)),
    ("gor", ("1-3",)),
    ("mooy", ("5-5",)),
    ("chong", ("3-3",)),
    ("bon", ("2-2",)),
    ("foo", ("5-6",)),
    ("ping", ("4-6",)),
    ("tit", ("1-6",)),
    ("look", ("1-5",)),
    ("mixed_9", ("4-5", "3-6")),
    ("mixed_8", ("3-5", "2-6")),
    ("mixed_7", ("3-4", "2-5")),
    ("mixed_5", ("1-4", "2-3")),
    ("gee_joon", ("1-2", "2-4")),
)
"""Every kind of tile, highest first, with its tiles' codes: one code for a matched kind (two
copies in the set), two for a mixed kind (one copy each)."""

MATCHED = 11
"""The first eleven kinds are matched: two identical tiles each."""

CODE = re.compile(r"^([1-6])-([1-6])$")


@dataclass(frozen=True)
class Tile:
    """One tile: its halves' spots, the smaller first."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if not (1 <= self.low <= self.high <= 6):
            raise ValueError(f"a tile has halves of 1 to 6 spots, the smaller first, not {self.low}-{self.high}")

    @property
    def code(self) -> str:
        return f"{self.low}-{self.high}"

    @property
    def spots(self) -> int:
        """Scoring: "count the total of the dots on each tile"."""
        return self.low + self.high

    @property
    def kind(self) -> str:
        return _kind_of()[self.code]

    @property
    def strength(self) -> int:
        """The single tile's rank as a number, higher is better: Teen 16 ... Gee Joon 1. The two
        tiles of a mixed kind are equal (a "copy" when they decide)."""
        return len(KINDS) - [k for k, _ in KINDS].index(self.kind)

    @property
    def matched(self) -> bool:
        return [k for k, _ in KINDS].index(self.kind) < MATCHED

    @property
    def gee_joon(self) -> bool:
        return self.kind == "gee_joon"

    @property
    def teen_or_dey(self) -> bool:
        """The 12- and 2-spot tiles: with a 9 a Wong, with an 8 a Gong (Hand Rankings)."""
        return self.kind in ("teen", "dey")

    def __str__(self) -> str:
        return self.code


@cache
def _kind_of() -> dict[str, str]:
    return {code: kind for kind, codes in KINDS for code in codes}


def tile(code: str) -> Tile:
    """The tile a code names; :class:`ValueError` saying what a tile code is otherwise. The halves
    may come in either order (``"6-5"`` is Foo, 5-6)."""
    found = CODE.match(code) if isinstance(code, str) else None
    if found is None:
        shown = code if isinstance(code, str) else type(code).__name__
        raise ValueError(f"{shown[:20]!r} is not a tile: a tile is its two halves' spots, 1 to 6 each, "
                         "as \"6-6\" or \"1-2\"")
    a, b = sorted((int(found[1]), int(found[2])))
    return Tile(a, b)


def tiles(codes: Iterable[str]) -> list[Tile]:
    return [tile(c) for c in codes]


@cache
def full_set() -> Counter:
    """The 32 tiles by code: a matched kind twice, a mixed tile once."""
    counts: Counter = Counter()
    for i, (_kind, codes) in enumerate(KINDS):
        for code in codes:
            counts[code] = 2 if i < MATCHED else 1
    return counts


def all_tiles() -> list[Tile]:
    """The 32 tiles (copies repeated), highest kind first."""
    return [tile(code) for code, n in full_set().items() for _ in range(n)]


def pair_rank(a: Tile, b: Tile) -> int | None:
    """The pair two tiles make, as a number (higher is better: the Supreme Pair 16, Teen 15 ...
    Mixed 5s 1), or None when they make no pair. A matched pair is two identical tiles; a mixed
    pair is the kind's two different tiles; the Gee Joon tiles make the Supreme Pair (Hand
    Rankings: Supreme Pair, Matched Pairs, Unmatched Pairs)."""
    if a.kind != b.kind:
        return None
    if not a.matched and a == b:
        return None  # one copy of each mixed tile: the same one twice is not a pair (and not in the set)
    names = [k for k, _ in KINDS]
    if a.gee_joon:
        return len(KINDS)
    return len(KINDS) - 1 - names.index(a.kind)


def pairs() -> list[tuple[Tile, Tile]]:
    """The 16 pairs, highest first (the Supreme Pair, the matched, the unmatched)."""
    found = []
    for kind, codes in (KINDS[-1], *KINDS[:-1]):
        del kind
        a, b = (codes[0], codes[0]) if len(codes) == 1 else codes
        found.append((tile(a), tile(b)))
    return found


def over_the_set(hands: Sequence[Sequence[Tile]]) -> str | None:
    """Why these tiles cannot all be on one table (a tile more often than the set holds it),
    or None. The message names the tile, how many times it came and how many the set has."""
    counts = Counter(t.code for hand in hands for t in hand)
    full = full_set()
    for code, n in sorted(counts.items()):
        if n > full[code]:
            have = "twice" if full[code] == 2 else "once"
            return (f"tile {code} ({tile(code).kind}) appears {n} times, but the set of 32 holds it {have} "
                    "(Rules of Play: 32 tiles, 16 pairs)")
    return None
