"""Per-model tables for the embedding agents: pool cards x clue vocabulary.

For one (model, pool, vocabulary) the spymaster needs the similarity of every card to every
clue word, each card's nearest valid clue words (its candidate clues), the forbid table of
the clue checker and a frequency prior; the guesser needs the card and clue vectors. The
similarity table is cached on disk keyed by model, pool and vocabulary.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from codebots.cache import cached
from codebots.embeddings import Embedding, load_embedding
from codebots.lexicon import relation_matrix
from codebots.morphology import in_lexicon, zipf
from codebots.validity import CheckOptions, ForbidTable, checker_for, variant_options
from codebots.vocab import clue_vocabulary

DEFAULT_VOCABULARY = 50_000
CANDIDATES_PER_CARD = 100


@dataclass(frozen=True)
class ModelTables:
    model: Embedding
    pool: tuple[str, ...]
    vocabulary: tuple[str, ...]
    card_vectors: np.ndarray  # (P, d) float32 unit, centred on the mean clue vector
    clue_vectors: np.ndarray  # (V, d) float32 unit, centred the same way
    centre: np.ndarray  # (d,) float32 — the mean clue vector subtracted from both
    sims: np.ndarray  # (P, V) float32 — cosine of card p and clue v
    zsims: np.ndarray  # (P, V) float32 — the same, standardized per clue over the pool
    card_sims: np.ndarray  # (P, P) float32 — cosine between cards
    neighbours: np.ndarray  # (P, K) int32 — each card's most similar allowed clue ids, nearest
    # first
    forbid: ForbidTable
    prior: np.ndarray  # (V,) float32 in [0, 1] — commoner words are safer clues
    dictionary: np.ndarray  # (V,) bool — in lemminflect's lexicon (not a name or a brand)
    clue_index: dict  # word -> clue id
    build_seconds: float


CENTRED = "centred-on-the-clue-mean"  # part of the cache key: what the vectors are
CACHE_MIN_POOL = 100  # ad-hoc boards (the clue command) are not worth a cache file


def _cached_sims(model: Embedding, pool, vocabulary, build) -> np.ndarray:
    # Stored as float16 (half the disk; 1e-3 precision is plenty), and rounded the same way
    # when not stored (ad-hoc boards of the clue command), so results never depend on it.
    arrays = cached(
        "sims",
        (model.name, CENTRED, pool, vocabulary),
        f"{model.name} similarities, {len(pool)} cards x {len(vocabulary)} clue words",
        lambda: {"sims": build().astype(np.float16)},
        store=len(pool) >= CACHE_MIN_POOL,
        tag=model.name,
    )
    return arrays["sims"].astype(np.float32)


def shared_vocabulary(models: tuple[str, ...], size: int) -> tuple[str, ...]:
    """The clue vocabulary restricted to words every word model in ``models`` knows."""
    keys = None
    for spec in models:
        for part in spec.split("+"):
            embedding = load_embedding(part)
            wv = getattr(embedding, "wv", None)
            if wv is not None:
                known = frozenset(wv.key_to_index)
                keys = known if keys is None else keys & known
    return clue_vocabulary(size, require=keys)


@functools.lru_cache(maxsize=8)
def model_tables(model: str, pool: tuple[str, ...], vocabulary: tuple[str, ...]) -> ModelTables:
    """Build (or load) the tables of ``model`` for a pool and a clue vocabulary."""
    start = time.perf_counter()
    embedding = load_embedding(model)
    clue_vectors = embedding.embed_words(vocabulary)
    # Centre both on the mean clue vector: every word vector shares a common direction, and
    # without it cards that lean that way are near every clue. Both agents of a model use
    # the same centred vectors (docs/agents.md has the measurements).
    centre = clue_vectors.mean(axis=0)
    raw_cards = embedding.embed_cards(pool)  # (P, d); a zero row: a card the model lacks
    card_vectors = unit_rows(raw_cards - centre)
    card_vectors[~raw_cards.any(axis=1)] = 0.0  # it stays a card of no meaning
    clue_vectors = unit_rows(clue_vectors - centre)
    sims = _cached_sims(embedding, pool, vocabulary, lambda: card_vectors @ clue_vectors.T)
    forbid = checker_for(pool).forbid_table(vocabulary, cache=len(pool) >= CACHE_MIN_POOL)
    neighbours = _best_per_row(_allowed_sims(sims, forbid), CANDIDATES_PER_CARD)
    prior = np.array([zipf(word) for word in vocabulary], dtype=np.float32)
    prior = np.clip((prior - 3.0) / 3.0, 0.0, 1.0)
    dictionary = np.array([in_lexicon(word) for word in vocabulary], dtype=bool)
    # Standardize each clue's similarities over the pool: scales differ between models and
    # between clue words (some are close to everything), z-scores compare across both.
    zsims = (sims - sims.mean(axis=0)) / np.maximum(sims.std(axis=0), 1e-6)
    return ModelTables(
        model=embedding,
        pool=pool,
        vocabulary=vocabulary,
        card_vectors=card_vectors,
        clue_vectors=clue_vectors,
        centre=centre.astype(np.float32),
        sims=sims,
        zsims=zsims.astype(np.float32),
        card_sims=card_vectors @ card_vectors.T,
        neighbours=neighbours,
        forbid=forbid,
        prior=prior,
        dictionary=dictionary,
        clue_index={word: i for i, word in enumerate(vocabulary)},
        build_seconds=time.perf_counter() - start,
    )


@functools.lru_cache(maxsize=8)
@functools.lru_cache(maxsize=8)
def _strict_forbid(pool: tuple[str, ...], vocabulary: tuple[str, ...]) -> ForbidTable:
    checker = checker_for(pool, CheckOptions(strict=True))
    return checker.forbid_table(vocabulary, cache=len(pool) >= CACHE_MIN_POOL)


def forbid_for(variant, tables: ModelTables) -> ForbidTable:
    """The forbid table of ``tables`` under ``variant``'s clue rules: the strict one (every
    clue sharing a piece of letters with a card) with the experts option (RULES section 1)."""
    if not variant_options(variant).strict:
        return tables.forbid
    return _strict_forbid(tables.pool, tables.vocabulary)


def related_neighbours(
    model: str, pool: tuple[str, ...], vocabulary: tuple[str, ...]
) -> np.ndarray:
    """``(P, K) int32``: each card's candidate clues for a lexicon-minded spymaster.

    The allowed clue words the lexicon relates to the card, nearest first, then (to fill K)
    the card's nearest other clue words, so the spymaster keeps a fallback.
    """
    tables = model_tables(model, pool, vocabulary)
    related = relation_matrix(pool, vocabulary)
    # Related words rank above every unrelated one (cosines are < 2 apart); nearest first.
    keyed = _allowed_sims(tables.sims, tables.forbid) + 2.0 * related
    return _best_per_row(keyed, tables.neighbours.shape[1])


def _best_per_row(scores: np.ndarray, k: int) -> np.ndarray:
    """``(rows, k) int32``: the columns of each row's ``k`` highest scores, highest first."""
    k = min(k, scores.shape[1])
    chosen = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    order = np.argsort(-np.take_along_axis(scores, chosen, axis=1), axis=1)
    return np.take_along_axis(chosen, order, axis=1).astype(np.int32)


def _allowed_sims(sims: np.ndarray, forbid: ForbidTable) -> np.ndarray:
    """``sims`` with every (card, clue) the clue checker forbids set to ``-inf``."""
    allowed = sims.copy()
    for row in range(sims.shape[0]):  # a card's own forms are never its candidates
        allowed[row, forbid.indices[forbid.indptr[row] : forbid.indptr[row + 1]]] = -np.inf
    return allowed


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length, as float32."""
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-9)).astype(np.float32)
