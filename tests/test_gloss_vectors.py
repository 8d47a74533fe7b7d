"""Word vectors trained on WordNet's glosses: the sentences, determinism, the trained model."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from codebots.embeddings import load_embedding
from codebots.gloss_vectors import gloss_sentences, gloss_vectors, train


@pytest.fixture(scope="module")
def sentences():
    return gloss_sentences()


def test_one_sentence_per_synset_with_lemmas_and_gloss_words(sentences):
    assert len(sentences) == 117_659  # WordNet 3.0's synsets
    # ice_cream's synset: its lemma split in two, then its gloss
    ice_cream = next(s for s in sentences if s[:2] == ["ice", "cream"])
    assert "frozen" in ice_cream and all(word.isalpha() and word.islower() for word in ice_cream)


TRAIN_SNIPPET = """
import sys
from codebots.gloss_vectors import gloss_sentences, train
keys, vectors = train(gloss_sentences()[:3000])
sys.stdout.write(repr((keys[:5].tolist(), float(vectors.sum()))))
"""


def test_training_gives_the_same_vectors_in_every_process(sentences):
    # Python's string hash differs between processes unless pinned: the vectors must not.
    keys, vectors = train(sentences[:3000])
    expected = repr((keys[:5].tolist(), float(vectors.sum())))
    for hash_seed in ("1", "2"):
        run = subprocess.run(
            [sys.executable, "-c", TRAIN_SNIPPET],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        )
        assert run.stdout == expected


def test_trained_vectors_know_the_dictionary_neighbours():
    # Shipped trained in codebots/prebuilt (else trained once, about 3 minutes, and cached).
    vectors = gloss_vectors()
    assert vectors.name == "wordnet" and vectors.dim == 100 and len(vectors) > 90_000
    assert not vectors.vectors.flags.writeable
    piano = vectors.vectors[vectors.key_to_index["piano"]]
    nearest = [vectors.index_to_key[i] for i in np.argsort(-(vectors.vectors @ piano))[1:11]]
    assert {"violin", "guitar"} & set(nearest), nearest
    embedding = load_embedding("wordnet")
    assert embedding.has("ocean") and not embedding.has("glorbnax")
