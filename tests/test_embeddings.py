"""Word vectors: the packaged GloVe, gensim files (a real GloVe slice), MiniLM, combinations."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codebots.embeddings import (
    CombinedEmbedding,
    KeyedEmbedding,
    WordVectors,
    glove_vectors,
    load_embedding,
    load_keyed_vectors,
)
from codebots.errors import CodebotsError

DATA = Path(__file__).parent / "data"


def cosine(a, b):
    return float(np.dot(a, b))


def test_glove_is_gensim_style_and_unit_normalized():
    wv = glove_vectors()
    assert len(wv) == 400_000 and wv.vectors.shape == (400_000, 50)
    assert wv.vectors.dtype == np.float32 and not wv.vectors.flags.writeable
    assert wv.index_to_key[wv.key_to_index["ocean"]] == "ocean"
    assert np.allclose(np.linalg.norm(wv.vectors[:1000], axis=1), 1.0, atol=1e-5)
    assert cosine(wv["king"], wv["queen"]) > cosine(wv["king"], wv["carrot"]) + 0.3


def test_multi_word_cards_use_the_joined_key_else_average_their_words():
    glove = load_embedding("glove")
    wv = glove.wv
    assert np.allclose(glove.card_vector("ICE CREAM"), wv["icecream"])  # GloVe knows it
    assert "horaceslughorn" not in wv and "horace_slughorn" not in wv
    expected = wv["horace"] + wv["slughorn"]
    vector = glove.card_vector("HORACE SLUGHORN")
    assert np.allclose(vector, expected / np.linalg.norm(expected), atol=1e-5)
    assert np.allclose(glove.card_vector("OCEAN"), wv["ocean"])


def test_unknown_words_use_compound_parts_then_fail_clearly():
    glove = load_embedding("glove")
    assert "polyjuice" not in glove.wv
    vector = glove.card_vector("POLYJUICE")  # poly + juice
    parts = glove.wv["poly"] + glove.wv["juice"]
    assert np.allclose(vector, parts / np.linalg.norm(parts), atol=1e-5)
    with pytest.raises(CodebotsError, match="the card 'XQZWV' has no vector in 'glove'"):
        glove.card_vector("XQZWV")
    with pytest.raises(CodebotsError, match="2 word\\(s\\) have no vector in 'glove': xqzwv, qqqj"):
        glove.embed_words(["ocean", "xqzwv", "qqqj"])


@pytest.mark.parametrize("name", ["glove_slice.w2v.txt", "glove_slice.glove.txt"])
def test_gensim_files_load_with_the_same_vectors(name):
    wv = load_keyed_vectors(DATA / name)
    glove = glove_vectors()
    assert len(wv) == 132
    for word in ("king", "queen", "ocean", "potter"):
        assert np.allclose(wv[word], glove[word], atol=1e-4)
    embedding = load_embedding(f"kv:{DATA / name}")
    assert isinstance(embedding, KeyedEmbedding) and embedding.dim == 50


def test_bad_vector_files_and_specs_are_clear_errors(tmp_path):
    with pytest.raises(CodebotsError, match="does not exist"):
        load_keyed_vectors(tmp_path / "missing.bin")
    broken = tmp_path / "broken.txt"
    broken.write_text("3 50\nking 0.1 0.2\n")
    with pytest.raises(CodebotsError, match="cannot read vectors from"):
        load_keyed_vectors(broken)
    with pytest.raises(CodebotsError, match="unknown embedding 'word3vec'"):
        load_embedding("word3vec")


def test_word_vectors_reject_mismatched_shapes():
    with pytest.raises(ValueError, match="2 keys but 3 vectors"):
        WordVectors("x", ["a", "b"], np.ones((3, 4)))


def test_minilm_runs_offline_from_the_packaged_model(monkeypatch):
    pytest.importorskip("sentence_transformers")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    minilm = load_embedding("minilm")
    vectors = minilm.embed_words(["ocean", "sea", "carrot"])
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert cosine(vectors[0], vectors[1]) > cosine(vectors[0], vectors[2]) + 0.2
    cards = minilm.embed_cards(["ICE CREAM", "HARRY POTTER"])  # phrases embedded as written
    assert cards.shape == (2, 384)


def test_a_sentence_models_word_vector_never_depends_on_what_came_with_it(tmp_path, monkeypatch):
    """Results must not depend on which agent encoded a word first, nor on the list it came
    in. A padded batch rounds a word's vector differently (~3e-7) from the word alone; texts
    of one token count in batches of one shape do not, so one word store per model serves
    every list: a second list costs only its new words, and another process reads them back."""
    pytest.importorskip("sentence_transformers")
    from codebots import files
    from codebots.embeddings import SENTENCE_BATCH, SentenceEmbedding
    from codebots.model_files import minilm_path

    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    words = ["ocean", "seahorse", "cat", "xylophonist", "sea", "wind"]
    crowd = [f"{word}s" for word in words] + ["a", "internationalization", "dog", "quay"]
    first = SentenceEmbedding("minilm", minilm_path())
    monkeypatch.setenv("CODEBOTS_THREADS", "1")  # one encoding thread here, two below
    alone = np.stack([first.encode_texts([word])[0] for word in words])
    padded = first.model.encode(crowd + words, batch_size=64, convert_to_numpy=True)
    padded /= np.linalg.norm(padded, axis=1, keepdims=True)
    assert not np.array_equal(padded[len(crowd) :], alone)  # why batches have one shape
    # The model's own vectors (in the last digits, bfloat16 where the processor has it).
    assert ((padded[len(crowd) :] * alone).sum(axis=1) > 0.999).all()
    many = crowd * 20 + words  # more than one batch of each token count
    assert len(many) > 2 * SENTENCE_BATCH
    monkeypatch.setenv("CODEBOTS_THREADS", "2")  # batches side by side: the same vectors
    assert np.array_equal(first.encode_texts(many)[-len(words) :], alone)
    assert np.array_equal(first.encode_texts(words[::-1])[::-1], alone)
    kept: dict[str, np.ndarray] = {}  # what a word store keeps while a long list encodes
    returned = first.encode_texts(
        many, keep=lambda texts, vectors: kept.update(zip(texts, vectors))
    )
    assert sorted(kept) == sorted(set(many))
    assert all(np.array_equal(kept[text], vector) for text, vector in zip(many, returned))

    encoded: list[list[str]] = []
    encode = first.encode_texts
    monkeypatch.setattr(first, "encode_texts", lambda new: encoded.append(new) or encode(new))
    assert np.array_equal(first.embed_vocabulary(crowd + words)[len(crowd) :], alone)
    assert np.array_equal(first.embed_words(words + ["ocean floor"])[: len(words)], alone)
    assert encoded == [crowd + words, ["ocean floor"]]  # the second list: its new text only
    first.store.save()  # at exit, or while words come at most every SAVE_SECONDS
    assert len(list(tmp_path.glob("words-minilm-*/*.txt"))) == 1

    again = SentenceEmbedding("minilm", minilm_path())  # another process: read, not encoded
    monkeypatch.setattr(again, "encode_texts", lambda new: pytest.fail(f"encoded {new}"))
    assert np.array_equal(again.embed_words(words), alone)
    assert np.array_equal(again.embed_cards(["OCEAN FLOOR"]), first.embed_words(["ocean floor"]))


def test_a_damaged_word_store_shard_is_ignored_and_its_words_encoded_again(
    tmp_path, monkeypatch, capsys
):
    from codebots import files
    from codebots.word_store import WordStore

    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    calls = []

    def encode(texts):  # a real model is not needed to keep vectors: the length and a 1
        calls.append(list(texts))
        return np.array([[len(text), 1.0] for text in texts], dtype=np.float32)

    store = WordStore("toy", "key", 2, encode)
    assert store.get(["ab", "abc"]).tolist() == [[2, 1], [3, 1]]
    store.save()
    (shard,) = tmp_path.glob("words-toy-*/*.npy")
    np.save(shard, np.zeros((3, 2), dtype=np.float32))  # three vectors for two texts
    fresh = WordStore("toy", "key", 2, encode)
    assert fresh.get(["abc", "ab"]).tolist() == [[3, 1], [2, 1]]
    assert calls == [["ab", "abc"], ["abc", "ab"]]
    assert "ignoring the damaged word store shard" in capsys.readouterr().err


def test_many_word_store_shards_merge_into_one(tmp_path, monkeypatch):
    from codebots import files, word_store
    from codebots.word_store import WordStore

    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(word_store, "MAX_SHARDS", 3)

    def encode(texts):
        return np.array([[len(text), 2.0] for text in texts], dtype=np.float32)

    store = WordStore("toy", "key", 2, encode)
    for word in ["a", "bb", "ccc", "dddd"]:
        store.get([word])
        store.save()
    assert len(list(tmp_path.glob("words-toy-*/*.txt"))) == 1
    fresh = WordStore("toy", "key", 2, lambda texts: pytest.fail(f"encoded {texts}"))
    assert fresh.get(["dddd", "a", "ccc", "bb"])[:, 0].tolist() == [4, 1, 3, 2]


def _toy_vectors(texts):  # a real model is not needed to keep vectors: the length and a 3
    return np.array([[len(text), 3.0] for text in texts], dtype=np.float32)


def test_a_long_encoding_merges_the_shards_after_it_lets_go_of_its_lock(tmp_path, monkeypatch):
    """A list of BULK texts is encoded under the store's lock; merging many shards takes that
    lock too, so a store already holding MAX_SHARDS shards once waited for itself forever."""
    import threading

    from codebots import files, word_store
    from codebots.word_store import BULK, WordStore

    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(word_store, "MAX_SHARDS", 3)
    store = WordStore("toy", "key", 2, lambda texts, keep=None: _toy_vectors(texts))
    for word in ["a", "bb", "ccc"]:  # loose words, a shard each (a play session's clues)
        store.get([word])
        store.save()
    assert len(list(tmp_path.glob("words-toy-*/*.txt"))) == 3
    many = [f"word{i}" for i in range(BULK)]
    got = []
    bulk = threading.Thread(target=lambda: got.append(store.get(many)), daemon=True)
    bulk.start()
    bulk.join(timeout=60)
    assert not bulk.is_alive(), "the bulk encoding waited for its own lock"
    np.testing.assert_array_equal(got[0], _toy_vectors(many))
    assert len(list(tmp_path.glob("words-toy-*/*.txt"))) == 1  # merged once the lock was free


def test_an_interrupted_long_encoding_keeps_what_it_finished(tmp_path, monkeypatch):
    """Ctrl-C (or a crash) in a cold build of a word list: the next run encodes only the
    texts the first had not reached."""
    from codebots import files, word_store
    from codebots.word_store import BULK, WordStore

    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(word_store, "SAVE_SECONDS", 0.0)
    many = [f"word{i}" for i in range(BULK + 200)]

    def stopped(texts, keep=None):  # finishes batches of 100, then Ctrl-C
        for start in range(0, 700, 100):
            keep(texts[start : start + 100], _toy_vectors(texts[start : start + 100]))
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        WordStore("toy", "key", 2, stopped).get(many)
    asked = []
    again = WordStore(
        "toy", "key", 2, lambda texts, keep=None: asked.append(texts) or _toy_vectors(texts)
    )
    np.testing.assert_array_equal(again.get(many), _toy_vectors(many))
    assert asked == [many[700:]]


def test_combined_cosine_is_the_mean_of_the_models():
    pytest.importorskip("sentence_transformers")
    glove, minilm = load_embedding("glove"), load_embedding("minilm")
    both = load_embedding("glove+minilm")
    assert isinstance(both, CombinedEmbedding) and both.dim == 50 + 384
    a, b = both.embed_words(["ocean", "water"])
    g = glove.embed_words(["ocean", "water"])
    m = minilm.embed_words(["ocean", "water"])
    assert np.isclose(cosine(a, b), (cosine(*g) + cosine(*m)) / 2, atol=1e-5)


def test_a_card_the_dictionary_mind_lacks_means_nothing_to_it():
    # The dictionary vectors know few names: in a committee such a card is a zero vector
    # (every clue as far from it), where a single-model agent's pool error stays.
    from codebots.agents.tables import model_tables, shared_vocabulary

    vocabulary = shared_vocabulary(("glove", "wordnet"), 2_000)
    pool = ("GAMORA", "DOG", "OCEAN")
    tables = model_tables("wordnet", pool, vocabulary)
    assert not tables.card_vectors[0].any() and not tables.sims[0].any()
    assert tables.card_vectors[1].any() and np.isfinite(tables.zsims).all()
    with pytest.raises(CodebotsError, match="the card 'QWXZK' has no vector in 'glove'"):
        model_tables("glove", ("QWXZK", "DOG"), vocabulary)


def test_a_word_a_part_has_no_opinion_of_is_silent_in_that_part():
    # A combined model may have a part that lacks some clue words (NaN rows): its columns
    # stay 0 for those words, the centre is taken over the words it knows, and the other
    # parts speak as before; with no NaN the vectors are exactly as they always were.
    from codebots.agents.tables import centred_units, unit_rows

    words = ["ocean", "water", "ship", "bank", "money", "river", "piano", "music", "king"]
    glove, gloss = load_embedding("glove"), load_embedding("wordnet")
    both = np.concatenate([glove.embed_words(words), gloss.embed_words(words)], axis=1)
    centre = both.mean(axis=0)
    assert np.array_equal(centred_units(both, centre), unit_rows(both - centre))

    lacking = both.copy()
    lacking[[1, 4], 50:] = np.nan  # the second part knows neither WATER nor MONEY
    lacking[8, :] = np.nan  # and no part knows KING
    centre = np.nanmean(lacking, axis=0)
    assert np.allclose(centre[50:], both[[0, 2, 3, 5, 6, 7], 50:].mean(axis=0))
    units = centred_units(lacking, centre)
    assert np.isfinite(units).all()
    assert not units[[1, 4], 50:].any() and not units[8].any()
    first_part = unit_rows(both[[1, 4], :50] - centre[:50])
    assert np.allclose(units[[1, 4], :50], first_part, atol=1e-6)
    known = [0, 2, 3, 5, 6, 7]
    assert np.allclose(units[known], unit_rows(both[known] - centre), atol=1e-6)


def test_cached_tables_play_without_loading_the_model(tmp_path, monkeypatch):
    # A warm start reads the tables' file: the model is loaded only to embed a word outside
    # the vocabulary (ModelTables.model), so starting a GloVe game loads no vectors at all.
    from codebots import embeddings
    from codebots.agents import tables
    from codebots.vocab import load_pool

    monkeypatch.setattr("codebots.files.CACHE_DIR", tmp_path)
    pool = load_pool().words[:120]
    vocabulary = tables.shared_vocabulary.__wrapped__(("glove",), 3000)
    built = tables.model_tables.__wrapped__("glove", pool, vocabulary)
    kinds = {path.name.split("-")[0] for path in tmp_path.glob("*.npz")}
    assert {"forbid", "tables", "vocabulary"} <= kinds

    def no_model(spec="glove"):
        raise AssertionError(f"loaded {spec}")

    monkeypatch.setattr(tables, "load_embedding", no_model)
    assert tables.shared_vocabulary.__wrapped__(("glove",), 3000) == vocabulary
    again = tables.model_tables.__wrapped__("glove", pool, vocabulary)
    for field in ("card_vectors", "clue_vectors", "sims", "zsims", "neighbours", "prior"):
        np.testing.assert_array_equal(getattr(again, field), getattr(built, field), field)
    assert again.zsims.flags.c_contiguous  # card-major: the spymaster copies a board's rows
    monkeypatch.setattr(tables, "load_embedding", embeddings.load_embedding)
    assert again.model.has("ocean")  # loaded when asked for


def test_a_changed_vector_file_is_another_vocabulary(tmp_path, monkeypatch):
    from codebots.agents.tables import shared_vocabulary

    monkeypatch.setattr("codebots.files.CACHE_DIR", tmp_path / "cache")
    lines = (DATA / "glove_slice.glove.txt").read_text().splitlines()
    path = tmp_path / "vectors.txt"
    path.write_text("\n".join(lines) + "\n")
    spec = f"kv:{path}"
    first = shared_vocabulary.__wrapped__(("glove", spec), 500)
    load_embedding.cache_clear()
    dropped = first[0]
    path.write_text("\n".join(line for line in lines if line.split()[0] != dropped) + "\n")
    second = shared_vocabulary.__wrapped__(("glove", spec), 500)
    load_embedding.cache_clear()
    assert second == tuple(word for word in first if word != dropped)


def test_sentence_precision_is_chosen_by_the_processor_or_the_environment(monkeypatch):
    from codebots import embeddings

    monkeypatch.setenv("CODEBOTS_SENTENCE_PRECISION", "half")
    embeddings.sentence_precision.cache_clear()
    try:
        with pytest.raises(CodebotsError, match="use bfloat16 or float32"):
            embeddings.sentence_precision()
        monkeypatch.setenv("CODEBOTS_SENTENCE_PRECISION", "Float32")
        embeddings.sentence_precision.cache_clear()
        assert embeddings.sentence_precision() == "float32"
        assert embeddings.sentence_encoding().endswith("float32")
    finally:
        embeddings.sentence_precision.cache_clear()


def test_bfloat16_and_float32_encodings_are_the_same_words(monkeypatch, tmp_path):
    """The precision changes a word's vector in its last digits only (cosine > 0.999), and
    each precision gives the same vectors every time."""
    pytest.importorskip("sentence_transformers")
    from codebots import embeddings, files
    from codebots.model_files import minilm_path

    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    words = ["ocean", "seahorse", "xylophonist", "ice cream", "quay"]
    vectors = {}
    for precision in embeddings.PRECISIONS:
        monkeypatch.setenv("CODEBOTS_SENTENCE_PRECISION", precision)
        embeddings.sentence_precision.cache_clear()
        model = embeddings.SentenceEmbedding("minilm", minilm_path())
        vectors[precision] = model.encode_texts(words)
        assert np.array_equal(model.encode_texts(words[::-1])[::-1], vectors[precision])
    embeddings.sentence_precision.cache_clear()
    cosines = (vectors["bfloat16"] * vectors["float32"]).sum(axis=1)
    assert not np.array_equal(vectors["bfloat16"], vectors["float32"])
    assert cosines.min() > 0.999


def test_bfloat16_weights_cast_once_give_the_vectors_autocast_gives(monkeypatch, tmp_path):
    """The bfloat16 encoder holds its linear layers' weights in bfloat16 (cast once, not at
    every forward pass as autocast does): the same rounding, so the same vectors bit for
    bit as autocast over the float32 model, and the float32 model is still there to ask."""
    pytest.importorskip("sentence_transformers")
    import torch

    from codebots import embeddings, files
    from codebots.model_files import minilm_path

    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    monkeypatch.setenv("CODEBOTS_SENTENCE_PRECISION", "bfloat16")
    embeddings.sentence_precision.cache_clear()
    try:
        model = embeddings.SentenceEmbedding("minilm", minilm_path())
        words = ["ocean", "cat", "sea", "dog"]  # one token count: one batch
        cast = model.encode_texts(words)
        layers = [m for m in model._encoder(True).modules() if isinstance(m, torch.nn.Linear)]
        assert layers and all(layer.weight.dtype == torch.bfloat16 for layer in layers)
        plain = model.model  # loaded again: float32 weights, as sentence-transformers has them
        assert all(p.dtype == torch.float32 for p in plain.parameters())
        features = plain.tokenize(list(np.resize(words, embeddings.SENTENCE_BATCH)))
        with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16):
            autocast = plain(features)["sentence_embedding"][: len(words)].float().numpy()
        autocast /= np.linalg.norm(autocast, axis=1, keepdims=True)
        assert np.array_equal(cast, autocast)
    finally:
        embeddings.sentence_precision.cache_clear()
