"""Per-model tables for the embedding agents: pool cards x clue vocabulary.

For one (model, pool, vocabulary) the spymaster needs the similarity of every card to every
clue word, each card's nearest valid clue words (its candidate clues), the forbid table of
the clue checker and a frequency prior; the guesser needs the card and clue vectors. All of
it is cached on disk, keyed by what it is built from (the model's fingerprint, the pool, the
vocabulary, the clue rules), so a warm start reads arrays and loads no model.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from codebots.cache import cached
from codebots.embeddings import (
    SENTENCE_MODELS,
    SILENT_GAPS,
    Embedding,
    load_embedding,
    model_fingerprint,
)
from codebots.lexicon import relation_matrix
from codebots.morphology import in_lexicon, zipf
from codebots.validity import (
    RULES_FINGERPRINT,
    CheckOptions,
    ForbidTable,
    checker_for,
    variant_options,
)
from codebots.vocab import clue_vocabulary, vocabulary_fingerprint

DEFAULT_VOCABULARY = 50_000
CANDIDATES_PER_CARD = 100


@dataclass(frozen=True)
class ModelTables:
    model_spec: str  # the embedding spec (``glove``, ``glove+minilm``); see ``model``
    pool: tuple[str, ...]
    vocabulary: tuple[str, ...]
    card_vectors: np.ndarray  # (P, d) float32 unit, centred on the mean clue vector
    clue_vectors: np.ndarray  # (V, d) float32 unit, centred the same way
    centre: np.ndarray  # (d,) float32 — the mean clue vector subtracted from both
    sims: np.ndarray  # (P, V) float16 — cosine of card p and clue v (stored so: 1e-3 is
    # plenty, and half the memory; cast what you gather)
    zsims: np.ndarray  # (P, V) float32 — the same, standardized per clue over the pool
    card_sims: np.ndarray  # (P, P) float32 — cosine between cards
    neighbours: np.ndarray  # (P, K) int32 — each card's most similar allowed clue ids, nearest
    # first
    forbid: ForbidTable
    prior: np.ndarray  # (V,) float32 in [0, 1] — commoner words are safer clues
    dictionary: np.ndarray  # (V,) bool — in lemminflect's lexicon (not a name or a brand)
    clue_index: dict  # word -> clue id
    build_seconds: float

    @property
    def model(self) -> Embedding:
        """The model itself, loaded on first use: tables read from the cache play without it
        (it embeds only words outside the vocabulary)."""
        return load_embedding(self.model_spec)


CENTRED = "centred-on-the-clue-mean"  # part of the cache key: what the vectors are
CACHE_MIN_POOL = 100  # ad-hoc boards (the clue command) are not worth a cache file
TABLES_FORMAT = 4  # part of the cache key: what the cached arrays are
# Clue vectors of more dimensions than this are not stored with the tables (a sentence
# model's are its encodings, cached already; 50,000 x 768 floats would be 150 MB again).
STORED_CLUE_DIMENSIONS = 300
CLUE_WORDS_FORMAT = 1  # part of the cache key of clue_word_columns


@functools.lru_cache(maxsize=16)
def shared_vocabulary(models: tuple[str, ...], size: int) -> tuple[str, ...]:
    """The clue vocabulary restricted to words every word model in ``models`` knows.

    A model silent on its gaps (``gcide``, :data:`~codebots.embeddings.SILENT_GAPS`)
    narrows it only for an agent with no other mind than it and GloVe (the agents' base
    vocabulary): beside any other mind, the others speak for the words it lacks, and a
    committee keeps its clue words (whose sentence-model encodings ship packed).
    Cached on disk by the models' fingerprints: a warm start loads no model to know it.
    """
    parts = [part.strip() for spec in models for part in spec.split("+") if part.strip()]
    speaking = set(parts) - SILENT_GAPS - {"glove"}
    word_models = tuple(
        dict.fromkeys(
            part
            for part in parts
            if part not in SENTENCE_MODELS and (part not in SILENT_GAPS or not speaking)
        )
    )

    def build() -> dict[str, np.ndarray]:
        keys = None
        for part in word_models:
            known = frozenset(load_embedding(part).wv.key_to_index)
            keys = known if keys is None else keys & known
        return {"words": np.array(clue_vocabulary(size, require=keys))}

    arrays = cached(
        "vocabulary",
        (vocabulary_fingerprint(), size, tuple(model_fingerprint(m) for m in word_models)),
        f"{size:,} clue words known to {', '.join(word_models) or 'every model'}",
        build,
        tag="-".join(word_models),
    )
    return tuple(arrays["words"].tolist())


@functools.lru_cache(maxsize=8)
def model_tables(model: str, pool: tuple[str, ...], vocabulary: tuple[str, ...]) -> ModelTables:
    """Build (or load) the tables of ``model`` for a pool and a clue vocabulary."""
    start = time.perf_counter()
    store = len(pool) >= CACHE_MIN_POOL
    forbid = checker_for(pool).forbid_table(vocabulary, cache=store)
    arrays = cached(
        "tables",
        (TABLES_FORMAT, model_fingerprint(model), CENTRED, RULES_FINGERPRINT, pool, vocabulary),
        f"{model} tables, {len(pool)} cards x {len(vocabulary)} clue words",
        lambda: _table_arrays(model, pool, vocabulary, forbid),
        store=store,
        tag=model,
    )
    clue_vectors = arrays.get("clue_vectors")
    if clue_vectors is None:  # a sentence model's: from its cached encodings
        embedding = load_embedding(model)
        clue_vectors = centred_units(embedding.embed_vocabulary(vocabulary), arrays["centre"])
    card_vectors = arrays["card_vectors"]
    # Stored as float16 (half the disk; 1e-3 precision is plenty), and rounded the same way
    # when not stored (ad-hoc boards of the clue command), so results never depend on it.
    # The per-clue mean and spread standardize them (see _table_arrays).
    sims = arrays["sims"]
    # Standardized in place (79 MB once, not four times), card-major: a spymaster gathers a
    # board's 25 rows, then its candidates' columns of them (codebots.agents.board_gather).
    zsims = sims.astype(np.float32)  # (P, V)
    zsims -= arrays["clue_mean"][None, :]
    zsims /= arrays["clue_spread"][None, :]
    return ModelTables(
        model_spec=model,
        pool=pool,
        vocabulary=vocabulary,
        card_vectors=card_vectors,
        clue_vectors=clue_vectors,
        centre=arrays["centre"],
        sims=sims,
        zsims=zsims,
        card_sims=card_vectors @ card_vectors.T,
        neighbours=arrays["neighbours"],
        forbid=forbid,
        prior=arrays["prior"],
        dictionary=arrays["dictionary"],
        clue_index={word: i for i, word in enumerate(vocabulary)},
        build_seconds=time.perf_counter() - start,
    )


def _table_arrays(model: str, pool, vocabulary, forbid: ForbidTable) -> dict[str, np.ndarray]:
    """The arrays of :func:`model_tables` built from the model itself."""
    embedding = load_embedding(model)
    clue_vectors = embedding.embed_vocabulary(vocabulary)
    # Centre both on the mean clue vector: every word vector shares a common direction, and
    # without it cards that lean that way are near every clue. Both agents of a model use
    # the same centred vectors (docs/agents.md has the measurements).
    # (A NaN entry is a word a part of a combined model has no opinion of: see centred_units.)
    unknown = np.isnan(clue_vectors).any()
    centre = np.nanmean(clue_vectors, axis=0) if unknown else clue_vectors.mean(axis=0)
    raw_cards = embedding.embed_cards(pool)  # (P, d); a zero row: a card the model lacks
    card_vectors = unit_rows(raw_cards - centre)
    card_vectors[~raw_cards.any(axis=1)] = 0.0  # it stays a card of no meaning
    clue_vectors = centred_units(clue_vectors, centre)
    sims = (card_vectors @ clue_vectors.T).astype(np.float16)
    rounded = sims.astype(np.float32)  # what model_tables reads back
    neighbours = _best_per_row(_allowed_sims(rounded, forbid), CANDIDATES_PER_CARD)
    arrays = {
        "card_vectors": card_vectors,
        "centre": centre.astype(np.float32),
        "sims": sims,
        # Each clue's similarities are standardized over the pool (scales differ between
        # models and between clue words, some close to everything; z-scores compare across
        # both): its mean and spread, a (column-wise) pass of seconds kept with the table.
        "clue_mean": rounded.mean(axis=0),
        "clue_spread": np.maximum(rounded.std(axis=0), 1e-6),
        "neighbours": neighbours,
        **clue_word_columns(vocabulary),  # by the vocabulary alone: ad-hoc boards too
    }
    if clue_vectors.shape[1] <= STORED_CLUE_DIMENSIONS:
        arrays["clue_vectors"] = clue_vectors
    return arrays


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


@functools.lru_cache(maxsize=8)
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


@functools.lru_cache(maxsize=8)
def nearest_clue_words(
    model: str, pool: tuple[str, ...], vocabulary: tuple[str, ...], width: int
) -> np.ndarray:
    """``(P, width) int32``: each card's ``width`` nearest allowed clue words, nearest first:
    the tables' own :data:`CANDIDATES_PER_CARD` when that many do, else a wider list found
    from the tables' similarities (under a second for the competition pool)."""
    tables = model_tables(model, pool, vocabulary)
    if width <= tables.neighbours.shape[1]:
        return tables.neighbours[:, :width]
    return _best_per_row(_allowed_sims(tables.sims, tables.forbid), width)


def familiarity(zipf_frequency):
    """The frequency prior of a word of this wordfreq Zipf frequency, in [0, 1]: 0 at Zipf 3
    (once in a million words) and below, 1 at Zipf 6 (a thousand times in a million)."""
    return np.clip((np.asarray(zipf_frequency, dtype=np.float32) - 3.0) / 3.0, 0.0, 1.0)


def familiar(tables: ModelTables, words: np.ndarray, min_zipf: float) -> np.ndarray | bool:
    """Which clue ids ``words`` are at least Zipf ``min_zipf`` common (True: no floor, at 3 and
    below every word's prior is 0)."""
    if min_zipf <= 3.0:
        return True
    return tables.prior[words] >= familiarity(min_zipf)


def clue_word_columns(vocabulary: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The columns of every model's tables that no model decides: each clue word's frequency
    prior and whether lemminflect's dictionary knows it. Three seconds of lookups for 50,000
    words, so cached once per vocabulary rather than paid in every model's cold build."""

    def build() -> dict[str, np.ndarray]:
        prior = np.array([zipf(word) for word in vocabulary], dtype=np.float32)
        return {
            "prior": familiarity(prior),
            "dictionary": np.array([in_lexicon(word) for word in vocabulary], dtype=bool),
        }

    key = (CLUE_WORDS_FORMAT, vocabulary)
    return cached("clue_words", key, f"{len(vocabulary)} clue words", build)


def _best_per_row(scores: np.ndarray, k: int) -> np.ndarray:
    """``(rows, k) int32``: the columns of each row's ``k`` highest scores, highest first."""
    k = min(k, scores.shape[1])
    chosen = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    order = np.argsort(-np.take_along_axis(scores, chosen, axis=1), axis=1)
    return np.take_along_axis(chosen, order, axis=1).astype(np.int32)


def _allowed_sims(sims: np.ndarray, forbid: ForbidTable) -> np.ndarray:
    """``sims`` as float32 (a new array) with every (card, clue) the clue checker forbids set
    to ``-inf``."""
    allowed = sims.astype(np.float32)
    for row in range(sims.shape[0]):  # a card's own forms are never its candidates
        allowed[row, forbid.indices[forbid.indptr[row] : forbid.indptr[row + 1]]] = -np.inf
    return allowed


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length, as float32."""
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-9)).astype(np.float32)


def centred_units(clue_vectors: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Clue vectors minus the centre, scaled to unit length. A NaN entry is a word some part
    of a combined model has no opinion of: that part stays silent (0) for the word, the rest
    speaks; a word no part knows has a zero vector, near no card (its z-scores all 0)."""
    centred = clue_vectors - centre
    if np.isnan(centred).any():
        centred = np.nan_to_num(centred, nan=0.0)
    return unit_rows(centred)
