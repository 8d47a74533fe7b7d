"""Duet at the terminal: the choices the rules leave to the players.

Either player may give the first clue; with ``loose_turn_order`` a player may give two clues
in a row (then the other gives one); in sudden death the players guess in any order. The
person chooses with ``pass`` (the AI acts) at the clue or sudden-death prompt, and with
``mine`` when the AI would give the next clue but the person may take it. Each choice is a
``turn`` move in the record, so a resumed game replays it. When one side's greens are all
found, the hand-over (RULES section 3) is said once.
"""

from __future__ import annotations

from codebots.engine import CLUE, GUESS, SUDDEN_DEATH


class InputProblem(ValueError):
    """The person's input cannot be used; the message says why and what to type."""


class DuetChoices:
    """Mixed into :class:`codebots.play.Session` (its ``state``, ``game`` and moves)."""

    def _duet_move(self, phase: int) -> str | None:
        """Duet: the person's move, or "turn" when they may take a clue the AI would give."""
        if self.turn_choice is not None and phase in (CLUE, SUDDEN_DEATH):
            return None if self.turn_choice == "ai" else ("clue" if phase == CLUE else "guess")
        if phase == CLUE:
            if self.state.giver[0] == 0:
                return "clue"
            return "turn" if self.game.legal_givers(self.state)[0, 0] else None
        if phase == GUESS:
            return "guess" if self.state.giver[0] == 1 else None
        return "guess" if self.game.sudden_death_guessers(self.state)[0, 0] else None

    def may_pass(self) -> bool:
        """Duet: the person may let the AI give this clue (or make this sudden-death guess)."""
        if not self.duet or self.turn_choice is not None:
            return False
        phase = int(self.state.phase[0])
        if phase == CLUE:
            return bool(self.game.legal_givers(self.state)[0, 1])
        return phase == SUDDEN_DEATH and bool(self.game.sudden_death_guessers(self.state)[0, 1])

    def human_turn(self, text: str) -> dict:
        """Who acts next where the players may choose: ``ai`` (pass) or ``human`` (mine); at
        the ``turn`` prompt a clue typed straight away takes the turn and gives it."""
        choices = {"pass": "ai", "ai": "ai", "": "ai", "mine": "human", "me": "human"}
        choice = choices.get(text.strip().lower())
        move = self.human_move()
        if move == "turn" and choice is None and len(text.split()) >= 2:
            clue = self.clue_event(text)  # checked before the turn is taken
            self.human_turn("mine")
            return self._human_event(clue)
        if not self.choice_allowed(choice):
            raise InputProblem(self._turn_help(move))
        word = "pass" if choice == "ai" else "mine"
        return self._human_event({"type": "turn", "by": "human", "next": choice, "word": word})

    def choice_allowed(self, choice: str | None) -> bool:
        """Whether the person may now let the AI act (``ai``) or take its clue (``human``)."""
        if choice == "ai":
            return self.may_pass()
        return choice == "human" and self.human_move() == "turn"

    def _turn_help(self, move: str | None) -> str:
        if move == "turn":
            return "type 'mine' to give this clue yourself, or press enter to let the AI give it"
        return "you cannot pass now: the AI may not give this clue (or make this guess)"

    def announcements(self, before: tuple[int, int]) -> list[str]:
        """Duet: the hand-over of RULES 3, said once when one side's greens are all found
        (``before``: each side's greens left before the last move)."""
        if not self.duet or self.done:
            return []
        left = self.state.greens_left()[0]
        lines = []
        if before[0] > 0 and left[0] == 0:
            lines.append("every green on your side is found: the AI gives all the clues now")
        if before[1] > 0 and left[1] == 0:
            lines.append("every green on the AI's side is found: you give all the clues now")
        return lines

    def greens_left(self) -> tuple[int, int]:
        left = self.state.greens_left()[0] if self.duet else (0, 0)
        return int(left[0]), int(left[1])
