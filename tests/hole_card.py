"""The end-to-end secrecy check of a game with a face-down card that a ``reveal`` turns up (the
player-dealer's hole card in No Bust, the Banker's in Hot Action Blackjack): what a pit subscriber
received and what the process logged, from the card's face-down event to its reveal."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from logging import LogRecord


def assert_hole_card_kept(messages: Sequence[tuple[str, dict]], records: Sequence[LogRecord],
                          state_cards: Callable[[dict], list], *, hand: str | None = None,
                          skip_if_shown: bool = False, at_least: int = 8) -> None:
    """From each face-down ``card`` event (of ``hand``, or any) to the round's ``reveal``, the
    revealed code is on no topic (events, the retained state, status) and in no log line outside
    the simulator (``records``, by the controller's clock); the retained state's hand
    (``state_cards``) shows no second card before the reveal. ``skip_if_shown``: a window in which
    the same code is also dealt face up (a joker of several) proves nothing and is skipped. At
    least ``at_least`` windows are checked. (A round voided before its reveal never names its
    hole card, so the pit has nothing to look for: the journal holds only what was published.)"""
    logged = [r for r in records if not r.name.startswith("hw_sim")]
    kept = 0
    revealed_at: dict[int, int] = {}
    for i, (_topic, m) in enumerate(messages):
        if not (m.get("kind") == "card" and m["data"].get("face") == "down"
                and (hand is None or m["data"]["hand"] == hand)):
            continue
        rnd = m["round"]
        end = next((j for j in range(i + 1, len(messages)) if messages[j][1].get("kind") == "reveal"
                    and messages[j][1]["round"] == rnd), None)
        if end is None:
            continue
        revealed_at[rnd] = end
        hole = messages[end][1]["data"]["card"]
        if skip_if_shown and hole in {mm["data"].get("card") for _t, mm in messages[i:end] if mm.get("kind") == "card"}:
            continue
        window = json.dumps([mm for _t, mm in messages[i:end]])
        assert f'"{hole}"' not in window, f"round {rnd}: the hole card {hole} was published before its reveal"
        t0, t1 = m["ts"], messages[end][1]["ts"]
        leaks = [r.getMessage() for r in logged if t0 <= r.created < t1 and hole in r.getMessage().split()]
        assert not leaks, f"round {rnd}: the hole card {hole} was logged before its reveal: {leaks}"
        kept += 1
    assert kept >= at_least
    for i, (topic, m) in enumerate(messages):
        if topic.endswith("/state") and m.get("state") == "dealing":
            shown = state_cards(m)
            assert len(shown) < 2 or shown[1] is None or revealed_at.get(m["round"], len(messages)) < i, \
                f"the retained state showed round {m['round']}'s hole card before its reveal"
