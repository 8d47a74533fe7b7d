"""One store per sentence model of every text it has encoded, kept across processes.

A sentence model encodes texts in batches whose matrix products all have one shape
(:meth:`codebots.embeddings.SentenceEmbedding.encode_texts`), so a text's vector depends on
the text alone: never on the list it came in, nor on which agent asked first. One store per
model therefore serves every clue vocabulary, every pool's cards and the loose words (a
partner's clue, a compound's parts): a second word list costs only its new words.

On disk the store is a folder ``<cache>/words-<model>-<digest>/`` of append-only *shards*:
``<id>.npy`` (``(n, dim)`` float32) and ``<id>.txt`` (the ``.npy``'s SHA-256, then its ``n``
texts, one a line), each written atomically, the ``.txt`` last, so a shard exists only once
whole, and is checked on every read.
A list of :data:`BULK` texts or more is encoded under a lock (two workers on a fresh machine
encode it once) and written as shards as it goes (a part every :data:`SAVE_SECONDS`, so an
interrupted cold build resumes where it stopped); fewer new texts are kept in memory and
written at most every :data:`SAVE_SECONDS` and when the process ends normally (a worker
ends without exit handlers, so it loses at most its last seconds' texts: they are encoded
again, identically, when next asked for). Past :data:`MAX_SHARDS` shards the folder is merged
into one. A damaged shard is ignored (one line on stderr) and its texts encoded again.

A store may be *seeded*: given the model's shipped vectors of its clue vocabulary and cards
(:mod:`codebots.encoding_packs`), it writes them as its first shard (the file ``seeded``
says it has) before it encodes anything, so a cold start encodes only what the seed lacks.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import io
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from codebots import files
from codebots.cache import Unusable, key_digest, timed_build
from codebots.cache_folder import mark_used
from codebots.errors import note

SAVE_SECONDS = 10.0  # loose texts come one clue at a time: not a shard for each
BULK = 1000  # a vocabulary or a pool: encoded once across processes, saved at once
MAX_SHARDS = 64
SEEDED = "seeded"  # the file that says a seeded store holds its seed

Seed = Callable[[], tuple[list[str], np.ndarray]]  # -> the texts and their (n, dim) vectors


def store_directory(name: str, key: object) -> Path:
    """The folder of model ``name``'s word store of ``key``."""
    return files.CACHE_DIR / f"words-{name}-{key_digest(key)[:20]}"


class WordStore:
    """``text -> (dim,) float32`` for one model; ``encode(texts, keep=None) -> (n, dim)``
    fills it (and may hand finished parts to ``keep(texts, vectors)`` as it goes); ``seed``
    (whose identity ``key`` must hold) gives the vectors it starts from."""

    def __init__(
        self,
        name: str,
        key: object,
        dim: int,
        encode: Callable[..., np.ndarray],
        seed: Seed | None = None,
    ):
        self.name = name
        self.dim = dim
        self.encode = encode
        self.seed = seed
        self.directory = store_directory(name, key)
        self._shards: list[np.ndarray] = []  # (n, dim) each
        self._seen: set[str] = set()  # shard ids read (or found damaged)
        self._where: dict[str, tuple[int, int]] = {}  # text -> (shard, row)
        self._unsaved: dict[str, np.ndarray] = {}
        self._saved_at = time.monotonic()
        self._read_only = False
        atexit.register(self.save)

    def get(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` the vectors of ``texts``, encoding (and keeping) the new ones."""
        texts = list(texts)
        new = self._new(texts)
        if new:
            self._refresh()  # another process may have encoded them meanwhile
            new = self._new(texts)
        if new and self.seed is not None:
            self._plant_seed()
            new = self._new(texts)
        if len(new) >= BULK and not self._read_only:
            with contextlib.ExitStack() as held:
                try:  # another process encoding the same list: wait, then read its shard
                    held.enter_context(files.build_lock(self.directory / "encode"))
                except OSError as error:
                    self._give_up_saving(error)
                self._refresh()
                new = self._new(texts)
                if new:
                    self._saved_at = time.monotonic()  # the first part's shard in 10 s
                    described = f"{len(new):,} new texts"
                    vectors = timed_build(
                        "encode", self.name, described, lambda: self.encode(new, self._keep)
                    )
                    for text, vector in zip(new, vectors):  # what keep() was not given
                        if text not in self._where:
                            self._unsaved[text] = vector
                    self._write_unsaved()
            self._merge_if_many()  # not under the lock: merging takes it
        elif new:
            self._unsaved.update(zip(new, self.encode(new)))
            if time.monotonic() - self._saved_at >= SAVE_SECONDS:
                self.save()
        return self._gather(texts)

    def _plant_seed(self) -> None:
        """Write the seed as a shard, once across processes (under the encode lock)."""
        seed, self.seed = self.seed, None
        if (self.directory / SEEDED).exists():  # planted by another process meanwhile
            self._refresh()
            return
        try:
            texts, vectors = seed()
        except Unusable as problem:  # checked whole a moment ago: replaced since
            note(f"the seed of the {self.name} word store {problem}; encoding instead")
            return
        try:
            if self._read_only:
                raise OSError(f"{self.directory} is not writable")
            with files.build_lock(self.directory / "encode"):
                if not (self.directory / SEEDED).exists():
                    self._write_shard(texts, vectors)
                    files.atomic_write_text(self.directory / SEEDED, "")
        except OSError as error:
            self._give_up_saving(error)
            for text, vector in zip(texts, vectors):  # this process plays with them all the same
                self._unsaved.setdefault(text, vector)
            return
        self._refresh()

    def _keep(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """A part a long encoding has finished, written as a shard every SAVE_SECONDS: an
        interrupted cold build (Ctrl-C, a crash) resumes with the texts it had not reached."""
        self._unsaved.update(zip(texts, vectors))
        if time.monotonic() - self._saved_at >= SAVE_SECONDS:
            self._write_unsaved()

    def save(self) -> None:
        """Write the texts encoded since the last save as a shard."""
        self._write_unsaved()
        self._merge_if_many()

    def _write_unsaved(self) -> None:
        if not self._unsaved or self._read_only:
            return
        texts = list(self._unsaved)
        vectors = np.stack([self._unsaved[text] for text in texts])
        try:
            self._write_shard(texts, vectors)
        except OSError as error:  # a full disk or a read-only cache costs the cache, not the run
            self._give_up_saving(error)
            return
        self._saved_at = time.monotonic()
        self._refresh()  # they are read back from the shard from now on
        self._unsaved = {}

    def _merge_if_many(self) -> None:
        # Never with the encode lock held: the merge takes it (a second flock of one
        # process on its own lock file waits forever).
        if not self._read_only and len(list(self.directory.glob("*.txt"))) > MAX_SHARDS:
            self._merge()

    def _give_up_saving(self, error: OSError) -> None:
        if not self._read_only:
            note(f"cannot keep {self.name} encodings in {self.directory} ({error}); not caching")
        self._read_only = True  # what is encoded stays in memory for this process

    def _new(self, texts: list[str]) -> list[str]:
        return [t for t in dict.fromkeys(texts) if t not in self._where and t not in self._unsaved]

    def _gather(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        shard = np.full(len(texts), -1, dtype=np.intp)
        row = np.zeros(len(texts), dtype=np.intp)
        for i, text in enumerate(texts):
            found = self._where.get(text)
            if found is None:
                out[i] = self._unsaved[text]
            else:
                shard[i], row[i] = found
        for s in np.unique(shard[shard >= 0]):
            at = shard == s
            out[at] = self._shards[s][row[at]]
        return out

    def _write_shard(self, texts: list[str], vectors: np.ndarray) -> None:
        if any("\n" in text for text in texts):
            raise ValueError("a text of the word store holds a line break")
        buffer = io.BytesIO()
        np.save(buffer, np.ascontiguousarray(vectors, dtype=np.float32))
        data = buffer.getvalue()
        stem = self.directory / f"{time.time_ns():x}-{os.getpid()}"
        files.atomic_write_bytes(stem.with_suffix(".npy"), data)
        checksum = hashlib.sha256(data).hexdigest()
        files.atomic_write_text(stem.with_suffix(".txt"), "\n".join([checksum, *texts]))

    def _read_shard(self, listing: Path) -> tuple[list[str], np.ndarray] | None:
        """A shard's texts and ``(n, dim)`` vectors; None when it was merged away meanwhile
        or is damaged (one line on stderr: its texts are then encoded again)."""
        try:
            checksum, *texts = listing.read_text(encoding="utf-8").split("\n")
            with open(listing.with_suffix(".npy"), "rb") as stream:  # read in chunks
                if hashlib.file_digest(stream, "sha256").hexdigest() != checksum:
                    raise ValueError("its vectors do not match their checksum")
            # Mapped, not copied: a warm start gathers its lists' rows from the page cache.
            vectors = np.load(listing.with_suffix(".npy"), mmap_mode="r", allow_pickle=False)
            if vectors.shape != (len(texts), self.dim) or vectors.dtype != np.float32:
                raise ValueError(f"vectors of shape {vectors.shape} for {len(texts)} texts")
        except FileNotFoundError:
            if listing.exists():
                note(f"ignoring the damaged word store shard {listing} (its vectors are missing)")
            return None  # else merged away: its texts are in the merged shard
        except (OSError, ValueError, UnicodeDecodeError, EOFError) as error:
            note(f"ignoring the damaged word store shard {listing} ({error})")
            return None
        return texts, vectors

    def _refresh(self) -> None:
        """Read the shards written since the last look (by this process or another)."""
        if not self.directory.is_dir():
            return
        if not self._seen:
            mark_used(self.directory)  # for codebots cache --prune
        for listing in sorted(self.directory.glob("*.txt")):
            if listing.stem in self._seen:
                continue
            self._seen.add(listing.stem)
            shard = self._read_shard(listing)
            if shard is None:
                continue
            texts, vectors = shard
            index = len(self._shards)
            self._shards.append(vectors)
            for row, text in enumerate(texts):
                self._where.setdefault(text, (index, row))

    def _merge(self) -> None:
        """Many small shards into one (readers that hold the old ones keep them)."""
        with files.build_lock(self.directory / "encode"):
            listings = sorted(self.directory.glob("*.txt"))
            texts: dict[str, np.ndarray] = {}
            for listing in listings:
                shard = self._read_shard(listing)
                if shard is not None:
                    for text, vector in zip(*shard):
                        texts.setdefault(text, vector)
            if not texts:
                return
            self._write_shard(list(texts), np.stack(list(texts.values())))
            for listing in listings:  # the listing first: a shard without one is not read
                with contextlib.suppress(OSError):  # mapped by a reader (Windows): left be
                    listing.unlink(missing_ok=True)
                    listing.with_suffix(".npy").unlink(missing_ok=True)
        self._refresh()
