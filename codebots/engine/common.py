"""What every rule family's state shares, and helpers used by all step functions."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from codebots.engine.constants import DONE, END_ILLEGAL, N_CARDS


@dataclass(frozen=True)
class BaseState:
    """Fields common to every batched game state. All arrays are read-only."""

    seed: np.ndarray  # (B,) int64 — the game's seed, everything dealt derives from it
    cards: np.ndarray  # (B, 25) int32 — indices into the variant's word pool, row-major
    phase: np.ndarray  # (B,) int8 — CLUE/GUESS/COVER/SUDDEN_DEATH/DONE
    turns: np.ndarray  # (B,) int16 — turns ended
    clues: np.ndarray  # (B,) int16 — clues given (valid or not)
    winner: np.ndarray  # (B,) int8 — -1 running; team games: the team; co-op: 0 won, 1 lost
    end_reason: np.ndarray  # (B,) int8 — END_* code

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False

    @property
    def batch_size(self) -> int:
        return len(self.phase)

    @property
    def done(self) -> np.ndarray:
        """``(B,) bool`` games that have ended."""
        return self.phase == DONE

    def replace(self, **changes: np.ndarray):
        return dataclasses.replace(self, **changes)

    def take(self, index: np.ndarray | slice | int):
        """The sub-batch of games ``index`` (keeps the batch dimension)."""
        if isinstance(index, int):
            index = slice(index, index + 1)
        return dataclasses.replace(
            self, **{f.name: getattr(self, f.name)[index] for f in dataclasses.fields(self)}
        )


def where(mask: np.ndarray, new: np.ndarray | int, old: np.ndarray) -> np.ndarray:
    """``np.where`` that keeps ``old``'s dtype (counters stay small ints)."""
    return np.where(mask, new, old).astype(old.dtype)


def end_games(state, mask: np.ndarray, winner: np.ndarray | int, reason: np.ndarray | int):
    """End the games in ``mask`` with ``winner`` and ``reason``; turn counters read 0."""
    turn_counters = {
        name: where(mask, 0, getattr(state, name))
        for name in ("guesses_made", "guesses_left", "covers_pending")
        if hasattr(state, name)
    }
    return state.replace(
        phase=where(mask, DONE, state.phase),
        winner=where(mask, winner, state.winner),
        end_reason=where(mask, reason, state.end_reason),
        **turn_counters,
    )


def forfeit(state, mask: np.ndarray, winner: np.ndarray | int):
    """Illegal actions: the acting side forfeits (docs/engine-rules.md)."""
    return end_games(state, mask, winner, END_ILLEGAL)


def card_index(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(in_range (B,) bool, clipped (B,) intp)`` for gathering at a card field."""
    in_range = (card >= 0) & (card < N_CARDS)
    return in_range, np.clip(card, 0, N_CARDS - 1).astype(np.intp)


def set_cards(mask2d: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """A copy of a ``(B, 25)`` bool mask with ``[rows, cols]`` set."""
    out = mask2d.copy()
    out[rows, cols] = True
    return out
