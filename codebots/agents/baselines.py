"""Baseline agents: random clues, random guesses, the oracle guesser (an upper bound) and the
noisy oracle (a partner of a given agreement, for the bounds of docs/cross-model-notes.md)."""

from __future__ import annotations

import numpy as np

from codebots.agents.base import Clues
from codebots.agents.registry import option_value, register
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


@register(
    "spymaster",
    "random",
    "A valid random word and a number from 1 to 3 (random[number=N]: always N).",
)
class RandomSpymaster:
    """A valid random word from a small real vocabulary, and a number from 1 to 3
    (``random[number=N]``: always N, or the agents left when fewer)."""

    uses_rng = True
    name = "random"
    minds = frozenset()  # thinks with no model (codebots.minds)
    name_options = ("number",)

    def __init__(self, vocabulary_size: int = 2000, max_number: int = 3, number=None):
        self.vocabulary = clue_vocabulary(vocabulary_size)  # its 2,000 commonest
        self.max_number = max_number
        self.number = None if number is None else self.check_options(number)

    @staticmethod
    def check_options(number=None) -> int | None:
        return None if number is None else option_value("random", "number", number, int, 1, 9)

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
        high = np.clip(np.minimum(own_left, self.number or self.max_number), 1, None)
        numbers = high if self.number else rng.integers(1, high + 1)
        return Clues(words=tuple(words), numbers=numbers.astype(np.int16))

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


@register(
    "guesser",
    "noisy-oracle",
    "Reads the key; right with chance F on a clue's first guess, L after "
    "(noisy-oracle[first=F,later=L]).",
)
class NoisyOracle:
    """A partner of a given agreement: reads the key, and each guess lands on an agent with
    probability ``first`` (a clue's first guess) or ``later``, else on a random other card.

    A model of a stranger, not a player: a partner of another mind touches one of the
    giver's agents with a clue's first guess 0.74-0.94 of the time in the timed games and
    with a later one 0.51-0.63, and its misses land nearly uniformly on the other cards
    (docs/cross-model-notes.md). Played with ``random[number=N]`` it gives the
    win rate a pair of that agreement can reach in each variant whatever the clues: the
    bounds behind the cross-play results (``experiments/agreement_bounds.py``). It stops
    once the clue's number of agents is found (one guess for a ``0`` clue, and no limit for
    ``unlimited`` while it is right); in Duet sudden death it guesses with ``later``.
    """

    uses_rng = True
    name = "noisy-oracle"
    minds = frozenset()  # reads the key, no model
    privileged = True
    name_options = ("first", "later")

    def __init__(self, first=0.75, later=None):
        self.first, self.later = self.check_options(first, later)

    @staticmethod
    def check_options(first=0.75, later=None) -> tuple[float, float]:
        first = option_value("noisy-oracle", "first", first, float, 0.0, 1.0)
        if later is not None:
            later = option_value("noisy-oracle", "later", later, float, 0.0, 1.0)
        return first, first if later is None else later

    def guesses(self, view: GuesserView, rng: np.random.Generator) -> np.ndarray:
        assert view.secret is not None, "the noisy oracle needs the privileged view"
        agents = view.legal & (view.secret == OWN)  # (B, 25)
        others = view.legal & ~agents
        sudden = np.zeros(len(agents), bool) if view.sudden_death is None else view.sudden_death
        chance = np.where((view.guesses_made == 0) & ~sudden, self.first, self.later)  # (B,)
        right = (rng.random(len(chance)) < chance) | ~others.any(axis=1)
        cards = np.where(right, random_choice(agents, rng), random_choice(others, rng))
        cards = np.where(cards >= 0, cards, random_choice(view.legal, rng))
        wanted = np.where(view.clue_number < 0, 99, np.maximum(view.clue_number, 1))  # (B,)
        done = view.can_stop & ~sudden & (view.guesses_made >= wanted)
        return np.where(done, STOP, cards)
