"""The cross-play matrix (``codebots crossplay``): every registered cross-play candidate with
every panel mind it leaves out, on the benchmark variants, next to every mind's same-model
pair.

Rows (one evaluation cell each, seeds ``seed .. seed + games - 1``):

- the candidate's spymaster, without mind M, giving clues to M's plain guesser; and the
  candidate's guesser, without M, guessing the clues of M's plain spymaster (a stand-in for a
  person's clues) — on every team variant;
- in Duet and the missions, the candidate and M as the two seats (each gives clues and
  guesses the other's);
- every panel mind with itself (``cross`` false): a sanity check, never a headline;
- on ``AGREEMENT_VARIANT``, every ordered pair of plain minds (role ``plain``): how close
  the minds are to one another.

Columns: the evaluation table's (``win_rate`` with its interval, ``assassin_rate``,
``clues_on_win``, ``mean_score``, ``first_guess_on_target``, ``later_guess_on_target``: the
share of the guesses after a clue's first on one of its targets), ``cross``, ``default``
(rows of the default candidate, the one ``codebots play`` uses), ``role`` (what the
candidate plays: spymaster, guesser, seat; or ``same-model``, ``plain``), ``mind`` (the
partner's) and ``assassin_per_clue``. The agreement matrices give, for every ordered pair of
minds, how often the guesser's first guess for the spymaster's clue was an intended target,
and how often its later guesses were.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import numpy as np
import pandas as pd

from codebots.evaluation import Cell, grid_table
from codebots.files import atomic_write, atomic_write_text
from codebots.minds import PANEL
from codebots.report import to_markdown
from codebots.variants import get_variant

VARIANTS = (
    "single-team-2019",
    "single-team-2019[zero_clues=false]",
    "duet",
    "marvel-coop",
    "mission/diagon-alley",
)
CANDIDATES = ("crossplay",)  # registered cross-play candidates; the first is the default
AGREEMENT_VARIANT = "single-team-2019[zero_clues=false]"  # plain clues, no warnings


def left_out(candidate: str, mind: str) -> str:
    """The candidate built without ``mind`` (and without what it already leaves out):
    ``crossplay`` -> ``crossplay[without=glove]``."""
    from codebots.agents.registry import split_agent_name

    base, options = split_agent_name(candidate)
    options["without"] = "+".join(filter(None, (options.get("without", ""), mind)))
    return f"{base}[{','.join(f'{k}={v}' for k, v in options.items())}]"


def crossplay_cells(
    games: int,
    seed: int = 0,
    variants=VARIANTS,
    candidates=CANDIDATES,
    minds=tuple(PANEL),
) -> list[tuple[Cell, dict]]:
    """Every cell of the matrix with what it is: (cell, {role, mind, candidate})."""
    cells = []
    for variant in variants:
        seats = get_variant(variant).family == "duet"
        for candidate in candidates:
            for mind in minds:
                agent = left_out(candidate, mind)
                about = {"mind": mind, "candidate": candidate}
                if seats:
                    cell = Cell(variant, agent, mind, games, seed, seats=True)
                    cells.append((cell, {**about, "role": "seat"}))
                    continue
                cells.append(
                    (Cell(variant, agent, mind, games, seed), {**about, "role": "spymaster"})
                )
                cells.append(
                    (Cell(variant, mind, agent, games, seed), {**about, "role": "guesser"})
                )
        for mind in minds:
            cell = Cell(variant, mind, mind, games, seed, seats=seats)
            cells.append((cell, {"mind": mind, "candidate": "", "role": "same-model"}))
        if variant == AGREEMENT_VARIANT:  # every ordered pair of plain minds: how close
            for giver, reader in itertools.permutations(minds, 2):
                cell = Cell(variant, giver, reader, games, seed)
                cells.append((cell, {"mind": reader, "candidate": "", "role": "plain"}))
    return cells


def crossplay_table(records: pd.DataFrame, cells: list[tuple[Cell, dict]]) -> pd.DataFrame:
    """The matrix as one row per cell (see the module docstring)."""
    keys = ["variant", "spymaster", "guesser", "seats"]
    table = grid_table(records)
    sums = records.groupby(keys, sort=False)[["assassin", "clues"]].sum()
    per_clue = (sums["assassin"] / sums["clues"]).rename("assassin_per_clue").reset_index()
    table = table.merge(per_clue, on=keys, how="left")
    about = pd.DataFrame(
        [
            {
                "variant": cell.label,
                "spymaster": cell.spymaster,
                "guesser": cell.guesser,
                "seats": cell.seats,
                "role": info["role"],
                "mind": info["mind"],
                "default": info["candidate"] == CANDIDATES[0],
            }
            for cell, info in cells
        ]
    )
    table = about.merge(table, on=keys, how="left")
    first = ["variant", "spymaster", "guesser", "seats", "cross", "default", "role", "mind"]
    return table[first + [c for c in table.columns if c not in first]]


def headline(table: pd.DataFrame) -> pd.DataFrame:
    """The matrix in one line per (variant, what the default candidate plays): its win rate
    with each partner mind (cross) next to the same-model pairs' range, never mixed."""
    rows = []
    same = table[table["role"] == "same-model"]
    for (variant, role), group in table[table["default"]].groupby(["variant", "role"], sort=False):
        wins = group.set_index("mind")["win_rate"]
        own = same[same["variant"] == variant]["win_rate"]
        rows.append(
            {
                "variant": variant,
                "candidate plays": role,
                **{f"with {mind}": f"{wins[mind]:.1%}" for mind in wins.index},
                "same model": f"{own.min():.1%}–{own.max():.1%}" if len(own) else "",
            }
        )
    return pd.DataFrame(rows)


def read_table(path: os.PathLike) -> pd.DataFrame:
    """A written ``crossplay.csv``, checked to be one (a one-line error otherwise)."""
    from codebots.errors import CodebotsError

    try:
        table = pd.read_csv(path)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        raise CodebotsError(f"cannot read the cross-play table {path}: {error}") from None
    needed = {"variant", "role", "mind", "default", "win_rate"}
    if not needed <= set(table.columns):
        missing = ", ".join(sorted(needed - set(table.columns)))
        raise CodebotsError(
            f"{path} is not a cross-play table (no {missing}); write one with "
            "codebots crossplay --out-dir DIR"
        )
    table["default"] = table["default"].astype(str).str.lower() == "true"
    return table


def agreement_matrix(table: pd.DataFrame, values: str = "first_guess_on_target") -> pd.DataFrame:
    """Rows: the spymaster's mind, columns: the guesser's; the share of clues whose first
    guess is an intended target (plain clues of ``AGREEMENT_VARIANT``), or with
    ``values="later_guess_on_target"`` of the guesses after a clue's first."""
    plain = table[(table["variant"] == AGREEMENT_VARIANT) & table["spymaster"].isin(PANEL)]
    plain = plain[plain["guesser"].isin(PANEL) & ~plain["seats"]]
    if plain.empty:
        return pd.DataFrame()
    return plain.pivot_table(index="spymaster", columns="guesser", values=values, aggfunc="first")


def write_crossplay(table: pd.DataFrame, agreement: pd.DataFrame, out_dir, name="crossplay"):
    """``name``.csv, ``name``.md (with the agreement matrices) and ``name``.png (heatmap)."""
    out_dir = Path(out_dir)
    markdown = to_markdown(table)
    matrices = [(agreement, "First guess on an intended target")]
    if "later_guess_on_target" in table:  # what decides the timed games: agreement_bounds.md
        later = agreement_matrix(table, "later_guess_on_target")
        matrices.append((later, "Guesses after a clue's first on an intended target"))
    for matrix, title in matrices:
        if not matrix.empty:
            shown = matrix.reset_index().rename(columns={"spymaster": "spymaster \\ guesser"})
            markdown += f"\n\n{title}, plain spymaster -> plain guesser ({AGREEMENT_VARIANT}):"
            markdown += "\n\n" + to_markdown(shown)
    paths = [
        atomic_write_text(out_dir / f"{name}.csv", table.to_csv(index=False)),
        atomic_write_text(out_dir / f"{name}.md", markdown + "\n"),
        heatmap(table, out_dir / f"{name}.png"),
    ]
    return paths


def heatmap(table: pd.DataFrame, path: os.PathLike) -> Path:
    """Win rates: one row per (role, partner mind), one column per variant."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = table[table["role"] != "plain"]  # those are the agreement matrix
    shown = shown.assign(row=shown["role"] + " / " + shown["mind"])
    grid = shown.pivot_table(index="row", columns="variant", values="win_rate", aggfunc="first")
    grid = grid.reindex(columns=[v for v in VARIANTS if v in grid.columns])
    figure, axis = plt.subplots(figsize=(1.6 * len(grid.columns) + 3, 0.32 * len(grid) + 1.5))
    image = axis.imshow(grid.to_numpy(dtype=float), vmin=0, vmax=1, cmap="viridis", aspect="auto")
    axis.set_xticks(range(len(grid.columns)), grid.columns, rotation=20, ha="right", fontsize=7)
    axis.set_yticks(range(len(grid.index)), grid.index, fontsize=7)
    for (row, column), value in np.ndenumerate(grid.to_numpy(dtype=float)):
        if np.isfinite(value):
            colour = "white" if value < 0.5 else "black"
            axis.text(
                column, row, f"{value:.2f}", ha="center", va="center", fontsize=6, color=colour
            )
    figure.colorbar(image, ax=axis, label="win rate")
    axis.set_title("Cross-play: the candidate without the partner's mind", fontsize=8)
    figure.tight_layout()
    path = Path(path)
    atomic_write(path, lambda temporary: figure.savefig(temporary, dpi=120))
    plt.close(figure)
    return path
