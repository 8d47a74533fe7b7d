"""The partner memory: hand-traced learning, its effect on clues, files, and real games."""

from __future__ import annotations

import numpy as np
import pytest

from codebots.agents import make_agent
from codebots.agents.embedding import EmbeddingSpymaster
from codebots.agents.partner import HIT, MISS, THREAT, PartnerMemory
from codebots.agents.views import ASSASSIN, BYSTANDER, OTHER, OWN, SpymasterView
from codebots.arena import play
from codebots.errors import CodebotsError
from codebots.validity import check_clue
from codebots.variants import get_variant

CARDS = ("OCEAN", "BEACH", "SHIP", "PIANO", "GUITAR", "DOCTOR", "HOSPITAL", "BANK", "MONEY")
# OCEAN, BEACH, SHIP ours; DOCTOR, HOSPITAL the other team's; MONEY the assassin.
KEY = (OWN, OWN, OWN, BYSTANDER, BYSTANDER, OTHER, OTHER, BYSTANDER, ASSASSIN)


def sea_view() -> SpymasterView:
    return SpymasterView.single(CARDS, KEY, get_variant("classic"))


@pytest.fixture(scope="module")
def spymaster():
    return EmbeddingSpymaster(("glove",))


def test_observe_adds_hit_miss_and_threat_per_card_and_clue(spymaster):
    memory = PartnerMemory(CARDS, spymaster.vocabulary)
    water = memory.vocabulary.index("water")
    memory.observe(
        [
            {"clue": "water", "targets": ["OCEAN", "BEACH"], "guesses": ["OCEAN", "PIANO"]},
            {"clue": "water", "targets": ["BEACH"], "guesses": ["PIANO"], "valid": True},
            {"clue": "water", "targets": ["SHIP"], "guesses": [], "valid": False},  # no guess
            {"clue": "zzzq", "targets": ["SHIP"], "guesses": ["BANK"]},  # not in the vocabulary
            # "water 0": the partner guessed away from the word; BANK says nothing about it.
            {"clue": "water", "number": 0, "targets": [], "guesses": ["BANK"]},
        ]
    )
    learned = dict(zip(CARDS, memory.correction[:, water].tolist()))
    assert learned["OCEAN"] == HIT and learned["BEACH"] == 2 * MISS
    assert learned["PIANO"] == 2 * THREAT and learned["SHIP"] == 0 and learned["BANK"] == 0
    assert memory.turns_seen == 2 and np.count_nonzero(memory.correction) == 3


def test_a_clue_the_partner_misread_is_not_given_again(spymaster):
    view = sea_view()
    first = spymaster.clues(view, np.random.default_rng(0))
    word, aimed = first.words[0], [CARDS[p] for p in first.targets[0]]
    memory = PartnerMemory(CARDS, spymaster.vocabulary)
    memory.observe([{"clue": word, "targets": aimed, "guesses": ["PIANO"]}])  # it took PIANO
    spymaster.partner = memory
    try:
        second = spymaster.clues(view, np.random.default_rng(0))
    finally:
        spymaster.partner = None
    assert second.words[0] != word, word
    assert check_clue(second.words[0], CARDS).valid
    assert set(second.targets[0]) <= {0, 1, 2}


def test_memory_round_trips_through_a_file_and_refuses_another_pool(spymaster, tmp_path):
    memory = PartnerMemory(CARDS, spymaster.vocabulary)
    memory.observe([{"clue": "water", "targets": ["OCEAN"], "guesses": ["BANK"]}])
    path = memory.save(tmp_path / "partner.npz")
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind
    loaded = PartnerMemory.load(path)
    assert np.array_equal(loaded.correction, memory.correction) and loaded.turns_seen == 1
    with pytest.raises(CodebotsError, match="another card pool"):
        loaded.check_fits(CARDS[:-1], spymaster.vocabulary)
    spymaster.partner = PartnerMemory(CARDS[:-1], spymaster.vocabulary)
    try:  # a memory swapped in after an earlier one is checked too
        with pytest.raises(CodebotsError, match="another card pool"):
            spymaster.clues(sea_view(), np.random.default_rng(0))
    finally:
        spymaster.partner = None
    with pytest.raises(CodebotsError, match="not in this partner memory's pool"):
        memory.observe([{"clue": "water", "targets": ["VIOLIN"], "guesses": []}])
    (tmp_path / "bad.npz").write_text("not an archive")
    with pytest.raises(CodebotsError, match="cannot read partner memory"):
        PartnerMemory.load(tmp_path / "bad.npz")


@pytest.mark.slow
def test_watching_a_partner_of_another_model_cuts_its_mistakes():
    pytest.importorskip("sentence_transformers")
    from codebots.vocab import load_pool

    variant = "single-team-2019"
    spymaster = make_agent("spymaster", "glove-lexicon")
    guesser = make_agent("guesser", "minilm")
    evaluation = range(2000, 2200)  # not the 0-999 boards of the published table
    before = play(variant, spymaster, guesser, evaluation)
    memory = PartnerMemory(load_pool(get_variant(variant).pool).words, spymaster.vocabulary)
    log: list[dict] = []
    play(variant, spymaster, guesser, range(100_000, 101_000), turn_log=log)
    memory.observe(log)
    spymaster.partner = memory
    after = play(variant, spymaster, guesser, evaluation)
    # experiments/results/partner_adaptation.md: about +5 points of wins after 1,000 games.
    assert after["won"].mean() >= before["won"].mean() + 0.02
    assert after["assassin"].mean() < before["assassin"].mean()


def test_watch_and_evaluate_commands_learn_and_use_a_memory_file(tmp_path):
    from typer.testing import CliRunner

    from codebots.cli import app

    runner = CliRunner()
    path = tmp_path / "partner.npz"
    watch = ["watch", "--spymaster", "glove", "--guesser", "glove", "--out", str(path)]
    first = runner.invoke(app, [*watch, "--games", "20"])
    assert first.exit_code == 0, first.output
    turns = PartnerMemory.load(path).turns_seen
    assert path.exists() and turns > 20 and f"{turns} in all" in first.output
    again = runner.invoke(app, [*watch, "--games", "10", "--seed", "100020"])
    assert again.exit_code == 0, again.output
    assert PartnerMemory.load(path).turns_seen > turns  # an existing memory learns on
    evaluate = ["evaluate", "--pairs", "glove:glove", "--games", "20", "--out-dir", str(tmp_path)]
    used = runner.invoke(app, [*evaluate, "--partner-memory", str(path)])
    assert used.exit_code == 0, used.output
    assert "glove+partner-" in used.output  # the rows name the memory (its file's hash)
    plain = runner.invoke(app, evaluate)
    assert plain.exit_code == 0 and "glove+partner-" not in plain.output
    cells = sorted(p.name for p in (tmp_path / "cells" / "evaluation").glob("*.csv"))
    assert len(cells) == 2, cells  # with and without the memory: two cached cells
    config = tmp_path / "grid.toml"
    config.write_text(
        'name = "grid"\nvariants = ["single-team-2019"]\npairs = ["glove:glove"]\n'
        'games = 20\npartner_memory = "partner.npz"\n'  # relative to the config file
    )
    from_config = runner.invoke(app, ["evaluate", "--config", str(config)])
    assert from_config.exit_code == 0 and "glove+partner-" in from_config.output
    for arguments, message in (
        (["evaluate", "--partner-memory", str(tmp_path / "none.npz")], "does not exist"),
        (
            ["evaluate", "--pairs", "random:glove", "--partner-memory", str(path)],
            "(a partner memory)",
        ),
        (
            ["evaluate", "--variant", "classic[pool=wizarding]", "--partner-memory", str(path)],
            "another card pool",
        ),
        (["watch", "--out", str(path), "--spymaster", "random"], "(learning from a partner)"),
        (["watch", "--out", str(path), "--spymaster", "glove", "--games", "x"], "--games"),
    ):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 1 and message in result.output, (arguments, result.output)
