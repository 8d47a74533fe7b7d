"""Derived tables cached on disk, each file checked before it is trusted.

Every cache file is one ``.npz`` archive: the arrays of the table and a ``__meta__`` record
saying what the table was built from (the cache kind, a digest of the full build key and a
readable description) and a checksum of the arrays. A file is used only when it opens, its
key is the key asked for and its checksum holds; otherwise it is rebuilt, with one line on
stderr naming the file and the problem. A damaged, empty, truncated or swapped file can
therefore cost a rebuild, never a wrong result or a crash.

Builds hold the :func:`~codebots.files.build_lock` of their file, so two processes that need
the same table build it once; writes are atomic, so a reader never sees half a file.

A few small tables that take long to build ship inside the package (:mod:`codebots.prebuilt`,
``codebots/prebuilt/``) under their cache file names; a shipped file is read, checked the same
way, when its key is the one asked for (``CODEBOTS_PREBUILT=off`` ignores them).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from codebots import files
from codebots.cache_folder import mark_used
from codebots.errors import note
from codebots.files import atomic_write, build_lock

FORMAT = 1
META = "__meta__"
PREBUILT_DIR = Path(__file__).parent / "prebuilt"  # shipped tables, read-only
Arrays = dict[str, np.ndarray]


class Unusable(Exception):
    """A cache file that must not be used; the message says why (for the one-line note)."""


def key_digest(key: object) -> str:
    """The sha256 of ``repr(key)``: what a table was built from, as a fixed-size text."""
    return hashlib.sha256(repr(key).encode("utf-8")).hexdigest()


def checksum(arrays: Arrays) -> str:
    """sha256 over every array's name, dtype, shape and bytes, in name order."""
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}|{array.dtype.str}|{array.shape}|".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def recorded_meta(path: Path) -> bytes:
    """A cache file's record of what it was built from and its arrays' checksum (only that
    member of the archive is read)."""
    with np.load(path, allow_pickle=False) as archive:
        return archive[META].tobytes()


def cache_path(kind: str, key: object, tag: str = "") -> Path:
    """Where the table of ``kind`` built from ``key`` is kept (``tag``, such as a model name,
    only makes the file name readable)."""
    readable = f"{kind}-{re.sub(r'[^A-Za-z0-9_.+-]', '_', tag)}" if tag else kind
    return Path(files.CACHE_DIR) / f"{readable}-{key_digest(key)[:20]}.npz"


def read(path: Path, kind: str, key: object) -> Arrays:
    """The arrays of a cache file, or :class:`Unusable` saying why they cannot be trusted."""
    try:
        size = path.stat().st_size
    except OSError as error:
        raise Unusable(f"cannot be read ({error.strerror})") from None
    if size == 0:
        raise Unusable("is empty")
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as error:
        raise Unusable(f"is damaged ({type(error).__name__})") from None
    if META not in arrays:
        raise Unusable("has no record of what it was built from")
    try:
        meta = json.loads(arrays.pop(META).tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise Unusable("has an unreadable record of what it was built from") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise Unusable("is of another cache format")
    if meta.get("kind") != kind or meta.get("key") != key_digest(key):
        raise Unusable("was built from other inputs")
    if meta.get("checksum") != checksum(arrays):
        raise Unusable("fails its checksum (its contents were changed)")
    return arrays


def write(path: Path, kind: str, key: object, built_from: str, arrays: Arrays) -> None:
    """Store ``arrays`` with the record of what they were built from, atomically."""
    meta = {
        "format": FORMAT,
        "kind": kind,
        "key": key_digest(key),
        "built_from": built_from,
        "checksum": checksum(arrays),
    }
    record = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)

    def save(temporary: Path) -> None:
        with open(temporary, "wb") as handle:
            np.savez(handle, **arrays, **{META: record})

    atomic_write(path, save)


def timed_build(kind: str, tag: str, built_from: str, build: Callable[[], Arrays]) -> Arrays:
    """``build()``, and with ``CODEBOTS_BUILD_LOG`` set, one JSON line appended to that file
    saying what was built and in how many seconds (``make bench`` reports cold builds so)."""
    start = time.perf_counter()
    arrays = build()
    log = os.environ.get("CODEBOTS_BUILD_LOG")
    if log:
        line = {"kind": kind, "tag": tag, "built_from": built_from}
        line["seconds"] = round(time.perf_counter() - start, 2)
        with contextlib.suppress(OSError), open(log, "a", encoding="utf-8") as stream:
            stream.write(json.dumps(line) + "\n")
    return arrays


def cached(
    kind: str,
    key: object,
    built_from: str,
    build: Callable[[], Arrays],
    *,
    store: bool = True,
    tag: str = "",
) -> Arrays:
    """The arrays of the table ``kind`` built from ``key``: read from its checked cache file,
    else built with ``build()`` (and stored, with ``store``).

    ``key`` is everything the table depends on (its ``repr`` is hashed); ``built_from``
    describes it in a few words for the file's record and for the rebuild note.
    """
    if not store:
        return build()
    path = cache_path(kind, key, tag)
    shipped = PREBUILT_DIR / path.name  # the same name: the same key digest
    if os.environ.get("CODEBOTS_PREBUILT", "on") != "off" and shipped.exists():
        try:
            return read(shipped, kind, key)
        except Unusable as problem:  # a damaged install: build it as if none shipped
            note(f"shipped table {shipped} {problem}; building it ({built_from})")
    with contextlib.ExitStack() as held:
        try:  # another process building it: wait for it, then read its file
            held.enter_context(build_lock(path))
        except OSError as error:  # a read-only or full cache folder: build, keep nothing
            note(f"cannot use the cache folder {path.parent} ({error.strerror}); not caching")
            return build()
        if path.exists():
            try:
                arrays = read(path, kind, key)
                mark_used(path)  # for codebots cache --prune
                return arrays
            except Unusable as problem:
                note(f"cache file {path} {problem}; rebuilding it ({built_from})")
        arrays = timed_build(kind, tag, built_from, build)
        try:
            write(path, kind, key, built_from, arrays)
        except OSError as error:  # a full disk costs the cache, not the run
            note(f"cannot write the cache file {path} ({error.strerror}); going on without it")
        return arrays
