"""Start-up figures of `make bench`: what a user waits for around the games.

- ``startup/evaluate_1_game/s``: ``codebots evaluate --games 1`` of the GloVe pair, warm
  on-disk caches, median wall time of five runs (a fresh interpreter each).
- ``startup/cold_first_result/s``: the same command with an empty cache folder.
- ``startup/cold/<role>/<agent>/s``: then, in that same folder (so each table is built once,
  by whichever agent asks first), the first one-game result of every registered agent, one
  by one, with the cache builds it started (``CODEBOTS_BUILD_LOG``, see ``codebots.cache``).
- ``demo/fresh/s`` (asked for with ``--only demo``): ``make demo`` on a fresh clone.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EVALUATE = [sys.executable, "-m", "codebots", "evaluate", "--variant", "single-team-2019"]


def _evaluate_seconds(pair: str, env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(
        [*EVALUATE, "--pairs", pair, "--games", "1"],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def warm_start_seconds(repeats: int = 5) -> float:
    _evaluate_seconds("glove:glove")  # fills the caches if they are not yet
    return statistics.median(_evaluate_seconds("glove:glove") for _ in range(repeats))


def registered_agents() -> list[tuple[str, str]]:
    """``(role, name)`` of every registered agent but the baselines, spymasters first."""
    from codebots.agents import GUESSERS, SPYMASTERS

    return [
        (role, name)
        for role, registry in (("spymaster", SPYMASTERS), ("guesser", GUESSERS))
        for name in registry
        if name not in ("random", "oracle", "noisy-oracle")
    ]


def cold_figures(record) -> None:
    """The cold figures, each kept with ``record(name, value, unit, shown, note)`` as it
    comes in."""
    with tempfile.TemporaryDirectory() as cache:
        log = Path(cache) / "builds.jsonl"
        env = {**os.environ, "CODEBOTS_CACHE": cache, "CODEBOTS_BUILD_LOG": str(log)}
        seconds = _evaluate_seconds("glove:glove", env)
        note = f"GloVe pair, empty cache; builds: {_builds(log)}"
        record("startup/cold_first_result/s", round(seconds, 1), "s", f"{seconds:.1f} s", note)
        for role, agent in registered_agents():
            log.unlink(missing_ok=True)
            pair = f"{agent}:random" if role == "spymaster" else f"random:{agent}"
            seconds = _evaluate_seconds(pair, env)
            name, note = f"startup/cold/{role}/{agent}/s", f"first result; builds: {_builds(log)}"
            record(name, round(seconds, 1), "s", f"{seconds:.1f} s", note)


def demo_fresh_seconds() -> float:
    """``make demo`` in a fresh clone of this repository (its committed HEAD) with an empty
    cache folder: the base install from local wheels, the cold GloVe tables, the games."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as folder:
        clone, cache = Path(folder) / "clone", Path(folder) / "cache"
        subprocess.run(["git", "clone", "-q", str(root), str(clone)], check=True)
        env = {**os.environ, "CODEBOTS_CACHE": str(cache)}
        env.pop("VIRTUAL_ENV", None)
        start = time.perf_counter()
        subprocess.run(["make", "demo"], cwd=clone, check=True, env=env, stdout=subprocess.DEVNULL)
        return time.perf_counter() - start


def _builds(log: Path) -> str:
    """The cache builds of one run, longest first (``kind tag seconds``)."""
    if not log.exists():
        return "none (all cached)"
    builds = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    builds.sort(key=lambda build: -build["seconds"])
    return ", ".join(
        " ".join(filter(None, (b["kind"], b["tag"], f"{b['seconds']:.1f} s"))) for b in builds
    )
