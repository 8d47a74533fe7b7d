"""Batched actions: one array per field, one entry per game (docs/engine-rules.md).

Scalars broadcast, so ``GuessAction(card=STOP)`` stops every game that is guessing. Use
``NO_ACTION`` for games that should not receive the action.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from codebots.engine.constants import NO_ACTION

ArrayLike = int | bool | np.ndarray


def batch_field(value: ArrayLike, size: int, dtype: type) -> np.ndarray:
    """Broadcast an action field to ``(size,)`` of ``dtype``."""
    array = np.asarray(value)
    if array.ndim and array.shape != (size,):
        raise ValueError(f"action field has shape {array.shape}, expected ({size},)")
    return np.broadcast_to(array.astype(dtype, copy=False), (size,))


@dataclass(frozen=True)
class ClueAction:
    """A clue per game: ``number`` in 0..9 or UNLIMITED, NO_ACTION to skip a game."""

    number: ArrayLike
    valid: ArrayLike = True  # the clue checker's verdict on the word
    giver: ArrayLike = -1  # Duet: -1 = the scheduled giver
    two_word: ArrayLike = False  # Duet: spend a London two-word-clue bonus
    double: ArrayLike = False  # Duet: spend the two-clues-in-one-turn reward
    mark: ArrayLike = -1  # Duet: Hogsmeade bonus, mark this bystander first

    def fields(self, size: int) -> tuple[np.ndarray, ...]:
        return (
            batch_field(self.number, size, np.int16),
            batch_field(self.valid, size, bool),
            batch_field(self.giver, size, np.int16),
            batch_field(self.two_word, size, bool),
            batch_field(self.double, size, bool),
            batch_field(self.mark, size, np.int16),
        )


@dataclass(frozen=True)
class GuessAction:
    """A guess per game: a card 0..24 or STOP; NO_ACTION to skip a game."""

    card: ArrayLike
    second: ArrayLike = -1  # Duet: Hogwarts bonus, a second card touched at once
    guesser: ArrayLike = -1  # Duet sudden death: which player guesses (-1 = default)

    def fields(self, size: int) -> tuple[np.ndarray, ...]:
        return (
            batch_field(self.card, size, np.int16),
            batch_field(self.second, size, np.int16),
            batch_field(self.guesser, size, np.int16),
        )


@dataclass(frozen=True)
class CoverAction:
    """A covering move per game: a card 0..24 or PASS; NO_ACTION to skip a game."""

    card: ArrayLike

    def fields(self, size: int) -> tuple[np.ndarray, ...]:
        return (batch_field(self.card, size, np.int16),)


def skip(size: int) -> np.ndarray:
    """``(size,)`` of NO_ACTION, a starting point for building a partial action."""
    return np.full(size, NO_ACTION, dtype=np.int16)
