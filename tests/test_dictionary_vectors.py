"""The gcide mind (codebots.dictionary_vectors): the GCIDE reader on real entries, the
truncated SVD against an exact one, the built vectors, a missing source as a one-line error,
and how a mind silent on its gaps joins a committee (its NaN rows, the kept clue words)."""

from __future__ import annotations

import gzip

import numpy as np
import pytest
import scipy.sparse as sparse

from codebots import dictionary_vectors
from codebots.agents import make_agent
from codebots.agents.crossplay import committee, crossplay_guesser, voices
from codebots.agents.tables import centred_units, shared_vocabulary
from codebots.arena import play
from codebots.embeddings import load_embedding
from codebots.errors import CodebotsError

# Two real GCIDE entries: KNIGHT of 1913 (a pronunciation, an etymology, a citation of
# Shakespeare) and PABLUM, whose every sense came from WordNet 1.5.
KNIGHT = """Knight \\Knight\\, v. t. [imp. & p. p. {Knighted}; p. pr. & vb. n.
   {Knighting}.]
   To dub or create (one) a knight; -- done in England by the
   sovereign only, who taps the kneeling candidate with a sword,
   saying: Rise, Sir ---.
   [1913 Webster]

         A soldier, by the honor-giving hand
         Of C[oe]ur-de-Lion knighted in the field. --Shak.
   [1913 Webster]
"""
PABLUM = """Pablum \\Pablum\\ n.
   1. A form of cereal for infants. [Trademark]
      [WordNet 1.5]

   2. A diet that does not require chewing.

   Syn: soft diet, pap, spoon food.
        [WordNet 1.5]

   3. Worthless or oversimplified ideas.

   Syn: pap, pabulum[3].
        [WordNet 1.5]
"""


def _base64(number: int) -> str:
    digits = ""
    while True:
        digits = dictionary_vectors._BASE64[number % 64] + digits
        number //= 64
        if not number:
            return digits


def _dictd(folder, entries: dict[str, str]) -> None:
    """A dictd dictionary of ``entries`` (headword -> text) as Debian ships GCIDE."""
    data, lines = b"", []
    for headword, text in entries.items():
        encoded = text.encode("utf-8")
        lines.append(f"{headword}\t{_base64(len(data))}\t{_base64(len(encoded))}")
        data += encoded
    folder.mkdir(exist_ok=True)
    (folder / "gcide.index").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with gzip.open(folder / "gcide.dict.dz", "wb") as stream:
        stream.write(data)


def test_the_reader_drops_pronunciations_citations_and_wordnet_senses(tmp_path):
    _dictd(tmp_path, {"00-database-info": "GCIDE", "Knight": KNIGHT, "Pablum": PABLUM})
    sentences = dictionary_vectors.dictionary_sentences(
        tmp_path / "gcide.index", tmp_path / "gcide.dict.dz"
    )
    assert len(sentences) == 1  # PABLUM has nothing of its own left; the header is no entry
    knight = sentences[0]
    # The headword, once (its pronunciation \Knight\ is gone, "v. t." are single letters).
    assert knight[:7] == ["knight", "to", "dub", "or", "create", "one", "a"]
    assert {"soldier", "sword", "kneeling", "field"} <= set(knight)
    # The etymology in brackets, the source tags and the citation are gone.
    assert not {"imp", "webster", "shak"} & set(knight) and knight[-1] == "field"


def test_a_missing_source_is_a_one_line_error_naming_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEBOTS_DICTD", str(tmp_path / "nowhere"))
    dictionary_vectors.fingerprint.cache_clear()
    try:
        assert not dictionary_vectors.available()
        assert dictionary_vectors.fingerprint() == ("gcide",)
        with pytest.raises(CodebotsError) as raised:
            dictionary_vectors.sources()
        message = str(raised.value)
        assert "\n" not in message and "nowhere/gcide.index is missing" in message
        assert "apt-get install dict-gcide" in message and "crossplay[without=gcide]" in message
        # The agents without the mind play on such a machine (light committees: GloVe and
        # WordNet, whose tables other tests build too).
        light = "crossplay[without=gcide+mpnet+minilm+nomic]"
        spymaster, guesser = make_agent("spymaster", light), make_agent("guesser", "glove")
        rows = play("single-team-2019", spymaster, guesser, np.arange(1000, 1010))
        assert len(rows) == 10 and rows.won.mean() > 0.5
    finally:
        monkeypatch.delenv("CODEBOTS_DICTD")
        dictionary_vectors.fingerprint.cache_clear()


def test_the_truncated_svd_finds_the_top_singular_values():
    rng = np.random.default_rng(3)
    # A sparse matrix with a decaying spectrum, as a PPMI matrix has.
    low_rank = (
        rng.standard_normal((600, 40)) * (0.8 ** np.arange(40)) @ rng.standard_normal((40, 500))
    )
    matrix = np.where(rng.random((600, 500)) < 0.3, low_rank, 0.0).astype(np.float32)
    left, singular = dictionary_vectors._top_singular(sparse.csr_matrix(matrix), 20)
    exact_left, exact, _ = np.linalg.svd(matrix.astype(np.float64), full_matrices=False)
    # The leading values exactly; those in the flat tail (the sparsity's noise floor) from
    # below, within 3%: a randomized range finder's estimates never exceed the true ones.
    np.testing.assert_allclose(singular[:6], exact[:6], rtol=1e-4)
    assert np.all(singular <= exact[:20] * (1 + 1e-5)) and np.all(singular >= 0.97 * exact[:20])
    assert left.shape == (600, 20)
    np.testing.assert_allclose(left.T @ left, np.eye(20), atol=1e-4)
    # The leading directions are the exact ones (up to sign).
    agreement = np.abs(np.sum(left[:, :5] * exact_left[:, :5], axis=0))
    assert agreement.min() > 0.999, agreement
    again = dictionary_vectors._top_singular(sparse.csr_matrix(matrix), 20)
    assert np.array_equal(again[0], left) and np.array_equal(again[1], singular)  # seeded


def test_the_built_mind_reads_like_a_dictionary():
    vectors = dictionary_vectors.dictionary_vectors()
    assert len(vectors) > 90_000 and vectors.dim == 300
    assert not vectors.vectors.flags.writeable

    def nearest(word: str) -> list[str]:
        order = np.argsort(-(vectors.vectors @ vectors[word]))[1:13]
        return [vectors.index_to_key[i] for i in order]

    assert {"money", "banker"} <= set(nearest("bank"))
    assert {"soldier", "chivalry"} & set(nearest("knight"))
    assert {"violin", "orchestra"} & set(nearest("piano"))
    # Wikipedia's paragraphs teach it what a 1913 dictionary lacks.
    for card in ("ninja", "skyscraper", "tokyo", "superhero"):
        assert card in vectors, card


def test_a_mind_silent_on_a_word_leaves_it_to_the_rest_of_its_voice():
    gcide, wordnet = load_embedding("gcide"), load_embedding("wordnet")
    vocabulary = shared_vocabulary(("glove", "wordnet"), 50_000)
    lacking = next(word for word in vocabulary if not gcide.has(word))
    known = next(word for word in vocabulary if gcide.has(word))
    joined = load_embedding("wordnet+gcide")
    assert joined.has(lacking) and joined.has(known)
    rows = joined.embed_words([lacking, known])  # (2, 100 + 300)
    assert np.isnan(rows[0, wordnet.dim :]).all() and not np.isnan(rows[0, : wordnet.dim]).any()
    assert not np.isnan(rows[1]).any()
    units = centred_units(rows, np.zeros(joined.dim, dtype=np.float32))
    assert not np.any(units[0, wordnet.dim :]) and np.any(units[0, : wordnet.dim])
    assert np.isnan(gcide.embed_words([lacking])).all()  # silent, where other models raise
    with pytest.raises(CodebotsError, match="no vector in 'wordnet'"):
        wordnet.embed_words(["qwxzvk"])


def test_the_gcide_mind_keeps_a_committees_clue_words_and_narrows_its_own():
    plain = shared_vocabulary(("glove", "gcide"), 50_000)
    gcide = load_embedding("gcide")
    assert all(gcide.has(word) for word in plain)
    shipped = shared_vocabulary(("glove", "mpnet", "wordnet"), 50_000)
    assert shared_vocabulary(("glove", "mpnet", "wordnet+gcide"), 50_000) == shipped
    assert make_agent("spymaster", "crossplay").vocabulary == shared_vocabulary(
        ("glove", "wordnet"), 50_000
    )
    assert not all(gcide.has(word) for word in shipped)  # words it is silent on remain


def test_the_two_dictionaries_are_one_voice():
    assert voices(committee()) == ("mpnet", "minilm", "glove", "wordnet+gcide", "nomic")
    assert voices(committee("wordnet")) == ("mpnet", "minilm", "glove", "gcide", "nomic")
    assert voices(committee("gcide")) == ("mpnet", "minilm", "glove", "wordnet", "nomic")
    spymaster = make_agent("spymaster", "crossplay[without=mpnet+minilm+nomic]")
    assert spymaster.models == ("glove", "wordnet+gcide")
    guesser = crossplay_guesser("mpnet+minilm+nomic")
    assert guesser.voices == ("glove", "wordnet+gcide")
    slices = guesser._mind_slices  # GloVe's 50 columns, then the two dictionaries' 100 + 300
    assert [(s.start, s.stop) for s in slices] == [(0, 50), (50, 450)]
