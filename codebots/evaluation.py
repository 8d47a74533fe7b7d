"""Evaluation grids: (variant x spymaster x guesser) cells, cached, resumable, parallel.

A *cell* plays ``games`` games of one pairing on one variant, seeds ``seed .. seed+games-1``.
Each finished cell is written atomically to ``<cache>/<cell id>.csv`` (one row per game), so
an interrupted sweep continues where it stopped and a finished cell is never recomputed.
Cells run in this process, in ``workers`` local processes, or as tasks on a dask cluster.

A config file (TOML or JSON) describes a grid::

    name = "replication-2019"
    variants = ["single-team-2019"]
    pairs = ["glove:glove", "nearest:glove"]
    games = 1000
    seed = 0
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tomllib
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from codebots.errors import CodebotsError
from codebots.files import atomic_write
from codebots.report import atomic_write_text, summarize, to_markdown
from codebots.variants import get_variant

CONFIG_KEYS = {
    "name": str,
    "variants": list,
    "pairs": list,
    "games": int,
    "seed": int,
    "partner_memory": str,  # optional: every spymaster plays with this memory (codebots watch)
}
OPTIONAL_KEYS = {"seed", "partner_memory"}


@dataclass(frozen=True)
class Cell:
    variant: str
    spymaster: str
    guesser: str
    games: int
    seed: int = 0
    partner_memory: str = ""  # a PartnerMemory file the spymaster uses ("" none)
    partner_digest: str = ""  # its content hash: a changed file is another cell

    @property
    def id(self) -> str:
        # The memory counts by its content, not where the file is; the variant by the rules
        # its label resolves to, so a changed registered rule never reuses an old cell.
        fields = asdict(self)
        del fields["partner_memory"]
        if not fields["partner_digest"]:
            del fields["partner_digest"]
        fields["rules"] = get_variant(self.variant).rules
        digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()
        readable = f"{self.variant}-{self.spymaster}-{self.guesser}".replace("/", "_")
        return f"{readable}-{digest[:12]}"


@dataclass(frozen=True)
class GridConfig:
    name: str
    variants: tuple[str, ...]
    pairs: tuple[str, ...]
    games: int
    seed: int = 0
    partner_memory: str | None = None

    def cells(self) -> list[Cell]:
        memory, digest = "", ""
        if self.partner_memory:
            path = Path(self.partner_memory)
            if not path.is_file():
                raise CodebotsError(
                    f"partner memory {path} does not exist; make one with codebots watch"
                )
            memory, digest = str(path.resolve()), hashlib.sha256(path.read_bytes()).hexdigest()
        out = []
        for variant in self.variants:
            for pair in self.pairs:
                spymaster, _, guesser = pair.partition(":")
                out.append(
                    Cell(
                        variant,
                        spymaster.strip(),
                        guesser.strip(),
                        self.games,
                        self.seed,
                        memory,
                        digest,
                    )
                )
        return out


def parse_pairs(pairs: Iterable[str]) -> tuple[str, ...]:
    clean = tuple(p.strip() for p in pairs if p.strip())
    for pair in clean:
        spymaster, sep, guesser = pair.partition(":")
        if not sep or not spymaster.strip() or not guesser.strip():
            raise CodebotsError(f"pair '{pair}' must be spymaster:guesser, e.g. glove:minilm")
    if not clean:
        raise CodebotsError("no pairs given; e.g. glove:glove")
    return clean


def load_config(path: str | os.PathLike) -> GridConfig:
    """Read a grid config (TOML or JSON); unknown keys and wrong types are one-line errors."""
    path = Path(path)
    if not path.is_file():
        raise CodebotsError(f"config file {path} does not exist")
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise CodebotsError(f"{path}: not valid {path.suffix[1:].upper()}: {error}") from None
    unknown = sorted(set(data) - set(CONFIG_KEYS))
    if unknown:
        raise CodebotsError(
            f"{path}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(CONFIG_KEYS)}"
        )
    for key, kind in CONFIG_KEYS.items():
        if key not in data and key not in OPTIONAL_KEYS:
            raise CodebotsError(f"{path}: missing key '{key}'")
        if key in data and (not isinstance(data[key], kind) or isinstance(data[key], bool)):
            raise CodebotsError(f"{path}: '{key}' must be a {kind.__name__}, got {data[key]!r}")
    if data["games"] < 1:
        raise CodebotsError(f"{path}: 'games' must be at least 1, got {data['games']}")
    return GridConfig(
        name=data["name"],
        variants=tuple(data["variants"]),
        pairs=parse_pairs(data["pairs"]),
        games=data["games"],
        seed=data.get("seed", 0),
        # A relative memory path is relative to the config file.
        partner_memory=str(path.parent / data["partner_memory"])
        if "partner_memory" in data
        else None,
    )


def validate_cells(cells: list[Cell]) -> None:
    """Fail before any game is played: unknown variants and agents are one-line errors."""
    from codebots.agents import GUESSERS, SPYMASTERS

    for cell in cells:
        get_variant(cell.variant)
        for role, name, registry in (
            ("spymaster", cell.spymaster, SPYMASTERS),
            ("guesser", cell.guesser, GUESSERS),
        ):
            if name not in registry:
                raise CodebotsError(
                    f"unknown {role} '{name}'; known: {', '.join(sorted(registry))}"
                )
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


BATCH = 4096  # games per engine batch; cells split across workers in whole batches


def run_cell(cell: Cell, progress: bool = False, part: tuple[int, int] | None = None):
    """Play one cell, or the batches ``part = (first, stop)`` of it (in any process)."""
    import warnings

    from codebots.agents import make_agent
    from codebots.agents.partner import PartnerMemory
    from codebots.arena import play

    warnings.filterwarnings("ignore", category=RuntimeWarning)
    first, stop = part or (0, -(-cell.games // BATCH))
    seeds = np.arange(cell.seed, cell.seed + cell.games)[first * BATCH : stop * BATCH]
    spymaster = make_agent("spymaster", cell.spymaster)
    if cell.partner_memory:
        spymaster.partner = PartnerMemory.load(cell.partner_memory)
        # The rows say which memory: its file's hash, as the cell's cache key does.
        spymaster.name = f"{cell.spymaster}+partner-{cell.partner_digest[:8]}"
    return play(
        cell.variant,
        spymaster,
        make_agent("guesser", cell.guesser),
        seeds,
        batch_size=BATCH,
        agent_seed=cell.seed,
        progress=progress,
        first_batch=first,
    )


def _parts(cell: Cell, workers: int) -> list[tuple[int, int]]:
    """Whole-batch slices of a cell, about one per worker (the games do not depend on it)."""
    batches = -(-cell.games // BATCH)
    edges = np.linspace(0, batches, min(workers, batches) + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:]) if b > a]


def _store(cache: Path, cell: Cell, records: pd.DataFrame) -> None:
    atomic_write_text(cache / f"{cell.id}.csv", records.to_csv(index=False))


def _load(cache: Path, cell: Cell) -> pd.DataFrame | None:
    path = cache / f"{cell.id}.csv"
    return pd.read_csv(path) if path.exists() else None


def run_grid(
    cells: list[Cell],
    cache: str | os.PathLike,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Play every cell not yet cached; return all cells' records in cell order."""
    if workers < 1:
        raise CodebotsError(f"--workers must be at least 1, got {workers}")
    if backend not in ("local", "dask"):
        raise CodebotsError(f"unknown backend '{backend}'; use local or dask")
    validate_cells(cells)
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    todo = [cell for cell in cells if _load(cache, cell) is None]
    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), desc="cells", unit="cell", file=sys.stderr)
    if backend == "dask":
        _run_dask(todo, cache, address, workers, bar)
    elif workers == 1:
        for cell in todo:
            _store(cache, cell, run_cell(cell, progress=progress))
            if bar is not None:
                bar.update()
    else:
        # Every cell in whole-batch parts, so that one big cell also uses every worker.
        with ProcessPoolExecutor(workers) as pool:
            pending = {cell: {} for cell in todo}
            futures = {
                pool.submit(run_cell, cell, False, part): (cell, part)
                for cell in todo
                for part in _parts(cell, workers)
            }
            for future in as_completed(futures):
                cell, part = futures[future]
                pending[cell][part] = future.result()
                if len(pending[cell]) == len(_parts(cell, workers)):
                    done = pending.pop(cell)
                    _store(
                        cache, cell, pd.concat([done[p] for p in sorted(done)], ignore_index=True)
                    )
                    if bar is not None:
                        bar.update()
    if bar is not None:
        bar.close()
    return pd.concat([_load(cache, cell) for cell in cells], ignore_index=True)


def _run_dask(todo: list[Cell], cache: Path, address: str | None, workers: int, bar) -> None:
    """Cells as tasks on a dask cluster: an existing one at ``address``, else a local one."""
    try:
        from dask.distributed import Client, LocalCluster
        from dask.distributed import as_completed as dask_completed
    except ImportError:
        raise CodebotsError(
            "the dask backend needs dask.distributed: pip install 'codebots[cluster]'"
        ) from None
    if address:
        client, cluster = Client(address), None
    else:
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    try:
        futures = {client.submit(run_cell, cell, pure=False): cell for cell in todo}
        for future in dask_completed(list(futures)):
            _store(cache, futures[future], future.result())
            if bar is not None:
                bar.update()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def grid_table(records: pd.DataFrame) -> pd.DataFrame:
    """The summary table, with the most common Marvel rank where there is one."""
    table = summarize(records)
    if "rank" in records:
        ranks = (
            records.dropna(subset=["rank"])
            .groupby(["variant", "spymaster", "guesser"], sort=False)["rank"]
            .agg(lambda values: values.mode().iloc[0])
        )
        table = table.merge(
            ranks.rename("typical_rank").reset_index(),
            how="left",
            on=["variant", "spymaster", "guesser"],
        )
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
