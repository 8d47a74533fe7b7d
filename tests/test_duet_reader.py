"""The Duet reader (codebots.agents.duet_reader): the key structure's probabilities traced by
hand, the fitted folds that never saw the left-out partner, and the choice it makes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from codebots.agents import duet_reader
from codebots.agents.crossplay import crossplay_guesser
from codebots.agents.guesser import EmbeddingGuesser
from codebots.agents.views import ASSASSIN, BYSTANDER, OWN
from codebots.arena import Seat, play
from codebots.engine.constants import STOP
from codebots.minds import PANEL


def _own_key() -> np.ndarray:
    """(1, 25): cards 0-8 the guesser's greens, 9-21 its bystanders, 22-24 its assassins."""
    key = np.full((1, 25), BYSTANDER, dtype=np.int8)
    key[0, :9] = OWN
    key[0, 22:] = ASSASSIN
    return key


def test_the_key_structure_before_anything_is_shown():
    nothing = np.full((1, 25), -1, dtype=np.int8)
    green, assassin = duet_reader.key_prior(_own_key(), nothing, np.zeros((1, 25), bool))
    # RULES section 3: of my 9 greens 3 are the giver's greens and 1 its assassin; of my 13
    # bystanders 5 and 1; of my 3 assassins 1 and 1.
    assert green[0, 0] == pytest.approx(3 / 9) and assassin[0, 0] == pytest.approx(1 / 9)
    assert green[0, 9] == pytest.approx(5 / 13) and assassin[0, 9] == pytest.approx(1 / 13)
    assert green[0, 22] == pytest.approx(1 / 3) and assassin[0, 22] == pytest.approx(1 / 3)


def test_what_the_table_has_shown_moves_the_structure():
    revealed = np.full((1, 25), -1, dtype=np.int8)
    known_wrong = np.zeros((1, 25), bool)
    revealed[0, 9] = OWN  # one of my bystanders was found: it was the giver's green
    known_wrong[0, 10] = True  # one marked bystander from the giver's side
    revealed[0, 22] = OWN  # my assassin found: the giver's one green among my assassins
    revealed[0, 0] = OWN  # my green found (by my partner, on my clue): still unknown
    green, assassin = duet_reader.key_prior(_own_key(), revealed, known_wrong)
    # Bystanders: 11 unknown left sharing 4 greens and the assassin.
    assert green[0, 11] == pytest.approx(4 / 11) and assassin[0, 11] == pytest.approx(1 / 11)
    # Assassins: the two left are the giver's assassin and bystander, half each.
    assert green[0, 23] == pytest.approx(1e-3) and assassin[0, 23] == pytest.approx(1 / 2)
    # My greens: the found one may have hidden the giver's assassin, so all 9 still count.
    assert assassin[0, 1] == pytest.approx(1 / 9)


def test_every_fold_was_fitted_without_the_minds_it_leaves_out():
    weights = duet_reader.fitted_weights()
    minds = tuple(PANEL)
    for size in range(len(minds)):
        for left_out in itertools.combinations(minds, size):
            fold = duet_reader.weights_without(left_out)
            if fold is None:  # every fit saw one of them: only minds that came later left
                assert set(minds) - set(left_out) <= {"nomic", "gcide"}, left_out
                continue
            assert not set(fold["trained_on"]) & set(left_out), left_out
            assert len(fold["green"]) == len(fold["assassin"]) == len(duet_reader.FEATURES)
    fitted = tuple(weights[""]["trained_on"])  # the partners of the fit (nomic, gcide came later)
    assert set(fitted) <= set(minds)
    assert set(weights) == {
        "+".join(sorted(c)) for n in range(len(fitted)) for c in itertools.combinations(fitted, n)
    }
    for mind in minds:  # the reader facing mind M uses the fold that never saw M
        expected = weights[mind if mind in fitted else ""]
        assert duet_reader.weights_without((mind,)) == expected
    assert crossplay_guesser(without="glove").duet_reader == weights["glove"]


def test_the_choice_goes_on_only_while_the_value_is_high_enough():
    p_green = np.array([[0.9, 0.5, 0.1] + [0.0] * 22, [0.3, 0.2, 0.1] + [0.0] * 22])
    p_assassin = np.array([[0.05, 0.1, 0.3] + [0.0] * 22, [0.2, 0.1, 0.1] + [0.0] * 22])
    candidates = np.zeros((2, 25), bool)
    candidates[:, :3] = True
    rank = np.tile(np.arange(25), (2, 1))
    can_stop = np.array([True, True])
    sudden = np.array([False, False])
    choice = duet_reader.choose(p_green, p_assassin, candidates, rank, can_stop, sudden, 1.0, 0.2)
    # Game 0: 0.9 - 0.05 clears 0.2; game 1: the best value 0.1 does not: stop.
    assert choice.tolist() == [0, STOP]
    first = duet_reader.choose(p_green, p_assassin, candidates, rank, ~can_stop, sudden, 1.0, 0.2)
    assert first.tolist() == [0, 1]  # a first guess is never a stop: the best value
    # Sudden death: every miss loses, so the card most likely green, never a stop.
    sudden_choice = duet_reader.choose(
        p_green, p_assassin, candidates, rank, can_stop, ~sudden, 1.0, 0.2
    )
    assert sudden_choice.tolist() == [0, 0]


def test_the_reader_plays_whole_duet_games_with_a_stranger():
    pytest.importorskip("sentence_transformers")
    from codebots.agents import make_agent

    reader = crossplay_guesser(without="glove")
    log: list[dict] = []
    seat = Seat(make_agent("spymaster", "crossplay[without=glove]"), reader, "crossplay")
    glove = Seat(make_agent("spymaster", "glove"), make_agent("guesser", "glove"), "glove")
    rows = play("duet", seat, glove, np.arange(1000, 1040), turn_log=log)
    assert rows["cross"].all() and len(rows) == 40
    # Every guess is a visible card and its turns are legal: the engine ends every game.
    assert set(rows["end"]) <= {"agents", "assassin", "sudden death miss", "out of time"}
    read = [t for t in log if t["guesser_seat"] == 0]
    assert read and all(len(t["guesses"]) >= 1 for t in read if t["valid"])


def test_the_reader_stops_at_the_clue_number():
    """A person's "king 1" means one card: past the number a card is as likely an assassin
    as any, and a bystander there would only end the turn the stop ends anyway. (Not on the
    last turn, the tenth clue of a game: see the test below.)"""
    pytest.importorskip("sentence_transformers")
    from codebots.agents.embedding import EmbeddingSpymaster

    def turns_past_the_number(**options) -> int:
        reader = crossplay_guesser(without="glove", **options)
        ones = EmbeddingSpymaster(models=("glove",), max_number=1, name="glove-ones")
        ours = Seat(EmbeddingSpymaster(models=("glove",)), reader, "crossplay")
        theirs = Seat(ones, EmbeddingGuesser(model="glove"), "glove-ones")
        log: list[dict] = []
        rows = play("duet", ours, theirs, np.arange(1000, 1060), turn_log=log)
        sudden = set(rows.loc[rows["sudden_death"], "seed"])
        last = {turn["seed"]: turn for turn in log}  # sudden-death guesses are filed here
        read = [t for t in log if t["guesser_seat"] == 0 and t["valid"] and t["number"] == 1]
        read = [t for t in read if not (t["seed"] in sudden and last[t["seed"]] is t)]
        assert len(read) > 100  # the partner's every clue is a one-card clue
        return sum(len(t["guesses"]) > 1 for t in read if t["clue_no"] < 10)

    assert turns_past_the_number() == 0
    assert turns_past_the_number(stop_at_number=False) > 0  # the rule, not the board, stops it


def test_the_last_turn_is_the_one_whose_end_empties_the_bank():
    """RULES section 3: with one token left, mistake-side, a stop and a bystander both take it
    and sudden death follows either way; with one time-side token a bystander loses at once
    (it needs two), and with two tokens another turn follows."""
    from test_engine_duet import BB, GG, clue, guess, new, with_bank

    from codebots.agents.views import last_turn
    from codebots.engine import SUDDEN_DEATH

    game, start = new()
    one = with_bank(start, time=0, mistake=1)
    assert not last_turn(start)[0] and last_turn(one)[0]
    given = clue(game, one, 2)
    assert last_turn(given)[0]  # the clue's guesses too
    for ending in ((GG[0], STOP), (BB[0],), (GG[0], BB[0])):
        assert guess(game, given, *ending).phase[0] == SUDDEN_DEATH, ending
    assert not last_turn(guess(game, given, GG[0], STOP))[0]  # sudden death itself is not
    for time, mistake in ((1, 0), (1, 1), (0, 2)):
        assert not last_turn(with_bank(start, time=time, mistake=mistake))[0], (time, mistake)


def test_on_the_last_turn_the_reader_goes_past_the_number():
    """A green left now must be found in sudden death, where a bystander loses too: on the
    last turn the reader goes on past the number while a green is at least as likely as the
    assassin, and stops at it otherwise."""
    from dataclasses import replace

    from test_agents_embedding import CARDS, guesser_view

    own = [BYSTANDER] * len(CARDS)
    reader = EmbeddingGuesser("glove", duet_reader=(), last_turn_threshold=0.0)
    rng = np.random.default_rng(0)
    legal = np.ones(len(CARDS), bool)
    legal[0] = False  # "sea 1": OCEAN found
    view = guesser_view(CARDS, "sea", 1, made=1, legal=legal, revealed={0: OWN}, own=own)
    view = replace(view, sudden_death=np.zeros(1, bool), last_turn=np.zeros(1, bool))
    reader.begin(1)
    assert reader.guesses(view, rng)[0] == STOP
    reader.begin(1)
    assert reader.guesses(replace(view, last_turn=np.ones(1, bool)), rng)[0] in (1, 2)
    plain = EmbeddingGuesser("glove", duet_reader=())  # no last-turn rule: the number holds
    assert plain.guesses(replace(view, last_turn=np.ones(1, bool)), rng)[0] == STOP
