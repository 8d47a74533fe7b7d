"""Atomic file writes (a temporary file in the same folder, then a rename) and the cache folder.

Readers (and a crash, or Ctrl-C) never see a half-written game record, table or cache file.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from codebots.errors import CodebotsError

_PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
# Every derived table (similarities, encodings, forbid tables, lexicon, gloss vectors) is
# cached here, keyed by what it was built from; ``CODEBOTS_CACHE`` moves it.
CACHE_DIR = Path(os.environ.get("CODEBOTS_CACHE", Path.home() / ".cache" / "codebots"))
# Reading the umask means setting it: done once at import, not in every write, so no other
# thread ever creates a file while it is momentarily 0.
UMASK = os.umask(0)
os.umask(UMASK)


def atomic_write(path: str | os.PathLike, write: Callable[[Path], object]) -> Path:
    """Call ``write(temporary_path)`` and rename the result to ``path``.

    The temporary name keeps ``path``'s suffix, so writers that add or infer one
    (``numpy.save``, ``savefig``) write exactly that file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=f".tmp{path.suffix}"
    )
    os.close(handle)
    try:
        write(Path(temporary))
        os.chmod(temporary, 0o666 & ~UMASK)  # mkstemp makes it owner-only (0600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) atomically."""
    return atomic_write(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` atomically."""
    return atomic_write(path, lambda temporary: temporary.write_bytes(data))


@contextlib.contextmanager
def build_lock(path: str | os.PathLike) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` + ``.lock`` while building ``path``.

    Two processes that need the same slow cache entry (``--workers 2`` on a fresh machine)
    then build it once: the second waits, then finds the file. Without ``fcntl`` (Windows)
    both build, which the atomic write keeps correct.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    lock_path = Path(f"{path}.lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def plain_name(what: str, name: object) -> str:
    """``name`` if it is one plain file name (never a path, never hidden), else a one-line
    error naming ``what`` it is (``--name``, ``config.toml: 'name'``)."""
    if not isinstance(name, str) or not _PLAIN_NAME.match(name):
        raise CodebotsError(
            f"{what} {name!r} must be a plain file name (letters, digits, '.', '_', '-'; "
            "no folders), e.g. mine"
        )
    return name
