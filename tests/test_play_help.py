"""``help`` at the terminal: the move the game waits for comes first, with the bonuses this
game still holds for it, and nothing the person cannot type now; ``rules`` gives the rules."""

from __future__ import annotations

from scripted_play import GLOVE_AI, ai_until_person, glove_session, until_sudden_death
from typer.testing import CliRunner

from codebots.cli import app
from codebots.play.help_text import help_text, rules_text


def test_while_guessing_the_guess_comes_first(tmp_path):
    session = glove_session(tmp_path, "single-team-2019")
    ai_until_person(session)
    assert session.human_move() == "guess"
    text = help_text(session, "guess")
    assert text.startswith("Your guess: a card's name") and "'stop' ends your guesses" in text
    assert "Your clue" not in text and "token" not in text  # no Duet rules in a team game
    assert text.splitlines()[-1].startswith("Any time: 'help'")


def test_the_clue_help_offers_only_what_the_variant_allows(tmp_path):
    loose = help_text(glove_session(tmp_path / "a", "single-team-2019", "spymaster"), "clue")
    strict = glove_session(tmp_path / "b", "single-team-2019[zero_clues=false]", "spymaster")
    assert loose.startswith("Your clue: 'word number'") and "'ocean 0'" in loose
    assert "'ocean 0'" not in help_text(strict, "clue")
    assert "'pass'" not in loose and "mark CARD" not in loose  # nothing of Duet's


def test_duet_help_names_the_bonuses_this_game_holds(tmp_path):
    plain = glove_session(tmp_path / "d", "duet")
    assert plain.human_move() == "clue" and plain.may_pass()
    text = help_text(plain, "clue")
    assert "'pass': the AI gives this clue instead." in text
    assert "'ocean unlimited'" in text and "mark CARD" not in text and "pet shop" not in text
    assert "mark CARD' first marks one of your bystanders" in help_text(
        glove_session(tmp_path / "s", "mission/hogsmeade"), "clue"
    )
    assert "Two-word clue (3 left): 'pet shop 3'." in help_text(
        glove_session(tmp_path / "l", "mission/london"), "clue"
    )
    hogwarts = glove_session(tmp_path / "h", "mission/hogwarts")
    hogwarts.human_clue("pass")  # the AI gives the first clue, the person guesses it
    ai_until_person(hogwarts)
    guess = help_text(hogwarts, "guess")
    assert "'CARD + CARD' touches two cards at once" in guess and "(2 left)" in guess
    assert "A bystander costs a token" in guess and "CARD + CARD" not in help_text(plain, "clue")


def test_sudden_death_help_says_there_is_no_stopping(tmp_path):
    session = glove_session(tmp_path, "mission/battle-of-the-atrium")  # 7 tokens: sudden death soon
    until_sudden_death(session)
    text = help_text(session, "guess")
    assert "no clues and no stopping" in text and "'stop'" not in text
    assert "'pass': the AI makes this guess instead." in text  # both have greens to find


def test_the_terminal_help_and_rules(tmp_path):
    result = CliRunner().invoke(
        app,
        ["play", "--variant", "duet", "--seed", "3", "--save", str(tmp_path / "g.jsonl")]
        + GLOVE_AI,
        input="help\nrules\nquit\n",
    )
    assert result.exit_code == 0, result.output
    help_at = result.output.index("Your clue: 'word number'")
    assert result.output.index("sudden death: no more clues") > help_at  # 'rules' after
    team = glove_session(tmp_path / "t", "classic[zero_clues=false]")
    assert rules_text(team).startswith("classic[zero_clues=false]: Two teams")
