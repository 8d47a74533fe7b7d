"""What agents answer: the agent protocols and the clue batch (names -> agents:
:mod:`codebots.agents.registry`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from codebots.agents.views import GuesserView, SpymasterView  # noqa: E402


@dataclass(frozen=True)
class Clues:
    """A spymaster's answer: one clue per game (entries of inactive games are ignored)."""

    words: tuple[str, ...]  # (B,)
    numbers: np.ndarray  # (B,) int16 — 0..9 or UNLIMITED
    targets: tuple[tuple[int, ...], ...] | None = None  # intended card positions, per game


@runtime_checkable
class Spymaster(Protocol):
    name: str

    def clues(self, view: SpymasterView, rng: np.random.Generator) -> Clues: ...

    def covers(self, view: SpymasterView, rng: np.random.Generator) -> np.ndarray:
        """``(B,)`` a card of the covering team to cover (Marvel virtual turn, classic
        penalty cover); ``view.identity`` is from the covering team's side."""
        ...


@runtime_checkable
class Guesser(Protocol):
    name: str
    privileged: bool

    def guesses(self, view: GuesserView, rng: np.random.Generator) -> np.ndarray:
        """``(B,)`` a legal card, or STOP."""
        ...


def uses_rng(agent) -> bool:
    """Whether ``agent`` draws from the random stream it is given (an agent that does not
    say: yes). The games of agents that do not are the same however a batch is split, so
    an evaluation may share one batch among several workers."""
    return bool(getattr(agent, "uses_rng", True))
