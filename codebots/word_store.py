"""A sentence model's encodings of single words, each encoded alone, kept across processes.

A sentence model's vector of a word depends (by ~1e-7) on the batch it is encoded in: the
padding and the size of the batch change how the matrix products round. Vocabularies are
therefore encoded as whole lists (:class:`codebots.embeddings.SentenceEmbedding`), and the
few words an agent meets outside its list (a partner's clue, a compound's parts) are encoded
one at a time, so that their vectors never depend on what else was being encoded, nor on
which agent asked first. Alone, a word costs 10-45 ms, so those vectors are kept here, one
file per model (``<cache>/words-<model>-<digest>.npz``), merged under a lock and written
atomically, at most every :data:`SAVE_SECONDS` while new words come and when the process
ends normally (a worker process ends without exit handlers, so a process loses at most its
last seconds' words: they are encoded again, identically, when next asked for); a damaged
file is ignored (one line on stderr) and rebuilt as words come.
"""

from __future__ import annotations

import atexit
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from codebots import files
from codebots.cache import key_digest
from codebots.errors import note

SAVE_SECONDS = 10.0  # the file is rewritten whole: not at every clue of a batch


class WordStore:
    """``word -> (dim,) float32`` for one model; ``encode(words) -> (n, dim)`` fills it."""

    def __init__(self, name: str, key: object, dim: int, encode: Callable[[list[str]], np.ndarray]):
        self.name = name
        self.dim = dim
        self.encode = encode
        self.path = files.CACHE_DIR / f"words-{name}-{key_digest(key)[:20]}.npz"
        self.vectors: dict[str, np.ndarray] | None = None  # loaded on first use
        self._unsaved: list[str] = []
        self._saved_at = time.monotonic()
        atexit.register(self.save)

    def get(self, words: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` the vectors of ``words``, encoding (and keeping) the new ones."""
        if self.vectors is None:
            self.vectors = self._read(self.path)
        new = [word for word in dict.fromkeys(words) if word not in self.vectors]
        if new:
            self.vectors.update(zip(new, self.encode(new)))
            self._unsaved.extend(new)
            if time.monotonic() - self._saved_at >= SAVE_SECONDS:
                self.save()
        if not len(words):
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.vectors[word] for word in words])

    def save(self) -> None:
        """Write the words encoded since the last save (merged with what other processes
        wrote meanwhile)."""
        if not self._unsaved:
            return
        new, self._unsaved = self._unsaved, []
        self._saved_at = time.monotonic()
        with files.build_lock(self.path):
            merged = self._read(self.path, quiet=True)
            merged.update((word, self.vectors[word]) for word in new)
            words = sorted(merged)
            vectors = np.stack([merged[word] for word in words]).astype(np.float32)

            def write(temporary: Path) -> None:
                np.savez(temporary, words=np.array(words), vectors=vectors)

            files.atomic_write(self.path, write)

    def _read(self, path: Path, quiet: bool = False) -> dict[str, np.ndarray]:
        if not path.exists():
            return {}
        try:
            with np.load(path, allow_pickle=False) as archive:
                words, vectors = archive["words"], archive["vectors"]
            if vectors.shape != (len(words), self.dim):
                raise ValueError(f"vectors of shape {vectors.shape} for {len(words)} words")
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
            if not quiet:
                note(f"ignoring the word store {path} ({error}); its words are encoded again")
            return {}
        return dict(zip(words.tolist(), vectors))
