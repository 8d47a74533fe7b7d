"""Hand-traced scenarios for the plain-Python reference engine (tests/reference_engine.py)."""

from reference_engine import (
    AGENTS,
    ASSASSIN,
    BLUE,
    BYSTANDER,
    CLUE,
    COVER,
    DONE,
    END_ASSASSIN,
    FOURTEEN,
    GAUNTLET,
    GREEN,
    GUESS,
    ILLEGAL,
    NO_LIMIT,
    NONE,
    OUT_OF_TIME,
    PASS,
    RED,
    STOP,
    SUDDEN_DEATH,
    SUDDEN_DEATH_MISS,
    UNLIMITED,
    RefDuetGame,
    RefTeamGame,
)

# Team key: red 0-8, blue 9-16, bystanders 17-23, assassin 24.
KEY = [RED] * 9 + [BLUE] * 8 + [BYSTANDER] * 7 + [ASSASSIN]
REDS, BLUES, BYS = list(range(9)), list(range(9, 17)), list(range(17, 24))

# Duet key following the RULES §3 table.
# side 0: green 0-8, bystander 9-21, assassin 22-24
# side 1: green 0-2, 9-13, 22; bystander 3-7, 14-20, 23; assassin 8, 21, 24
G, B, A = GREEN, BYSTANDER, ASSASSIN
DKEY = [
    [G] * 9 + [B] * 13 + [A] * 3,
    [G] * 3 + [B] * 5 + [A] + [G] * 5 + [B] * 7 + [A] + [G] + [B] + [A],
]
SIDE0_GREENS = list(range(9))
SIDE1_GREENS = [0, 1, 2, 9, 10, 11, 12, 13, 22]


def team(opponent="team", start=0, **kw):
    opts = dict(
        opponent=opponent,
        zero_clues=False,
        unlimited_clues=False,
        infinity_gauntlet=False,
        invalid_clue="penalty",
    )
    opts.update(kw)
    return RefTeamGame(KEY, start, **opts)


def duet(time=0, mistake=10, **kw):
    opts = dict(
        time_tokens=time, mistake_tokens=mistake, loose_turn_order=False, invalid_clue="penalty"
    )
    opts.update(kw)
    return RefDuetGame(DKEY, **opts)


def check(game, **expected):
    snap = game.snapshot()
    for name, value in expected.items():
        assert snap[name] == value, (name, snap[name], value)


def red_left(g):
    return sum(1 for i in REDS if not g.snapshot()["covered"][i])


def test_key_structures():
    assert len(KEY) == 25 and KEY.count(BYSTANDER) == 7
    pairs = list(zip(*DKEY))
    assert pairs.count((G, G)) == 3 and pairs.count((G, B)) == 5 and pairs.count((B, B)) == 7
    assert pairs.count((A, A)) == 1 and pairs.count((B, A)) == 1 and pairs.count((A, G)) == 1


# ---------------------------------------------------------------- team games


def test_seed004_tree_two_then_stop():
    g = team()
    check(g, phase=CLUE, team=RED, turns=0, clues=0, winner=-1, end_reason=NONE, guesses_left=0)
    g.clue(2)
    check(g, phase=GUESS, team=RED, guesses_left=3, guesses_made=0, clues=1)
    g.guess(0)
    assert red_left(g) == 8
    check(g, guesses_left=2, guesses_made=1)
    g.guess(1)
    assert red_left(g) == 7
    check(g, guesses_left=1, guesses_made=2, phase=GUESS)  # a third guess is allowed
    g.guess(STOP)
    check(g, phase=CLUE, team=BLUE, turns=1, guesses_made=0, guesses_left=0)


def test_seed004_bystander_ends_turn():
    g = team()
    g.clue(2)
    g.guess(0)
    g.guess(17)
    assert red_left(g) == 8
    check(g, phase=CLUE, team=BLUE, turns=1)


def test_seed001_limit_n_plus_one():
    g = team()
    g.clue(3)
    g.guess(17)  # ANIMAL: 3, bystander first
    check(g, team=BLUE, turns=1)
    g.clue(3)
    for c in (9, 10, 11):
        g.guess(c)
    check(g, phase=GUESS, guesses_left=1, guesses_made=3)
    g.guess(12)  # the 4th guess (earlier clue's card), correct: limit reached
    check(g, phase=CLUE, team=RED, turns=2, guesses_left=0)


def test_other_team_agent_ends_turn():
    g = team()
    g.clue(2)
    g.guess(9)
    check(g, phase=CLUE, team=BLUE, turns=1)
    assert g.snapshot()["covered"][9]


def test_last_agent_revealed_by_other_team_wins_for_owner():
    g = team(unlimited_clues=True)
    g.clue(UNLIMITED)
    for c in REDS[:8]:
        g.guess(c)
    check(g, guesses_left=NO_LIMIT, guesses_made=8)
    g.guess(STOP)
    g.clue(1)
    g.guess(8)  # blue reveals red's last agent
    check(g, phase=DONE, winner=RED, end_reason=AGENTS, turns=1, guesses_made=0, guesses_left=0)
    assert g.score() is None


def test_own_last_agent_wins():
    g = team(unlimited_clues=True)
    g.clue(UNLIMITED)
    for c in REDS:
        g.guess(c)
    check(g, phase=DONE, winner=RED, end_reason=AGENTS, turns=0)


def test_assassin_loses():
    g = team(start=1)
    g.clue(1)
    g.guess(24)
    check(g, phase=DONE, winner=RED, end_reason=END_ASSASSIN, team=BLUE)
    assert g.snapshot()["covered"][24]


def test_zero_and_unlimited_need_options():
    for number, opt in ((0, "zero_clues"), (UNLIMITED, "unlimited_clues")):
        g = team()
        g.clue(number)
        check(g, phase=DONE, winner=BLUE, end_reason=ILLEGAL, clues=0)
        g = team(**{opt: True})
        g.clue(number)
        check(g, phase=GUESS, guesses_left=NO_LIMIT, clues=1)
        g.guess(0)
        g.guess(1)
        g.guess(2)
        check(g, phase=GUESS, guesses_left=NO_LIMIT, guesses_made=3)


def test_zero_clue_one_guess_option():
    g = team(opponent="none", zero_clues=True, zero_clue_guesses=1)
    g.clue(0)
    check(g, phase=GUESS, guesses_left=1, clues=1)
    g.guess(0)  # right: the one guess is used, red clues again
    check(g, phase=CLUE, team=RED, turns=1)


def test_bad_number_is_illegal_for_acting_team():
    for bad in (10, -3, 42):
        g = team()
        g.clue(1)
        g.guess(0)
        g.guess(STOP)  # blue to act
        g.clue(bad)
        check(g, phase=DONE, winner=RED, end_reason=ILLEGAL, team=BLUE)


def test_phase_and_card_errors_are_illegal():
    g = team()
    g.guess(0)
    check(g, winner=BLUE, end_reason=ILLEGAL)
    g = team()
    g.cover(9)
    check(g, winner=BLUE, end_reason=ILLEGAL)
    g = team()
    g.clue(1)
    g.clue(1)
    check(g, winner=BLUE, end_reason=ILLEGAL)
    g = team()
    g.clue(1)
    g.guess(STOP)  # STOP before any guess
    check(g, winner=BLUE, end_reason=ILLEGAL)
    g = team()
    g.clue(2)
    g.guess(0)
    g.guess(0)  # covered card
    check(g, winner=BLUE, end_reason=ILLEGAL)
    g = team()
    g.clue(2)
    g.guess(25)
    check(g, winner=BLUE, end_reason=ILLEGAL)


def test_done_game_ignores_actions():
    g = team()
    g.clue(1)
    g.guess(24)
    before = g.snapshot()
    g.clue(1)
    g.guess(3)
    g.cover(9)
    g.guess(STOP)
    assert g.snapshot() == before


def test_classic_invalid_clue_penalty_optional_cover():
    g = team()
    g.clue(2, valid=False)
    check(g, phase=COVER, team=BLUE, covers_pending=1, turns=1, clues=1, guesses_left=0)
    g.cover(PASS)
    check(g, phase=CLUE, team=BLUE, covers_pending=0, turns=1)
    g = team()
    g.clue(2, valid=False)
    g.cover(9)
    check(g, phase=CLUE, team=BLUE, covers_pending=0)
    assert g.snapshot()["covered"][9]
    g.clue(1)
    g.guess(10)
    g.guess(STOP)
    check(g, phase=CLUE, team=RED, turns=2)


def test_classic_cover_of_wrong_card_forfeits_covering_team():
    g = team()
    g.clue(2, valid=False)
    g.cover(0)  # blue covers a red agent
    check(g, phase=DONE, winner=RED, end_reason=ILLEGAL)
    g = team()
    g.clue(2, valid=False)
    g.cover(17)
    check(g, winner=RED, end_reason=ILLEGAL)


def test_classic_cover_of_last_agent_wins():
    g = team(unlimited_clues=True)
    g.clue(1)
    g.guess(0)
    g.guess(STOP)
    g.clue(UNLIMITED)
    for c in BLUES[:7]:
        g.guess(c)
    g.guess(STOP)
    g.clue(1, valid=False)
    g.cover(16)
    check(g, phase=DONE, winner=BLUE, end_reason=AGENTS, turns=3, covers_pending=0)


def test_invalid_clue_accept_and_forfeit():
    g = team(invalid_clue="accept")
    g.clue(2, valid=False)
    check(g, phase=GUESS, guesses_left=3, clues=1, turns=0)
    g = team(invalid_clue="forfeit")
    g.clue(2, valid=False)
    check(g, phase=DONE, winner=BLUE, end_reason=ILLEGAL)


def test_infinity_gauntlet_last_bystander_loses():
    g = team(infinity_gauntlet=True)
    for i, c in enumerate(BYS[:6]):
        check(g, team=i % 2)
        g.clue(1)
        g.guess(c)
    check(g, phase=CLUE, team=RED, turns=6)
    g.clue(1)
    g.guess(23)
    check(g, phase=DONE, winner=BLUE, end_reason=GAUNTLET, turns=6)
    g = team()  # without the option the 7th bystander just ends the turn
    for c in BYS:
        g.clue(1)
        g.guess(c)
    check(g, phase=CLUE, team=BLUE, turns=7, winner=-1)


def test_single_team_red_always_gives():
    g = team("none", start=1)
    check(g, team=RED)
    g.clue(1)
    g.guess(0)
    g.guess(1)
    check(g, phase=CLUE, team=RED, turns=1)
    g.clue(1, valid=False)  # penalty: turn ends, the clue counts
    check(g, phase=CLUE, team=RED, turns=2, clues=2)
    g.clue(1)
    g.guess(17)
    check(g, phase=CLUE, team=RED, turns=3, clues=3)
    assert g.score() is None


def test_single_team_score_win_and_loss():
    g = team("none", unlimited_clues=True)
    g.clue(2)
    g.guess(0)
    g.guess(STOP)
    g.clue(UNLIMITED)
    for c in REDS[1:]:
        g.guess(c)
    check(g, winner=0, end_reason=AGENTS, clues=2)
    assert g.score() == 2
    g = team("none")
    for c in BLUES:
        g.clue(1)
        g.guess(c)
    check(g, winner=1, end_reason=AGENTS, turns=7)
    assert g.score() == 25
    g = team("none")
    g.clue(1)
    g.guess(24)
    check(g, winner=1, end_reason=END_ASSASSIN)
    assert g.score() == 25


def test_marvel_virtual_turn_one_mandatory_cover():
    g = team("virtual")
    g.clue(1)
    g.guess(0)
    g.guess(17)
    check(g, phase=COVER, team=BLUE, covers_pending=1, turns=1)
    g.cover(9)
    check(g, phase=CLUE, team=RED, covers_pending=0, turns=1)
    assert g.snapshot()["covered"][9]
    for bad in (PASS, 0, 17, 9):  # PASS, red agent, bystander, covered card
        h = team("virtual")
        h.clue(1)
        h.guess(0)
        h.guess(STOP)
        h.cover(9)
        h.clue(1)
        h.guess(1)
        h.guess(STOP)
        h.cover(bad)
        check(h, phase=DONE, winner=1, end_reason=ILLEGAL)
        assert h.score() == 0


def test_marvel_invalid_clue_two_covers_and_loss_on_last_blue():
    g = team("virtual")
    g.clue(3, valid=False)
    check(g, phase=COVER, team=BLUE, covers_pending=2, turns=1, clues=1)
    g.cover(9)
    check(g, phase=COVER, covers_pending=1)
    g.cover(10)
    check(g, phase=CLUE, team=RED, covers_pending=0)
    for pair in ((11, 12), (13, 14), (15, 16)):
        g.clue(3, valid=False)
        g.cover(pair[0])
        g.cover(pair[1])
    check(g, phase=DONE, winner=1, end_reason=AGENTS, turns=4)
    assert g.score() == 0


def test_marvel_score_is_blue_left():
    g = team("virtual", unlimited_clues=True)
    g.clue(UNLIMITED)
    for c in REDS:
        g.guess(c)
    check(g, winner=0, end_reason=AGENTS)
    assert g.score() == 8
    g = team("virtual", unlimited_clues=True)
    g.clue(1)
    g.guess(0)
    g.guess(STOP)
    g.cover(9)
    g.clue(UNLIMITED)
    for c in REDS[1:]:
        g.guess(c)
    assert g.score() == 7
    g = team("virtual")
    g.clue(1)
    g.guess(9)  # red's guess of a blue agent ends the turn
    check(g, phase=COVER, team=BLUE, covers_pending=1)


# ---------------------------------------------------------------- Duet


def test_duet_worked_example_prison_forest_hogsmeade():
    g = duet()
    check(g, phase=CLUE, giver=0, last_giver=-1, streak=0, mistake_tokens=10, time_tokens=0)
    g.clue(3)  # Prison: 3
    check(g, phase=GUESS, giver=0, clues=1)
    g.guess(0)
    check(g, guesses_made=1)
    g.guess(9)  # bystander on side 0
    s = g.snapshot()
    assert s["found"][0] and s["marked"][0][9] and not s["found"][9]
    check(g, phase=CLUE, mistake_tokens=9, turns=1, giver=1, last_giver=0, streak=1, guesses_made=0)
    g.clue(4)  # Forest: 4, judged by side 1
    for c in (9, 10, 11, 12):
        g.guess(c)
    check(g, guesses_made=4)
    g.guess(STOP)
    assert g.snapshot()["found"][9]  # marked from side 0, found from side 1
    check(g, mistake_tokens=8, stop_tokens=1, turns=2, giver=0, last_giver=1, streak=1)
    g.clue(2)  # Hogsmeade: 2
    for c in (1, 2, 3):
        g.guess(c)
    g.guess(STOP)
    check(g, mistake_tokens=7, time_tokens=0, stop_tokens=2, turns=3, phase=CLUE, giver=1)


def test_duet_scheduled_giver_and_wrong_giver():
    g = duet()
    g.clue(1, giver=0)
    g.guess(0)
    g.guess(STOP)
    check(g, giver=1)
    g.clue(1, giver=0)
    check(g, phase=DONE, winner=1, end_reason=ILLEGAL)
    g = duet()
    g.clue(1, giver=2)
    check(g, winner=1, end_reason=ILLEGAL)


def test_duet_first_clue_either_giver():
    g = duet()
    g.clue(1, giver=1)
    check(g, phase=GUESS, giver=1)
    g.guess(9)  # green on side 1
    g.guess(3)  # bystander on side 1
    s = g.snapshot()
    assert s["found"][9] and s["marked"][1][3] and not s["marked"][0][3]
    check(g, giver=0, last_giver=1, streak=1, turns=1, mistake_tokens=9)


def test_duet_loose_turn_order():
    g = duet(loose_turn_order=True)
    g.clue(1)
    g.guess(0)
    g.guess(STOP)
    check(g, giver=1, last_giver=0, streak=1)
    g.clue(1, giver=0)
    g.guess(1)
    g.guess(STOP)
    check(g, giver=1, last_giver=0, streak=2)
    h = duet(loose_turn_order=True)
    h.clue(1)
    h.guess(0)
    h.guess(STOP)
    h.clue(1, giver=0)
    h.guess(1)
    h.guess(STOP)
    h.clue(1, giver=0)  # a third in a row
    check(h, phase=DONE, winner=1, end_reason=ILLEGAL)
    g.clue(1)
    g.guess(9)
    g.guess(STOP)
    check(g, giver=0, last_giver=1, streak=1)


def test_duet_hand_over_when_side_has_no_greens():
    g = duet(loose_turn_order=True)
    g.clue(9, giver=1)
    for c in SIDE1_GREENS:
        g.guess(c)
    g.guess(STOP)
    check(g, giver=0, last_giver=1, streak=1, turns=1)
    g.clue(1)
    g.guess(3)
    g.guess(STOP)
    check(g, giver=0, last_giver=0, streak=1, turns=2)  # player 1 has nothing left to clue
    g.clue(1)
    g.guess(4)
    g.guess(STOP)
    check(g, giver=0, last_giver=0, streak=2)
    g.clue(1)
    g.guess(5)
    g.guess(STOP)  # the scheduled giver may exceed two in a row
    check(g, giver=0, streak=3)
    g.clue(1, giver=1)  # no greens on side 1: illegal
    check(g, phase=DONE, winner=1, end_reason=ILLEGAL)


def test_duet_stop_token_time_side_first():
    g = duet(time=2, mistake=3)
    g.clue(1)
    g.guess(0)
    g.guess(STOP)
    check(g, time_tokens=1, mistake_tokens=3, stop_tokens=1)
    g.clue(1)
    g.guess(9)
    g.guess(STOP)
    check(g, time_tokens=0, mistake_tokens=3, stop_tokens=2)
    g.clue(1)
    g.guess(1)
    g.guess(STOP)
    check(g, time_tokens=0, mistake_tokens=2, stop_tokens=3)


def test_duet_stop_needs_correct_guess():
    g = duet()
    g.clue(1)
    g.guess(STOP)
    check(g, phase=DONE, winner=1, end_reason=ILLEGAL)
    g = duet()
    g.guess(0)
    check(g, winner=1, end_reason=ILLEGAL)
    g = duet()
    g.clue(1)
    g.clue(1)
    check(g, winner=1, end_reason=ILLEGAL)
    g = duet()
    g.clue(1)
    g.guess(0, guesser=0)  # the giver cannot guess
    check(g, winner=1, end_reason=ILLEGAL)
    g = duet()
    g.clue(10)
    check(g, winner=1, end_reason=ILLEGAL)
    for n in (0, UNLIMITED):
        g = duet()
        g.clue(n)
        check(g, phase=GUESS)


def test_duet_bystander_tokens_and_sudden_death_entry():
    g = duet(time=4, mistake=1)
    g.clue(1)
    g.guess(9)
    check(g, time_tokens=4, mistake_tokens=0, phase=CLUE, giver=1)
    g.clue(1)
    g.guess(3)
    check(g, time_tokens=2, mistake_tokens=0, phase=CLUE, giver=0)
    g.clue(1)
    g.guess(10)
    check(
        g,
        time_tokens=0,
        phase=SUDDEN_DEATH,
        sudden_death=True,
        turns=3,
        giver=0,
        last_giver=0,
        streak=1,
        winner=-1,
    )
    g.clue(1)
    check(g, phase=DONE, winner=1, end_reason=ILLEGAL, sudden_death=True)


def test_duet_out_of_time():
    g = duet(time=1, mistake=0)
    g.clue(1)
    g.guess(9)
    check(
        g, phase=DONE, winner=1, end_reason=OUT_OF_TIME, time_tokens=1, sudden_death=False, turns=0
    )
    assert g.snapshot()["marked"][0][9]
    assert g.score() is None


def test_duet_assassin():
    g = duet()
    g.clue(1)
    g.guess(0)
    g.guess(22)
    check(g, phase=DONE, winner=1, end_reason=END_ASSASSIN, guesses_made=0)
    assert g.score() is None


def test_duet_win_uses_one_token_and_score():
    g = duet()
    g.clue(9)
    for c in SIDE0_GREENS:
        g.guess(c)
    g.guess(STOP)
    check(g, mistake_tokens=9, stop_tokens=1, giver=1)
    g.clue(6)
    for c in (9, 10, 11, 12, 13):
        g.guess(c)
    check(g, phase=GUESS, guesses_made=5)
    g.guess(22)
    check(
        g,
        phase=DONE,
        winner=0,
        end_reason=AGENTS,
        mistake_tokens=8,
        stop_tokens=1,
        turns=1,
        giver=1,
        guesses_made=0,
    )
    assert g.score() == 3 * 8 + 1


def test_duet_fourteen_of_fifteen():
    g = duet(time=2, mistake=3, fourteen_of_fifteen=True)
    g.clue(9)
    for c in SIDE0_GREENS:
        g.guess(c)
    g.guess(STOP)
    check(g, time_tokens=1)
    g.clue(5)
    for c in (9, 10, 11, 12):
        g.guess(c)
    check(g, phase=GUESS)
    g.guess(13)
    check(g, phase=DONE, winner=0, end_reason=FOURTEEN, time_tokens=0, mistake_tokens=3)
    assert g.score() == 3 * 3 + 1


def test_duet_sudden_death_default_guesser_and_win():
    g = duet(time=1, mistake=0)
    g.clue(1)
    g.guess(0)
    g.guess(STOP)
    check(g, phase=SUDDEN_DEATH, sudden_death=True, stop_tokens=1, time_tokens=0, turns=1)
    for c in (1, 2, 9, 10, 11, 12, 13, 22):  # player 0 finds side 1's greens
        g.guess(c)
    check(g, phase=SUDDEN_DEATH, guesses_made=0, turns=1, giver=0)
    for c in (3, 4, 5, 6, 7):  # now the default guesser is player 1 (side 0 judges)
        g.guess(c)
    g.guess(8)
    check(g, phase=DONE, winner=0, end_reason=AGENTS, time_tokens=0, mistake_tokens=0)
    assert g.score() == 0 + 1 - 1


def test_duet_sudden_death_rules():
    def sd(**kw):
        g = duet(time=1, mistake=0, **kw)
        g.clue(1)
        g.guess(0)
        g.guess(STOP)
        return g

    g = sd()
    g.guess(STOP)
    check(g, phase=DONE, winner=1, end_reason=ILLEGAL)
    g = sd()
    g.guess(3)  # default guesser 0, side 1 judges: bystander
    check(g, phase=DONE, winner=1, end_reason=SUDDEN_DEATH_MISS)
    assert g.snapshot()["marked"][1][3]
    g = sd()
    g.guess(3, guesser=1)  # side 0 judges: green
    check(g, phase=SUDDEN_DEATH)
    assert g.snapshot()["found"][3]
    g = sd()
    g.guess(8, guesser=0)  # assassin on side 1
    check(g, winner=1, end_reason=END_ASSASSIN)
    g = sd()
    for c in (1, 2, 9, 10, 11, 12, 13, 22):
        g.guess(c, guesser=0)
    g.guess(3, guesser=0)  # player 0 has nothing left to find
    check(g, winner=1, end_reason=ILLEGAL)
    g = sd(touch_two=1)
    g.guess(9, second=10)
    check(g, winner=1, end_reason=ILLEGAL)


def test_duet_sudden_death_forgiveness():
    g = duet(time=1, mistake=0, sudden_death_forgiveness=1)
    g.clue(1)
    g.guess(0)
    g.guess(STOP)
    g.guess(3)
    check(g, phase=SUDDEN_DEATH, forgiveness_left=0, winner=-1)
    assert g.snapshot()["marked"][1][3]
    g.guess(4)
    check(g, phase=DONE, winner=1, end_reason=SUDDEN_DEATH_MISS)


def test_duet_touch_two():
    g = duet(touch_two=3)
    g.clue(2)
    g.guess(9, second=0)  # bystander vs green: green kept
    s = g.snapshot()
    assert s["found"][0] and not s["marked"][0][9]
    check(g, touch_two_left=2, guesses_made=1, phase=GUESS)
    g.guess(22, second=10)  # assassin vs bystander: bystander kept
    assert g.snapshot()["marked"][0][10]
    check(g, touch_two_left=1, phase=CLUE, giver=1, mistake_tokens=9)
    g.clue(1)
    g.guess(3, second=4)  # two bystanders on side 1: the first card
    s = g.snapshot()
    assert s["marked"][1][3] and not s["marked"][1][4]
    check(g, touch_two_left=0)
    g.clue(1)
    g.guess(1, second=2)  # no bonus left
    check(g, winner=1, end_reason=ILLEGAL)
    g = duet(touch_two=1)
    g.clue(1)
    g.guess(1, second=1)
    check(g, winner=1, end_reason=ILLEGAL)


def test_duet_mark_bystander_bonus():
    g = duet(time=2, mistake=2, mark_bystander=1)
    g.clue(1, mark=14)
    check(g, phase=GUESS, mark_left=0, time_tokens=1, mistake_tokens=2, clues=1)
    assert g.snapshot()["marked"][0][14] and not g.snapshot()["marked"][1][14]
    g.guess(0)
    g.guess(STOP)
    g.clue(1)
    g.guess(14)  # bystander on side 1 too: marked from both sides = covered
    check(g, mistake_tokens=1, giver=0)
    g.clue(1)
    g.guess(14)
    check(g, phase=DONE, winner=1, end_reason=ILLEGAL)
    for kw, mark in (
        (dict(), 0),
        (dict(), 22),
        (dict(time=1, mistake=0), 9),
        (dict(mark_bystander=0), 9),
    ):
        opts = dict(mark_bystander=1)
        opts.update(kw)  # noqa: E702
        g = duet(**opts)
        g.clue(1, mark=mark)  # green / assassin / bank < 2 / no bonus
        check(g, winner=1, end_reason=ILLEGAL)
    g = duet(mark_bystander=1)
    g.clue(1)
    g.guess(14)  # side 0 marks 14 (still uncovered)
    g.clue(1)
    g.guess(9)
    g.guess(STOP)
    g.clue(1, mark=14)  # already marked from the giver's side
    check(g, winner=1, end_reason=ILLEGAL)


def test_duet_invalid_clue_penalty_accept_forfeit():
    g = duet(time=1, mistake=2)
    g.clue(2, valid=False)
    check(g, phase=GUESS, time_tokens=0, mistake_tokens=2, clues=1)
    g.guess(0)
    g.guess(STOP)
    check(g, mistake_tokens=1, stop_tokens=1)
    g = duet(invalid_clue="accept")
    g.clue(2, valid=False)
    check(g, phase=GUESS, mistake_tokens=10)
    g = duet(invalid_clue="forfeit")
    g.clue(2, valid=False)
    check(g, phase=DONE, winner=1, end_reason=ILLEGAL, clues=0)


def test_duet_penalty_empties_bank_then_stop():
    g = duet(time=1, mistake=0)
    g.clue(1, valid=False)
    check(g, phase=GUESS, time_tokens=0)
    g.guess(0)
    g.guess(STOP)  # nothing left to take
    check(g, phase=SUDDEN_DEATH, stop_tokens=0, sudden_death=True, turns=1)


def test_duet_double_and_two_word_clues():
    g = duet(double_clues=1, two_word_clues=3)
    g.clue(2, double=True, two_word=True)
    check(g, clues=2, double_left=0, two_word_left=2)
    g.guess(0)
    g.guess(STOP)
    g.clue(1, two_word=True)
    check(g, clues=3, two_word_left=1, phase=GUESS)
    g.guess(9)
    g.guess(STOP)
    g.clue(1, double=True)
    check(g, phase=DONE, winner=1, end_reason=ILLEGAL, clues=3)
    g = duet()
    g.clue(1, two_word=True)
    check(g, winner=1, end_reason=ILLEGAL)


def test_duet_done_ignores_actions():
    g = duet()
    g.clue(1)
    g.guess(22)
    before = g.snapshot()
    g.clue(1)
    g.guess(0)
    g.guess(STOP)
    assert g.snapshot() == before
