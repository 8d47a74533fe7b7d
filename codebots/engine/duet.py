"""Duet-style co-op and the mission log (RULES §3): two-sided keys, time bank, sudden death.

Side ``s`` of the key is what player ``s`` sees; it judges the guesses of player ``1 - s``.
Token accounting (time side / mistake side) follows docs/engine-rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from codebots import keys
from codebots.engine.actions import ClueAction, GuessAction
from codebots.engine.common import BaseState, card_index, end_games, forfeit, where
from codebots.engine.constants import (
    ASSASSIN,
    BYSTANDER,
    CLUE,
    DONE,
    END_AGENTS,
    END_ASSASSIN,
    END_FOURTEEN,
    END_OUT_OF_TIME,
    END_SUDDEN_DEATH_MISS,
    GREEN,
    GUESS,
    NO_ACTION,
    STOP,
    SUDDEN_DEATH,
    UNLIMITED,
)
from codebots.variants import Variant

TOTAL_GREENS = 15


@dataclass(frozen=True)
class DuetState(BaseState):
    key: np.ndarray  # (B, 2, 25) int8 — GREEN/BYSTANDER/ASSASSIN per side
    found: np.ndarray  # (B, 25) bool — covered by a green agent
    marked: np.ndarray  # (B, 2, 25) bool — [s, i]: card i revealed bystander on side s
    giver: np.ndarray  # (B,) int8 — giver of the current clue / scheduled for the next one
    last_giver: np.ndarray  # (B,) int8 — giver of the last completed turn, -1 before any
    streak: np.ndarray  # (B,) int8 — consecutive completed turns by last_giver
    time_tokens: np.ndarray  # (B,) int8 — time-side tokens in the bank
    mistake_tokens: np.ndarray  # (B,) int8 — mistake-side tokens in the bank
    stop_tokens: np.ndarray  # (B,) int8 — tokens taken by guessers stopping after a hit
    guesses_made: np.ndarray  # (B,) int16 — correct guesses this turn
    sudden_death: np.ndarray  # (B,) bool — latched when sudden death starts
    two_word_left: np.ndarray  # (B,) int8 — bonuses still to spend in this game
    double_left: np.ndarray  # (B,) int8
    touch_two_left: np.ndarray  # (B,) int8
    mark_left: np.ndarray  # (B,) int8
    forgiveness_left: np.ndarray  # (B,) int8
    fourteen: np.ndarray  # (B,) bool — the 14-of-15 bonus is on

    @property
    def covered(self) -> np.ndarray:
        """``(B, 25) bool`` found, or marked bystander from both sides."""
        return self.found | self.marked.all(axis=1)

    @property
    def bank(self) -> np.ndarray:
        """``(B,) int`` tokens left in the time bank."""
        return self.time_tokens.astype(np.int16) + self.mistake_tokens

    def greens_left(self) -> np.ndarray:
        """``(B, 2) int`` unfound greens on each side's key."""
        return ((self.key == GREEN) & ~self.found[:, None, :]).sum(axis=2)

    def total_greens_left(self) -> np.ndarray:
        """``(B,) int`` distinct greens (either side) still to find."""
        return ((self.key == GREEN).any(axis=1) & ~self.found).sum(axis=1)


def take_token(state: DuetState, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Take one token, time-side first, from the games in ``mask`` with a non-empty bank.

    Returns ``(time_tokens, mistake_tokens)``.
    """
    use_time = mask & (state.time_tokens > 0)
    use_mistake = mask & ~use_time & (state.mistake_tokens > 0)
    return (
        where(use_time, state.time_tokens - 1, state.time_tokens),
        where(use_mistake, state.mistake_tokens - 1, state.mistake_tokens),
    )


class DuetGame:
    """Rules of one Duet variant or mission; pure step functions over :class:`DuetState`."""

    def __init__(self, variant: Variant):
        if variant.family != "duet":
            raise ValueError(f"{variant.id} is not a Duet game")
        self.variant = variant

    def init(self, seeds: np.ndarray, cards: np.ndarray, key: np.ndarray) -> DuetState:
        """A batch of new games; per-game bonuses start from the variant's options."""
        size = len(seeds)
        spec = self.variant
        time_side, mistake_side = spec.token_setup

        def counter(value: int, dtype=np.int8) -> np.ndarray:
            return np.full(size, value, dtype=dtype)

        return DuetState(
            seed=np.asarray(seeds, dtype=np.int64),
            cards=np.asarray(cards, dtype=np.int32),
            phase=counter(CLUE),
            turns=counter(0, np.int16),
            clues=counter(0, np.int16),
            winner=counter(-1),
            end_reason=counter(0),
            key=np.asarray(key, dtype=np.int8),
            found=np.zeros((size, 25), dtype=bool),
            marked=np.zeros((size, 2, 25), dtype=bool),
            giver=counter(0),
            last_giver=counter(-1),
            streak=counter(0),
            time_tokens=counter(time_side),
            mistake_tokens=counter(mistake_side),
            stop_tokens=counter(0),
            guesses_made=counter(0, np.int16),
            sudden_death=np.zeros(size, dtype=bool),
            two_word_left=counter(spec.two_word_clues),
            double_left=counter(spec.double_clues),
            touch_two_left=counter(spec.touch_two),
            mark_left=counter(spec.mark_bystander),
            forgiveness_left=counter(spec.sudden_death_forgiveness),
            fourteen=np.full(size, spec.fourteen_of_fifteen),
        )

    def reset(self, seeds) -> DuetState:
        """Deal and start one game per seed (see :func:`codebots.keys.deal`)."""
        seeds, cards, key, _ = keys.deal(self.variant, seeds)
        return self.init(seeds, cards, key)

    # -- steps -------------------------------------------------------------------------------

    def step_clue(self, state: DuetState, action: ClueAction) -> DuetState:
        """Phase CLUE: check the giver and bonuses, apply marks and penalties, open guessing."""
        number, valid, giver_asked, two_word, double, mark = action.fields(state.batch_size)
        rows = np.arange(state.batch_size)
        acting = (number != NO_ACTION) & ~state.done
        in_phase = state.phase == CLUE
        legal = in_phase & ((number == UNLIMITED) | ((number >= 0) & (number <= 9)))

        scheduled = state.giver
        giver = np.where(giver_asked == -1, scheduled, giver_asked).astype(np.int8)
        legal &= (giver_asked >= -1) & (giver_asked <= 1)
        giver_index = np.clip(giver, 0, 1).astype(np.intp)
        legal &= self.legal_givers(state)[rows, giver_index]
        legal &= ~two_word | (state.two_word_left > 0)
        legal &= ~double | (state.double_left > 0)

        marking = mark != -1
        in_range, column = card_index(mark)
        mark_ok = (
            in_range
            & (state.mark_left > 0)
            & (state.bank >= 2)
            & ~state.covered[rows, column]
            & ~state.marked[rows, giver_index, column]
            & (state.key[rows, giver_index, column] == BYSTANDER)
        )
        legal &= ~marking | mark_ok

        rule = self.variant.invalid_clue
        invalid = ~valid & (rule != "accept")
        if rule == "forfeit":
            legal &= ~invalid
        illegal = acting & ~legal
        ok = acting & legal

        marks = ok & marking
        marked = state.marked.copy()
        marked[rows[marks], giver_index[marks], column[marks]] = True
        time_tokens, mistake_tokens = take_token(state, marks)
        state = state.replace(time_tokens=time_tokens, mistake_tokens=mistake_tokens)
        time_tokens, mistake_tokens = take_token(state, ok & invalid)  # the penalty token
        state = state.replace(
            marked=marked,
            time_tokens=time_tokens,
            mistake_tokens=mistake_tokens,
            giver=where(ok, giver, state.giver),
            clues=where(ok, state.clues + 1 + double, state.clues),
            two_word_left=where(ok & two_word, state.two_word_left - 1, state.two_word_left),
            double_left=where(ok & double, state.double_left - 1, state.double_left),
            mark_left=where(marks, state.mark_left - 1, state.mark_left),
            phase=where(ok, GUESS, state.phase),
            guesses_made=where(ok, 0, state.guesses_made),
        )
        return forfeit(state, illegal, 1)

    def step_guess(self, state: DuetState, action: GuessAction) -> DuetState:
        """Phases GUESS and SUDDEN_DEATH: judge a touched card by the judging side, or stop."""
        card, second, guesser_asked = action.fields(state.batch_size)
        rows = np.arange(state.batch_size)
        acting = (card != NO_ACTION) & ~state.done
        guessing = state.phase == GUESS
        sudden = state.phase == SUDDEN_DEATH
        covered = state.covered
        greens_left = state.greens_left()  # (B, 2)

        # Who guesses, and whose side judges: the giver's, or in sudden death the partner's.
        default_guesser = np.where(greens_left[:, 1] > 0, 0, 1)
        guesser = np.where(guesser_asked == -1, default_guesser, guesser_asked)
        guesser_ok = (guesser_asked >= -1) & (guesser_asked <= 1)
        guesser = np.clip(guesser, 0, 1)
        judge = np.where(sudden, 1 - guesser, state.giver).astype(np.intp)
        # Sudden death: the guesser needs cards to find. A turn: only the giver's partner.
        guesser_ok &= np.where(
            sudden, greens_left[rows, judge] > 0, (guesser_asked == -1) | (guesser != state.giver)
        )

        stop = guessing & guesser_ok & (card == STOP) & (state.guesses_made > 0) & (second == -1)
        in_range, first = card_index(card)
        pick = (guessing | sudden) & guesser_ok & in_range & ~covered[rows, first]
        touching_two = second != -1
        second_in_range, other = card_index(second)
        second_ok = (
            second_in_range
            & guessing  # the giver chooses which card counts: not in sudden death
            & (state.touch_two_left > 0)
            & (second != card)
            & ~covered[rows, other]
        )
        pick &= ~touching_two | second_ok
        illegal = acting & ~(stop | pick)
        stop &= acting
        pick &= acting

        # The judging side keeps the better card: GREEN < BYSTANDER < ASSASSIN as codes.
        identity_first = state.key[rows, judge, first]
        identity_other = state.key[rows, judge, other]
        keep_other = pick & touching_two & (identity_other < identity_first)
        column = np.where(keep_other, other, first)
        identity = np.where(keep_other, identity_other, identity_first)
        touch_two_left = where(pick & touching_two, state.touch_two_left - 1, state.touch_two_left)

        green = pick & (identity == GREEN)
        bystander = pick & (identity == BYSTANDER)
        assassin = pick & (identity == ASSASSIN)

        found = state.found.copy()
        found[rows[green], column[green]] = True
        state = state.replace(
            found=found,
            touch_two_left=touch_two_left,
            guesses_made=where(green & guessing, state.guesses_made + 1, state.guesses_made),
        )
        left = state.total_greens_left()
        all_found = green & (left == 0)
        fourteen = green & ~all_found & state.fourteen & (left <= TOTAL_GREENS - 14)
        won = all_found | fourteen
        # The winning turn uses a token too (not a stop token); sudden death has none left.
        time_tokens, mistake_tokens = take_token(state, won & guessing)
        state = state.replace(time_tokens=time_tokens, mistake_tokens=mistake_tokens)
        state = end_games(state, all_found, 0, END_AGENTS)
        state = end_games(state, fourteen, 0, END_FOURTEEN)
        state = end_games(state, assassin, 1, END_ASSASSIN)

        # Bystanders: marked from the judging side. Sudden death: forgiven once, or lost.
        marked = state.marked.copy()
        marked[rows[bystander], judge[bystander], column[bystander]] = True
        forgiven = bystander & sudden & (state.forgiveness_left > 0)
        state = state.replace(
            marked=marked,
            forgiveness_left=where(forgiven, state.forgiveness_left - 1, state.forgiveness_left),
        )
        state = end_games(state, bystander & sudden & ~forgiven, 1, END_SUDDEN_DEATH_MISS)

        # A mistake takes a mistake-side token, else two time-side ones, else the game.
        mistake = bystander & guessing
        pays_mistake = mistake & (state.mistake_tokens > 0)
        pays_double = mistake & ~pays_mistake & (state.time_tokens >= 2)
        state = state.replace(
            mistake_tokens=where(pays_mistake, state.mistake_tokens - 1, state.mistake_tokens),
            time_tokens=where(pays_double, state.time_tokens - 2, state.time_tokens),
        )
        state = end_games(state, mistake & ~pays_mistake & ~pays_double, 1, END_OUT_OF_TIME)

        # Stopping takes a token (time-side first) when the bank has one.
        took = stop & (state.bank > 0)
        time_tokens, mistake_tokens = take_token(state, stop)
        state = state.replace(
            time_tokens=time_tokens,
            mistake_tokens=mistake_tokens,
            stop_tokens=where(took, state.stop_tokens + 1, state.stop_tokens),
        )
        turn_over = (stop | (pays_mistake | pays_double)) & ~state.done
        state = self._end_turn(state, turn_over)
        return forfeit(state, illegal, 1)

    def _end_turn(self, state: DuetState, mask: np.ndarray) -> DuetState:
        """Count the turn, then sudden death if the bank is empty, else schedule the giver."""
        repeat = mask & (state.last_giver == state.giver)
        partner = (1 - state.giver).astype(np.int8)
        partner_has_greens = state.greens_left()[np.arange(state.batch_size), partner] > 0
        next_giver = np.where(partner_has_greens, partner, state.giver)
        empty = mask & (state.bank == 0)
        return state.replace(
            turns=where(mask, state.turns + 1, state.turns),
            streak=where(mask, np.where(repeat, state.streak + 1, 1), state.streak),
            last_giver=where(mask, state.giver, state.last_giver),
            guesses_made=where(mask, 0, state.guesses_made),
            giver=where(mask & ~empty, next_giver, state.giver),
            phase=where(mask, np.where(empty, SUDDEN_DEATH, CLUE), state.phase),
            sudden_death=state.sudden_death | empty,
        )

    # -- derived -----------------------------------------------------------------------------

    def legal_guesses(self, state: DuetState) -> np.ndarray:
        """``(B, 25) bool`` cards a guess may touch now."""
        guessing = (state.phase == GUESS) | (state.phase == SUDDEN_DEATH)
        return guessing[:, None] & ~state.covered

    def legal_givers(self, state: DuetState) -> np.ndarray:
        """``(B, 2) bool``: player p may give the next clue (phase CLUE aside). The scheduled
        giver, or the other player on the first clue ("either player may start") and, with
        ``loose_turn_order``, unless that player has just given two in a row; never a
        player whose greens (on their own side) are all found (the hand-over of RULES 3)."""
        players = np.arange(2)[None, :]  # (1, 2)
        scheduled = state.giver[:, None] == players  # (B, 2)
        may_switch = (state.turns == 0)[:, None]
        if self.variant.loose_turn_order:
            two_in_a_row = (state.last_giver[:, None] == players) & (state.streak[:, None] >= 2)
            may_switch = may_switch | ~two_in_a_row
        return (scheduled | may_switch) & (state.greens_left() > 0)

    def sudden_death_guessers(self, state: DuetState) -> np.ndarray:
        """``(B, 2) bool``: player p may guess in sudden death (side 1-p has greens left)."""
        return (state.phase == SUDDEN_DEATH)[:, None] & (state.greens_left()[:, ::-1] > 0)

    def score(self, state: DuetState) -> np.ndarray:
        """``(B,) float``: 3 x bank + stop tokens - 1 if sudden death, on a win; else NaN."""
        won = (state.phase == DONE) & (state.winner == 0)
        value = 3.0 * state.bank + state.stop_tokens - state.sudden_death
        return np.where(won, value, np.nan)
