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

import contextlib
import functools
import hashlib
import json
import logging
import os
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from codebots import cell_store
from codebots.cell_store import CellStore, batch_count, seeds_of
from codebots.errors import CodebotsError
from codebots.files import atomic_write, plain_name
from codebots.keys import MAX_GAMES, MAX_SEED
from codebots.report import atomic_write_text, group_keys, summarize, to_markdown
from codebots.variants import get_variant
from codebots.workers import WorkerPool

CONFIG_KEYS = {
    "name": str,
    "variants": list,
    "pairs": list,
    "games": int,
    "seed": int,
    "partner_memory": str,  # optional: every spymaster plays with this memory (codebots watch)
}
OPTIONAL_KEYS = {"seed", "partner_memory"}
KIND_NAMES = {str: "a string", list: "a list", int: "an integer"}
EXAMPLES = {"variants": '["single-team-2019", "duet"]', "pairs": '["glove:glove"]'}
DASK_CONNECT_SECONDS = 5
MIN_SLICE = 200  # games: a batch is shared among workers only in slices at least this big


@functools.cache
def minds_fingerprint() -> str:
    """What every panel mind's vectors are (package versions, encoding, gloss training),
    without loading them."""
    from codebots.embeddings import model_fingerprint
    from codebots.minds import PANEL

    return repr([model_fingerprint(mind) for mind in PANEL])


@dataclass(frozen=True)
class Cell:
    variant: str
    spymaster: str
    guesser: str
    games: int
    seed: int = 0
    partner_memory: str = ""  # a PartnerMemory file the spymaster uses ("" none)
    partner_digest: str = ""  # its content hash: a changed file is another cell
    seats: bool = False  # Duet: spymaster and guesser name the two seats (players)

    @property
    def id(self) -> str:
        # The memory counts by its content, not where the file is; the variant by the rules
        # its label resolves to, so a changed registered rule never reuses an old cell; the
        # panel's models by what their vectors are, so a cell cached before new vectors or a
        # new way of encoding (codebots.embeddings.model_fingerprint) is played again.
        fields = asdict(self)
        del fields["partner_memory"]
        for optional in ("partner_digest", "seats"):  # unset: the ids of older cells
            if not fields[optional]:
                del fields[optional]
        fields["rules"] = get_variant(self.variant).rules
        fields["minds"] = minds_fingerprint()  # new vectors or encodings: other games
        digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()
        joint = "~" if self.seats else "-"
        readable = f"{self.variant}-{self.spymaster}{joint}{self.guesser}".replace("/", "_")
        return f"{readable}-{digest[:12]}"

    @property
    def label(self) -> str:
        """The variant label the rows record (options in their canonical form)."""
        return get_variant(self.variant).label

    @property
    def spymaster_label(self) -> str:
        """The spymaster name the rows record: with a partner memory, its file's hash."""
        if not self.partner_memory:
            return self.spymaster
        return f"{self.spymaster}+partner-{self.partner_digest[:8]}"


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
                first, second, seats = split_pair(pair)
                out.append(
                    Cell(variant, first, second, self.games, self.seed, memory, digest, seats)
                )
        return out


def split_pair(pair: str) -> tuple[str, str, bool]:
    """``spymaster:guesser`` (roles) or ``seat0/seat1`` (Duet players): (first, second,
    seats)."""
    seats = "/" in pair and ":" not in pair
    first, sep, second = pair.partition("/" if seats else ":")
    if not sep or not first.strip() or not second.strip():
        raise CodebotsError(
            f"pair '{pair}' must be spymaster:guesser (e.g. glove:minilm) or, in Duet, "
            "two seats player0/player1 (e.g. glove/minilm)"
        )
    return first.strip(), second.strip(), seats


def parse_pairs(pairs: Iterable[str]) -> tuple[str, ...]:
    clean = tuple(p.strip() for p in pairs if p.strip())
    for pair in clean:
        split_pair(pair)
    if not clean:
        raise CodebotsError("no pairs given; e.g. glove:glove")
    return clean


def load_config(path: str | os.PathLike) -> GridConfig:
    """Read a grid config (TOML or JSON); every problem is a one-line error naming the file."""
    path = Path(path)
    if not path.is_file():
        what = "is a folder" if path.is_dir() else "does not exist"
        raise CodebotsError(f"config file {path} {what}")
    try:
        text = path.read_text(encoding="utf-8-sig")
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except UnicodeDecodeError:
        raise CodebotsError(f"{path}: not UTF-8 text; save the config as UTF-8") from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        kind = "JSON" if path.suffix == ".json" else "TOML"
        raise CodebotsError(f"{path}: not valid {kind}: {error}") from None
    except OSError as error:
        raise CodebotsError(f"cannot read config file {path}: {error.strerror}") from None
    if not isinstance(data, dict):
        raise CodebotsError(f"{path}: a config is a table of keys ({', '.join(CONFIG_KEYS)})")
    unknown = sorted(set(data) - set(CONFIG_KEYS))
    if unknown:
        raise CodebotsError(
            f"{path}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(CONFIG_KEYS)}"
        )
    for key, kind in CONFIG_KEYS.items():
        if key not in data and key not in OPTIONAL_KEYS:
            raise CodebotsError(f"{path}: missing key '{key}'")
        if key in data and (not isinstance(data[key], kind) or isinstance(data[key], bool)):
            raise CodebotsError(f"{path}: '{key}' must be {KIND_NAMES[kind]}, got {data[key]!r}")
    for key in ("variants", "pairs"):
        items = data[key]
        if not items or not all(isinstance(item, str) and item.strip() for item in items):
            raise CodebotsError(
                f"{path}: '{key}' must be a non-empty list of strings, e.g. {EXAMPLES[key]}"
            )
    games, seed = data["games"], data.get("seed", 0)
    if games < 1:
        raise CodebotsError(f"{path}: 'games' must be at least 1, got {games}")
    if games > MAX_GAMES:
        raise CodebotsError(f"{path}: 'games' must be at most {MAX_GAMES:,}, got {games:,}")
    if not 0 <= seed <= MAX_SEED - games + 1:
        raise CodebotsError(
            f"{path}: 'seed' must be from 0 to {MAX_SEED - games + 1} (the last game's seed "
            f"stays below 2**63), got {seed}"
        )
    try:
        variants = tuple(label.strip() for label in data["variants"])
        for label in variants:
            get_variant(label)
        pairs = parse_pairs(data["pairs"])
        name = plain_name(f"{path}: 'name'", data["name"])
    except CodebotsError as error:
        message = str(error)
        prefixed = message if message.startswith(str(path)) else f"{path}: {message}"
        raise CodebotsError(prefixed) from None
    return GridConfig(
        name=name,
        variants=variants,
        pairs=pairs,
        games=games,
        seed=seed,
        # A relative memory path is relative to the config file.
        partner_memory=str(path.parent / data["partner_memory"])
        if "partner_memory" in data
        else None,
    )


def validate_cells(cells: list[Cell]) -> None:
    """Fail before any game is played: unknown variants and agents are one-line errors."""
    from codebots.agents.base import check_agent

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
