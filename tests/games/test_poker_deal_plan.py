"""Each poker-room game's deal plan (games.poker.deal_plan) read against california-card-room-games.txt
by hand, and the deck check with the sheet's short-stub rules (Draw's TOO FEW CARDS FOR THE DRAW,
7-Card Stud's scramble and community card), card counts worked out in the comments."""

from __future__ import annotations

import pytest

from games.poker.deal_plan import GAMES, check_deck, plan, stud_last_card
from games.poker.showdown import GAMES as SHOWDOWN_GAMES


def outline(game, **options):
    """The plan as short words: deal:dd (faces), burn, board:3, bet:first, discard:1, draw:5 ..."""
    out = []
    for s in plan(game, **options).steps:
        if s.action == "deal":
            out.append("deal:" + "".join({"down": "d", "up": "u", "keep_one_down": "k"}[f] for f in s.faces))
        elif s.action in ("board", "discard", "draw"):
            out.append(f"{s.action}:{s.cards}")
        elif s.action == "bet":
            out.append(f"bet:{s.first}")
        else:
            out.append(s.action)
    return out


HOLDEM_STREETS = ["burn", "board:3", "bet:left_of_button", "burn", "board:1", "bet:left_of_button",
                  "burn", "board:1", "bet:left_of_button", "showdown"]


def test_every_game_has_a_plan_and_every_step_cites_the_sheet():
    assert set(GAMES) == set(SHOWDOWN_GAMES) | {"panguingue"}
    for game in GAMES:
        p = plan(game)
        assert p.game == game
        assert all(s.rule for s in p.steps), game


@pytest.mark.parametrize(("game", "hole"), [("holdem", 2), ("holdem_hi_lo", 2), ("omaha", 4), ("omaha_hi_lo", 4),
                                            ("crazy_pineapple", 3), ("crazy_pineapple_hi_lo", 3)])
def test_holdem_mother_game_and_the_variations_without_a_discard(game, hole):
    # "Each player is dealt two cards face down ... a round of betting ... burns top card and turns
    # three cards face up ... (The Flop) ... burns top card ... (The Turn Card) ... burns top card
    # ... (The River Card) ... The final round of betting"; Omaha "four cards face down"; Crazy
    # Pineapple "three cards face down. After the Flop, the player keeps all three cards"
    assert outline(game) == ["collect", "deal:" + "d" * hole, "bet:left_of_big_blind", *HOLDEM_STREETS]
    p = plan(game)
    assert (p.deck, p.start, p.direction, p.short_stub) == (52, "left_of_button", "clockwise", None)


@pytest.mark.parametrize("game", ["pineapple", "pineapple_hi_lo"])
def test_pineapple_discards_one_after_the_flop(game):
    # "three cards face down. After the Flop, the player discards one card from their hand"
    assert outline(game) == ["collect", "deal:ddd", "bet:left_of_big_blind", "burn", "board:3",
                             "bet:left_of_button", "discard:1", *HOLDEM_STREETS[3:]]          # choice 1
    assert outline(game, pineapple_discard="after_flop")[3:7] == ["burn", "board:3", "discard:1",
                                                                  "bet:left_of_button"]


@pytest.mark.parametrize("game", ["draw", "lowball"])
def test_draw_and_lowball(game):
    # 1 & 2 antes and blinds; THE DEAL AND THE DRAW: "Cards must be cut before each deal"; five
    # cards; 8: one round of betting, one draw, a last round; "Before dealing the draw, the top card
    # from the deck must be discarded"; BLINDS: first to act left of the blind before the draw,
    # left of the dealer after
    assert outline(game) == ["collect", "cut", "deal:ddddd", "bet:left_of_big_blind", "burn", "draw:5",
                             "bet:left_of_button", "showdown"]
    p = plan(game)
    assert (p.deck, p.short_stub) == (53, "draw_stub")   # rule 3: "53 cards"


@pytest.mark.parametrize("game", ["stud", "stud_hi_lo"])
def test_seven_card_stud(game):
    # "two down cards and one up card, then a betting round, then three more up cards (with betting
    # after each) then a final down card and a final round of betting"; four burns
    assert outline(game) == ["collect", "deal:ddu", "bet:bring_in",
                             "burn", "deal:u", "bet:high_showing", "burn", "deal:u", "bet:high_showing",
                             "burn", "deal:u", "bet:high_showing", "burn", "deal:d", "bet:high_showing",
                             "showdown"]
    assert sum(len(s.faces) for s in plan(game).steps if s.action == "deal") == 7   # "seven cards"
    assert sum(s.action == "burn" for s in plan(game).steps) == 4                      # "the four burn cards"
    assert plan(game).start == "left_of_dealer"


def test_razz_is_stud_with_the_low_hand_first():
    # "exactly the same as 7-Card Stud"; "the high card has the forced opening and the low hand is
    # first to act thereafter"
    assert outline("razz") == [w.replace("high_showing", "low_showing") for w in outline("stud")]


def test_mexican_stud():
    # "1 up and 1 down", forced bet by the high card; players may expose before the third card,
    # which comes up or down; "the fourth and fifth cards ... according to the same format";
    # "Starting after the 2nd card, a card will be burned on each round"; 41 cards
    street = ["expose", "burn", "deal:k", "bet:high_showing"]
    assert outline("mexican_stud") == ["collect", "deal:du", "bet:high_card", *street * 3, "showdown"]
    p = plan("mexican_stud")
    assert (p.deck, p.start, p.direction) == (41, "left_of_button", "clockwise")


def test_panguingue():
    # rule 1 the fee before the deal; THE DEAL: "ten cards, dealt in two rounds of five", to the
    # right, from the previous winner; DECLARING
    p = plan("panguingue")
    assert outline("panguingue") == ["collect", "deal:" + "d" * 10, "declare"]
    assert p.steps[1].per_turn == 5
    assert (p.deck, p.start, p.direction) == (320, "previous_winner", "counterclockwise")   # THE DECK: 320
    assert plan("panguingue", pan_decks=10).deck == 400                                     # rule 3: ten decks


@pytest.mark.parametrize(("stub", "players", "want"), [
    (8, 7, None),                # burn and seven cards
    (7, 7, "stud_scramble"),     # burn, 5 dealt, last + 4 burns scrambled, burn: 4 more -> 9 >= 7
    (3, 5, "stud_scramble"),     # burn, 1 dealt, 4 from the scramble
    (3, 6, "stud_community"),    # 5 < 6
    (1, 8, "stud_community"),
])
def test_stud_last_card(stub, players, want):
    assert stud_last_card(stub, players) == want


@pytest.mark.parametrize(("game", "players", "fallback", "needed"), [
    # 7 Card Stud, 52 cards: 7 cards and 4 burns each hand: 7P + 4
    ("stud", 6, None, 46),
    ("stud", 7, "stud_scramble", 53),      # 21 + 3 x 8 = 45 dealt before 7th street: a stub of 7
    ("stud", 8, "stud_community", 60),     # 24 + 3 x 9 = 51: a stub of 1
    ("razz", 8, "stud_community", 60),
    # Mexican, 41 cards: 5P + 3 burns (choice 3)
    ("mexican_stud", 7, None, 38),
    ("mexican_stud", 8, "stud_scramble", 43),   # 16 + 2 x 9 = 34: a stub of 7, 5 + 3 from the scramble
    ("mexican_stud", 9, "stud_community", 48),
    # Draw, 53 cards: 5P + a burn + up to 5P drawn; never the last card
    ("draw", 5, None, 51),
    ("lowball", 6, "draw_stub", 61),
    ("draw", 10, "draw_stub", 101),
    # Hold'em: 2P + 3 burns + 5 board
    ("holdem", 10, None, 28),
    ("holdem", 22, None, 52),
    ("omaha_hi_lo", 11, None, 52),
    ("pineapple", 14, None, 50),
    ("panguingue", 8, None, 80),
])
def test_deck_check(game, players, fallback, needed):
    got = check_deck(game, players)
    assert (got.fallback, got.needed, got.enough) == (fallback, needed, fallback is None)


@pytest.mark.parametrize(("game", "players", "options"), [
    ("stud", 9, {}),             # 27 + 30 = 57 before the last card
    ("mexican_stud", 10, {}),    # 20 + 22 = 42 > 41
    ("draw", 11, {}),            # 55 + 1 > 53 before the draw
    ("holdem", 23, {}),
    ("omaha", 12, {}),
    ("panguingue", 32, {}),      # 320 cards: none left to draw
])
def test_too_many_players_is_refused(game, players, options):
    with pytest.raises(ValueError, match="players"):
        check_deck(game, players, **options)


def test_panguingue_ten_decks_seats_more():
    assert check_deck("panguingue", 32, pan_decks=10).enough


@pytest.mark.parametrize(("call", "message"), [
    (lambda: plan("blackjack"), "game"),
    (lambda: plan("pineapple", pineapple_discard="before_flop"), "pineapple_discard"),
    (lambda: plan("panguingue", pan_decks=9), "pan_decks"),
    (lambda: check_deck("holdem", 1), "players"),
    (lambda: check_deck("holdem", 5.0), "players"),
    (lambda: check_deck("holdem", 5, deck=0), "deck"),
])
def test_bad_input_is_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
