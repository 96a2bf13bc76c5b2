"""The outcome monitor end to end (issue 25.1 and 25.4): a simulated hand-forming shuffler biased
towards a class (``biased_hands``: a quarter of its hands made to hold a pair) deals Three Card
Poker on a real broker, and a pit subscriber receives the ``outcome_bias`` warning naming the
player-dealer's hand and the pair; the same table with a fair shuffler deals as long without one.
The number of rounds each took is printed (``-s``) and quoted in docs/operations.md."""

from __future__ import annotations

import pytest

from controller.shared.schemas import validate, validate_event
from controller.table.outcome_stats import MIN_ROUNDS

OPTIONS = {"deal_from": "hand_shuffler", "decks": 1}


def _bias(events: list[dict]) -> dict | None:
    return next((e for e in events if e["kind"] == "alarm" and e["data"]["code"] == "outcome_bias"), None)


def _integrity(table) -> dict:
    with table.cond:
        found = [p for t, p in table.messages if t == f"{table.base}/integrity"]
    return found[-1]


def _weaker(share: float):
    """The rig's hand-forming shuffler biased from the start with another share than the fault's."""
    def prepare(rig) -> None:
        rig.devices["shuffler"].inject("biased_hands", share=share)
    return prepare


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "share"), [(21, None), (22, None), (24, 0.08)])
def test_a_shuffler_that_forms_pairs_too_often_is_named_by_outcome_bias(seed: int, share: float | None,
                                                                      table_factory, subscriber) -> None:
    """``biased_hands@round:1`` (a quarter of the hands made to hold a pair), and a subtler shuffler
    (8 %) set up on the rig directly: each named, the subtler one later."""
    if share is None:
        table = table_factory(game="three_card_poker", seed=seed, game_options=OPTIONS,
                              rig={"faults": ["biased_hands@round:1"]}).start()
    else:
        table = table_factory(game="three_card_poker", seed=seed, game_options=OPTIONS, prepare=_weaker(share)).start()
    pit = subscriber(f"{table.base}/event/alarm")   # the pit's alarm feed, apart from everything else
    alarm = pit.wait_for(lambda m: m.json()["data"]["code"] == "outcome_bias", timeout=400).json()
    table.dealer.paused.set()
    validate_event(alarm, game="three_card_poker")
    # the alarm came with its round's result: the table's own pit has that result too before counting
    table.wait_for(lambda events: any(e["kind"] == "result" and e["round"] == alarm["round"] for e in events),
                   what="the alarm's round's result")
    data = alarm["data"]
    assert data["severity"] == "warning"
    assert data["message"].startswith("player_dealer_hand: 'pair' came ")
    results = [e for e in table.events("result") if e["round"] <= alarm["round"]]
    pairs = sum(1 for e in results if e["data"]["dealer"]["hand"] == "pair")
    rounds = len(results)
    assert rounds >= MIN_ROUNDS
    payload = table.wait_for(lambda _e: (p := _integrity(table))["outcomes"]["player_dealer_hand"]["flagged"] and p,
                             what="the integrity topic to name the class")
    validate("integrity", payload)
    assert "pair" in payload["outcomes"]["player_dealer_hand"]["flagged"]
    print(f"\nseed {seed}, {100 * (share or 0.25):.0f} % of hands made pairs: biased_hands from round 1 named by outcome_bias after {rounds} rounds "
          f"(the player-dealer's hand a pair {pairs} times, {100 * pairs / rounds:.1f} %; fair 16.9 %): "
          f"{data['message']}")


@pytest.mark.slow
def test_a_fair_hand_forming_shuffler_raises_no_outcome_bias(table_factory, subscriber) -> None:
    rounds = MIN_ROUNDS + 150
    table = table_factory(game="three_card_poker", seed=23, game_options=OPTIONS)
    pit = subscriber(f"{table.base}/event/result")
    table.start()
    pit.wait_for(lambda m: m.json()["round"] >= rounds, timeout=300)
    table.dealer.paused.set()
    assert _bias(table.events()) is None
    payload = table.wait_for(lambda _e: (p := _integrity(table))["outcomes"]["player_dealer_hand"]["rounds"]
                             >= rounds and p, what="the integrity topic to catch up")
    validate("integrity", payload)
    hand = payload["outcomes"]["player_dealer_hand"]
    assert hand["flagged"] == [] and hand["p_value"] > 1e-4
    print(f"\nfair: {hand['rounds']} rounds, no outcome_bias; chi-square {hand['chi_square']:.2f} on {hand['df']} df, "
          f"p = {hand['p_value']:.3f}")


def test_a_dice_game_counts_the_total_of_each_throw_its_rounds_used(table_factory) -> None:
    """Pai Gow Tiles (no cards): the integrity topic counts the total of every ``dice`` event."""
    table = table_factory(game="pai_gow_tiles", seed=25).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 5, what="5 results")
    table.dealer.paused.set()
    throws = [e["data"]["total"] for e in table.events("dice")]
    payload = table.wait_for(lambda _e: (p := _integrity(table))["outcomes"]["dice_total"]["rounds"] >= len(throws)
                             and p, what="the integrity topic to catch up")
    validate("integrity", payload)
    counted = {c["name"]: c["count"] for c in payload["outcomes"]["dice_total"]["classes"] if c["count"]}
    assert counted == {str(t): throws.count(t) for t in set(throws)}


@pytest.mark.parametrize("game", ["baccarat", "joker_seven", "three_card_poker", "seven_card_thrill", "no_bust",
                                  "betwin", "double_hand", "hot_action"])
def test_every_counting_game_counts_each_published_round(game: str, table_factory, caplog) -> None:
    """Each game's simulated rounds: every result (a dice game's every throw) is counted once in a
    class its probabilities know (a class they lack is logged and the round not counted)."""
    caplog.set_level("ERROR", logger="controller.table.integrity")
    table = table_factory(game=game, seed=26).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 6, what="6 results",
                   timeout=60)
    table.dealer.paused.set()
    results, throws = table.events("result"), table.events("dice")
    payload = table.wait_for(lambda _e: (p := _integrity(table))["outcomes"]
                             and min(w["rounds"] for w in p["outcomes"].values()) >= (len(throws) or len(results))
                             and p, what="the integrity topic to catch up")
    validate("integrity", payload)
    for wager, figures in payload["outcomes"].items():
        assert figures["rounds"] == (len(throws) if wager == "dice_total" else len(results)), wager
    assert not [r for r in caplog.records if "not counted" in r.getMessage()]


def test_a_shoe_of_other_decks_than_the_config_names_is_refused_by_the_deck_check(table_factory, subscriber) -> None:
    """The wrong-options fault (``wrong_decks``: a Three Card Poker table configured for one deck whose
    shuffler is loaded with two) never reaches the outcome monitor: the deck check refuses the
    shoe before the first round, naming the extra cards."""
    table = table_factory(game="three_card_poker", seed=27, game_options=OPTIONS,
                          rig={"faults": ["wrong_decks@deck_check"]})
    pit = subscriber(f"{table.base}/event/alarm")
    table.start()
    alarm = pit.wait_for(lambda m: m.json()["data"]["code"] == "deck_check_failed", timeout=60).json()
    table.dealer.paused.set()
    validate_event(alarm, game="three_card_poker")
    check = table.wait_event("deck_check")["data"]
    assert (check["ok"], check["expected"], check["counted"], check["missing"]) == (False, 52, 104, [])
    assert len(check["extra"]) == 52
    assert not table.events("result") and not table.events("round_start"), "no round is dealt from it"
    print(f"\nwrong_decks: refused at the deck check before round 1: {alarm['data']['message'][:120]}")
