"""What agents answer: the agent protocols, the clue batch, and the registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from codebots.agents.views import GuesserView, SpymasterView  # noqa: E402
from codebots.errors import CodebotsError


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


SPYMASTERS: dict[str, Callable[..., Spymaster]] = {}
GUESSERS: dict[str, Callable[..., Guesser]] = {}


SUMMARIES: dict[tuple[str, str], str] = {}  # (role, name) -> one line for `codebots agents`


def register(role: str, name: str, summary: str | None = None):
    """Class decorator adding an agent factory to the registry of ``role``; ``summary``
    (default: the first line of the factory's docstring) is what ``codebots agents`` shows."""
    registry = SPYMASTERS if role == "spymaster" else GUESSERS

    def add(factory):
        registry[name] = factory
        SUMMARIES[role, name] = summary or (factory.__doc__ or "").strip().split("\n")[0]
        return factory

    return add


def make_agent(role: str, name: str, **options) -> Spymaster | Guesser:
    """Build a registered agent; an unknown name is a one-line error listing the known ones."""
    if role not in ("spymaster", "guesser"):
        raise CodebotsError(f"role must be 'spymaster' or 'guesser', not '{role}'")
    registry = SPYMASTERS if role == "spymaster" else GUESSERS
    if name not in registry:
        raise CodebotsError(f"unknown {role} '{name}'; known: {', '.join(sorted(registry))}")
    return registry[name](**options)
