"""Two rival spymasters in one seat of the arena: Marvel's three-player game (RULES section 1:
two spymasters share one guesser, who plays for both teams).

``make_agent("spymaster", "glove|minilm")`` is red's spymaster ``glove`` and blue's
``minilm``: each gives its own team's clues (and covers, in the invalid-clue penalty), seeing
only its own games' turns; the one guesser of the pairing guesses for both teams, as the
arena always lets it. The pair's minds are both spymasters' minds.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from codebots.agents.base import Clues, uses_rng

SEPARATOR = "|"


class Rivals:
    """Red's and blue's spymasters; each answers for the games where its team is to play."""

    def __init__(self, red, blue):
        self.red, self.blue = red, blue
        self.name = f"{red.name}{SEPARATOR}{blue.name}"
        self.minds = frozenset(getattr(red, "minds", ())) | frozenset(getattr(blue, "minds", ()))
        self.vocabulary = getattr(red, "vocabulary", None)

    @property
    def uses_rng(self) -> bool:
        return uses_rng(self.red) or uses_rng(self.blue)

    def begin(self, size: int) -> None:
        for agent in (self.red, self.blue):
            if hasattr(agent, "begin"):
                agent.begin(size)

    def _parts(self, view):
        """``(agent, its view)`` for each team with games to play in ``view``."""
        if view.team is None:
            raise ValueError("rival spymasters play team games (the view names no team)")
        for team, agent in enumerate((self.red, self.blue)):
            mask = view.active & (view.team == team)
            if mask.any():
                yield agent, dataclasses.replace(view, active=mask), mask

    def clues(self, view, rng: np.random.Generator) -> Clues:
        size = len(view.active)
        words, numbers = [""] * size, np.zeros(size, dtype=np.int16)
        targets: list[tuple[int, ...]] = [()] * size
        for agent, part, mask in self._parts(view):
            given = agent.clues(part, rng)
            for game in np.flatnonzero(mask):
                words[game] = given.words[game]
                numbers[game] = given.numbers[game]
                targets[game] = given.targets[game] if given.targets else ()
        return Clues(words=tuple(words), numbers=numbers, targets=tuple(targets))

    def covers(self, view, rng: np.random.Generator) -> np.ndarray:
        cards = np.full(len(view.active), -1, dtype=np.int64)
        for agent, part, mask in self._parts(view):
            cards = np.where(mask, agent.covers(part, rng), cards)
        return cards

    def tables(self, words):
        return self.red.tables(words)


def split_rivals(name: str) -> tuple[str, str] | None:
    """``("glove", "minilm")`` for ``"glove|minilm"``; None for one spymaster's name."""
    if SEPARATOR not in name:
        return None
    red, _, blue = name.partition(SEPARATOR)
    return red.strip(), blue.strip()
