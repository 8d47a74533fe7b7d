"""The virtual team's turn in Marvel co-op: which of its agents our spymaster covers.

RULES section 1: at every virtual-team turn the players' spymaster covers one of the other
team's agents, a strategic choice: the covered card stops being a distractor and frees its
word for clues. The policies (``EmbeddingSpymaster(cover_policy=...)``):

- ``danger`` (the plain agents): the agent most similar to the players' remaining agents,
  the card most likely to be mistaken for one of ours (the spymaster's first model).
- ``lookahead`` (the cross-play spymaster): the agent whose removal makes the spymaster's
  own next clue best, as it scores clues (the committee's worst margin for a cross-play
  spymaster): it removes the distractor that blocks the clue it is about to give. Measured
  +2.6 points of Marvel wins with a partner of another mind, 2,000 games a partner
  (docs/cross-model-notes.md).
- ``random``: a random agent (the baseline virtual team, ``glove-random-cover``;
  :func:`codebots.agents.baselines.random_covers`).

The cover view is the virtual team's: its agents are OWN, the players' OTHER.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from codebots.agents.views import OTHER, OWN, SpymasterView
from codebots.errors import CodebotsError

POLICIES = ("danger", "lookahead", "random")


def danger_covers(view: SpymasterView, card_sims: np.ndarray) -> np.ndarray:
    """``(B,)`` the covering team's agent most similar (``card_sims``: (P, P) cosines of the
    pool's cards) to the other side's remaining agents; -1 where none is left."""
    coverable = (view.identity == OWN) & ~view.covered  # (B, 25) the virtual team's agents
    ours = (view.identity == OTHER) & ~view.covered  # (B, 25) the players' agents
    pair = card_sims[view.cards[:, :, None], view.cards[:, None, :]]  # (B, 25, 25)
    danger = np.where(ours[:, None, :], pair, -np.inf).max(axis=2)
    danger = np.where(coverable, danger, -np.inf)
    return np.where(coverable.any(axis=1), danger.argmax(axis=1), -1)


def lookahead_covers(view: SpymasterView, best_clue_score, fallback: np.ndarray) -> np.ndarray:
    """``(B,)`` for each active game, the covering team's agent whose removal gives the
    players' spymaster its best next clue: ``best_clue_score(view, games)`` -> ``(G,)`` the
    score of the best clue of ``games`` on a players'-side view. Ties keep the earlier card
    (board order); games with no clue at all keep ``fallback``."""
    coverable = (view.identity == OWN) & ~view.covered  # (B, 25)
    players = players_side(view.identity)
    order = np.argsort(~coverable, axis=1, kind="stable")  # (B, 25) coverable cards first
    count = coverable.sum(axis=1)  # (B,)
    active = np.flatnonzero(view.active)
    choice = fallback.copy()
    best = np.full(len(choice), -np.inf)
    for rank in range(int(count[active].max(initial=0))):
        games = active[count[active] > rank]
        cards = order[games, rank]  # (G,) the rank-th coverable card of each game
        covered, visible = view.covered.copy(), view.visible.copy()
        covered[games, cards] = True
        visible[games, cards] = False
        after = dataclasses.replace(view, identity=players, covered=covered, visible=visible)
        value = best_clue_score(after, games)  # (G,)
        better = value > best[games]
        best[games[better]] = value[better]
        choice[games[better]] = cards[better]
    return choice


def players_side(identity: np.ndarray) -> np.ndarray:
    """The cover view's key seen from the players' side: the virtual team's agents (OWN in
    the cover view) are the other team to them, theirs their own; the rest unchanged."""
    swapped = np.select([identity == OWN, identity == OTHER], [OTHER, OWN], identity)
    return swapped.astype(identity.dtype)


def check_policy(policy: str) -> str:
    """``policy`` if it is one of :data:`POLICIES`, else a one-line error."""
    if policy not in POLICIES:
        raise CodebotsError(f"cover_policy must be one of {', '.join(POLICIES)}, not '{policy}'")
    return policy
