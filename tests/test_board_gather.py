"""The spymaster's board gathers: both gathers, the forbidden triples and the sorting
network give exactly the values of the plain computations they replace."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from codebots.agents import make_agent
from codebots.agents.board_gather import BoardGather, RowMax, comparators, descending, penalty
from codebots.agents.tables import forbid_for
from codebots.keys import deal
from codebots.lexicon import relation_matrix
from codebots.variants import get_variant
from codebots.vocab import load_pool


@pytest.mark.parametrize("size", range(1, 10))
def test_the_network_sorts_every_zero_one_input(size):
    # The 0-1 principle: a comparator network that sorts every 0/1 input sorts any input.
    for bits in itertools.product((0, 1), repeat=size):
        values = list(bits)
        for low, high in comparators(size):
            values[low], values[high] = (
                min(values[low], values[high]),
                max(values[low], values[high]),
            )
        assert values == sorted(bits), (size, bits)


def test_descending_matches_numpy_sort_with_minus_infinity():
    rng = np.random.default_rng(3)
    values = rng.standard_normal((4, 7, 6, 5)).astype(np.float32)
    values[rng.random(values.shape) < 0.3] = -np.inf
    ranked = np.stack(descending(values, axis=2), axis=2)
    assert np.array_equal(ranked, np.sort(values, axis=2)[:, :, ::-1])


@pytest.mark.parametrize("most", [0, 1, 3])
def test_row_max_is_the_masked_max(most):
    # A game with no marked row (an assassin revealed), one (single-team) or three (Duet).
    rng = np.random.default_rng(most)
    values = rng.standard_normal((6, 9, 4, 5)).astype(np.float32)  # (G, R, S, K)
    rows = np.zeros((6, 9), dtype=bool)
    for game in range(6):
        rows[game, rng.choice(9, game % (most + 1), replace=False)] = True
    plain = (values + penalty(rows[:, :, None, None])).max(axis=1)
    assert np.array_equal(RowMax(rows)(values), plain)


@pytest.fixture(scope="module")
def block():
    """A GloVe spymaster's gathers on 64 competition boards, laid out targets first."""
    spymaster = make_agent("spymaster", "glove")
    variant = get_variant("single-team-2019")
    words = load_pool(variant.pool).words
    table = spymaster.tables(words)[0]
    state = deal(variant, np.arange(64))  # (seeds, cards, key, start)
    rng = np.random.default_rng(0)
    visible = rng.random((64, 25)) < 0.7  # some cards covered, as mid-game
    cards_l = np.asarray(state[1])
    return spymaster, variant, words, table, cards_l, visible


def test_pair_tables_gather_the_z_table_values(block, monkeypatch):
    spymaster, _, words, table, cards_l, _ = block
    from codebots.agents import board_gather

    plain = BoardGather(table.neighbours, [table.zsims])
    paired = BoardGather(table.neighbours, [table.zsims])
    monkeypatch.setattr(board_gather, "PAIR_TABLE_MIN_GAMES", 1)
    paired.prepare(64)
    assert paired._pairs is not None and plain._pairs is None
    relation = relation_matrix(words, spymaster.vocabulary)
    for slots in (1, 4, 9):
        targets = cards_l[:, :slots]
        # (G, 25, S, K): card o's z of neighbour k of target j at [g, o, j, k]
        expected = table.zsims[cards_l[:, :, None, None], paired.neighbours[targets][:, None]]
        assert expected.shape == (64, 25, slots, paired.width)
        assert np.array_equal(plain.sims(0, targets, cards_l), expected)
        assert np.array_equal(paired.sims(0, targets, cards_l), expected)
        # The lexicon's relation of target i to candidate (j, k), both ways.
        related = relation[targets[:, :, None, None], paired.neighbours[targets][:, None]]
        assert np.array_equal(paired.related(relation, targets), related)
        assert np.array_equal(plain.related(relation, targets), related)
    assert related.any()


@pytest.mark.parametrize("variant_id", ["single-team-2019", "marvel-coop[experts]"])
def test_forbidden_triples_give_the_forbid_tables_verdicts(block, variant_id):
    _, _, _, table, cards_l, visible = block
    gather = BoardGather(table.neighbours, [table.zsims])
    forbid = forbid_for(get_variant(variant_id), table)
    for slots in (1, 5, 9):
        candidates = gather.candidates(cards_l, slots)
        expected = forbid.forbidden(cards_l, visible, candidates)
        got = gather.forbidden(forbid, cards_l, visible, cards_l, slots)
        assert np.array_equal(got, expected)
    # The competition pool forbids some neighbours of some cards when others are visible.
    assert expected.any()


def test_a_wider_candidate_list_starts_with_the_tables_own(block):
    # The timed cross-play spymaster asks each card's 400 nearest clue words where the tables
    # keep 100: the same first 100 (by their cosines: float16 ties may swap places), nearest
    # first, and never a word the checker forbids for the card.
    from codebots.agents.tables import CANDIDATES_PER_CARD, nearest_clue_words

    spymaster, _, words, table, _, _ = block
    wide = nearest_clue_words("glove", words, spymaster.vocabulary, 400)
    assert wide.shape == (len(words), 400) and CANDIDATES_PER_CARD < 400
    sims = table.sims.astype(np.float32)
    rows = np.arange(len(words))[:, None]
    first = sims[rows, wide[:, :CANDIDATES_PER_CARD]]
    assert np.array_equal(first, sims[rows, table.neighbours])
    assert (np.diff(sims[rows, wide], axis=1) <= 0).all()
    left_out = sims.copy()
    left_out[rows, wide] = -np.inf
    for row in range(len(words)):
        forbidden = table.forbid.indices[table.forbid.indptr[row] : table.forbid.indptr[row + 1]]
        assert not np.isin(wide[row], forbidden).any()
        left_out[row, forbidden] = -np.inf
    # No allowed word outside a card's list is nearer than the list's last.
    assert (left_out.max(axis=1) <= sims[rows[:, 0], wide[:, -1]]).all()
    assert (table.forbid.indptr[1:] > table.forbid.indptr[:-1]).any()  # some cards forbid some
    assert np.array_equal(
        nearest_clue_words("glove", words, spymaster.vocabulary, 60), table.neighbours[:, :60]
    )
