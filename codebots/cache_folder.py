"""What the cache folder holds, and pruning what has not been used for a while.

Every change of a model package, a way of encoding or the rules makes new cache keys, and
the files of the old keys are never read again: they stay until pruned. Each entry of the
folder (a table file, a sentence model's word store, an unpacked model) is marked when it is
read (:func:`mark_used`: its modification time), so "unused for N days" is known without
knowing which keys the current code would ask for.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

DAY = 86400.0


@dataclass(frozen=True)
class Entry:
    path: Path
    kind: str  # the name up to its first "-": tables, forbid, words, models, ...
    size: int  # bytes (a folder: every file in it)
    last_used: float  # seconds since the epoch


def mark_used(path: Path) -> None:
    """Note that ``path`` (a file or folder of the cache) was just read."""
    with contextlib.suppress(OSError):  # a read-only cache is still a cache
        os.utime(path)


def entries(folder: Path) -> list[Entry]:
    """The folder's entries, lock files left out (they go with their entry)."""
    found = []
    if not folder.is_dir():
        return found
    for path in sorted(folder.iterdir()):
        if path.name.endswith(".lock") or path.name.startswith("."):  # a file being written
            continue
        try:
            if path.is_dir():
                size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
            else:
                size = path.stat().st_size
            last_used = path.stat().st_mtime
        except OSError:  # removed meanwhile
            continue
        found.append(Entry(path, path.name.split("-", 1)[0], size, last_used))
    return found


def by_kind(found: list[Entry]) -> list[tuple[str, int, int, float]]:
    """``(kind, entries, bytes, last used)`` for each kind of entry, by name."""
    kinds = sorted({entry.kind for entry in found})
    return [
        (
            kind,
            sum(entry.kind == kind for entry in found),
            sum(entry.size for entry in found if entry.kind == kind),
            max(entry.last_used for entry in found if entry.kind == kind),
        )
        for kind in kinds
    ]


def prune(folder: Path, days: float) -> list[Entry]:
    """Remove the entries unused for ``days`` days (and their lock files, and lock files
    whose entry is gone); returns what was removed."""
    now = time.time()
    removed = []
    for entry in entries(folder):
        if now - entry.last_used < days * DAY:
            continue
        with contextlib.suppress(OSError):
            if entry.path.is_dir():
                shutil.rmtree(entry.path)
            else:
                entry.path.unlink()
            removed.append(entry)
    for lock in folder.glob("*.lock") if folder.is_dir() else ():
        if not Path(str(lock)[: -len(".lock")]).exists():
            with contextlib.suppress(OSError):
                lock.unlink()
    return removed


def human_size(size: float) -> str:
    """``size`` bytes as B, kB, MB or GB (powers of 1,000)."""
    if size < 1000:
        return f"{size:,.0f} B"
    for unit in ("kB", "MB"):
        size /= 1000
        if size < 1000:
            return f"{size:,.1f} {unit}"
    return f"{size / 1000:,.1f} GB"
