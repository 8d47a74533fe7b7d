"""How often a guesser picks what people picked: agreement with recorded human guesses.

Input is JSONL, one turn a line::

    {"board": [25 words], "clue": "ocean", "number": 2, "guesses": ["WHALE", "SHIP"],
     "targets": ["WHALE", "SHIP"]}

``number`` may be null (no number: 0 to the guesser); ``targets`` (the clue giver's intended
cards) is optional and only validated. Words match case-insensitively; multi-word cards are
fine. A bad record is a one-line :class:`CodebotsError` naming the file, the line and the fix.

For each turn the guesser ranks the 25 cards for the clue (its order of preference, ignoring
STOP). Two paths:

- embedding guessers (``glove``, ``minilm``, ``nearest``): the cosine of each card's vector to
  the clue vector, from the guesser's own tables (``model_tables`` and ``clue_vectors``) —
  the order its ``guesses()`` follows on a fresh board (a test checks). The tables are built
  once for the pool of every board word in the file (cached on disk from 100 words, like
  game pools), not per turn: the forbid table alone costs about a second per build;
- any other guesser (``random``): ``guesses()`` called 25 times on a batch-of-one view whose
  legal set shrinks by the card just picked (``can_stop`` False, colours unknown: ``revealed``
  stays -1). A guesser that stops or picks an illegal card anyway gets its remaining cards
  in a seeded random order.

Metrics over the turns: ``first_guess`` (the guesser's top card is the human's first
guess; ``first_low``/``first_high``: its 95% Wilson interval), ``overlap_at_k`` (share of
the human's k guesses among the guesser's top k, k = the number of human guesses),
``mean_rank`` (rank of the human's first guess in the guesser's order, 1 = top). The
``random (expected)`` floor row is exact, by expectation, not simulated: first guess 1/25,
overlap k/25 per turn, mean rank 13 (no interval). The registered ``random`` guesser, if
asked for, is a seeded simulation of it.
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
MAX_NUMBER = 9
REQUIRED = ("board", "clue", "number", "guesses")
FLOOR_NAME = "random (expected)"


@dataclass(frozen=True)
class HumanTurn:
    """One validated turn: the board upper-cased, guesses and targets as board positions."""

    where: str  # "FILE line N", for errors
    board: tuple[str, ...]
    clue: str
    number: int  # 0: no number given
    guesses: tuple[int, ...]
    targets: tuple[int, ...] | None


def _card(word: str) -> str:
    return " ".join(word.split()).upper()


def _positions(where: str, key: str, value, board: tuple[str, ...]) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
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


def parse_turn(where: str, text: str) -> HumanTurn:
    """Validate one JSONL line (``where`` names it in errors: ``"FILE line N"``)."""
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
    words = record["board"]
    if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
        raise CodebotsError(f"{where}: 'board' must be a list of {BOARD_SIZE} non-empty strings")
    if len(words) != BOARD_SIZE:
        raise CodebotsError(f"{where}: 'board' must list {BOARD_SIZE} words, got {len(words)}")
    board = tuple(_card(w) for w in words)
    twice = sorted({card for card in board if board.count(card) > 1})
    if twice:
        raise CodebotsError(
            f"{where}: 'board' has duplicate word(s) {', '.join(twice)}; cards must differ"
        )
    clue = record["clue"]
    if not isinstance(clue, str) or not clue.strip():
        raise CodebotsError(f"{where}: 'clue' must be a non-empty string, got {json.dumps(clue)}")
    clue = " ".join(clue.split()).lower()
    if _card(clue) in board:
        raise CodebotsError(f"{where}: the clue '{clue}' is a board word; drop this turn")
    number = record["number"]
    valid_number = isinstance(number, int) and not isinstance(number, bool)
    if number is not None and not (valid_number and 0 <= number <= MAX_NUMBER):
        raise CodebotsError(
            f"{where}: 'number' must be an integer from 0 to {MAX_NUMBER} or null, "
            f"got {json.dumps(number)}"
        )
    guesses = _positions(where, "guesses", record["guesses"], board)
    targets = record.get("targets")
    if targets is not None:
        targets = _positions(where, "targets", targets, board)
    return HumanTurn(where, board, clue, number or 0, guesses, targets)


def load_turns(path: str | Path) -> list[HumanTurn]:
    """Every turn of a JSONL file (blank lines skipped); the first bad record raises."""
    path = Path(path)
    if not path.is_file():
        raise CodebotsError(f"turns file {path} does not exist; pass a JSONL file of turns")
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError) as error:
        raise CodebotsError(f"cannot read {path}: {error}") from None
    turns = [
        parse_turn(f"{path} line {number}", text)
        for number, text in enumerate(lines, start=1)
        if text.strip()
    ]
    if not turns:
        raise CodebotsError(f"{path} has no records; write one JSON object per line")
    return turns


def _view(turn: HumanTurn, legal: np.ndarray, made: int):
    from codebots.agents.views import GuesserView
    from codebots.variants import get_variant

    return GuesserView(
        variant=get_variant("classic"),
        words=turn.board,
        cards=np.arange(BOARD_SIZE, dtype=np.int32)[None],
        legal=legal[None].copy(),
        can_stop=np.zeros(1, bool),
        clue_words=(turn.clue,),
        clue_number=np.array([turn.number], np.int16),
        guesses_made=np.array([made], np.int16),
        active=np.ones(1, bool),
        known_wrong=np.zeros((1, BOARD_SIZE), bool),
        revealed=np.full((1, BOARD_SIZE), -1, np.int8),
        new_clue=np.array([made == 0]),
        side=np.zeros(1, np.int8),
    )


def uses_similarity(guesser) -> bool:
    """Embedding guessers are ranked by similarity; others (and a guesser that also
    consults the lexicon) through ``guesses()``."""
    if getattr(guesser, "lexicon_weight", 0.0):
        return False
    return all(hasattr(guesser, name) for name in ("model", "vocabulary", "clue_vectors"))


def similarity_ranking(guesser, turn: HumanTurn, pool: tuple[str, ...] = ()) -> np.ndarray:
    """Board positions by decreasing cosine to the clue under the guesser's model.

    ``pool`` (default: the turn's board) holds every board word; one pool for a whole file
    builds the tables once (a card's vector does not depend on the rest of the pool).
    """
    from codebots.agents.guesser import reads
    from codebots.agents.tables import model_tables

    pool = pool or turn.board
    table = model_tables(guesser.model, pool, guesser.vocabulary)
    if not reads(table, turn.clue):
        raise CodebotsError(f"'{guesser.model}' has no vector for the clue '{turn.clue}'")
    position = {word: i for i, word in enumerate(pool)}
    cards = table.card_vectors[[position[word] for word in turn.board]]
    clue = guesser.clue_vectors(table, [turn.clue])[0]
    return np.argsort(-(cards @ clue), kind="stable")


def guessing_ranking(guesser, turn: HumanTurn, rng: np.random.Generator) -> np.ndarray:
    """Board positions in the order ``guesses()`` picks them with a shrinking legal set."""
    if hasattr(guesser, "begin"):
        guesser.begin(1)
    legal = np.ones(BOARD_SIZE, bool)
    order: list[int] = []
    while legal.any():
        card = int(guesser.guesses(_view(turn, legal, len(order)), rng)[0])
        if not (0 <= card < BOARD_SIZE and legal[card]):  # STOP or illegal: the rest at random
            order.extend(rng.permutation(np.flatnonzero(legal)).tolist())
            break
        order.append(card)
        legal[card] = False
    return np.array(order)


def ranking(guesser, turn: HumanTurn, rng: np.random.Generator, pool=()) -> np.ndarray:
    """The guesser's full order of the 25 cards for the turn's clue (best first)."""
    if uses_similarity(guesser):
        return similarity_ranking(guesser, turn, pool)
    return guessing_ranking(guesser, turn, rng)


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
    """Metrics of each guesser (name -> agent) over the turns.

    Embedding guessers use one table per model for the pool of all the file's board words.
    """
    for name, guesser in guessers.items():
        if getattr(guesser, "privileged", False):
            raise CodebotsError(
                f"guesser '{name}' reads the key, and human turns have none; "
                "pick glove, minilm, nearest or random"
            )
    rngs = {name: np.random.default_rng(seed) for name in guessers}
    pool = tuple(sorted({word for turn in turns for word in turn.board}))
    scores: dict[str, list] = {name: [] for name in guessers}
    unread: dict[str, list[str]] = {name: [] for name in guessers}
    for turn in turns:
        for name, guesser in guessers.items():
            try:
                order = ranking(guesser, turn, rngs[name], pool)
            except CodebotsError:
                # A clue the guesser's model has no vector for: it has no idea, so its order
                # is a seeded random one (counted in unread_clues), and the file goes on.
                order = rngs[name].permutation(BOARD_SIZE)
                unread[name].append(turn.clue)
            scores[name].append(score_turn(order, turn))
    rows = []
    for name, guesser in guessers.items():
        first, overlap, rank = (float(np.mean(column)) for column in zip(*scores[name]))
        low, high = wilson_interval(sum(agree for agree, _, _ in scores[name]), len(turns))
        method = "similarity" if uses_similarity(guesser) else "guesses()"
        row = _row(name, method, len(turns), first, low, high, overlap, rank)
        rows.append({**row, "unread_clues": len(unread[name])})
        if unread[name]:
            shown = ", ".join(dict.fromkeys(unread[name]))
            note(
                f"guesser '{name}' has no vector for {len(unread[name])} clue(s) "
                f"({shown[:80]}): those turns are ranked at random"
            )
    return rows


def random_floor(turns: list[HumanTurn]) -> dict:
    """The uniformly random guesser, by exact expectation (no simulation)."""
    overlap = float(np.mean([len(t.guesses) / BOARD_SIZE for t in turns]))
    rank = (BOARD_SIZE + 1) / 2
    n = len(turns)
    row = _row(FLOOR_NAME, "expectation", n, 1 / BOARD_SIZE, math.nan, math.nan, overlap, rank)
    return {**row, "unread_clues": 0}


def evaluate_guesser(path: str | Path, guesser_names: list[str], seed: int = 0) -> pd.DataFrame:
    """One row per guesser plus the random floor: agreement with the human turns in ``path``."""
    from codebots.agents import make_agent

    names = [name.strip() for name in guesser_names if name.strip()]
    if not names:
        raise CodebotsError("name at least one guesser, e.g. --guesser glove,random")
    turns = load_turns(path)
    guessers = {name: make_agent("guesser", name) for name in dict.fromkeys(names)}
    return pd.DataFrame([*agreement_rows(guessers, turns, seed), random_floor(turns)])
