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
    as any, and a bystander there would only end the turn the stop ends anyway."""
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
        return sum(len(t["guesses"]) > 1 for t in read)

    assert turns_past_the_number() == 0
    assert turns_past_the_number(stop_at_number=False) > 0  # the rule, not the board, stops it
