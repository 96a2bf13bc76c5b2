"""Refused pit commands quote nothing they got (issue 19): through a real Mosquitto to a simulated
Mexican Stud table, the pit sends commands the table must refuse, carrying card codes and other
strings and numbers in every place a command has -- values, keys, a payload that is no object, a
command topic no command has -- and none of it comes back: not in a reply, an event, the retained
state or status, nor in a line of the controller's (or the simulator's) log.

Mexican Stud plays 41 cards, 52 and a joker without the 8s, 9s and 10s (california-card-room-games.txt,
"MEXICAN POKER"), so a code such as 9C can never be on its table: wherever it shows up, it is the
refused value quoted back. The other markers are a string and numbers no rule has a reason to say.
"""

from __future__ import annotations

import json
import logging
import re

from games.poker.deal_plan import plan

NOT_IN_THE_DECK = ("9C", "10H", "8S", "9D", "10S", "8H", "9H", "8D", "10C", "9S")
WORD = "Zq9-marker"
NUMBERS = ("987654321", "765432", "-4321")
FOUND = re.compile(r"\b(?:" + "|".join(NOT_IN_THE_DECK) + r")\b|" + re.escape(WORD) + "|"
                   + "|".join(re.escape(n) for n in NUMBERS), re.IGNORECASE)

REFUSED: list[tuple[str, object]] = [
    # the game's own commands, refused by the machine (their phase is due) ...
    ("up_cards", {"id": "g1", "street": 2, "cards": {"1": "9C", "2": "KH"}}),
    ("up_cards", {"id": "g2", "street": 2, "cards": {"1": "10h", "2": "8s"}}),
    ("up_cards", {"id": "g3", "street": 2, "cards": {"9D": "KH"}}),
    ("expose", {"id": "g4", "seat": 2, "card": "10S"}),
    ("showdown", {"id": "g5", "seat": 1, "cards": ["8H", "9H", "KS", "QS", "2C"]}),
    # ... and by its schema
    ("up_cards", {"id": "g6", "street": "8D", "cards": ["10C"], WORD: 1}),
    ("expose", {"id": "g7", "seat": 987654321, "card": ["9S"], "by": "9C"}),
    ("showdown", {"id": "g8", "seat": "10H", "cards": "9C 8S", "9D": True}),
    # the controller's commands
    ("button", {"id": "c1", "button": "9C", "seat": "10H"}),
    ("button", {"id": "c2", "button": "deal", "seat": 765432}),
    ("void", {"id": "c3", "reason": ["8S", WORD]}),
    ("void", {"id": "c4", "reason": 987654321}),
    ("replay", {"id": "c5", "from": "9D", "to": -4321}),
    ("replay", {"id": "c6", "from": 765432, "to": 987654321}),
    ("dice_reset", {"id": "c7", "cup": "10S"}),
    ("open", {"id": "c8", "9S": WORD}),
    ("close", {"id": "c9", "by": {"8H": "9H"}}),
    ("rebirth", {"id": "c10", "10C": 765432}),
    ("resume", ["9C", WORD]),
    ("resume", "10H"),
    ("open", 987654321),
    # a command name that names no command (and its topic, not a reply topic)
    ("9D", {"id": "c11", "card": "8D"}),
    ("frobnicate", {"id": "c12", "card": "9H"}),
]


def test_a_refused_command_quotes_nothing_of_what_it_got(table_factory, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    table = table_factory(game="mexican_stud", seed=11)
    actions = [s.action for s in plan("mexican_stud").steps]
    at_second = table.dealer.hold_at("press", next(i + 1 for i, a in enumerate(actions) if a == "bet"))
    table.start()
    assert at_second.wait(30)
    table.wait_event("prompt", lambda d: d.get("street") == "second card")   # up_cards is due

    before = len(table.events("command"))
    for name, payload in REFUSED:
        table.pit.client.publish(f"{table.base}/cmd/{name}", json.dumps(payload).encode(), qos=1)
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "command"]) >= before + len(REFUSED),
                   what="every command answered")
    commands = table.events("command")[before:]
    assert len(commands) == len(REFUSED) and not any(c["data"]["ok"] for c in commands), commands
    refusals = {c["data"]["id"]: c["data"]["error"] for c in commands}
    # each names the key and what was expected
    assert refusals["g1"] == "refused: seat 1's second card is not a card of the deck (41 cards: 52 and a joker, no 8, " \
                             "9 or 10)"
    assert refusals["c1"] == ("bad button command: button: must be a button name such as \"deal\" or \"play\"; "
                              "seat: must be an integer")
    assert refusals["c5"] == "bad replay command: from: must be an integer; to: must be at least 1"
    assert refusals["c6"] == ("refused: from..to holds more than 10000 events, the most one replay sends; ask for the "
                              "range in parts")
    assert refusals["c8"] == "bad open command: (top level): an unknown key (the keys are id)"
    assert refusals["c11"] == refusals["c12"] == ("unknown command: the commands are open, close, void, resume, "
                                                  "rebirth, replay, button, dice_reset, integrity_reset, up_cards, expose, showdown")

    # The table deals on: the hand completes (the pit entered nothing for it).
    table.dealer.release()
    table.wait_for(lambda events: any(e["kind"] == "result" for e in events), what="the hand's result", timeout=60)
    table.dealer.paused.set()
    messages, events = table.received()
    # What the table published: replies, events, the retained state and status, the dice topic if
    # any -- everything on its topics but the pit's own commands.
    published = [(t, m) for t, m in messages if "/cmd/" not in t or t.endswith("/reply")]
    assert any(t.endswith("/cmd/invalid/reply") for t, _ in published), "a name that is no command's: cmd/invalid"
    assert sum(t.endswith("/reply") for t, _ in published) >= len(REFUSED)
    assert any(t.endswith("/state") for t, _ in published) and events
    for topic, message in published:
        text = json.dumps(message, ensure_ascii=False)
        assert not FOUND.search(topic) and not FOUND.search(text), (topic, FOUND.search(text), text[:400])
    # Every log line of this process but the pit client's (the test is the pit: its paho log says
    # what it sent); the controller's, its drivers', the simulator's.
    lines = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.name != "controller.pit.client"]
    assert any(line.startswith("controller.") for line in lines), "the controller's log was captured"
    for line in lines:
        assert not FOUND.search(line), line
