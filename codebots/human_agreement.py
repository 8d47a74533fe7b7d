"""How often a guesser picks what people picked: agreement with recorded human guesses.

Input is JSONL, one turn a line::

    {"board": [words], "clue": "ocean", "number": 2, "guesses": ["WHALE", "SHIP"],
     "targets": ["WHALE", "SHIP"], "revealed": ["CAT"]}

Real records come as they were played: ``board`` holds 2 to 25 words (a 20-card board, or
what was left of one), ``revealed`` (optional) the board words already covered before the
turn, so only the other, *visible* cards are ranked and may be guessed. ``number`` may be
null: the number is unknown, and guessers read it as "no limit" (never as ``0``, which the
lexicon guessers read as a warning). ``targets`` (the giver's intended cards) is optional
and only validated. Words match case-insensitively; multi-word cards are fine. A turn with
no guesses has nothing to score: it is *skipped* and listed with its line. Any other bad
record is a one-line :class:`CodebotsError` naming the file, the line and the fix.

For each turn the guesser ranks the visible cards for the clue (its order of preference,
ignoring STOP). Two paths, both with the tables built once for the pool of every board word
in the file (a card's vector does not depend on the rest of the pool):

- embedding guessers (``glove``, ``minilm``, ``nearest``): the cosine of each card's vector to
  the clue vector, from the guesser's own tables (``model_tables`` and ``clue_vectors``) —
  the order its ``guesses()`` follows on a fresh board (a test checks);
- any other guesser (``random``, the lexicon and cross-play guessers): ``guesses()`` called
  on one batch of all the turns, 25 times at most, each turn's legal set shrinking by the card
  just picked (``can_stop`` False, colours unknown: ``revealed`` stays -1). A guesser that
  stops or picks an illegal card anyway gets its remaining cards in a seeded random order.

A clue the guesser's model has no meaning for (``sandwhich`` for GloVe) gives it no idea:
its order on that turn is a seeded random one, so that every guesser is scored on the same
turns; such turns are counted (``unread_clues``) and their lines listed.

Metrics over the turns: ``first_guess`` (the guesser's top card is the human's first
guess; ``first_low``/``first_high``: its 95% Wilson interval), ``overlap_at_k`` (share of
the human's k guesses among the guesser's top k, k = the number of human guesses),
``mean_rank`` (rank of the human's first guess in the guesser's order, 1 = top). The
``random (expected)`` floor row is exact, by expectation, not simulated: first guess 1/n,
overlap k/n and rank (n + 1)/2 per turn of n visible cards (no interval). The registered
``random`` guesser, if asked for, is a seeded simulation of it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from codebots.errors import CodebotsError, note
from codebots.report import wilson_interval

BOARD_SIZE = 25
MIN_BOARD = 2
MAX_NUMBER = 9
REQUIRED = ("board", "clue", "number", "guesses")
FLOOR_NAME = "random (expected)"


@dataclass(frozen=True)
class HumanTurn:
    """One validated turn: the board upper-cased, guesses, targets and revealed cards as
    board positions."""

    where: str  # "FILE line N", for errors and lists of lines
    board: tuple[str, ...]
    clue: str
    number: int | None  # None: not recorded (unknown)
    guesses: tuple[int, ...]
    targets: tuple[int, ...] | None
    revealed: tuple[int, ...] = ()

    @property
    def visible(self) -> np.ndarray:
        """``(n,) int`` board positions still to guess (not revealed), in board order."""
        return np.setdiff1d(np.arange(len(self.board)), self.revealed)


@dataclass(frozen=True)
class TurnFile:
    """The scored turns of a file and the turns skipped (where, why)."""

    turns: list[HumanTurn]
    skipped: list[tuple[str, str]]


class SkippedTurn(Exception):
    """A well-formed turn with nothing to score (no guesses)."""


def _card(word: str) -> str:
    return " ".join(word.split()).upper()


def _positions(
    where: str, key: str, value, board: tuple[str, ...], empty: bool = False
) -> tuple[int, ...]:
    if not isinstance(value, list) or not (value or empty):
        raise CodebotsError(
            f"{where}: '{key}' must be a non-empty list of board words, got {json.dumps(value)}"
        )
    index = {card: i for i, card in enumerate(board)}
    positions = []
    for word in value:
        if not isinstance(word, str) or _card(word) not in index:
            raise CodebotsError(
                f"{where}: '{key}' word {json.dumps(word)} is not on the board; "
                "list only words of 'board'"
            )
        positions.append(index[_card(word)])
    if len(set(positions)) != len(positions):
        raise CodebotsError(f"{where}: '{key}' lists a word twice; list each card once")
    return tuple(positions)


def _board(where: str, words) -> tuple[str, ...]:
    sizes = f"{MIN_BOARD} to {BOARD_SIZE}"
    if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
        raise CodebotsError(f"{where}: 'board' must be a list of {sizes} non-empty strings")
    if not MIN_BOARD <= len(words) <= BOARD_SIZE:
        raise CodebotsError(f"{where}: 'board' must list {sizes} words, got {len(words)}")
    board = tuple(_card(w) for w in words)
    twice = sorted({card for card in board if board.count(card) > 1})
    if twice:
        raise CodebotsError(
            f"{where}: 'board' has duplicate word(s) {', '.join(twice)}; cards must differ"
        )
    return board


def parse_turn(where: str, text: str) -> HumanTurn:
    """Validate one JSONL line (``where`` names it in errors: ``"FILE line N"``); a turn
    without guesses raises :class:`SkippedTurn`."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise CodebotsError(
            f"{where}: invalid JSON ({error.msg}); write one JSON object per line"
        ) from None
    if not isinstance(record, dict):
        raise CodebotsError(f"{where}: expected a JSON object with keys {', '.join(REQUIRED)}")
    missing = [key for key in REQUIRED if key not in record]
    if missing:
        raise CodebotsError(
            f"{where}: missing key(s) {', '.join(missing)}; every record needs "
            f"{', '.join(REQUIRED)} (number may be null)"
        )
    board = _board(where, record["board"])
    clue = record["clue"]
    if not isinstance(clue, str) or not clue.strip():
        raise CodebotsError(f"{where}: 'clue' must be a non-empty string, got {json.dumps(clue)}")
    clue = " ".join(clue.split()).lower()
    revealed = _positions(where, "revealed", record.get("revealed", []), board, empty=True)
    if _card(clue) in (board[i] for i in range(len(board)) if i not in revealed):
        raise CodebotsError(f"{where}: the clue '{clue}' is a visible board word; drop this turn")
    if len(revealed) == len(board):
        raise CodebotsError(f"{where}: 'revealed' covers the whole board; drop this turn")
    number = record["number"]
    valid_number = isinstance(number, int) and not isinstance(number, bool)
    if number is not None and not (valid_number and 0 <= number <= MAX_NUMBER):
        raise CodebotsError(
            f"{where}: 'number' must be an integer from 0 to {MAX_NUMBER} or null, "
            f"got {json.dumps(number)}"
        )
    if record["guesses"] == []:
        raise SkippedTurn("no guesses")
    guesses = _positions(where, "guesses", record["guesses"], board)
    covered = [board[i] for i in guesses if i in revealed]
    if covered:
        raise CodebotsError(
            f"{where}: 'guesses' word {covered[0]} is in 'revealed' (already covered); a "
            "guess must be a visible card"
        )
    targets = record.get("targets")
    if targets is not None:
        targets = _positions(where, "targets", targets, board)
    return HumanTurn(where, board, clue, number, guesses, targets, revealed)


def read_turns(path: str | Path) -> TurnFile:
    """Every turn of a JSONL file (blank lines ignored, turns without guesses skipped); the
    first bad record raises."""
    path = Path(path)
    if not path.is_file():
        raise CodebotsError(f"turns file {path} does not exist; pass a JSONL file of turns")
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError) as error:
        raise CodebotsError(f"cannot read {path}: {error}") from None
    turns, skipped = [], []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        where = f"{path} line {number}"
        try:
            turns.append(parse_turn(where, text))
        except SkippedTurn as why:
            skipped.append((where, str(why)))
    if not turns:
        more = f" ({len(skipped)} skipped: no guesses)" if skipped else ""
        raise CodebotsError(f"{path} has no records to score{more}; write one JSON object per line")
    return TurnFile(turns, skipped)


def load_turns(path: str | Path) -> list[HumanTurn]:
    """The scored turns of a JSONL file (see :func:`read_turns`)."""
    return read_turns(path).turns


def file_pool(turns: list[HumanTurn]) -> tuple[str, ...]:
    """Every board word of the turns, sorted: the one pool whose tables serve the file."""
    return tuple(sorted({word for turn in turns for word in turn.board}))


def _views(turns: list[HumanTurn], pool: tuple[str, ...], legal: np.ndarray, made: np.ndarray):
    """One guesser view of all ``turns`` on ``pool``: row b is turn b's board (padded to 25
    slots with cards that are never legal), ``legal`` (B, 25) its cards still to rank."""
    from codebots.agents.views import GuesserView
    from codebots.engine.constants import UNLIMITED
    from codebots.variants import get_variant

    size = len(turns)
    position = {word: i for i, word in enumerate(pool)}
    cards = np.zeros((size, BOARD_SIZE), dtype=np.int32)  # (B, 25) pool ids
    for row, turn in enumerate(turns):
        cards[row, : len(turn.board)] = [position[word] for word in turn.board]
    numbers = [UNLIMITED if turn.number is None else turn.number for turn in turns]
    return GuesserView(
        variant=get_variant("classic"),
        words=pool,
        cards=cards,
        legal=legal.copy(),
        can_stop=np.zeros(size, bool),
        clue_words=tuple(turn.clue for turn in turns),
        clue_number=np.array(numbers, np.int16),
        guesses_made=made.astype(np.int16),
        active=legal.any(axis=1),
        known_wrong=np.zeros((size, BOARD_SIZE), bool),
        revealed=np.full((size, BOARD_SIZE), -1, np.int8),
        new_clue=made == 0,
        side=np.zeros(size, np.int8),
    )


def uses_similarity(guesser) -> bool:
    """Embedding guessers are ranked by similarity; others (and a guesser that also
    consults the lexicon) through ``guesses()``."""
    if getattr(guesser, "lexicon_weight", 0.0):
        return False
    return all(hasattr(guesser, name) for name in ("model", "vocabulary", "clue_vectors"))


def reads_clue(guesser, turn: HumanTurn, pool: tuple[str, ...]) -> bool:
    """Whether the guesser's model has a meaning for the turn's clue (model-free: yes)."""
    reads = getattr(guesser, "reads_clue", None)
    return reads is None or reads(pool, turn.clue)


def similarity_ranking(guesser, turn: HumanTurn, pool: tuple[str, ...] = ()) -> np.ndarray:
    """Visible board positions by decreasing cosine to the clue under the guesser's model.

    ``pool`` (default: the turn's board) holds every board word; one pool for a whole file
    builds the tables once (a card's vector does not depend on the rest of the pool).
    """
    from codebots.agents.tables import model_tables

    pool = pool or turn.board
    if not reads_clue(guesser, turn, pool):
        raise CodebotsError(f"'{guesser.model}' has no vector for the clue '{turn.clue}'")
    table = model_tables(guesser.model, pool, guesser.vocabulary)
    position = {word: i for i, word in enumerate(pool)}
    visible = turn.visible
    cards = table.card_vectors[[position[turn.board[i]] for i in visible]]
    clue = guesser.clue_vectors(table, [turn.clue])[0]
    return visible[np.argsort(-(cards @ clue), kind="stable")]


def guessing_rankings(
    guesser, turns: list[HumanTurn], rng: np.random.Generator, pool: tuple[str, ...] = ()
) -> list[np.ndarray]:
    """Each turn's visible positions in the order ``guesses()`` picks them, all turns in one
    batch, the legal set shrinking by the card just picked."""
    pool = pool or file_pool(turns)
    size = len(turns)
    if hasattr(guesser, "begin"):
        guesser.begin(size)
    legal = np.zeros((size, BOARD_SIZE), bool)  # (B, 25)
    for row, turn in enumerate(turns):
        legal[row, turn.visible] = True
    orders: list[list[int]] = [[] for _ in turns]
    made = np.zeros(size, np.int64)
    while legal.any():
        picks = guesser.guesses(_views(turns, pool, legal, made), rng)  # (B,)
        for row in np.flatnonzero(legal.any(axis=1)):
            card = int(picks[row])
            if 0 <= card < BOARD_SIZE and legal[row, card]:
                orders[row].append(card)
                legal[row, card] = False
            else:  # STOP or illegal: the rest in a seeded random order
                orders[row].extend(rng.permutation(np.flatnonzero(legal[row])).tolist())
                legal[row] = False
        made += 1
    return [np.array(order) for order in orders]


def guessing_ranking(guesser, turn: HumanTurn, rng: np.random.Generator, pool=()) -> np.ndarray:
    """One turn's order through ``guesses()`` (see :func:`guessing_rankings`)."""
    return guessing_rankings(guesser, [turn], rng, pool or turn.board)[0]


def rankings(guesser, turns: list[HumanTurn], rng: np.random.Generator, pool=()) -> list:
    """The guesser's order of each turn's visible cards (best first); ``None`` for a turn
    whose clue the guesser's model has no meaning for."""
    pool = pool or file_pool(turns)
    known = [reads_clue(guesser, turn, pool) for turn in turns]
    readable = [turn for turn, ok in zip(turns, known) if ok]
    if uses_similarity(guesser):
        orders = iter([similarity_ranking(guesser, turn, pool) for turn in readable])
    else:
        orders = iter(guessing_rankings(guesser, readable, rng, pool) if readable else [])
    return [next(orders) if ok else None for ok in known]


def score_turn(order: np.ndarray, turn: HumanTurn) -> tuple[bool, float, int]:
    """(first guess agrees, overlap@k, rank of the human's first guess from 1)."""
    k = len(turn.guesses)
    overlap = len(set(order[:k].tolist()) & set(turn.guesses)) / k
    rank = int(np.flatnonzero(order == turn.guesses[0])[0]) + 1
    return bool(order[0] == turn.guesses[0]), overlap, rank


def _row(name, method, n, first, low, high, overlap, rank) -> dict:
    return {
        "guesser": name,
        "ranking": method,
        "turns": n,
        "first_guess": first,
        "first_low": low,
        "first_high": high,
        "overlap_at_k": overlap,
        "mean_rank": rank,
    }


def agreement_rows(guessers: dict, turns: list[HumanTurn], seed: int = 0) -> list[dict]:
    """Metrics of each guesser (name -> agent) over the turns, every table built once for
    the pool of all the file's board words."""
    for name, guesser in guessers.items():
        if getattr(guesser, "privileged", False):
            raise CodebotsError(
                f"guesser '{name}' reads the key, and human turns have none; "
                "pick glove, minilm, nearest or random"
            )
    pool = file_pool(turns)
    rows = []
    for name, guesser in guessers.items():
        rng = np.random.default_rng(seed)
        orders = rankings(guesser, turns, rng, pool)
        unread = [turn for turn, order in zip(turns, orders) if order is None]
        # No meaning for the clue, so no idea: a seeded random order (and the turn counted).
        scores = [
            score_turn(rng.permutation(turn.visible) if order is None else order, turn)
            for turn, order in zip(turns, orders)
        ]
        first, overlap, rank = (float(np.mean(column)) for column in zip(*scores))
        low, high = wilson_interval(sum(agree for agree, _, _ in scores), len(turns))
        method = "similarity" if uses_similarity(guesser) else "guesses()"
        row = _row(name, method, len(turns), first, low, high, overlap, rank)
        rows.append({**row, "unread_clues": len(unread)})
        if unread:
            shown = ", ".join(dict.fromkeys(turn.clue for turn in unread))
            lines = ", ".join(turn.where.rsplit(" ", 1)[-1] for turn in unread)
            note(
                f"guesser '{name}' has no vector for {len(unread)} clue(s) "
                f"({shown[:80]}; lines {lines[:80]}): those turns are ranked at random"
            )
    return rows


def random_floor(turns: list[HumanTurn]) -> dict:
    """The uniformly random guesser, by exact expectation (no simulation)."""
    sizes = np.array([len(turn.visible) for turn in turns], dtype=float)  # (T,) n visible
    first = float(np.mean(1 / sizes))
    overlap = float(np.mean([len(t.guesses) / n for t, n in zip(turns, sizes)]))
    rank = float(np.mean((sizes + 1) / 2))
    n = len(turns)
    row = _row(FLOOR_NAME, "expectation", n, first, math.nan, math.nan, overlap, rank)
    return {**row, "unread_clues": 0}


def evaluate_guesser(path: str | Path, guesser_names: list[str], seed: int = 0) -> pd.DataFrame:
    """One row per guesser plus the random floor: agreement with the human turns in ``path``
    (turns without guesses skipped, and named in a note)."""
    from codebots.agents import make_agent

    names = [name.strip() for name in guesser_names if name.strip()]
    if not names:
        raise CodebotsError("name at least one guesser, e.g. --guesser glove,random")
    read = read_turns(path)
    if read.skipped:
        lines = ", ".join(where.rsplit(" ", 1)[-1] for where, _ in read.skipped)
        note(f"skipped {len(read.skipped)} turn(s) with no guesses (lines {lines[:80]})")
    guessers = {name: make_agent("guesser", name) for name in dict.fromkeys(names)}
    return pd.DataFrame([*agreement_rows(guessers, read.turns, seed), random_floor(read.turns)])
