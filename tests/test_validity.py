"""The clue checker beyond the case table: batched masks agree with single verdicts,
visibility, the forbid table cache, and the check-clue command."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from codebots.agents.views import spymaster_view
from codebots.cli import app
from codebots.engine import ClueAction, GuessAction, make
from codebots.validity import CheckOptions, ClueChecker, check_clue, checker_for
from codebots.vocab import clue_vocabulary, load_pool


@pytest.fixture(scope="module")
def pool():
    return load_pool("competition").words


@pytest.fixture(scope="module")
def vocabulary():
    return clue_vocabulary(50_000)


@pytest.mark.slow
def test_single_verdicts_and_forbid_table_agree_on_a_large_sample(
    pool, vocabulary, tmp_path, monkeypatch
):
    monkeypatch.setattr("codebots.files.CACHE_DIR", tmp_path)
    checker = ClueChecker(pool)
    table = checker.forbid_table(vocabulary)
    rng = np.random.default_rng(0)
    clue_ids = rng.choice(len(vocabulary), 1500, replace=False)
    # Every clue of the sample against every card, plus the clues some card forbids.
    forbidden_ids = np.unique(table.indices)
    clue_ids = np.union1d(clue_ids, rng.choice(forbidden_ids, 500, replace=False))
    dense = np.zeros((len(pool), len(vocabulary)), dtype=bool)
    for row in range(len(pool)):
        dense[row, table.indices[table.indptr[row] : table.indptr[row + 1]]] = True
    for clue_id in clue_ids:
        word = vocabulary[clue_id]
        for row, card in enumerate(pool):
            single = check_clue(word, [card]).valid
            assert single != dense[row, clue_id], (word, card)
    assert (tmp_path / next(p.name for p in tmp_path.iterdir())).exists()  # cached on disk


def test_forbid_table_is_cached_and_reloaded(pool, tmp_path, monkeypatch):
    monkeypatch.setattr("codebots.files.CACHE_DIR", tmp_path)
    words = ("yard", "potato", "broken", "sluggish", "knight")
    checker = ClueChecker(("GRAVEYARD", "BREAK", "NIGHT") + pool[:30])
    first = checker.forbid_table(words)
    files = list(tmp_path.glob("forbid-*.npz"))
    assert len(files) == 1
    again = checker.forbid_table(words)
    assert (again.indptr == first.indptr).all() and (again.indices == first.indices).all()
    mask = first.invalid_mask(np.array([[0, 1, 2] + list(range(3, 25))]), np.ones((1, 25), bool))
    assert mask.toarray()[0].tolist() == [True, False, True, False, False]


def test_words_of_an_adopted_forbid_table_get_the_same_columns_without_morphology(
    pool, vocabulary, tmp_path, monkeypatch
):
    # A checker that built (or read) a forbid table answers that vocabulary's words from it
    # (no word families computed); the columns equal those computed the slow way.
    monkeypatch.setattr("codebots.files.CACHE_DIR", tmp_path)
    words = vocabulary[:4000]
    fresh = ClueChecker(pool)
    fresh.forbid_table(words)  # builds, then adopts
    adopted = ClueChecker(pool)
    adopted.forbid_table(words)  # reads the cache file, then adopts
    assert "_index" not in vars(adopted)  # the card index was never needed
    sample = [words[i] for i in np.random.default_rng(2).choice(len(words), 600, replace=False)]
    sample += ["yard", "potatoes", "qwxzk", "ice cream"]  # outside it: the slow way
    slow = ClueChecker(pool)
    ids = adopted.word_ids(sample)
    columns = adopted._table[:, ids]
    for word, column in zip(sample, columns.T):
        assert np.flatnonzero(column).tolist() == slow.forbidders(word).tolist(), word


def test_invalid_mask_matches_single_verdicts_on_boards(pool, vocabulary):
    checker = checker_for(pool)
    words = vocabulary[:3000]
    table = checker.forbid_table(words, cache=False)
    game = make("classic")
    state = game.reset(np.arange(40))
    visible = np.random.default_rng(1).random((40, 25)) < 0.7
    mask = table.invalid_mask(state.cards, visible).toarray()
    for b in range(40):
        board = [pool[card] for card, seen in zip(state.cards[b], visible[b]) if seen]
        for clue_id in np.flatnonzero(mask[b])[:50]:
            assert not check_clue(words[clue_id], board).valid
        valid_ids = np.flatnonzero(~mask[b])[:: max(1, len(words) // 100)]
        for clue_id in valid_ids:
            assert check_clue(words[clue_id], board).valid, (words[clue_id], board)


def test_batched_verdicts_stay_right_while_the_column_table_grows(pool, vocabulary):
    # A fresh checker meets 700 new words in batches of 50, pool cards among them: its
    # column table grows (256, 512, 1024 columns) and every earlier word keeps its verdicts.
    checker = ClueChecker(pool)
    rng = np.random.default_rng(5)
    words = [vocabulary[i] for i in rng.choice(20_000, 650, replace=False)]
    words += [card.lower() for card in pool[:50]]
    rng.shuffle(words)
    cards = rng.integers(0, len(pool), size=(len(words), 25))
    visible = rng.random((len(words), 25)) < 0.8
    own = {card.lower(): row for row, card in enumerate(pool[:50])}
    named = np.array([word in own for word in words])  # a card's own word, on its board
    cards[named, 0] = [own[word] for word in words if word in own]
    visible[named, 0] = True
    for start in range(0, len(words), 50):
        part = slice(start, start + 50)
        checker.valid(words[part], cards[part], visible[part])
    batched = checker.valid(words, cards, visible)  # every word again, all columns known
    assert not batched[named].any()  # a card's own word is never a clue
    for b in range(0, len(words), 7):
        board = [pool[card] for card, seen in zip(cards[b], visible[b]) if seen]
        assert batched[b] == check_clue(words[b], board).valid, (words[b], board)


def test_covered_cards_free_their_words():
    pool = load_pool("competition").words
    game = make("classic")
    state = game.reset([5])
    card = pool[state.cards[0, 0]].lower()
    checker = checker_for(pool)
    assert not checker.valid([card], state.cards, ~state.covered)[0]
    state = game.step_clue(state, ClueAction(number=2))
    state = game.step_guess(state, GuessAction(card=0))
    assert state.covered[0, 0]
    view = spymaster_view(game.variant, pool, state, np.ones(1, bool))
    assert checker.valid([card], state.cards, view.visible)[0]


def test_duet_card_marked_from_one_side_is_still_visible():
    pool = load_pool("competition").words
    game = make("duet")
    state = game.reset([3])
    rows = np.flatnonzero((state.key[0, 0] == 2) & (state.key[0, 1] == 0))  # bystander | green
    card = int(rows[0])
    state = game.step_clue(state, ClueAction(number=1, giver=0))
    state = game.step_guess(state, GuessAction(card=card))  # a bystander for giver 0
    assert state.marked[0, 0, card] and not state.covered[0, card]
    view = spymaster_view(game.variant, pool, state, np.ones(1, bool))
    assert view.visible[0, card]
    word = pool[state.cards[0, card]].lower()
    assert not checker_for(pool).valid([word], state.cards, view.visible)[0]


def test_strict_and_relaxed_options_in_batches():
    pool = ("HARRY POTTER", "GRAVEYARD") + load_pool("competition").words[:23]
    strict = ClueChecker(pool, CheckOptions(strict=True))
    normal = ClueChecker(pool)
    cards = np.arange(25)[None]
    visible = np.ones((1, 25), bool)
    assert normal.valid(["potato"], cards, visible)[0]
    assert not strict.valid(["potato"], cards, visible)[0]
    assert not normal.valid(["ice cream"], cards, visible)[0]  # not one word


runner = CliRunner()


@pytest.mark.parametrize(
    "args, code, start",
    [
        (["sluggish", "--board", "graveyard, horace slughorn"], 1, "invalid (part): 'sluggish'"),
        (["brew", "--board", "cauldron, polyjuice potion"], 0, "valid:"),
        (["juice", "--board", "cauldron, polyjuice potion"], 1, "invalid (part): 'juice' is part"),
        (["potato", "--board", "harry potter", "--strict"], 1, "invalid (substring)"),
        (["House-Elf", "--board", "owl", "--relaxed"], 0, "valid:"),
        (["ice cream", "--board", "owl"], 1, "invalid (one-word)"),
    ],
)
def test_check_clue_command(args, code, start):
    result = runner.invoke(app, ["check-clue", *args])
    assert result.exit_code == code, result.output
    assert result.output.startswith(start)


def test_check_clue_usage_errors_exit_2():
    assert runner.invoke(app, ["check-clue", "brew"]).exit_code == 2  # no --board
    result = runner.invoke(app, ["check-clue", "brew", "--board", " , "])
    assert result.exit_code == 2 and "needs at least one card" in result.output
