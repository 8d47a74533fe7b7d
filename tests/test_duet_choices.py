"""Duet at the terminal: the choices RULES section 3 leaves to the players, hand-traced.

Either player may start; with the looser turn order a player may give two clues in a row,
then the other gives one; in sudden death the players guess in any order; when one side's
greens are all found the other gives every clue (and is told so). Each choice is a ``turn``
move in the record and replays on resume.
"""

from __future__ import annotations

import pytest
from scripted_play import (
    GLOVE_AI,
    ai_until_person,
    bystander_of,
    choose,
    glove_session,
    play_out,
    until_sudden_death,
)
from typer.testing import CliRunner

from codebots.cli import app
from codebots.engine import CLUE, GUESS
from codebots.play import InputProblem, Session
from codebots.replay import replay_lines


def new(tmp_path, variant="duet", seed=3) -> Session:
    return glove_session(tmp_path, variant, seed=seed)


def test_either_player_may_give_the_first_clue(tmp_path):
    session = new(tmp_path)
    assert session.human_move() == "clue" and session.may_pass()
    event = session.human_clue("pass")
    assert event == {"type": "turn", "by": "human", "next": "ai", "word": "pass", "result": ""}
    assert session.human_move() is None
    clue = session.ai_move()
    assert clue["type"] == "clue" and clue["giver"] == 1 and session.state.giver[0] == 1
    assert session.human_move() == "guess"  # the person guesses the AI's first clue
    session.human_guess(bystander_of(session, 1))  # a bystander ends the turn
    assert session.state.phase[0] == CLUE and session.state.giver[0] == 0  # then the person
    assert not session.may_pass()  # the strict order: no second pass
    with pytest.raises(InputProblem, match="you cannot pass now"):
        session.human_clue("pass")
    resumed = Session.load(tmp_path / "g.jsonl")
    assert resumed.events == session.events and resumed.human_move() == "clue"
    assert "  1. you: the AI acts next" in replay_lines(tmp_path / "g.jsonl")


def test_the_looser_order_lets_the_person_give_two_clues_in_a_row(tmp_path):
    session = new(tmp_path, "duet[loose_turn_order]")
    session.human_clue("ocean 1")
    ai_until_person(session)
    assert session.state.phase[0] == CLUE and session.state.giver[0] == 1
    assert session.human_move() == "turn"  # the AI is scheduled, the person may take it
    with pytest.raises(InputProblem, match="type 'mine'"):
        session.human_turn("later")
    session.human_turn("mine")
    assert session.human_move() == "clue"
    clue = session.human_clue("music 1")
    assert clue["giver"] == 0  # two in a row
    ai_until_person(session)
    # After two in a row the AI must give one: no choice is offered, the AI clues.
    assert session.state.phase[0] == GUESS and session.state.giver[0] == 1
    assert [e["type"] for e in session.events].count("turn") == 1
    assert Session.load(tmp_path / "g.jsonl").events == session.events


def test_a_clue_typed_at_the_turn_prompt_takes_the_turn(tmp_path):
    session = new(tmp_path, "duet[loose_turn_order]")
    session.human_clue("ocean 1")
    ai_until_person(session)
    assert session.human_move() == "turn"
    event = session.human_turn("music 1")
    assert event["type"] == "clue" and event["giver"] == 0
    assert session.events[-2]["type"] == "turn"


def test_sudden_death_order_is_the_players_choice(tmp_path):
    session = new(tmp_path, "mission/battle-of-the-atrium")  # 7 tokens: sudden death soon
    until_sudden_death(session)
    guessers = session.game.sudden_death_guessers(session.state)[0]
    assert guessers.all()  # both have greens to find: the players choose the order
    assert session.human_move() == "guess" and session.may_pass()
    session.human_guess("pass")
    assert session.human_move() is None
    event = session.ai_move()
    assert event["type"] == "guess" and event["guesser"] == 1
    if not session.done:  # after one guess the person chooses again
        assert session.turn_choice is None
    assert Session.load(tmp_path / "g.jsonl").events == session.events


def test_the_hand_over_is_announced_once(tmp_path):
    said = []
    for seed in range(6):
        session = Session("duet", seed, "guesser", "glove", "glove")
        play_out(
            session,
            lambda s, move: choose(s, move, win=True),
            each=lambda before, session=session: said.extend(session.announcements(before)),
        )
    assert said and len(said) <= 6  # once a game at most
    assert all(line.startswith("every green on") for line in said)


def test_the_terminal_offers_pass_and_explains_duet(tmp_path):
    record = tmp_path / "g.jsonl"
    result = CliRunner().invoke(
        app,
        ["play", "--variant", "duet", "--seed", "3", "--save", str(record), *GLOVE_AI],
        input="help\nrules\npass\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "your clue (or 'pass')> " in result.output
    assert "'pass': the AI gives this clue instead." in result.output  # help at the clue
    assert "sudden death: no more clues" in result.output  # rules
    assert "You let the AI act next" in result.output and "AI clue:" in result.output
    assert [e["type"] for e in Session.load(record).events][:2] == ["turn", "clue"]


def test_the_duet_end_screen_shows_both_sides_and_the_losing_card(tmp_path):
    from scripted_play import find_seed

    seed, inputs, session = find_seed("duet", "guesser", False)  # aims at the assassin
    result = CliRunner().invoke(
        app,
        ["play", "--variant", "duet", "--seed", str(seed), "--save", str(tmp_path / "g.jsonl")]
        + GLOVE_AI,
        input="\n".join(inputs) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "The AI's side of the key:" in result.output
    assert "[agent]: a green found" in result.output  # the legend, brackets and all
    lost = session.losing_card()
    assert lost.startswith("lost on ") and "assassin on " in lost and lost in result.output


def test_team_games_say_who_plays_what_and_the_cover_prompt_explains(tmp_path):
    result = CliRunner().invoke(
        app,
        ["play", "--variant", "marvel-coop", "--role", "spymaster", "--seed", "2"]
        + ["--save", str(tmp_path / "g.jsonl"), *GLOVE_AI],
        input="quit\n",
    )
    assert result.exit_code == 0, result.output
    assert "you play red's spymaster; red starts" in result.output
    assert "[x]: a card already covered" in result.output
    from codebots.commands.play import PROMPTS

    assert "frees the word for clues" in PROMPTS["cover"]


def test_on_the_last_turn_the_ai_says_why_it_goes_past_the_number(tmp_path):
    """The person lets the AI open, so the tenth clue, whose turn empties the bank, is the
    person's; the AI reads it past its number and says why."""
    pytest.importorskip("sentence_transformers")
    session = Session("duet", 8, "guesser", "crossplay", "crossplay", tmp_path / "g.jsonl")
    session.start()
    session.human_clue("pass")
    notes = []
    while not session.done:
        move = session.human_move()
        if move is None:
            event = session.ai_move()
            if "the last token" in event.get("note", ""):
                notes.append((event, session.clue_number))
        elif move == "clue":  # a good clue word, for one card
            session.human_clue(choose(session, "clue", win=True).split()[0] + " 1")
        else:  # the person burns the AI's turns on bystanders
            session.human_guess(bystander_of(session, 1))
    assert notes, "no AI guess past the number on the last turn: pick another seed"
    event, number = notes[0]
    assert number == 1 and event["type"] == "guess" and event["card"] >= 0
    record = Session.load(tmp_path / "g.jsonl")  # the note is in the record and replays
    assert any("the last token" in e.get("note", "") for e in record.events)
