"""Hand-traced tests of the batched team-game engine (classic, single-team, Marvel co-op).

pgx style: build a known position with ``TeamGame.init``, apply a short list of actions and
check every state field the rule touches. Rules: /work/shared/RULES.md §1–2, §5 and
docs/engine-rules.md ("Team games"). Card indices refer to the fixed keys below.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from codebots.engine import (
    ClueAction,
    CoverAction,
    GuessAction,
    TeamGame,
    TeamState,
    make,
    skip,
)
from codebots.engine.constants import (
    ASSASSIN,
    BLUE,
    BYSTANDER,
    CLUE,
    COVER,
    DONE,
    END_AGENTS,
    END_ASSASSIN,
    END_GAUNTLET,
    END_ILLEGAL,
    END_NONE,
    GUESS,
    NO_ACTION,
    NO_LIMIT,
    PASS,
    RED,
    STOP,
    UNLIMITED,
)
from codebots.variants import get_variant

# Red starts (9 agents): red 0-8, blue 9-16, bystanders 17-23, assassin 24.
KEY = np.array([RED] * 9 + [BLUE] * 8 + [BYSTANDER] * 7 + [ASSASSIN], dtype=np.int8)
REDS, BLUES, BYS, ASN = list(range(9)), list(range(9, 17)), list(range(17, 24)), 24
# Blue starts (9 agents): blue 0-8, red 9-16, same bystanders and assassin.
BLUE_START_KEY = np.array([BLUE] * 9 + [RED] * 8 + [BYSTANDER] * 7 + [ASSASSIN], dtype=np.int8)
# Single-team 2019: red 0-7, blue 8-14, bystanders 15-23, assassin 24.
KEY_2019 = np.array([RED] * 8 + [BLUE] * 7 + [BYSTANDER] * 9 + [ASSASSIN], dtype=np.int8)

# Seed 004 names: ROOT and BARK are red agents.
ROOT, BARK = 0, 1


def new(variant="classic", batch=1, key=KEY, start=RED):
    """A game object and ``batch`` copies of the same fresh position."""
    game = make(variant)
    state = game.init(
        seeds=np.arange(batch),
        cards=np.tile(np.arange(25), (batch, 1)),
        key=np.tile(np.asarray(key, dtype=np.int8), (batch, 1)),
        start=np.full(batch, start),
    )
    return game, state


def clue(game, state, number, valid=True):
    return game.step_clue(state, ClueAction(number=number, valid=valid))


def guess(game, state, *cards):
    for card in cards:
        state = game.step_guess(state, GuessAction(card=card))
    return state


def cover(game, state, *cards):
    for card in cards:
        state = game.step_cover(state, CoverAction(card=card))
    return state


def red_left(state, game=0):
    return int(state.agents_left(np.array([RED] * state.batch_size))[game])


def blue_left(state, game=0):
    return int(state.agents_left(np.array([BLUE] * state.batch_size))[game])


def check(state, game=0, **expected):
    """Compare scalar fields of one game of the batch."""
    for name, value in expected.items():
        got = getattr(state, name)[game]
        assert got == value, f"{name}: got {got}, expected {value}"


def assert_illegal(state, winner, game=0):
    check(state, game, phase=DONE, end_reason=END_ILLEGAL, winner=winner)


# ------------------------------------------------------------------ setup and state handling


def test_init_position():
    """docs/engine-rules.md: phase CLUE, the starting team acts, nothing covered, running."""
    game, s = new()
    assert isinstance(game, TeamGame) and isinstance(s, TeamState)
    check(
        s,
        phase=CLUE,
        team=RED,
        turns=0,
        clues=0,
        winner=-1,
        end_reason=END_NONE,
        guesses_made=0,
        guesses_left=0,
        covers_pending=0,
    )
    assert not s.covered.any()
    assert red_left(s) == 9 and blue_left(s) == 8
    assert np.isnan(game.score(s)).all()


def test_step_returns_new_state_and_leaves_old_untouched():
    """States are frozen with read-only arrays; a step returns a new state."""
    game, s0 = new()
    s1 = clue(game, s0, 2)
    s2 = guess(game, s1, ROOT)
    assert s1 is not s0 and s2 is not s1
    check(s0, phase=CLUE, clues=0, guesses_left=0)
    check(s1, phase=GUESS, clues=1, guesses_left=3)
    assert not s1.covered.any() and s2.covered[0, ROOT]
    for state in (s0, s1, s2):
        for name in ("covered", "phase", "team", "key", "guesses_left"):
            assert not getattr(state, name).flags.writeable
    with pytest.raises(ValueError):
        s2.covered[0, 5] = True
    with pytest.raises(dataclasses.FrozenInstanceError):
        s2.phase = np.array([DONE])  # frozen dataclass


def test_batch_games_do_not_interfere():
    """One position, three games: own agent, bystander, NO_ACTION; each judged on its own."""
    game, s = new(batch=3)
    s = clue(game, s, 2)
    s = game.step_guess(s, GuessAction(card=np.array([ROOT, 17, NO_ACTION])))
    # game 0: own agent, guessing goes on
    check(s, 0, phase=GUESS, team=RED, guesses_made=1, guesses_left=2, turns=0)
    assert s.covered[0].tolist() == [i == ROOT for i in range(25)]
    # game 1: bystander, blue's turn
    check(s, 1, phase=CLUE, team=BLUE, guesses_made=0, guesses_left=0, turns=1)
    assert s.covered[1].tolist() == [i == 17 for i in range(25)]
    # game 2: untouched
    check(s, 2, phase=GUESS, team=RED, guesses_made=0, guesses_left=3, turns=0)
    assert not s.covered[2].any()


def test_no_action_leaves_game_unchanged_in_every_step():
    """NO_ACTION in the main field: the game is unchanged whatever its phase."""
    game, s = new(batch=2)
    before = s
    s = game.step_clue(s, ClueAction(number=skip(2)))
    s = game.step_guess(s, GuessAction(card=skip(2)))
    s = game.step_cover(s, CoverAction(card=skip(2)))
    for name in ("phase", "team", "turns", "clues", "winner", "covered"):
        assert np.array_equal(getattr(s, name), getattr(before, name)), name


# ------------------------------------------------------------------ RULES §5 worked examples


def test_seed004_tree_two_root_bark_then_stop():
    """RULES §5 seed 004: `tree: 2`, ROOT (9→8), BARK (8→7), 3rd guess allowed, team stops."""
    game, s = new(start=RED)
    s = clue(game, s, 2)
    check(s, phase=GUESS, team=RED, guesses_left=3, clues=1)
    s = guess(game, s, ROOT)
    assert s.covered[0, ROOT] and red_left(s) == 8
    check(s, phase=GUESS, guesses_made=1, guesses_left=2)
    s = guess(game, s, BARK)
    assert s.covered[0, BARK] and red_left(s) == 7
    check(s, phase=GUESS, team=RED, guesses_made=2, guesses_left=1)  # n + 1 = 3rd allowed
    s = guess(game, s, STOP)
    check(s, phase=CLUE, team=BLUE, turns=1, guesses_made=0, guesses_left=0, winner=-1)
    assert red_left(s) == 7


def test_seed004_bark_bystander_ends_turn_red_left_8():
    """RULES §5 seed 004 variant: BARK a bystander → the turn ends after it, red left 8."""
    key = KEY.copy()
    key[BARK], key[17] = BYSTANDER, RED  # still 9 red agents
    game, s = new(key=key)
    s = guess(game, clue(game, s, 2), ROOT, BARK)
    assert red_left(s) == 8 and s.covered[0, BARK]
    check(s, phase=CLUE, team=BLUE, turns=1, guesses_left=0)


def test_seed004_last_red_agent_revealed_by_blue_wins_red():
    """RULES §5 seed 004: blue reveals red's last agent → red wins at once."""
    game, s = new()
    s = guess(game, clue(game, s, 9), *REDS[:8], STOP)
    assert red_left(s) == 1
    check(s, team=BLUE, phase=CLUE)
    s = guess(game, clue(game, s, 1), REDS[8])
    check(s, phase=DONE, winner=RED, end_reason=END_AGENTS, guesses_left=0, guesses_made=0)
    assert red_left(s) == 0


def test_seed001_animal_three_bystander_first_ends_turn():
    """RULES §5 seed 001: `ANIMAL: 3`, first guess a bystander → turn ends after one guess."""
    game, s = new()
    s = clue(game, s, 3)
    check(s, guesses_left=4)
    s = guess(game, s, 17)
    assert s.covered[0].sum() == 1
    check(s, phase=CLUE, team=BLUE, turns=1, guesses_made=0, guesses_left=0)


def test_seed001_female_three_fourth_guess_on_earlier_clue_then_limit():
    """RULES §5 seed 001: `FEMALE: 3`, three correct, a 4th guess (an earlier clue's card)
    is allowed and correct → the limit is reached, the turn ends."""
    game, s = new()
    s = guess(game, clue(game, s, 3), 17)  # ANIMAL: 3 -> bystander
    s = guess(game, clue(game, s, 1), 9, STOP)  # blue's turn
    s = clue(game, s, 3)  # FEMALE: 3
    s = guess(game, s, 0, 1, 2)
    check(s, phase=GUESS, team=RED, guesses_made=3, guesses_left=1)  # a 4th guess allowed
    s = guess(game, s, 3)  # an ANIMAL card, correct
    assert red_left(s) == 5
    check(s, phase=CLUE, team=BLUE, turns=3, guesses_left=0, clues=3)


# ------------------------------------------------------------------ guesses


def test_other_team_agent_ends_turn():
    """RULES §1: the other team's agent is covered for them; the turn ends."""
    game, s = new()
    s = guess(game, clue(game, s, 2), 9)
    assert blue_left(s) == 7 and s.covered[0, 9]
    check(s, phase=CLUE, team=BLUE, turns=1, winner=-1)


def test_own_last_agent_wins():
    """RULES §1: the first team to have all its agents covered wins (AGENTS)."""
    game, s = new()
    s = guess(game, clue(game, s, 9), *REDS)
    check(s, phase=DONE, winner=RED, end_reason=END_AGENTS, turns=0)


def test_own_last_agent_wins_for_blue_when_blue_starts():
    """The key decides who starts: blue starts with 9 and wins by covering them."""
    game, s = new(key=BLUE_START_KEY, start=BLUE)
    check(s, team=BLUE)
    assert blue_left(s) == 9 and red_left(s) == 8
    s = guess(game, clue(game, s, 9), *range(9))
    check(s, phase=DONE, winner=BLUE, end_reason=END_AGENTS)


def test_assassin_loses_for_guessing_team():
    """RULES §1: assassin → the guessing team loses at once, whichever team guessed."""
    game, s = new(batch=2)
    s = guess(game, clue(game, s, 1), np.array([ASN, 17]))  # game 1 hands over to blue
    check(s, 0, phase=DONE, winner=BLUE, end_reason=END_ASSASSIN)
    s = guess(game, clue(game, s, np.array([NO_ACTION, 1])), np.array([NO_ACTION, ASN]))
    check(s, 1, phase=DONE, winner=RED, end_reason=END_ASSASSIN)
    check(s, 0, phase=DONE, winner=BLUE, end_reason=END_ASSASSIN)


def test_zero_clue_has_no_limit_but_needs_one_guess():
    """RULES §1 experts: `0` → no limit while correct, still at least one guess."""
    game, s = new(batch=2)
    s = clue(game, s, 0)
    check(s, phase=GUESS, guesses_left=NO_LIMIT)
    s = game.step_guess(s, GuessAction(card=np.array([STOP, ROOT])))
    assert_illegal(s, winner=BLUE, game=0)
    s = guess(
        game,
        s,
        np.array([NO_ACTION, 1]),
        np.array([NO_ACTION, 2]),
        np.array([NO_ACTION, 3]),
        np.array([NO_ACTION, 4]),
    )
    check(s, 1, phase=GUESS, guesses_made=5, guesses_left=NO_LIMIT)
    s = guess(game, s, np.array([NO_ACTION, STOP]))
    check(s, 1, phase=CLUE, team=BLUE, turns=1)


def test_zero_clue_one_guess_under_the_2019_rule():
    """RULES §2: guess limit n + 1, so a `0` clue gives one guess (as the 2019 framework)."""
    for variant in ("single-team-2025", "classic[zero_clue_guesses=1]"):
        game, s = new(variant, batch=2)
        s = clue(game, s, np.array([0, 1]))
        check(s, 0, phase=GUESS, guesses_left=1)
    game, s = new("single-team-2019", batch=2)
    s = clue(game, s, np.array([0, 1]))
    check(s, 0, phase=GUESS, guesses_left=1)
    check(s, 1, phase=GUESS, guesses_left=2)
    s = guess(game, s, np.array([REDS[0], NO_ACTION]))
    check(s, 0, phase=CLUE, team=RED, turns=1)  # the one guess was right: the turn is over


def test_unlimited_clue_goes_on_while_correct():
    """RULES §1 experts: `unlimited` → no limit while guesses stay correct."""
    game, s = new()
    s = clue(game, s, UNLIMITED)
    check(s, guesses_left=NO_LIMIT)
    s = guess(game, s, *REDS[:8])
    check(s, phase=GUESS, guesses_made=8, guesses_left=NO_LIMIT)
    s = guess(game, s, 9)
    check(s, phase=CLUE, team=BLUE)


def test_unused_guesses_do_not_carry_over():
    """RULES §1: unused guesses never carry over; the next clue gets exactly n + 1."""
    game, s = new()
    s = guess(game, clue(game, s, 5), ROOT, STOP)
    s = guess(game, clue(game, s, 1), 9, STOP)
    s = clue(game, s, 1)
    check(s, team=RED, guesses_left=2, guesses_made=0)
    s = guess(game, s, 1, 2)
    check(s, team=BLUE, phase=CLUE, turns=3)


# ------------------------------------------------------------------ illegal actions


def test_illegal_guess_of_covered_card():
    """docs: a guessed card must be uncovered; else the acting team forfeits (ILLEGAL)."""
    game, s = new()
    s = guess(game, clue(game, s, 2), ROOT, ROOT)
    assert_illegal(s, winner=BLUE)
    check(s, guesses_left=0, guesses_made=0)


def test_illegal_stop_before_any_guess():
    """RULES §1: the team must guess at least once; STOP first is illegal → other team wins."""
    game, s = new(key=BLUE_START_KEY, start=BLUE)
    s = guess(game, clue(game, s, 2), STOP)
    assert_illegal(s, winner=RED)


def test_illegal_clue_during_guess_and_guess_during_clue():
    """docs: an action in a phase that does not take it is illegal for the acting team."""
    game, s = new(batch=3)
    s = clue(game, s, np.array([2, 2, NO_ACTION]))
    s = clue(game, s, np.array([1, NO_ACTION, NO_ACTION]))  # clue during GUESS
    assert_illegal(s, winner=BLUE, game=0)
    s = guess(game, s, np.array([NO_ACTION, NO_ACTION, ROOT]))  # guess during CLUE
    assert_illegal(s, winner=BLUE, game=2)
    check(s, 1, phase=GUESS, winner=-1)  # unaffected
    s = cover(game, s, np.array([NO_ACTION, 9, NO_ACTION]))  # cover during GUESS
    assert_illegal(s, winner=BLUE, game=1)


def test_illegal_clue_numbers():
    """docs: legal numbers 1..9, 0/UNLIMITED only with their options; else illegal."""
    game, s = new(batch=3)
    s = clue(game, s, np.array([10, -3, 9]))
    assert_illegal(s, winner=BLUE, game=0)
    assert_illegal(s, winner=BLUE, game=1)
    check(s, 2, phase=GUESS, guesses_left=10)
    game, s = new("classic[zero_clues=false,unlimited_clues=false]", batch=2)
    s = clue(game, s, np.array([0, UNLIMITED]))
    assert_illegal(s, winner=BLUE, game=0)
    assert_illegal(s, winner=BLUE, game=1)


def test_illegal_guess_off_board():
    """docs: card must be 0..24 (or STOP)."""
    game, s = new(batch=2)
    s = guess(game, clue(game, s, 2), np.array([25, -5]))
    assert_illegal(s, winner=BLUE, game=0)
    assert_illegal(s, winner=BLUE, game=1)


def test_finished_games_ignore_actions():
    """docs: a game that is DONE ignores every action."""
    game, s = new()
    s = guess(game, clue(game, s, 1), ASN)
    done = s
    s = clue(game, s, 3)
    s = guess(game, s, ROOT)
    s = guess(game, s, STOP)
    s = cover(game, s, 9)
    for name in ("phase", "winner", "end_reason", "covered", "clues", "turns", "team"):
        assert np.array_equal(getattr(s, name), getattr(done, name)), name
    check(s, winner=BLUE, end_reason=END_ASSASSIN)


# ------------------------------------------------------------------ invalid clues (classic)


def test_classic_invalid_clue_penalty_other_team_covers_own_agent():
    """RULES §1 (2025): turn ends with no guess; the other spymaster may cover one own agent."""
    game, s = new()
    s = clue(game, s, 2, valid=False)
    check(s, phase=COVER, team=BLUE, covers_pending=1, clues=1, turns=1, guesses_left=0)
    assert not s.covered.any()
    assert game.legal_covers(s)[0].tolist() == [i in BLUES for i in range(25)]
    s = cover(game, s, 9)
    assert s.covered[0, 9] and blue_left(s) == 7
    check(s, phase=CLUE, team=BLUE, covers_pending=0, turns=1)  # blue now gives its clue
    s = clue(game, s, 1)
    check(s, phase=GUESS, team=BLUE, guesses_left=2)


def test_classic_invalid_clue_penalty_cover_is_optional():
    """docs: the penalty cover is optional (PASS)."""
    game, s = new()
    s = cover(game, clue(game, s, 2, valid=False), PASS)
    assert not s.covered.any()
    check(s, phase=CLUE, team=BLUE, covers_pending=0)


def test_classic_penalty_cover_of_wrong_card_forfeits_covering_team():
    """docs: the cover must be an uncovered agent of the covering team; else it forfeits."""
    game, s = new(batch=3)
    s = clue(game, s, 2, valid=False)
    s = cover(game, s, np.array([ROOT, 17, 30]))  # red agent, bystander, off board
    for g in range(3):
        assert_illegal(s, winner=RED, game=g)
        assert not s.covered[g].any()


def test_classic_penalty_cover_of_last_agent_wins():
    """docs: covering that team's last agent makes it win; turn counters read 0."""
    game, s = new()
    s = guess(game, clue(game, s, 1), 9)  # red hits blue: blue 7 left, blue's turn
    s = guess(game, clue(game, s, 9), *BLUES[1:7], STOP)  # blue 1 left
    assert blue_left(s) == 1
    s = clue(game, s, 1, valid=False)  # red's invalid clue
    check(s, phase=COVER, team=BLUE, covers_pending=1)
    s = cover(game, s, 16)
    check(s, phase=DONE, winner=BLUE, end_reason=END_AGENTS)


@pytest.mark.parametrize("variant", ["classic", "marvel-coop"])
def test_winning_cover_leaves_turn_counters_at_zero(variant):
    """A finished game's turn counters read 0 (common.end_games; the reference engine built
    from docs/engine-rules.md), also after a cover of the covering team's last agent."""
    game, s = new(variant)
    if variant == "classic":
        s = guess(game, clue(game, s, 1), 9)  # red hits blue: blue's turn
        s = guess(game, clue(game, s, 9), *BLUES[1:7], STOP)  # blue: 1 left
        s = clue(game, s, 1, valid=False)  # red's invalid clue: one penalty cover
    else:
        for card in (9, 11, 13):  # red hits a blue agent, the virtual turn covers the next
            s = cover(game, guess(game, clue(game, s, 1), card), card + 1)
        s = clue(game, s, 1, valid=False)  # two covers pending, blue has 2 left
        s = cover(game, s, 15)
    check(s, phase=COVER, team=BLUE, covers_pending=1)
    assert blue_left(s) == 1
    s = cover(game, s, 16)
    check(s, phase=DONE, winner=BLUE, end_reason=END_AGENTS)
    check(s, covers_pending=0, guesses_left=0, guesses_made=0)


def test_invalid_clue_accept_counts_as_valid():
    """RULES §1: if the other spymaster accepts the clue it counts as valid."""
    game, s = new("classic[invalid_clue=accept]")
    s = clue(game, s, 2, valid=False)
    check(s, phase=GUESS, team=RED, guesses_left=3, clues=1, turns=0)


def test_invalid_clue_forfeit_is_illegal():
    """docs: under invalid_clue=forfeit an invalid clue is illegal; valid ones play on."""
    game, s = new(get_variant("classic", invalid_clue="forfeit"), batch=2)
    s = game.step_clue(s, ClueAction(number=2, valid=np.array([False, True])))
    assert_illegal(s, winner=BLUE, game=0)
    check(s, 0, clues=0)
    check(s, 1, phase=GUESS, clues=1)


# ------------------------------------------------------------------ Infinity Gauntlet


@pytest.mark.parametrize(
    "variant", ["classic[infinity_gauntlet]", get_variant("classic", infinity_gauntlet=True)]
)
def test_infinity_gauntlet_last_bystander_loses(variant):
    """RULES §1 Marvel: revealing the 7th (last) bystander ends the game; the revealer loses."""
    game, s = new(variant)
    for card in BYS[:6]:  # red and blue alternate hitting bystanders
        s = guess(game, clue(game, s, 1), card)
        check(s, phase=CLUE, winner=-1)
    check(s, team=RED, turns=6)
    s = guess(game, clue(game, s, 1), BYS[6])
    check(s, phase=DONE, winner=BLUE, end_reason=END_GAUNTLET)


def test_without_gauntlet_last_bystander_only_ends_turn():
    """Without the option the 7th bystander just ends the turn."""
    game, s = new("classic")
    for card in BYS:
        s = guess(game, clue(game, s, 1), card)
    check(s, phase=CLUE, team=BLUE, turns=7, winner=-1)


# ------------------------------------------------------------------ single-team benchmark


def test_single_team_2019_red_always_gives_and_wins_score_is_clues():
    """RULES §2: one team alone (8/7/9/1), red again after each turn; score = clues on a win."""
    game, s = new("single-team-2019", key=KEY_2019)
    assert red_left(s) == 8 and blue_left(s) == 7
    s = guess(game, clue(game, s, 3), 0, 1, 15)  # bystander ends the turn
    check(s, phase=CLUE, team=RED, turns=1)
    s = guess(game, clue(game, s, 2), 2, 3, 8)  # blue agent ends the turn
    check(s, phase=CLUE, team=RED, turns=2)
    s = guess(game, clue(game, s, 3), 4, 5, 6, 7)
    check(s, phase=DONE, winner=RED, end_reason=END_AGENTS, clues=3)
    assert game.score(s)[0] == 3.0


def test_single_team_loses_when_all_blue_covered_score_25():
    """RULES §2: all blue agents covered → loss; score 25."""
    game, s = new("single-team-2025")
    for card in BLUES:
        s = guess(game, clue(game, s, 1), card)
    check(s, phase=DONE, winner=BLUE, end_reason=END_AGENTS, clues=8)
    assert game.score(s)[0] == 25.0


def test_single_team_no_unlimited_and_assassin_loss():
    """docs: single-team has no unlimited clue; assassin → loss (score 25)."""
    game, s = new("single-team-2025", batch=2)
    s = clue(game, s, np.array([UNLIMITED, 1]))
    assert_illegal(s, winner=1, game=0)
    s = guess(game, s, np.array([NO_ACTION, ASN]))
    check(s, 1, phase=DONE, winner=1, end_reason=END_ASSASSIN)
    assert game.score(s).tolist() == [25.0, 25.0]


def test_single_team_zero_clues_false_is_the_strict_reading():
    """docs: `zero_clues=false` allows numbers 1..9 only: a `0` clue is illegal."""
    game, s = new("single-team-2019[zero_clues=false]", batch=2)
    s = clue(game, s, np.array([0, 1]))
    assert_illegal(s, winner=1, game=0)
    check(s, 1, phase=GUESS, guesses_left=2)


def test_single_team_invalid_clue_penalty_counts_toward_score():
    """docs: single-team invalid clue ends the turn with no guess; the clue still counts."""
    game, s = new("single-team-2025")
    s = clue(game, s, 2, valid=False)
    check(s, phase=CLUE, team=RED, turns=1, clues=1, covers_pending=0)
    s = guess(game, clue(game, s, 9), *REDS)
    check(s, phase=DONE, winner=RED, clues=2)
    assert game.score(s)[0] == 2.0


# ------------------------------------------------------------------ Marvel co-op


def test_marvel_virtual_turn_one_mandatory_cover():
    """RULES §1 Marvel: at every virtual turn the spymaster covers one blue agent; no PASS."""
    game, s = new("marvel-coop", batch=2)
    s = guess(game, clue(game, s, 2), ROOT, STOP)
    check(s, phase=COVER, team=BLUE, covers_pending=1, turns=1)
    s = cover(game, s, np.array([12, PASS]))
    check(s, 0, phase=CLUE, team=RED, covers_pending=0)
    assert s.covered[0, 12] and blue_left(s) == 7
    assert_illegal(s, winner=1, game=1)


def test_marvel_cover_of_non_blue_card_is_illegal_players_lose():
    """docs: in Marvel the players' spymaster chooses the cover; a non-blue card → they lose."""
    game, s = new("marvel-coop", batch=4)
    s = guess(game, clue(game, s, 1), 17)  # bystander ends red's turn
    check(s, phase=COVER, team=BLUE)
    s = cover(game, s, np.array([ROOT + 1, 18, ASN, 9]))
    for g in range(3):
        assert_illegal(s, winner=1, game=g)
    check(s, 3, phase=CLUE, team=RED, winner=-1)
    s = cover(game, s, np.array([NO_ACTION] * 3 + [10]))  # cover outside COVER
    assert_illegal(s, winner=1, game=3)


def test_marvel_invalid_clue_two_covers():
    """docs: Marvel invalid clue → no guess; the virtual team covers two (penalty + its turn)."""
    game, s = new("marvel-coop")
    s = clue(game, s, 3, valid=False)
    check(s, phase=COVER, team=BLUE, covers_pending=2, turns=1, clues=1)
    s = cover(game, s, 9)
    check(s, phase=COVER, team=BLUE, covers_pending=1)
    s = cover(game, s, 10)
    check(s, phase=CLUE, team=RED, covers_pending=0)
    assert blue_left(s) == 6


def test_marvel_lose_when_virtual_team_covers_its_last_agent():
    """RULES §1 Marvel: every other-team agent covered (virtual turns or mistakes) → loss."""
    game, s = new("marvel-coop", batch=2)
    # Both games: red hits blue 9, 11, 13; the virtual turns cover 10, 12, 14.
    s = guess(game, clue(game, s, 1), 9)
    s = cover(game, s, 10)
    s = guess(game, clue(game, s, 1), 11)
    s = cover(game, s, 12)
    s = guess(game, clue(game, s, 1), 13)
    s = cover(game, s, 14)
    assert blue_left(s) == 2
    s = guess(game, clue(game, s, 1), np.array([15, ROOT]))
    check(s, 0, phase=COVER)
    s = cover(game, s, np.array([16, NO_ACTION]))  # game 0: the virtual turn covers the last
    check(s, 0, phase=DONE, winner=1, end_reason=END_AGENTS)
    s = guess(game, s, np.array([NO_ACTION, 15]))  # game 1: red hits blue 15 (1 left)
    s = cover(game, s, np.array([NO_ACTION, 16]))
    check(s, 1, phase=DONE, winner=1, end_reason=END_AGENTS)
    assert game.score(s).tolist() == [0.0, 0.0]


def test_marvel_lose_when_red_guess_covers_last_blue():
    """RULES §1 Marvel: covering the last blue agent by a mistake also loses."""
    game, s = new("marvel-coop")
    for card in (9, 11, 13):
        s = cover(game, guess(game, clue(game, s, 1), card), card + 1)
    s = cover(game, guess(game, clue(game, s, 1), ROOT, STOP), 15)
    assert blue_left(s) == 1
    s = guess(game, clue(game, s, 2), 16)
    check(s, phase=DONE, winner=1, end_reason=END_AGENTS)


def test_marvel_win_score_and_rank_count_blue_left():
    """RULES §1 Marvel: win when all 9 red covered first; score = blue agents uncovered (1..8)."""
    game, s = new("marvel-coop")
    s = guess(game, clue(game, s, 4), 0, 1, 2, 3, STOP)
    s = cover(game, s, 9)
    s = guess(game, clue(game, s, 5), 4, 5, 6, 7, 8)
    check(s, phase=DONE, winner=0, end_reason=END_AGENTS, turns=1)
    assert blue_left(s) == 7
    assert game.score(s)[0] == 7.0  # rank "truly amazing"


def test_marvel_assassin_loses():
    """RULES §1 Marvel: you lose on the assassin."""
    game, s = new("marvel-coop")
    s = guess(game, clue(game, s, 1), ASN)
    check(s, phase=DONE, winner=1, end_reason=END_ASSASSIN)
    assert game.score(s)[0] == 0.0
