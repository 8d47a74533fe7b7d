"""A seeded random driver for the batched engine, shared by the property tests.

It plays batches with mostly legal, sometimes illegal actions (covered cards, STOP before a
guess, actions sent in the wrong phase, bonuses not held), so every rule and every illegal
path gets exercised. ``on_step`` sees each ``(before, action kind, action, after)``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from codebots.engine import (
    BYSTANDER,
    CLUE,
    COVER,
    GREEN,
    GUESS,
    NO_ACTION,
    PASS,
    STOP,
    SUDDEN_DEATH,
    ClueAction,
    CoverAction,
    DuetState,
    GuessAction,
    make,
)

MAX_ROUNDS = 500
RARE = 0.002  # chance per game and step of each kind of illegal action


def _pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random True column per row (0 for rows without one)."""
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)


def _rare(rng, size) -> np.ndarray:
    return rng.random(size) < RARE


def _sent(state, phase_mask, rng, values) -> np.ndarray:
    """Values for games in the right phase, now and then one in a wrong phase."""
    return np.where(phase_mask | _rare(rng, state.batch_size), values, NO_ACTION)


def clue_action(game, state, rng) -> ClueAction:
    size = state.batch_size
    spec = game.variant
    numbers = rng.choice(
        [-1, 0, 1, 2, 3, 4, 9], size=size, p=[0.05, 0.05, 0.35, 0.25, 0.15, 0.1, 0.05]
    )
    allowed = np.ones(size, bool)
    if not isinstance(state, DuetState):
        allowed = ((numbers != 0) | spec.zero_clues) & ((numbers != -1) | spec.unlimited_clues)
    numbers = np.where(allowed | _rare(rng, size), numbers, 1)
    numbers = np.where(_rare(rng, size), 10, numbers)
    number = _sent(state, state.phase == CLUE, rng, numbers)
    valid = rng.random(size) > 0.08
    if not isinstance(state, DuetState):
        return ClueAction(number=number, valid=valid)
    may_name = (state.turns == 0) | spec.loose_turn_order
    giver = np.where(may_name & (rng.random(size) < 0.3), rng.integers(0, 2, size), -1)
    giver = np.where(_rare(rng, size), rng.integers(0, 3, size), giver)
    side = np.where(giver >= 0, np.clip(giver, 0, 1), state.giver)
    rows = np.arange(size)
    bystanders = (state.key[rows, side] == BYSTANDER) & ~state.covered & ~state.marked[rows, side]
    can_mark = (state.mark_left > 0) & (state.bank >= 2) & bystanders.any(axis=1)
    mark = np.where(can_mark & (rng.random(size) < 0.3), _pick(bystanders, rng), -1)
    mark = np.where(_rare(rng, size), rng.integers(0, 25, size), mark)
    two_word = ((state.two_word_left > 0) & (rng.random(size) < 0.3)) | _rare(rng, size)
    double = ((state.double_left > 0) & (rng.random(size) < 0.3)) | _rare(rng, size)
    return ClueAction(
        number=number, valid=valid, giver=giver, two_word=two_word, double=double, mark=mark
    )


def guess_action(game, state, rng) -> GuessAction:
    size = state.batch_size
    rows = np.arange(size)
    open_cards = ~state.covered
    sudden = state.phase == SUDDEN_DEATH
    if isinstance(state, DuetState):
        # Most guesses are informed: a green of the side that judges them.
        finders = state.greens_left()[:, ::-1] > 0  # (B, 2): player p has cards to find
        chosen = np.where(rng.random(size) < 0.5, -1, _pick(finders, rng))
        guesser = np.where(sudden, chosen, -1)
        guesser = np.where(_rare(rng, size), rng.integers(-1, 2, size), guesser)
        default = np.where(finders[:, 0], 0, 1)
        judge = np.where(sudden, 1 - np.where(guesser == -1, default, guesser), state.giver)
        good = (state.key[rows, np.clip(judge, 0, 1)] == GREEN) & open_cards
        second_ok = (state.touch_two_left > 0) & (state.phase == GUESS)
        second = np.where(second_ok & (rng.random(size) < 0.3), _pick(open_cards, rng), -1)
        second = np.where(_rare(rng, size), rng.integers(0, 25, size), second)
    else:
        guesser = second = np.full(size, -1)
        good = (state.key == state.team[:, None]) & open_cards
    informed = (rng.random(size) < 0.6) & good.any(axis=1)
    card = np.where(informed, _pick(good, rng), _pick(open_cards, rng))
    if not isinstance(state, DuetState):  # seek bystanders too, to reach the Gauntlet
        bystanders = (state.key == BYSTANDER) & open_cards
        seek = ~informed & (rng.random(size) < 0.5) & bystanders.any(axis=1)
        card = np.where(seek, _pick(bystanders, rng), card)
    may_stop = (state.phase == GUESS) & (state.guesses_made > 0)
    card = np.where((may_stop & (rng.random(size) < 0.25)) | _rare(rng, size), STOP, card)
    card = np.where(_rare(rng, size) & state.covered.any(axis=1), _pick(state.covered, rng), card)
    card = np.where(_rare(rng, size), 25, card)
    card = _sent(state, (state.phase == GUESS) | sudden, rng, card)
    return GuessAction(card=card, second=second, guesser=guesser)


def cover_action(game, state, rng) -> CoverAction:
    size = state.batch_size
    own = (state.key == state.team[:, None]) & ~state.covered
    card = _pick(own, rng)
    may_pass = game.variant.opponent == "team"
    card = np.where((may_pass & (rng.random(size) < 0.3)) | _rare(rng, size), PASS, card)
    card = np.where(_rare(rng, size), rng.integers(0, 25, size), card)
    return CoverAction(card=_sent(state, state.phase == COVER, rng, card))


Hook = Callable[[object, str, object, object], None]


def play_random(variant: str, seeds, seed: int, on_step: Hook | None = None):
    """Play the games of ``seeds`` with random actions until all end; return the final state."""
    game = make(variant)
    rng = np.random.default_rng(seed)
    state = game.reset(seeds)
    if on_step is not None:
        on_step(None, "init", None, state)
    steps = [("clue", clue_action, game.step_clue), ("guess", guess_action, game.step_guess)]
    if hasattr(game, "step_cover"):
        steps.append(("cover", cover_action, game.step_cover))
    for _ in range(MAX_ROUNDS):
        for kind, policy, step in steps:
            action = policy(game, state, rng)
            after = step(state, action)
            if on_step is not None:
                on_step(state, kind, action, after)
            state = after
        if state.done.all():
            return game, state
    raise AssertionError(f"{variant}: games still running after {MAX_ROUNDS} rounds")
