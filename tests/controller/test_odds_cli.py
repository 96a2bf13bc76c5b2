"""`tablectl odds`: what a pit manager reads before opening a game."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

from controller.odds_report import render
from games.odds import GameOdds, OutcomeOdds, WagerOdds

TABLECTL = [sys.executable, "-m", "controller.cli", "odds"]


def test_baccarat_odds_as_text_and_json():
    out = subprocess.run([*TABLECTL, "baccarat"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "banker\n" in out.stdout and "house edge 1.458 %  (exact)" in out.stdout
    assert "    win on 6, 1 to 2  0.05386372  1 to 2" in out.stdout
    js = subprocess.run([*TABLECTL, "baccarat", "--decks", "6", "--json"], capture_output=True, text=True,
                        timeout=60)
    data = json.loads(js.stdout)
    assert data["decks"] == 6 and [w["wager"] for w in data["wagers"]] == ["player", "banker", "tie"]
    assert all(abs(sum(o["probability"] for o in w["outcomes"]) - 1) < 1e-12 for w in data["wagers"])


def test_bad_arguments_exit_2_with_the_reason():
    out = subprocess.run([*TABLECTL, "baccarat", "--paytable", "vegas"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "Commission-Free Baccarat has one paytable (rule 8" in out.stderr
    out = subprocess.run([*TABLECTL, "baccarat", "--decks", "9"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "decks: Commission-Free Baccarat is dealt from 1 to 8 decks" in out.stderr
    out = subprocess.run([*TABLECTL, "pinochle"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "invalid choice: 'pinochle'" in out.stderr


def test_a_paytable_that_favours_the_player_is_flagged_loudly():
    """A coin flip paying 11 to 10: the player's edge is 5 %."""
    flip = WagerOdds("flip", (OutcomeOdds("win", Fraction(1, 2), Fraction(11, 10)),
                              OutcomeOdds("lose", Fraction(1, 2), Fraction(-1))))
    fair = WagerOdds("fair", (OutcomeOdds("win", Fraction(1, 2), Fraction(1)),
                              OutcomeOdds("lose", Fraction(1, 2), Fraction(-1))))
    text = render("Coin", GameOdds("coin", "generous", 1, (flip, fair)))
    assert "    !!! FAVOURS THE PLAYER: player edge 5.000 %  (exact)" in text
    assert "    house edge 0.000 %  (exact)" in text
    assert text.endswith("!!! 1 wager(s) favour the player: flip")


def test_every_game_answers_odds_with_exit_0():
    """Issue 23: every registered game answers `tablectl odds`: a poker-room game in one line saying
    the house takes a fee and banks no wager; Pai Gow Tiles with what can be counted."""
    from games import registry
    for game in registry.names():
        out = subprocess.run([*TABLECTL, game], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, (game, out.stderr)
        if game in ("holdem", "draw", "stud", "mexican_stud", "panguingue"):
            assert len(out.stdout.strip().splitlines()) == 1, out.stdout
            assert "the house takes a fee and banks no wager" in out.stdout
    pai = subprocess.run([*TABLECTL, "pai_gow_tiles"], capture_output=True, text=True, timeout=60).stdout
    assert "the action button goes to position: 1 never, 2 7/27" in pai and "house edge 1.178 %  (exact)" in pai
