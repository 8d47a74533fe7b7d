"""The embedding agents' acceptance table (issue: word vectors and agents).

Plays every pairing on the competition boards with seeds 0..N-1 and writes
experiments/results/agents_baseline.{csv,md}:
    python experiments/agents_baseline.py [--games 1000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from codebots.agents import make_agent
from codebots.agents.embedding import EmbeddingSpymaster
from codebots.arena import play
from codebots.report import atomic_write_text, summarize, to_markdown

RESULTS = Path(__file__).resolve().parent / "results"
PAIRS = {
    "single-team-2019": [
        "glove:glove",
        "glove:minilm",
        "minilm:glove",
        "minilm:minilm",
        "robust:glove",
        "robust:minilm",
    ],
    "duet": ["glove:glove", "minilm:minilm", "glove:minilm", "minilm:glove"],
    "marvel-coop": ["glove:glove", "glove(random cover):glove"],
}


def spymaster(name: str):
    if name == "glove(random cover)":
        return EmbeddingSpymaster(("glove",), name=name, cover_policy="random")
    return make_agent("spymaster", name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    frames = []
    for variant, pairs in PAIRS.items():
        for pair in pairs:
            spy, guess = pair.split(":")
            print(f"{variant} {pair} ...", file=sys.stderr, flush=True)
            frames.append(
                play(
                    variant,
                    spymaster(spy),
                    make_agent("guesser", guess),
                    np.arange(args.games),
                    progress=sys.stderr.isatty(),
                )
            )
    records = pd.concat(frames, ignore_index=True)
    table = summarize(records)
    atomic_write_text(RESULTS / "agents_baseline.csv", table.to_csv(index=False))
    atomic_write_text(RESULTS / "agents_baseline.md", to_markdown(table) + "\n")
    print(to_markdown(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
