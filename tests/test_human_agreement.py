"""Agreement of guessers with recorded human guesses: loading, metrics, errors and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from codebots.agents import make_agent
from codebots.commands.human import register
from codebots.errors import CodebotsError
from codebots.human_agreement import (
    BOARD_SIZE,
    FLOOR_NAME,
    evaluate_guesser,
    file_pool,
    guessing_ranking,
    load_turns,
    rankings,
    read_turns,
    similarity_ranking,
)

FIXTURE = Path(__file__).parent / "data" / "human_turns.jsonl"
BOARD = [
    "cat", "bank", "piano", "ship", "moon", "train", "knife", "casino", "rock", "tower",
    "engine", "plate", "crown", "table", "copper", " ice  cream", "bridge", "laser", "opera",
    "school", "truck", "paper", "gold", "church", "fire",
]  # fmt: skip
MEOW = {"board": BOARD, "clue": "Meow", "number": 1, "guesses": ["Cat"]}


def write(path: Path, *records) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def fixture_table():
    return evaluate_guesser(FIXTURE, ["glove", "random"], seed=0).set_index("guesser")


def test_fixture_loads_with_real_boards_and_valid_turns():
    turns = load_turns(FIXTURE)
    assert len(turns) == 12
    pool = set(Path("data/wordlists/competition.txt").read_text().split())
    for turn in turns:
        assert len(turn.board) == BOARD_SIZE and set(turn.board) <= pool
        assert turn.clue.upper() not in turn.board and 1 <= len(turn.guesses) <= 3
    assert sum(turn.targets is not None for turn in turns) >= 6
    assert any(turn.number is None for turn in turns)  # a null number: unknown, not 0


def test_glove_beats_the_random_floor_on_the_fixture(fixture_table):
    glove, floor = fixture_table.loc["glove"], fixture_table.loc[FLOOR_NAME]
    assert glove["turns"] == 12 and glove["ranking"] == "similarity"
    assert floor["ranking"] == "expectation" and floor["first_guess"] == pytest.approx(1 / 25)
    assert floor["mean_rank"] == 13.0
    sizes = [len(turn.guesses) for turn in load_turns(FIXTURE)]
    assert floor["overlap_at_k"] == pytest.approx(np.mean(sizes) / 25)
    assert glove["first_guess"] >= 5 * floor["first_guess"]
    assert glove["first_low"] > floor["first_guess"]  # outside the noise of 12 turns
    assert glove["overlap_at_k"] >= 4 * floor["overlap_at_k"]
    assert glove["mean_rank"] <= 6


def test_random_guesser_is_simulated_near_the_floor(fixture_table):
    simulated = fixture_table.loc["random"]
    assert simulated["ranking"] == "guesses()"
    assert 1 <= simulated["mean_rank"] <= 25 and 0 <= simulated["overlap_at_k"] <= 1


def test_unambiguous_turn_gives_full_agreement(tmp_path):
    path = write(tmp_path / "meow.jsonl", MEOW)
    table = evaluate_guesser(path, ["glove"]).set_index("guesser")
    assert table.loc["glove", "first_guess"] == 1.0
    assert table.loc["glove", "mean_rank"] == 1.0
    assert table.loc["glove", "overlap_at_k"] == 1.0
    assert table.loc[FLOOR_NAME, "overlap_at_k"] == pytest.approx(1 / 25)
    turn = load_turns(path)[0]
    assert turn.board[15] == "ICE CREAM" and turn.clue == "meow" and turn.guesses == (0,)


def test_similarity_ranking_is_the_order_guesses_follow():
    guesser = make_agent("guesser", "glove")
    rng = np.random.default_rng(0)
    turns = load_turns(FIXTURE)
    pool = tuple(sorted({word for turn in turns for word in turn.board}))
    for turn in turns[:3]:
        direct = similarity_ranking(guesser, turn)  # tables of the turn's own board
        assert sorted(direct.tolist()) == list(range(BOARD_SIZE))
        assert guessing_ranking(guesser, turn, rng).tolist() == direct.tolist()
        assert similarity_ranking(guesser, turn, pool).tolist() == direct.tolist()


def with_board(board):
    return {**MEOW, "board": board}


BAD = [
    ("{not json", "invalid JSON"),
    ("[1, 2]", "expected a JSON object"),
    ({"board": BOARD, "clue": "meow", "number": 1}, "missing key(s) guesses"),
    ({"board": BOARD, "clue": "meow", "guesses": ["cat"]}, "missing key(s) number"),
    (with_board(BOARD + ["wolf"]), "'board' must list 2 to 25 words, got 26"),
    (with_board(["cat"]), "'board' must list 2 to 25 words, got 1"),
    (with_board(BOARD[:24] + ["CAT"]), "duplicate word(s) CAT"),
    (with_board(BOARD[:24] + [7]), "'board' must be a list of 2 to 25 non-empty strings"),
    ({**MEOW, "revealed": ["cat"]}, "'guesses' word CAT is in 'revealed'"),
    ({**MEOW, "revealed": ["wolf"]}, "'revealed' word \"wolf\" is not on the board"),
    ({**MEOW, "board": ["cat", "dog"], "revealed": ["cat", "dog"]}, "covers the whole board"),
    ({**MEOW, "guesses": ["dog"]}, "'guesses' word \"dog\" is not on the board"),
    ({**MEOW, "guesses": "cat"}, "'guesses' must be a non-empty list"),
    ({**MEOW, "guesses": ["cat", "CAT"]}, "'guesses' lists a word twice"),
    ({**MEOW, "number": "2"}, "'number' must be an integer from 0 to 9 or null, got \"2\""),
    ({**MEOW, "number": 1.5}, "'number' must be an integer"),
    ({**MEOW, "number": True}, "'number' must be an integer"),
    ({**MEOW, "number": 12}, "'number' must be an integer"),
    ({**MEOW, "clue": ""}, "'clue' must be a non-empty string"),
    ({**MEOW, "clue": "ROCK"}, "the clue 'rock' is a visible board word"),
    ({**MEOW, "targets": ["cat", "wolf"]}, "'targets' word \"wolf\" is not on the board"),
]


@pytest.mark.parametrize(("record", "message"), BAD)
def test_bad_record_names_file_line_and_problem(tmp_path, record, message):
    path = write(tmp_path / "turns.jsonl", MEOW, "", record)  # a blank line 2 is skipped
    with pytest.raises(CodebotsError) as caught:
        load_turns(path)
    text = str(caught.value)
    assert text.startswith(f"{path} line 3: ") and message in text, text
    assert "\n" not in text


@pytest.mark.parametrize(
    ("names", "message"),
    [(["wizard"], "unknown guesser 'wizard'"), (["oracle"], "reads the key"), ([" "], "at least")],
)
def test_bad_guesser_names(tmp_path, names, message):
    with pytest.raises(CodebotsError, match=message):
        evaluate_guesser(write(tmp_path / "t.jsonl", MEOW), names)


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(CodebotsError, match="does not exist"):
        load_turns(tmp_path / "nope.jsonl")
    with pytest.raises(CodebotsError, match="has no records"):
        load_turns(write(tmp_path / "empty.jsonl", ""))


def test_a_clue_without_a_vector_is_ranked_at_random_and_counted(tmp_path, capsys):
    # One clue the model lacks used to abort the whole file for every guesser.
    path = write(tmp_path / "t.jsonl", MEOW, {**MEOW, "clue": "qwzxv"}, MEOW)
    table = evaluate_guesser(path, ["glove", "random"]).set_index("guesser")
    assert table.loc["glove", "turns"] == 3 and table.loc["glove", "unread_clues"] == 1
    assert table.loc["random", "unread_clues"] == 0
    assert table.loc["glove", "first_guess"] >= 2 / 3  # the two readable turns agree
    err = capsys.readouterr().err
    assert "guesser 'glove' has no vector for 1 clue(s) (qwzxv; lines 2)" in err
    assert "\n" == err[-1]


@pytest.fixture()
def cli():
    app = typer.Typer()

    @app.callback()
    def main() -> None:  # a group, as in codebots.cli
        """Test app."""

    register(app)
    return app


def test_cli_prints_the_table(cli, tmp_path):
    path = write(tmp_path / "t.jsonl", MEOW)
    result = CliRunner().invoke(cli, ["eval-guesser", "--turns", str(path), "--guesser", "glove"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("| guesser | ranking | turns | first_guess |")
    assert lines[2].startswith("| glove | similarity | 1 | 1.000 |")
    assert lines[3].startswith(f"| {FLOOR_NAME} | expectation | 1 | 0.040 |")


def test_cli_bad_file_is_a_one_line_error(cli, tmp_path):
    path = write(tmp_path / "t.jsonl", MEOW, with_board(BOARD[:1]))
    result = CliRunner().invoke(cli, ["eval-guesser", "--turns", str(path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and " line 2: " in lines[0]


def test_real_records_as_they_come(tmp_path, capsys):
    # A 20-card board part-way through a game, a turn with no guesses, a missing number.
    board = BOARD[:20]
    partway = {**MEOW, "board": board, "revealed": ["bank", "piano"], "number": None}
    none = {**MEOW, "guesses": []}
    path = write(tmp_path / "t.jsonl", partway, none, {**partway, "clue": "purr"})
    read = read_turns(path)
    assert len(read.turns) == 2 and read.skipped == [(f"{path} line 2", "no guesses")]
    assert read.turns[0].number is None and read.turns[0].revealed == (1, 2)
    assert len(read.turns[0].visible) == 18
    table = evaluate_guesser(path, ["glove", "random", "crossplay"]).set_index("guesser")
    assert (table["turns"] == 2).all()
    assert table.loc["glove", "first_guess"] == 1.0
    floor = table.loc[FLOOR_NAME]
    assert floor["first_guess"] == pytest.approx(1 / 18) and floor["mean_rank"] == 9.5
    assert "skipped 1 turn(s) with no guesses (lines 2)" in capsys.readouterr().err


def test_guessers_rank_only_visible_cards_and_read_a_missing_number_as_no_limit():
    turn = load_turns_from([{**MEOW, "revealed": ["bank", "moon"], "number": None}])[0]
    pool = turn.board
    for name in ("glove", "random", "glove-lexicon", "crossplay"):
        guesser = make_agent("guesser", name)
        order = guessing_ranking(guesser, turn, np.random.default_rng(0), pool)
        assert sorted(order.tolist()) == sorted(turn.visible.tolist()), name
    # A lexicon guesser reads 0 as a warning (away from the clue), null as no limit.
    lexicon = make_agent("guesser", "minilm-lexicon")
    unknown = guessing_ranking(lexicon, turn, np.random.default_rng(0), pool)
    warning = guessing_ranking(
        lexicon, load_turns_from([{**MEOW, "number": 0}])[0], np.random.default_rng(0), pool
    )
    assert unknown[0] == 0 and warning[0] != 0  # CAT for meow, unless warned off it


def test_every_table_is_built_once_per_file(monkeypatch):
    from codebots.agents import tables

    turns = load_turns(FIXTURE)
    guesser = make_agent("guesser", "minilm-lexicon")
    pools = set()
    real = tables.model_tables

    def spy(model, pool, vocabulary):
        pools.add(pool)
        return real(model, pool, vocabulary)

    monkeypatch.setattr("codebots.agents.guesser.model_tables", spy)
    rankings(guesser, turns, np.random.default_rng(0))
    assert pools == {file_pool(turns)}


def load_turns_from(records) -> list:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return load_turns(write(Path(folder) / "t.jsonl", *records))
