"""Clue validity (RULES §4).

This first version implements rule 1 (one word of letters) and the *strict* rule (no visible
word or word part as a substring of the clue, nor the clue inside one), which is what the
Marvel experts rule and the older bots use. It never lets an invalid clue through under the
real rules, at the price of refusing some valid ones (``potato`` next to HARRY POTTER).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

_ONE_WORD = re.compile(r"^[A-Za-z]{2,}$")


@dataclass(frozen=True)
class Verdict:
    valid: bool
    rule: str = ""  # which rule the clue breaks
    card: str = ""  # the visible card it conflicts with
    reason: str = ""  # a sentence for humans

    def __bool__(self) -> bool:
        return self.valid


def card_parts(card: str) -> tuple[str, ...]:
    """The words of a card, lower-cased (``HARRY POTTER`` -> harry, potter)."""
    return tuple(part.lower() for part in card.split())


def check_clue_strict(clue: str, visible_cards: Sequence[str]) -> Verdict:
    """One word, and no visible word part inside the clue or the clue inside one."""
    if not _ONE_WORD.match(clue):
        return Verdict(False, "one-word", "", f"'{clue}' must be one word of at least 2 letters")
    lowered = clue.lower()
    for card in visible_cards:
        for part in card_parts(card):
            if part in lowered or lowered in part:
                return Verdict(
                    False,
                    "strict-substring",
                    card,
                    f"'{clue}' and the visible card {card} share the letters '{part}'"
                    if part in lowered
                    else f"'{clue}' is inside the visible card {card}",
                )
    return Verdict(True)


def strict_forbid_table(pool: Sequence[str], clue_words: Sequence[str]) -> np.ndarray:
    """``(P, V) bool``: clue ``v`` is forbidden while pool card ``p`` is visible."""
    table = np.zeros((len(pool), len(clue_words)), dtype=bool)
    lowered = [word.lower() for word in clue_words]
    for row, card in enumerate(pool):
        parts = card_parts(card)
        table[row] = [any(p in w or w in p for p in parts) for w in lowered]
    return table


class ClueJudge:
    """Batched verdicts for clue words on the boards of a pool.

    Keeps one column per distinct clue word (``(P,) bool``: forbidden while pool card ``p``
    is visible), computed on first use from the single-clue check, so a batch of verdicts is
    a gather plus an OR and always agrees with :func:`check_clue_strict`.
    """

    def __init__(self, pool: Sequence[str]):
        self.pool = tuple(pool)
        self._parts = [card_parts(card) for card in self.pool]
        self._ids: dict[str, int] = {}
        self._columns: list[np.ndarray] = []
        self._table = np.zeros((len(self.pool), 0), dtype=bool)

    def _column(self, word: str) -> np.ndarray:
        if not _ONE_WORD.match(word):
            return np.ones(len(self.pool), dtype=bool)
        lowered = word.lower()
        return np.array(
            [any(p in lowered or lowered in p for p in parts) for parts in self._parts],
            dtype=bool,
        )

    def word_ids(self, words: Sequence[str]) -> np.ndarray:
        """``(B,) intp`` column ids of ``words``, adding columns for new words."""
        ids = np.empty(len(words), dtype=np.intp)
        for i, word in enumerate(words):
            index = self._ids.get(word)
            if index is None:
                index = self._ids[word] = len(self._columns)
                self._columns.append(self._column(word))
            ids[i] = index
        if self._table.shape[1] != len(self._columns):
            self._table = np.stack(self._columns, axis=1)
        return ids

    def valid(self, words: Sequence[str], cards: np.ndarray, visible: np.ndarray) -> np.ndarray:
        """``(B,) bool`` for clue ``words[b]`` on board ``cards[b]`` with ``visible[b]``."""
        ids = self.word_ids(words)
        forbidden = self._table[cards, ids[:, None]]  # (B, 25)
        return ~(forbidden & visible).any(axis=1)


@functools.lru_cache(maxsize=8)
def judge_for(pool: tuple[str, ...]) -> ClueJudge:
    """The shared :class:`ClueJudge` of a pool (its columns are reused across runs)."""
    return ClueJudge(pool)
