"""Seeded boards and keys: structure, determinism, and the competition procedure."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from codebots.engine.constants import ASSASSIN, BLUE, BYSTANDER, GREEN, RED
from codebots.errors import CodebotsError
from codebots.keys import (
    DUET_STRUCTURE,
    as_seeds,
    competition_board,
    deal,
    deal_cards,
    duet_keys,
    team_keys,
)
from codebots.variants import get_variant
from codebots.vocab import load_pool


def test_ten_thousand_duet_keys_have_exactly_the_rules_structure():
    keys = duet_keys(np.arange(10_000))  # (B, 2, 25)
    pair_code = keys[:, 0, :].astype(int) * 4 + keys[:, 1, :]  # (B, 25)
    for (side_a, side_b), count in DUET_STRUCTURE.items():
        assert ((pair_code == side_a * 4 + side_b).sum(axis=1) == count).all(), (side_a, side_b)
    for side in (0, 1):  # each side: 9 greens, 3 assassins, 13 bystanders
        assert ((keys[:, side] == GREEN).sum(axis=1) == 9).all()
        assert ((keys[:, side] == ASSASSIN).sum(axis=1) == 3).all()
        assert ((keys[:, side] == BYSTANDER).sum(axis=1) == 13).all()
    assert ((keys == GREEN).any(axis=1).sum(axis=1) == 15).all()  # 15 distinct greens


def test_duet_keys_vary_across_seeds_and_positions():
    keys = duet_keys(np.arange(2000))
    assert len({k.tobytes() for k in keys}) == 2000
    green_both = ((keys[:, 0] == GREEN) & (keys[:, 1] == GREEN)).mean(axis=0)  # per position
    assert np.allclose(green_both, 3 / 25, atol=0.03)


@pytest.mark.parametrize("counts", [(9, 8, 7, 1), (8, 7, 9, 1)])
def test_team_keys_have_the_counts_and_the_starting_team_has_more(counts):
    key, start = team_keys(np.arange(5000), counts, random_start=True)
    starting = (key == start[:, None]).sum(axis=1)
    other = (key == (1 - start)[:, None]).sum(axis=1)
    assert (starting == counts[0]).all() and (other == counts[1]).all()
    assert ((key == BYSTANDER).sum(axis=1) == counts[2]).all()
    assert ((key == ASSASSIN).sum(axis=1) == 1).all()
    assert 0.45 < start.mean() < 0.55  # either team starts about half the time


def test_red_starts_without_random_start():
    key, start = team_keys(np.arange(100), (9, 8, 7, 1), random_start=False)
    assert (start == RED).all() and ((key == RED).sum(axis=1) == 9).all()
    assert ((key == BLUE).sum(axis=1) == 8).all()


def test_a_game_is_the_same_alone_or_inside_a_batch():
    batch = deal_cards(np.arange(100, 200), 394)
    alone = deal_cards(np.array([150]), 394)
    assert (batch[50] == alone[0]).all()
    assert all(len(set(row)) == 25 for row in batch)  # distinct cards
    assert (deal_cards(np.arange(100, 200), 394) == batch).all()  # same seeds, same boards


def test_competition_board_follows_the_framework_procedure():
    words = load_pool("competition").words
    lines = list(words)
    rng = random.Random(100)  # the procedure of shared/data/competition/README.md
    rng.shuffle(lines)
    key = ["Red"] * 8 + ["Blue"] * 7 + ["Civilian"] * 9 + ["Assassin"]
    rng.shuffle(key)
    cards, codes = competition_board(100, words)
    assert [words[i] for i in cards] == lines[:25]
    names = {"Red": RED, "Blue": BLUE, "Civilian": BYSTANDER, "Assassin": ASSASSIN}
    assert codes == [names[k] for k in key]


def test_the_competition_pool_file_has_395_lines_as_the_framework_reads_it():
    # The framework reads f.read().splitlines(): 395 lines (the last one has no newline).
    assert len(load_pool("competition")) == 395


def test_single_team_2019_deals_competition_boards():
    seeds, cards, key, start = deal(get_variant("single-team-2019"), [0, 1, 2])
    words = load_pool("competition").words
    for row, seed in enumerate(seeds):
        expected_cards, expected_key = competition_board(int(seed), words)
        assert cards[row].tolist() == expected_cards and key[row].tolist() == expected_key
    assert Counter(key[0].tolist()) == {RED: 8, BLUE: 7, BYSTANDER: 9, ASSASSIN: 1}


@pytest.mark.parametrize("bad", ["abc", 1.5, [1, "x"], -1])
def test_seeds_must_be_non_negative_integers(bad):
    with pytest.raises(CodebotsError, match="seeds must be integers"):
        as_seeds(bad)
