"""The spymaster's per-board gathers, laid out ``(G, T, S, K)`` for its scoring loop.

A spymaster's candidate clues for a block of ``G`` games are the ``K`` neighbours of each of
its first ``S`` target slots: ``candidates[g, j * K + k] = neighbours[cards_l[g, j], k]``. Its
scores need every candidate's similarity to each of the ``T`` cards that count on the board,
``G * T * S * K`` values a block. The card axis comes first (after the games): the max over a
clue's threats is then an elementwise max of contiguous ``(S, K)`` blocks.

Two gathers give the same values. From the card-major ``(P, V)`` z table (79 MB for GloVe,
larger than the cache), a board's rows are copied side by side and its candidates' columns
taken from them, one ``take`` a game. The candidates touch most cache lines of a row anyway,
so the copy reads each row once, in order: 20 ms a model for 64 Duet games of 400
candidates a card, against 54 ms for one flat ``take`` of every value from a clue-major
table. The *pair table* ``pairs[t, o, k] = zsims[o, neighbours[t, k]]`` ((P, P, K) per pool
and model) holds the ``K`` candidates of a (target, card) pair side by side, so a block
gathers ``G * T * S`` contiguous runs instead: 1.0 ms against 20 ms for a 64-game block of
100 candidates a card.

The pair tables cost ``P * P * K * 4`` bytes each (62 MB for the 395-card competition pool
at 100 candidates) and about 0.05 s to build, so they are built for batches of at least
:data:`PAIR_TABLE_MIN_GAMES` games while they fit in :data:`PAIR_TABLE_BYTES`; smaller
batches (a person's game, ``--games 1``), larger pools and wider candidate lists gather from
the z table.
"""

from __future__ import annotations

import functools

import numpy as np

from codebots.validity import ranges

PAIR_TABLE_BYTES = 512 * 2**20  # all pair tables of one spymaster together
# A batch this large repays the tables' build (0.05 s a model): single-team cross-play,
# 128 games in 0.25 s with them against 1.6 s from the z table (the build paid before).
PAIR_TABLE_MIN_GAMES = 64


class BoardGather:
    """The gathers of one spymaster on one pool: its ``neighbours`` ``(P, K)`` candidate
    table and the z tables of its models."""

    def __init__(self, neighbours: np.ndarray, zsims: list[np.ndarray]):
        self.neighbours = neighbours  # (P, K) int32
        self.pool, self.width = neighbours.shape
        self._zsims = zsims  # each (P, V) float32, C-contiguous (card-major)
        self._fits = len(zsims) * self.pool**2 * self.width * 4 <= PAIR_TABLE_BYTES
        self._pairs: list[np.ndarray] | None = None  # each (P * P, K) float32
        self._related: tuple | None = None  # (relation matrix, (P * P, K) bool)
        self._forbidders: dict[int, tuple] = {}  # id(forbid table) -> (table, triples)

    def prepare(self, batch: int) -> None:
        """Build the pair tables if a batch of ``batch`` games repays them."""
        if self._pairs is None and self._fits and batch >= PAIR_TABLE_MIN_GAMES:
            self._pairs = [_pair_table(zsims, self.neighbours) for zsims in self._zsims]

    def candidates(self, cards_l: np.ndarray, slots: int) -> np.ndarray:
        """``(G, S * K)`` the candidate clue ids of the first ``slots`` board slots."""
        return self.neighbours[cards_l[:, :slots]].reshape(len(cards_l), -1)

    def sims(self, model: int, targets: np.ndarray, board: np.ndarray) -> np.ndarray:
        """``(G, R, S, K)`` float32 (a new array): model ``model``'s z of candidate
        ``(j, k)``, neighbour ``k`` of card ``targets[g, j]``, for card ``board[g, o]``, at
        ``[g, o, j, k]`` (``targets`` (G, S) and ``board`` (G, R) pool ids)."""
        if self._pairs is not None:
            return self._pairs[model].take(self._pair_rows(targets, board), axis=0)
        zsims = self._zsims[model]  # (P, V)
        size, slots = targets.shape
        candidates = self.neighbours[targets].reshape(size, -1)  # (G, S * K)
        out = np.empty((size, board.shape[1], candidates.shape[1]), dtype=zsims.dtype)
        for game in range(size):
            # The board's rows side by side (a few MB, read in order), then the candidates'
            # columns of them; "clip" because numpy buffers ``out`` under the default "raise"
            # (every id is in range).
            zsims[board[game]].take(candidates[game], axis=1, out=out[game], mode="clip")
        return out.reshape(size, board.shape[1], slots, self.width)

    def related(self, relation: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """``(G, S, S, K)`` bool: ``relation`` (the lexicon's (P, V) matrix) relates card
        ``targets[g, i]`` to candidate ``(j, k)``, at ``[g, i, j, k]``."""
        if self._pairs is not None:
            if self._related is None or self._related[0] is not relation:
                self._related = (relation, _pair_table(relation, self.neighbours))
            return self._related[1].take(self._pair_rows(targets, targets), axis=0)
        return relation[targets[:, :, None, None], self.neighbours[targets][:, None, :, :]]

    def _pair_rows(self, targets: np.ndarray, board: np.ndarray) -> np.ndarray:
        """``(G, R, S)`` the pair tables' rows of (target ``j``, board card ``o``) at
        ``[g, o, j]``."""
        return targets[:, None, :] * self.pool + board[:, :, None]

    def forbidden(self, forbid, cards: np.ndarray, visible: np.ndarray, cards_l, slots: int):
        """``(G, S * K)`` bool: a visible card of board ``g`` forbids candidate ``(j, k)``
        (``forbid`` a :class:`~codebots.validity.ForbidTable`; the same verdicts as its
        ``forbidden``, from the few (target, neighbour, forbidding card) triples of the pool)."""
        entry = self._forbidders.get(id(forbid))
        if entry is None or entry[0] is not forbid:
            entry = (forbid, _forbidding_triples(forbid, self.neighbours))
            self._forbidders[id(forbid)] = entry
        starts_of, neighbour, forbidder = entry[1]
        size = len(cards)
        on_board = np.zeros((size, self.pool), dtype=bool)  # (G, P) the board's visible cards
        games, positions = np.nonzero(visible)
        on_board[games, cards[games, positions]] = True
        rows = cards_l[:, :slots].ravel()  # owner g * S + j
        owners, entries = ranges(starts_of[rows], starts_of[rows + 1] - starts_of[rows])
        hit = on_board[owners // slots, forbidder[entries]]
        out = np.zeros(size * slots * self.width, dtype=bool)
        out[owners[hit] * self.width + neighbour[entries[hit]]] = True
        return out.reshape(size, slots * self.width)


def _pair_table(by_card: np.ndarray, neighbours: np.ndarray) -> np.ndarray:
    """``(P * P, K)``: ``by_card[o, neighbours[t, k]]`` at row ``t * P + o``, column ``k``
    (``by_card`` a (P, V) table)."""
    pool, width = neighbours.shape
    # One transposed copy, then each target's neighbours are whole rows of it: 0.05 s for the
    # competition pool, against 0.1 s taking the columns of the card-major table directly.
    by_clue = np.ascontiguousarray(by_card.T)  # (V, P)
    pairs = np.empty((pool, pool, width), dtype=by_card.dtype)
    for target in range(pool):
        pairs[target] = by_clue[neighbours[target]].T
    return pairs.reshape(pool * pool, width)


def _forbidding_triples(forbid, neighbours: np.ndarray):
    """Every (card ``t``, neighbour rank ``k``, card ``o``) where card ``o`` forbids clue
    ``neighbours[t, k]``, grouped by ``t``: ``(starts (P + 1,), k (n,), o (n,))``."""
    pool, width = neighbours.shape
    flat = neighbours.ravel()
    order = np.argsort(flat, kind="stable")
    ordered = flat[order]
    # The forbidden (card o, clue c) pairs of the CSR table, then each c's neighbour slots.
    forbidders = np.repeat(np.arange(pool), np.diff(forbid.indptr[: pool + 1]))
    clues = forbid.indices[: forbid.indptr[pool]]
    lows = np.searchsorted(ordered, clues, side="left")
    highs = np.searchsorted(ordered, clues, side="right")
    pair_of, offsets = ranges(lows, highs - lows)
    slots = order[offsets]  # positions t * K + k in neighbours
    targets, ranks = np.divmod(slots, width)
    by_target = np.argsort(targets, kind="stable")
    starts = np.zeros(pool + 1, dtype=np.int64)
    np.cumsum(np.bincount(targets, minlength=pool), out=starts[1:])
    return starts, ranks[by_target], forbidders[pair_of][by_target]


@functools.cache
def comparators(size: int) -> tuple[tuple[int, int], ...]:
    """Batcher's odd-even merge sorting network for ``size`` inputs (any size): the
    compare-exchange pairs ``(i, j)``, ``i < j``, that sort ascending."""
    pairs = []
    span = 1
    while span < size:
        step = span
        while step >= 1:
            for start in range(step % span, size - step, 2 * step):
                for i in range(min(step, size - start - step)):
                    if (i + start) // (2 * span) == (i + start + step) // (2 * span):
                        pairs.append((i + start, i + start + step))
            step //= 2
        span *= 2
    return tuple(pairs)


def descending(values: np.ndarray, axis: int) -> list[np.ndarray]:
    """The slices of ``values`` along ``axis`` sorted elementwise, largest first: ``out[0]``
    is the max, ``out[-1]`` the min (the values of ``np.sort``; no NaN expected).

    A sorting network of elementwise min/max over whole slices: for the few (at most 9)
    targets of a board it beats ``np.sort`` along a short axis several times over."""
    rows = [np.take(values, i, axis=axis) for i in range(values.shape[axis])]
    for low, high in comparators(len(rows)):
        rows[low], rows[high] = np.minimum(rows[low], rows[high]), np.maximum(rows[low], rows[high])
    return rows[::-1]


def penalty(mask: np.ndarray, where_true: np.ndarray | float = 0.0) -> np.ndarray:
    """``where_true`` where ``mask`` holds, ``-inf`` elsewhere, as float32 (an additive mask)."""
    return np.where(mask, where_true, -np.inf).astype(np.float32)


class RowMax:
    """The max over a few marked rows (an assassin or three) of ``(G, R, S, K)`` values:
    the values of ``(values + penalty(rows per card)).max(axis=1)``, ``-inf`` for a game
    with none marked, read from the marked rows instead of all ``R`` (the rows are found
    once, then read for every model)."""

    def __init__(self, rows: np.ndarray):  # rows (G, R) bool
        count = rows.sum(axis=1)  # (G,)
        self.width = int(count.max(initial=0))
        self.none = count == 0  # (G,)
        marked = np.argsort(~rows, axis=1, kind="stable")[:, : self.width]  # (G, A)
        # A game with fewer marked rows repeats its first one (the max does not change).
        self.marked = np.where(np.arange(self.width) < count[:, None], marked, marked[:, :1])
        self.games = np.arange(len(rows))[:, None]  # (G, 1)

    def __call__(self, values: np.ndarray) -> np.ndarray:
        if self.width == 0:
            return np.full(values.shape[:1] + values.shape[2:], -np.inf, dtype=values.dtype)
        picked = values[self.games, self.marked]  # (G, A, S, K)
        best = picked[:, 0] if self.width == 1 else picked.max(axis=1)
        if self.none.any():
            best[self.none] = -np.inf
        return best
