"""Play batches of games between agents and return one tidy row per game."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from codebots.agents import Guesser, Spymaster
from codebots.agents.partner import ROUND
from codebots.agents.views import guesser_view, spymaster_view
from codebots.engine import (
    CLUE,
    COVER,
    GUESS,
    NO_ACTION,
    SUDDEN_DEATH,
    ClueAction,
    CoverAction,
    DuetState,
    Game,
    GuessAction,
    make,
)
from codebots.engine.constants import END_ASSASSIN, END_REASON_NAMES
from codebots.engine.team import MARVEL_RANKS
from codebots.errors import CodebotsError
from codebots.keys import as_seeds
from codebots.validity import checker_for
from codebots.variants import Variant, get_variant
from codebots.vocab import load_pool

MAX_STEPS = 2000  # far above any legal game; reaching it means an agent never acts


def play_batch(
    game: Game,
    spymaster: Spymaster,
    guesser: Guesser,
    seeds: np.ndarray,
    rng: np.random.Generator,
    turn_log: list | None = None,
):
    """Play the games of ``seeds`` to the end; return the final state.

    With ``turn_log`` (a list), one dict per clue is appended: seed, clue number in the game,
    the clue word and number, whether it was valid, its intended targets (card words) and
    the cards guessed for it.
    """
    variant = game.variant
    words = load_pool(variant.pool).words
    checker = checker_for(words)
    state = game.reset(seeds)
    size = state.batch_size
    clue_words = [""] * size
    clue_number = np.zeros(size, dtype=np.int16)
    open_turns: dict[int, dict] = {}
    for agent in (spymaster, guesser):  # agents with per-game memory start afresh
        if hasattr(agent, "begin"):
            agent.begin(size)
    for _ in range(MAX_STEPS):
        phase = state.phase
        giving = phase == CLUE
        new_clue = np.zeros(size, dtype=bool)
        if giving.any():
            view = spymaster_view(variant, words, state, giving)
            clues = spymaster.clues(view, rng)
            valid = checker.valid(clues.words, state.cards, view.visible)
            state = game.step_clue(
                state, ClueAction(number=np.where(giving, clues.numbers, NO_ACTION), valid=valid)
            )
            for index in np.flatnonzero(giving):
                clue_words[index] = clues.words[index]
                if turn_log is not None:
                    aims = clues.targets[index] if clues.targets else ()
                    open_turns[index] = {
                        "seed": int(state.seed[index]),
                        "clue_no": int(state.clues[index]),  # 1 for the first clue
                        "clue": clues.words[index],
                        "number": int(clues.numbers[index]),
                        "valid": bool(valid[index]),
                        "targets": [words[state.cards[index, p]] for p in aims],
                        "guesses": [],
                    }
                    turn_log.append(open_turns[index])
            clue_number = np.where(giving, clues.numbers, clue_number).astype(np.int16)
            new_clue = giving & (state.phase == GUESS)
        guessing = (state.phase == GUESS) | (state.phase == SUDDEN_DEATH)
        if guessing.any():
            view = guesser_view(
                variant,
                words,
                state,
                guessing,
                clue_words,
                clue_number,
                guesser.privileged,
                new_clue,
            )
            cards = guesser.guesses(view, rng)
            if turn_log is not None:
                for index in np.flatnonzero(guessing & (cards >= 0)):
                    if open_turns.get(index) is not None:
                        open_turns[index]["guesses"].append(words[state.cards[index, cards[index]]])
            state = game.step_guess(state, GuessAction(card=np.where(guessing, cards, NO_ACTION)))
        covering = state.phase == COVER
        if covering.any():
            view = spymaster_view(variant, words, state, covering)
            cards = spymaster.covers(view, rng)
            state = game.step_cover(state, CoverAction(card=np.where(covering, cards, NO_ACTION)))
        if state.done.all():
            return state
    raise RuntimeError(f"games did not finish within {MAX_STEPS} steps: an agent never acts")


def game_records(game: Game, state, spymaster: str, guesser: str) -> pd.DataFrame:
    """One row per finished game: seed, variant, agents, outcome, turns, clues, score."""
    records = {
        "seed": state.seed,
        "variant": game.variant.label,
        "spymaster": spymaster,
        "guesser": guesser,
        "won": state.winner == 0,
        "winner": state.winner,
        "end": np.asarray(END_REASON_NAMES, dtype=object)[state.end_reason],
        "assassin": state.end_reason == END_ASSASSIN,
        "turns": turns_played(state),
        "clues": state.clues,
        "score": game.score(state),
    }
    if game.variant.opponent == "virtual" and game.variant.family == "team":
        records["rank"] = np.asarray(MARVEL_RANKS, dtype=object)[
            np.nan_to_num(records["score"]).astype(int)
        ]
    if isinstance(state, DuetState):
        records["tokens_left"] = state.bank
        records["stop_tokens"] = state.stop_tokens
        records["sudden_death"] = state.sudden_death
    else:
        # The starting team is the one with more agents (single-team and Marvel: red).
        records["start_team"] = (state.key == 1).sum(axis=1) > (state.key == 0).sum(axis=1)
    return pd.DataFrame(records)


def turns_played(state) -> np.ndarray:
    """``(B,)`` turns played, the last one included (the engine counts turns *ended*).

    Team games: one clue per turn. Duet: ended turns, plus the turn in which the game ended
    unless it ended in sudden death (which is not a turn).
    """
    if isinstance(state, DuetState):
        return state.turns + ~state.sudden_death
    return state.clues


def play(
    variant: str | Variant,
    spymaster: Spymaster,
    guesser: Guesser,
    seeds: Iterable[int] | np.ndarray,
    *,
    batch_size: int = 4096,
    agent_seed: int = 0,
    progress: bool = False,
    turn_log: list | None = None,
    first_batch: int = 0,
) -> pd.DataFrame:
    """Play one game per seed; returns one row per game (see :func:`game_records`).

    Board and key of a game depend on its seed alone; the agents' random choices come from
    ``numpy.random.default_rng([agent_seed, batch index])``, so the same call gives the same
    table. ``turn_log``: see :func:`play_batch`. ``first_batch`` numbers the batches of a
    slice of a longer run, so that playing a run in slices of whole batches gives the same
    games as playing it at once.
    """
    if batch_size < 1:
        raise CodebotsError(f"batch size must be a positive integer, not {batch_size}")
    game = make(get_variant(variant))
    seeds = as_seeds(
        np.fromiter(seeds, dtype=np.int64) if not isinstance(seeds, np.ndarray) else seeds
    )
    if len(seeds) == 0:
        raise CodebotsError("no games to play: give at least one seed")
    frames = []
    starts = range(0, len(seeds), batch_size)
    if progress:
        from tqdm import tqdm

        starts = tqdm(starts, desc=game.variant.label, unit="batch", leave=False)
    for batch_index, start in enumerate(starts):
        rng = np.random.default_rng([agent_seed, first_batch + batch_index])
        final = play_batch(
            game, spymaster, guesser, seeds[start : start + batch_size], rng, turn_log
        )
        frames.append(game_records(game, final, spymaster.name, guesser.name))
    return pd.concat(frames, ignore_index=True)


def watch(variant, spymaster, guesser, seeds, memory, progress: bool = False):
    """Play the boards ``seeds`` with ``spymaster`` using ``memory`` and learn from every
    round of ``ROUND`` games (:mod:`codebots.agents.partner`): the memory in use improves
    as the spymaster watches."""
    spymaster.partner = memory
    seeds = np.asarray(seeds)
    for start in range(0, len(seeds), ROUND):
        log: list[dict] = []
        chunk = seeds[start : start + ROUND]
        play(variant, spymaster, guesser, chunk, batch_size=500, turn_log=log, progress=progress)
        memory.observe(log)
