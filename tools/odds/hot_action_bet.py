"""Hot Action Blackjack: the bet counted exactly for a shoe of one to eight decks of 56
(games.hot_action.bet: every pair of the player's and the Banker's final hands, the player drawing
to 18 as the Banker does), and shipped as data that `tablectl odds hot_action` prints.

About a minute of pure Python a deck count (eighty million pairs of hands for eight decks), too
long for the command. Nothing is sampled: no seed.

Run: nice python3 tools/odds/hot_action_bet.py [--decks 8 ...]; it writes
games/hot_action/data/bet_exact.json (each deck count's probabilities as fractions, its run time,
the day, the commit of the code it ran).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from provenance import commit as code_commit  # noqa: E402  (beside this script)

from games.hot_action import bet, odds  # noqa: E402

OUT = ROOT / "games" / "hot_action" / "data" / "bet_exact.json"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--decks", type=int, nargs="+", default=list(range(1, 9)))
    args = p.parse_args()
    commit = code_commit()
    results = []
    for decks in args.decks:
        start = time.process_time()
        probabilities = bet.count(odds.shoe_composition(decks))
        if sum(probabilities.values()) != 1:
            raise SystemExit(f"{decks} decks: the probabilities add up to {sum(probabilities.values())}")
        seconds = round(time.process_time() - start, 1)
        results.append({"decks": decks, "cpu_seconds": seconds,
                        "probabilities": {str(net): str(p) for net, p in sorted(probabilities.items(), reverse=True)}})
        print(f"{decks} deck(s): {float(sum(net * q for net, q in probabilities.items())):+.6f} a unit, {seconds} s of CPU")
    data = {"what": "a player's bet against the Bank, one player, a fresh shoe, the player drawing to 18 as the "
                    "Banker does (games.hot_action.bet)",
            "method": "exact: every pair of the player's and the Banker's final hands, by card composition",
            "script": "tools/odds/hot_action_bet.py", "seed": None, "computed": dt.date.today().isoformat(),
            "python": sys.version.split()[0], "commit": commit, "results": results}
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(data, indent=2) + "\n")
    print(f"-> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
