"""Team games: classic, the single-team benchmark and Marvel co-op (RULES §1–2).

State is a frozen dataclass of arrays; each step returns a new state. Masks, not branches:
every rule is computed for the whole batch and merged with ``np.where``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from codebots import keys
from codebots.engine.actions import ClueAction, CoverAction, GuessAction
from codebots.engine.common import BaseState, card_index, end_games, forfeit, set_cards, where
from codebots.engine.constants import (
    ASSASSIN,
    BLUE,
    BYSTANDER,
    CLUE,
    COVER,
    DONE,
    END_AGENTS,
    END_ASSASSIN,
    END_GAUNTLET,
    GUESS,
    NO_ACTION,
    NO_LIMIT,
    PASS,
    STOP,
    UNLIMITED,
)
from codebots.variants import Variant

# Marvel co-op ranks by score (RULES §1); index 0 is a lost game.
MARVEL_RANKS = (
    "lost",
    "better than losing",
    "getting the hang of it",
    "great teamwork",
    "outstanding effort",
    "pretty incredible",
    "amazing feat",
    "truly amazing",
    "the most amazing",
)


@dataclass(frozen=True)
class TeamState(BaseState):
    key: np.ndarray  # (B, 25) int8 — RED/BLUE/BYSTANDER/ASSASSIN
    covered: np.ndarray  # (B, 25) bool
    team: np.ndarray  # (B,) int8 — the team to act (give the clue, guess, or cover)
    guesses_made: np.ndarray  # (B,) int16 — guesses this turn
    guesses_left: np.ndarray  # (B,) int16 — n+1 minus guesses made, NO_LIMIT for 0/unlimited
    covers_pending: np.ndarray  # (B,) int8 — covering moves still owed in phase COVER

    def agents_left(self, team: np.ndarray) -> np.ndarray:
        """``(B,) int`` uncovered agents of ``team`` (a (B,) team id per game)."""
        return ((self.key == team[:, None]) & ~self.covered).sum(axis=1)


class TeamGame:
    """Rules of one team-game variant; pure step functions over :class:`TeamState`."""

    def __init__(self, variant: Variant):
        if variant.family != "team":
            raise ValueError(f"{variant.id} is not a team game")
        self.variant = variant
        self.opponent = variant.opponent  # "team" | "none" | "virtual"

    # -- setup -------------------------------------------------------------------------------

    def init(self, seeds: np.ndarray, cards: np.ndarray, key: np.ndarray, start: np.ndarray):
        """A batch of new games from dealt cards, keys and starting teams."""
        size = len(seeds)
        zeros = np.zeros(size, dtype=np.int16)
        return TeamState(
            seed=np.asarray(seeds, dtype=np.int64),
            cards=np.asarray(cards, dtype=np.int32),
            phase=np.full(size, CLUE, dtype=np.int8),
            turns=zeros,
            clues=zeros,
            winner=np.full(size, -1, dtype=np.int8),
            end_reason=np.zeros(size, dtype=np.int8),
            key=np.asarray(key, dtype=np.int8),
            covered=np.zeros((size, 25), dtype=bool),
            team=np.asarray(start, dtype=np.int8),
            guesses_made=zeros,
            guesses_left=zeros,
            covers_pending=np.zeros(size, dtype=np.int8),
        )

    # -- helpers -----------------------------------------------------------------------------

    def _loser_winner(self, state: TeamState) -> np.ndarray:
        """Who wins when the acting side loses: the other team, or "the players lost" (1)."""
        if self.opponent == "team":
            return (1 - state.team).astype(np.int8)
        return np.ones(state.batch_size, dtype=np.int8)

    def _end_turn(self, state: TeamState, mask: np.ndarray, after_invalid: np.ndarray):
        """End the turn of the games in ``mask``; ``after_invalid`` marks penalized clues."""
        other = (1 - state.team).astype(np.int8)
        if self.opponent == "team":
            team = where(mask, other, state.team)
            phase = where(mask, np.where(after_invalid, COVER, CLUE), state.phase)
            covers = where(mask & after_invalid, 1, state.covers_pending)
        elif self.opponent == "none":
            team, phase, covers = state.team, where(mask, CLUE, state.phase), state.covers_pending
        else:  # the virtual team covers one agent a turn, two after a penalized clue
            team = where(mask, BLUE, state.team)
            phase = where(mask, COVER, state.phase)
            covers = where(mask, np.where(after_invalid, 2, 1), state.covers_pending)
        return state.replace(
            turns=where(mask, state.turns + 1, state.turns),
            guesses_made=where(mask, 0, state.guesses_made),
            guesses_left=where(mask, 0, state.guesses_left),
            team=team,
            phase=phase,
            covers_pending=covers,
        )

    def reset(self, seeds) -> TeamState:
        """Deal and start one game per seed (see :func:`codebots.keys.deal`)."""
        seeds, cards, key, start = keys.deal(self.variant, seeds)
        return self.init(seeds, cards, key, start)

    # -- steps -------------------------------------------------------------------------------

    def step_clue(self, state: TeamState, action: ClueAction) -> TeamState:
        """Phase CLUE: open the guessing (limit n+1), or apply the invalid-clue rule."""
        number, valid, *_ = action.fields(state.batch_size)
        acting = (number != NO_ACTION) & ~state.done
        in_phase = state.phase == CLUE
        legal_number = (
            ((number >= 1) & (number <= 9))
            | ((number == 0) & self.variant.zero_clues)
            | ((number == UNLIMITED) & self.variant.unlimited_clues)
        )
        rule = self.variant.invalid_clue
        invalid = ~valid & (rule != "accept")
        illegal = acting & ~(in_phase & legal_number & ~(invalid & (rule == "forfeit")))
        ok = acting & ~illegal
        penalized = ok & invalid
        opens = ok & ~penalized
        # n + 1 guesses; a 0 clue has none (expert rule) or one (the 2019 framework's n + 1).
        zero_limit = self.variant.zero_clue_guesses or NO_LIMIT
        limit = np.where(number >= 1, number + 1, np.where(number == 0, zero_limit, NO_LIMIT))
        state = state.replace(
            clues=where(ok, state.clues + 1, state.clues),
            phase=where(opens, GUESS, state.phase),
            guesses_made=where(opens, 0, state.guesses_made),
            guesses_left=where(opens, limit, state.guesses_left),
        )
        state = self._end_turn(state, penalized, after_invalid=penalized)
        return forfeit(state, illegal, self._loser_winner(state))

    def step_guess(self, state: TeamState, action: GuessAction) -> TeamState:
        """Phase GUESS: reveal a card and judge it, or stop after at least one guess."""
        card, *_ = action.fields(state.batch_size)
        rows = np.arange(state.batch_size)
        acting = (card != NO_ACTION) & ~state.done
        in_phase = state.phase == GUESS
        in_range, column = card_index(card)
        stop = in_phase & (card == STOP) & (state.guesses_made > 0)
        pick = in_phase & in_range & ~state.covered[rows, column]
        illegal = acting & ~(stop | pick)
        stop &= acting
        pick &= acting

        identity = state.key[rows, column]
        team = state.team
        covered = set_cards(state.covered, rows[pick], column[pick])
        revealed = state.replace(covered=covered)
        own = pick & (identity == team)
        other = pick & (identity == 1 - team)
        bystander = pick & (identity == BYSTANDER)
        assassin = pick & (identity == ASSASSIN)

        own_wins = own & (revealed.agents_left(team) == 0)
        other_wins = other & (revealed.agents_left((1 - team).astype(np.int8)) == 0)
        gauntlet = bystander & self.variant.infinity_gauntlet
        gauntlet &= ~((state.key == BYSTANDER) & ~covered).any(axis=1)
        other_team = (1 - team).astype(np.int8)
        state = end_games(revealed, own_wins, team, END_AGENTS)
        state = end_games(state, other_wins, other_team, END_AGENTS)
        state = end_games(state, gauntlet, other_team, END_GAUNTLET)
        state = end_games(state, assassin, other_team, END_ASSASSIN)
        finished = own_wins | other_wins | gauntlet | assassin

        going_on = own & ~finished
        limited = state.guesses_left != NO_LIMIT
        guesses_left = where(going_on & limited, state.guesses_left - 1, state.guesses_left)
        state = state.replace(
            guesses_made=where(going_on, state.guesses_made + 1, state.guesses_made),
            guesses_left=guesses_left,
        )
        turn_over = stop | ((other | bystander) & ~finished) | (going_on & (guesses_left == 0))
        state = self._end_turn(state, turn_over, after_invalid=np.zeros_like(turn_over))
        return forfeit(state, illegal, self._loser_winner(state))

    def step_cover(self, state: TeamState, action: CoverAction) -> TeamState:
        """Phase COVER: the covering team covers one of its own agents (or passes)."""
        (card,) = action.fields(state.batch_size)
        rows = np.arange(state.batch_size)
        acting = (card != NO_ACTION) & ~state.done
        in_phase = state.phase == COVER
        in_range, column = card_index(card)
        may_pass = self.opponent == "team"  # the classic penalty cover is optional
        passes = in_phase & (card == PASS) & may_pass
        pick = in_phase & in_range & ~state.covered[rows, column]
        pick &= state.key[rows, column] == state.team
        illegal = acting & ~(passes | pick)
        passes &= acting
        pick &= acting

        covered = set_cards(state.covered, rows[pick], column[pick])
        state = state.replace(covered=covered)
        wins = pick & (state.agents_left(state.team) == 0)
        moved = passes | pick
        pending = where(moved, np.where(passes, 0, state.covers_pending - 1), state.covers_pending)
        back = moved & (pending == 0) & ~wins
        # Classic: the covering team now gives its clue. Marvel: red plays again.
        team = state.team if self.opponent == "team" else where(back, 0, state.team)
        state = state.replace(
            covers_pending=pending, phase=where(back, CLUE, state.phase), team=team
        )
        state = end_games(state, wins, state.team, END_AGENTS)
        return forfeit(state, illegal, self._loser_winner(state))

    # -- derived -----------------------------------------------------------------------------

    def legal_guesses(self, state: TeamState) -> np.ndarray:
        """``(B, 25) bool`` cards a guess may touch now (none outside phase GUESS)."""
        return (state.phase == GUESS)[:, None] & ~state.covered

    def legal_covers(self, state: TeamState) -> np.ndarray:
        """``(B, 25) bool`` cards the covering team may cover now."""
        own = state.key == state.team[:, None]
        return (state.phase == COVER)[:, None] & own & ~state.covered

    def score(self, state: TeamState) -> np.ndarray:
        """``(B,) float``: single-team clues on a win / 25 on a loss; Marvel uncovered blue
        agents on a win / 0 on a loss; NaN for classic and for running games."""
        done = state.phase == DONE
        won = done & (state.winner == 0)
        if self.opponent == "none":
            value = np.where(won, state.clues, 25.0)
        elif self.opponent == "virtual":
            blue_left = ((state.key == BLUE) & ~state.covered).sum(axis=1)
            value = np.where(won, blue_left, 0.0)
        else:
            value = np.full(state.batch_size, np.nan)
        return np.where(done, value, np.nan)
