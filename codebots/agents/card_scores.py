"""How a guesser scores the visible cards of a board for a clue: z-scores over the cards it
may touch, the minds' majority and the softmax confidence of its best card.

Pure functions of similarity rows over a board's 25 cards (the last axis) and the candidates
(the cards a guess may touch, bool, broadcast against them), used by
:class:`codebots.agents.guesser.EmbeddingGuesser`.
"""

from __future__ import annotations

import numpy as np


def standardize(sims: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """z-scores of similarities over the candidate cards (last axis)."""
    count = np.maximum(candidates.sum(axis=-1, keepdims=True), 1)
    mean = np.where(candidates, sims, 0.0).sum(axis=-1, keepdims=True) / count
    spread = np.where(candidates, (sims - mean) ** 2, 0.0).sum(axis=-1, keepdims=True) / count
    return (sims - mean) / np.maximum(np.sqrt(spread), 1e-6)


def majority_agrees(mind_sims: list[np.ndarray], candidates, choice) -> np.ndarray:
    """``(R,) bool``: more than half of the minds (their ``(R, 25)`` similarities to the
    clue) rank ``choice`` first among ``candidates``."""
    votes = np.zeros(len(choice), dtype=np.int64)
    for sims in mind_sims:
        votes += np.where(candidates, sims, -np.inf).argmax(axis=1) == choice
    return 2 * votes > len(mind_sims)


def softmax_top(sims: np.ndarray, candidates: np.ndarray, temperature: float) -> np.ndarray:
    """``(B,)`` softmax probability of the best candidate card."""
    scores = np.where(candidates, sims, -np.inf)
    top = scores.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)  # rows of games that are not guessing
    weights = np.exp((scores - top) / temperature)
    total = weights.sum(axis=1)
    return np.divide(weights.max(axis=1), total, out=np.zeros_like(total), where=total > 0)
