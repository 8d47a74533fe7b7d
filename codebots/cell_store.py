"""Finished evaluation cells and batches on disk, each checked before it is reused.

A cell's games are played in whole batches (:data:`BATCH` games); every finished batch is
written at once to ``<folder>/<cell id>.batches/<k>.csv``, and when the last one is in, the
cell's rows go to ``<folder>/<cell id>.csv`` and its batch files are removed. So Ctrl-C or a
crash loses at most the batches being played.

A file is reused only when its rows are exactly the games asked for: the seeds of the cell
(or batch) in order, the variant label and both agent names, every result column present.
Anything else (a cut-down, empty or garbled file, another cell's rows) is played again,
with one line on stderr saying which file and why.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from codebots.errors import note
from codebots.files import atomic_write_text

BATCH = 4096  # games per engine batch: the agents' random streams are numbered by batch
COLUMNS = (
    "seed",
    "variant",
    "spymaster",
    "guesser",
    "seats",
    "cross",
    "won",
    "end",
    "assassin",
    "turns",
    "clues",
    "first_guesses",
    "first_on_target",
    "later_guesses",
    "later_on_target",
)


def batch_count(games: int) -> int:
    return -(-games // BATCH)


def seeds_of(cell, first: int = 0, stop: int | None = None) -> np.ndarray:
    """``(n,) int64``: the board seeds of batches ``first .. stop - 1`` of ``cell``."""
    stop = batch_count(cell.games) if stop is None else stop
    low = cell.seed + first * BATCH
    high = min(cell.seed + stop * BATCH, cell.seed + cell.games)
    return np.arange(low, high, dtype=np.int64)


def problem_with(rows: pd.DataFrame, cell, seeds: np.ndarray) -> str | None:
    """Why ``rows`` are not exactly the games of ``cell`` on ``seeds`` (None: they are)."""
    missing = [column for column in COLUMNS if column not in rows.columns]
    if missing:
        return f"lacks the column(s) {', '.join(missing)}"
    if len(rows) != len(seeds):
        return f"holds {len(rows)} games, not the {len(seeds)} asked for"
    if rows["seed"].dtype.kind not in "iu" or not np.array_equal(rows["seed"], seeds):
        return f"holds other games than seeds {seeds[0]}..{seeds[-1]}"
    expected = {
        "variant": cell.label,
        "spymaster": cell.spymaster_label,
        "guesser": cell.guesser,
    }
    for column, value in expected.items():
        found = set(rows[column].astype(str))
        if found != {value}:
            return f"was played with {column} {', '.join(sorted(found))[:60]}, not {value}"
    if any(rows[column].dtype != bool for column in ("won", "assassin", "seats", "cross")):
        return "has results that are not true/false"
    if set(rows["seats"]) != {bool(getattr(cell, "seats", False))}:
        return "was played with the other kind of pairing (seats or roles)"
    return None


def read_rows(path: Path, cell, seeds: np.ndarray) -> pd.DataFrame | None:
    """The rows in ``path`` if they are exactly the games asked for, else None (a note says
    why, unless the file does not exist)."""
    if not path.exists():
        return None
    try:
        rows = pd.read_csv(path)
    except (OSError, ValueError) as error:  # empty, not CSV, not UTF-8, unreadable
        problem = f"cannot be read ({type(error).__name__})"
    else:
        problem = problem_with(rows, cell, seeds)
    if problem is None:
        return rows
    note(f"cached results {path} {problem}; playing them again")
    return None


class CellStore:
    """The cached cells of one grid under ``folder``."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.write_failed = False

    def cell_path(self, cell) -> Path:
        return self.folder / f"{cell.id}.csv"

    def batch_path(self, cell, batch: int) -> Path:
        return self.folder / f"{cell.id}.batches" / f"{batch:06d}.csv"

    def load_cell(self, cell) -> pd.DataFrame | None:
        return read_rows(self.cell_path(cell), cell, seeds_of(cell))

    def load_batch(self, cell, batch: int) -> pd.DataFrame | None:
        return read_rows(self.batch_path(cell, batch), cell, seeds_of(cell, batch, batch + 1))

    def store_batch(self, cell, batch: int, rows: pd.DataFrame) -> None:
        self._write(self.batch_path(cell, batch), rows)

    def store_cell(self, cell, rows: pd.DataFrame) -> pd.DataFrame:
        """Write the finished cell, drop its batch files; returns the rows as read back, so a
        fresh cell and a reused one give the same table, to the byte."""
        path = self.cell_path(cell)
        if not self._write(path, rows):
            return rows.reset_index(drop=True)
        shutil.rmtree(self.folder / f"{cell.id}.batches", ignore_errors=True)
        return pd.read_csv(path)

    def _write(self, path: Path, rows: pd.DataFrame) -> bool:
        """Keep ``rows`` at ``path``; a failed write (a full disk) costs the cache, not the
        run: one note, and the rows stay in memory."""
        try:
            atomic_write_text(path, rows.to_csv(index=False))
        except OSError as error:
            if not self.write_failed:
                note(f"cannot keep results in {self.folder} ({error.strerror}); going on")
            self.write_failed = True
            return False
        return True
