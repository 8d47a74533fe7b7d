"""What a user meets first: help, version, tables, the key without colour, quiet logs, the
README's commands, and no silent waits where the wait could be removed."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from codebots.cli import app
from codebots.engine import ClueAction, GuessAction
from codebots.play import Session
from codebots.render import board_table

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def plain(renderable) -> str:
    """What a colour-blind player, NO_COLOR or a pipe sees: no colour, only text."""
    stream = io.StringIO()
    Console(file=stream, no_color=True, width=160, color_system=None).print(renderable)
    return stream.getvalue()


def test_the_team_key_is_written_out_not_only_coloured():
    session = Session("classic", 5, "spymaster", "glove", "glove")
    text = plain(board_table(session.state, session.words, show_key=True))
    key = session.state.key[0]
    for code, name in ((0, "red"), (1, "blue"), (2, "bystander"), (3, "assassin")):
        assert text.count(f"({name})") == int((key == code).sum()), name
    hidden = plain(board_table(session.state, session.words, show_key=False))
    assert not re.search(r"\((red|blue|bystander|assassin)\)", hidden)  # a guesser's view


def test_the_duet_key_of_the_viewers_side_is_written_out():
    session = Session("duet", 5, "guesser", "glove", "glove")
    text = plain(board_table(session.state, session.words, key_side=0, show_key=True))
    key = session.state.key[0, 0]
    assert text.count("(green)") == 9 and text.count("(assassin)") == 3
    assert text.count("(bystander)") == int((key == 2).sum())


def test_covered_cards_show_what_they_were_in_words():
    session = Session("classic", 5, "guesser", "glove", "glove")
    state = session.game.step_clue(session.state, ClueAction(number=np.array([2])))
    bystander = int(np.flatnonzero(state.key[0] == 2)[0])
    state = session.game.step_guess(state, GuessAction(card=np.array([bystander])))
    assert "[bystander]" in plain(board_table(state, session.words, show_key=False))


def test_a_spymaster_sees_the_key_with_no_colour_at_the_terminal(tmp_path):
    result = runner.invoke(
        app,
        ["play", "--variant", "single-team-2019", "--role", "spymaster", "--seed", "2",
         "--save", str(tmp_path / "g.jsonl")],
        input="quit\n",
        env={"NO_COLOR": "1"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.count("(assassin)") == 1 and result.output.count("(red)") == 8
    assert "(x): the key of a card in play" in result.output


def test_help_shows_variant_labels_whole_and_no_type_noise():
    result = runner.invoke(app, ["simulate", "--help"])
    assert result.exit_code == 0
    assert "codebots simulate --variant 'duet[tokens=11]'" in result.output
    assert "<bool>" not in result.output and "--help  " in result.output


def test_version():
    from importlib.metadata import version

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output == f"codebots {version('codebots')}\n"


def test_tables_end_without_a_blank_line():
    result = runner.invoke(app, ["simulate", "--games", "5"])
    assert result.exit_code == 0
    assert result.stdout.endswith("\n") and not result.stdout.endswith("\n\n")


def test_derivations_come_from_the_cache_without_parsing_wordnet(monkeypatch):
    from codebots import lexicon

    lexicon.derivations()  # built (or read) once
    lexicon.derivations.cache_clear()
    lexicon._synsets.cache_clear()

    def parse():
        raise AssertionError("parsed WordNet although its derivations are cached")

    monkeypatch.setattr(lexicon, "_synsets", parse)
    try:
        assert "african" in lexicon.derivations()["africa"]
    finally:
        lexicon.derivations.cache_clear()


@pytest.mark.slow
def test_no_loading_bars_in_logs_from_sentence_transformers():
    pytest.importorskip("sentence_transformers")
    result = subprocess.run(
        [sys.executable, "-m", "codebots", "clue", "--spymaster", "minilm",
         "--board", "graveyard, ghost, owl, bank, wand, castle", "--targets", "graveyard, ghost"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Loading weights" not in result.stderr and result.stderr == ""


@pytest.mark.slow
def test_a_dask_run_shuts_down_quietly():
    pytest.importorskip("dask.distributed")
    result = subprocess.run(
        [sys.executable, "-m", "codebots", "evaluate", "--variant", "duet", "--pairs",
         "random:random", "--games", "20", "--backend", "dask", "--workers", "2"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def readme_play_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return [line.split("#")[0] for line in re.findall(r"codebots play .*", text)]


def test_the_readme_play_commands_work_on_a_new_campaign(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = readme_play_commands()
    assert any("--campaign" in command and "--mission" in command for command in commands)
    for command in commands:
        words = shlex.split(command)[2:]
        if "--resume" in words:
            continue  # needs a record: covered by the saved-games tests
        result = runner.invoke(app, ["play", *words], input="quit\n")
        assert result.exit_code == 0, (command, result.output)
        assert "saved to" in result.output, command
    assert "locked" not in "".join(commands)
