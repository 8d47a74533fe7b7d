"""A person's clues as people type them: any case, odd spacing, words the AI's model lacks,
non-words. None of them may crash a game or a record (issue 16)."""

from __future__ import annotations

import json

import pytest
from scripted_play import GLOVE_AI, choose, play_out
from typer.testing import CliRunner

from codebots.cli import app
from codebots.play import InputProblem, Session

runner = CliRunner()
ODD_CLUES = ["Prom 2", "  HARBOUR   1 ", "qwxzk 1"]  # the last is not English (rule 6)


def odd_duet_game(seed: int) -> tuple[list[str], Session]:
    """A Duet game where the person gives the odd clues first, then plays as a perfect
    partner: the inputs typed (refused ones included) and the finished session."""
    session = Session("duet", seed, "guesser", "glove", "glove")
    odd = list(ODD_CLUES)

    def answer(session, move):
        return odd.pop(0) if move == "clue" and odd else choose(session, move, win=True)

    return play_out(session, answer, refused=("qwxzk 1",)), session


def test_a_duet_game_with_odd_clues_ends_and_its_record_resumes(tmp_path):
    inputs, session = odd_duet_game(3)
    record = tmp_path / "game.jsonl"
    result = runner.invoke(
        app,
        ["play", "--variant", "duet", "--seed", "3", "--save", str(record), *GLOVE_AI],
        input="\n".join(inputs) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "'qwxzk' is not an English word (rule 6)" in result.output
    assert "You won" in result.output or "You lost" in result.output
    clues = [
        json.loads(line)["word"]
        for line in record.read_text().splitlines()[1:]
        if json.loads(line)["type"] == "clue" and json.loads(line)["by"] == "human"
    ]
    assert clues[:2] == ["prom", "harbour"]  # normalized before anything saw them
    resumed = Session.load(record)
    assert resumed.done and resumed.result_text() == session.result_text()


def test_a_record_of_a_past_version_with_a_capitalised_clue_resumes(tmp_path):
    # Records written before clues were normalized keep the person's spelling; the guesser
    # reads them lower-cased, so the game plays on.
    session = Session("duet", 3, "guesser", "glove", "glove", tmp_path / "new.jsonl")
    session.start()
    session.human_clue("prom 2")
    lines = (tmp_path / "new.jsonl").read_text().splitlines()
    old = [json.loads(line) for line in lines]
    old[1]["word"] = "Prom"
    (tmp_path / "old.jsonl").write_text("".join(json.dumps(line) + "\n" for line in old))
    resumed = Session.load(tmp_path / "old.jsonl")
    assert resumed.human_move() is None  # the AI guesses the person's clue
    event = resumed.ai_move()
    assert event["type"] == "guess" and event["card"] >= 0
    assert Session.load(tmp_path / "old.jsonl").events == resumed.events


def test_a_clue_the_ai_does_not_know_gets_one_guess_and_a_note():
    session = Session("duet", 3, "guesser", "glove", "glove", relaxed=True)
    with pytest.raises(InputProblem, match="not an English word"):
        Session("duet", 3, "guesser", "glove", "glove").human_clue("qwxzk 1")
    session.human_clue("Qwxzk 3")  # a name the word lists do not know: fine when relaxed
    first = session.ai_move()
    assert first["type"] == "guess" and first["card"] >= 0
    assert "no meaning for 'qwxzk'" in first["note"]
    if first["result"] == "green agent":  # on a green the turn goes on: the AI stops
        second = session.ai_move()
        assert second["type"] == "guess" and second["card"] == -1
        assert "note" not in second
    assert session.events[-1]["type"] == "guess"
    assert session.human_move() != "guess" or session.events[-1]["card"] == -1


@pytest.mark.parametrize("guesser, clue", [("glove", "OCEAN 1"), ("minilm", "qwxzk 1")])
def test_known_words_get_no_note(guesser, clue):
    # A sentence model has a vector for every string: it reads even a made-up name.
    session = Session("duet", 3, "guesser", "glove", guesser, relaxed=True)
    session.human_clue(clue)
    event = session.ai_move()
    assert event["type"] == "guess" and "note" not in event
