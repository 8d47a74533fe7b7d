"""Embedding agents: a spymaster that scores clues by margins, and guessers that rank cards.

Spymaster score (per game, per candidate clue ``c`` and number ``n``): let ``t_n`` be the
similarity of ``c`` to its n-th most similar own card (the intended targets are the top n),
and ``threat`` the highest similarity of ``c`` to any other visible card plus a danger bonus
(assassin > other team > bystander). The clue is *feasible* when
``margin = t_n - threat >= min_margin``; among feasible clues the spymaster maximizes
``n + margin_weight * min(margin, MARGIN_CAP) + prior_weight * prior(c)`` where the prior
favours common words (their vectors are reliable and a partner with another model knows
them). With no feasible clue it gives the single-target clue with the best margin.
Candidates are the nearest valid clue words of each own card; every clue passes the clue
checker, and no clue is given twice in a game. The robust mode computes margins under
several models and keeps the worst.

Lexicon mode (``lexicon=True``, the ``*-lexicon`` spymasters): an own card may be an
intended target only if WordNet relates it to the clue (``codebots.lexicon``); candidates
are each card's nearest related clue words. A partner thinking with another model agrees
far more often with such clues (docs/cross-model-notes.md); with none feasible the
spymaster falls back to the best single-target margin over all candidates.
"""

from __future__ import annotations

import numpy as np

from codebots.agents.base import Clues, register
from codebots.agents.baselines import random_covers
from codebots.agents.tables import (
    DEFAULT_VOCABULARY,
    model_tables,
    related_neighbours,
    shared_vocabulary,
    unit_rows,
)
from codebots.agents.views import ASSASSIN, BYSTANDER, OTHER, OWN, GuesserView, SpymasterView
from codebots.engine.constants import STOP, UNLIMITED
from codebots.errors import CodebotsError
from codebots.lexicon import relation_matrix

MAX_TARGETS = 9
SCORE_BLOCK = 64  # games scored at once by the spymaster
MARGIN_CAP = 3.0  # z units: beyond this a wider margin buys nothing


class EmbeddingSpymaster:
    """Clues from word vectors; ``models`` of more than one entry is the robust mode."""

    def __init__(
        self,
        models: tuple[str, ...] = ("glove",),
        name: str | None = None,
        vocabulary_size: int = DEFAULT_VOCABULARY,
        min_margin: float = 0.0,
        min_target: float = 0.0,
        margin_weight: float = 0.2,
        prior_weight: float = 0.3,
        danger: tuple[float, float, float] = (0.2, 0.0, 0.5),  # other team, bystander, assassin
        max_number: int = MAX_TARGETS,
        dictionary_only: bool = True,
        max_danger: tuple[float, float] = (np.inf, np.inf),  # z cap: other team, assassin
        candidates: int | None = None,  # nearest clue words per target (None: all in table)
        cover_policy: str = "danger",  # Marvel virtual turn: "danger" or "random"
        lexicon: bool = False,  # intend only targets WordNet relates to the clue
        assassin_below: int = 0,  # other non-targets that must be nearer the clue
    ):
        self.models = tuple(models)
        self.name = name or "+".join(self.models)
        self.vocabulary = shared_vocabulary(("glove", *self.models), vocabulary_size)
        self.min_margin = min_margin
        self.min_target = min_target
        self.margin_weight = margin_weight
        self.prior_weight = prior_weight
        self.danger = np.zeros(4, dtype=np.float32)
        self.danger[[OTHER, BYSTANDER, ASSASSIN]] = danger
        self.max_number = max_number
        self.dictionary_only = dictionary_only
        self.max_danger = max_danger
        self.candidates = candidates
        if cover_policy not in ("danger", "random"):
            raise CodebotsError(f"cover_policy must be 'danger' or 'random', not '{cover_policy}'")
        self.cover_policy = cover_policy
        self.lexicon = lexicon
        self.assassin_below = assassin_below
        self._index: dict | None = None
        self.begin(0)

    def begin(self, size: int) -> None:
        """Forget every game: a new batch of ``size`` games starts."""
        # Clue ids given so far per game: a clue the partner already acted on is not
        # given again (if it failed, repeating it would most likely fail the same way).
        self._given = np.full((size, MEMORY), -1, dtype=np.int32)  # (B, MEMORY)
        self._given_count = np.zeros(size, dtype=np.int64)

    def remember(self, game: int, word: str) -> None:
        """Note a clue given in ``game`` (by anyone) so that it is not given again."""
        clue_id = self._clue_ids().get(word.lower(), -1)
        if clue_id < 0 or game >= len(self._given_count) or clue_id in self._given[game]:
            return
        self._given[game, min(self._given_count[game], MEMORY - 1)] = clue_id
        self._given_count[game] += 1

    def _clue_ids(self) -> dict:
        """Clue word -> clue id in this spymaster's vocabulary."""
        if self._index is None:
            self._index = {word: i for i, word in enumerate(self.vocabulary)}
        return self._index

    def tables(self, words: tuple[str, ...]):
        return [model_tables(model, words, self.vocabulary) for model in self.models]

    def clues(self, view: SpymasterView, rng: np.random.Generator) -> Clues:
        size = len(view.active)
        words = [""] * size
        numbers = np.full(size, UNLIMITED, dtype=np.int16)
        intended: list[tuple[int, ...]] = [()] * size
        vocabulary = self.tables(view.words)[0].vocabulary
        active = np.flatnonzero(view.active)
        # Blocks of games keep the (G, 25, C) work arrays small enough to stay in cache.
        for games in np.array_split(active, -(-len(active) // SCORE_BLOCK)):
            chosen, counts, targets = self._choose(view, games)
            if len(self._given_count) == size:
                slot = np.minimum(self._given_count[games], MEMORY - 1)
                self._given[games, slot] = chosen
                self._given_count[games] += 1
            for game, clue_id, number, aims in zip(games, chosen, counts, targets):
                words[game] = vocabulary[clue_id]
                numbers[game] = number
                intended[game] = aims
        return Clues(words=tuple(words), numbers=numbers, targets=tuple(intended))

    def _score(self, view: SpymasterView, games: np.ndarray):
        """Scores of every (number, candidate clue) for the games in ``games``.

        Returns ``(score (G, 9, C), feasible-or-fallback scores, candidates (G, C),
        layout (G, 25), targets_l (G, 9), margins (G, 9, C))``.
        """
        tables = self.tables(view.words)
        main = tables[0]
        cards = view.cards[games]  # (G, 25)
        visible = view.visible[games]
        identity = view.identity[games]
        targets = (identity == OWN) & visible  # (G, 25)
        threats = visible & ~targets & ~view.known_wrong[games]
        # Lay each board out targets first: slots 0..8 hold the (at most 9) targets.
        layout = np.argsort(~targets, axis=1, kind="stable")  # (G, 25)
        cards_l = np.take_along_axis(cards, layout, axis=1)
        targets_l = np.take_along_axis(targets, layout, axis=1)[:, :MAX_TARGETS]
        threats_l = np.take_along_axis(threats, layout, axis=1)
        danger_l = self.danger[np.take_along_axis(identity, layout, axis=1)]
        size = len(games)
        related = relation_matrix(view.words, self.vocabulary) if self.lexicon else None
        neighbours = (
            related_neighbours(self.models[0], view.words, self.vocabulary)
            if self.lexicon
            else main.neighbours
        )[:, : self.candidates]
        slots = max(int(targets_l.sum(axis=1).max()), 1)  # late in a game: fewer targets
        candidates = neighbours[cards_l[:, :slots]].reshape(size, -1)  # (G, C)
        candidate_ok = np.repeat(targets_l[:, :slots], neighbours.shape[1], axis=1)
        candidate_ok &= ~main.forbid.forbidden(cards, visible, candidates)
        if len(self._given_count) == len(view.active):  # never the same clue twice
            given = self._given[games]  # (G, MEMORY)
            candidate_ok &= ~(candidates[:, :, None] == given[:, None, :]).any(axis=2)
        valid_ok = candidate_ok.copy()  # every clue the fallback may use
        if self.dictionary_only:  # names and brands are trivia another model may not share
            candidate_ok &= main.dictionary[candidates]

        # Lexicon mode: only targets the lexicon relates to the clue may be intended.
        aimable = targets_l[:, :, None]  # (G, 9, 1) or (G, 9, C)
        if related is not None:
            aimable = aimable & related[cards_l[:, :MAX_TARGETS, None], candidates[:, None, :]]
        margins = floors = plain = None
        for table in tables:
            sims = table.zsims[cards_l[:, :, None], candidates[:, None, :]]  # (G, 25, C)
            on_target = np.where(aimable, sims[:, :MAX_TARGETS], -np.inf)
            ranked = -np.sort(-on_target, axis=1)  # (G, 9, C): t_1 >= t_2 >= ...
            threat = np.where(threats_l[:, :, None], sims + danger_l[:, :, None], -np.inf)
            threat = threat.max(axis=1)  # (G, C)
            margin = ranked - threat[:, None, :]  # (G, 9, C)
            margins = margin if margins is None else np.minimum(margins, margin)
            best_target = np.where(targets_l[:, :, None], sims[:, :MAX_TARGETS], -np.inf).max(1)
            first = best_target - threat  # (G, C): single-target margin, any target
            plain = first if plain is None else np.minimum(plain, first)
            floors = ranked if floors is None else np.minimum(floors, ranked)
            # Absolute caps: a clue must be unrelated to the assassin (and other team).
            identity_l = np.take_along_axis(identity, layout, axis=1)[:, :, None]
            for code, cap in ((OTHER, self.max_danger[0]), (ASSASSIN, self.max_danger[1])):
                if np.isfinite(cap):
                    near = threats_l[:, :, None] & (identity_l == code) & (sims > cap)
                    candidate_ok &= ~near.any(axis=1)
            if self.assassin_below:
                # A partner's wrong guesses go mostly to the cards the clue is nearest to:
                # keep at least this many other non-targets between the clue and the assassin.
                is_assassin = threats_l & (identity_l[:, :, 0] == ASSASSIN)  # (G, 25)
                assassin = np.where(is_assassin[:, :, None], sims, -np.inf).max(axis=1)
                closer = (threats_l[:, :, None] & (sims > assassin[:, None, :])).sum(axis=1)
                candidate_ok &= closer >= self.assassin_below

        number = np.arange(1, MAX_TARGETS + 1, dtype=np.float32)[None, :, None]
        limit = np.minimum(targets_l.sum(axis=1), self.max_number)[:, None, None]
        possible = candidate_ok[:, None, :] & (number <= limit) & np.isfinite(margins)
        score = (
            number
            + self.margin_weight * np.minimum(margins, MARGIN_CAP)
            + self.prior_weight * main.prior[candidates][:, None, :]
        )
        feasible = possible & (margins >= self.min_margin) & (floors >= self.min_target)
        # With no feasible clue: the single-target clue with the best margin, from the
        # candidates that pass every preference, else from any valid candidate.
        fallback = np.full_like(score, -np.inf)
        plain_ok = candidate_ok & np.isfinite(plain)  # (G, C)
        relaxed = np.where(
            plain_ok.any(axis=1, keepdims=True), plain_ok, valid_ok & np.isfinite(plain)
        )
        fallback[:, 0, :] = np.where(relaxed, plain, -np.inf)
        any_feasible = feasible.any(axis=(1, 2))[:, None, None]
        score = np.where(any_feasible, np.where(feasible, score, -np.inf), fallback)
        return score, candidates, layout, targets_l, cards_l, margins

    def _choose(self, view: SpymasterView, games: np.ndarray):
        """Best (clue id, number, intended card positions) for each game in ``games``."""
        score, candidates, layout, targets_l, cards_l, _ = self._score(view, games)
        size = len(games)
        best = score.reshape(size, -1).argmax(axis=1)
        n_index, column = np.divmod(best, candidates.shape[1])
        clue_ids = candidates[np.arange(size), column]
        aims = self._aims(view, clue_ids, n_index + 1, layout, targets_l, cards_l)
        return clue_ids, n_index + 1, aims

    def _aims(self, view, clue_ids, numbers, layout, targets_l, cards_l) -> list[tuple[int, ...]]:
        """The clue's ``n`` most similar targets, as board positions (its intended targets)."""
        main = self.tables(view.words)[0]
        sims = main.sims[cards_l[:, :MAX_TARGETS], clue_ids[:, None]]
        if self.lexicon:  # targets the lexicon relates to the clue come first
            related = relation_matrix(view.words, self.vocabulary)
            sims = sims + 10.0 * related[cards_l[:, :MAX_TARGETS], clue_ids[:, None]]
        order = np.argsort(-np.where(targets_l, sims, -np.inf), axis=1)
        positions = np.take_along_axis(layout[:, :MAX_TARGETS], order, axis=1)
        return [tuple(positions[g, : numbers[g]].tolist()) for g in range(len(clue_ids))]

    def top_clues(self, view: SpymasterView, game: int = 0, k: int = 5) -> list[dict]:
        """The ``k`` best distinct clues for one game, with number, targets and margin."""
        games = np.array([game])
        score, candidates, layout, targets_l, cards_l, margins = self._score(view, games)
        vocabulary = self.tables(view.words)[0].vocabulary
        best_n = score[0].argmax(axis=0)  # (C,) best number per candidate
        best = score[0, best_n, np.arange(score.shape[2])]
        seen, rows = set(), []
        for column in np.argsort(-best):
            clue_id = int(candidates[0, column])
            if not np.isfinite(best[column]) or clue_id in seen:
                continue
            seen.add(clue_id)
            number = int(best_n[column]) + 1
            aims = self._aims(
                view, np.array([clue_id]), np.array([number]), layout, targets_l, cards_l
            )[0]
            rows.append(
                {
                    "clue": vocabulary[clue_id],
                    "number": number,
                    "targets": [view.words[view.cards[game, p]] for p in aims],
                    "margin": float(margins[0, number - 1, column]),
                    "score": float(best[column]),
                }
            )
            if len(rows) == k:
                break
        return rows

    def covers(self, view: SpymasterView, rng: np.random.Generator) -> np.ndarray:
        """Cover the covering team's agent most similar to the other side's remaining
        agents: the card most likely to be mistaken for one of ours (Marvel virtual turn)."""
        if self.cover_policy == "random":
            return random_covers(view, rng)
        main = self.tables(view.words)[0]
        coverable = (view.identity == OWN) & ~view.covered  # (B, 25) blue agents
        ours = (view.identity == OTHER) & ~view.covered  # (B, 25) the players' agents
        pair = main.card_sims[view.cards[:, :, None], view.cards[:, None, :]]  # (B, 25, 25)
        danger = np.where(ours[:, None, :], pair, -np.inf).max(axis=2)
        danger = np.where(coverable, danger, -np.inf)
        choice = danger.argmax(axis=1)
        return np.where(coverable.any(axis=1), choice, -1)


class EmbeddingGuesser:
    """Touches the visible card most similar to the clue, up to the clue's number.

    It remembers the clues of the game and how many of their cards it has found (the
    revealed colours tell it). A card's score is its z-scored similarity to the current clue
    plus ``memory_weight`` times its best z-score for an earlier clue of the same side that
    still has cards to find, so a clue given again for a target it missed narrows the
    choice. After the number is reached it may spend the extra guess on the best leftover of
    an earlier clue when that card's z-score is at least ``leftover_z``. Both are off by
    default: with a partner of another model they cost more wrong guesses than they find
    (docs/cross-model-notes.md), and with the same model they change nothing.
    A ``0`` clue ("none of ours relate to this word") sends the one guess away from the
    word, to earlier clues' open cards. Duet: ``own_assassin_caution`` lowers the score of
    cards the guesser's own side shows as assassins (the giver's assassin one time in three,
    RULES section 3). It is off by default: one of those three is the giver's green, and
    avoiding it cost more than it saved (500 Duet games: same-model wins 100% -> 96-98% at
    1 z; GloVe -> MiniLM 2.2% -> 1.6%, assassin 90% -> 86%). After the first
    guess it goes on only while the softmax probability of its next card (temperature
    ``temperature``) is at least ``threshold``. ``stop_at_number=False`` never stops by itself
    (the 2019 competition bots).
    """

    privileged = False

    def __init__(
        self,
        model: str = "glove",
        name: str | None = None,
        vocabulary_size: int = DEFAULT_VOCABULARY,
        threshold: float = 0.0,
        temperature: float = 0.05,
        stop_at_number: bool = True,
        memory_weight: float = 0.0,
        leftover_z: float = np.inf,
        own_assassin_caution: float = 0.0,  # Duet: z units off cards own side shows assassin
    ):
        self.model = model
        self.name = name or model
        self.vocabulary = shared_vocabulary(("glove", model), vocabulary_size)
        self.threshold = threshold
        self.temperature = temperature
        self.stop_at_number = stop_at_number
        self.memory_weight = memory_weight
        self.leftover_z = leftover_z
        self.own_assassin_caution = own_assassin_caution
        self.begin(0)

    def begin(self, size: int) -> None:
        """Forget every game: a new batch of ``size`` games starts."""
        self._vectors: np.ndarray | None = None  # (B, MEMORY, d) clue vectors
        self._remaining = np.zeros((size, MEMORY), dtype=np.int16)  # cards still to find
        self._side = np.full((size, MEMORY), -1, dtype=np.int8)  # whose clue
        self._count = np.zeros(size, dtype=np.int64)  # clues remembered
        self._current = np.full(size, -1, dtype=np.int64)  # slot of the clue being played
        self._last_card = np.full(size, -1, dtype=np.int64)
        self._last_slot = np.full(size, -1, dtype=np.int64)

    def clue_vectors(self, table, words) -> np.ndarray:
        index = table.clue_index
        known = np.array([index.get(w, -1) for w in words])
        vectors = table.clue_vectors[np.clip(known, 0, None)]
        unknown = np.flatnonzero((known < 0) & np.array([bool(w) for w in words]))
        if len(unknown):  # a clue outside the table: embed it (errors name a missing word)
            vectors = vectors.copy()
            embedded = table.model.embed_words([words[i] for i in unknown])
            vectors[unknown] = unit_rows(embedded - table.centre)  # as the table's vectors
        return vectors

    def _remember(self, view: GuesserView, clue: np.ndarray) -> None:
        size = len(view.active)
        if len(self._count) != size:
            self.begin(size)
        if self._vectors is None:
            self._vectors = np.zeros((size, MEMORY, clue.shape[1]), dtype=np.float32)
        rows = np.arange(size)
        # What the last guess turned out to be: a found card counts for its clue.
        judged = (self._last_card >= 0) & view.active
        hit = judged & (view.revealed[rows, np.clip(self._last_card, 0, 24)] == OWN)
        slots = np.clip(self._last_slot, 0, MEMORY - 1)
        self._remaining[rows[hit], slots[hit]] = np.maximum(
            self._remaining[rows[hit], slots[hit]] - 1, 0
        )
        self._last_card[judged] = -1
        new = view.new_clue & view.active & (self._count < MEMORY)
        slot = np.clip(self._count, 0, MEMORY - 1)
        # A "0" clue points at no card: nothing of it is left to find later.
        number = np.where(view.clue_number < 0, MAX_TARGETS, np.maximum(view.clue_number, 0))
        self._vectors[rows[new], slot[new]] = clue[new]
        self._remaining[rows[new], slot[new]] = number[new]
        self._side[rows[new], slot[new]] = view.side[new]
        self._current = np.where(new, slot, self._current)
        self._count = self._count + new

    def guesses(self, view: GuesserView, rng: np.random.Generator) -> np.ndarray:
        table = model_tables(self.model, view.words, self.vocabulary)
        clue = self.clue_vectors(table, view.clue_words)  # (B, d)
        cards = table.card_vectors[view.cards]  # (B, 25, d)
        self._remember(view, clue)
        candidates = view.legal & ~view.known_wrong
        candidates = np.where(candidates.any(axis=1, keepdims=True), candidates, view.legal)
        sims = np.einsum("bkd,bd->bk", cards, clue)  # (B, 25)
        current = _standardize(sims, candidates)
        # Earlier clues of the same side with cards still to find.
        used = max(int(self._count.max()), 1)  # slots fill in order: skip the empty ones
        memory = np.einsum("bkd,bmd->bmk", cards, self._vectors[:, :used])  # (B, used, 25)
        slots = np.arange(used)[None, :]
        open_slots = (
            (self._remaining[:, :used] > 0)
            & (self._side[:, :used] == view.side[:, None])
            & (slots < self._count[:, None])
            & (slots != self._current[:, None])
        )
        old = _standardize(memory, candidates[:, None, :])
        old = np.where(open_slots[:, :, None], old, -np.inf).max(axis=1)  # (B, 25)
        old_or_zero = np.where(np.isfinite(old), old, 0.0)
        combined = current + self.memory_weight * old_or_zero
        # "word 0": none of the giver's agents relate to the word, so its nearest cards are
        # the ones to avoid; the guess goes to earlier clues' open cards instead.
        zero = view.clue_number == 0  # (B,)
        combined = np.where(zero[:, None], old_or_zero - current, combined)
        if view.own_key is not None and self.own_assassin_caution:
            # Duet (RULES section 3): a card the guesser's own side shows as an assassin is
            # the giver's assassin one time in three, any other card one time in 9 to 13.
            combined = combined - self.own_assassin_caution * (view.own_key == ASSASSIN)
        combined = np.where(candidates, combined, -np.inf)
        best = combined.argmax(axis=1)
        leftover = np.where(candidates, old, -np.inf)
        leftover_card = leftover.argmax(axis=1)
        leftover_ok = leftover.max(axis=1) >= self.leftover_z

        number = view.clue_number.astype(np.int64)
        # unlimited: no number cap; 0: one guess away from the word, then stop
        number = np.where(number < 0, MAX_TARGETS, np.where(number == 0, 1, number))
        wants_more = view.guesses_made < number if self.stop_at_number else True
        confident = (view.guesses_made == 0) | (
            _softmax_top(sims, candidates, self.temperature) >= self.threshold
        )
        on_clue = wants_more & confident
        take_leftover = ~on_clue & view.can_stop & leftover_ok & self.stop_at_number
        choice = np.where(take_leftover, leftover_card, best)
        stop = view.can_stop & ~on_clue & ~take_leftover
        rows = np.arange(len(choice))
        slot_of_old = np.where(open_slots[:, :, None], memory, -np.inf)[rows, :, choice]
        self._last_card = np.where(view.active & ~stop, choice, -1)
        self._last_slot = np.where(take_leftover, slot_of_old.argmax(axis=1), self._current)
        return np.where(stop, STOP, choice)


MEMORY = 32  # clues a guesser remembers per game


def _standardize(sims: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """z-scores of similarities over the candidate cards (last axis)."""
    count = np.maximum(candidates.sum(axis=-1, keepdims=True), 1)
    mean = np.where(candidates, sims, 0.0).sum(axis=-1, keepdims=True) / count
    spread = np.where(candidates, (sims - mean) ** 2, 0.0).sum(axis=-1, keepdims=True) / count
    return (sims - mean) / np.maximum(np.sqrt(spread), 1e-6)


def _softmax_top(sims: np.ndarray, candidates: np.ndarray, temperature: float) -> np.ndarray:
    """``(B,)`` softmax probability of the best candidate card."""
    scores = np.where(candidates, sims, -np.inf)
    top = scores.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)  # rows of games that are not guessing
    weights = np.exp((scores - top) / temperature)
    total = weights.sum(axis=1)
    return np.divide(weights.max(axis=1), total, out=np.zeros_like(total), where=total > 0)


def _spymaster(models, name, **fixed):
    def factory(**options):
        return EmbeddingSpymaster(models=models, name=name, **{**fixed, **options})

    return factory


def _guesser(model, name, **fixed):
    def factory(**options):
        return EmbeddingGuesser(model=model, name=name, **{**fixed, **options})

    return factory


register("spymaster", "glove")(_spymaster(("glove",), "glove"))
register("spymaster", "minilm")(_spymaster(("minilm",), "minilm"))
register("spymaster", "robust")(_spymaster(("glove", "minilm"), "robust"))
# Partner-safe spymasters: their own model only, but every intended target must be one the
# lexicon relates to the clue, and a clue needs a clear margin (docs/cross-model-notes.md).
LEXICON_SETTINGS = {"lexicon": True, "margin_weight": 1.0, "min_margin": 0.5, "assassin_below": 8}
register("spymaster", "glove-lexicon")(_spymaster(("glove",), "glove-lexicon", **LEXICON_SETTINGS))
register("spymaster", "minilm-lexicon")(
    _spymaster(("minilm",), "minilm-lexicon", **LEXICON_SETTINGS)
)
register("spymaster", "glove-random-cover")(  # Marvel co-op: cover a random virtual agent
    lambda **options: EmbeddingSpymaster(
        models=("glove",), name="glove-random-cover", cover_policy="random", **options
    )
)
register("guesser", "glove")(_guesser("glove", "glove"))
register("guesser", "minilm")(_guesser("minilm", "minilm"))
register("guesser", "nearest")(_guesser("glove", "nearest", stop_at_number=False))
