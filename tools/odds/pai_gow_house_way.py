"""Pai Gow Tiles: a player's bet when both hands are set the house way, counted exactly, offline.

`tablectl odds pai_gow_tiles` prints the result of this script (games/pai_gow_tiles/data/
house_way_odds.json) with its provenance: the count takes about a minute with numpy, which the
table's Pi does not carry, so it runs here and ships as data.

Every deal of the 32 tiles is counted once: the player's four tiles, then the player-dealer's four
of the 28 left -- C(32,4) x C(28,4) = 736,281,000 ordered deals -- by tile *type* (21 types: the
11 matched kinds twice, the 10 mixed tiles once): each 4-tile multiset of types (8,130 of them)
weighted by the copies it can take, C(copies, k) per type, and each player-dealer multiset by the
copies left after the player's. Both hands are set by games.pai_gow_tiles.hands.house_way, compared
high against high and low against low (games.pai_gow_tiles.hands.beats: copies and two zeros to the
player-dealer), for a win (both higher), a push (one) or a loss (none). Nothing is sampled: no seed.

Run: python3 tools/odds/pai_gow_house_way.py [--gee-joon-wild | --no-gee-joon-wild] (default both).
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import sys
import time
from math import comb
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.pai_gow_tiles.hands import house_way  # noqa: E402
from games.pai_gow_tiles.tiles import full_set, tile  # noqa: E402

OUT = ROOT / "games" / "pai_gow_tiles" / "data" / "house_way_odds.json"


def hand_key(h) -> tuple:
    """A total order in which the player wins a hand only with a strictly greater key: every zero
    is equal (two zeros go to the player-dealer), a copy is equal (Scoring)."""
    if h.kind == "points" and h.points == 0:
        return (0, 0, 0, 0)
    return h.key


def count(wild: bool) -> dict:
    start = time.monotonic()
    fs = full_set()
    types = sorted(fs)
    copies = np.array([fs[t] for t in types])
    hands = [m for m in itertools.product(*[range(c + 1) for c in copies]) if sum(m) == 4]
    mats = np.array(hands)                                   # multisets x types
    settings = []
    for m in hands:
        four = [tile(types[i]) for i, k in enumerate(m) for _ in range(k)]
        settings.append(house_way(four, gee_joon_wild=wild))
    keys = sorted({hand_key(s.high) for s in settings} | {hand_key(s.low) for s in settings})
    rank = {k: i for i, k in enumerate(keys)}
    high = np.array([rank[hand_key(s.high)] for s in settings])
    low = np.array([rank[hand_key(s.low)] for s in settings])
    # C(n, k) for n, k in 0..2
    binom = np.array([[comb(n, k) for k in range(5)] for n in range(3)], dtype=np.int64)
    weight = np.prod(binom[copies[None, :], mats], axis=1)   # the player's physical hands per multiset
    tally = {"win": 0, "push": 0, "lose": 0}
    for i, m in enumerate(hands):
        left = copies - np.array(m)
        w = np.prod(binom[left[None, :], mats], axis=1)      # the player-dealer's, from what is left
        won = (high[i] > high).astype(np.int64) + (low[i] > low).astype(np.int64)
        for outcome, n in (("win", 2), ("push", 1), ("lose", 0)):
            tally[outcome] += int(weight[i]) * int(w[won == n].sum())
    total = sum(tally.values())
    assert total == comb(32, 4) * comb(28, 4), total
    return {"gee_joon_wild": wild, "counts": tally, "deals": total, "multisets": len(hands),
            "seconds": round(time.monotonic() - start, 1)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--gee-joon-wild", dest="wild", action="store_const", const=[True])
    p.add_argument("--no-gee-joon-wild", dest="wild", action="store_const", const=[False])
    args = p.parse_args()
    results = [count(w) for w in (args.wild or [True, False])]
    data = {"what": "a player's bet, both hands set the house way, against the player-dealer's",
            "method": "exact: every ordered deal of the 32 tiles (player, then player-dealer), by tile type",
            "script": "tools/odds/pai_gow_house_way.py", "seed": None,
            "computed": dt.date.today().isoformat(), "python": sys.version.split()[0], "numpy": np.__version__,
            "results": results}
    OUT.write_text(json.dumps(data, indent=2) + "\n")
    for r in results:
        c, n = r["counts"], r["deals"]
        print(f"gee_joon_wild={r['gee_joon_wild']}: win {c['win'] / n:.6f} push {c['push'] / n:.6f} "
              f"lose {c['lose'] / n:.6f}  player {100 * (c['win'] - c['lose']) / n:+.4f} %  ({r['seconds']} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
