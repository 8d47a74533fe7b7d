"""``WordVectors``: unit-normalized, read-only word vectors (gensim ``KeyedVectors`` style).

Its own module so that every source of vectors (the packaged GloVe, gensim files, the gloss
vectors trained on WordNet) can build one without importing the embedding backends.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def normalize(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


class WordVectors:
    """Unit-normalized vectors for a fixed list of keys (gensim ``KeyedVectors`` style)."""

    def __init__(self, name: str, index_to_key: Sequence[str], vectors: np.ndarray):
        if len(index_to_key) != len(vectors):
            raise ValueError(f"{len(index_to_key)} keys but {len(vectors)} vectors")
        self.name = name
        self.index_to_key = list(index_to_key)
        self.key_to_index = {key: i for i, key in enumerate(self.index_to_key)}
        self.vectors = normalize(vectors)
        self.vectors.flags.writeable = False

    def __len__(self) -> int:
        return len(self.index_to_key)

    def __contains__(self, key: str) -> bool:
        return key in self.key_to_index

    @property
    def dim(self) -> int:
        return self.vectors.shape[1]

    def __getitem__(self, key: str) -> np.ndarray:
        return self.vectors[self.key_to_index[key]]
