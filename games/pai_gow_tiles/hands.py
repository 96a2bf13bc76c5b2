"""Two-tile hands and four-tile settings: ranking, comparison with the banker, the split rules
and the house way (california-card-room-games.txt, "Pai Gow Tiles": Scoring, How to Arrange the
Tiles, Hand Rankings, House Way).

Ranking of a two-tile hand, highest first ("How to Arrange the Tiles" 1-6, Hand Rankings):

1. the Supreme Pair (the two Gee Joon tiles);
2. matched pairs, 3. unmatched pairs (games.pai_gow_tiles.tiles, by pair rank);
4. a Wong: "Any 2 or 12-spot tile and any 9-spot tile";
5. a Gong: "Any 2 or 12-spot with any 8-spot tile";
6. points: the spots of both tiles, "only the right hand digit" (Scoring), 9 best. A 9 whose
   high tile is Teen or Dey is called a *high nine* (Teen or Dey with a 7-spot tile): it is a 9
   and wins against other 9s only by its high tile, as Scoring says.

Hands of equal value -- the same pair, Wong or Gong class, or the same points -- are decided by
the highest ranked tile of each (Scoring: "take the highest ranked tile in each hand and compare
them"); the same value and identical high tiles is a *copy*, and "the player/dealer wins all copy
hands"; two hands of zero points go to the player-dealer "regardless of the high tile". Only the
higher tile of each hand is compared (the sheet names no second comparison).

Reading (Scoring is silent on it; option ``gee_joon_wild``): a Gee Joon tile in a hand that is
not the Supreme Pair counts 3 or 6, whichever makes the better hand -- the rule of every Pai Gow
room. With the option off its spots are counted as the sheet's sentence says (1-2 is 3, 2-4 is 6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from games.pai_gow_tiles.tiles import Tile, pair_rank

Kind = Literal["supreme_pair", "pair", "wong", "gong", "points"]

CLASS = {"points": 0, "gong": 1, "wong": 2, "pair": 3, "supreme_pair": 3}


@dataclass(frozen=True)
class Hand:
    """A two-tile hand as it ranks: its class, its points, its pair rank, its high tile."""

    tiles: tuple[Tile, Tile]
    kind: Kind
    points: int
    """The hand's numeric value (0-9) as Scoring counts it; a pair, Wong or Gong ranks by its class."""
    pair: int
    """The pair's rank (games.pai_gow_tiles.tiles.pair_rank), 0 when not a pair."""
    high_tile: int
    """The strength of the higher ranked tile (Teen 16 ... Gee Joon 1)."""

    @property
    def key(self) -> tuple[int, int, int, int]:
        """Ranking order: the class, the pair, the points, the high tile."""
        return (CLASS[self.kind], self.pair, self.points, self.high_tile)

    @property
    def high_nine(self) -> bool:
        """A 9 with Teen or Dey: the best 9 there is, by its high tile."""
        return self.kind == "points" and self.points == 9 and any(t.teen_or_dey for t in self.tiles)

    def describe(self) -> str:
        names = "+".join(t.kind for t in self.tiles)
        if self.kind == "points":
            what = "high nine" if self.high_nine else f"{self.points} points"
            return f"{what} ({names})"
        return f"{self.kind.replace('_', ' ')} ({names})"

    def to_dict(self) -> dict:
        return {"tiles": [t.code for t in self.tiles], "kind": self.kind, "points": self.points,
                "high_nine": self.high_nine}


def hand(a: Tile, b: Tile, *, gee_joon_wild: bool = True) -> Hand:
    """Rank two tiles (Hand Rankings; Scoring). The hand lists its higher ranked tile first."""
    if b.strength > a.strength:
        a, b = b, a
    top = a.strength
    rank = pair_rank(a, b)
    if rank is not None:
        kind: Kind = "supreme_pair" if a.gee_joon else "pair"
        return Hand((a, b), kind, (a.spots + b.spots) % 10, rank, top)
    for big, other in ((a, b), (b, a)):
        if big.teen_or_dey and other.spots == 9:
            return Hand((a, b), "wong", (a.spots + b.spots) % 10, 0, top)
    for big, other in ((a, b), (b, a)):
        if big.teen_or_dey and other.spots == 8:
            return Hand((a, b), "gong", (a.spots + b.spots) % 10, 0, top)
    return Hand((a, b), "points", points(a, b, gee_joon_wild=gee_joon_wild), 0, top)


def points(a: Tile, b: Tile, *, gee_joon_wild: bool = True) -> int:
    """Scoring: the right-hand digit of both tiles' spots; a Gee Joon tile counts 3 or 6,
    whichever is better, when ``gee_joon_wild`` (the module's reading)."""
    def counts(t: Tile) -> tuple[int, ...]:
        return (3, 6) if gee_joon_wild and t.gee_joon else (t.spots,)
    return max((x + y) % 10 for x in counts(a) for y in counts(b))


Winner = Literal["player", "banker"]


def beats(player: Hand, banker: Hand) -> Winner:
    """Who wins one hand against the other: the player only with a strictly higher hand. Copies
    (the same value and identical high tiles) and two zeros go to the banker (Scoring)."""
    if player.kind == banker.kind == "points" and player.points == banker.points == 0:
        return "banker"
    return "player" if player.key > banker.key else "banker"


@dataclass(frozen=True)
class Setting:
    """A player's four tiles set into a high hand and a low hand (Rules of Play)."""

    high: Hand
    low: Hand

    def to_dict(self) -> dict:
        return {"high": self.high.to_dict(), "low": self.low.to_dict()}


def arrangement_problem(high: Sequence[Tile], low: Sequence[Tile], *, gee_joon_wild: bool = True) -> str | None:
    """Why two stacks are not a setting the sheet allows, or None. Rules of Play: four tiles "set
    into two hands; each consisting of two tiles, with the high hand in one stack and the low hand
    in another": each stack is two tiles, and the low hand may not outrank the high hand (a low
    hand equal to the high is still not higher: allowed)."""
    if len(high) != 2 or len(low) != 2:
        return (f"a hand is set as two tiles high and two low (Rules of Play), not {len(high)} high and "
                f"{len(low)} low")
    h, lo = hand(*high, gee_joon_wild=gee_joon_wild), hand(*low, gee_joon_wild=gee_joon_wild)
    if lo.key > h.key:
        return (f"the low hand {lo.describe()} outranks the high hand {h.describe()}: the high hand must be "
                "the higher of the two (Rules of Play)")
    return None


def setting(high: Sequence[Tile], low: Sequence[Tile], *, gee_joon_wild: bool = True) -> Setting:
    """The setting of two stacks; :class:`ValueError` with :func:`arrangement_problem`'s reason."""
    why = arrangement_problem(high, low, gee_joon_wild=gee_joon_wild)
    if why is not None:
        raise ValueError(why)
    return Setting(hand(*high, gee_joon_wild=gee_joon_wild), hand(*low, gee_joon_wild=gee_joon_wild))


Outcome = Literal["win", "lose", "push"]


@dataclass(frozen=True)
class Comparison:
    """A player's setting against the player-dealer's (Rules of Play)."""

    high: Winner
    low: Winner

    @property
    def outcome(self) -> Outcome:
        """"A player wins if both hands rank higher than both hands of the player/dealer. If only
        one hand ranks higher, it is a tie or a push. If both ... rank lower ..., the player
        loses" -- high against high, low against low."""
        won = (self.high == "player") + (self.low == "player")
        return "win" if won == 2 else "push" if won == 1 else "lose"


def compare(player: Setting, banker: Setting) -> Comparison:
    return Comparison(beats(player.high, banker.high), beats(player.low, banker.low))


# --- the house way ------------------------------------------------------------------------------

def splits(four: Sequence[Tile], *, gee_joon_wild: bool = True) -> list[Setting]:
    """The three ways to set four tiles, each with its higher hand high."""
    return [w for w, _ in _ways(list(four), gee_joon_wild)]


def _ways(four: list[Tile], wild: bool) -> list[tuple[Setting, frozenset[int]]]:
    """The three ways, each with the positions (in ``four``) of its high hand's tiles: positions,
    not tiles, since a matched kind's two tiles are equal."""
    found = []
    for other in (1, 2, 3):
        together = frozenset({0, other})
        rest = frozenset(range(4)) - together
        a = hand(*(four[i] for i in sorted(together)), gee_joon_wild=wild)
        b = hand(*(four[i] for i in sorted(rest)), gee_joon_wild=wild)
        found.append((Setting(a, b), together) if a.key >= b.key else (Setting(b, a), rest))
    return found


def _apart(high: frozenset[int], a: int, b: int) -> bool:
    """The way whose high hand holds positions ``high`` puts ``a`` and ``b`` in different hands."""
    return (a in high) != (b in high)


def house_way(four: Sequence[Tile], *, gee_joon_wild: bool = True) -> Setting:
    """The house way (House Way; How to Arrange the Tiles), as this module reads the sheet:

    With a pair ("Most valuable high hand is a pair"), the pair is the high hand, unless the
    sheet's split rules for that pair say to split it (the higher pair, when there are two):
    - the Supreme Pair: when "the third tile has 6-spots and the fourth tile has 4, 5 or 6-spots";
    - 7-spot pairs (Tit, Mixed 7s): when the other two are a Teen and a Dey and the low hand after
      the split is 7 or more;
    - 8-spot pairs (Yun, Mixed 8s): when the low hand after the split is 7 or more;
    - 9-spot pairs (Mixed 9s): when the low hand after the split is 9 or more;
    - Teen or Dey pairs: when the low hand after the split is 6 or more, "or with tiles containing
      9 or 11-spots" (read: either other tile has 9 or 11 spots);
    - every other pair (4, 5, 6, 10 or 11 spots): never ("Never split pairs with tiles that have
      4, 5, 6, 10 or 11 spots").
    "The low hand after the split" is that of the better of the two ways to split the pair (the
    better low hand, then the better high); a Wong, a Gong or a pair is more than any points.

    Without a pair, "How to Arrange the Tiles" 4-7 is read as the high hand's preference: a Wong,
    else a Gong (of several, the one that leaves the better low hand), else "Largest tile with the
    smallest tile" (by rank; the middle two make the other hand), set with its higher hand high.
    """
    four = list(four)
    if len(four) != 4:
        raise ValueError(f"the house way sets four tiles, not {len(four)}")
    ways = _ways(four, gee_joon_wild)
    paired = [(w, t) for w, t in ways if w.high.kind in ("pair", "supreme_pair")]
    if paired:
        kept, in_high = max(paired, key=lambda wt: (wt[0].high.key, wt[0].low.key))
        a, b = sorted(in_high)  # the pair's positions
        split = max((w for w, t in ways if _apart(t, a, b)), key=lambda w: (w.low.key, w.high.key))
        return split if _split_the_pair(kept, split.low) else kept
    for kind in ("wong", "gong"):
        found = [w for w, _ in ways if w.high.kind == kind]
        if found:
            return max(found, key=lambda w: (w.low.key, w.high.key))
    order = sorted(range(4), key=lambda i: four[i].strength)
    small, big = order[0], order[-1]
    return next(w for w, t in ways if not _apart(t, small, big))


def _at_least(h: Hand, value: int) -> bool:
    """A hand worth ``value`` points or more (a Wong, a Gong or a pair is more than any points)."""
    return h.kind != "points" or h.points >= value


def _split_the_pair(kept: Setting, low_after: Hand) -> bool:
    """The House Way's split rules for the pair in ``kept.high`` (see :func:`house_way`)."""
    pair, others = kept.high.tiles, kept.low.tiles
    kind, spots = pair[0].kind, pair[0].spots
    if kind == "gee_joon":
        return any(x.spots == 6 and y.spots in (4, 5, 6) for x, y in (others, others[::-1]))
    if kind in ("teen", "dey"):
        return _at_least(low_after, 6) or any(t.spots in (9, 11) for t in others)
    if spots == 7:
        return {t.kind for t in others} == {"teen", "dey"} and _at_least(low_after, 7)
    if spots == 8:
        return _at_least(low_after, 7)
    if spots == 9:
        return _at_least(low_after, 9)
    return False
