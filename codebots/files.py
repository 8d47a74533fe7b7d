"""Atomic file writes: a temporary file in the same folder, then a rename.

Readers (and a crash, or Ctrl-C) never see a half-written game record, table or cache file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path


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
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) atomically."""
    return atomic_write(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))
