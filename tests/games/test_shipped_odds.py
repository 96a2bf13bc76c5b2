"""The odds `tablectl odds` prints from data computed offline (tools/odds/): each file says how it
was made; the simulations (No Bust's bet, Double-Hand's seat) add up, their 95 % interval is at
most 0.1 percentage point wide, and a fresh seeded simulation of the game's own code agrees with
them; Hot Action's exact count adds up to one for every shoe, in fractions."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from games.double_hand import odds as double_hand
from games.hot_action import odds as hot_action
from games.no_bust import odds as no_bust
from games.odds import shipped

SIMULATED = {"no_bust": (no_bust, "bet"), "double_hand": (double_hand, "double_hand")}


def _wager(game: str, **kw):
    module, name = SIMULATED[game]
    return next(w for w in module.odds(**kw).wagers if w.wager == name)


@pytest.mark.parametrize("game", sorted(SIMULATED))
def test_the_shipped_simulation_is_tight_and_says_how_it_was_made(game):
    data = shipped(SIMULATED[game][0].DATA)
    assert data is not None, f"{game}: no shipped simulation"
    assert data["script"] == "tools/odds/simulate_bets.py" and data["game"] == game
    assert isinstance(data["seed"], int) and data["seconds"] > 0 and data["computed"] and data["commit"]
    per_round = 2 if game == "double_hand" else 1
    assert sum(data["counts"].values()) == per_round * data["rounds"]
    w = _wager(game)
    assert w.method == "simulation" and w.interval is not None
    lo, hi = w.interval
    assert hi - lo <= 0.001, f"{game}: the interval is {100 * (hi - lo):.3f} points wide"
    assert lo <= float(w.expected) <= hi
    assert f"seed {data['seed']}" in w.note and "tools/odds/simulate_bets.py" in w.note
    assert abs(float(w.total_probability()) - 1) < 1e-12


@pytest.mark.parametrize("game, fresh", [("no_bust", {"rounds": 20_000, "seed": 7}),
                                         ("double_hand", {"samples": 1_000, "seed": 7})])
def test_a_fresh_simulation_of_the_games_own_code_agrees(game, fresh):
    """Another seed, live: the two means differ by less than 4 combined standard errors."""
    big, small = _wager(game), _wager(game, **fresh)
    se = [(w.interval[1] - w.interval[0]) / 2 / 1.96 for w in (big, small)]
    gap = abs(float(big.expected) - float(small.expected))
    assert gap < 4 * math.hypot(*se), (game, float(big.expected), float(small.expected))


def test_hot_actions_exact_count_covers_every_shoe_and_adds_up_to_one():
    data = shipped(hot_action.DATA)
    assert data is not None and data["seed"] is None and data["script"] == "tools/odds/hot_action_bet.py"
    assert [r["decks"] for r in data["results"]] == list(range(1, 9))
    for r in data["results"]:
        assert sum(Fraction(p) for p in r["probabilities"].values()) == 1, r["decks"]
    for decks in (1, 8):
        (bet,) = hot_action.odds(decks=decks).wagers
        assert bet.method == "exact" and bet.interval is None and bet.total_probability() == 1
        assert "tools/odds/hot_action_bet.py" in bet.note and f"{decks} deck" in bet.note
