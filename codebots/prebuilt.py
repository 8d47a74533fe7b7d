"""Tables shipped inside the package, so that a fresh install plays in seconds.

The default agents' first result needs, besides their GloVe similarity tables (50 MB, about
3 s to build), four tables that take far longer to build than to read: the clue vocabulary
GloVe knows (about 2 s), each clue word's frequency prior and dictionary flag (about 3 s of
lookups, shared by every model's tables), WordNet's derivations (parsing its text database,
about 10 s) and the clue checker's forbid table for the competition pool (about 20 s). The
``wordnet`` mind's gloss vectors (:mod:`codebots.gloss_vectors`: word2vec on WordNet's
glosses, one training thread, about three minutes) ship too, which also makes them the same
on every machine (word2vec's float sums follow the processor's BLAS kernels). ``make
prebuilt`` builds them exactly as the cache does, in an empty cache folder, and keeps them,
compressed (about 38 MB, 37 of them the gloss vectors), in ``codebots/prebuilt/`` under
their cache file names. :func:`codebots.cache.cached` reads a shipped file when its name,
which holds the digest of everything the table was built from, is the one asked for: a
change to the clue rules, the WordNet parsing, a package version or the vocabulary changes
the name, the stale file is no longer found, and the table is built as if none shipped.
``tests/test_prebuilt.py`` fails until ``make prebuilt`` is run after such a change, and
checks that the shipped files are what a build gives.

Run as ``python -m codebots.prebuilt``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from codebots.cache import PREBUILT_DIR
from codebots.files import atomic_write

SHIPPED_KINDS = ("vocabulary", "clue_words", "derivations", "forbid", "gloss", "encodings")


def build_default_tables() -> None:
    """Read or build every table the default GloVe agents need on the competition pool, and
    the gloss vectors."""
    from codebots.agents import make_agent
    from codebots.gloss_vectors import gloss_vectors
    from codebots.variants import get_variant
    from codebots.vocab import load_pool

    words = load_pool(get_variant("single-team-2019").pool).words
    make_agent("spymaster", "glove").tables(words)
    make_agent("guesser", "glove").reads_clue(words, "water")
    gloss_vectors()


def pack_texts() -> list[str]:
    """What the big sentence models' shipped encodings hold: every clue vocabulary an agent
    with one of them asks for (the clue words alone, or restricted to those GloVe, the gloss
    vectors or both know, as in a committee with them) and every pool's cards."""
    from codebots.agents.tables import DEFAULT_VOCABULARY, shared_vocabulary
    from codebots.morphology import words_of
    from codebots.vocab import available_pools, load_pool

    texts: dict[str, None] = {}
    for word_models in ((), ("glove",), ("wordnet",), ("glove", "wordnet")):
        texts.update(dict.fromkeys(shared_vocabulary(word_models, DEFAULT_VOCABULARY)))
    for pool in available_pools():
        texts.update(dict.fromkeys(" ".join(words_of(card)) for card in load_pool(pool).words))
    return list(texts)


def build_packs() -> None:
    """Encode :func:`pack_texts` with each of the big sentence models (everything encoded
    here: run with ``CODEBOTS_PREBUILT=off``) and write their packs into the cache folder."""
    from codebots import encoding_packs
    from codebots.embeddings import load_embedding, sentence_recipe

    texts = pack_texts()
    for name in encoding_packs.PACKED_MODELS:
        vectors = load_embedding(name).store.get(texts)
        built_from = f"{len(texts):,} texts encoded by {name} ({sentence_recipe(name)}), packed"
        recipe = sentence_recipe(name, precision=False)
        encoding_packs.write_pack(name, recipe, texts, vectors, built_from)


def build_in(
    folder: Path,
    *,
    log: Path | None = None,
    shipped: bool = False,
    build: str = "build_default_tables",
) -> None:
    """Run ``build`` (:func:`build_default_tables`, or :func:`build_packs`: minutes) in a
    fresh interpreter with cache folder ``folder`` (``shipped``: the shipped tables may be
    read; ``log``: the build log, ``CODEBOTS_BUILD_LOG``)."""
    env = {**os.environ, "CODEBOTS_CACHE": str(folder)}
    env["CODEBOTS_PREBUILT"] = "on" if shipped else "off"
    if log is not None:
        env["CODEBOTS_BUILD_LOG"] = str(log)
    code = f"from codebots.prebuilt import {build}; {build}()"
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


def shipped_files(folder: Path) -> list[Path]:
    """The cache files in ``folder`` of the kinds that ship."""
    return sorted(path for path in folder.glob("*.npz") if path.name.split("-")[0] in SHIPPED_KINDS)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as packs:
        build_in(Path(folder))
        # Apart: the clue vocabularies the packs are made of are quick to build, not shipped
        # (the gloss vectors just trained, which one of them asks for, are).
        for gloss in Path(folder).glob("gloss-*.npz"):
            shutil.copy(gloss, Path(packs) / gloss.name)
        build_in(Path(packs), build="build_packs")
        for pack in Path(packs).glob("encodings-*.npz"):
            os.replace(pack, Path(folder) / pack.name)
        for old in PREBUILT_DIR.glob("*.npz"):
            old.unlink()
        PREBUILT_DIR.mkdir(exist_ok=True)
        for path in shipped_files(Path(folder)):
            with np.load(path, allow_pickle=False) as archive:
                arrays = {name: archive[name] for name in archive.files}
            target = PREBUILT_DIR / path.name

            def save(temporary: Path, arrays=arrays) -> None:  # the record as built
                with open(temporary, "wb") as handle:
                    np.savez_compressed(handle, **arrays)

            atomic_write(target, save)
            print(f"{target.relative_to(PREBUILT_DIR.parent.parent)}: {target.stat().st_size:,} B")
    return 0


if __name__ == "__main__":
    sys.exit(main())
