"""Commission-Free Baccarat as a person reads it (the registry's ``narrate`` and ``legend``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.words import card_action_button, cards, rotating_player_dealer


def result(data: Mapping[str, Any]) -> list[str]:
    """``Player 6H 2H = 8 (natural)  Banker 6H 6D = 2  ->  Player wins`` (rule 19), the banker's 6
    noted (rule 8b)."""
    def hand(name: str) -> str:
        h = data[name]
        natural = " (natural)" if h.get("natural") else ""
        return f"{name.title()} {cards(h['cards'])} = {h['total']}{natural}"

    winner = str(data["winner"])
    said = "a tie" if winner == "tie" else f"{winner.title()} wins"
    six = " with 6: pays 1 to 2 (rule 8b)" if data.get("banker_six") else ""
    return [f"{hand('player')}   {hand('banker')}   ->  {said}{six}"]


def action_button(data: Mapping[str, Any]) -> list[str]:
    """Rule 21: the player-dealer's second card places the button."""
    return card_action_button(data, "second card")


NARRATE = {"result": result, "action_button": action_button}
LEGEND = {
    "player-dealer": rotating_player_dealer('rule 21'),
    "action button": ("where settling starts when the player-dealer's wager does not cover the table: the "
                      "player-dealer's second card counts A 1, 2-10 as marked, J 11, Q 12, K 13, counted "
                      "clockwise from the player-dealer's position as 0 (rule 21)."),
}
