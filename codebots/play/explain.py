"""What the terminal says about moves: outcomes, the result, and how the AI saw the game."""

from __future__ import annotations

import numpy as np

from codebots.engine import GUESS, UNLIMITED
from codebots.engine.constants import END_ASSASSIN, END_REASON_NAMES, END_SUDDEN_DEATH_MISS
from codebots.render import number_text


class Explaining:
    """Mixed into :class:`codebots.play.Session` (its agents, ``state`` and ``events``)."""

    def _reads(self, word: str) -> bool:
        """Whether the AI guesser knows the clue word (agents without a model: always)."""
        reads_clue = getattr(self.guesser, "reads_clue", None)
        return reads_clue is None or reads_clue(self.words, word)

    def _margin(self, view, word: str, number: int) -> float | None:
        if not hasattr(self.spymaster, "top_clues"):
            return None
        for row in self.spymaster.top_clues(view, 0, 20):
            if row["clue"] == word:
                return round(row["margin"], 3)
        return None

    def _agreeing(self, view, word: str, targets) -> list[str]:
        """The AI spymaster's minds for which the clue singles out its targets."""
        if not hasattr(self.spymaster, "agreeing_minds"):
            return []
        return self.spymaster.agreeing_minds(view, 0, word, targets)

    def clue_in_play(self) -> str:
        """The clue being guessed now, as shown ("OCEAN 2"); "" while none is: a clue to
        give (the last one is over), cards to cover, sudden death, the end."""
        if not self.clue_word or int(self.state.phase[0]) != GUESS:
            return ""
        return f"{self.clue_word.upper()} {number_text(self.clue_number)}"

    def _runner_up(self, card: int) -> list[str]:
        """The guesser's next choices after ``card``, as its last guess ranked the cards (no
        revealed card, none its own side shows wrong), for explanations; [] for guessers
        without a ranking."""
        ranking = getattr(self.guesser, "ranking", None)
        if ranking is None or not self.clue_word:
            return []
        scores = ranking(0)  # (25,)
        if card >= 0:
            scores[card] = -np.inf
        order = np.argsort(-scores, kind="stable")[:2]
        return [self.card_word(int(i)) for i in order if np.isfinite(scores[i])]

    def outcome(self, event: dict) -> str:
        """What the move just applied revealed, in words ("" for clues and stops)."""
        if event["type"] == "clue":
            return "" if event.get("valid", True) else "invalid: penalty"
        card = event.get("counted", event.get("card", -1))  # a two-card touch: the kept one
        if card < 0:
            return ""
        if self.duet:
            if self.state.found[0, card]:
                return "green agent"
            hit_assassin = self.done and self.state.end_reason[0] == END_ASSASSIN
            return "assassin" if hit_assassin else "bystander"
        names = {0: "red agent", 1: "blue agent", 2: "bystander", 3: "assassin"}
        return names[int(self.state.key[0, card])]

    def losing_card(self) -> str:
        """Duet, a lost game: the card that lost it and what it was on each side ("" else)."""
        if not self.duet or not self.done or int(self.state.winner[0]) == 0:
            return ""
        guesses = [e for e in self.events if e["type"] == "guess" and e.get("card", -1) >= 0]
        if not guesses or self.state.end_reason[0] not in (END_ASSASSIN, END_SUDDEN_DEATH_MISS):
            return ""
        last = guesses[-1]
        card = last.get("counted", last["card"])
        names = {0: "green", 2: "bystander", 3: "assassin"}
        sides = [names[int(self.state.key[0, side, card])] for side in (0, 1)]
        who = "you" if last["by"] == "human" else "the AI"
        return (
            f"lost on {self.card_word(card)}, touched by {who}: {sides[0]} on your side, "
            f"{sides[1]} on the AI's"
        )

    def result_text(self) -> str:
        reason = END_REASON_NAMES[int(self.state.end_reason[0])]
        winner = int(self.state.winner[0])
        if self.duet or self.spec.opponent != "team":
            verdict = "You won" if winner == 0 else "You lost"
        else:
            verdict = "Red won" if winner == 0 else "Blue won"
        score = self.game.score(self.state)[0]
        extra = "" if np.isnan(score) else f", score {score:g}"
        return f"{verdict} ({reason}{extra})."

    def explanations(self) -> list[str]:
        lines = []
        for event in self.events:
            if event.get("by") != "ai":
                continue
            if event["type"] == "clue":
                number = "unlimited" if event["number"] == UNLIMITED else event["number"]
                margin = "" if event.get("margin") is None else f", margin {event['margin']:+.3f}"
                meant = ", ".join(event.get("targets", []))
                if number == 0:  # a warning: its word points at cards to avoid
                    meant = f"{meant}, away from the word's cards" if meant else "a warning"
                minds = event.get("minds")
                agreed = "" if minds is None else f"; minds agreeing: {', '.join(minds) or 'none'}"
                lines.append(f"clue {event['word']} {number}: meant {meant or '?'}{margin}{agreed}")
            elif event["type"] == "guess" and event["card"] >= 0:
                runner = ", ".join(event.get("runner_up", [])) or "-"
                lines.append(
                    f"guess {event['word']} ({event.get('result', '')}); next choices: {runner}"
                )
        return lines
