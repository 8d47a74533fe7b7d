"""Marvel's three players (RULES section 1): two rival spymasters share one guesser, who
plays for both teams; in the arena (``red|blue`` spymaster names) and at the terminal."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from typer.testing import CliRunner

from codebots.agents import make_agent
from codebots.agents.views import spymaster_view
from codebots.arena import play
from codebots.cli import app
from codebots.engine import GUESS, make
from codebots.errors import CodebotsError
from codebots.play import Session
from codebots.variants import get_variant
from codebots.vocab import load_pool

THREE = "classic[three_players]"


def test_the_option_needs_two_teams():
    assert get_variant(THREE).three_players and get_variant(THREE).label == THREE
    for variant in ("marvel-coop", "single-team-2019"):
        with pytest.raises(CodebotsError, match="three_players needs two teams"):
            get_variant(f"{variant}[three_players]")


def test_each_rival_gives_its_own_teams_clues():
    spec = get_variant(THREE)
    words = load_pool(spec.pool).words
    state = make(spec).reset(np.arange(8))
    view = spymaster_view(spec, words, state, np.ones(8, bool))
    rivals = make_agent("spymaster", "glove|random")
    assert rivals.name == "glove|random" and rivals.minds == frozenset({"glove"})
    rivals.begin(8)
    clues = rivals.clues(view, np.random.default_rng(0))
    glove = make_agent("spymaster", "glove")
    glove.begin(8)
    red = dataclasses.replace(view, active=view.team == 0)
    alone = glove.clues(red, np.random.default_rng(0))
    for game in range(8):
        if view.team[game] == 0:
            assert clues.words[game] == alone.words[game]
        else:  # the random spymaster: one of its 2,000 common words, 1 to 3 cards
            assert clues.words[game] in rivals.blue.vocabulary and 1 <= clues.numbers[game] <= 3
    assert set(view.team.tolist()) == {0, 1}  # both teams start in some of the games


def test_rival_spymasters_and_one_guesser_play_whole_games():
    rows = play(THREE, make_agent("spymaster", "glove|minilm"), make_agent("guesser", "glove"),
                np.arange(40))  # fmt: skip
    assert (rows["spymaster"] == "glove|minilm").all() and not rows["cross"].any()
    assert set(rows["winner"]) <= {0, 1} and len(rows) == 40
    # The glove-minded red spymaster wins more often with a glove guesser than MiniLM's blue.
    assert rows["won"].mean() > 0.5


def test_the_person_guesses_for_both_teams(tmp_path):
    session = Session(THREE, 5, "guesser", "glove|glove", "glove", tmp_path / "g.jsonl")
    session.start()
    teams = set()
    for _ in range(60):
        if session.done or len(teams) == 2:
            break
        move = session.human_move()
        if move is None:
            session.ai_move()
            continue
        assert move == "guess" and session.state.phase[0] == GUESS
        teams.add(int(session.state.team[0]))
        session.human_guess("stop" if session.state.guesses_made[0] else session.card_word(
            int(np.flatnonzero(~session.state.covered[0])[0])))  # fmt: skip
    assert teams == {0, 1}
    assert Session.load(tmp_path / "g.jsonl").events == session.events
    with pytest.raises(CodebotsError, match="three players: you are the shared guesser"):
        Session(THREE, 5, "team", "glove", "glove")


def test_the_terminal_names_the_team_being_guessed_for(tmp_path):
    result = CliRunner().invoke(
        app,
        ["play", "--variant", THREE, "--seed", "5", "--spymaster", "glove|glove"]
        + ["--guesser", "glove", "--save", str(tmp_path / "g.jsonl")],
        input="quit\n",
    )
    assert result.exit_code == 0, result.output
    assert "you play the guesser of both teams" in result.output
    assert "your guess for " in result.output
