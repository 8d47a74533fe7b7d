"""Seeded boards and keys.

Every game has its own integer seed, and everything dealt for it (cards, key, starting team)
is a pure function of that seed: a counter-based hash (SplitMix64) turns ``(seed, stream,
slot)`` into random numbers, so a batch of games is generated with array operations and game
``s`` is the same whether it is dealt alone or inside a batch of ten thousand.

``competition_board`` instead follows the 2019 AI competition framework exactly (Python's
``random`` seeded with the game seed, see ``data/wordlists/README.md``) so published seeds
give the published boards.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

import numpy as np

from codebots.engine.constants import ASSASSIN, BLUE, BYSTANDER, GREEN, N_CARDS, RED
from codebots.errors import CodebotsError

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
MAX_SEED = 2**63 - 1  # seeds are int64
MAX_GAMES = 10_000_000  # games in one run or cell: bigger runs are split by their first seed
# Independent streams per purpose, so changing how cards are dealt never changes keys.
STREAM_CARDS, STREAM_KEY, STREAM_START, STREAM_DUET = 1, 2, 3, 4

# Duet key structure (RULES §3): (side 0, side 1) -> how many cards.
DUET_STRUCTURE = {
    (GREEN, GREEN): 3,
    (GREEN, BYSTANDER): 5,
    (GREEN, ASSASSIN): 1,
    (BYSTANDER, GREEN): 5,
    (BYSTANDER, BYSTANDER): 7,
    (BYSTANDER, ASSASSIN): 1,
    (ASSASSIN, GREEN): 1,
    (ASSASSIN, BYSTANDER): 1,
    (ASSASSIN, ASSASSIN): 1,
}
_DUET_TEMPLATE = np.array(
    [pair for pair, count in DUET_STRUCTURE.items() for _ in range(count)], dtype=np.int8
).T  # (2, 25)


def as_seeds(seeds: int | Sequence[int] | np.ndarray) -> np.ndarray:
    """Validate seeds: non-negative integers below 2**63. Returns ``(B,) int64``."""
    array = np.atleast_1d(np.asarray(seeds))
    if array.dtype.kind not in "iu":
        if array.dtype == object and all(
            isinstance(x, int) and not isinstance(x, bool) for x in array
        ):
            array = array.astype(np.int64)
        else:
            raise CodebotsError(
                f"seeds must be integers, got {array.dtype} values such as {array.flat[0]!r}"
            )
    if array.size and (array.min() < 0 or int(array.max()) >= 2**63):
        raise CodebotsError("seeds must be integers in 0 .. 2**63-1")
    return array.astype(np.int64).reshape(-1)


def _splitmix64(values: np.ndarray) -> np.ndarray:
    # uint64 arithmetic wraps modulo 2**64, which is what the hash wants.
    z = values + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


def random_bits(seeds: np.ndarray, stream: int, n: int) -> np.ndarray:
    """``(B, n) uint64`` pseudo-random words determined by (seed, stream, column)."""
    base = _splitmix64(seeds.astype(np.uint64) * np.uint64(8) + np.uint64(stream))
    columns = np.arange(1, n + 1, dtype=np.uint64) * _GOLDEN
    return _splitmix64(base[:, None] ^ _splitmix64(columns)[None, :])


def permutations(seeds: np.ndarray, stream: int, n: int) -> np.ndarray:
    """``(B, n)`` one random permutation of ``range(n)`` per seed."""
    return np.argsort(random_bits(seeds, stream, n), axis=1, kind="stable")


def deal_cards(seeds: np.ndarray, pool_size: int) -> np.ndarray:
    """``(B, 25) int32`` distinct card indices into a pool of ``pool_size`` words.

    Draws 48 candidate indices per game and keeps the first 25 distinct ones; the rare game
    whose candidates repeat too often is dealt from a full random permutation instead.
    """
    if pool_size < N_CARDS:
        raise CodebotsError(f"a pool needs at least {N_CARDS} cards, this one has {pool_size}")
    candidates = (random_bits(seeds, STREAM_CARDS, 48) % np.uint64(pool_size)).astype(np.int64)
    order = np.argsort(candidates, axis=1, kind="stable")
    ranked = np.take_along_axis(candidates, order, axis=1)
    repeat_sorted = np.zeros_like(ranked, dtype=bool)
    repeat_sorted[:, 1:] = ranked[:, 1:] == ranked[:, :-1]
    repeat = np.empty_like(repeat_sorted)
    np.put_along_axis(repeat, order, repeat_sorted, axis=1)  # later copies of a value
    keep = ~repeat
    enough = keep.sum(axis=1) >= N_CARDS
    # Stable argsort of "not kept" moves the first 25 kept candidates to the front, in order.
    first = np.argsort(~keep, axis=1, kind="stable")[:, :N_CARDS]
    cards = np.take_along_axis(candidates, first, axis=1)
    if not enough.all():
        cards[~enough] = permutations(seeds[~enough], STREAM_CARDS, pool_size)[:, :N_CARDS]
    return cards.astype(np.int32)


def team_keys(
    seeds: np.ndarray, counts: tuple[int, int, int, int], random_start: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Team-game keys: ``key (B, 25) int8`` (RED/BLUE/BYSTANDER/ASSASSIN), ``start (B,) int8``.

    ``counts`` = (starting team's agents, other team's agents, bystanders, assassins); the
    starting team is red unless ``random_start`` draws it per game.
    """
    start_agents, other_agents, bystanders, assassins = counts
    if sum(counts) != N_CARDS:
        raise CodebotsError(f"key counts {counts} must add up to {N_CARDS}")
    template = np.array(
        [RED] * start_agents
        + [BLUE] * other_agents
        + [BYSTANDER] * bystanders
        + [ASSASSIN] * assassins,
        dtype=np.int8,
    )
    key = template[permutations(seeds, STREAM_KEY, N_CARDS)]  # (B, 25)
    if random_start:
        start = (random_bits(seeds, STREAM_START, 1)[:, 0] >> np.uint64(63)).astype(np.int8)
    else:
        start = np.zeros(len(seeds), dtype=np.int8)
    # Blue starts: swap the agent colours so the starting team still has the larger count.
    agents = key <= BLUE
    key = np.where(agents & (start[:, None] == BLUE), BLUE - key, key).astype(np.int8)
    return key, start


def duet_keys(seeds: np.ndarray) -> np.ndarray:
    """``(B, 2, 25) int8`` two-sided keys with exactly the RULES §3 structure."""
    order = permutations(seeds, STREAM_DUET, N_CARDS)  # (B, 25)
    return _DUET_TEMPLATE[:, order].transpose(1, 0, 2).copy()


def competition_board(
    seed: int, pool_lines: Sequence[str], counts: tuple[int, int, int, int] = (8, 7, 9, 1)
) -> tuple[list[int], list[int]]:
    """One board exactly as the AI competition framework deals it.

    ``random.seed(seed)``; shuffle the pool file's lines; the first 25 are the board
    (row-major); then shuffle the key list ``Red*8 + Blue*7 + Civilian*9 + Assassin``
    (``counts`` gives the 2025 benchmark's 9/8/7/1). Returns (pool indices, key codes).
    """
    rng = random.Random(int(seed))
    # Shuffle a list as long as the file (as the framework shuffles its lines): the
    # permutation depends only on the length, so shuffling the indices gives the same board.
    order = list(range(len(pool_lines)))
    rng.shuffle(order)
    cards = order[:N_CARDS]
    red, blue, bystanders, assassins = counts
    key = [RED] * red + [BLUE] * blue + [BYSTANDER] * bystanders + [ASSASSIN] * assassins
    rng.shuffle(key)
    return cards, key


@functools.lru_cache(maxsize=65536)
def _cached_competition_board(seed: int, lines: tuple[str, ...], counts) -> tuple[list, list]:
    # Benchmarks replay the same published seeds many times; dealing one costs ~0.1 ms.
    return competition_board(seed, lines, counts)


def competition_boards(
    seeds: np.ndarray, pool_lines: Sequence[str], counts: tuple[int, int, int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Batch of :func:`competition_board`: ``cards (B, 25) int32``, ``key (B, 25) int8``."""
    lines = tuple(pool_lines)
    dealt = [_cached_competition_board(int(seed), lines, counts) for seed in seeds]
    cards = np.array([cards for cards, _ in dealt], dtype=np.int32).reshape(-1, N_CARDS)
    key = np.array([key for _, key in dealt], dtype=np.int8).reshape(-1, N_CARDS)
    return cards, key


def deal(variant, seeds) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Deal a batch for ``variant``: ``(seeds, cards, key, start)``.

    Team games: ``key (B, 25)``, ``start (B,)``; Duet: ``key (B, 2, 25)``, ``start`` zeros.
    """
    from codebots.vocab import load_pool

    seeds = as_seeds(seeds)
    pool = load_pool(variant.pool)
    if variant.family == "duet":
        return seeds, deal_cards(seeds, len(pool)), duet_keys(seeds), np.zeros(len(seeds), np.int8)
    if variant.board_source == "competition":
        cards, key = competition_boards(seeds, pool.words, variant.counts)
        return seeds, cards, key, np.zeros(len(seeds), np.int8)
    key, start = team_keys(seeds, variant.counts, variant.random_start)
    return seeds, deal_cards(seeds, len(pool)), key, start
