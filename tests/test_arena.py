"""Playing agents against the engine: records, reproducibility, baselines, reports."""

from __future__ import annotations

import math

import numpy as np
import pytest

from codebots.agents import make_agent
from codebots.arena import play
from codebots.report import atomic_write_text, summarize, to_markdown, wilson_interval
from codebots.validity import check_clue, checker_for
from codebots.vocab import load_pool


def agents(guesser="random"):
    return make_agent("spymaster", "random"), make_agent("guesser", guesser)


@pytest.mark.parametrize(
    "variant", ["classic", "single-team-2019", "marvel-coop", "duet", "mission/great-hall"]
)
def test_records_have_one_row_per_game_with_seed_variant_and_agents(variant):
    records = play(variant, *agents(), range(200), batch_size=64)
    assert len(records) == 200 and records["seed"].tolist() == list(range(200))
    assert set(records["variant"]) == {variant}
    assert set(records["spymaster"]) == {"random"} and set(records["guesser"]) == {"random"}
    assert records["turns"].min() >= 1 and (records["winner"] >= 0).all()


def test_same_call_same_table_and_batch_size_does_not_change_boards():
    first = play("classic", *agents(), range(300), batch_size=128, agent_seed=3)
    again = play("classic", *agents(), range(300), batch_size=128, agent_seed=3)
    assert first.equals(again)
    other = play("classic", *agents("oracle"), range(300), batch_size=300)
    assert (other["start_team"] == first["start_team"]).all()  # boards depend on seeds only


def test_oracle_guesser_is_an_upper_bound():
    oracle = play("single-team-2019", *agents("oracle"), range(500))
    random = play("single-team-2019", *agents("random"), range(500))
    assert oracle["won"].all() and not oracle["assassin"].any()
    assert random["won"].mean() < 0.3
    assert (oracle["score"] <= 8).all() and (random.loc[~random["won"], "score"] == 25).all()


def test_marvel_scores_and_ranks():
    records = play("marvel-coop", *agents("oracle"), range(300))
    assert records["score"].between(1, 8).all()
    assert set(records["rank"]) <= {
        "pretty incredible",
        "amazing feat",
        "truly amazing",
        "the most amazing",
        "outstanding effort",
        "great teamwork",
        "getting the hang of it",
        "better than losing",
    }


def test_random_spymaster_clues_pass_the_checker():
    from codebots.agents.views import spymaster_view
    from codebots.engine import make

    game = make("classic")
    state = game.reset(np.arange(300))
    words = load_pool("competition").words
    view = spymaster_view(game.variant, words, state, np.ones(300, bool))
    clues = make_agent("spymaster", "random").clues(view, np.random.default_rng(0))
    for b in range(300):
        assert check_clue(clues.words[b], view.board(b)), (clues.words[b], view.board(b))
    assert 1 <= clues.numbers.min() and clues.numbers.max() <= 3


def test_clue_judge_agrees_with_the_single_clue_check():
    words = load_pool("wizarding").words
    checker = checker_for(words)
    rng = np.random.default_rng(1)
    cards = np.stack([rng.choice(len(words), 25, replace=False) for _ in range(50)])
    visible = rng.random((50, 25)) < 0.7
    clues = ["potion", "harry", "potato", "yard", "race", "owl", "x", "broom", "ice-cream"] * 6
    verdicts = checker.valid(clues[:50], cards, visible)
    for b in range(50):
        board = [words[i] for i, seen in zip(cards[b], visible[b]) if seen]
        assert verdicts[b] == check_clue(clues[b], board).valid, (clues[b], board)


def test_wilson_interval_known_values():
    low, high = wilson_interval(81, 100)
    assert math.isclose(low, 0.7222, abs_tol=1e-3) and math.isclose(high, 0.8749, abs_tol=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0 and math.isclose(wilson_interval(10, 10)[1], 1.0)
    assert math.isclose(wilson_interval(10, 10)[0], 0.7225, abs_tol=1e-3)


def test_summary_table_and_markdown(tmp_path):
    records = play("duet", *agents("oracle"), range(100))
    table = summarize(records)
    assert table.loc[0, "games"] == 100 and table.loc[0, "win_rate"] == 1.0
    assert table.loc[0, "win_low"] < 1.0 and table.loc[0, "mean_score"] > 0
    text = to_markdown(table)
    path = atomic_write_text(tmp_path / "out" / "table.md", text)
    assert path.read_text().startswith("| variant |")
    assert list(path.parent.iterdir()) == [path]  # no temporary file left behind


def test_later_guess_counts_agree_with_the_turn_log():
    """The guesses after a clue's first, and how many hit one of its intended targets, as the
    turn log shows them (team games have no sudden death: every guess follows a clue)."""
    log: list[dict] = []
    spymaster, guesser = make_agent("spymaster", "glove"), make_agent("guesser", "minilm")
    records = play("single-team-2019", spymaster, guesser, range(200), turn_log=log)
    aimed = [turn for turn in log if turn["targets"]]
    later = [guess in turn["targets"] for turn in aimed for guess in turn["guesses"][1:]]
    first = [turn["guesses"][0] in turn["targets"] for turn in aimed if turn["guesses"]]
    assert records["later_guesses"].sum() == len(later) > 100
    assert records["later_on_target"].sum() == sum(later)
    assert records["first_on_target"].sum() == sum(first)
    table = summarize(records)
    assert table["later_guess_on_target"].iloc[0] == sum(later) / len(later)
    assert table["later_guess_on_target"].iloc[0] < table["first_guess_on_target"].iloc[0]
