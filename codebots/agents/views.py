"""What agents see: batched views built from an engine state.

A spymaster sees the key from its own side; a guesser never does (only agents declared
``privileged``, such as the oracle upper bound, get the judging side's key).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from codebots.engine import CLUE, GUESS, SUDDEN_DEATH, DuetState, TeamState
from codebots.engine.constants import BLUE
from codebots.variants import Variant

# Relative identities in views: from the point of view of the side that gives the clue.
OWN, OTHER, BYSTANDER, ASSASSIN = 0, 1, 2, 3


@dataclass(frozen=True)
class SpymasterView:
    """What the clue giver of each game sees."""

    variant: Variant
    words: tuple[str, ...]  # the pool; cards index into it
    cards: np.ndarray  # (B, 25) int32
    identity: np.ndarray  # (B, 25) int8 — OWN/OTHER/BYSTANDER/ASSASSIN for the giver
    covered: np.ndarray  # (B, 25) bool — no longer needs guessing
    visible: np.ndarray  # (B, 25) bool — words that still count for clue validity
    active: np.ndarray  # (B,) bool — games waiting for this agent
    known_wrong: np.ndarray  # (B, 25) bool — the guesser knows these are not our agents
    # (Duet: cards marked bystander from this side)
    team: np.ndarray | None = None  # (B,) team games: the team whose spymaster plays
    # Duet: (B,) bool, the turn of this clue ends with the time bank empty (see last_turn)
    last_turn: np.ndarray | None = None

    def board(self, game: int) -> list[str]:
        return [self.words[i] for i in self.cards[game]]

    @classmethod
    def single(cls, cards, identity, variant: Variant) -> SpymasterView:
        """One board of up to 25 loose cards as a batch of one game (``codebots clue``,
        hand-made test boards): card ``i`` is ``cards[i]`` with ``identity[i]``; the free
        slots hold no card (invisible, covered)."""
        size = len(cards)
        positions = np.zeros((1, 25), dtype=np.int32)
        positions[0, :size] = np.arange(size)
        identities = np.full((1, 25), BYSTANDER, dtype=np.int8)
        identities[0, :size] = identity
        visible = np.zeros((1, 25), dtype=bool)
        visible[0, :size] = True
        active = np.ones(1, dtype=bool)
        known_wrong = np.zeros((1, 25), dtype=bool)
        return cls(
            variant, tuple(cards), positions, identities, ~visible, visible, active, known_wrong
        )


@dataclass(frozen=True)
class GuesserView:
    """What the guesser of each game sees: no key (unless the agent is privileged)."""

    variant: Variant
    words: tuple[str, ...]
    cards: np.ndarray  # (B, 25) int32
    legal: np.ndarray  # (B, 25) bool — cards that may be touched now
    can_stop: np.ndarray  # (B,) bool
    clue_words: tuple[str, ...]  # (B,) the current clue of each game ("" if none)
    clue_number: np.ndarray  # (B,) int16 — the current clue's number
    guesses_made: np.ndarray  # (B,) int16 — this turn
    active: np.ndarray  # (B,) bool
    known_wrong: np.ndarray  # (B, 25) bool — known not to be the judging side's agents
    revealed: np.ndarray  # (B, 25) int8 — public identity of covered cards (OWN/OTHER/
    # BYSTANDER/ASSASSIN for the guessing side; Duet: OWN = found green), -1 while visible
    new_clue: np.ndarray  # (B,) bool — the clue arrived this step (first guess of a turn)
    side: np.ndarray  # (B,) int8 — whose clues these are: the team, or the judging Duet side
    secret: np.ndarray | None = None  # (B, 25) int8 judging side's identities, privileged only
    # Duet: the guesser's own side of the key (it holds that card face up), ASSASSIN/BYSTANDER/
    # OWN = green for the guesser's partner to find; None in team games.
    own_key: np.ndarray | None = None
    # Duet: (B,) bool, the game is in sudden death (no clue: any miss loses); None elsewhere.
    sudden_death: np.ndarray | None = None
    # Duet: (B,) bool, this turn's end empties the time bank, by a stop or by a bystander
    # alike (the last token is mistake-side): sudden death follows either way. None elsewhere.
    last_turn: np.ndarray | None = None


def relative_identity(key: np.ndarray, team: np.ndarray) -> np.ndarray:
    """``(B, 25) int8`` a team-game key seen by ``team``: its agents OWN, the others OTHER."""
    agents = key <= BLUE
    return np.where(agents, (key != team[:, None]).astype(np.int8), key).astype(np.int8)


def giver_identity(state: TeamState | DuetState) -> np.ndarray:
    """``(B, 25) int8`` the key as the side about to act sees it.

    Team games: the acting team (clue giver, or covering team). Duet: the clue giver's side.
    """
    if isinstance(state, DuetState):
        return state.key[np.arange(state.batch_size), state.giver]
    return relative_identity(state.key, state.team)


def judging_side(state: DuetState, guesser: np.ndarray | None = None) -> np.ndarray:
    """``(B,)`` the Duet side that judges the next guess (the giver, or in sudden death the
    partner of the guesser: ``guesser`` (B,) when the players chose, else the default)."""
    default_guesser = np.where(state.greens_left()[:, 1] > 0, 0, 1)
    sudden_guesser = default_guesser if guesser is None else guesser
    return np.where(state.phase == SUDDEN_DEATH, 1 - sudden_guesser, state.giver)


def judging_identity(state: TeamState | DuetState, guesser=None) -> np.ndarray:
    """``(B, 25) int8`` the side that judges the next guess (the oracle's secret)."""
    if isinstance(state, DuetState):
        return state.key[np.arange(state.batch_size), judging_side(state, guesser)]
    return relative_identity(state.key, state.team)


def known_wrong(state: TeamState | DuetState, side: np.ndarray | None) -> np.ndarray:
    """``(B, 25) bool`` cards marked bystander from ``side`` (Duet); none in team games."""
    if isinstance(state, DuetState):
        return state.marked[np.arange(state.batch_size), side]
    return np.zeros(state.covered.shape, dtype=bool)


def revealed_identity(state: TeamState | DuetState) -> np.ndarray:
    """``(B, 25) int8`` what everyone at the table sees of covered cards (-1: not covered).

    Team games: the covered card's colour from the guessing team's side. Duet: OWN for a
    card covered by a green agent, BYSTANDER for one marked from both sides.
    """
    if isinstance(state, DuetState):
        public = np.where(state.found, OWN, BYSTANDER).astype(np.int8)
    else:
        public = relative_identity(state.key, state.team)
    return np.where(state.covered, public, -1).astype(np.int8)


def spymaster_view(variant: Variant, words, state, active: np.ndarray) -> SpymasterView:
    covered = state.covered
    return SpymasterView(
        variant=variant,
        words=words,
        cards=state.cards,
        identity=giver_identity(state),
        covered=covered,
        visible=~covered,
        active=active,
        known_wrong=known_wrong(state, getattr(state, "giver", None)),
        team=None if isinstance(state, DuetState) else state.team,
        last_turn=last_turn(state) if isinstance(state, DuetState) else None,
    )


def guesser_view(
    variant: Variant,
    words,
    state,
    active: np.ndarray,
    clue_words,
    clue_number,
    privileged,
    new_clue: np.ndarray | None = None,
    sudden_guesser: np.ndarray | None = None,
) -> GuesserView:
    """What a guesser sees; ``sudden_guesser`` (B,): in Duet sudden death, the player who
    guesses when the players chose (default: the rule's default guesser)."""
    guessing = state.phase == GUESS
    duet = isinstance(state, DuetState)
    judge = judging_side(state, sudden_guesser) if duet else None  # (B,) whose key decides
    return GuesserView(
        variant=variant,
        words=words,
        cards=state.cards,
        legal=(active & ((state.phase == GUESS) | (state.phase == SUDDEN_DEATH)))[:, None]
        & ~state.covered,
        can_stop=guessing & (state.guesses_made > 0),
        clue_words=tuple(clue_words),
        clue_number=clue_number,
        guesses_made=state.guesses_made,
        active=active,
        known_wrong=known_wrong(state, judge),
        revealed=revealed_identity(state),
        new_clue=np.zeros(len(active), bool) if new_clue is None else new_clue,
        side=(judge if duet else state.team).astype(np.int8),
        secret=judging_identity(state, sudden_guesser) if privileged else None,
        own_key=guesser_key(state, judge),
        sudden_death=(state.phase == SUDDEN_DEATH) if duet else None,
        last_turn=last_turn(state) if duet else None,
    )


def last_turn(state: DuetState) -> np.ndarray:
    """``(B,) bool`` a Duet turn whose end empties the time bank whether the guesser stops or
    touches a bystander (one token left, mistake-side): a miss on a bystander then costs no
    more than stopping, and sudden death follows either way."""
    playing = (state.phase == CLUE) | (state.phase == GUESS)
    return playing & (state.bank == 1) & (state.mistake_tokens >= 1)


def guesser_key(state: TeamState | DuetState, judge: np.ndarray | None = None) -> np.ndarray | None:
    """``(B, 25) int8`` Duet: the guessing player's own side of the key; None in team games.
    ``judge``: the judging side, if the caller has it already."""
    if not isinstance(state, DuetState):
        return None
    judge = judging_side(state) if judge is None else judge
    return state.key[np.arange(state.batch_size), 1 - judge]
