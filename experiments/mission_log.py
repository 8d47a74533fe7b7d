"""Table 3: the Duet mission log for a same-model and a cross-model agent pair (one agent per
role), and the cross-play seat without each panel mind with that mind's seat.

Writes experiments/results/mission_log.{csv,md}: win rate per mission with its 95% interval,
the expected games to finish the whole log (sum of 1/p), the standard game's score
distribution and simulated campaigns (greedy bonus policy).
    python experiments/mission_log.py [--games 100] [--campaigns 3]
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import pandas as pd

from codebots.agents import make_agent
from codebots.arena import Seat
from codebots.campaign import (
    campaign_summary,
    expected_games,
    play_missions,
    score_distribution,
    simulate_campaign,
    summarize_missions,
)
from codebots.minds import PANEL
from codebots.report import atomic_write_text, to_markdown

RESULTS = Path(__file__).resolve().parent / "results"
# (spymaster or seat 0, guesser or seat 1, seats)
PAIRS = [("glove", "glove", False), ("glove", "minilm", False)] + [
    (f"crossplay[without={mind}]", mind, True) for mind in PANEL
]


def agents(first: str, second: str, seats: bool):
    """The pair's two agents (roles) or two seats."""
    if not seats:
        return make_agent("spymaster", first), make_agent("guesser", second)
    return tuple(
        Seat(make_agent("spymaster", n), make_agent("guesser", n), n) for n in (first, second)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per mission and pair")
    parser.add_argument("--campaigns", type=int, default=3)
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    tables, sections = [], []
    for spymaster, guesser, seats in PAIRS:
        first, second = agents(spymaster, guesser, seats)
        records = play_missions(first, second, args.games)
        table = summarize_missions(records).assign(
            spymaster=spymaster, guesser=guesser, seats=seats, cross=bool(records["cross"].all())
        )
        tables.append(table)
        expected, low, high = expected_games(table)
        runs = [
            simulate_campaign(first, second, seed=i + 1, max_games=300)
            for i in range(args.campaigns)
        ]
        summary = campaign_summary(runs)
        title = (
            f"{spymaster} and {guesser} as the two seats"
            if seats
            else f"{spymaster} spymaster, {guesser} guesser"
        )
        played = ", ".join(str(r.games_played) + ("" if r.finished else "+") for r in runs)
        sections.append(
            "\n".join(
                [
                    f"## {title} ({args.games} games per mission)",
                    "",
                    to_markdown(table.drop(columns=["spymaster", "guesser", "seats", "cross"])),
                    "",
                    f"Expected games to finish the log (sum of 1/p): {expected:.1f} "
                    f"(95% interval {low:.1f} .. {high:.1f}).",
                    "",
                    "Simulated campaigns (greedy bonus policy, at most 300 games): "
                    f"{played} games; "
                    f"finished {summary['finished']} of {summary['campaigns']}.",
                    "",
                    "Standard game (10 tokens) scores:",
                    "",
                    to_markdown(score_distribution(records)),
                ]
            )
        )
    atomic_write_text(
        RESULTS / "mission_log.csv", pd.concat(tables, ignore_index=True).to_csv(index=False)
    )
    text = "# Mission log\n\n" + "\n\n".join(sections) + "\n"
    atomic_write_text(RESULTS / "mission_log.md", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
