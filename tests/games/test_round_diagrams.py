"""docs/internals.md's state diagrams are the round machines' own (games.round.diagram): a
transition added to a machine without its diagram fails here."""

from __future__ import annotations

from pathlib import Path

from games.round.diagram import edges, families, unvisited

DOC = Path(__file__).resolve().parents[2] / "docs" / "internals.md"


def test_every_family_of_machines_has_its_diagram_in_the_docs():
    doc = DOC.read_text(encoding="utf-8")
    for names, text in families():
        block = f"*{', '.join(names)}*:\n\n```mermaid\n{text}\n```"
        assert block in doc, f"docs/internals.md lacks the current diagram of {', '.join(names)}"


def test_a_game_without_cards_never_draws_a_deck_check():
    from games.pai_gow_tiles.machine import PaiGowTilesRound

    assert unvisited(PaiGowTilesRound) == {"deck_check", "shuffle", "load_shoe"}
    families_by_game = {name: text for names, text in families() for name in names}
    assert "deck_check" not in families_by_game["pai_gow_tiles"]
    assert "closed --> ready: open_table" in families_by_game["pai_gow_tiles"]
    assert "shuffle --> load_shoe: shuffled_ok" in families_by_game["baccarat"]
    assert "load_shoe" not in families_by_game["holdem"]


def test_a_guard_decided_as_the_round_goes_is_labelled():
    from games import registry

    entry = registry.get("baccarat")
    machine = entry.build(entry.load_options({}, 7), lambda _k, _d: None, 1)
    assert ("voided", "shuffle", "void_done [shuffle due]") in edges(machine)
    assert ("fault", "dealing", "resumed [fault came from dealing]") in edges(machine)
