"""Scripted people for terminal-play tests: a perfect partner (to win) or one who aims at the
assassin (to lose), and the seeds on which they do."""

from __future__ import annotations

import signal
import sys

import numpy as np

from codebots.engine.constants import BYSTANDER
from codebots.play import Session
from codebots.validity import checker_for

# The scripted games are traced with the GloVe agents (fast and exact); the play default,
# the cross-play agents, has a test of its own (tests/test_play.py).
GLOVE_AI = ["--spymaster", "glove", "--guesser", "glove"]


def play_arguments(variant: str, seed: int, record) -> list[str]:
    """``codebots play`` of a scripted game: the board, the record and the GloVe agents."""
    return ["play", "--variant", variant, "--seed", str(seed), "--save", str(record), *GLOVE_AI]


def spawn_play(pexpect, seed, record, variant: str = "single-team-2019"):
    """``codebots play`` of a scripted game (you guess) in a real pseudo-terminal."""
    arguments = ["-m", "codebots", *play_arguments(variant, seed, record)]
    return pexpect.spawn(
        sys.executable,
        arguments,
        encoding="utf-8",
        timeout=120,
        dimensions=(50, 140),
        # A suite run from a background job (nohup, &) passes on an ignored SIGINT, which
        # Python keeps ignored: give the game the default a terminal's foreground job has.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def glove_session(tmp_path, variant: str = "duet", role: str = "guesser", seed: int = 3):
    """A started game against the GloVe AI (quick to build), recorded in ``tmp_path``."""
    session = Session(variant, seed, role, "glove", "glove", tmp_path / "g.jsonl")
    session.start()
    return session


def ai_until_person(session: Session) -> None:
    """Let the AI move until the person must (or the game ends)."""
    while session.human_move() is None and not session.done:
        session.ai_move()


def bystander_of(session: Session, side: int) -> str:
    """A visible card that is a bystander on ``side``'s key, not yet marked from it."""
    state = session.state
    ok = (state.key[0, side] == BYSTANDER) & ~state.covered[0] & ~state.marked[0, side]
    return session.card_word(int(np.flatnonzero(ok)[0])).lower()


def until_sudden_death(session: Session) -> None:
    """Play on until sudden death: the person gives good clues and wastes the AI's clues on
    bystanders, so the bank runs out first (a short mission's seven tokens: quickly)."""
    from codebots.engine import SUDDEN_DEATH

    for _ in range(200):
        if session.done or session.state.phase[0] == SUDDEN_DEATH:
            break
        move = session.human_move()
        if move is None:
            session.ai_move()
        elif move == "clue":
            session.human_clue(choose(session, "clue", win=True))
        else:
            session.human_guess(bystander_of(session, 1))
    assert session.state.phase[0] == SUDDEN_DEATH, "no sudden death: pick another seed"


def choose(session: Session, move: str, win: bool) -> str:
    """What a scripted person types: a perfect partner (win) or one who aims at an
    assassin (lose)."""
    from codebots.agents.views import spymaster_view

    state = session.state
    covered = state.covered[0]
    if move == "guess":
        if session.duet:
            side = int(state.giver[0]) if state.phase[0] == 1 else 1  # the judging side
            key = state.key[0, side]
            good, bad = (key == 0) & ~covered, (key == 3) & ~covered
        else:
            good, bad = (state.key[0] == 0) & ~covered, (state.key[0] == 3) & ~covered
        pick = bad if not win and bad.any() else good
        if not pick.any():
            return "stop"
        return session.card_word(int(np.flatnonzero(pick)[0])).lower()
    view = spymaster_view(session.spec, session.words, state, np.ones(1, bool))
    if move == "cover":
        return session.card_word(int(session.spymaster.covers(view, session.rng)[0]))
    if win:
        clues = session.spymaster.clues(view, session.rng)
        number = int(clues.numbers[0])
        return f"{clues.words[0]} {'unlimited' if number < 0 else number}"
    # A clue for the assassin: its nearest valid clue word, number 1.
    assassin = int(np.flatnonzero((view.identity[0] == 3) & ~covered)[0])
    table = session.spymaster.tables(session.words)[0]
    checker = checker_for(session.words)
    for clue_id in table.neighbours[state.cards[0, assassin]]:
        word = table.vocabulary[clue_id]
        if checker.valid([word], state.cards, ~state.covered)[0]:
            return f"{word} 1"
    raise AssertionError("no clue for the assassin")


def play_out(session: Session, answer, refused: tuple[str, ...] = (), each=None) -> list[str]:
    """Play ``session`` to its end: the AI's moves, and the person's ``answer(session,
    move)``; returns what the person typed. Inputs in ``refused`` may be refused (they are
    typed all the same); ``each(before)`` is called after every move with each side's greens
    left before it."""
    from codebots.play import InputProblem

    inputs = []
    for _ in range(300):
        if session.done:
            return inputs
        before = session.greens_left()
        move = session.human_move()
        if move is None:
            session.ai_move()
        else:
            text = answer(session, move)
            inputs.append(text)
            try:
                getattr(session, f"human_{move}")(text)
            except InputProblem:
                if text not in refused:
                    raise
        if each is not None:
            each(before)
    raise AssertionError("the scripted game did not end")


def script(variant: str, role: str, seed: int, win: bool) -> tuple[list[str], Session]:
    session = Session(variant, seed, role, "glove", "glove")
    return play_out(session, lambda s, move: choose(s, move, win)), session


def expected_text(session: Session, win: bool) -> str:
    if session.duet or session.spec.opponent != "team":
        return "You won" if win else "You lost"
    return "Red won" if win else "Blue won"


def find_seed(variant, role, win):
    for seed in range(40):
        inputs, session = script(variant, role, seed, win)
        if (session.state.winner[0] == 0) == win:
            return seed, inputs, session
    raise AssertionError(f"no seed gives a {'win' if win else 'loss'} for {variant}/{role}")


def quit_halfway(runner, app, variant: str, seed: int, inputs: list[str], record) -> int:
    """Play the first half of ``inputs`` through ``codebots play`` and quit; returns how many
    inputs were given (the rest continue the game after ``--resume``)."""
    half = len(inputs) // 2
    result = runner.invoke(
        app,
        play_arguments(variant, seed, record),
        input="\n".join(inputs[:half]) + "\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "continue with: codebots play --resume" in result.output
    return half
