"""Duet bonuses at the terminal (RULES section 3.1), for the person and the AI.

The person, where the mission holds the bonus: a two-word clue (London, ``pet shop 3``),
``mark CARD`` before a clue to mark one of their own bystanders with an extra token
(Hogsmeade), and ``CARD + CARD`` to touch two cards at once, the AI giver keeping the better
(Hogwarts). The AI uses the marks and the two-card touches by the policies of
:mod:`codebots.bonus_moves`. Every use is part of its move in the record (``two_word``,
``mark``, ``second``) and checked again by the engine on resume.
"""

from __future__ import annotations

import numpy as np

from codebots.bonus_moves import bonus_clues, bonus_uses, marks, seconds
from codebots.engine import GUESS, UNLIMITED
from codebots.engine.constants import BYSTANDER
from codebots.play.duet_choices import InputProblem
from codebots.validity import variant_checker

BONUS_NAMES = {
    "two_word_left": "two-word clues",
    "touch_two_left": "touch two",
    "mark_left": "mark a bystander",
    "double_left": "two clues in a turn",
    "forgiveness_left": "a forgiven sudden-death miss",
}


class Bonuses:
    """Mixed into :class:`codebots.play.Session`."""

    pending_mark: int = -1  # the person's bystander to mark with their next clue

    def bonuses_held(self) -> str:
        """The bonuses still to spend in this game, as text ("" if none)."""
        if not self.duet:
            return ""
        held = [
            f"{name} {int(getattr(self.state, counter)[0])}"
            for counter, name in BONUS_NAMES.items()
            if int(getattr(self.state, counter)[0]) > 0
        ]
        return ", ".join(held)

    def human_mark(self, text: str) -> dict:
        """``mark CARD``: the person's own bystander to mark before their next clue."""
        if not self.duet or int(self.state.mark_left[0]) == 0:
            raise InputProblem("no mark bonus in this game (the Hogsmeade missions have one)")
        card = self.find_card(text.split(maxsplit=1)[1] if " " in text.strip() else "")
        state = self.state
        if int(state.bank[0]) < 2:
            raise InputProblem("a mark needs two tokens in the bank (one for the mark)")
        if state.key[0, 0, card] != BYSTANDER or state.covered[0, card]:
            raise InputProblem(f"{self.card_word(card)} is not one of your visible bystanders")
        if state.marked[0, 0, card]:
            raise InputProblem(f"{self.card_word(card)} is already marked from your side")
        self.pending_mark = card
        word = self.card_word(card)
        return {"type": "note", "word": f"{word} will be marked with your clue (a token)"}

    def _clue_bonuses(self, event: dict, words: list[str]) -> dict:
        """The person's clue with its bonuses: two words (London), a pending mark."""
        if len(words) == 2:
            event["two_word"] = True
        if self.pending_mark >= 0:
            event.update(mark=self.pending_mark, mark_word=self.card_word(self.pending_mark))
        return event

    def double_clue_event(self, text: str) -> dict:
        """``ocean 2, music 1``: two clues in one turn (the reward bonus), one move. The AI
        guesser reads them as one clue of both words for both numbers of cards."""
        if int(self.state.double_left[0]) == 0:
            raise InputProblem(
                "no 'two clues in one turn' bonus in this game (a reward: spend it with "
                "--use-bonus double_clues)"
            )
        parts = [part.strip() for part in text.split(",")]
        if len(parts) != 2 or not all(len(part.split()) >= 2 for part in parts):
            raise InputProblem("two clues in one turn: 'word number, word number'")
        first, second = (self.clue_event(part) for part in parts)
        numbers = (first["number"], second["number"])
        event = {
            **first,
            "word": f"{first['word']} {second['word']}",
            "number": UNLIMITED if UNLIMITED in numbers else sum(numbers),
            "valid": first["valid"] and second["valid"],
            "double": True,
            "clues": [[first["word"], numbers[0]], [second["word"], numbers[1]]],
        }
        event.pop("two_word", None)
        return event

    def two_words_allowed(self) -> bool:
        return self.duet and int(self.state.two_word_left[0]) > 0

    def human_pair(self, text: str) -> dict:
        """``CARD + CARD``: touch two cards at once (Hogwarts); the giver keeps the better."""
        if not self.duet or int(self.state.touch_two_left[0]) == 0:
            raise InputProblem("no touch-two bonus in this game (the Hogwarts missions have two)")
        if self.state.phase[0] != GUESS:
            raise InputProblem("two cards at once only during a clue's guesses")
        first, second = (self.find_card(part) for part in text.split("+", 1))
        if first == second:
            raise InputProblem("name two different cards")
        for card in (first, second):
            if self.state.covered[0, card]:
                raise InputProblem(f"{self.card_word(card)} is already covered")
        event = {"type": "guess", "by": "human", "card": first, "word": self.card_word(first)}
        event.update(second=second, second_word=self.card_word(second))
        return self._human_event(event)

    def used_rewards(self, spend: list[str]) -> list[str]:
        """The reward bonuses of ``spend`` this finished game used (as the simulated
        campaign counts them: :func:`codebots.campaign.used_bonuses`)."""
        from codebots.campaign import used_bonuses
        from codebots.engine.constants import END_REASON_NAMES

        uses = {name: int(value[0]) for name, value in bonus_uses(self.spec, self.state).items()}
        row = {**uses, "end": END_REASON_NAMES[int(self.state.end_reason[0])]}
        return used_bonuses(spend, row)

    def counted_card(self, event: dict) -> int:
        """The card a two-card touch counts (the giver's better one: green, then bystander)."""
        card, second = event["card"], event.get("second", -1)
        if second < 0:
            return card
        judge = int(self.state.giver[0])
        key = self.state.key[0, judge]
        return second if key[second] < key[card] else card

    def ai_clue_bonuses(self, event: dict, view, clues) -> dict:
        """The AI giver's bonuses with its clue, by the arena's policies
        (:mod:`codebots.bonus_moves`): a mark, a two-word clue, two clues in one turn."""
        mark = int(marks(self.spymaster, view, clues.words, self.state)[0])
        if mark >= 0:
            event.update(mark=mark, mark_word=self.card_word(mark))
        checker = variant_checker(self.spec, self.words)
        words, numbers, two_word, double = bonus_clues(
            self.spymaster, view, clues, self.state, checker
        )
        first, number = event["word"], int(clues.numbers[0])
        if two_word[0]:
            event.update(word=words[0], number=int(numbers[0]), two_word=True)
        elif double[0]:
            pair = [[first, number], [words[0].split()[-1], int(numbers[0]) - number]]
            event.update(word=words[0], number=int(numbers[0]), double=True, clues=pair)
        return event

    def ai_guess_bonuses(self, event: dict, view) -> dict:
        """The AI guesser's bonuses with its guess: a second card touched at once."""
        if event["card"] < 0:
            return event
        second = int(seconds(self.guesser, view, np.array([event["card"]]), self.state)[0])
        if second >= 0:
            event.update(second=second, second_word=self.card_word(second))
        return event
