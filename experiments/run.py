"""Regenerate the evaluation tables into experiments/results/ (``make tables``).

    python experiments/run.py [CONFIG ...]      # default: every experiments/*.toml

Each config is a grid (see codebots.evaluation); finished cells are cached under
experiments/results/cells/, so an interrupted run continues where it stopped.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from codebots.evaluation import grid_table, run_grid, write_outputs
from codebots.grid_config import load_config

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def run(config_path: Path) -> None:
    start = time.perf_counter()
    grid = load_config(config_path)
    records = run_grid(
        grid.cells(), RESULTS / "cells" / grid.name, workers=2, progress=sys.stderr.isatty()
    )
    write_outputs(grid_table(records), RESULTS, grid.name)
    print(f"{grid.name}: {len(records)} games in {time.perf_counter() - start:.0f} s", flush=True)


def crossplay(games: int = 1000, seed: int = 0) -> None:
    """The cross-play matrix (codebots crossplay): crossplay.csv, .md and .png."""
    from codebots import crossplay as matrix

    start = time.perf_counter()
    cells = matrix.crossplay_cells(games, seed)
    records = run_grid(
        [cell for cell, _ in cells],
        RESULTS / "cells" / "crossplay",
        workers=2,
        progress=sys.stderr.isatty(),
    )
    table = matrix.crossplay_table(records, cells)
    matrix.write_crossplay(table, matrix.agreement_matrix(table), RESULTS)
    print(f"crossplay: {len(records)} games in {time.perf_counter() - start:.0f} s", flush=True)


def main(argv: list[str]) -> int:
    configs = [Path(a) for a in argv] or sorted(HERE.glob("*.toml"))
    for config in configs:
        run(config)
    if not argv:
        crossplay()
        import runpy

        # the agreement bounds (seconds), then the mission log (minutes), with their defaults
        for script in ("agreement_bounds.py", "mission_log.py"):
            runpy.run_path(str(HERE / script), run_name="experiment")["main"]([])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
