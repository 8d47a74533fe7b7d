"""The big sentence models' encodings of the clue vocabulary, shipped packed.

Encoding every clue vocabulary and every pool's cards (63,362 texts) takes MPNet about 2.5
minutes and Nomic about 5 on two cores (their arithmetic, at the processor's bfloat16 peak):
longer than issue 17's minute for a cold build, and most of the cross-play agents' first use.
So ``make prebuilt`` (:mod:`codebots.prebuilt`) encodes them once and ships them in
``codebots/prebuilt/`` as ``encodings-<model>-<key>.npz``, packed by
:mod:`codebots.packed_vectors` (21-23 MB a model instead of 195), and a model's word
store (:mod:`codebots.word_store`) is *seeded* from them: a fresh install reads them in two
seconds and encodes only texts they lack (a person's clue, a new pool's cards).

The key of a pack is the model, how it encodes (batching, prefixes) and the packing, not the
processor's precision: every machine plays with the same shipped vectors (those of the
machine that ran ``make prebuilt``, recorded in the pack). A store seeded from a pack has the
pack's checksum in its key, and so have the tables built from it
(:func:`codebots.embeddings.model_fingerprint`); with ``CODEBOTS_PREBUILT=off``, a damaged
pack or one of another key, everything is encoded here as before, under keys of their own.
"""

from __future__ import annotations

import functools
import json
import os
import zipfile
from pathlib import Path

import numpy as np

from codebots.cache import PREBUILT_DIR, Unusable, cache_path, read, recorded_meta, write
from codebots.errors import note
from codebots.packed_vectors import PACK_FORMAT, pack, unpack
from codebots.word_store import SEEDED, Seed, store_directory

KIND = "encodings"
PACKED_MODELS = ("mpnet", "nomic")  # MiniLM encodes everything in 25-40 s: not worth 10 MB


def pack_key(name: str, recipe: str) -> tuple:
    """What a pack of model ``name`` encoding by ``recipe`` (without the precision) is."""
    return (KIND, name, recipe, PACK_FORMAT)


def pack_path(name: str, recipe: str) -> Path:
    """Where the pack of that key ships (whether or not it does)."""
    return PREBUILT_DIR / cache_path(KIND, pack_key(name, recipe), tag=name).name


@functools.cache
def _recorded_checksum(path: Path) -> str | None:
    """The checksum a shipped pack's record gives for its arrays (its ``__meta__`` only:
    cheap), or None when there is no readable pack (said once when there is a damaged one)."""
    if not path.exists():
        return None
    try:
        return json.loads(recorded_meta(path).decode("utf-8"))["checksum"]
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):
        note(f"shipped encodings {path} are damaged; encoding their words here instead")
        return None


@functools.cache
def _is_whole(path: Path, key: tuple) -> bool:
    """Whether a shipped pack's arrays are the ones its record describes (all read)."""
    try:
        read(path, KIND, key)
    except Unusable as problem:
        note(f"shipped encodings {path} {problem}; encoding their words here instead")
        return False
    return True


def forget() -> None:
    """Look at the shipped packs afresh (after one was replaced: tests)."""
    _recorded_checksum.cache_clear()
    _is_whole.cache_clear()


def seeding(name: str, recipe: str, store_key: tuple) -> tuple[tuple, Seed | None]:
    """The key of model ``name``'s word store (its plain ``store_key``, with the shipped
    pack's checksum when a pack of ``recipe`` ships) and the seed to give the store (None
    when it holds it already, or when there is no usable pack).

    Once a store is seeded, a start does not open the pack (its record's checksum names the
    store). Before, the whole pack is read and checked: a damaged one is found before any
    table is keyed by it, and the store falls back to encoding under its plain key."""
    if os.environ.get("CODEBOTS_PREBUILT", "on") == "off":
        return store_key, None
    path = pack_path(name, recipe)
    identity = _recorded_checksum(path)
    if identity is None:
        return store_key, None
    seeded_key = (*store_key, "seeded from", identity)
    if (store_directory(name, seeded_key) / SEEDED).exists():
        return seeded_key, None
    if not _is_whole(path, pack_key(name, recipe)):
        return store_key, None
    # Read again when planted (a second of a cold start), not held: 195 MB unpacked.
    return seeded_key, functools.partial(_read_pack, path, pack_key(name, recipe))


def _read_pack(path: Path, key: tuple) -> tuple[list[str], np.ndarray]:
    arrays = read(path, KIND, key)
    return arrays["texts"].tolist(), unpack(arrays)


def write_pack(name: str, recipe: str, texts: list[str], vectors: np.ndarray, built_from: str):
    """Pack ``texts`` and their ``(n, dim)`` unit vectors encoded by model ``name`` (by
    ``recipe``) into the cache folder, under the name it ships by (``make prebuilt``)."""
    key = pack_key(name, recipe)
    arrays = {"texts": np.array(texts), **pack(vectors)}
    write(cache_path(KIND, key, tag=name), KIND, key, built_from, arrays)
