"""What a spymaster learns about its partner by watching it guess.

A :class:`PartnerMemory` holds one correction, in z units, per (card, clue word): after a
clue aimed at a card the partner touched, the pair gains ``hit``; after one it did not
touch, it gains ``miss`` (negative); a card the partner touched that was not aimed at gains
``threat`` for that clue. An :class:`~codebots.agents.embedding.EmbeddingSpymaster` given the
memory (``partner=``) adds the correction to its own similarities, under every model it
uses: a pair its partner missed is no longer a good clue, a card its partner took for a clue
now blocks the clue, and a pair that worked is preferred.

This is partner modelling from behaviour: the spymaster never sees its partner's model,
only the cards it touched (on other boards of the same card pool; the corrections are per
card word, so they carry over to any board of the pool). The memory learns from the turn
log of :func:`codebots.arena.play` (:func:`codebots.arena.watch` plays and learns);
``experiments/partner_adaptation.py`` measures how the win rate grows with the number of
games watched (docs/cross-model-notes.md).
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import numpy as np

from codebots.errors import CodebotsError
from codebots.files import atomic_write

HIT, MISS, THREAT = 1.5, -5.0, 5.0  # z units (tuned on seeds 100000 and up, not the tables)
ROUND = 1000  # games per learning round: the memory is updated after each


class PartnerMemory:
    """Corrections ``(P, V)`` float32 for the cards of ``pool`` and the clue ``vocabulary``."""

    def __init__(
        self,
        pool: tuple[str, ...],
        vocabulary: tuple[str, ...],
        hit: float = HIT,
        miss: float = MISS,
        threat: float = THREAT,
    ):
        self.pool = tuple(pool)
        self.vocabulary = tuple(vocabulary)
        self.hit, self.miss, self.threat = hit, miss, threat
        self.correction = np.zeros((len(self.pool), len(self.vocabulary)), dtype=np.float32)
        self._card_index = {word: i for i, word in enumerate(self.pool)}
        self._clue_index = {word: i for i, word in enumerate(self.vocabulary)}
        self.turns_seen = 0

    def observe(self, turn_log: list[dict]) -> None:
        """Learn from turns logged by :func:`codebots.arena.play` (``turn_log=``): each holds
        the clue, its intended targets and the cards the partner touched, as words."""
        for turn in turn_log:
            clue = self._clue_index.get(turn["clue"])
            if clue is None or not turn.get("valid", True):
                continue  # another spymaster's clue word, or a clue that got no guess
            if turn.get("number") == 0:
                continue  # "none of ours": the partner guessed away from the word, not by it
            self.turns_seen += 1
            targets, guesses = set(turn["targets"]), set(turn["guesses"])
            for word in targets:
                change = self.hit if word in guesses else self.miss
                self.correction[self._card(word), clue] += change
            for word in guesses - targets:
                self.correction[self._card(word), clue] += self.threat

    def _card(self, word: str) -> int:
        if word not in self._card_index:
            raise CodebotsError(
                f"card '{word}' is not in this partner memory's pool; build the memory for "
                "the pool the games are played on"
            )
        return self._card_index[word]

    def check_fits(self, pool: tuple[str, ...], vocabulary: tuple[str, ...]) -> None:
        """A one-line error unless this memory was built for ``pool`` and ``vocabulary``."""
        if tuple(pool) != self.pool:
            raise CodebotsError(
                "the partner memory was learned on another card pool; learn one for this pool"
            )
        if tuple(vocabulary) != self.vocabulary:
            raise CodebotsError(
                "the partner memory was learned with another clue vocabulary; learn it with "
                "the spymaster that uses it"
            )

    def save(self, path: str | os.PathLike) -> Path:
        """Write the memory (its non-zero corrections) to an ``.npz`` file, atomically."""
        rows, columns = np.nonzero(self.correction)

        def write(temporary):
            with open(temporary, "wb") as handle:
                np.savez_compressed(
                    handle,
                    pool=np.array(self.pool),
                    vocabulary=np.array(self.vocabulary),
                    rows=rows.astype(np.int32),
                    columns=columns.astype(np.int32),
                    values=self.correction[rows, columns],
                    settings=np.array([self.hit, self.miss, self.threat, self.turns_seen]),
                )

        return atomic_write(path, write)

    @classmethod
    def load(cls, path: str | os.PathLike) -> PartnerMemory:
        """Read a memory written by :meth:`save`."""
        try:
            with np.load(path) as data:
                hit, miss, threat, turns_seen = data["settings"].tolist()
                memory = cls(
                    tuple(data["pool"].tolist()),
                    tuple(data["vocabulary"].tolist()),
                    hit,
                    miss,
                    threat,
                )
                memory.correction[data["rows"], data["columns"]] = data["values"]
        except (OSError, KeyError, ValueError, IndexError, EOFError, zipfile.BadZipFile) as error:
            raise CodebotsError(
                f"cannot read partner memory {path} ({type(error).__name__}: {error}); "
                "learn a new one with codebots watch"
            ) from None
        memory.turns_seen = int(turns_seen)
        return memory
