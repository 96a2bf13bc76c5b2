"""No Bust 21st Century Blackjack end to end: the simulator deals from a reading shoe, the simulated
players press the seat buttons the prompts offer, a real Mosquitto carries everything to a pit
subscriber. The pit rebuilds every hand from what was published (cards, splits, doubles,
surrenders, the revealed hole card) and recomputes each result; the player-dealer's hole card is in
no message and no log line before its reveal. And `tablectl demo --game no_bust` ends by itself."""

from __future__ import annotations

import subprocess
import sys

from hole_card import assert_hole_card_kept

from games.cards import card
from games.no_bust.rules import PlayedHand, Rules, settle

TABLECTL = [sys.executable, "-m", "controller.cli"]


def replay(events: list[dict], rnd: int) -> tuple[list, dict[int, list[dict]]]:
    """Round ``rnd``'s layout as the pit sees it: the player-dealer's cards (the hole card from its
    reveal) and each seat's hands, splits, doubles and surrenders from the accepted seat buttons."""
    pd: list = []
    hands: dict[int, list[dict]] = {}
    deciding: dict[int, int] = {}
    for e in events:
        if e["round"] != rnd:
            continue
        d = e["data"]
        if e["kind"] == "card" and d["hand"] == "player_dealer":
            assert d["position"] == len(pd) + 1
            pd.append(d.get("card"))
        elif e["kind"] == "card":
            seat = hands.setdefault(d["seat"], [])
            while len(seat) < d["seat_hand"]:
                seat.append({"cards": [], "wager": "bet", "doubled": False, "surrendered": False})
            hand = seat[d["seat_hand"] - 1]
            assert d["position"] == len(hand["cards"]) + 1, (rnd, d)
            hand["cards"].append(d["card"])
        elif e["kind"] == "prompt" and d["expect"] == "decision":
            deciding[d["seat"]] = d["seat_hand"]
        elif e["kind"] == "button" and d.get("seat") is not None and d["accepted"]:
            seat = hands[d["seat"]]
            hand = seat[deciding[d["seat"]] - 1]
            if d["button"] == "split":   # the second card starts a new hand, after the seat's last
                seat.append({"cards": [hand["cards"].pop()], "wager": "split", "doubled": False, "surrendered": False})
            elif d["button"] == "double":
                hand["doubled"] = True
            elif d["button"] == "surrender":
                hand["surrendered"] = True
        elif e["kind"] == "reveal":
            assert d["position"] == 2 and pd[1] is None
            pd[1] = d["card"]
    return pd, hands


def test_seeded_rounds_recomputed_and_the_hole_card_kept(table_factory, caplog) -> None:
    caplog.set_level("DEBUG")  # every log line of the controller, drivers and simulator in this process
    # One deck (53 cards): a code is one physical card until the next shuffle, so finding it is a leak.
    table = table_factory(game="no_bust", seed=21, game_options={"decks": 1}).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 8, what="8 results",
                   timeout=90)
    table.dealer.paused.set()
    messages, events = table.received()
    decisions = [e["data"]["button"] for e in events if e["kind"] == "button" and e["data"].get("seat")
                 and e["data"]["accepted"]]
    assert len(decisions) >= 8, decisions
    results = [e for e in events if e["kind"] == "result"]
    for result in results:
        rnd, data = result["round"], result["data"]
        pd, hands = replay(events, rnd)
        expected = settle([card(c) for c in pd], {
            s: [PlayedHand(tuple(card(c) for c in h["cards"]), h["wager"], h["doubled"], h["surrendered"])
                for h in hs] for s, hs in hands.items()}, Rules())
        assert {**expected, "player_dealer": data["player_dealer"]} == data, f"round {rnd}"
        assert data["player_dealer"] not in hands, "the player-dealer plays no seat hand"

    # Secrecy on every topic (events, the retained state, status) and in the logs: from the hole
    # card's face-down event to its reveal its code appears nowhere.
    assert_hole_card_kept(messages, caplog.records, lambda state: state["player_dealer_cards"])


def test_demo_deals_ten_rounds_and_exits_0() -> None:
    proc = subprocess.run([*TABLECTL, "demo", "--game", "no_bust", "--rounds", "10", "--seed", "2"],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[-1].startswith("10 rounds in ") and lines[-1].endswith("0 missing, 0 duplicates")
    assert sum(" player-dealer (seat " in line for line in lines) == 10


def test_odds_command() -> None:
    proc = subprocess.run([*TABLECTL, "odds", "no_bust"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "house edge" in proc.stdout and "simulated, 95 % interval" in proc.stdout
    assert "the player-dealer's hand dealt alone from a full shoe, exactly" in proc.stdout
