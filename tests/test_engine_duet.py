"""Hand-traced tests of the batched Duet engine and the mission log.

pgx style: build a known two-sided key, apply a few actions and check the fields the rule
touches. Rules: /work/shared/RULES.md §3, §3.1, §5 and docs/engine-rules.md ("Duet and the
mission log"). Side ``s`` is what player ``s`` sees and judges the guesses on ``s``'s clues.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from codebots.engine import ClueAction, DuetGame, DuetState, GuessAction, make, skip
from codebots.engine.constants import (
    ASSASSIN,
    BYSTANDER,
    CLUE,
    DONE,
    END_AGENTS,
    END_ASSASSIN,
    END_FOURTEEN,
    END_ILLEGAL,
    END_NONE,
    END_OUT_OF_TIME,
    END_SUDDEN_DEATH_MISS,
    GREEN,
    GUESS,
    NO_ACTION,
    STOP,
    SUDDEN_DEATH,
    UNLIMITED,
)
from codebots.keys import DUET_STRUCTURE
from codebots.variants import get_variant

G, B, A = GREEN, BYSTANDER, ASSASSIN
# Cards by category (side 0 identity, side 1 identity), laid out in a fixed order.
GG = [0, 1, 2]
GB = [3, 4, 5, 6, 7]
GA = [8]
BG = [9, 10, 11, 12, 13]
BB = [14, 15, 16, 17, 18, 19, 20]
BA = [21]
AG = [22]
AB = [23]
AA = [24]
SIDE0_GREENS = GG + GB + GA  # what player 1 must find on player 0's clues
SIDE1_GREENS = GG + BG + AG  # what player 0 must find on player 1's clues
ALL_GREENS = sorted(set(SIDE0_GREENS) | set(SIDE1_GREENS))


def duet_key() -> np.ndarray:
    """``(2, 25)`` key following the RULES §3 structure table, categories in a fixed order."""
    pairs = (
        [(G, G)] * 3
        + [(G, B)] * 5
        + [(G, A)]
        + [(B, G)] * 5
        + [(B, B)] * 7
        + [(B, A)]
        + [(A, G)]
        + [(A, B)]
        + [(A, A)]
    )
    return np.array(pairs, dtype=np.int8).T


def new(variant="duet", batch=1):
    game = make(variant)
    state = game.init(
        seeds=np.arange(batch),
        cards=np.tile(np.arange(25), (batch, 1)),
        key=np.tile(duet_key(), (batch, 1, 1)),
    )
    return game, state


def clue(game, state, number=1, **fields):
    return game.step_clue(state, ClueAction(number=number, **fields))


def guess(game, state, *cards, **fields):
    for card in cards:
        state = game.step_guess(state, GuessAction(card=card, **fields))
    return state


def with_bank(state, time, mistake):
    """A hand-built position: set the bank (same for every game of the batch)."""
    n = state.batch_size
    return state.replace(
        time_tokens=np.full(n, time, dtype=np.int8),
        mistake_tokens=np.full(n, mistake, dtype=np.int8),
    )


def with_found(state, cards):
    found = np.zeros_like(state.found)
    found[:, cards] = True
    return state.replace(found=found)


def check(state, game=0, **expected):
    for name, value in expected.items():
        got = getattr(state, name)[game]
        assert got == value, f"{name}: got {got}, expected {value}"


def assert_lost(state, reason, game=0):
    check(state, game, phase=DONE, winner=1, end_reason=reason)


def bystander_turns(game, state, n):
    """n turns that each end on a bystander (side 0: BB cards; side 1: GB cards)."""
    for _ in range(n):
        giver, turn = int(state.giver[0]), int(state.turns[0])
        card = BB[turn // 2] if giver == 0 else GB[turn // 2]
        state = guess(game, clue(game, state, 1), card)
    return state


# ------------------------------------------------------------------ setup and state handling


def test_key_helper_matches_rules_structure():
    """RULES §3: 3 GG, 5 GB, 1 GA, 5 BG, 7 BB, 1 BA, 1 AG, 1 AB, 1 AA; 15 greens in all."""
    key = duet_key()
    pairs = list(zip(key[0].tolist(), key[1].tolist()))
    assert {pair: pairs.count(pair) for pair in set(pairs)} == DUET_STRUCTURE
    for side in (0, 1):
        assert (key[side] == G).sum() == 9 and (key[side] == B).sum() == 13
        assert (key[side] == A).sum() == 3
    assert len(ALL_GREENS) == 15
    assert [i for i in range(25) if key[0, i] == G] == SIDE0_GREENS
    assert sorted(i for i in range(25) if key[1, i] == G) == sorted(SIDE1_GREENS)


def test_init_standard_game():
    """docs: standard game 10/10 (all mistake-side), player 0 is the scheduled first giver."""
    game, s = new()
    assert isinstance(game, DuetGame) and isinstance(s, DuetState)
    check(
        s,
        phase=CLUE,
        giver=0,
        last_giver=-1,
        streak=0,
        time_tokens=0,
        mistake_tokens=10,
        bank=10,
        stop_tokens=0,
        turns=0,
        clues=0,
        winner=-1,
        end_reason=END_NONE,
        sudden_death=False,
    )
    assert not s.found.any() and not s.marked.any() and not s.covered.any()
    assert s.greens_left()[0].tolist() == [9, 9] and s.total_greens_left()[0] == 15


@pytest.mark.parametrize(
    "variant, time, mistake",
    [
        ("duet", 0, 10),
        ("duet[tokens=12]", 0, 12),
        ("duet[expert]", 0, 9),
        ("mission/privet-drive", 5, 5),
        ("mission/train-station", 12, 0),
        ("mission/battle-of-the-atrium", 3, 4),
        ("mission/gringotts[extra_mistake_token]", 7, 4),
        ("mission/diagon-alley[extra_time_tokens]", 9, 3),
        ("mission/privet-drive[flip_time_to_mistake]", 3, 7),
        ("mission/privet-drive[expert]", 4, 5),
    ],
)
def test_mission_token_setup(variant, time, mistake):
    """RULES §3.1: mission T/M → M mistake-side, T-M time-side; rewards/expert adjust it."""
    _, s = new(variant)
    check(s, time_tokens=time, mistake_tokens=mistake, bank=time + mistake)


def test_step_returns_new_state_and_leaves_old_untouched():
    """States are frozen with read-only arrays; a step returns a new state."""
    game, s0 = new()
    s1 = clue(game, s0, 2)
    s2 = guess(game, s1, GB[0])
    s3 = guess(game, s2, BB[0])
    assert len({id(s0), id(s1), id(s2), id(s3)}) == 4
    check(s0, phase=CLUE, clues=0, bank=10)
    check(s2, phase=GUESS, bank=10, guesses_made=1)
    assert not s1.found.any() and s2.found[0, GB[0]] and not s2.marked.any()
    assert s3.marked[0, 0, BB[0]]
    for state in (s0, s1, s2, s3):
        for name in ("found", "marked", "key", "phase", "mistake_tokens"):
            assert not getattr(state, name).flags.writeable
    with pytest.raises(ValueError):
        s3.found[0, 0] = True
    with pytest.raises(dataclasses.FrozenInstanceError):
        s3.phase = np.array([DONE])


def test_batch_games_do_not_interfere():
    """One position, four games: green, bystander, assassin, NO_ACTION."""
    game, s = new(batch=4)
    s = clue(game, s, 2)
    s = game.step_guess(s, GuessAction(card=np.array([GG[0], BG[0], AB[0], NO_ACTION])))
    check(s, 0, phase=GUESS, guesses_made=1, bank=10)
    assert s.found[0].tolist() == [i == GG[0] for i in range(25)]
    check(s, 1, phase=CLUE, giver=1, turns=1, bank=9)
    assert s.marked[1, 0, BG[0]] and not s.found[1].any()
    assert_lost(s, END_ASSASSIN, game=2)
    check(s, 3, phase=GUESS, guesses_made=0, bank=10, turns=0)
    assert not s.found[3].any() and not s.marked[3].any()


def test_no_action_leaves_game_unchanged():
    """NO_ACTION in the main field: the game is unchanged."""
    game, s = new(batch=2)
    before = s
    s = game.step_clue(s, ClueAction(number=skip(2), mark=5))
    s = game.step_guess(s, GuessAction(card=skip(2)))
    for name in ("phase", "giver", "turns", "clues", "mistake_tokens", "winner", "found"):
        assert np.array_equal(getattr(s, name), getattr(before, name)), name


# ------------------------------------------------------------------ RULES §5 worked example


def test_duet_prison_forest_hogsmeade_worked_example():
    """RULES §5 seeds 000/002: Prison 3 (green, bystander; bank 9), Forest 4 (4 greens incl.
    the card marked from the first side; stop, bank 8), Hogsmeade 2 (3 greens; stop, bank 7)."""
    game, s = new()
    # Turn 1: player 0's `Prison: 3`, judged by side 0.
    s = clue(game, s, 3)
    check(s, phase=GUESS, giver=0, clues=1)
    s = guess(game, s, GB[0])  # green: covered by a green agent
    assert s.found[0, GB[0]]
    check(s, phase=GUESS, guesses_made=1, bank=10)
    s = guess(game, s, BG[0])  # bystander on side 0: the giver marks it, the turn ends
    assert s.marked[0, 0, BG[0]] and not s.marked[0, 1, BG[0]]
    assert not s.covered[0, BG[0]]  # still visible: it is green for the other side
    check(s, phase=CLUE, bank=9, mistake_tokens=9, turns=1, giver=1, stop_tokens=0)
    # Turn 2: player 1's `Forest: 4`, judged by side 1.
    s = clue(game, s, 4)
    check(s, giver=1, phase=GUESS)
    s = guess(game, s, BG[0])  # marked bystander from side 0, green for side 1
    assert s.found[0, BG[0]] and s.covered[0, BG[0]]
    s = guess(game, s, BG[1], BG[2], AG[0])
    check(s, phase=GUESS, guesses_made=4, bank=9)
    s = guess(game, s, STOP)  # the guesser stops and takes a token
    check(s, phase=CLUE, bank=8, stop_tokens=1, turns=2, giver=0)
    # Turn 3: player 0's `Hogsmeade: 2`: three greens, one from the earlier Prison clue.
    s = clue(game, s, 2)
    s = guess(game, s, GB[1], GB[2], GG[0])  # GB[1]: a Prison card
    check(s, phase=GUESS, guesses_made=3)
    s = guess(game, s, STOP)
    check(s, phase=CLUE, bank=7, stop_tokens=2, turns=3, giver=1, clues=3, winner=-1)
    assert s.found[0].sum() == 8 and s.total_greens_left()[0] == 7


def test_card_marked_from_one_side_then_green_from_other_is_covered():
    """RULES §5/§3: a card marked bystander by one side and guessed green from the other side
    is covered by a green agent (found, and no longer guessable)."""
    game, s = new()
    s = guess(game, clue(game, s, 1), BG[3])  # side 0: bystander → marked from side 0
    s = guess(game, clue(game, s, 1), BG[3])  # side 1: green → found
    assert s.found[0, BG[3]] and s.marked[0, 0, BG[3]] and s.covered[0, BG[3]]
    check(s, phase=GUESS, guesses_made=1, bank=9)
    s = guess(game, s, BG[3])
    assert_lost(s, END_ILLEGAL)


# ------------------------------------------------------------------ clues and guesses


def test_green_guessing_has_no_limit():
    """RULES §3: green → the guesser may go on (no limit while correct), even on `1`."""
    game, s = new()
    s = guess(game, clue(game, s, 1), *SIDE0_GREENS[:7])
    check(s, phase=GUESS, guesses_made=7, bank=10)


def test_bystander_on_giver_side_marks_and_ends_turn_card_stays_visible():
    """RULES §3: bystander → marked from the giver's side with a token; the turn ends."""
    game, s = new()
    s = guess(game, clue(game, s, 2), GG[0], BB[0])
    assert s.marked[0, 0, BB[0]] and not s.covered[0, BB[0]]
    check(s, phase=CLUE, giver=1, bank=9, turns=1, guesses_made=0)
    assert game.legal_guesses(s)[0].sum() == 0  # no guessing during CLUE
    s = clue(game, s, 1)
    assert game.legal_guesses(s)[0, BB[0]]  # marked from one side only: may be guessed


def test_card_marked_from_both_sides_is_covered():
    """RULES §3: a card marked from both sides is covered; guessing it is illegal."""
    game, s = new()
    s = guess(game, clue(game, s, 1), BB[0])  # side 0 marks
    s = guess(game, clue(game, s, 1), BB[0])  # side 1 marks
    assert s.marked[0, :, BB[0]].all() and s.covered[0, BB[0]] and not s.found[0, BB[0]]
    check(s, bank=8, giver=0, turns=2)
    s = guess(game, clue(game, s, 1), BB[0])
    assert_lost(s, END_ILLEGAL)


def test_assassin_on_giver_side_loses_but_not_on_other_side():
    """RULES §3: the giver's side decides: GA is green for player 0's clue, fatal for 1's."""
    game, s = new(batch=2)
    s = clue(game, s, 1, giver=np.array([0, 1]))  # first clue: either player may give it
    s = guess(game, s, GA[0])
    check(s, 0, phase=GUESS, guesses_made=1)
    assert s.found[0, GA[0]]
    assert_lost(s, END_ASSASSIN, game=1)


def test_stop_takes_time_side_token_first():
    """RULES §3.1: stopping takes a time-side token (mistake-side only if no time-side)."""
    game, s = new("mission/privet-drive")  # 5 time, 5 mistake
    s = guess(game, clue(game, s, 1), GG[0], STOP)
    check(s, time_tokens=4, mistake_tokens=5, stop_tokens=1, giver=1)
    game, s = new()  # 0 time, 10 mistake
    s = guess(game, clue(game, s, 1), GG[0], STOP)
    check(s, time_tokens=0, mistake_tokens=9, stop_tokens=1)


def test_bystander_takes_mistake_side_token_first():
    """RULES §3.1: a bystander guess takes a mistake-side token."""
    game, s = new("mission/privet-drive")
    s = guess(game, clue(game, s, 1), BB[0])
    check(s, time_tokens=5, mistake_tokens=4, stop_tokens=0)


def test_two_token_mistake_when_no_mistake_side_left():
    """RULES §3.1: no mistake-side token left → a bystander costs two time-side tokens."""
    game, s = new("mission/train-station")  # 12/0
    s = guess(game, clue(game, s, 1), BB[0])
    check(s, phase=CLUE, time_tokens=10, mistake_tokens=0, bank=10, turns=1)


def test_two_token_mistake_with_one_token_left_is_out_of_time():
    """RULES §3.1: needing two tokens when one is left loses at once (no sudden death)."""
    game, s = new("mission/train-station", batch=2)
    s = with_bank(s, time=1, mistake=0)
    s = clue(game, s, 1)
    s = game.step_guess(s, GuessAction(card=np.array([BB[0], GG[0]])))
    assert_lost(s, END_OUT_OF_TIME, game=0)
    check(s, 0, sudden_death=False, time_tokens=1)
    s = guess(game, s, np.array([NO_ACTION, STOP]))  # game 1: the last token → sudden death
    check(s, 1, phase=SUDDEN_DEATH, sudden_death=True, bank=0, stop_tokens=1)


def test_last_two_time_tokens_lead_to_sudden_death():
    """RULES §3.1: using the last two tokens on a mistake leads to sudden death as usual."""
    game, s = new("mission/train-station")
    s = guess(game, clue(game, with_bank(s, time=2, mistake=0), 1), BB[0])
    check(s, phase=SUDDEN_DEATH, sudden_death=True, bank=0, winner=-1, turns=1)


# ------------------------------------------------------------------ sudden death


def test_bank_empty_after_ten_turns_enters_sudden_death():
    """RULES §3: every turn costs one token; an empty bank with greens left → sudden death."""
    game, s = new()
    s = bystander_turns(game, s, 9)
    check(s, phase=CLUE, bank=1, turns=9, giver=1)
    s = bystander_turns(game, s, 1)
    check(s, phase=SUDDEN_DEATH, sudden_death=True, bank=0, turns=10)
    assert game.sudden_death_guessers(s)[0].tolist() == [True, True]


def test_sudden_death_both_players_guess_judged_by_other_side():
    """RULES §3: each player with greens to find on the other side's key guesses (any order)."""
    game, s = new(batch=2)
    s = bystander_turns(game, s, 10)
    # Default guesser: player 0, judged by side 1 (BG green there).
    s = guess(game, s, BG[0])
    assert s.found[:, BG[0]].all()
    check(s, phase=SUDDEN_DEATH, bank=0)
    # Player 1 guesses, judged by side 0 (GB green there); then player 0 again.
    s = guess(game, s, GB[4], guesser=1)
    assert s.found[:, GB[4]].all()
    s = guess(game, s, AG[0], guesser=0)  # AG: an assassin on side 0, green on side 1
    assert s.found[:, AG[0]].all()
    check(s, phase=SUDDEN_DEATH, winner=-1, bank=0)
    assert s.total_greens_left().tolist() == [12, 12]


def test_sudden_death_wrong_guesses_lose():
    """RULES §3: any wrong guess in sudden death, even a bystander, loses."""
    game, s = new(batch=3)
    s = bystander_turns(game, s, 10)
    s = game.step_guess(
        s, GuessAction(card=np.array([BB[6], AA[0], GA[0]]), guesser=np.array([0, 0, 0]))
    )
    assert_lost(s, END_SUDDEN_DEATH_MISS, game=0)
    assert s.marked[0, 1, BB[6]]
    assert_lost(s, END_ASSASSIN, game=1)
    assert_lost(s, END_ASSASSIN, game=2)  # GA: assassin on side 1, which judges player 0


def test_sudden_death_illegal_clue_stop_and_guesser_without_cards():
    """docs: no clues and no stops in sudden death; a player with nothing to find may not
    guess. Each is ILLEGAL: the players lose."""
    game, s = new(batch=3)
    s = bystander_turns(game, s, 10)
    s = with_found(s, SIDE1_GREENS)  # player 0 has nothing left to find
    s = clue(game, s, np.array([2, NO_ACTION, NO_ACTION]))
    assert_lost(s, END_ILLEGAL, game=0)
    s = guess(game, s, np.array([NO_ACTION, STOP, GB[0]]), guesser=np.array([-1, -1, 0]))
    assert_lost(s, END_ILLEGAL, game=1)
    assert_lost(s, END_ILLEGAL, game=2)


def test_sudden_death_default_guesser_is_player_with_cards_and_win_scores():
    """RULES §3: covering the last green in sudden death wins; score −1 for sudden death."""
    game, s = new()
    s = bystander_turns(game, s, 10)
    s = with_found(s, [c for c in ALL_GREENS if c != GB[4]])  # only GB[4] left (side 0)
    assert game.sudden_death_guessers(s)[0].tolist() == [False, True]
    s = guess(game, s, GB[4])  # default guesser: player 1, judged by side 0
    check(s, phase=DONE, winner=0, end_reason=END_AGENTS, bank=0, sudden_death=True)
    assert game.score(s)[0] == -1.0  # 3 x 0 + 0 stop tokens - 1


def test_sudden_death_forgiveness_ignores_one_bystander():
    """RULES §3.1 reward: in sudden death, one bystander guess is ignored and guessing goes on."""
    game, s = new("mission/hogwarts-express[sudden_death_forgiveness=1]")
    check(s, forgiveness_left=1)
    s = guess(game, clue(game, with_bank(s, time=1, mistake=0), 1), GG[0], STOP)
    check(s, phase=SUDDEN_DEATH)
    s = guess(game, s, BB[0])
    check(s, phase=SUDDEN_DEATH, forgiveness_left=0, winner=-1)
    assert s.marked[0, 1, BB[0]]
    s = guess(game, s, BB[1])
    assert_lost(s, END_SUDDEN_DEATH_MISS)


# ------------------------------------------------------------------ givers and turn order


def test_scheduled_giver_alternates_and_wrong_giver_is_illegal():
    """RULES §3: players alternate giving clues; naming the other giver later is illegal."""
    game, s = new(batch=2)
    s = guess(game, clue(game, s, 1), BB[0])
    check(s, giver=1, last_giver=0, streak=1)
    s = clue(game, s, 1, giver=np.array([0, 1]))
    assert_lost(s, END_ILLEGAL, game=0)
    check(s, 1, phase=GUESS, giver=1)
    s = guess(game, s, np.array([NO_ACTION, GB[0]]), guesser=np.array([-1, 1]))  # giver guesses
    assert_lost(s, END_ILLEGAL, game=1)


def test_first_clue_by_either_player():
    """RULES §3 / docs: either player may give the first clue; the other then gives the next."""
    game, s = new(batch=2)
    s = clue(game, s, 1, giver=np.array([-1, 1]))
    check(s, 0, giver=0)
    check(s, 1, giver=1)
    s = guess(game, s, BG[0])  # side 0: bystander; side 1: green
    check(s, 0, phase=CLUE, giver=1, bank=9)
    check(s, 1, phase=GUESS, guesses_made=1)
    s = guess(game, s, np.array([NO_ACTION, STOP]))
    check(s, 1, phase=CLUE, giver=0, last_giver=1, bank=9)


def test_loose_turn_order_two_in_a_row_then_the_other():
    """RULES §3 option: a player may give two clues in a row, then the other must give one."""
    game, s = new("duet[loose_turn_order]", batch=2)
    s = guess(game, clue(game, s, 1), BB[0])
    s = guess(game, clue(game, s, 1, giver=0), BB[1])  # p0 again: legal
    check(s, giver=1, last_giver=0, streak=2, turns=2)
    s = clue(game, s, 1, giver=np.array([0, 1]))  # a third in a row: illegal
    assert_lost(s, END_ILLEGAL, game=0)
    check(s, 1, phase=GUESS, giver=1)
    game, s = new("duet")  # without the option, a second clue in a row is illegal
    s = guess(game, clue(game, s, 1), BB[0])
    assert_lost(clue(game, s, 1, giver=0), END_ILLEGAL)


def test_hand_over_when_a_side_has_no_greens():
    """RULES §3: when every green on my side is covered, my partner gives all remaining clues."""
    game, s = new()
    s = clue(game, s, 9, giver=1)
    s = guess(game, s, *SIDE1_GREENS)  # player 0 finds all 9 greens of side 1
    check(s, phase=GUESS, guesses_made=9)
    assert s.greens_left()[0].tolist() == [6, 0]
    s = guess(game, s, STOP)
    check(s, giver=0, last_giver=1)
    s = guess(game, clue(game, s, 1), GB[0], STOP)
    check(s, giver=0, last_giver=0, streak=1)  # player 1 has nothing to clue: 0 again
    s = guess(game, clue(game, s, 1), GB[1], STOP)
    check(s, giver=0, streak=2, phase=CLUE)
    assert_lost(clue(game, s, 1, giver=1), END_ILLEGAL)  # player 1 may not give a clue


# ------------------------------------------------------------------ bonuses and rewards


def test_touch_two_giver_keeps_better_card():
    """RULES §3.1 Hogwarts x2: two cards touched, the giver keeps the one that is better."""
    game, s = new("mission/hogwarts", batch=2)
    check(s, touch_two_left=2)
    s = clue(game, s, 2)
    s = guess(game, s, BB[0], second=GB[0])  # bystander + green → green counts
    assert s.found[:, GB[0]].all() and not s.marked[:, 0, BB[0]].any()
    check(s, phase=GUESS, touch_two_left=1, guesses_made=1)
    # game 0: assassin + bystander → bystander; game 1: two bystanders → the first card
    s = game.step_guess(
        s, GuessAction(card=np.array([AB[0], BB[1]]), second=np.array([BB[2], BB[3]]))
    )
    assert s.marked[0, 0, BB[2]] and not s.marked[0, 0, AB[0]]
    assert s.marked[1, 0, BB[1]] and not s.marked[1, 0, BB[3]]
    for g in (0, 1):
        check(s, g, phase=CLUE, touch_two_left=0, winner=-1, turns=1)


def test_touch_two_illegal_cases():
    """docs: `second` needs a bonus left and a different uncovered card."""
    game, s = new("mission/hogwarts", batch=3)
    s = clue(game, s, 1)
    s = guess(game, s, GB[0])
    s = game.step_guess(
        s, GuessAction(card=np.array([GB[1], GB[1], GB[2]]), second=np.array([GB[1], GB[0], GB[3]]))
    )
    assert_lost(s, END_ILLEGAL, game=0)  # the same card twice
    assert_lost(s, END_ILLEGAL, game=1)  # second card already covered
    check(s, 2, phase=GUESS, touch_two_left=1)
    game, s = new("duet")  # no bonus at all outside Hogwarts
    s = guess(game, clue(game, s, 1), GB[0], second=GB[1])
    assert_lost(s, END_ILLEGAL)


def test_mark_bonus_marks_own_bystander_for_a_token():
    """RULES §3.1 Hogsmeade x1: before a clue, spend an extra token to mark one bystander."""
    game, s = new("mission/hogsmeade")  # 8/8
    check(s, mark_left=1, bank=8)
    s = clue(game, s, 2, mark=BB[0])
    assert s.marked[0, 0, BB[0]]
    check(s, phase=GUESS, mark_left=0, bank=7, clues=1)
    s = guess(game, s, GB[0], STOP)
    check(s, bank=6, giver=1)
    assert_lost(clue(game, s, 1, mark=GB[1]), END_ILLEGAL)  # bonus used up


def test_mark_bonus_illegal_cases():
    """docs: the marked card must be a bystander on the giver's side, unmarked, uncovered,
    and the bank must hold at least 2 tokens."""
    game, s = new("mission/hogsmeade", batch=4)
    s = s.replace(
        time_tokens=np.array([0, 0, 0, 1], dtype=np.int8),
        mistake_tokens=np.array([8, 8, 8, 0], dtype=np.int8),
    )
    s = clue(game, s, 1, mark=np.array([GB[0], AB[0], BG[0], BB[0]]))
    assert_lost(s, END_ILLEGAL, game=0)  # green on the giver's side
    assert_lost(s, END_ILLEGAL, game=1)  # assassin on the giver's side
    check(s, 2, phase=GUESS, bank=7, mark_left=0)  # BG: bystander on side 0 → fine
    assert_lost(s, END_ILLEGAL, game=3)  # bank holds 1


def test_two_word_clue_counter():
    """RULES §3.1 London x3: one clue may be two words; three per mission."""
    game, s = new("mission/london", batch=2)
    check(s, two_word_left=3)
    for _ in range(3):
        s = guess(game, clue(game, s, 1, two_word=True), BB[int(s.turns[0])])
    check(s, two_word_left=0, clues=3, turns=3)
    s = clue(game, s, 1, two_word=np.array([True, False]))
    assert_lost(s, END_ILLEGAL, game=0)
    check(s, 1, phase=GUESS, clues=4)
    plain, s = new("duet")  # no two-word clues outside London
    assert_lost(clue(plain, s, 1, two_word=True), END_ILLEGAL)


def test_double_clue_counts_two_clues():
    """RULES §3.1 reward: one turn with two clues; it counts two clues and is one-shot."""
    game, s = new("duet[double_clues=1]")
    s = clue(game, s, 2, double=True)
    check(s, clues=2, double_left=0, phase=GUESS)
    s = guess(game, s, GB[0], GB[1], GG[0], STOP)
    check(s, bank=9, turns=1)
    assert_lost(clue(game, s, 1, double=True), END_ILLEGAL)


def test_fourteen_of_fifteen_wins_early():
    """RULES §3.1 reward: a mission counts as won once 14 of the 15 greens are found."""
    game, s = new("duet[fourteen_of_fifteen]", batch=2)
    s = guess(game, clue(game, s, 9), *SIDE0_GREENS, STOP)
    check(s, bank=9, stop_tokens=1, giver=1)
    s = guess(game, clue(game, s, 6), *BG)  # 14 found
    check(s, phase=DONE, winner=0, end_reason=END_FOURTEEN, bank=8)
    assert game.score(s)[0] == 3 * 8 + 1
    game, s = new("duet")  # without the reward 14 is not enough
    s = guess(game, clue(game, s, 9), *SIDE0_GREENS, STOP)
    s = guess(game, clue(game, s, 6), *BG)
    check(s, phase=GUESS, winner=-1, guesses_made=5)


# ------------------------------------------------------------------ winning and score


def test_all_fifteen_greens_win_uses_one_token_and_scores():
    """RULES §3: covering the last green wins; the winning turn also uses one token.
    Score = 3 x bank + stop tokens (no sudden death)."""
    game, s = new()
    s = guess(game, clue(game, s, 9), *SIDE0_GREENS, STOP)
    s = guess(game, clue(game, s, 6), *BG, AG[0])
    check(s, phase=DONE, winner=0, end_reason=END_AGENTS, bank=8, stop_tokens=1, turns=1)
    assert game.score(s)[0] == 25.0


def test_score_is_nan_for_lost_and_running_games():
    """docs: the Duet score is undefined (NaN) for a lost game (and one still running)."""
    game, s = new(batch=2)
    s = guess(game, clue(game, s, 1), np.array([AA[0], GG[0]]))
    assert np.isnan(game.score(s)).all()


# ------------------------------------------------------------------ invalid clues and illegal


def test_invalid_clue_penalty_discards_a_token_then_plays_on():
    """RULES §3: invalid clue → discard one token (time-side first), then guess as if valid."""
    game, s = new("mission/privet-drive", batch=2)
    s = game.step_clue(s, ClueAction(number=2, valid=np.array([False, True])))
    check(s, 0, phase=GUESS, time_tokens=4, mistake_tokens=5, clues=1)
    check(s, 1, phase=GUESS, time_tokens=5, mistake_tokens=5, clues=1)


def test_invalid_clue_penalty_can_empty_the_bank():
    """docs: the penalty may take the last token; a stop then takes none → sudden death."""
    game, s = new()
    s = clue(game, with_bank(s, time=0, mistake=1), 1, valid=False)
    check(s, phase=GUESS, bank=0)
    s = guess(game, s, GB[0], STOP)
    check(s, phase=SUDDEN_DEATH, sudden_death=True, stop_tokens=0, bank=0)


def test_bystander_after_penalty_emptied_the_bank_is_out_of_time():
    """docs: a mistake needing a token the bank cannot pay loses at once (OUT_OF_TIME)."""
    game, s = new(batch=2)
    s = clue(game, with_bank(s, time=0, mistake=1), 1, valid=False)
    s = game.step_guess(s, GuessAction(card=np.array([BB[0], GB[0]]), guesser=np.array([-1, 1])))
    assert_lost(s, END_OUT_OF_TIME, game=0)
    check(s, 0, sudden_death=False)
    check(s, 1, phase=GUESS, guesses_made=1)  # the explicit guesser (the giver's partner)


@pytest.mark.parametrize("rule, phase, bank", [("accept", GUESS, 10), ("forfeit", DONE, 10)])
def test_invalid_clue_accept_and_forfeit(rule, phase, bank):
    """docs: `accept` ignores the verdict; `forfeit` makes an invalid clue illegal."""
    game, s = new(get_variant("duet", invalid_clue=rule))
    s = clue(game, s, 1, valid=False)
    check(s, phase=phase, bank=bank)
    if rule == "forfeit":
        assert_lost(s, END_ILLEGAL)


def test_illegal_actions_in_turns():
    """docs: guess in CLUE, clue in GUESS, STOP before a correct guess, a covered card,
    a bad number: each is ILLEGAL and the players lose (winner 1)."""
    game, s = new(batch=6)
    s = clue(game, s, np.array([NO_ACTION, 1, 1, 1, 10, UNLIMITED]))
    s = guess(game, s, np.array([GG[0], NO_ACTION, STOP, GG[0], NO_ACTION, GG[0]]))
    assert_lost(s, END_ILLEGAL, game=0)  # guess during CLUE
    assert_lost(s, END_ILLEGAL, game=2)  # STOP before any guess
    assert_lost(s, END_ILLEGAL, game=4)  # number 10
    check(s, 5, phase=GUESS, guesses_made=1)  # UNLIMITED is a legal Duet number
    s = clue(game, s, np.array([NO_ACTION, 2, NO_ACTION, NO_ACTION, NO_ACTION, NO_ACTION]))
    assert_lost(s, END_ILLEGAL, game=1)  # clue during GUESS
    s = guess(game, s, np.array([NO_ACTION, NO_ACTION, NO_ACTION, GG[0], NO_ACTION, 25]))
    assert_lost(s, END_ILLEGAL, game=3)  # already covered
    assert_lost(s, END_ILLEGAL, game=5)  # off the board


def test_stop_after_zero_clue_needs_a_correct_guess():
    """RULES §3: a clue must get at least one guess (also for `0`)."""
    game, s = new()
    s = clue(game, s, 0)
    check(s, phase=GUESS)
    assert_lost(guess(game, s, STOP), END_ILLEGAL)


def test_finished_games_ignore_actions():
    """docs: a DONE game ignores every action."""
    game, s = new()
    s = guess(game, clue(game, s, 1), AA[0])
    done = s
    s = clue(game, s, 2)
    s = guess(game, s, GG[0])
    s = guess(game, s, STOP)
    for name in (
        "phase",
        "winner",
        "end_reason",
        "found",
        "marked",
        "clues",
        "turns",
        "mistake_tokens",
        "giver",
    ):
        assert np.array_equal(getattr(s, name), getattr(done, name)), name
    assert_lost(s, END_ASSASSIN)
