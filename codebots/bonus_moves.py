"""The Duet bonuses in agents' hands (RULES section 3.1): when an agent spends one.

The engine counts every bonus and checks each use; this module asks the agents that know a
bonus (optional methods, see below) whether to use it now, for the games that still hold it:

- the Hogsmeade bonus (``mark_bystander``): before a clue, the giver spends an extra token to
  mark one of its own bystanders, the one the clue is nearest to (the spymaster's
  ``mark_card(view, words)``), while the bank holds at least ``MARK_MIN_BANK`` tokens;
- the Hogwarts bonus (``touch_two``): the guesser touches two cards at once and the giver keeps
  the better (``second_card(view, cards)``, right after ``guesses``).

Agents without the methods never use them. The London two-word clue and the reward "two
clues in one turn" are a person's (``codebots play``); the agents do not use them yet.
"""

from __future__ import annotations

import numpy as np

from codebots.engine import GUESS

MARK_MIN_BANK = 5  # a mark takes a token: only while the bank is far from sudden death
BONUSES = ("two_word_clues", "double_clues", "touch_two", "mark_bystander",
           "sudden_death_forgiveness")  # fmt: skip
# The state's counter of each bonus still to spend.
COUNTERS = {
    "two_word_clues": "two_word_left",
    "double_clues": "double_left",
    "touch_two": "touch_two_left",
    "mark_bystander": "mark_left",
    "sudden_death_forgiveness": "forgiveness_left",
}


def marks(agent, view, words, state) -> np.ndarray:
    """``(B,)`` the bystander each giving game marks before its clue, -1 for none."""
    none = np.full(len(view.active), -1, dtype=np.int16)
    mark_card = getattr(agent, "mark_card", None)
    holding = view.active & (state.mark_left > 0) & (state.bank >= MARK_MIN_BANK)
    if mark_card is None or not holding.any():
        return none
    return np.where(holding, mark_card(view, words), none).astype(np.int16)


def seconds(agent, view, cards: np.ndarray, state) -> np.ndarray:
    """``(B,)`` the second card each guessing game touches with ``cards``, -1 for none."""
    none = np.full(len(view.active), -1, dtype=np.int16)
    second_card = getattr(agent, "second_card", None)
    holding = view.active & (state.touch_two_left > 0) & (state.phase == GUESS) & (cards >= 0)
    if second_card is None or not holding.any():
        return none
    return np.where(holding, second_card(view, cards), none).astype(np.int16)


def bonus_uses(variant, state) -> dict[str, np.ndarray]:
    """``{"<bonus>_used": (B,) int}``: how many times each bonus was spent in each game."""
    return {
        f"{bonus}_used": getattr(variant, bonus) - getattr(state, COUNTERS[bonus])
        for bonus in BONUSES
    }
