"""The panel of minds, cross-play defined in code, Duet by seats, and the cross-play agents
through every variant family."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from typer.testing import CliRunner

from codebots.agents import GUESSERS, SPYMASTERS, make_agent
from codebots.agents.crossplay import committee
from codebots.arena import Seat, play
from codebots.cli import app
from codebots.engine import UNLIMITED
from codebots.errors import CodebotsError
from codebots.evaluation import Cell, run_grid
from codebots.minds import PANEL, families, is_cross, minds_of

runner = CliRunner()
# Plain agents of every panel mind but mpnet (its tables take minutes to build cold; its
# loading is tested on its own).
LIGHT = ("glove", "minilm", "wordnet")


def test_every_agent_declares_its_minds():
    assert minds_of(make_agent("spymaster", "glove")) == {"glove"}
    assert minds_of(make_agent("spymaster", "glove-lexicon")) == {"glove", "wordnet"}
    assert minds_of(make_agent("spymaster", "robust")) == {"glove", "minilm"}
    assert minds_of(make_agent("guesser", "minilm-lexicon")) == {"minilm", "wordnet"}
    assert minds_of(make_agent("guesser", "random")) == set()
    assert minds_of(make_agent("guesser", "oracle")) == set()
    for role, registry in (("spymaster", SPYMASTERS), ("guesser", GUESSERS)):
        for name in registry:
            if name == "crossplay":
                continue
            minds = minds_of(make_agent(role, name))
            assert minds <= set(PANEL), (role, name, minds)


def test_cross_is_true_only_where_the_agents_share_no_mind():
    names = [n for n in SPYMASTERS if n in GUESSERS and n not in ("random", "crossplay")]
    for spymaster, guesser in itertools.product(names, ["random", *names]):
        spy, guess = make_agent("spymaster", spymaster), make_agent("guesser", guesser)
        shared = families(minds_of(spy)) & families(minds_of(guess))
        assert is_cross(spy, guess) == (not shared), (spymaster, guesser)
    assert not is_cross(make_agent("spymaster", "glove-lexicon"), make_agent("guesser", "wordnet"))
    assert is_cross(make_agent("spymaster", "glove"), make_agent("guesser", "minilm"))


def test_the_committee_leaves_out_the_partners_mind():
    assert committee() == ("mpnet", "minilm", "glove", "wordnet", "gcide", "nomic")
    assert committee("minilm") == ("mpnet", "glove", "wordnet", "gcide", "nomic")
    assert committee("glove+wordnet+nomic+gcide") == ("mpnet", "minilm")
    agent = make_agent("spymaster", "crossplay[without=glove]")
    assert agent.name == "crossplay[without=glove]" and "glove" not in minds_of(agent)
    assert is_cross(agent, make_agent("guesser", "glove"))
    without_wordnet = make_agent("spymaster", "crossplay[without=wordnet]")
    assert "wordnet" not in minds_of(without_wordnet)  # nor the lexicon
    assert not without_wordnet.single.lexicon


def test_in_duet_the_crossplay_clues_reach_past_each_cards_hundred_nearest_words():
    # Duet draws each card's 400 nearest clue words (the tables keep 100): some clues of a
    # few games are a target's neighbour only in the wider list; in the missions, Marvel
    # co-op and single-team games the lists stay the tables' own.
    from codebots.agents.tables import model_tables
    from codebots.variants import get_variant
    from codebots.vocab import load_pool

    ours = Seat.of("crossplay[without=glove]")
    log: list[dict] = []
    play("duet", ours, Seat.of("glove"), range(12), turn_log=log)
    words = load_pool(get_variant("duet").pool).words
    first = ours.spymaster.duet.models[0]
    table = model_tables(first, words, ours.spymaster.vocabulary)
    index = {word: i for i, word in enumerate(words)}
    ranks = []
    for turn in log:
        if turn["giver_seat"] == 0 and turn["targets"]:
            clue = table.clue_index[turn["clue"]]
            best = min(
                int(np.flatnonzero(table.neighbours[index[card]] == clue)[0])
                if clue in table.neighbours[index[card]]
                else 100
                for card in turn["targets"]
            )
            ranks.append(best)
    assert ranks and max(ranks) == 100 and min(ranks) < 100  # some from past the 100th
    for other in ("marvel-coop", "mission/diagon-alley", "single-team-2019", "classic"):
        assert ours.spymaster._for(get_variant(other)).candidates is None, other
    assert ours.spymaster._for(get_variant("duet[tokens=9]")).candidates == 400


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--spymaster", "crossplay[without=spock]"], "unknown mind 'spock'; the panel: glove"),
        (
            ["--spymaster", "crossplay[without=glove+minilm+mpnet+nomic+wordnet+gcide]"],
            "leaves no mind to think with",
        ),
        (["--guesser", "crossplay[with=glove]"], "guesser 'crossplay' has no option 'with'"),
        (["--guesser", "glove[without=minilm]"], "guesser 'glove' has no option 'without'"),
        (["--spymaster", "crossplay[without=glove"], "options in brackets"),
        (["--spymaster", "crossplay[min_zipf=2]"], "min_zipf=2 must be a number from 3.0 to 6.0"),
        (["--spymaster", "crossplay[min_zipf=often]"], "min_zipf=often must be a number"),
        (["--guesser", "crossplay[min_zipf=4]"], "guesser 'crossplay' has no option 'min_zipf'"),
        (["--spymaster", "crossplay[expert_clues=maybe]"], "expert_clues=maybe must be true or"),
    ],
)
def test_bad_cross_play_agents_are_one_line_errors(arguments, message):
    result = runner.invoke(app, ["simulate", "--games", "2", *arguments])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_a_seat_pairing_on_a_variant_without_seats_is_one_line():
    result = runner.invoke(
        app, ["evaluate", "--variant", "classic", "--pairs", "glove/minilm", "--games", "2"]
    )
    assert result.exit_code == 1
    assert "pairs two seats, which only Duet and the missions have" in result.stderr
    result = runner.invoke(
        app, ["evaluate", "--variant", "duet", "--pairs", "glove/oracle", "--games", "2"]
    )
    assert result.exit_code == 1 and "unknown spymaster 'oracle'" in result.stderr
    assert "a seat gives clues and guesses" in result.stderr


def test_seats_give_their_own_clues_and_guess_the_others():
    seats = [Seat.of(n) for n in LIGHT[:2]]
    log: list[dict] = []
    records = play("duet", seats[0], seats[1], np.arange(40), turn_log=log)
    assert records["seats"].all() and records["cross"].all()
    assert set(records["spymaster"]) == {"glove"} and set(records["guesser"]) == {"minilm"}
    for turn in log:
        assert turn["guesser_seat"] == 1 - turn["giver_seat"]
    by_game: dict[int, list[int]] = {}
    for turn in log:
        by_game.setdefault(turn["seed"], []).append(turn["giver_seat"])
    assert all(set(givers) == {0, 1} for givers in by_game.values() if len(givers) > 2)
    same = [Seat.of("glove")]
    same.append(Seat.of("glove"))
    records = play("duet", same[0], same[1], np.arange(100))
    assert records["won"].mean() >= 0.99 and not records["cross"].any()  # a sanity check


def test_a_seat_and_a_role_cannot_be_mixed():
    seat = Seat.of("glove")
    with pytest.raises(CodebotsError, match="seat pairings are for Duet"):
        play("duet", seat, make_agent("guesser", "glove"), np.arange(2))
    with pytest.raises(CodebotsError, match="seat pairings are for Duet"):
        play("classic", seat, seat, np.arange(2))


def test_a_zipf_floor_keeps_the_clue_words_common():
    """``crossplay[min_zipf=Z]`` (plainer words for a person): its clues, warnings and bonus
    clues included, are words of at least Zipf Z wherever one of the card's candidate words
    is (late in a long game they may all be spent: then the best valid word); without the
    floor the same games hold many rarer words."""
    from codebots.morphology import zipf

    def rare_share(name: str, variant: str) -> float:
        log: list[dict] = []
        if variant.startswith(("duet", "mission/")):
            first = Seat(make_agent("spymaster", name), make_agent("guesser", "minilm"), "c")
            second = Seat(make_agent("spymaster", "minilm"), make_agent("guesser", "minilm"), "m")
        else:
            first, second = make_agent("spymaster", name), make_agent("guesser", "minilm")
        play(variant, first, second, np.arange(40), turn_log=log)
        ours = [turn["clue"] for turn in log if turn.get("giver_seat", 0) == 0]
        words = [word for clue in ours for word in clue.split()]
        assert len(words) >= 40, (name, variant)
        return np.mean([zipf(word) < 4.0 for word in words])

    light = "crossplay[without=mpnet+minilm+nomic"  # its committee: glove and wordnet
    for variant in ("single-team-2019", "marvel-coop", "duet", "mission/london"):
        floored, free = (
            rare_share(f"{light},min_zipf=4]", variant),
            rare_share(f"{light}]", variant),
        )
        assert floored <= 0.01 and free >= 0.1, (variant, floored, free)


def test_numbers_instead_of_unlimited_clues_for_a_person():
    """``crossplay[expert_clues=false]``: a number of cards on every clue (in Duet the number
    is information only, RULES section 3: it tells a person how many were meant)."""
    light = "crossplay[without=mpnet+nomic+glove"  # minilm and the dictionaries

    def numbers(spymaster: str) -> list[int]:
        log: list[dict] = []
        ours = Seat(make_agent("spymaster", spymaster), make_agent("guesser", f"{light}]"), "c")
        play("duet", ours, Seat.of("glove"), np.arange(120), turn_log=log)
        return [turn["number"] for turn in log if turn["giver_seat"] == 0]

    # About one clue in 70 is a catch-up "unlimited" here (6 of 411 when written).
    usual, plain = numbers(f"{light}]"), numbers(f"{light},expert_clues=false]")
    assert usual.count(UNLIMITED) >= 2 and len(plain) >= 300
    assert min(plain) >= 1, sorted(set(plain))


@pytest.mark.slow
def test_cross_pairs_through_every_variant_family_give_only_valid_clues(tmp_path):
    # Every clue is judged by the clue checker as it is given (turn["valid"]).
    # Committees that leave out mpnet and nomic too, so that no table of theirs is built here.
    agent = "crossplay[without=mpnet+minilm+nomic]"
    vocabulary = set(make_agent("spymaster", agent).vocabulary)
    for variant in ("classic", "single-team-2019", "marvel-coop", "duet", "mission/gringotts"):
        log: list[dict] = []
        if variant in ("duet", "mission/gringotts"):
            first = Seat.of(agent)
            second = Seat(make_agent("spymaster", "minilm"), make_agent("guesser", "minilm"), "m")
        else:
            first, second = make_agent("spymaster", agent), make_agent("guesser", "minilm")
        records = play(variant, first, second, np.arange(30), turn_log=log)
        assert records["cross"].all(), variant
        for turn in log:
            if turn.get("giver_seat", 0) == 0:  # the cross-play agent's clues
                # Every word: London's two-word clues and two clues in one turn have two.
                words = turn["clue"].split()
                assert turn["valid"] and set(words) <= vocabulary, (variant, turn)
                assert len(words) == 1 or variant == "mission/gringotts", (variant, turn)
        assert len(log) > 30


def test_the_crossplay_matrix_reports_cross_default_and_agreement(tmp_path):
    pytest.importorskip("sentence_transformers")
    from codebots import crossplay as matrix

    cells = matrix.crossplay_cells(
        6, 1000, variants=("single-team-2019", "duet"), minds=("minilm",),
        candidates=("crossplay[without=mpnet]",),
    )  # fmt: skip
    assert {info["role"] for _, info in cells} == {"spymaster", "guesser", "seat", "same-model"}
    records = run_grid([cell for cell, _ in cells], tmp_path / "cells")
    table = matrix.crossplay_table(records, cells)
    assert list(table.columns[:8]) == [
        "variant", "spymaster", "guesser", "seats", "cross", "default", "role", "mind",
    ]  # fmt: skip
    for column in ("win_rate", "win_low", "win_high", "assassin_rate", "clues_on_win"):
        assert column in table
    assert "first_guess_on_target" in table and "assassin_per_clue" in table
    assert (table["cross"] == (table["role"] != "same-model")).all()
    assert not table.loc[table["role"] == "same-model", "default"].any()
    paths = matrix.write_crossplay(table, matrix.agreement_matrix(table), tmp_path / "out")
    assert [p.name for p in paths] == ["crossplay.csv", "crossplay.md", "crossplay.png"]
    assert paths[2].read_bytes()[:4] == b"\x89PNG"


def test_the_headline_of_a_written_matrix_keeps_cross_and_same_model_apart(tmp_path):
    from pathlib import Path

    import pandas as pd

    written = Path(__file__).resolve().parents[1] / "experiments" / "results" / "crossplay.csv"
    result = CliRunner().invoke(app, ["crossplay", "--headline", str(written), "--markdown"])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(written)
    duet = table[(table["variant"] == "duet") & (table["role"] == "seat") & table["default"]]
    line = next(x for x in result.output.splitlines() if x.startswith("| duet | seat |"))
    for mind, win in zip(duet["mind"], duet["win_rate"]):  # every partner, cross rows only
        assert f"{win:.1%}" in line, mind
    same = table[(table["variant"] == "duet") & (table["role"] == "same-model")]["win_rate"]
    assert line.endswith(f"| {same.min():.1%}–{same.max():.1%} |")
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    result = CliRunner().invoke(app, ["crossplay", "--headline", str(bad)])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and "is not a cross-play table" in result.stderr


def test_a_cell_of_seats_is_another_cell_than_the_roles():
    roles, seats = (
        Cell("duet", "glove", "minilm", 10),
        Cell("duet", "glove", "minilm", 10, seats=True),
    )
    assert roles.id != seats.id and "glove~minilm" in seats.id
    assert roles.id == Cell("duet", "glove", "minilm", 10).id  # older ids are kept


@pytest.mark.slow
def test_the_mpnet_mind_loads_offline_from_its_packages():
    pytest.importorskip("sentence_transformers")
    from codebots.embeddings import load_embedding

    model = load_embedding("mpnet")
    vectors = model.embed_words(["ocean", "sea", "piano"])
    assert vectors.shape == (3, 768)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]  # a real model


def _guessing(variant: str, solo_majority: bool, seeds) -> tuple:
    from codebots.agents.crossplay import crossplay_guesser

    log: list = []
    guesser = crossplay_guesser("mpnet+nomic", solo_majority=solo_majority)  # glove+minilm+wordnet
    rows = play(variant, make_agent("spymaster", "glove"), guesser, seeds, turn_log=log)
    return rows, log


def test_in_single_team_games_the_crossplay_guesser_goes_on_only_when_most_minds_agree():
    """No rival and no clock: a second card can wait for the next clue, so past its first
    card the cross-play guesser goes on only when most of its minds read that card first."""
    seeds = np.arange(1000, 1150)
    careful, careful_log = _guessing("single-team-2019", True, seeds)
    eager, eager_log = _guessing("single-team-2019", False, seeds)
    first = {t["seed"]: t["guesses"][:1] for t in eager_log if t["clue_no"] == 0}
    assert all(t["guesses"][:1] == first[t["seed"]] for t in careful_log if t["clue_no"] == 0)

    def per_clue(log):
        aimed = [t for t in log if t["number"] > 0]
        return np.mean([len(t["guesses"]) for t in aimed]), aimed

    careful_mean, aimed = per_clue(careful_log)
    eager_mean, _ = per_clue(eager_log)
    assert careful_mean < eager_mean - 0.2  # it stops where the minds part
    assert any(len(t["guesses"]) > 1 for t in aimed)  # and goes on where they agree
    assert careful.assassin.sum() / careful.clues.sum() < eager.assassin.sum() / eager.clues.sum()
    assert careful.won.mean() > eager.won.mean()


@pytest.mark.parametrize("variant", ["marvel-coop", "classic"])
def test_the_majority_rule_leaves_timed_and_rival_games_alone(variant):
    seeds = np.arange(1000, 1040)
    with_rule, log = _guessing(variant, True, seeds)
    without, log_without = _guessing(variant, False, seeds)
    assert log == log_without
    assert with_rule.drop(columns=["guesser"], errors="ignore").equals(
        without.drop(columns=["guesser"], errors="ignore")
    )


def test_the_crossplay_guesser_weighs_each_minds_own_reading():
    """Its first guess on a game's first clue is the card with the best weighted mean, over
    its minds, of each mind's own z-scores (not the z of their pooled cosine, which leans to
    the mind whose cosines spread most), each mind weighted by the square of how far its
    best card stands out over the pool; recomputed here from the minds' slices of the
    tables."""
    from codebots.agents.crossplay import crossplay_guesser
    from codebots.agents.tables import model_tables
    from codebots.embeddings import load_embedding

    guesser = crossplay_guesser("glove")  # mpnet, minilm, wordnet+gcide, nomic
    asked = []  # (view, answer) of every first guess of a first clue
    answer = guesser.guesses

    def watched(view, rng):
        choice = answer(view, rng)
        first = view.active & (view.guesses_made == 0) & view.legal.all(axis=1)
        if first.any():
            asked.append(
                (
                    view.words,
                    view.cards[first],
                    list(np.array(view.clue_words)[first]),
                    choice[first],
                )
            )
        return choice

    guesser.guesses = watched
    play("single-team-2019", make_agent("spymaster", "glove"), guesser, np.arange(1000, 1200))
    # Its voices: the two dictionaries (wordnet+gcide) read as one mind.
    assert "wordnet+gcide" in guesser.voices
    bounds = np.cumsum([0] + [load_embedding(voice).dim for voice in guesser.voices])
    apart_agrees = equal_agrees = pooled_agrees = total = 0
    for words, cards, clues, choices in asked:
        table = model_tables(guesser.model, words, guesser.vocabulary)
        card_vectors = table.card_vectors[cards]  # (R, 25, d)
        clue_vectors = guesser.clue_vectors(table, clues)  # (R, d)

        def z(sims):
            spread = np.maximum(sims.std(axis=1, keepdims=True), 1e-6)  # a word it lacks: 0
            return (sims - sims.mean(axis=1, keepdims=True)) / spread

        own = [
            np.einsum("rkd,rd->rk", card_vectors[:, :, a:b], clue_vectors[:, a:b])
            for a, b in zip(bounds[:-1], bounds[1:])
        ]
        weights = []
        for a, b in zip(bounds[:-1], bounds[1:]):
            over_pool = (clue_vectors[:, a:b] @ table.card_vectors[:, a:b].T).std(axis=1)
            sims = np.einsum("rkd,rd->rk", card_vectors[:, :, a:b], clue_vectors[:, a:b])
            standout = (sims.max(axis=1) - sims.mean(axis=1)) / np.maximum(over_pool, 1e-6)
            weights.append(np.maximum(standout, 0.1)[:, None] ** 2)
        readings = [w * z(sims) for w, sims in zip(weights, own)]
        apart = (sum(readings) / sum(weights)).argmax(axis=1)
        equal = np.mean([z(sims) for sims in own], axis=0).argmax(axis=1)
        pooled = z(np.einsum("rkd,rd->rk", card_vectors, clue_vectors)).argmax(axis=1)
        apart_agrees += int((apart == choices).sum())
        equal_agrees += int((equal == choices).sum())
        pooled_agrees += int((pooled == choices).sum())
        total += len(choices)
    assert total >= 150
    assert apart_agrees == total
    assert equal_agrees < total  # the weights decide some clues
    assert pooled_agrees < total  # and the minds read apart others


def test_a_committee_clue_means_the_cards_its_minds_read_nearest_together():
    # The turn log's intended targets of the cross-play spymaster's first clue of each game
    # are the clue's number of own cards by the minds' mean z, which is not always the
    # first mind's order (the explanation of the nineteenth session's PART, ROUND).
    from codebots.agents.tables import model_tables
    from codebots.agents.views import OWN
    from codebots.keys import deal
    from codebots.variants import get_variant
    from codebots.vocab import load_pool

    spec = get_variant("marvel-coop")
    spymaster = make_agent("spymaster", "crossplay[without=glove]")
    log: list[dict] = []
    play(spec.id, spymaster, make_agent("guesser", "glove"), range(40), turn_log=log)
    words = load_pool(spec.pool).words
    kind = spymaster._for(spec)
    tables = [model_tables(m, words, kind.vocabulary) for m in kind.models]
    _, cards, key, _ = (np.asarray(part) for part in deal(spec, np.arange(40)))
    checked = differs = 0
    for turn in log:
        if turn["clue_no"] != 1 or turn["number"] < 2:
            continue
        seed, number = turn["seed"], turn["number"]
        own = np.flatnonzero(key[seed] == OWN)  # all still visible at the first clue
        clue = tables[0].clue_index[turn["clue"]]
        mean_z = sum(t.zsims[cards[seed, own], clue] for t in tables) / len(tables)
        expected = {words[cards[seed, own[i]]] for i in np.argsort(-mean_z)[:number]}
        assert set(turn["targets"]) == expected, turn
        first = tables[0].sims[cards[seed, own], clue].astype(np.float32)
        differs += {words[cards[seed, own[i]]] for i in np.argsort(-first)[:number]} != expected
        checked += 1
    assert checked >= 20 and differs >= 1, (checked, differs)
