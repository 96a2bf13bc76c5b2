"""7 Card Thrill's poker bet, counted exactly: every deal of a player's seven and the dealer's
seven from one deck of 52 and a joker, C(53,7) x C(46,7) = 8.25 x 10^15 of them, by hand value.

The bet (games.seven_card_thrill.rules.settle_seat) needs three counts:

- the ties, where the two best fives are equal (a push);
- the player's wins: both hands are dealt alike, so a win is as likely as a loss, and wins =
  losses = (deals - ties) / 2;
- of the wins, those paid half: the dealer's losing hand is a high card of King/Jack or lower.

Pairing the hands one by one is out of reach, so the ties are counted by value (category and
kickers), in three parts. u(H) is a hand's value from its ranks alone (as if no five of its cards
shared a suit), v(H) its real value; they differ only on F*, the hands whose flush (five of a
suit, or four and the joker) beats what their ranks make.

- Ranks (:func:`rank_value_ties`): pairs of rank vectors a, b with u(a) = u(b), each dealt from
  cards the other left, prod over ranks of C(4, a_r) C(4 - a_r, b_r), the joker a rank of one
  card; less the pairs where one hand is in F* (its value is a flush and ties no rank value): for
  each rank vector its hands in F* times the hands of equal rank value dealt apart, once for the
  player's hand and once for the dealer's.
- F* against F* (subtracted twice above, and their flushes may tie each other): a hand of F*
  holds at most two cards off its flush suit, so it is a flush pattern (:class:`Pattern`): the
  ranks of its flush suit, the joker or not, the ranks of its off-suit cards.
  In two suits (:func:`flush_ties_two_suits`) two such hands can share only those few off-suit
  cards, so the pairs dealt apart are counted by inclusion and exclusion over the shared cards:
  for every set S of shared cards, the hands holding S by value, one table for the player's flush
  suit and one for the dealer's, multiplied value by value. In one suit
  (:func:`flush_ties_one_suit`) the two flushes hold different ranks of it (nine or more between
  them): pairs of patterns of equal value are counted directly, with the ways their off-suit
  cards are dealt apart.

The half pays are counted over K, the hands of King/Jack high or lower: seven ranks, no ace, no
joker, no straight, no flush, the top two K-J or lower. Against a dealer's hand of K every player's
hand wins but those of K that rank no higher, so half-paid wins = |K| x C(46,7) - (pairs of K + ties
of K) / 2 (:func:`king_jack_low`: the pairs of two rank sets counted by how many ranks they share,
the ways to suit both apart with neither a flush). The ties of K are the ties above at values of K:
:func:`count` checks the two counts equal.

Everything takes the deck's ranks as a parameter, so that tests check it against every deal of
decks of five ranks (tests/games/test_seven_card_thrill_showdown.py). The whole deck's count takes
about a minute in pure Python: :data:`SHEET` keeps it, and the slow test recounts it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from itertools import combinations, combinations_with_replacement, product
from math import comb, prod

from games.cards import JOKER, STANDARD_RANKS, Card
from games.poker.hands import NAME, PAIR, THRILL, Hand, HighRules, best
from games.seven_card_thrill.rules import king_jack_or_lower

CARDS = 7
SPREAD = ("S", "H", "D", "C")
"""Suits dealt round so that no suit holds more than two of seven cards: a hand's rank value."""
OFF = ("H", "D", "C")
"""The suits off a flush in spades."""

Key = tuple[float, ...]


@dataclass(frozen=True)
class Pattern:
    """The hands of F* with a given flush: ranks ``flush`` of the flush suit (a bit a rank), the
    joker ``joker``, the other cards' ranks ``off`` (sorted, at most two), each off-suit card in
    any of three suits (``ways`` of dealing them); ``u`` their rank value, ``v`` their value."""

    flush: int
    joker: int
    off: tuple[int, ...]
    ways: int
    u: Key
    v: Key


@dataclass(frozen=True)
class Showdown:
    """The poker bet's counts over every ordered deal (player, dealer) of a deck."""

    deals: int
    ties: int
    half: int
    """The player's wins paid half (the dealer's losing hand K/J high or lower)."""
    ties_by_value: dict[Key, int] = field(default_factory=dict, compare=False, repr=False)
    hands: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    """Single hands by class (games.seven_card_thrill.classes.label), from the same tables: the
    tests check them against classes.COUNTS."""
    checks: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def wins(self) -> int:
        """Every win, the half-paid ones too: as many as the losses."""
        return (self.deals - self.ties) // 2

    @property
    def losses(self) -> int:
        return self.wins


@dataclass(frozen=True)
class Deck:
    """A deck of four suits of ``ranks`` and one joker, ranked by 7 Card Thrill's rules (ranks left
    out as games.poker.hands removes them: the tests' small decks)."""

    ranks: tuple[str, ...] = STANDARD_RANKS

    @cached_property
    def rules(self) -> HighRules:
        return replace(THRILL, removed=frozenset(STANDARD_RANKS) - set(self.ranks))

    @property
    def size(self) -> int:
        return 4 * len(self.ranks) + 1

    @property
    def deals(self) -> int:
        return comb(self.size, CARDS) * comb(self.size - CARDS, CARDS)

    def hand(self, cards: list[Card]) -> Hand:
        return best(cards, self.rules)


# --- rank vectors ----------------------------------------------------------------------------------


def vectors(n: int, ranks: int, cap: int = 4) -> Iterator[tuple[int, ...]]:
    """Every way to hold ``n`` cards over ``ranks`` ranks, at most ``cap`` of a rank."""
    if ranks == 0:
        if n == 0:
            yield ()
        return
    for k in range(min(n, cap), -1, -1):
        for rest in vectors(n - k, ranks - 1, cap):
            yield (k, *rest)


class RankValues:
    """u: a hand's value from its ranks (and joker) alone, dealt so that no flush can be made."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self._cache: dict[tuple[tuple[int, ...], int], Hand] = {}

    def __call__(self, a: tuple[int, ...], joker: int) -> Hand:
        k = (a, joker)
        h = self._cache.get(k)
        if h is None:
            cards: list[Card] = []
            for r, n in enumerate(a):
                for _ in range(n):
                    cards.append(Card(self.deck.ranks[r], SPREAD[len(cards) % 4]))
            h = self._cache[k] = self.deck.hand(cards + [JOKER] * joker)
        return h


def patterns(deck: Deck, u: RankValues) -> list[Pattern]:
    """Every flush of F* in spades (the other suits' are these by symmetry), with its ways."""
    ranks = len(deck.ranks)
    out: list[Pattern] = []
    for joker in (0, 1):
        for m in range(5 - joker, CARDS - joker + 1):
            rest = CARDS - joker - m
            for flush in combinations(range(ranks), m):
                spades = [Card(deck.ranks[r], "S") for r in flush]
                for off in combinations_with_replacement(range(ranks), rest):
                    count = Counter(off)
                    cards = spades + [Card(deck.ranks[r], OFF[k]) for r, n in count.items() for k in range(n)]
                    v = deck.hand(cards + [JOKER] * joker)
                    a = tuple((r in flush) + count[r] for r in range(ranks))
                    uh = u(a, joker)
                    if v > uh:
                        out.append(Pattern(sum(1 << r for r in flush), joker, off,
                                           prod(comb(3, n) for n in count.values()), uh.key, v.key))
    return out


# --- the ties -----------------------------------------------------------------------------------------


def _apart(a: tuple[int, ...], ja: int, b: tuple[int, ...], jb: int) -> int:
    """Ways to deal a hand of rank vector ``b`` from the cards a hand of ``a`` left."""
    if ja + jb > 1:
        return 0
    out = 1
    for x, y in zip(a, b, strict=True):
        if y:
            if x + y > 4:
                return 0
            out *= comb(4 - x, y)
    return out


def _dealt(a: tuple[int, ...]) -> int:
    return prod(comb(4, x) for x in a if x)


def rank_value_ties(deck: Deck, u: RankValues, improved: dict[tuple[tuple[int, ...], int], int]) -> dict[Key, int]:
    """Ties by rank value: ordered pairs of hands dealt apart with equal rank values, less twice
    (the player's hand, the dealer's) the pairs where one hand is in F* (``improved``: F*'s hands
    by rank vector), whose real value is a flush."""
    classes: dict[Key, list[tuple[tuple[int, ...], int]]] = defaultdict(list)
    for joker in (0, 1):
        for a in vectors(CARDS - joker, len(deck.ranks)):
            classes[u(a, joker).key].append((a, joker))
    out: dict[Key, int] = {}
    for key, members in classes.items():
        total = 0
        for a, ja in members:
            others = sum(_apart(a, ja, b, jb) for b, jb in members)
            total += (_dealt(a) - 2 * improved.get((a, ja), 0)) * others
        out[key] = total
    return out


@cache
def _forced(off: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """For each sub-multiset Z of the off-suit ranks ``off``: the ways to deal ``off`` when cards
    of ranks Z are among them."""
    have = Counter(off)
    out = []
    for z in sorted({c for k in range(len(off) + 1) for c in combinations(off, k)}):
        must = Counter(z)
        out.append((z, prod(comb(3 - must[r], n - must[r]) for r, n in have.items())))
    return tuple(out)


def _bits(mask: int) -> list[int]:
    return [r for r in range(mask.bit_length()) if mask >> r & 1]


def flush_tables(found: list[Pattern]) -> tuple[dict, dict]:
    """For each (Y, Z, J) that shared cards can force on an F* hand in spades -- the spades of
    ranks Y (at most two), off-suit cards of ranks Z (at most two), the joker if J -- the hands
    holding them, by value (v) and by rank value (u)."""
    # A flush's patterns first, merged by what the tables keep, then spread over the Y it holds.
    merged: dict[tuple[int, int], tuple[Key, Counter, dict[tuple[int, ...], Counter]]] = {}
    for p in found:
        _, by_z, by_zu = merged.setdefault((p.flush, p.joker), (p.v, Counter(), defaultdict(Counter)))
        for z, w in _forced(p.off):
            by_z[z] += w
            by_zu[z][p.u] += w
    by_v: dict[tuple, Counter] = defaultdict(Counter)
    by_u: dict[tuple, Counter] = defaultdict(Counter)
    for (mask, joker), (v, by_z, by_zu) in merged.items():
        flush = _bits(mask)
        keys = [(y, j) for y in [(), *((r,) for r in flush), *combinations(flush, 2)] for j in range(joker + 1)]
        for z, w in by_z.items():
            for y, j in keys:
                by_v[(y, z, j)][v] += w
                by_u[(y, z, j)].update(by_zu[z])
    return by_v, by_u


def _inner(one: Counter, two: Counter, into: dict[Key, int], times: int) -> None:
    if len(two) < len(one):
        one, two = two, one
    for key, n in one.items():
        m = two.get(key)
        if m:
            into[key] = into.get(key, 0) + times * n * m


def flush_ties_two_suits(deck: Deck, found: list[Pattern]) -> dict[Key, int]:
    """F* against F* in two suits (the player's flush in spades, the dealer's in hearts; x 12
    ordered pairs of suits): pairs dealt apart with equal values, and with equal rank values (added
    back: the ranks part subtracted them twice and counted them once). By inclusion and exclusion
    over the cards S both hold: S's spades P (the dealer's off-suit cards), hearts Q (the
    player's), diamonds and clubs W (both hands' off-suit cards; by rank, one rank two ways, two
    ranks four, one rank twice one) and the joker; sign (-1)^|S|."""
    by_v, by_u = flush_tables(found)
    ranks = range(len(deck.ranks))
    small = [()] + [(r,) for r in ranks] + list(combinations(ranks, 2))
    ws = [((), 1)] + [((r,), 2) for r in ranks] + [((r, s), 4 if r != s else 1)
                                                   for r, s in combinations_with_replacement(ranks, 2)]
    out: dict[Key, int] = {}
    for (w, ways), j in product(ws, (0, 1)):
        for p in small:
            if len(p) + len(w) > 2:
                continue
            for q in small:
                if len(q) + len(w) > 2:
                    continue
                player = (p, tuple(sorted(q + w)), j)
                dealer = (q, tuple(sorted(p + w)), j)
                sign = -1 if (len(p) + len(q) + len(w) + j) % 2 else 1
                for table in (by_v, by_u):
                    one, two = table.get(player), table.get(dealer)
                    if one and two:
                        _inner(one, two, out, 12 * sign * ways)
    return out


def _off_apart(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """Ways to deal two hands' off-suit cards (ranks ``a`` and ``b``) apart, both off one suit."""
    ca, cb = Counter(a), Counter(b)
    return prod(comb(3, ca[r]) * comb(3 - ca[r], cb[r]) for r in set(ca) | set(cb))


def flush_ties_one_suit(found: list[Pattern]) -> dict[Key, int]:
    """F* against F* in one suit (spades; x 4 suits): the two flushes hold different ranks of it;
    pairs of equal value, and of equal rank value, counted directly (the patterns of a value
    grouped by their flush ranks, which must not meet)."""
    out: dict[Key, int] = {}
    for attr in ("v", "u"):
        groups: dict[Key, dict[int, list[Pattern]]] = defaultdict(lambda: defaultdict(list))
        for p in found:
            groups[getattr(p, attr)][p.flush].append(p)
        for key, flushes in groups.items():
            total = 0
            for f1, f2 in product(flushes, repeat=2):
                if f1 & f2:
                    continue
                for h in flushes[f1]:
                    for d in flushes[f2]:
                        if h.joker + d.joker <= 1:
                            total += _off_apart(h.off, d.off)
            if total:
                out[key] = out.get(key, 0) + 4 * total
    return out


def improved_by_vector(deck: Deck, found: list[Pattern]) -> dict[tuple[tuple[int, ...], int], int]:
    """F*'s hands (every suit) by rank vector and joker."""
    out: dict[tuple[tuple[int, ...], int], int] = Counter()
    ranks = len(deck.ranks)
    for p in found:
        count = Counter(p.off)
        a = tuple((p.flush >> r & 1) + count[r] for r in range(ranks))
        out[(a, p.joker)] += 4 * p.ways
    return out


def single_hands(deck: Deck, u: RankValues, found: list[Pattern]) -> dict[str, int]:
    """Every hand by class, from the rank values and F* (a check of both: classes.COUNTS)."""
    out: Counter[str] = Counter()
    for joker in (0, 1):
        for a in vectors(CARDS - joker, len(deck.ranks)):
            out[_class(u(a, joker).key)] += _dealt(a)
    for p in found:
        out[_class(p.u)] -= 4 * p.ways
        out[_class(p.v)] += 4 * p.ways
    return {k: n for k, n in out.items() if n}


def _class(key: Key) -> str:
    h = Hand(key)
    return f"pair of {NAME[int(key[1])]}" if h.category == PAIR else h.name


# --- the half pays ------------------------------------------------------------------------------------


def _suitings(overlap: int) -> int:
    """Ordered pairs of suitings of two seven-rank hands sharing ``overlap`` ranks (a shared rank
    in two suits), neither hand five of a suit."""
    # The second hand's count depends only on how many of the shared ranks the first has in each suit.
    shared: Counter[tuple[int, ...]] = Counter()
    for first in product(range(4), repeat=CARDS):
        if max(Counter(first).values()) < 5:
            shared[tuple(first[:overlap].count(s) for s in range(4))] += 1
    total = 0
    for taken, n in shared.items():
        # the second hand's suit counts, a polynomial in four variables: a shared rank of the
        # first's suit s takes any suit but s, another rank any suit
        poly: dict[tuple[int, ...], int] = {(0, 0, 0, 0): 1}
        slots = [s for s in range(4) for _ in range(taken[s])] + [None] * (CARDS - overlap)
        for banned in slots:
            nxt: dict[tuple[int, ...], int] = defaultdict(int)
            for e, m in poly.items():
                for s in range(4):
                    if s != banned:
                        nxt[(*e[:s], e[s] + 1, *e[s + 1:])] += m
            poly = nxt
        total += n * sum(m for e, m in poly.items() if max(e) < 5)
    return total


def king_jack_low(deck: Deck, u: RankValues) -> tuple[int, int, dict[Key, int]]:
    """(|K|, ordered pairs of K dealt apart, their ties by value)."""
    ranks = len(deck.ranks)
    sets = []
    for joker in (0, 1):
        for a in vectors(CARDS - joker, ranks):
            h = u(a, joker)
            if king_jack_or_lower(h):
                if joker or max(a) > 1:
                    raise AssertionError(f"a K/J high hand with a joker or a pair: {a}")
                sets.append((sum(1 << r for r, n in enumerate(a) if n), h.key))
    suitings = {k: _suitings(k) for k in range(CARDS + 1)}
    alone = 4 ** CARDS - sum(1 for s in product(range(4), repeat=CARDS) if max(Counter(s).values()) >= 5)
    pairs, ties = 0, defaultdict[Key, int](int)
    for ma, ka in sets:
        for mb, kb in sets:
            n = suitings[(ma & mb).bit_count()]
            pairs += n
            if ka == kb:
                ties[ka] += n
    return len(sets) * alone, pairs, dict(ties)


# --- the count ----------------------------------------------------------------------------------------


def count(deck: Deck = Deck()) -> Showdown:
    """Every deal of ``deck``, counted (the whole deck: about a minute; :data:`SHEET` keeps it)."""
    u = RankValues(deck)
    found = patterns(deck, u)
    ties: dict[Key, int] = Counter()
    for part in (rank_value_ties(deck, u, improved_by_vector(deck, found)), flush_ties_two_suits(deck, found),
                 flush_ties_one_suit(found)):
        for key, n in part.items():
            ties[key] += n
    ties = {k: n for k, n in ties.items() if n}
    if any(n < 0 for n in ties.values()):
        raise AssertionError("a negative count of ties")
    k_hands, k_pairs, k_ties = king_jack_low(deck, u)
    low = {k for k in ties if king_jack_or_lower(Hand(k))} | set(k_ties)
    if any(ties.get(k, 0) != k_ties.get(k, 0) for k in low):
        raise AssertionError("the ties of K/J high hands, counted two ways, differ")
    tie_total, k_tie_total = sum(ties.values()), sum(k_ties.values())
    if (deck.deals - tie_total) % 2 or (k_pairs + k_tie_total) % 2:
        raise AssertionError("an odd count where symmetry makes it even")
    half = k_hands * comb(deck.size - CARDS, CARDS) - (k_pairs + k_tie_total) // 2
    return Showdown(deck.deals, tie_total, half, ties, single_hands(deck, u, found),
                    checks={"flush_patterns": len(found), "king_jack_low_hands": k_hands,
                            "king_jack_low_pairs": k_pairs, "king_jack_low_ties": k_tie_total})


SHEET = Showdown(deals=8_250_459_031_214_400, ties=3_100_131_037_464, half=358_635_153_476_664)
"""What :func:`count` gives for the whole deck (kept so that `tablectl odds` answers at once; the
slow test recounts it): 0.0376 % of deals push, 4.3469 % are half-paid wins."""

