"""Packed vectors (codebots.packed_vectors) on real GloVe vectors, word stores seeded from
shipped encodings (codebots.encoding_packs), and the shipped packs against their models."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from codebots import encoding_packs, files
from codebots.embeddings import glove_vectors, sentence_recipe
from codebots.packed_vectors import MIN_STEP, STEP_RATIO, cosine_spread, pack, unpack
from codebots.word_store import SEEDED, WordStore, store_directory


@pytest.fixture(scope="module")
def glove_sample():
    vectors = glove_vectors()
    return vectors.vectors[np.random.default_rng(7).choice(50_000, 6000, replace=False)]


def test_packing_moves_cosines_by_the_designed_share_of_their_spread(glove_sample):
    packed = pack(glove_sample)
    assert packed["codes"].dtype == np.int8 and packed["codes"].shape == (50, 6000)
    back = unpack(packed)
    assert back.dtype == np.float32 and np.allclose(np.linalg.norm(back, axis=1), 1, atol=1e-5)
    assert np.sum(back * glove_sample, axis=1).min() > 0.99
    exact = glove_sample[:500] @ glove_sample[500:].T
    moved = glove_sample[:500] @ back[500:].T - exact  # one side packed, as a card and a clue
    # Rounding every coordinate to one step moves a cosine by step / sqrt(12) (uniform error
    # spread over the directions): the share of the spread the step was chosen for.
    designed = STEP_RATIO / np.sqrt(12) * cosine_spread(glove_sample)
    assert 0.7 * designed < moved.std() < 1.3 * designed
    # Nearest neighbours survive: the top of each word's 25 random others is kept mostly.
    top_exact = exact[:, :25].argmax(axis=1)
    top_packed = (glove_sample[:500] @ back[500:525].T).argmax(axis=1)
    assert (top_exact == top_packed).mean() > 0.95


def test_packing_is_deterministic_and_wide_codes_keep_an_outlier(glove_sample):
    first, again = pack(glove_sample), pack(glove_sample.copy())
    assert all(np.array_equal(first[name], again[name]) for name in first)
    # A tight cluster (cosines nearly all alike, so a tiny step) and one word far from it:
    # its codes do not fit in int8 and must not wrap around.
    rng = np.random.default_rng(0)
    cluster = glove_sample[0] + 0.01 * rng.standard_normal((3000, 50)).astype(np.float32)
    cluster = cluster / np.linalg.norm(cluster, axis=1, keepdims=True)
    with_outlier = np.vstack([cluster, -glove_sample[0]])
    packed = pack(with_outlier)
    assert packed["codes"].dtype == np.int16
    back = unpack(packed)
    assert np.dot(back[-1], -glove_sample[0]) > 0.99
    assert np.sum(back[:-1] * cluster, axis=1).min() > 0.99
    # Near-copies whose sampled cosines hardly differ: the step stops at MIN_STEP, and the
    # outlier's codes need int32.
    copies = glove_sample[0] + 1e-4 * rng.standard_normal((60_000, 50)).astype(np.float32)
    copies = copies / np.linalg.norm(copies, axis=1, keepdims=True)
    packed = pack(np.vstack([copies, -glove_sample[0]]))
    assert packed["codes"].dtype == np.int32 and packed["step"] == MIN_STEP
    back = unpack(packed)
    assert np.dot(back[-1], -glove_sample[0]) > 0.999
    assert np.sum(back[:-1] * copies, axis=1).min() > 0.999
    with pytest.raises(ValueError, match="at least two vectors"):
        pack(glove_sample[0])


def _toy(texts, keep=None):  # a word store's mechanics need no model: the length and a 1
    return np.array([[len(text), 1.0] for text in texts], dtype=np.float32)


def test_a_seeded_store_writes_its_seed_once_and_encodes_only_what_it_lacks(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    encoded, seeded = [], []

    def encode(texts, keep=None):
        encoded.append(list(texts))
        return _toy(texts)

    def seed():
        seeded.append(1)
        return ["sea", "ship"], np.array([[9.0, 9.0], [8.0, 8.0]], dtype=np.float32)

    store = WordStore("toy", "seeded-key", 2, encode, seed)
    assert store.get(["ship", "ocean"]).tolist() == [[8, 8], [5, 1]]
    assert encoded == [["ocean"]] and seeded == [1]
    assert (store.directory / SEEDED).exists()
    store.save()
    again = WordStore("toy", "seeded-key", 2, encode, seed)  # another process, warm
    assert again.get(["sea", "ocean", "ship"]).tolist() == [[9, 9], [5, 1], [8, 8]]
    assert encoded == [["ocean"]] and seeded == [1]  # the seed is not read again


def test_a_store_that_cannot_write_plays_with_its_seed_all_the_same(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setattr(files, "CACHE_DIR", blocked)

    def seed():
        return ["sea"], np.array([[9.0, 9.0]], dtype=np.float32)

    store = WordStore("toy", "key", 2, _toy, seed)
    assert store.get(["sea", "ab"]).tolist() == [[9, 9], [2, 1]]


@pytest.mark.parametrize("name", encoding_packs.PACKED_MODELS)
def test_a_damaged_shipped_pack_falls_back_to_encoding_here(name, tmp_path, monkeypatch, capsys):
    recipe = sentence_recipe(name, precision=False)
    shipped = encoding_packs.pack_path(name, recipe)
    assert shipped.exists(), "run `make prebuilt` and commit"
    monkeypatch.setattr(files, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(encoding_packs, "PREBUILT_DIR", tmp_path)
    copy = shutil.copy(shipped, tmp_path / shipped.name)
    encoding_packs.forget()
    plain = (name, "plain key")
    key, seed = encoding_packs.seeding(name, recipe, plain)
    assert key[: len(plain)] == plain and key != plain and seed is not None
    texts, vectors = seed()
    assert len(texts) == len(vectors) > 50_000 and "ocean" in texts
    # Damage the arrays but not the record: caught by the checksum before anything is keyed.
    with np.load(copy) as archive:
        arrays = {member: archive[member] for member in archive.files}
    arrays["codes"] = arrays["codes"].copy()
    arrays["codes"][0, :10] += 1
    np.savez(copy, **arrays)
    encoding_packs.forget()
    assert encoding_packs.seeding(name, recipe, plain) == (plain, None)
    assert "encoding their words here instead" in capsys.readouterr().err
    # A store seeded before: a start reads the pack's record only (its arrays not at all).
    seeded = store_directory(name, key) / SEEDED
    seeded.parent.mkdir(parents=True)
    seeded.touch()
    encoding_packs.forget()
    assert encoding_packs.seeding(name, recipe, plain) == (key, None)
    encoding_packs.forget()


def test_the_shipped_packs_hold_every_clue_vocabulary_and_pool():
    from codebots.prebuilt import pack_texts

    wanted = set(pack_texts())
    for name in encoding_packs.PACKED_MODELS:
        path = encoding_packs.pack_path(name, sentence_recipe(name, precision=False))
        with np.load(path) as archive:
            shipped = set(archive["texts"].tolist())
        missing = sorted(wanted - shipped)
        assert not missing, f"{name}: {len(missing)} missing ({missing[:5]}): run make prebuilt"


SAMPLE = 256  # shipped texts a model encodes again


@pytest.mark.parametrize("name", encoding_packs.PACKED_MODELS)
def test_the_shipped_encodings_are_the_models_own(name, tmp_path, monkeypatch):
    """A sample of the shipped texts encoded here by the model itself: the packed vectors
    are within the packing's rounding of them (on any processor, float32 or bfloat16)."""
    from codebots.embeddings import SENTENCE_MODELS, SentenceEmbedding

    path = encoding_packs.pack_path(name, sentence_recipe(name, precision=False))
    with np.load(path) as archive:
        arrays = {key: archive[key] for key in archive.files}
    rng = np.random.default_rng(3)
    sample = rng.choice(len(arrays["texts"]), SAMPLE, replace=False)
    shipped = unpack(arrays)[sample]
    texts = arrays["texts"][sample].tolist()
    fresh = SentenceEmbedding(name, SENTENCE_MODELS[name]()).encode_texts(texts)
    agreement = np.sum(shipped * fresh, axis=1)
    assert agreement.min() > 0.99, texts[int(agreement.argmin())]


def test_a_cold_mpnet_spymaster_reads_the_shipped_encodings(tmp_path):
    log = tmp_path / "builds.jsonl"
    code = (
        "from codebots.agents import make_agent\n"
        "from codebots.vocab import load_pool\n"
        "make_agent('spymaster', 'mpnet').tables(load_pool('competition').words)\n"
    )
    env = {"CODEBOTS_CACHE": str(tmp_path / "cache"), "CODEBOTS_BUILD_LOG": str(log)}
    environ = {key: value for key, value in os.environ.items() if key != "CODEBOTS_PREBUILT"}
    subprocess.run([sys.executable, "-c", code], env={**environ, **env}, check=True)
    built = [json.loads(line)["kind"] for line in log.read_text().splitlines()]
    assert "encode" not in built and "tables" in built, built
    (store,) = (tmp_path / "cache").glob("words-mpnet-*")
    assert (store / SEEDED).exists()
