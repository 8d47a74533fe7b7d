"""How the real clue rules differ from the naive substring rule, over a pool x vocabulary.

Writes the statistics section of docs/clue-rules.md (between the stats markers):
    python experiments/clue_rules.py [--pool competition] [--vocabulary 50000] [--seed 0]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np

from codebots.report import atomic_write_text
from codebots.validity import check_clue, checker_for
from codebots.vocab import clue_vocabulary, load_pool

DOC = Path(__file__).resolve().parents[1] / "docs" / "clue-rules.md"
START, END = "<!-- stats:start -->", "<!-- stats:end -->"


def naive_pairs(pool, vocabulary) -> set[tuple[int, int]]:
    """(card, clue) pairs the substring rule forbids: a card word inside the clue or the
    clue inside a card word, as older bots check."""
    pairs = set()
    for row, card in enumerate(pool):
        for word in card.lower().split():
            for clue_id, clue in enumerate(vocabulary):
                if word in clue or clue in word:
                    pairs.add((row, clue_id))
    return pairs


def stats_section(pool_name: str, size: int, seed: int) -> str:
    pool = load_pool(pool_name).words
    vocabulary = clue_vocabulary(size)
    table = checker_for(pool).forbid_table(vocabulary)
    real = {
        (row, int(clue_id))
        for row in range(len(pool))
        for clue_id in table.indices[table.indptr[row] : table.indptr[row + 1]]
    }
    naive = naive_pairs(pool, vocabulary)
    only_real, only_naive = sorted(real - naive), sorted(naive - real)
    rng = np.random.default_rng(seed)
    lines = [
        f"Pool `{pool_name}` ({len(pool)} cards) x the clue vocabulary ({len(vocabulary):,} "
        f"words), {len(pool) * len(vocabulary):,} (card, clue) pairs:",
        "",
        "| rule | forbidden pairs |",
        "|---|---|",
        f"| real rules (this checker) | {len(real):,} |",
        f"| naive substring rule | {len(naive):,} |",
        f"| both | {len(real & naive):,} |",
        f"| real rules only (forms, parts the substring misses) | {len(only_real):,} |",
        f"| substring only (look-alikes the real rules allow) | {len(only_naive):,} |",
        "",
        "Twenty sampled disagreements (seed " + str(seed) + "):",
        "",
        "| card | clue | real rules | substring rule |",
        "|---|---|---|---|",
    ]
    for pairs, label in ((only_real, "real"), (only_naive, "naive")):
        picks = rng.choice(len(pairs), size=min(10, len(pairs)), replace=False)
        for index in sorted(picks):
            row, clue_id = pairs[index]
            card, clue = pool[row], vocabulary[clue_id]
            verdict = check_clue(clue, [card])
            if label == "real":
                real_text, naive_text = f"invalid ({verdict.rule}): {verdict.reason}", "valid"
            else:
                real_text, naive_text = "valid", "invalid"
            lines.append(f"| {card} | {clue} | {real_text} | {naive_text} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", default="competition")
    parser.add_argument("--vocabulary", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    section = stats_section(args.pool, args.vocabulary, args.seed)
    text = DOC.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    atomic_write_text(DOC, pattern.sub(lambda _: f"{START}\n{section}\n{END}", text))
    print(section)


if __name__ == "__main__":
    main()
