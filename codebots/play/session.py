"""One game between a person and the AI: whose move it is, parsing the person's input,
the AI's moves, a JSONL record (:mod:`codebots.game_record`) written atomically after every
move, and resuming a saved game with every recorded move checked.

Roles. Team games: the person plays red as ``guesser`` (an AI spymaster gives the clues), as
``spymaster`` (AI guessers guess), or red's two seats as a ``team`` (two people at one
terminal: the key is shown on clue turns only); blue, the virtual team's covers and the
other AI seats are played by the AI (in Marvel co-op the people cover when they hold the
spymaster's seat).
Duet and missions: the person is player 0 and the AI player 1; they alternate giving clues
and each sees only their own side of the key.
"""

from __future__ import annotations

import difflib
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from codebots import dictionary_vectors
from codebots.engine import (
    CLUE,
    COVER,
    DONE,
    GUESS,
    PASS,
    STOP,
    SUDDEN_DEATH,
    UNLIMITED,
    ClueAction,
    CoverAction,
    DuetState,
    GuessAction,
    make,
)
from codebots.engine.constants import END_ILLEGAL
from codebots.errors import CodebotsError
from codebots.game_record import RECORD_VERSION, create_record, read_record, record_text
from codebots.keys import as_seeds
from codebots.play.bonuses import Bonuses
from codebots.play.duet_choices import DuetChoices, InputProblem
from codebots.play.explain import Explaining
from codebots.render import ROWS
from codebots.report import atomic_write_text
from codebots.validity import CheckOptions, check_clue, variant_checker
from codebots.variants import get_variant
from codebots.vocab import load_pool

ROLES = ("guesser", "spymaster", "team")  # team: people in both red seats
# The AI partner of a person: a person is a stranger to every model, so the cross-play
# agents thinking with every panel mind (codebots.agents.crossplay); on a machine without
# the gcide mind's sources (not Debian), every mind but it, named so in the game's record
# (the start line says what to install).
DEFAULT_AI = "crossplay" if dictionary_vectors.available() else "crossplay[without=gcide]"
PHASE_MOVES = {CLUE: "clue", GUESS: "guess", SUDDEN_DEATH: "guess", COVER: "cover"}


def new_seed() -> int:
    """A fresh board seed for a game whose seed the person left out (the record keeps it)."""
    return secrets.randbelow(10**9)


@dataclass
class Session(DuetChoices, Bonuses, Explaining):
    variant: str
    seed: int
    role: str
    spymaster_name: str
    guesser_name: str
    path: Path | None = None
    penalties: bool = False
    events: list[dict] = field(default_factory=list)
    relaxed: bool = False  # a person's clues by the relaxed rules (names, several words)
    campaign: dict | None = None  # {"path", "mission", "bonuses"} for a mission-log game
    game_id: str = field(default_factory=lambda: secrets.token_hex(8))
    cut_off: int | None = None  # set by load: the line of a cut-off last move it dropped

    def __post_init__(self) -> None:
        from codebots.agents.registry import check_agent

        if self.role not in ROLES:
            raise CodebotsError(f"role must be one of {', '.join(ROLES)}, not '{self.role}'")
        if self.role == "team" and get_variant(self.variant).three_players:
            raise CodebotsError(
                "three players: you are the shared guesser (--role guesser) or red's "
                "spymaster (--role spymaster)"
            )
        check_agent("spymaster", self.spymaster_name)
        check_agent("guesser", self.guesser_name)
        self.spec = get_variant(self.variant)
        self.game = make(self.spec)
        self.words = load_pool(self.spec.pool).words
        self.state = self.game.reset(as_seeds([self.seed]))
        self.duet = isinstance(self.state, DuetState)
        # The AI agents are made when first asked for (a replay never needs them), and then
        # learn every clue given so far (_clues: each with the side it was given to).
        self._agents: dict[str, object] = {}
        self._clues: list[tuple[dict, int]] = []
        self.clue_word, self.clue_number, self.new_clue = "", 0, False
        # Duet: who the person chose to act next ("ai" / "human") where the rules let the
        # players choose (who starts, the looser turn order, sudden death); None: the usual.
        self.turn_choice: str | None = None

    @property
    def spymaster(self):
        return self._agent("spymaster", self.spymaster_name)

    @property
    def guesser(self):
        return self._agent("guesser", self.guesser_name)

    def _agent(self, role: str, name: str):
        if role not in self._agents:
            from codebots.agents import make_agent

            agent = make_agent(role, name)
            if hasattr(agent, "begin"):  # agents with per-game memory
                agent.begin(1)
            self._agents[role] = agent
            for event, side in self._clues:
                self._teach(role, event, side)
        return self._agents[role]

    @property
    def rng(self) -> np.random.Generator:
        """The AI's random choices for the next move: seeded by the game and the move number,
        so a resumed game plays on exactly as it would have without the break."""
        return np.random.default_rng([self.seed, 7, len(self.events)])

    # -- records -------------------------------------------------------------------------

    def header(self) -> dict:
        head = {
            "type": "start",
            "version": RECORD_VERSION,
            "game_id": self.game_id,
            "variant": self.spec.label,
            "seed": self.seed,
            "role": self.role,
            "spymaster": self.spymaster_name,
            "guesser": self.guesser_name,
            "penalties": self.penalties,
            "relaxed": self.relaxed,
        }
        if self.campaign:
            head["campaign"] = self.campaign
        return head

    def start(self) -> None:
        """Write the new game's record; an existing file is never replaced (an error)."""
        if self.path is not None:
            create_record(self.path, record_text(self.header(), self.events))

    def save(self) -> None:
        if self.path is not None:
            atomic_write_text(self.path, record_text(self.header(), self.events))

    @classmethod
    def load(cls, path: str | Path, moves: int | None = None) -> Session:
        """Rebuild a saved game by replaying its record, every move checked (the AI is not
        asked again); only its first ``moves`` moves if given (a replay step). A cut-off last
        line is dropped: :attr:`cut_off` names it."""
        record = read_record(path)
        head = record.header
        session = cls(
            head["variant"],
            head["seed"],
            head["role"],
            head["spymaster"],
            head["guesser"],
            Path(path),
            bool(head.get("penalties")),
            campaign=head.get("campaign"),
            game_id=str(head.get("game_id") or f"{path}:{head['seed']}"),
            relaxed=bool(head.get("relaxed")),
        )
        for move, line in list(zip(record.moves, record.lines))[:moves]:
            session.replay(move, f"{path} line {line}")
        session.cut_off = record.cut_off
        return session

    def replay(self, move: dict, where: str) -> None:
        """Apply one recorded move after checking it is the legal next move of this game."""
        expected = self.human_move()
        if expected == "done":
            raise CodebotsError(f"{where}: a move after the game ended; the record is damaged")
        kind = PHASE_MOVES[int(self.state.phase[0])]
        mover = "ai" if expected is None else "human"
        if move["type"] == "turn" and mover == "human":
            if not self.choice_allowed(move["next"]):
                raise CodebotsError(
                    f"{where}: a choice of who acts next, but the rules leave none here; the "
                    "record is damaged"
                )
            self.apply(move)
            return
        if move["type"] != kind or move["by"] != mover:
            whose = "the AI's" if mover == "ai" else "your"
            raise CodebotsError(
                f"{where}: a {move['type']} by the {move['by']}, but the game waits for "
                f"{whose} {kind}; the record is damaged"
            )
        if kind != "clue":
            card = move["card"]
            if not (card == STOP or 0 <= card < 25):
                raise CodebotsError(f"{where}: card {card} is not on the board (0..24)")
            if card >= 0 and move["word"] != self.card_word(card):
                raise CodebotsError(
                    f"{where}: names {move['word']}, but card {card} is "
                    f"{self.card_word(card)}; the record is damaged"
                )
        self.apply(move)
        forfeit = kind == "clue" and not move.get("valid", True)
        if self.done and self.state.end_reason[0] == END_ILLEGAL and not forfeit:
            raise CodebotsError(
                f"{where}: {move['word']} is not a legal {kind} here; the record is damaged"
            )

    # -- whose move ----------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return bool(self.state.phase[0] == DONE)

    def human_move(self) -> str | None:
        """ "clue", "guess" or "cover" when the person must act; None for the AI; "done"."""
        phase = int(self.state.phase[0])
        if phase == DONE:
            return "done"
        if self.duet:
            return self._duet_move(phase)
        team = int(self.state.team[0])
        ours = team == 0
        gives = self.role in ("spymaster", "team")
        if phase == CLUE:
            return "clue" if ours and gives else None
        if phase == GUESS and self.spec.three_players:  # one guesser for both teams
            return "guess" if self.role == "guesser" else None
        if phase == GUESS:
            return "guess" if ours and self.role in ("guesser", "team") else None
        if phase == COVER:
            players_choose = self.spec.opponent == "virtual" or ours
            return "cover" if players_choose and gives else None
        return None

    # -- applying moves ------------------------------------------------------------------

    def apply(self, event: dict) -> None:
        """Apply one recorded move to the engine and append it to the record."""
        kind = event["type"]
        if kind == "turn":
            self.turn_choice = event["next"]
            self.events.append(event)
            return
        if kind == "clue" or (kind == "guess" and self.state.phase[0] == SUDDEN_DEATH):
            self.turn_choice = None
        if kind == "clue":
            self.state = self.game.step_clue(
                self.state,
                ClueAction(
                    number=event["number"],
                    valid=event.get("valid", True),
                    giver=event.get("giver", -1),
                    two_word=bool(event.get("two_word", False)),
                    double=bool(event.get("double", False)),
                    mark=event.get("mark", -1),
                ),
            )
            self.pending_mark = -1
            self.clue_word, self.clue_number, self.new_clue = event["word"], event["number"], True
            side = int(self.state.giver[0] if self.duet else self.state.team[0])
            self._clues.append((event, side))
            for role in self._agents:
                self._teach(role, event, side)
        elif kind == "guess":
            action = GuessAction(
                card=event["card"], second=event.get("second", -1), guesser=event.get("guesser", -1)
            )
            if "second" in event:  # two cards touched: the giver keeps the better
                event.setdefault("counted", self.counted_card(event))
            self.state = self.game.step_guess(self.state, action)
            self.new_clue = False
        elif kind == "cover":
            self.state = self.game.step_cover(self.state, CoverAction(card=event["card"]))
        else:
            raise CodebotsError(f"unknown move type '{kind}' in the game record")
        self.events.append(event)

    def _teach(self, role: str, event: dict, side: int) -> None:
        """Tell an AI agent about a clue given earlier: a resumed AI never repeats a clue
        and heeds earlier warnings."""
        agent = self._agents[role]
        if role == "spymaster" and hasattr(agent, "remember"):
            aimed = set(event.get("targets") or ())
            positions = tuple(i for i in range(25) if self.card_word(i) in aimed)
            agent.remember(0, event["word"], positions, event["number"])
        if role == "guesser" and hasattr(agent, "remember") and event.get("valid", True):
            # A word the guesser's model lacks was never guessed on by it.
            try:
                agent.remember(0, self.words, event["word"], event["number"], side)
            except CodebotsError:
                pass

    def ai_move(self) -> dict:
        """Let the AI make the next move; returns the recorded event."""
        from codebots.agents.views import guesser_view, spymaster_view

        phase = int(self.state.phase[0])
        active = np.ones(1, bool)
        taken = self.duet and phase == CLUE and self.state.giver[0] == 0  # the person passed
        if phase == CLUE:
            state = self.state.replace(giver=np.ones(1, np.int8)) if taken else self.state
            view = spymaster_view(self.spec, self.words, state, active)
            clues = self.spymaster.clues(view, self.rng)
            word, number = clues.words[0], int(clues.numbers[0])
            checker = variant_checker(self.spec, self.words)
            valid = bool(checker.valid([word], self.state.cards, view.visible)[0])
            targets = [self.card_word(i) for i in (clues.targets[0] if clues.targets else ())]
            event = {
                "type": "clue",
                "by": "ai",
                "word": word,
                "number": number,
                "valid": valid,
                "targets": targets,
                "margin": self._margin(view, word, number),
                "minds": self._agreeing(view, word, clues.targets[0] if clues.targets else ()),
            }
            if taken:
                event["giver"] = 1
            if self.duet:
                event = self.ai_clue_bonuses(event, view, clues)
        elif phase in (GUESS, SUDDEN_DEATH):
            view = guesser_view(
                self.spec,
                self.words,
                self.state,
                active,
                [self.clue_word],
                np.array([self.clue_number], np.int16),
                self.guesser.privileged,
                np.array([self.new_clue]),
                sudden_guesser=np.ones(1, np.int64) if phase == SUDDEN_DEATH else None,
            )
            card = int(self.guesser.guesses(view, self.rng)[0])
            event = {
                "type": "guess",
                "by": "ai",
                "card": card,
                "word": self.card_word(card) if card >= 0 else "STOP",
                "runner_up": self._runner_up(card),
            }
            if self.new_clue and not self._reads(self.clue_word):
                event["note"] = (
                    f"the AI's model has no meaning for '{self.clue_word}': one guess, then it"
                    " stops"
                )
            past = card >= 0 and 0 < self.clue_number <= int(self.state.guesses_made[0])
            if past and view.last_turn is not None and view.last_turn[0]:
                event["note"] = "the last token: a bystander costs no more than a stop now"
            if phase == SUDDEN_DEATH:
                event["guesser"] = 1
            elif self.duet:
                event = self.ai_guess_bonuses(event, view)
        else:
            view = spymaster_view(self.spec, self.words, self.state, active)
            card = int(self.spymaster.covers(view, self.rng)[0])
            event = {
                "type": "cover",
                "by": "ai",
                "card": card,
                "word": self.card_word(card) if card >= 0 else "PASS",
            }
        self._record(event)
        return event

    # -- the person's input --------------------------------------------------------------

    def card_word(self, index: int) -> str:
        return self.words[self.state.cards[0, index]]

    def visible_words(self) -> list[str]:
        return [self.card_word(i) for i in range(25) if not self.state.covered[0, i]]

    def find_card(self, text: str) -> int:
        """A card by grid coordinate (B3) or name (case-insensitive, a unique prefix)."""
        text = text.strip().upper()
        match = re.fullmatch(r"([A-E])([1-5])", text)
        if match:
            return ROWS.index(match.group(1)) * 5 + int(match.group(2)) - 1
        names = [self.card_word(i) for i in range(25)]
        if text in names:
            return names.index(text)
        prefixed = [i for i, name in enumerate(names) if name.startswith(text)]
        if len(prefixed) == 1:
            return prefixed[0]
        if len(prefixed) > 1:
            options = ", ".join(names[i] for i in prefixed)
            raise InputProblem(f"'{text.lower()}' could be {options}: type more letters")
        close = difflib.get_close_matches(text, names, n=1, cutoff=0.75)
        hint = f" — did you mean {close[0]}?" if close else ""
        raise InputProblem(f"no card '{text.lower()}' on the board{hint}")

    def human_clue(self, text: str) -> dict:
        if text.strip().lower() == "pass":
            return self.human_turn("pass")
        if text.strip().lower().split()[:1] == ["mark"]:
            return self.human_mark(text)
        return self._human_event(self.clue_event(text))

    def clue_event(self, text: str) -> dict:
        """The person's clue as a move, checked (an :class:`InputProblem` if it cannot be
        given), not yet made."""
        if "," in text and self.duet:  # the reward "two clues in one turn"
            return self.double_clue_event(text)
        parts = text.strip().split()
        if len(parts) < 2:
            raise InputProblem("give a clue as: word number (e.g. 'ocean 2', 'fruit unlimited')")
        # Normalized before anything sees it: "  Prom 2" and "PROM 2" are the clue prom.
        word, count = " ".join(parts[:-1]).lower(), parts[-1].lower()
        if count in ("unlimited", "inf", "∞"):
            number = UNLIMITED
        elif count.isdigit() and int(count) <= 9:
            number = int(count)
        else:
            raise InputProblem(f"'{parts[-1]}' is not a number 0..9 or 'unlimited'")
        if not self.duet:
            if number == 0 and not self.spec.zero_clues:
                raise InputProblem(f"{self.spec.label} does not allow 0 clues")
            if number == UNLIMITED and not self.spec.unlimited_clues:
                raise InputProblem(f"{self.spec.label} does not allow unlimited clues")
        words = word.split()
        options = CheckOptions(strict=self.spec.experts, relaxed=self.relaxed)
        if len(words) == 2 and self.two_words_allowed():  # London: each word a clue of its own
            verdicts = [check_clue(w, self.visible_words(), options) for w in words]
            verdict = next((v for v in verdicts if not v.valid), verdicts[0])
        else:
            verdict = check_clue(word, self.visible_words(), options)
        if not verdict.valid and not self.penalties:
            raise InputProblem(f"invalid clue: {verdict.reason}")
        event = {
            "type": "clue",
            "by": "human",
            "word": word,
            "number": number,
            "valid": verdict.valid,
        }
        if self.duet and self.state.giver[0] == 1:  # the person took the AI's turn
            event["giver"] = 0
        return self._clue_bonuses(event, words) if self.duet else event

    def human_guess(self, text: str) -> dict:
        if text.strip().lower() == "pass" and self.state.phase[0] == SUDDEN_DEATH:
            return self.human_turn("pass")
        if "+" in text:
            return self.human_pair(text)
        if text.strip().lower() == "stop":
            if self.state.phase[0] == SUDDEN_DEATH:
                raise InputProblem("no stopping in sudden death: guess a card")
            if self.state.guesses_made[0] == 0:
                raise InputProblem("guess at least one card before you stop")
            return self._human_event({"type": "guess", "by": "human", "card": STOP, "word": "STOP"})
        card = self.find_card(text)
        if self.state.covered[0, card]:
            raise InputProblem(f"{self.card_word(card)} is already covered")
        event = {"type": "guess", "by": "human", "card": card, "word": self.card_word(card)}
        if self.state.phase[0] == SUDDEN_DEATH:
            event["guesser"] = 0
        return self._human_event(event)

    def human_cover(self, text: str) -> dict:
        if text.strip().lower() == "pass":
            if self.spec.opponent == "virtual":
                raise InputProblem("the virtual team must cover a card: name one of its agents")
            return self._human_event({"type": "cover", "by": "human", "card": PASS, "word": "PASS"})
        card = self.find_card(text)
        legal = self.game.legal_covers(self.state)[0]
        if not legal[card]:
            raise InputProblem(
                f"{self.card_word(card)} is not an uncovered agent of the team that covers"
            )
        return self._human_event(
            {"type": "cover", "by": "human", "card": card, "word": self.card_word(card)}
        )

    def _human_event(self, event: dict) -> dict:
        self._record(event)
        return event

    def _record(self, event: dict) -> None:
        """Apply a new move, note what it revealed, and save the record."""
        self.apply(event)
        event["result"] = self.outcome(event)
        self.save()
