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


_COLD_BUILD = """
import time
start = time.perf_counter()
from codebots.validity import ClueChecker
from codebots.vocab import clue_vocabulary, load_pool
checker = ClueChecker(load_pool("competition").words)
table = checker.forbid_table(clue_vocabulary(50_000), cache=False)
print(time.perf_counter() - start, table.nnz)
"""


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000, help="games per engine figure")
    parser.add_argument(
        "--skip-agreement",
        action="store_true",
        help="skip the full (card, clue) agreement check (about a minute)",
    )
    args = parser.parse_args(argv)
    figures: dict[str, dict] = {}
    for variant in ENGINE_VARIANTS:
        rate = engine_throughput(variant, args.games)
        name = f"engine/{variant}/games_per_s"
        figures[name] = {"value": round(rate, 1), "unit": "games/s"}
        print(f"{name:<45} {rate:>12,.0f} games/s  (random spymaster, oracle guesser, 2 cores)")
    seconds, nnz = forbid_table_build_seconds()
    figures["validity/forbid_table_build/s"] = {"value": round(seconds, 2), "unit": "s"}
    print(
        f"{'validity/forbid_table_build/s':<45} {seconds:>12.2f} s        "
        f"(competition pool x 50,000 clue words, cold, {nnz:,} forbidden pairs)"
    )
    milliseconds = mask_milliseconds()
    figures["validity/invalid_mask_1000_games/ms"] = {"value": round(milliseconds, 3), "unit": "ms"}
    print(
        f"{'validity/invalid_mask_1000_games/ms':<45} {milliseconds:>12.3f} ms       "
        "(one turn, 1,000 boards x 50,000 clue words)"
    )
    if not args.skip_agreement:
        start = time.perf_counter()
        pairs, mismatches = full_agreement()
        figures["validity/agreement/pairs"] = {"value": pairs, "unit": "pairs"}
        figures["validity/agreement/mismatches"] = {"value": len(mismatches), "unit": "pairs"}
        print(
            f"{'validity/agreement/mismatches':<45} {len(mismatches):>12,d} of {pairs:,} "
            f"(card, clue) pairs, single verdict vs table ({time.perf_counter() - start:.0f} s)"
        )
        if mismatches:
            print("first mismatches:", mismatches[:10])
    rate = deal_throughput(5000)
    figures["deal/competition-board/boards_per_s"] = {"value": round(rate, 1), "unit": "boards/s"}
    print(f"{'deal/competition-board/boards_per_s':<45} {rate:>12,.0f} boards/s (uncached, 1 core)")
    write_results(figures)
    print(f"written to {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
