"""Warning clues: ``word 0`` at the cards that lose the game, for a partner of another mind.

A partner's misses land on the assassin about one time in the number of non-targets left,
whatever the spymaster's own model says (docs/cross-model-notes.md), so instead of only
steering clues away from it the spymaster can tell its partner which card it is, in the
game's own language: ``word 0`` means "none of ours relate to this word". With
``warnings=k`` (single-team games that allow ``0`` clues) the first ``k`` clues of a game are
``word 0`` with the valid word that singles out the deadly card best (its z above every other
visible card's, worst over the models); with ``last_agent_deadly`` the other team's last
agent counts as an assassin too (touching it loses as surely), in the margins and in the
warnings. :class:`WarningClues` is the part of
:class:`codebots.agents.embedding.EmbeddingSpymaster` that does it.
"""

from __future__ import annotations

import numpy as np

from codebots.agents.board_gather import penalty
from codebots.agents.guesser import MEMORY
from codebots.agents.tables import familiar, forbid_for
from codebots.agents.views import ASSASSIN, OTHER, SpymasterView


class WarningClues:
    """Warnings and deadly cards for :class:`~codebots.agents.embedding.EmbeddingSpymaster`
    (it supplies ``tables``, ``_gather``, the clue memory and the options)."""

    def _deadly(self, view: SpymasterView, games: np.ndarray) -> np.ndarray:
        """``(G, 25)`` identities, the other team's last visible agent counted as an
        assassin: touching it ends the game for us as surely (RULES sections 1 and 2)."""
        identity = view.identity[games]
        if not self.last_agent_deadly:
            return identity
        other = (identity == OTHER) & view.visible[games]  # (G, 25)
        last = other & (other.sum(axis=1, keepdims=True) == 1)
        return np.where(last, ASSASSIN, identity).astype(identity.dtype)

    def _warnings(self, view: SpymasterView, games: np.ndarray) -> np.ndarray:
        """``(G,)`` the ``word 0`` warning each game gets instead of a clue, -1 for none: while
        a deadly card (see ``_deadly``) has had fewer than ``warnings`` of them, the valid
        word that singles it out best, so that a partner reading ``0`` as "none of ours"
        keeps away from that card for the rest of the game. Partners of another model misread
        a one-card clue one time in seven; the guesser adds up repeated warnings."""
        deadly = (self._deadly(view, games) == ASSASSIN) & view.visible[games]  # (G, 25)
        warned = self._warned(view, games, deadly)  # (G, 25)
        due = deadly & (warned < self.warnings)  # (G, 25)
        words = np.full(len(games), -1, dtype=np.int64)
        rows = np.flatnonzero(due.any(axis=1))  # only the games with a warning due
        if len(rows):
            # The due card warned about least so far (the first such on the board).
            fewest = np.where(due[rows], warned[rows], np.iinfo(np.int64).max).argmin(axis=1)
            words[rows] = self._warning_words(view, games[rows], fewest)
        return words

    def _warning_words(self, view: SpymasterView, games: np.ndarray, cards: np.ndarray):
        """``(G,)`` for each game, the valid clue id (not given yet in it) that singles out
        board position ``cards[g]`` best: its z above every other visible card's, worst over
        the models; -1 if none of the card's candidate clues is valid."""
        tables = self.tables(view.words)
        main = tables[0]
        rows = np.arange(len(games))
        board, visible = view.cards[games], view.visible[games]  # (G, 25)
        gather = self._gather(view.words, every_candidate=True)
        targets = board[rows, cards]  # (G,) pool ids
        words = gather.neighbours[targets]  # (G, K)
        forbid = forbid_for(view.variant, main)
        ok = ~gather.forbidden(forbid, board, visible, targets[:, None], 1)
        ok &= main.dictionary[words] & familiar(main, words, self.min_zipf)
        given = self._given[games]  # (G, MEMORY), -1 past each game's count
        for slot in range(min(int(self._given_count[games].max(initial=0)), MEMORY)):
            ok &= words != given[:, slot, None]
        others = visible.copy()
        others[rows, cards] = False
        rival_add = penalty(others)[:, :, None]  # (G, 25, 1)
        margin = np.full(words.shape, np.inf, dtype=np.float32)  # (G, K)
        for model in range(len(tables)):
            sims = gather.sims(model, targets[:, None], board)[:, :, 0]  # (G, 25, K)
            rival = (sims + rival_add).max(axis=1)
            margin = np.minimum(margin, sims[rows, cards] - rival)
        best = np.where(ok, margin, -np.inf).argmax(axis=1)
        return np.where(ok.any(axis=1), words[rows, best], -1)

    def _warned(self, view: SpymasterView, games: np.ndarray, deadly: np.ndarray) -> np.ndarray:
        """``(G, 25)`` how many ``0`` clues given so far point at each deadly card (the one
        each word is nearest to): derived from the clues, so a resumed game counts them too."""
        main = self.tables(view.words)[0]
        given = self._given[games]  # (G, MEMORY)
        zero = self._given_zero[games] & (given >= 0) & deadly.any(axis=1, keepdims=True)
        # Only the memory slots holding a "0" clue in some game (the first few) are read.
        slots = np.flatnonzero(zero.any(axis=0))
        given, zero = given[:, slots], zero[:, slots]  # (G, Z)
        z = main.zsims[view.cards[games][:, :, None], np.clip(given, 0, None)[:, None, :]]
        pointed = np.where(deadly[:, :, None], z, -np.inf).argmax(axis=1)  # (G, Z)
        counts = np.zeros(deadly.shape, dtype=np.int64)
        rows = np.repeat(np.arange(len(games))[:, None], len(slots), axis=1)
        np.add.at(counts, (rows[zero], pointed[zero]), 1)
        return counts

    def _away_word(self, view: SpymasterView, game: int) -> int:
        """The valid clue id that best singles out the game's visible assassin (-1: none)."""
        assassins = np.flatnonzero((view.identity[game] == ASSASSIN) & view.visible[game])
        if not len(assassins):
            return -1
        return int(self._warning_words(view, np.array([game]), assassins[:1])[0])


def clues_are_free(variant) -> bool:
    """Warnings are worth their clue only where nothing but the score counts clues: a
    single-team game with ``0`` clues allowed (in classic, Marvel co-op and Duet a clue spent
    is a turn for the other team, a virtual cover or a time token)."""
    return variant.family == "team" and variant.opponent == "none" and variant.zero_clues
