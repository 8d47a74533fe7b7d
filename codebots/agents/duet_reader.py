"""Duet guessing by probabilities: how likely each card is the giver's green or assassin.

In Duet a wrong guess is deadly far more often than in single-team games (three assassins on
the giver's side among about ten other cards), and the guesser holds its own side of the key,
which says a lot about the giver's (RULES section 3): of the cards it sees as assassins one
is the giver's assassin, of its greens one in nine, of its bystanders one in thirteen. A
reader that guesses the top card of every clue up to the number, as a guesser of its own mind
may, touches an assassin on every eighth to tenth guess after the first with a partner of
another mind (docs/cross-model-notes.md).

This module turns what the guesser knows into two probabilities per visible card, the card is
the giver's green (``p_green``) or assassin (``p_assassin``), and chooses:

- :func:`key_prior`: the key structure alone, given what the table has shown (cards found,
  cards marked bystander from the giver's side);
- :func:`card_features` and :func:`probabilities`: a logistic model of the clue's evidence
  (the card's z-score for the clue, its lead over the next card, its rank) and of the prior;
  its weights are fitted on recorded guesses of tuning games (seeds 1000 and up) by
  ``experiments/fit_duet_reader.py``, once for every panel mind left out of the data, so that
  the reader facing a partner of mind M was fitted without any game of M;
- :func:`choose`: the card with the best ``p_green - caution * p_assassin``; after the first
  guess of a turn it goes on only while that is at least ``threshold`` (a bystander ends
  the turn at the cost of the token the stop would take, so the assassin is the real risk);
  the guesser also stops at the clue's number (``EmbeddingGuesser.stop_at_number``). In
  sudden death every miss loses: the card most likely green.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import numpy as np

from codebots.agents.views import ASSASSIN, BYSTANDER, OWN
from codebots.engine.constants import STOP

# The key structure seen from the guesser's side (RULES section 3): for each of its own
# identities, how many cards carry it and how many of those are the giver's greens and
# assassins.
STRUCTURE = {OWN: (9, 3, 1), BYSTANDER: (13, 5, 1), ASSASSIN: (3, 1, 1)}
FEATURES = (
    "bias",
    "z",
    "lead",  # the top card: its z above the second; the others: below the top
    "top",
    "second",
    "prior_green_logit",
    "prior_assassin_log",
    "number_left",  # the clue's number minus the greens found for it this turn (0..4)
    "found_this_turn",  # (0..3)
    "on_number",  # number_left > 0
    "top_on_number",
)
WEIGHTS_FILE = "duet_reader.json"
TOP_CARDS = 4  # the model is fitted on (and only asked about) the four best cards by z


def key_prior(own_key: np.ndarray, revealed: np.ndarray, known_wrong: np.ndarray):
    """``(p_green, p_assassin)``, each ``(B, 25)``: the key structure's probabilities that a
    visible card is the giver's green or assassin, before the clue says anything.

    A found card that is not the guesser's own green was the giver's green; a card marked
    bystander from the giver's side (``known_wrong``) or covered as a bystander is none of
    the giver's. The rest of each identity class share its remaining greens and its one
    assassin (a found card of the guesser's own greens may have hidden either: it stays in
    the count).
    """
    visible = revealed < 0
    green = np.zeros(own_key.shape, dtype=np.float32)
    assassin = np.zeros(own_key.shape, dtype=np.float32)
    for identity, (_, greens, assassins) in STRUCTURE.items():
        cls = own_key == identity  # (B, 25)
        known_green = cls & (revealed == OWN) & (identity != OWN)
        known_bystander = cls & ((visible & known_wrong) | (revealed == BYSTANDER))
        unknown = cls & ~known_green & ~known_bystander
        size = np.maximum(unknown.sum(axis=1, keepdims=True), 1)  # (B, 1)
        left = np.maximum(greens - known_green.sum(axis=1, keepdims=True), 0)
        green = np.where(cls, left / size, green)
        assassin = np.where(cls, assassins / size, assassin)
    return np.clip(green, 1e-3, 0.999), np.clip(assassin, 1e-3, 0.999)


def card_features(
    z: np.ndarray,
    candidates: np.ndarray,
    prior_green: np.ndarray,
    prior_assassin: np.ndarray,
    number: np.ndarray,
    found: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """``(features (B, 25, F), rank (B, 25))`` of every card (see ``FEATURES``); ``z`` is the
    card's z-score for the clue over the ``candidates``, ``number`` the clue's (``<= 0``: a
    ``0`` or unlimited clue, read as one card), ``found`` the greens found this turn."""
    scores = np.where(candidates, z, -np.inf)
    order = np.argsort(-scores, axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(25)[None, :], axis=1)
    ranked = np.take_along_axis(scores, order, axis=1)
    top, second = ranked[:, :1], ranked[:, 1:2]
    second = np.where(np.isfinite(second), second, top)
    lead = np.where(rank == 0, z - second, z - top)
    left = np.where(number > 0, number - found, 1).astype(np.float32)[:, None]
    left = np.broadcast_to(np.clip(left, 0, 4), z.shape)
    on_number = (left > 0).astype(np.float32)
    columns = (
        np.ones(z.shape, dtype=np.float32),
        z,
        lead,
        rank == 0,
        rank == 1,
        np.log(prior_green / (1 - prior_green)),
        np.log(prior_assassin),
        left,
        np.broadcast_to(np.minimum(found, 3)[:, None], z.shape),
        on_number,
        on_number * (rank == 0),
    )
    features = np.stack([np.asarray(c, dtype=np.float32) for c in columns], axis=-1)
    features = np.where(np.isfinite(features), features, 0.0)
    return features, rank


def probabilities(features: np.ndarray, weights: dict) -> tuple[np.ndarray, np.ndarray]:
    """``(p_green, p_assassin)`` ``(B, 25)`` from the logistic model's ``weights``."""
    green = np.asarray(weights["green"], dtype=np.float32)
    assassin = np.asarray(weights["assassin"], dtype=np.float32)
    return _sigmoid(features @ green), _sigmoid(features @ assassin)


def choose(
    p_green: np.ndarray,
    p_assassin: np.ndarray,
    candidates: np.ndarray,
    rank: np.ndarray,
    can_stop: np.ndarray,
    sudden: np.ndarray,
    caution: float,
    threshold: float,
) -> np.ndarray:
    """``(B,)`` the card to touch, or ``STOP``: the best value among the ``TOP_CARDS`` best
    cards by z (in sudden death, the card most likely green among all); after a first guess
    (``can_stop``) only while its value reaches ``threshold``."""
    value = p_green - caution * p_assassin
    value = np.where(sudden[:, None], p_green, value)
    allowed = candidates & ((rank < TOP_CARDS) | sudden[:, None])
    value = np.where(allowed, value, -np.inf)
    card = value.argmax(axis=1)
    best = value.max(axis=1)
    stop = can_stop & (best < threshold)
    return np.where(stop, STOP, card)


@cache
def fitted_weights() -> dict:
    """The shipped weights: ``{left-out mind or "": {"green": [...], "assassin": [...]}}``."""
    text = resources.files("codebots.agents").joinpath(WEIGHTS_FILE).read_text()
    data = json.loads(text)
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{WEIGHTS_FILE} was fitted on other features; refit it")
    return data["weights"]


def weights_without(left_out: tuple[str, ...]) -> dict | None:
    """The weights fitted on no game of the left-out minds, from the most partners' games
    (``()``: every fitted partner's). A mind added to the panel after the fit was in no
    fit's games: the fit on every other partner's serves without it too (``trained_on``).
    None when every fit saw one of them (the guesser then reads Duet by z alone)."""
    blind = [fit for fit in fitted_weights().values() if not set(fit["trained_on"]) & set(left_out)]
    return max(blind, key=lambda fit: len(fit["trained_on"]), default=None)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))
