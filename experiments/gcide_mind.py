"""The gcide mind, measured: how far it reads from every panel mind, and what it brings the
cross-play agents (docs/cross-model-notes.md, "A second dictionary").

The mind itself is the library's (:mod:`codebots.dictionary_vectors`: PPMI-SVD vectors of
GCIDE without its WordNet senses and of Wikipedia's lead paragraphs, built on this machine
by ``make install``'s sources). This script measures it on tuning seeds only (1000 and up):

    .venv/bin/python experiments/gcide_mind.py agreement [FIRST_SEED]   # about 1 min
    .venv/bin/python experiments/gcide_mind.py committee [FIRST_SEED]   # about 4 min
    .venv/bin/python experiments/gcide_mind.py word2vec VECTORS.txt     # about 4 min

``agreement``: plain agents of the mind with every other panel mind's, both ways (how often
the guesser's first card is one the clue was for). ``committee``: the cross-play agents
with and without the mind (``crossplay[without=M]`` against ``crossplay[without=M+gcide]``)
against every panel partner M: single-team our clues, Marvel co-op our clues, Duet by
seats, and our guesses of the partner's clues (single-team wins / first guesses on target,
Marvel co-op wins). ``word2vec``: the word2vec vectors of the same corpus the fifteenth
session measured first (one thread, deterministic; ``agreement`` reads them with
``kv:VECTORS.txt`` as a fourth argument).
"""

from __future__ import annotations

import sys
import time
import zlib

import numpy as np

# Chosen on seeds 1000-1299 (the notes): window 10 as the gloss vectors; frequent words
# subsampled (1e-4), five epochs.
WORD2VEC = {"vector_size": 100, "window": 10, "min_count": 2, "sg": 1, "epochs": 5,
            "sample": 1e-4, "negative": 5, "seed": 0}  # fmt: skip
PARTNERS = ("glove", "minilm", "mpnet", "nomic", "wordnet", "gcide")


def word2vec(path: str) -> None:
    from gensim.models import Word2Vec

    from codebots.dictionary_vectors import corpus

    start = time.perf_counter()
    sentences = corpus()
    model = Word2Vec(
        sentences, workers=1, hashfxn=lambda word: zlib.crc32(word.encode()), **WORD2VEC
    )
    model.wv.save_word2vec_format(path)
    print(f"{len(model.wv):,} words -> {path} in {time.perf_counter() - start:.0f} s")


def _first_on_target(frame) -> float:
    return frame.first_on_target.sum() / max(frame.first_guesses.sum(), 1)


def agreement(seeds, spec: str = "gcide") -> None:
    """Plain agents of ``spec`` with every panel mind's, both ways."""
    from codebots.agents import make_agent
    from codebots.agents.embedding import EmbeddingSpymaster
    from codebots.agents.guesser import EmbeddingGuesser
    from codebots.arena import play
    from codebots.minds import PANEL

    if spec.startswith("kv:"):  # a 1913 dictionary's file lacks cards: they mean nothing
        import codebots.embeddings as embeddings

        init = embeddings.KeyedEmbedding.__init__
        embeddings.KeyedEmbedding.__init__ = lambda self, vectors, *_, **__: init(
            self, vectors, True, True
        )
    variant = "single-team-2019[zero_clues=false]"
    ours = lambda: EmbeddingSpymaster(models=(spec,), name="new")  # noqa: E731
    guess = lambda: EmbeddingGuesser(model=spec, name="new")  # noqa: E731
    frame = play(variant, ours(), guess(), seeds)
    print(f"{spec} with itself: {_first_on_target(frame):.3f} (win {frame.won.mean():.3f})")
    for mind in (m for m in PANEL if m != spec):
        there = play(variant, ours(), make_agent("guesser", mind), seeds)
        back = play(variant, make_agent("spymaster", mind), guess(), seeds)
        print(
            f"{spec} -> {mind} {_first_on_target(there):.3f} (win {there.won.mean():.3f}) | "
            f"{mind} -> {spec} {_first_on_target(back):.3f} (win {back.won.mean():.3f})",
            flush=True,
        )


def committee(seeds) -> None:
    """The cross-play agents with the gcide mind (new) and without it (old), every partner."""
    from codebots.agents import make_agent
    from codebots.arena import Seat, play

    for cell in ("single-team-2019", "marvel-coop", "duet", "guesses"):
        for label in ("old", "new"):
            row = []
            for partner in PARTNERS:
                kept = label == "new" or partner == "gcide"
                name = f"crossplay[without={partner if kept else partner + '+gcide'}]"
                if cell == "duet":  # seats: each side gives its clues and guesses the other's
                    ours = Seat(make_agent("spymaster", name), make_agent("guesser", name), "x")
                    frame = play(cell, ours, Seat.of(partner), seeds)
                    row.append(f"{partner} {100 * frame.won.mean():.1f}")
                elif cell == "guesses":
                    theirs, ours = make_agent("spymaster", partner), make_agent("guesser", name)
                    single = play("single-team-2019", theirs, ours, seeds)
                    marvel = play("marvel-coop", theirs, ours, seeds)
                    row.append(
                        f"{partner} {100 * single.won.mean():.1f} / "
                        f"{_first_on_target(single):.3f} / {100 * marvel.won.mean():.1f}"
                    )
                else:
                    frame = play(
                        cell, make_agent("spymaster", name), make_agent("guesser", partner), seeds
                    )
                    row.append(f"{partner} {100 * frame.won.mean():.1f}")
            print(f"{cell:17} {label}", " | ".join(row), flush=True)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    usage = (
        f"usage: {sys.argv[0]} agreement [FIRST_SEED [kv:VECTORS.txt]] | committee "
        "[FIRST_SEED] | word2vec VECTORS.txt"
    )
    if not arguments or arguments[0] not in ("agreement", "committee", "word2vec"):
        sys.exit(usage)
    if arguments[0] == "word2vec":
        if len(arguments) != 2:
            sys.exit(usage)
        word2vec(arguments[1])
    else:  # 300 games from FIRST_SEED (1000 and up: tuning seeds only)
        first = max(int(arguments[1]), 1000) if len(arguments) > 1 else 1000
        seeds = np.arange(first, first + 300)
        if arguments[0] == "agreement":
            agreement(seeds, *arguments[2:3])
        else:
            committee(seeds)
