"""Fit the Duet reader's weights (codebots/agents/duet_reader.json) on tuning games.

    python experiments/fit_duet_reader.py [--games 300] [--seed 1000]

For every panel mind N, the cross-play seat without N plays Duet with N's plain seat on seeds
``seed .. seed + games - 1`` (tuning seeds: 1000 and up); while it guesses N's clues, every
one of its four best cards by z is recorded with its features (codebots.agents.duet_reader)
and what it is on the giver's key. Its guesses there follow a fixed collection policy (the
best card by z, up to one card past the clue's number), so the data do not depend on earlier
weights. Then one logistic model for "giver's green" and one for "giver's assassin" are
fitted for every set of left-out minds: the fold without M uses no game of M, and the
reader facing a partner of mind M uses that fold. Prints each fold's held-out log loss.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from codebots.agents import make_agent  # noqa: E402
from codebots.agents.crossplay import CrossplaySpymaster, committee  # noqa: E402
from codebots.agents.duet_reader import FEATURES, TOP_CARDS, WEIGHTS_FILE  # noqa: E402
from codebots.agents.guesser import EmbeddingGuesser  # noqa: E402
from codebots.agents.views import ASSASSIN, OWN  # noqa: E402
from codebots.arena import Seat, play  # noqa: E402
from codebots.engine.constants import STOP  # noqa: E402
from codebots.files import atomic_write_text  # noqa: E402
from codebots.minds import PANEL  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "codebots" / "agents" / WEIGHTS_FILE


class Collector(EmbeddingGuesser):
    """The cross-play guesser's Duet features, recorded with the giver's key (privileged:
    only for fitting), guessing by the fixed collection policy."""

    privileged = True

    def __init__(self, model: str):
        super().__init__(model=model, name="collector")
        self.duet_reader = {}  # the Duet branch of guesses() calls _read_duet
        self.features: list[np.ndarray] = []
        self.labels: list[np.ndarray] = []

    def _read_duet(self, view, current, old, candidates):
        features, rank, sudden = self._duet_features(view, current, old, candidates)
        asked = view.active & candidates.any(axis=1)
        keep = asked[:, None] & candidates & (rank < TOP_CARDS)
        self.features.append(features[keep])
        self.labels.append(view.secret[keep])
        best = np.where(rank == 0, 1, 0).argmax(axis=1)
        limit = np.where(view.clue_number > 0, view.clue_number + 1, 1)
        stop = view.can_stop & (view.guesses_made >= limit) & ~sudden
        return self._touched(view, np.where(stop, STOP, best))


def collect(mind: str, games: int, seed: int):
    reader = Collector("+".join(committee(mind)))
    candidate = Seat(CrossplaySpymaster(without=mind), reader, "collector")
    partner = Seat(make_agent("spymaster", mind), make_agent("guesser", mind), mind)
    play("duet", candidate, partner, np.arange(seed, seed + games))
    return np.concatenate(reader.features), np.concatenate(reader.labels)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method (a few thousand rows, eleven features)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) / len(y) + l2 * w
        hessian = (x.T * (p * (1 - p))) @ x / len(y) + l2 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def log_loss(x, y, w) -> float:
    p = np.clip(1 / (1 + np.exp(-np.clip(x @ w, -30, 30))), 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    if args.seed < 1000:
        parser.error("tune on seeds 1000 and up: seeds 0-999 are for reporting")
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    data = {}
    for mind in PANEL:
        start = time.perf_counter()
        data[mind] = collect(mind, args.games, args.seed)
        rows = len(data[mind][1])
        print(f"{mind}: {rows} cards recorded ({time.perf_counter() - start:.0f} s)", flush=True)
    weights = {}
    minds = tuple(PANEL)
    for size in range(len(minds)):
        for left_out in itertools.combinations(minds, size):
            used = [m for m in minds if m not in left_out]
            x = np.concatenate([data[m][0] for m in used]).astype(np.float64)
            labels = np.concatenate([data[m][1] for m in used])
            green, assassin = fit(x, labels == OWN), fit(x, labels == ASSASSIN)
            key = "+".join(sorted(left_out))
            weights[key] = {
                "green": green.round(4).tolist(),
                "assassin": assassin.round(4).tolist(),
                "trained_on": used,  # the partners whose games the fold saw
            }
            if size == 1:  # held out: the left-out mind's own games
                hx, hy = data[left_out[0]][0].astype(np.float64), data[left_out[0]][1]
                print(
                    f"without {key}: held-out log loss green {log_loss(hx, hy == OWN, green):.4f}"
                    f", assassin {log_loss(hx, hy == ASSASSIN, assassin):.4f}"
                )
    record = {
        "about": "Duet reader weights (codebots.agents.duet_reader), fitted by "
        "experiments/fit_duet_reader.py; keys: the left-out minds",
        "games": args.games,
        "seeds": [args.seed, args.seed + args.games - 1],
        "features": list(FEATURES),
        "weights": weights,
    }
    atomic_write_text(OUT, json.dumps(record, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
