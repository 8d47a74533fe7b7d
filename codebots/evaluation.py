"""Evaluation grids: (variant x spymaster x guesser) cells, cached, resumable, parallel.

A *cell* plays ``games`` games of one pairing on one variant, seeds ``seed .. seed+games-1``.
Each finished cell is written atomically to ``<cache>/<cell id>.csv`` (one row per game), so
an interrupted sweep continues where it stopped and a finished cell is never recomputed.
Cells run in this process, in ``workers`` local processes, or as tasks on a dask cluster.

Cells, pairs and grid config files: :mod:`codebots.grid_config`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from codebots import cell_store
from codebots.cell_store import CellStore, batch_count, seeds_of
from codebots.errors import CodebotsError
from codebots.files import atomic_write
from codebots.grid_config import Cell
from codebots.report import atomic_write_text, group_keys, summarize, to_markdown
from codebots.variants import get_variant
from codebots.workers import WorkerPool

DASK_CONNECT_SECONDS = 5
MIN_SLICE = 200  # games: a batch is shared among workers only in slices at least this big


def validate_cells(cells: list[Cell]) -> None:
    """Fail before any game is played: unknown variants and agents are one-line errors."""
    from codebots.agents.registry import check_agent

    for cell in cells:
        spec = get_variant(cell.variant)
        roles = (("spymaster", cell.spymaster), ("guesser", cell.guesser))
        if cell.seats:
            if spec.family != "duet":
                raise CodebotsError(
                    f"'{cell.spymaster}/{cell.guesser}' pairs two seats, which only Duet and "
                    f"the missions have; on {cell.variant} pair roles: spymaster:guesser"
                )
            if cell.partner_memory:
                raise CodebotsError("a partner memory is for spymaster:guesser pairings")
            # A seat gives clues and guesses: its agent must be both.
            roles = tuple(
                (role, name)
                for name in (cell.spymaster, cell.guesser)
                for role in ("spymaster", "guesser")
            )
        for role, name in roles:
            try:
                check_agent(role, name)
            except CodebotsError as error:
                seat = " (a seat gives clues and guesses: it must be both)" if cell.seats else ""
                raise CodebotsError(f"{error}{seat}") from None
        if cell.partner_memory:
            pool = get_variant(cell.variant).pool
            _check_memory(cell.partner_memory, cell.partner_digest, cell.spymaster, pool)


@functools.cache
def _check_memory(path: str, digest: str, spymaster: str, pool: str) -> None:
    """A one-line error unless ``spymaster`` can use the memory at ``path`` (its content
    ``digest``: checked once per content) on ``pool``."""
    from codebots.agents.partner import PartnerMemory
    from codebots.agents.registered import embedding_spymaster
    from codebots.vocab import load_pool

    vocabulary = embedding_spymaster(spymaster, "a partner memory").vocabulary
    PartnerMemory.load(path).check_fits(load_pool(pool).words, vocabulary)


def cell_agents(cell: Cell) -> tuple:
    """The cell's two agents (or two seats), built as its games are played."""
    from codebots.agents import make_agent
    from codebots.agents.partner import PartnerMemory
    from codebots.arena import Seat

    if cell.seats:
        spymaster, guesser = Seat.of(cell.spymaster), Seat.of(cell.guesser)
    else:
        spymaster, guesser = (
            make_agent("spymaster", cell.spymaster),
            make_agent("guesser", cell.guesser),
        )
    if cell.partner_memory:
        spymaster.partner = PartnerMemory.load(cell.partner_memory)
        spymaster.name = cell.spymaster_label  # the rows say which memory
    return spymaster, guesser


def play_batches(
    cell: Cell, first: int, stop: int, progress: bool = False, part: tuple[int, int] = (0, 1)
) -> pd.DataFrame:
    """Play batches ``first .. stop - 1`` of ``cell`` (in any process): the same games as in
    a run of the whole cell, since the agents' random streams are numbered by batch.
    ``part=(k, n)``: only the k-th of n even slices of one batch (``stop == first + 1``),
    for agents that draw nothing at random (:func:`codebots.agents.base.uses_rng`)."""
    import warnings

    from codebots.arena import play

    warnings.filterwarnings("ignore", category=RuntimeWarning)
    seeds = seeds_of(cell, first, stop)
    if part != (0, 1):
        seeds = np.array_split(seeds, part[1])[part[0]]
    return play(
        cell.variant,
        *cell_agents(cell),
        seeds,
        batch_size=cell_store.BATCH,
        agent_seed=cell.seed,
        progress=progress,
        first_batch=first,
    )


def run_cell(cell: Cell, progress: bool = False) -> pd.DataFrame:
    """Play every game of one cell in this process."""
    return play_batches(cell, 0, batch_count(cell.games), progress)


Task = tuple[Cell, int, int, int]  # (cell, batch, part, parts): a slice of one batch


def _play_task(task: Task) -> tuple[Cell, int, int, pd.DataFrame]:
    cell, batch, part, parts = task
    return cell, batch, part, play_batches(cell, batch, batch + 1, part=(part, parts))


def _split(tasks: list[tuple[Cell, int]], workers: int) -> list[Task]:
    """Each batch as one task, or, with several workers and agents that draw nothing at
    random, as ``workers`` even slices (of at least ``MIN_SLICE`` games), so that a cell of
    any size keeps every worker busy and its games stay those of a serial run."""
    from codebots.agents.base import uses_rng

    out: list[Task] = []
    shareable: dict[Cell, bool] = {}  # agents are built once per cell to ask, not per batch
    for cell, batch in tasks:
        parts = 1
        if workers > 1 and cell not in shareable:
            shareable[cell] = not any(uses_rng(agent) for agent in cell_agents(cell))
        if workers > 1 and shareable[cell]:
            games = len(seeds_of(cell, batch, batch + 1))
            parts = max(1, min(workers, games // MIN_SLICE))
        out.extend((cell, batch, part, parts) for part in range(parts))
    return out


def run_grid(
    cells: list[Cell],
    cache: str | os.PathLike,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Play every game not yet cached; return all cells' records in cell order.

    Finished batches are stored as they come in (:mod:`codebots.cell_store`), so an
    interrupted run (Ctrl-C, a crash, ``kill -9``) keeps them and the next run plays only
    the rest; the result equals an undisturbed run's.
    """
    if workers < 1:
        raise CodebotsError(f"--workers must be at least 1, got {workers}")
    if backend not in ("local", "dask"):
        raise CodebotsError(f"unknown backend '{backend}'; use local or dask")
    validate_cells(cells)
    store = CellStore(cache)
    with contextlib.suppress(OSError):  # a folder that cannot be made: a note at the write
        store.folder.mkdir(parents=True, exist_ok=True)
    done: dict[Cell, pd.DataFrame] = {}
    parts: dict[Cell, dict[int, pd.DataFrame]] = {}
    tasks: list[tuple[Cell, int]] = []
    for cell in dict.fromkeys(cells):
        rows = store.load_cell(cell)
        if rows is not None:
            done[cell] = rows
            continue
        parts[cell] = {}
        for batch in range(batch_count(cell.games)):
            rows = store.load_batch(cell, batch)
            if rows is None:
                tasks.append((cell, batch))
            else:
                parts[cell][batch] = rows

    def finish_complete_cells() -> None:
        for cell in [c for c, got in parts.items() if len(got) == batch_count(c.games)]:
            got = parts.pop(cell)
            done[cell] = store.store_cell(cell, pd.concat([got[k] for k in sorted(got)]))

    finish_complete_cells()  # cells whose every batch was kept by an interrupted run
    bar = None
    if progress and tasks:
        from tqdm import tqdm

        total = sum(len(seeds_of(cell, batch, batch + 1)) for cell, batch in tasks)
        bar = tqdm(total=total, desc="games", unit="game", file=sys.stderr)
    slices = _split(tasks, workers)
    pending: dict[tuple[Cell, int], dict[int, pd.DataFrame]] = {}
    results = _results(slices, workers, backend, address)
    try:
        parts_of = {(cell, batch): parts for cell, batch, _, parts in slices}
        for cell, batch, part, rows in results:
            if bar is not None:
                bar.update(len(rows))
            got = pending.setdefault((cell, batch), {})
            got[part] = rows
            if len(got) < parts_of[cell, batch]:
                continue  # the batch's other slices are still being played
            rows = pd.concat([got[k] for k in sorted(got)], ignore_index=True)
            del pending[cell, batch]
            store.store_batch(cell, batch, rows)
            parts[cell][batch] = rows
            finish_complete_cells()
    finally:
        results.close()  # on Ctrl-C or an error: the workers end now
        if bar is not None:
            bar.close()
    return pd.concat([done[cell] for cell in cells], ignore_index=True)


def _results(tasks: list[Task], workers: int, backend: str, address: str | None):
    """``(cell, batch, part, rows)`` for every task, as they finish."""
    if not tasks:
        return
    if backend == "dask":
        yield from _dask_results(tasks, address, workers)
    elif workers == 1 or len(tasks) == 1:
        for task in tasks:
            yield _play_task(task)
    else:
        with WorkerPool(min(workers, len(tasks))) as pool:
            yield from pool.imap_unordered(_play_task, tasks)


def _dask_results(tasks: list[Task], address: str | None, workers: int):
    """Batches as tasks on a dask cluster: an existing one at ``address``, else a local one."""
    try:
        from dask.distributed import Client, LocalCluster
        from dask.distributed import as_completed as dask_completed
    except ImportError:
        raise CodebotsError(
            "the dask backend needs dask.distributed: pip install 'codebots[cluster]'"
        ) from None
    if address:
        try:
            client, cluster = Client(address, timeout=DASK_CONNECT_SECONDS), None
        except (OSError, TimeoutError, ValueError) as error:
            raise CodebotsError(
                f"cannot reach the dask scheduler at {address} ({type(error).__name__}); "
                "start one with `dask scheduler`, or leave --address out for a local cluster"
            ) from None
    else:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # Workers log a heartbeat ERROR when the scheduler closes first at shutdown (seen
            # under load); a task's real failure still reaches us through its future.
            silence_logs=logging.CRITICAL,
        )
        client = Client(cluster)
    try:
        futures = [client.submit(_play_task, task, pure=False) for task in tasks]
        for future in dask_completed(futures):
            yield future.result()
    finally:
        _quietly_close(client, cluster)


def _quietly_close(client, cluster) -> None:
    """Close a dask client and its local cluster without the nannies' shutdown warnings."""
    quiet = [logging.getLogger(name) for name in ("distributed", "distributed.nanny")]
    levels = [logger.level for logger in quiet]
    for logger in quiet:
        logger.setLevel(logging.CRITICAL)
    try:
        client.close()
        if cluster is not None:
            cluster.close()
    finally:
        for logger, level in zip(quiet, levels):
            logger.setLevel(level)


def grid_table(records: pd.DataFrame) -> pd.DataFrame:
    """The summary table, with the most common Marvel rank where there is one."""
    table = summarize(records)
    if "rank" in records:
        keys = group_keys(records)
        ranks = (
            records.dropna(subset=["rank"])
            .groupby(keys, sort=False)["rank"]
            .agg(lambda values: values.mode().iloc[0])
        )
        table = table.merge(ranks.rename("typical_rank").reset_index(), how="left", on=keys)
    return table


def write_outputs(table: pd.DataFrame, out_dir: str | os.PathLike, name: str) -> list[Path]:
    """``name``.csv, ``name``.md and ``name``.png (win rates with 95% intervals)."""
    out_dir = Path(out_dir)
    paths = [
        atomic_write_text(out_dir / f"{name}.csv", table.to_csv(index=False)),
        atomic_write_text(out_dir / f"{name}.md", to_markdown(table) + "\n"),
    ]
    paths.append(plot_win_rates(table, out_dir / f"{name}.png"))
    return paths


def plot_win_rates(table: pd.DataFrame, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{r.variant}\n{r.spymaster}→{r.guesser}" for r in table.itertuples()]
    figure, axis = plt.subplots(figsize=(max(4.0, 1.2 * len(table)), 3.6))
    rates = table["win_rate"].to_numpy()
    errors = np.clip(np.vstack([rates - table["win_low"], table["win_high"] - rates]), 0, None)
    axis.bar(range(len(table)), rates, yerr=errors, capsize=4, color="#4c72b0")
    axis.set_xticks(range(len(table)), labels, fontsize=7)
    axis.set_ylim(0, 1.05)
    axis.set_ylabel("win rate (95% Wilson interval)")
    figure.tight_layout()
    atomic_write(path, lambda temporary: figure.savefig(temporary, dpi=120))
    plt.close(figure)
    return path
