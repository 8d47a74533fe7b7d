"""`make bench`: throughput figures, printed and merged into benchmarks/results.json.

The file maps a benchmark name (``engine/duet/games_per_s``) to ``{"value": x, "unit": u}``;
later benchmarks add their own names to the same file.

Engine figures: the random spymaster and the oracle guesser play full games in two worker
processes (the machine's two cores), with warm caches (clue-word verdicts, competition boards
of the seeds played). Dealing uncached competition boards (Python's ``random``, as the 2019
framework does) is measured separately.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

import numpy as np

import codebots  # noqa: F401 — fail fast here rather than in every worker

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


def _warm_worker(variant: str, seeds: np.ndarray) -> None:
    """Build the agents and fill the caches a long run has warm: clue verdicts, boards."""
    from codebots.agents import make_agent
    from codebots.keys import deal
    from codebots.validity import checker_for
    from codebots.variants import get_variant
    from codebots.vocab import load_pool

    global _AGENTS
    _AGENTS = (make_agent("spymaster", "random"), make_agent("guesser", "oracle"))
    spec = get_variant(variant)
    checker_for(load_pool(spec.pool).words).word_ids(_AGENTS[0].vocabulary)
    deal(spec, seeds)


def _timed_play(args: tuple[str, np.ndarray]) -> float:
    from codebots.arena import play

    variant, seeds = args
    start = time.perf_counter()
    play(variant, *_AGENTS, seeds, batch_size=4096)
    return time.perf_counter() - start


def engine_throughput(variant: str, games: int, workers: int = 2) -> float:
    """Games per second over ``workers`` processes, each playing its share of the seeds."""
    shares = np.array_split(np.arange(games), workers)
    context = mp.get_context("fork")
    with context.Pool(
        workers, initializer=_warm_worker, initargs=(variant, np.arange(games))
    ) as pool:
        pool.map(_timed_play, [(variant, share[:64]) for share in shares])  # settle workers
        start = time.perf_counter()
        pool.map(_timed_play, [(variant, share) for share in shares])
        wall = time.perf_counter() - start
    return games / wall


def deal_throughput(games: int) -> float:
    from codebots.keys import competition_board
    from codebots.vocab import load_pool

    words = load_pool("competition").words
    start = time.perf_counter()
    for seed in range(games):
        competition_board(seed, words)
    return games / (time.perf_counter() - start)


def write_results(figures: dict[str, dict]) -> None:
    from codebots.report import atomic_write_text

    merged = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    merged.update(figures)
    atomic_write_text(RESULTS, json.dumps(merged, indent=2, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000, help="games per engine figure")
    args = parser.parse_args(argv)
    figures: dict[str, dict] = {}
    for variant in ENGINE_VARIANTS:
        rate = engine_throughput(variant, args.games)
        name = f"engine/{variant}/games_per_s"
        figures[name] = {"value": round(rate, 1), "unit": "games/s"}
        print(f"{name:<45} {rate:>12,.0f} games/s  (random spymaster, oracle guesser, 2 cores)")
    rate = deal_throughput(5000)
    figures["deal/competition-board/boards_per_s"] = {"value": round(rate, 1), "unit": "boards/s"}
    print(f"{'deal/competition-board/boards_per_s':<45} {rate:>12,.0f} boards/s (uncached, 1 core)")
    write_results(figures)
    print(f"written to {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
