"""Baseline agents: random clues, random guesses, and the oracle guesser (an upper bound)."""

from __future__ import annotations

import numpy as np

from codebots.agents.base import Clues
from codebots.agents.registry import register
from codebots.agents.views import OWN, GuesserView, SpymasterView
from codebots.engine.constants import STOP
from codebots.validity import variant_checker
from codebots.vocab import clue_vocabulary


def random_choice(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``(B,)`` a uniformly random True column of each row of ``mask`` (-1 for empty rows)."""
    noise = rng.random(mask.shape)
    choice = np.where(mask, noise, -1.0).argmax(axis=1)
    return np.where(mask.any(axis=1), choice, -1)


def random_covers(view: SpymasterView, rng: np.random.Generator) -> np.ndarray:
    """Cover a random uncovered agent of the covering team (the baseline virtual team)."""
    return random_choice((view.identity == OWN) & ~view.covered, rng)


@register("spymaster", "random")
class RandomSpymaster:
    """A valid random word from a small real vocabulary, and a number from 1 to 3."""

    uses_rng = True
    name = "random"
    minds = frozenset()  # thinks with no model (codebots.minds)

    def __init__(self, vocabulary_size: int = 2000, max_number: int = 3):
        self.vocabulary = clue_vocabulary(vocabulary_size)  # its 2,000 commonest
        self.max_number = max_number

    def clues(self, view: SpymasterView, rng: np.random.Generator) -> Clues:
        size = len(view.active)
        checker = variant_checker(view.variant, view.words)
        picks = rng.integers(len(self.vocabulary), size=size)
        pending = view.active.copy()
        for _ in range(100):  # redraw words that clash with a visible card
            words = [self.vocabulary[i] for i in picks]
            pending &= ~checker.valid(words, view.cards, view.visible)
            if not pending.any():
                break
            picks = np.where(pending, rng.integers(len(self.vocabulary), size=size), picks)
        own_left = ((view.identity == OWN) & ~view.covered).sum(axis=1)
        high = np.clip(np.minimum(own_left, self.max_number), 1, None)
        numbers = rng.integers(1, high + 1).astype(np.int16)
        return Clues(words=tuple(words), numbers=numbers)

    def covers(self, view: SpymasterView, rng: np.random.Generator) -> np.ndarray:
        return random_covers(view, rng)


@register("guesser", "random", "A random uncovered card; after each guess, stops 30% of the time.")
class RandomGuesser:
    """A random uncovered card; after a guess, stops with probability ``stop_probability``."""

    uses_rng = True
    name = "random"
    minds = frozenset()
    privileged = False

    def __init__(self, stop_probability: float = 0.3):
        self.stop_probability = stop_probability

    def guesses(self, view: GuesserView, rng: np.random.Generator) -> np.ndarray:
        cards = random_choice(view.legal, rng)
        stops = view.can_stop & (rng.random(len(cards)) < self.stop_probability)
        return np.where(stops, STOP, cards)


@register("guesser", "oracle")
class OracleGuesser:
    """Knows the judging side's key: touches only agents, stops when none is left.

    An upper bound for any guesser given the same clues, not a player.
    """

    uses_rng = True
    name = "oracle"
    minds = frozenset()  # reads the key, no model
    privileged = True

    def guesses(self, view: GuesserView, rng: np.random.Generator) -> np.ndarray:
        assert view.secret is not None, "the oracle needs the privileged view"
        targets = view.legal & (view.secret == OWN)
        cards = random_choice(targets, rng)
        # Nothing of ours left: stop if allowed, else (never in practice) any legal card.
        fallback = np.where(view.can_stop, STOP, random_choice(view.legal, rng))
        return np.where(cards >= 0, cards, fallback)
