"""The banked bets `tablectl odds` can neither count exactly nor simulate tightly at the command,
simulated offline to a 95 % interval at most 0.1 percentage point wide and shipped as data that
`odds` prints with its provenance.

Each game's simulation is its odds module's own (the same dealing, the same rules, the same player
strategy as `odds` prints), run here for as many seeded rounds as the interval needs, measured from
a pilot of the same code:

    no_bust      the bet, one player against the player-dealer, 6 decks and a joker each, a fresh
                 shoe each round (the net's standard deviation about 1.02: 15.8 million rounds
                 give 0.1 point; 17 million are run)
    double_hand  a seat against the designated player, both set the house way, each deal counted
                 both ways (the paired net's standard deviation about 0.08: some 100,000 deals
                 give 0.1 point; 200,000 are run)

The other banked bets are exact: 7 Card Thrill's poker bet (games.seven_card_thrill.showdown,
kept in the module) and Hot Action's bet (games.hot_action.bet, counted offline by
tools/odds/hot_action_bet.py). Why No Bust's and Double-Hand's are not: their odds modules say.

Run: nice python3 tools/odds/simulate_bets.py GAME [--rounds N] [--seed S]; it writes
games/GAME/data/bet_simulation.json (rounds, seed, wall and CPU time, the commit of the code it ran,
the counts by outcome, the interval). Pure Python: No Bust's run is half an hour of one core.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from provenance import commit as code_commit  # noqa: E402  (beside this script)

ROUNDS = {"no_bust": 17_000_000, "double_hand": 200_000}


def run(game: str, rounds: int, seed: int) -> dict:
    commit = code_commit()
    wall, cpu = time.monotonic(), time.process_time()
    if game == "no_bust":
        from games.no_bust.odds import simulate
        tally = {str(net): n for net, n in sorted(simulate(rounds, seed, 6).items())}
        extra: dict = {"wager": "bet", "decks": 6, "jokers_per_deck": 1}
    elif game == "double_hand":
        from games.double_hand.odds import simulate
        counts, total, squares = simulate(rounds, seed, "designated_player")
        tally = dict(sorted(counts.items()))
        mean = total / rounds
        half = 1.96 * math.sqrt(max(squares / rounds - mean ** 2, 0.0) * rounds / (rounds - 1) / rounds)
        extra = {"wager": "double_hand", "decks": 1, "ties": "designated_player",
                 "paired": {"sum": total, "sum_of_squares": squares, "interval": [mean - half, mean + half]}}
    else:
        raise SystemExit(f"no simulation for {game!r}: one of {', '.join(ROUNDS)}")
    return {"game": game, **extra, "rounds": rounds, "seed": seed, "counts": tally,
            "seconds": round(time.monotonic() - wall, 1), "cpu_seconds": round(time.process_time() - cpu, 1),
            "computed": dt.date.today().isoformat(), "python": sys.version.split()[0], "commit": commit,
            "script": "tools/odds/simulate_bets.py"}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=sorted(ROUNDS))
    p.add_argument("--rounds", type=int)
    p.add_argument("--seed", type=int, default=23)
    p.add_argument("--out", type=Path, help="where to write (default games/GAME/data/bet_simulation.json)")
    args = p.parse_args()
    data = run(args.game, args.rounds or ROUNDS[args.game], args.seed)
    out = args.out or ROOT / "games" / args.game / "data" / "bet_simulation.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(data, indent=2) + "\n")
    print(f"{args.game}: {data['rounds']:,} rounds, seed {data['seed']}, {data['seconds']} s -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
