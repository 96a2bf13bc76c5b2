"""hw_sim.remote_buttons: the simulated dealer presses again what a table offline never heard."""

from __future__ import annotations

from hw_sim.remote_buttons import RemoteButtons

BASE = "casino/t-1"


def buttons() -> tuple[RemoteButtons, list[tuple[str, dict]]]:
    sent: list[tuple[str, dict]] = []
    return RemoteButtons(BASE, lambda topic, payload: sent.append((topic, payload))), sent


def test_a_press_is_sent_again_with_its_id_when_the_table_comes_back_and_has_not_moved_on() -> None:
    remote, sent = buttons()
    remote.on_message(f"{BASE}/event/prompt", {"seq": 40, "kind": "prompt"})
    remote.press("deal")
    remote.on_message(f"{BASE}/status", {"online": False})
    assert len(sent) == 1
    remote.on_message(f"{BASE}/status", {"online": True})
    remote.on_message(f"{BASE}/status", {"online": True})   # each birth: pressed again, same id
    assert [p for _, p in sent] == [sent[0][1]] * 3 and sent[0] == (f"{BASE}/cmd/button", sent[0][1])
    assert sent[0][1]["button"] == "deal" and remote.pressed_again == 2


def test_a_newer_prompt_means_the_press_arrived() -> None:
    remote, sent = buttons()
    remote.on_message(f"{BASE}/event/prompt", {"seq": 40})
    remote.press("show", 2)
    assert sent[0][1]["seat"] == 2
    remote.on_message(f"{BASE}/event/prompt", {"seq": 3})   # another controller's, its own count: not ours
    remote.on_message(f"{BASE}/status", {"online": True})
    assert len(sent) == 2
    remote.on_message(f"{BASE}/event/prompt", {"seq": 41})
    remote.on_message(f"{BASE}/status", {"online": True})
    assert len(sent) == 2


def test_ids_are_unique_to_the_run() -> None:
    first, a = buttons()
    second, b = buttons()
    first.press("deal")
    first.press("deal")
    second.press("deal")
    ids = [p["id"] for _, p in a + b]
    assert len(set(ids)) == 3
