"""The AI giver's Duet choices (RULES section 3), for the embedding spymasters.

- The looser turn order: :func:`offer`, how many cards its next clue would aim at.
- Hogsmeade's mark: :func:`mark_card`, one of its own bystanders to mark before a clue.

- London's two-word clue: a one-card clue becomes a two-card one when a second word, the
  nearest valid clue of another of the giver's greens, makes the pair single out both cards
  under every mind (their z over the visible cards beats every other visible card's by
  ``TWO_WORD_MARGIN``): ``sea`` for WHALE and ``pie`` for APPLE give ``sea pie 2``.
- The reward "two clues in one turn", when the bank is down to ``DOUBLE_MAX_BANK`` tokens
  (each turn costs one): a second clue, chosen as usual with the first clue's targets counted
  as cards to avoid, is given in the same turn (``w1 w2``, both numbers: the partner reads the
  pair as one clue of both words).

Both return the games' clue words, numbers and intended targets, with the flags the engine
spends the bonus by; nothing is remembered (the spymaster's memory keeps the first word).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from codebots.agents.tables import familiar
from codebots.agents.views import BYSTANDER, OWN

MARK_Z = 2.0  # Hogsmeade bonus: mark a bystander the clue is at least this near (z units)
SCORE_BLOCK = 64  # games scored at once
TWO_WORD_MARGIN = 0.5  # z units: the pair's weaker target over the best other visible card
SECOND_WORDS = 10  # nearest valid clue words tried for the second target
DOUBLE_MAX_BANK = 3  # two clues in one turn once the bank is this low


def offer(spymaster, view) -> np.ndarray:
    """``(B,)`` how many cards the spymaster's next clue would aim at (0 for inactive games),
    with nothing remembered: what a player says when the turn order lets both give a clue."""
    counts = np.zeros(len(view.active), dtype=np.int64)
    active = np.flatnonzero(view.active)
    for games in np.array_split(active, -(-len(active) // SCORE_BLOCK)):
        counts[games] = spymaster._choose(view, games)[1]
    return counts


def mark_card(spymaster, view, words) -> np.ndarray:
    """``(B,)`` one of the giver's own bystanders to mark before the clue ``words[b]``, or
    -1: the visible unmarked bystander the clue is nearest to, when a partner would plausibly
    guess it (z at least ``MARK_Z`` under every mind): a mark costs a token."""
    tables = spymaster.tables(view.words)
    clue_ids = np.array([tables[0].clue_index.get(w, -1) for w in words])  # (B,)
    free = (view.identity == BYSTANDER) & view.visible & ~view.known_wrong & ~view.covered
    z = np.full(view.cards.shape, np.inf, dtype=np.float32)  # (B, 25) worst over minds
    for table in tables:
        z = np.minimum(z, table.zsims[view.cards, np.clip(clue_ids, 0, None)[:, None]])
    z = np.where(free, z, -np.inf)
    use = view.active & (clue_ids >= 0) & (z.max(axis=1) >= MARK_Z)
    return np.where(use, z.argmax(axis=1), -1)


def _z(tables, cards: np.ndarray, visible: np.ndarray, vector_of) -> np.ndarray:
    """``(25,)`` worst-over-minds z of each card for a clue vector (one per table)."""
    worst = np.full(len(cards), np.inf)
    for table in tables:
        sims = table.card_vectors[cards] @ vector_of(table)  # (25,)
        mean, spread = sims[visible].mean(), max(sims[visible].std(), 1e-6)
        worst = np.minimum(worst, (sims - mean) / spread)
    return worst


def two_word_clue(spymaster, view, game: int, word: str, target: int):
    """``(words, targets)`` of a two-word clue extending the one-card clue ``word`` (aimed at
    board position ``target``) in ``game``, or None."""
    tables = spymaster.tables(view.words)
    main = tables[0]
    first = main.clue_index.get(word, -1)
    cards, visible = view.cards[game], view.visible[game]
    others = np.flatnonzero((view.identity[game] == OWN) & visible)
    best = None
    for other in others[others != target]:
        neighbours = main.neighbours[cards[other], :SECOND_WORDS]
        forbidden = main.forbid.forbidden(cards[None], visible[None], neighbours[None])[0]
        usable = ~forbidden & familiar(main, neighbours, spymaster.min_zipf)
        for second in neighbours[usable]:
            if second == first or first < 0:
                continue

            def pair(table, second=second):
                vector = table.clue_vectors[first] + table.clue_vectors[second]
                return vector / max(np.linalg.norm(vector), 1e-9)

            z = _z(tables, cards, visible, pair)
            rivals = visible.copy()
            rivals[[target, other]] = False
            margin = min(z[target], z[other]) - z[rivals].max()
            if margin >= TWO_WORD_MARGIN and (best is None or margin > best[0]):
                best = (margin, main.vocabulary[second], other)
    if best is None:
        return None
    return f"{word} {best[1]}", (target, int(best[2]))


def second_clue(spymaster, view, game: int, targets: tuple[int, ...]):
    """``(word, number, targets)`` of a second clue for ``game``, avoiding the first clue's
    ``targets``, or None."""
    identity = view.identity.copy()
    identity[game, list(targets)] = BYSTANDER  # the first clue's cards: keep clear of them
    active = np.zeros(len(view.active), dtype=bool)
    active[game] = True
    seen = dataclasses.replace(view, identity=identity, active=active)
    if not ((identity[game] == OWN) & view.visible[game]).any():
        return None
    clue_ids, numbers, aims, _, fell_back = spymaster._choose(seen, np.array([game]))
    if fell_back[0]:
        return None
    word = spymaster.tables(view.words)[0].vocabulary[int(clue_ids[0])]
    return word, int(numbers[0]), tuple(aims[0])
