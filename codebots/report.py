"""Turn per-game records into result tables: rates with Wilson intervals, means, Markdown."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from codebots.files import atomic_write_text  # noqa: F401 — part of the report API

GROUP_KEYS = ["variant", "spymaster", "guesser"]
# Also kept apart when the records have them: seat pairings (Duet: spymaster and guesser
# are the two seats) and whether the pair shares no mind (codebots.minds).
PAIRING_KEYS = ["seats", "cross"]


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default)."""
    if trials == 0:
        return (math.nan, math.nan)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def group_keys(records: pd.DataFrame) -> list[str]:
    """The columns that tell one pairing of ``records`` from another."""
    return GROUP_KEYS + [key for key in PAIRING_KEYS if key in records]


def summarize(records: pd.DataFrame) -> pd.DataFrame:
    """One row per (variant, spymaster, guesser, and seats and cross where recorded):
    games, win rate with its 95% Wilson interval, mean turns, mean clues on a win, assassin
    rate, mean score (over the games where it is defined)."""
    rows = []
    keys_used = group_keys(records)
    for keys, group in records.groupby(keys_used, sort=False):
        wins = int(group["won"].sum())
        low, high = wilson_interval(wins, len(group))
        scores = group["score"].dropna()
        rows.append(
            {
                **dict(zip(keys_used, keys)),
                "games": len(group),
                "win_rate": wins / len(group),
                "win_low": low,
                "win_high": high,
                "mean_turns": group["turns"].mean(),
                "clues_on_win": group.loc[group["won"], "clues"].mean() if wins else np.nan,
                "assassin_rate": group["assassin"].mean(),
                "mean_score": scores.mean() if len(scores) else np.nan,
                **_agreement(group),
            }
        )
    return pd.DataFrame(rows)


def _agreement(group: pd.DataFrame) -> dict:
    """Share of clues whose first guess touched an intended target, and of the guesses
    after a clue's first that did, where recorded."""
    shares = {}
    for when in ("first", "later"):
        if f"{when}_guesses" in group:
            made = int(group[f"{when}_guesses"].sum())
            hits = group[f"{when}_on_target"].sum()
            shares[f"{when}_guess_on_target"] = hits / made if made else np.nan
    return shares


def to_markdown(table: pd.DataFrame, digits: int = 3) -> str:
    """A GitHub Markdown table (no extra dependency)."""

    def cell(value) -> str:
        if isinstance(value, float | np.floating):
            return "" if math.isnan(value) else f"{value:.{digits}f}"
        return str(value)

    header = "| " + " | ".join(table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    lines = [
        "| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)
    ]
    return "\n".join([header, rule, *lines])
