"""The batched rules engine: frozen states of ``(B, 25)`` arrays and pure step functions.

    game = make("duet")
    state = game.reset(seeds=range(1000))
    state = game.step_clue(state, ClueAction(number=2))
    state = game.step_guess(state, GuessAction(card=guesses))

See docs/engine-rules.md for the encoding and every rule decision.
"""

from __future__ import annotations

from codebots.engine.actions import ClueAction, CoverAction, GuessAction, skip
from codebots.engine.constants import *  # noqa: F403 — the codes are part of the engine API
from codebots.engine.duet import DuetGame, DuetState
from codebots.engine.team import TeamGame, TeamState
from codebots.variants import Variant, get_variant

Game = TeamGame | DuetGame
State = TeamState | DuetState


def make(variant: str | Variant) -> Game:
    """The rules object for a variant id, label (``duet[tokens=11]``) or spec."""
    spec = get_variant(variant)
    return TeamGame(spec) if spec.family == "team" else DuetGame(spec)


__all__ = [
    "ClueAction",
    "CoverAction",
    "DuetGame",
    "DuetState",
    "Game",
    "GuessAction",
    "State",
    "TeamGame",
    "TeamState",
    "make",
    "skip",
]
