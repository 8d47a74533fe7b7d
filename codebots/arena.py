"""Play batches of games between agents and return one tidy row per game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from codebots.agents import Guesser, Spymaster
from codebots.agents.base import uses_rng
from codebots.agents.partner import ROUND
from codebots.agents.views import guesser_view, judging_side, spymaster_view
from codebots.bonus_moves import bonus_clues, bonus_uses, marks, offers, seconds, words_valid
from codebots.engine import (
    CLUE,
    COVER,
    GUESS,
    NO_ACTION,
    SUDDEN_DEATH,
    ClueAction,
    CoverAction,
    DuetState,
    Game,
    GuessAction,
    make,
)
from codebots.engine.constants import END_ASSASSIN, END_REASON_NAMES
from codebots.engine.team import MARVEL_RANKS
from codebots.errors import CodebotsError
from codebots.keys import as_seeds
from codebots.minds import is_cross, minds_of
from codebots.validity import variant_checker
from codebots.variants import Variant, get_variant
from codebots.vocab import load_pool

MAX_STEPS = 2000  # far above any legal game; reaching it means an agent never acts


@dataclass(frozen=True)
class Seat:
    """One Duet player (RULES section 3): gives its own clues with ``spymaster`` and guesses
    its partner's with ``guesser``, as a person at the table does."""

    spymaster: Spymaster
    guesser: Guesser
    name: str

    @classmethod
    def of(cls, name: str) -> Seat:
        """The seat of registered agent ``name``: its spymaster and its guesser."""
        from codebots.agents import make_agent

        return cls(make_agent("spymaster", name), make_agent("guesser", name), name)

    @property
    def minds(self) -> frozenset[str]:
        return minds_of(self.spymaster) | minds_of(self.guesser)

    @property
    def uses_rng(self) -> bool:
        return uses_rng(self.spymaster) or uses_rng(self.guesser)


OFFER_MARGIN = 2  # the other player takes the scheduled clue when it aims at this many more


def _givers(game, state: DuetState, giving: np.ndarray, spymasters, variant, words):
    """``(B,)`` the player who gives each game's next clue: the scheduled one, except with
    ``loose_turn_order`` where both may: then each says how many cards its next clue would
    aim at (:func:`codebots.bonus_moves.offers`) and the other player takes the clue when
    its offer is ``OFFER_MARGIN`` more ("I have one for three"). Measured neutral against
    the strict order (docs/engine-rules.md), as were "more greens left gives" and "fewer"."""
    scheduled = state.giver.astype(np.int64)
    if not game.variant.loose_turn_order:
        return scheduled
    both = giving & game.legal_givers(state).all(axis=1)  # (B,) either player may give
    if not both.any():
        return scheduled
    offer = np.zeros((len(scheduled), 2), dtype=np.int64)  # (B, 2) cards each would aim at
    for player in (0, 1):
        seen = state.replace(giver=np.full(len(scheduled), player, np.int8))
        said = offers(spymasters[player], spymaster_view(variant, words, seen, both))
        offer[:, player] = 0 if said is None else said
    other = 1 - scheduled
    rows = np.arange(len(scheduled))
    takes = both & (offer[rows, other] - offer[rows, scheduled] >= OFFER_MARGIN)
    return np.where(takes, other, scheduled)


def _by_seat(agents: tuple, seat: np.ndarray, mask: np.ndarray):
    """``(agent, its games)`` for each distinct agent of ``agents`` (one per seat): an agent
    in both seats is asked once for all of ``mask``, as with one agent per role."""
    if agents[0] is agents[1]:
        return [(agents[0], mask)]
    return [(agents[s], mask & (seat == s)) for s in (0, 1) if (mask & (seat == s)).any()]


def play_batch(
    game: Game,
    spymaster: Spymaster | Seat,
    guesser: Guesser | Seat,
    seeds: np.ndarray,
    rng: np.random.Generator,
    turn_log: list | None = None,
):
    """Play the games of ``seeds`` to the end; return the final state and per-game counts
    (``first_guesses``: clues with intended targets whose first guess was made,
    ``first_on_target``: of those, first guesses on an intended target; ``later_guesses``
    and ``later_on_target``: the same for the guesses after a clue's first).

    ``spymaster`` and ``guesser`` play the two roles, or, in Duet, two :class:`Seat` s play
    the two players: each gives the clues of its own turns and guesses the other's.
    With ``turn_log`` (a list), one dict per clue is appended: seed, clue number in the game,
    the clue word and number, whether it was valid, its intended targets (card words), the
    cards guessed for it and (seats) the seats that gave and guessed it.
    """
    variant = game.variant
    words = load_pool(variant.pool).words
    checker = variant_checker(variant, words)  # the strict rule with the experts option
    state = game.reset(seeds)
    size = state.batch_size
    seated = isinstance(spymaster, Seat)
    if seated != isinstance(guesser, Seat) or (seated and not isinstance(state, DuetState)):
        raise CodebotsError("seat pairings are for Duet and the missions; pair two seats")
    # (seat 0, seat 1) agents of each role; one agent for both seats in a role pairing.
    spymasters = (spymaster.spymaster, guesser.spymaster) if seated else (spymaster, spymaster)
    guessers = (spymaster.guesser, guesser.guesser) if seated else (guesser, guesser)
    clue_words = [""] * size
    clue_number = np.zeros(size, dtype=np.int16)
    open_turns: dict[int, dict] = {}
    for agent in {id(a): a for a in (*spymasters, *guessers)}.values():
        if hasattr(agent, "begin"):  # agents with per-game memory start afresh
            agent.begin(size)
    no_seat = np.zeros(size, dtype=np.int64)
    # First guesses on a clue: how many, and how many touched one of its intended targets
    # (the agreement of the two minds; clues that declare no target do not count).
    intended = np.zeros((size, 25), dtype=bool)  # (B, 25) the current clue's targets
    first_guesses = np.zeros(size, dtype=np.int64)
    first_on_target = np.zeros(size, dtype=np.int64)
    # The guesses after a clue's first, likewise (a stranger's reading past the first card:
    # experiments/agreement_bounds.py); sudden-death guesses have no clue and do not count.
    later_guesses = np.zeros(size, dtype=np.int64)
    later_on_target = np.zeros(size, dtype=np.int64)
    for _ in range(MAX_STEPS):
        phase = state.phase
        giving = phase == CLUE
        new_clue = np.zeros(size, dtype=bool)
        if giving.any():
            chosen = None
            if isinstance(state, DuetState):
                chosen = _givers(game, state, giving, spymasters, variant, words)
            judged = state if chosen is None else state.replace(giver=chosen.astype(np.int8))
            giver = chosen if seated else no_seat  # (B,) the seat giving the clue
            numbers = np.full(size, NO_ACTION, dtype=np.int16)
            valid = np.ones(size, dtype=bool)
            mark = np.full(size, -1, dtype=np.int16)  # (B,) Duet: a bystander marked first
            two_word = np.zeros(size, dtype=bool)  # (B,) Duet: London's two-word clue
            double = np.zeros(size, dtype=bool)  # (B,) Duet: two clues in one turn
            aims: dict[int, tuple] = {}
            for agent, mask in _by_seat(spymasters, giver, giving):
                view = spymaster_view(variant, words, judged, mask)
                clues = agent.clues(view, rng)
                said, counts = clues.words, clues.numbers
                if chosen is not None:  # Duet: the giver's bonuses (codebots.bonus_moves)
                    mark = np.where(mask, marks(agent, view, clues.words, state), mark)
                    said, counts, two, both = bonus_clues(agent, view, clues, state, checker)
                    two_word |= mask & two
                    double |= mask & both
                checked = words_valid(checker, said, state.cards, view.visible)
                numbers = np.where(mask, counts, numbers).astype(np.int16)
                valid = np.where(mask, checked, valid)
                for index in np.flatnonzero(mask):
                    clue_words[index] = said[index]
                    aims[index] = clues.targets[index] if clues.targets else ()
            asked = -1 if chosen is None else np.where(giving, chosen, -1)
            action = ClueAction(
                number=numbers,
                valid=valid,
                giver=asked,
                mark=mark,
                two_word=two_word,
                double=double,
            )
            state = game.step_clue(state, action)
            intended[giving] = False
            for index, positions in aims.items():
                intended[index, list(positions)] = True
            for index in np.flatnonzero(giving):
                if turn_log is not None:
                    open_turns[index] = {
                        "seed": int(state.seed[index]),
                        "clue_no": int(state.clues[index]),  # 1 for the first clue
                        "clue": clue_words[index],
                        "number": int(numbers[index]),
                        "valid": bool(valid[index]),
                        "targets": [words[state.cards[index, p]] for p in aims[index]],
                        "guesses": [],
                    }
                    if seated:
                        open_turns[index]["giver_seat"] = int(giver[index])
                        open_turns[index]["guesser_seat"] = 1 - int(giver[index])
                    turn_log.append(open_turns[index])
            clue_number = np.where(giving, numbers, clue_number).astype(np.int16)
            new_clue = giving & (state.phase == GUESS)
        guessing = (state.phase == GUESS) | (state.phase == SUDDEN_DEATH)
        if guessing.any():
            # The seat guessing is the one not judging (the giver's partner; sudden death:
            # the default guesser, see codebots.agents.views.judging_side).
            seat = (1 - judging_side(state)) if seated else no_seat
            cards = np.full(size, NO_ACTION, dtype=np.int64)
            second = np.full(size, -1, dtype=np.int16)  # (B,) Duet: a second card touched
            for agent, mask in _by_seat(guessers, seat, guessing):
                view = guesser_view(
                    variant,
                    words,
                    state,
                    mask,
                    clue_words,
                    clue_number,
                    agent.privileged,
                    new_clue,
                )
                cards = np.where(mask, agent.guesses(view, rng), cards)
                if isinstance(state, DuetState):
                    second = np.where(mask, seconds(agent, view, cards, state), second)
            # (B,) a clue's first guess (clues that aim at no card, warnings, not counted)
            aimed = guessing & (cards >= 0) & intended.any(axis=1)
            on_target = intended[np.arange(size), np.clip(cards, 0, 24)]
            first = aimed & new_clue
            later = aimed & ~new_clue & (state.phase == GUESS)
            first_guesses += first
            first_on_target += first & on_target
            later_guesses += later
            later_on_target += later & on_target
            if turn_log is not None:
                for index in np.flatnonzero(guessing & (cards >= 0)):
                    if open_turns.get(index) is not None:
                        open_turns[index]["guesses"].append(words[state.cards[index, cards[index]]])
            state = game.step_guess(state, GuessAction(card=cards, second=second))
        covering = state.phase == COVER
        if covering.any():
            view = spymaster_view(variant, words, state, covering)
            cards = spymasters[0].covers(view, rng)
            state = game.step_cover(state, CoverAction(card=np.where(covering, cards, NO_ACTION)))
        if state.done.all():
            return state, {
                "first_guesses": first_guesses,
                "first_on_target": first_on_target,
                "later_guesses": later_guesses,
                "later_on_target": later_on_target,
            }
    raise RuntimeError(f"games did not finish within {MAX_STEPS} steps: an agent never acts")


def game_records(
    game: Game,
    state,
    spymaster: str,
    guesser: str,
    cross: bool = False,
    seats: bool = False,
    counts: dict | None = None,
) -> pd.DataFrame:
    """One row per finished game: seed, variant, agents (the two seats' with ``seats``),
    whether they share no mind (``cross``), outcome, turns, clues, score."""
    records = {
        "seed": state.seed,
        "variant": game.variant.label,
        "spymaster": spymaster,
        "guesser": guesser,
        "seats": seats,
        "cross": cross,
        "won": state.winner == 0,
        "winner": state.winner,
        "end": np.asarray(END_REASON_NAMES, dtype=object)[state.end_reason],
        "assassin": state.end_reason == END_ASSASSIN,
        "turns": turns_played(state),
        "clues": state.clues,
        "score": game.score(state),
        **(counts or {}),
    }
    if game.variant.opponent == "virtual" and game.variant.family == "team":
        records["rank"] = np.asarray(MARVEL_RANKS, dtype=object)[
            np.nan_to_num(records["score"]).astype(int)
        ]
    if isinstance(state, DuetState):
        records["tokens_left"] = state.bank
        records["stop_tokens"] = state.stop_tokens
        records["sudden_death"] = state.sudden_death
        records.update(bonus_uses(game.variant, state))
    else:
        # The starting team is the one with more agents (single-team and Marvel: red).
        records["start_team"] = (state.key == 1).sum(axis=1) > (state.key == 0).sum(axis=1)
    return pd.DataFrame(records)


def turns_played(state) -> np.ndarray:
    """``(B,)`` turns played, the last one included (the engine counts turns *ended*).

    Team games: one clue per turn. Duet: ended turns, plus the turn in which the game ended
    unless it ended in sudden death (which is not a turn).
    """
    if isinstance(state, DuetState):
        return state.turns + ~state.sudden_death
    return state.clues


def play(
    variant: str | Variant,
    spymaster: Spymaster | Seat,
    guesser: Guesser | Seat,
    seeds: Iterable[int] | np.ndarray,
    *,
    batch_size: int = 4096,
    agent_seed: int = 0,
    progress: bool = False,
    turn_log: list | None = None,
    first_batch: int = 0,
) -> pd.DataFrame:
    """Play one game per seed; returns one row per game (see :func:`game_records`).
    ``spymaster`` and ``guesser`` may be two :class:`Seat` s (Duet and the missions).

    Board and key of a game depend on its seed alone; the agents' random choices come from
    ``numpy.random.default_rng([agent_seed, batch index])``, so the same call gives the same
    table. ``turn_log``: see :func:`play_batch`. ``first_batch`` numbers the batches of a
    slice of a longer run, so that playing a run in slices of whole batches gives the same
    games as playing it at once.
    """
    if batch_size < 1:
        raise CodebotsError(f"batch size must be a positive integer, not {batch_size}")
    game = make(get_variant(variant))
    seeds = as_seeds(
        np.fromiter(seeds, dtype=np.int64) if not isinstance(seeds, np.ndarray) else seeds
    )
    if len(seeds) == 0:
        raise CodebotsError("no games to play: give at least one seed")
    frames = []
    starts = range(0, len(seeds), batch_size)
    if progress:
        from tqdm import tqdm

        starts = tqdm(starts, desc=game.variant.label, unit="batch", leave=False)
    for batch_index, start in enumerate(starts):
        rng = np.random.default_rng([agent_seed, first_batch + batch_index])
        final, counts = play_batch(
            game, spymaster, guesser, seeds[start : start + batch_size], rng, turn_log
        )
        frames.append(
            game_records(
                game,
                final,
                spymaster.name,
                guesser.name,
                is_cross(spymaster, guesser),
                isinstance(spymaster, Seat),
                counts,
            )
        )
    return pd.concat(frames, ignore_index=True)


def watch(variant, spymaster, guesser, seeds, memory, progress: bool = False):
    """Play the boards ``seeds`` with ``spymaster`` using ``memory`` and learn from every
    round of ``ROUND`` games (:mod:`codebots.agents.partner`): the memory in use improves
    as the spymaster watches."""
    spymaster.partner = memory
    seeds = np.asarray(seeds)
    for start in range(0, len(seeds), ROUND):
        log: list[dict] = []
        chunk = seeds[start : start + ROUND]
        play(variant, spymaster, guesser, chunk, batch_size=500, turn_log=log, progress=progress)
        memory.observe(log)
