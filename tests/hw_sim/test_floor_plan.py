"""hw_sim.floor: what a floor deals, before any process starts (the floor itself runs in
tests/e2e/test_floor_e2e.py)."""

from __future__ import annotations

import tomllib

import pytest

from controller.table.config import parse_raw
from games import registry
from hw_sim.floor import FloorError, GameSpec, default_specs, parse_spec, plan, table_config
from hw_sim.table_config import sim_table_raw, to_toml


def test_tables_take_the_kinds_in_turn_numbered_within_each_and_seeded_apart():
    specs = [parse_spec("baccarat"), parse_spec("holdem:variant=omaha"), parse_spec("baccarat")]
    tables = plan(specs, 5, seed=7)
    assert [(t.id, t.seed) for t in tables] == [
        ("baccarat-01", 7), ("holdem-omaha-01", 8), ("baccarat-02", 9), ("baccarat-03", 10), ("holdem-omaha-02", 11)]
    assert tables[1].spec == GameSpec("holdem", {"variant": "omaha"})


def test_the_default_floor_deals_every_game():
    assert [t.spec.game for t in plan(default_specs(), len(registry.PACKAGES), 1)] == list(registry.PACKAGES)


@pytest.mark.parametrize(("text", "why"), [
    ("roulette", "no game 'roulette': the games are baccarat"),
    ("holdem:variant", "'holdem:variant': an option is KEY=VALUE, as in holdem:variant=omaha"),
    ("holdem:variant=badugi", "'holdem:variant=badugi': "),
    ("baccarat:seats=12", "'baccarat:seats=12': "),
])
def test_a_kind_of_table_the_floor_cannot_deal_is_refused_with_why(text: str, why: str):
    with pytest.raises(ValueError) as caught:
        parse_spec(text)
    assert str(caught.value).startswith(why)


def test_a_fault_for_a_table_the_floor_does_not_have_is_refused():
    with pytest.raises(FloorError, match="--fault names tables the floor does not have: baccarat-09"):
        plan([parse_spec("baccarat")], 2, 1, {"baccarat-09": ["unplug@round:3"]})
    assert plan([parse_spec("baccarat")], 2, 1, {"baccarat-02": ["unplug@round:3"]})[1].faults == ("unplug@round:3",)


def test_a_floor_needs_a_table():
    with pytest.raises(FloorError, match="one table at least"):
        plan(default_specs(), 0, 1)


@pytest.mark.parametrize("game", registry.PACKAGES)
def test_every_floor_table_is_a_config_the_controller_accepts(game: str, tmp_path):
    """Written as TOML and read back, each floor table is what the controller checks any file
    against (controller.table.config.parse_raw): the floor deals no table a config could not."""
    (table,) = plan([GameSpec(game)], 1, 1)
    doc = table_config(table, tmp_path / table.id, "127.0.0.1", 18830, "site")
    back = tomllib.loads(to_toml(doc))
    assert back == doc
    cfg = parse_raw(back, f"<floor {table.id}>")
    assert (cfg.table.id, cfg.mqtt.port, cfg.mqtt.prefix) == (table.id, 18830, "site")
    assert cfg.journal.path == tmp_path / table.id / "journal.db"


def test_toml_keeps_strings_arrays_and_inline_tables():
    doc = {"a": {"s": 'quo"te\\n', "n": [1, 2.5], "t": [{"low": 2, "fee": 100}], "b": True}, "x": 1}
    assert tomllib.loads(to_toml(doc)) == doc
    assert tomllib.loads(to_toml(sim_table_raw("mexican_stud"))) == sim_table_raw("mexican_stud")
