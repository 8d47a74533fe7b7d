"""The Duet bonuses in agents' hands (RULES section 3.1): when an agent spends one.

The engine counts every bonus and checks each use; this module asks the agents that know a
bonus (optional methods, see below) whether to use it now, for the games that still hold it:

- the Hogsmeade bonus (``mark_bystander``): before a clue, the giver spends an extra token to
  mark one of its own bystanders, the one the clue is nearest to
  (:func:`codebots.agents.bonus_clues.mark_card`), while the bank holds at least
  ``MARK_MIN_BANK`` tokens;
- the Hogwarts bonus (``touch_two``): the guesser touches two cards at once and the giver keeps
  the better (``second_card(view, cards)``, right after ``guesses``).

- London's two-word clue and the reward "two clues in one turn": the embedding spymasters
  by :mod:`codebots.agents.bonus_clues` (a one-card clue grown to two cards by a second
  word; a second clue once the bank is low), through :func:`bonus_clues`.

Agents without the methods never use them.
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


def embedding_part(agent):
    """The embedding spymaster that plays Duet for ``agent`` (the cross-play spymaster's
    timed part), or None for agents that make no such choices (random, rivals)."""
    if not hasattr(agent, "_choose"):
        agent = getattr(agent, "timed", None)
    return agent if hasattr(agent, "_choose") else None


def offers(agent, view) -> np.ndarray | None:
    """``(B,)`` how many cards the agent's next clue would aim at, None if it cannot say."""
    from codebots.agents.bonus_clues import offer

    spymaster = embedding_part(agent)
    return None if spymaster is None else offer(spymaster, view)


def marks(agent, view, words, state) -> np.ndarray:
    """``(B,)`` the bystander each giving game marks before its clue, -1 for none."""
    from codebots.agents.bonus_clues import mark_card

    none = np.full(len(view.active), -1, dtype=np.int16)
    spymaster = embedding_part(agent)
    holding = view.active & (state.mark_left > 0) & (state.bank >= MARK_MIN_BANK)
    if spymaster is None or not holding.any():
        return none
    return np.where(holding, mark_card(spymaster, view, words), none).astype(np.int16)


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


def bonus_clues(agent, view, clues, state, checker):
    """``(words, numbers, two_word (B,), double (B,))``: the games' clues after the giver's
    bonus clues, with the engine's flags. Only games still holding a bonus are looked at; a
    bonus clue the checker refuses (any of its words) is not given."""
    from codebots.agents.bonus_clues import DOUBLE_MAX_BANK, second_clue, two_word_clue

    words, numbers = list(clues.words), np.array(clues.numbers, dtype=np.int16)
    size = len(words)
    two_word, double = np.zeros(size, dtype=bool), np.zeros(size, dtype=bool)
    agent = embedding_part(agent)
    holding = view.active & ((state.two_word_left > 0) | (state.double_left > 0))
    if agent is None or not holding.any():
        return words, numbers, two_word, double
    targets = clues.targets or ((),) * size
    for game in np.flatnonzero(holding):
        if state.two_word_left[game] > 0 and numbers[game] == 1 and len(targets[game]) == 1:
            extended = two_word_clue(agent, view, game, words[game], targets[game][0])
            if extended is not None:
                words[game], numbers[game], two_word[game] = extended[0], 2, True
        elif state.double_left[game] > 0 and 0 < state.bank[game] <= DOUBLE_MAX_BANK:
            second = second_clue(agent, view, game, tuple(targets[game]))
            if second is not None and numbers[game] > 0:
                words[game] = f"{words[game]} {second[0]}"
                numbers[game], double[game] = numbers[game] + second[1], True
        bonus = two_word[game] or double[game]
        if bonus and not _all_valid(checker, words[game], state.cards[game], view.visible[game]):
            words[game], numbers[game] = clues.words[game], clues.numbers[game]
            two_word[game] = double[game] = False
    return words, numbers, two_word, double


def _all_valid(checker, clue: str, cards: np.ndarray, visible: np.ndarray) -> bool:
    """Every word of one game's clue is valid on its board (``cards``, ``visible``: (25,))."""
    parts = clue.split() or [clue]
    repeat = len(parts)
    return bool(
        checker.valid(parts, np.tile(cards, (repeat, 1)), np.tile(visible, (repeat, 1))).all()
    )


def words_valid(checker, words, cards: np.ndarray, visible: np.ndarray) -> np.ndarray:
    """``(B,) bool`` every word of each game's clue is valid (two-word and double clues)."""
    valid = checker.valid(list(words), cards, visible)
    for game, word in enumerate(words):
        if len(word.split()) > 1:
            valid[game] = _all_valid(checker, word, cards[game], visible[game])
    return valid
