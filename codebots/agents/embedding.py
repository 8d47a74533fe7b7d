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
several models and keeps the worst. On Duet's last turn (``last_turn_bystanders=False``)
only assassins are threats: the bank empties whether the partner stops or touches a
bystander, so a bystander costs nothing more. Where the variant allows them it gives
expert clues: ``unlimited`` to let the partner catch up a card it missed, ``word 0`` to
send it back to such cards and away from the assassin (see ``_expert``).

Warnings (``warnings=k``, single-team games that allow ``0`` clues;
:mod:`codebots.agents.warning_clues`): the first ``k`` clues of a
game are ``word 0`` with the valid word that singles out the assassin best (its z above every
other visible card's, worst over the models), so that a partner of another mind learns which
card to keep away from; with ``last_agent_deadly`` the other team's last agent counts as an
assassin too (touching it loses as surely), in the margins and in the warnings.

Lexicon mode (``lexicon=True``, the ``*-lexicon`` spymasters): an own card may be an
intended target only if WordNet relates it to the clue (``codebots.lexicon``); candidates
are each card's nearest related clue words. A partner thinking with another model agrees
far more often with such clues (docs/cross-model-notes.md); with none feasible the
spymaster falls back to the best single-target margin over all candidates.

With a ``partner`` memory (``codebots.agents.partner``) every similarity gains what the
spymaster learned from watching its partner guess: pairs it missed lose, cards it took for a
clue gain, as threats to that clue.
"""

from __future__ import annotations

import numpy as np

from codebots.agents.base import Clues
from codebots.agents.baselines import random_covers
from codebots.agents.board_gather import BoardGather
from codebots.agents.clue_scoring import score_clues
from codebots.agents.covers import check_policy, danger_covers, lookahead_covers
from codebots.agents.guesser import MAX_TARGETS, MEMORY
from codebots.agents.partner import PartnerMemory
from codebots.agents.tables import (
    DEFAULT_VOCABULARY,
    model_tables,
    nearest_clue_words,
    related_neighbours,
    shared_vocabulary,
)
from codebots.agents.views import ASSASSIN, BYSTANDER, OTHER, OWN, SpymasterView
from codebots.agents.warning_clues import WarningClues, clues_are_free
from codebots.engine.constants import UNLIMITED
from codebots.lexicon import relation_matrix
from codebots.minds import model_minds

SCORE_BLOCK = 64  # games scored at once by the spymaster


class EmbeddingSpymaster(WarningClues):
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
        min_zipf: float = 0.0,  # clue words at least this common (wordfreq Zipf; 0: any)
        max_danger: tuple[float, float] = (np.inf, np.inf),  # z cap: other team, assassin
        candidates: int | None = None,  # nearest clue words per card (None: the table's 100)
        cover_policy: str = "danger",  # Marvel virtual turn (codebots.agents.covers)
        lexicon: bool = False,  # intend only targets WordNet relates to the clue
        assassin_below: int = 0,  # other non-targets that must be nearer the clue
        expert_clues: bool = True,  # 0 / unlimited clues where the variant allows them
        catch_up_margin: float = 1.0,  # z: an earlier target its old clue still singles out
        partner: PartnerMemory | None = None,  # learned from watching the partner guess
        warnings: int = 0,  # opening "0" clues pointing at the assassin (zero clues allowed)
        last_agent_deadly: bool = False,  # the other team's last agent counts as an assassin
        consensus_aims: bool = False,  # intended targets by the models' mean z (else the first's)
        last_turn_bystanders: bool = True,  # Duet's last turn: bystanders count as threats
    ):
        self.models = tuple(models)
        self.name = name or "+".join(self.models)
        # The minds it thinks with (codebots.minds): its models, and WordNet when it reads
        # the lexicon.
        self.minds = frozenset().union(*(model_minds(m) for m in self.models)) | (
            {"wordnet"} if lexicon else frozenset()
        )
        self.vocabulary = shared_vocabulary(("glove", *self.models), vocabulary_size)
        self.min_margin = min_margin
        self.min_target = min_target
        self.margin_weight = margin_weight
        self.prior_weight = prior_weight
        self.danger = np.zeros(4, dtype=np.float32)
        self.danger[[OTHER, BYSTANDER, ASSASSIN]] = danger
        self.max_number = max_number
        self.dictionary_only = dictionary_only
        self.min_zipf = min_zipf
        self.max_danger = max_danger
        self.candidates = candidates
        self.cover_policy = check_policy(cover_policy)
        self.lexicon = lexicon
        self.assassin_below = assassin_below
        self.expert_clues = expert_clues
        self.catch_up_margin = catch_up_margin
        self.partner = partner
        self.warnings = warnings
        self.last_agent_deadly = last_agent_deadly
        self.consensus_aims = consensus_aims
        self.last_turn_bystanders = last_turn_bystanders
        self._partner_checked: tuple = (None, None)  # (memory, pool) last checked to fit
        self._index: dict | None = None
        self._tables_for: tuple | None = None  # the pool of self._tables
        self._board_gathers: dict = {}  # for that pool, by candidates per card
        self.begin(0)

    @property
    def uses_rng(self) -> bool:
        return self.cover_policy == "random"  # the only random choice it makes

    def begin(self, size: int) -> None:
        """Forget every game: a new batch of ``size`` games starts."""
        # Clue ids given so far per game: a clue the partner already acted on is not
        # given again (if it failed, repeating it would most likely fail the same way).
        self._given = np.full((size, MEMORY), -1, dtype=np.int32)  # (B, MEMORY)
        self._given_count = np.zeros(size, dtype=np.int64)
        # The clue id that aimed at each card: an own card still visible after its clue was
        # played is a leftover the partner missed (catch-up clues, see _expert).
        self._aimed = np.full((size, 25), -1, dtype=np.int32)  # (B, 25)
        self._given_zero = np.zeros((size, MEMORY), dtype=bool)  # which of them were "0"

    def remember(
        self, game: int, word: str, targets: tuple[int, ...] = (), number: int = 1
    ) -> None:
        """Note a clue given in ``game`` (by anyone) so that it is not given again, the card
        positions it aimed at (its leftovers may be caught up later) and its number (a ``0``
        clue counts as a warning at the deadly card it points at)."""
        clue_id = self._clue_ids().get(word.lower(), -1)
        if clue_id < 0 or game >= len(self._given_count):
            return
        self._aimed[game, list(targets)] = clue_id
        if clue_id not in self._given[game]:
            slot = min(self._given_count[game], MEMORY - 1)
            self._given[game, slot] = clue_id
            self._given_zero[game, slot] = number == 0
            self._given_count[game] += 1

    def _clue_ids(self) -> dict:
        """Clue word -> clue id in this spymaster's vocabulary."""
        if self._index is None:
            self._index = {word: i for i, word in enumerate(self.vocabulary)}
        return self._index

    def _gather(self, words: tuple[str, ...], every_candidate: bool = False) -> BoardGather:
        """The board gathers of this spymaster's candidates on pool ``words``: the scoring's
        ``candidates`` nearest per card of its first model (more than the table keeps are
        found when asked), or (``every_candidate``, for the warnings) all of the table's;
        one object when ``candidates`` is None."""
        tables = self.tables(words)
        limit = None if every_candidate else self.candidates
        if limit not in self._board_gathers:
            if self.lexicon:
                neighbours = related_neighbours(self.models[0], words, self.vocabulary)
            elif limit is None:
                neighbours = tables[0].neighbours
            else:  # the tables' own, or a wider list found when asked
                neighbours = nearest_clue_words(self.models[0], words, self.vocabulary, limit)
            zsims = [table.zsims for table in tables]
            self._board_gathers[limit] = BoardGather(neighbours[:, :limit], zsims)
        return self._board_gathers[limit]

    def tables(self, words: tuple[str, ...]):
        # Asked several times a turn with the same pool tuple: hashing it and the 50,000-word
        # vocabulary for model_tables' cache key each time cost 3-5% of a game.
        if words is not self._tables_for:
            self._tables = [model_tables(model, words, self.vocabulary) for model in self.models]
            self._tables_for = words
            self._board_gathers = {}
        return self._tables

    def _learned(self, words: tuple[str, ...], cards: np.ndarray, clues: np.ndarray):
        """The partner memory's z corrections for ``cards`` (G, K) x ``clues`` (G, C), as
        (G, K, C); ``None`` without a memory."""
        if self.partner is None:
            return None
        memory, pool = self._partner_checked
        if memory is not self.partner or pool is not words:  # once, not every turn
            self.partner.check_fits(words, self.vocabulary)
            self._partner_checked = (self.partner, words)
        return self.partner.correction[cards[:, :, None], clues[:, None, :]]

    def clues(self, view: SpymasterView, rng: np.random.Generator) -> Clues:
        size = len(view.active)
        words = [""] * size
        numbers = np.full(size, UNLIMITED, dtype=np.int16)
        intended: list[tuple[int, ...]] = [()] * size
        vocabulary = self.tables(view.words)[0].vocabulary
        active = np.flatnonzero(view.active)
        # The batch's size, not this turn's share of it: a Duet seat gives half the clues.
        self._gather(view.words).prepare(size)
        # Blocks of games keep the (G, C, 25) work arrays small enough to stay in cache; games
        # with as many targets left share a block, whose candidates are those of its most
        # targets (a game's clue never depends on the other games of its block).
        targets_left = ((view.identity == OWN) & view.visible)[active].sum(axis=1)
        active = active[np.argsort(targets_left, kind="stable")]
        for games in np.array_split(active, -(-len(active) // SCORE_BLOCK)):
            chosen, counts, targets, aimed, fell_back = self._choose_or_warn(view, games)
            if len(self._given_count) == size:
                chosen, counts, targets = self._expert(
                    view, games, chosen, counts, targets, aimed, fell_back
                )
                slot = np.minimum(self._given_count[games], MEMORY - 1)
                self._given[games, slot] = chosen
                self._given_zero[games, slot] = counts == 0
                self._given_count[games] += 1
            for game, clue_id, number, aims in zip(games, chosen, counts, targets):
                words[game] = vocabulary[clue_id]
                numbers[game] = number
                intended[game] = aims
        return Clues(words=tuple(words), numbers=numbers, targets=tuple(intended))

    def _score(self, view: SpymasterView, games: np.ndarray):
        """:func:`codebots.agents.clue_scoring.score_clues` of this spymaster."""
        return score_clues(self, view, games)

    def _choose_or_warn(self, view: SpymasterView, games: np.ndarray):
        """:meth:`_choose` for the games with no warning due, ``word 0`` (see :meth:`_warnings`)
        for the others: a warned game is never scored."""
        size = len(games)
        warning = np.full(size, -1, dtype=np.int64)  # (G,) the warning's clue id, -1: none
        begun = len(self._given_count) == len(view.active)  # begin() made their clue memory
        if self.warnings and begun and clues_are_free(view.variant):
            warning = self._warnings(view, games)
        plain = np.flatnonzero(warning < 0)
        if len(plain) == size:
            return self._choose(view, games)
        clue_ids, numbers = warning.copy(), np.zeros(size, dtype=np.int64)
        aims: list[tuple[int, ...]] = [()] * size
        aimed = np.zeros((size, 25), dtype=bool)  # (G, 25) a warning aims at no card
        fell_back = np.zeros(size, dtype=bool)
        if len(plain):
            chosen = self._choose(view, games[plain])
            clue_ids[plain], numbers[plain] = chosen[0], chosen[1]
            aimed[plain], fell_back[plain] = chosen[3], chosen[4]
            for row, row_aims in zip(plain, chosen[2]):
                aims[row] = row_aims
        return clue_ids, numbers, aims, aimed, fell_back

    def _choose(self, view: SpymasterView, games: np.ndarray):
        """Best (clue id, number, intended card positions) for each game in ``games``."""
        score, candidates, layout, targets_l, cards_l, _, fell_back = self._score(view, games)
        size = len(games)
        best = score.reshape(size, -1).argmax(axis=1)
        n_index, column = np.divmod(best, candidates.shape[1])
        clue_ids = candidates[np.arange(size), column]
        positions = self._aim_order(view, clue_ids, layout, targets_l, cards_l)  # (G, 9)
        aimed = np.zeros((size, 25), dtype=bool)  # (G, 25) the clue's intended targets
        rows = np.arange(size)[:, None]
        aimed[rows, positions] = np.arange(MAX_TARGETS)[None, :] <= n_index[:, None]
        aims = [tuple(row[:n]) for row, n in zip(positions.tolist(), (n_index + 1).tolist())]
        return clue_ids, n_index + 1, aims, aimed, fell_back

    def _expert(self, view: SpymasterView, games, clue_ids, numbers, aims, new_aims, fell_back):
        """Expert clues where the variant allows them (RULES section 1).

        A *leftover* is an own card an earlier clue aimed at that is still to find; it is
        *recoverable* when its old clue still singles it out: its z-score for the old clue
        beats every visible non-own card by ``catch_up_margin``. With one, a one-card clue
        goes out as ``unlimited`` (the partner may go on to the leftovers while right; a
        larger number is kept, since "unlimited" would hide it: measured worse); with no
        feasible new clue, ``word 0`` replaces the weak fallback, the word being the valid
        clue that best singles out the assassin: the guesses go to the leftovers, away from it.
        Measured neutral (docs/agents.md): same-model partners rarely leave a leftover.
        """
        numbers, aims, clue_ids = numbers.copy(), list(aims), clue_ids.copy()
        new_aims = new_aims.copy()  # (G, 25) the new clue's own targets
        variant = view.variant
        if self.expert_clues and (variant.unlimited_clues or variant.zero_clues):
            main = self.tables(view.words)[0]
            cards = view.cards[games]  # (G, 25)
            open_own = (view.identity[games] == OWN) & view.visible[games]
            old = self._aimed[games]  # (G, 25)
            leftover = open_own & (old >= 0)
            # z of every card for each leftover's old clue: (G, 25 leftovers, 25 cards)
            sims = main.zsims[cards[:, None, :], np.clip(old, 0, None)[:, :, None]]
            rivals = view.visible[games] & ~open_own & ~view.known_wrong[games]  # (G, 25)
            rival = np.where(rivals[:, None, :], sims, -np.inf).max(axis=2)  # (G, 25)
            own_z = np.diagonal(sims, axis1=1, axis2=2)  # (G, 25) each leftover's own z
            recoverable = leftover & (own_z - rival >= self.catch_up_margin)  # (G, 25)
            for row in np.flatnonzero(recoverable.any(axis=1)):
                # A fallback clue is weak: "word 0" sends the partner back to the leftovers
                # (even one the fallback would aim at again) instead.
                zero = variant.zero_clues and fell_back[row]
                word = self._away_word(view, games[row]) if zero else -1
                extra = recoverable[row] & ~new_aims[row]
                if word >= 0:
                    clue_ids[row], numbers[row] = word, 0
                    aims[row] = tuple(np.flatnonzero(recoverable[row]).tolist())
                    new_aims[row] = False
                elif variant.unlimited_clues and numbers[row] == 1 and extra.any():
                    # Only after a one-card clue: "unlimited" would hide a larger number.
                    numbers[row] = UNLIMITED
                    aims[row] = tuple(aims[row]) + tuple(np.flatnonzero(extra).tolist())
        # Remember what each card was aimed at by; leftovers keep their old clue.
        self._aimed[games] = np.where(new_aims, clue_ids[:, None], self._aimed[games])
        return clue_ids, numbers, aims

    def _aim_order(self, view, clue_ids, layout, targets_l, cards_l) -> np.ndarray:
        """``(G, 9)`` board positions of the targets, most similar to the clue first: the
        first ``n`` are a clue's intended targets. Similar by the first model's cosine, or
        with ``consensus_aims`` by the models' mean z: a committee's clue of number ``n``
        passes when each mind's own ``n`` nearest targets beat the threats, and the cards
        most minds read nearest are the ones its partner is most likely to find."""
        tables = self.tables(view.words)
        board = cards_l[:, :MAX_TARGETS]  # (G, 9)
        if self.consensus_aims:
            sims = sum(table.zsims[board, clue_ids[:, None]] for table in tables) / len(tables)
            learned_scale, related_first = 1.0, 100.0  # the partner's corrections: z units
        else:
            sims = tables[0].sims[board, clue_ids[:, None]].astype(np.float32)
            learned_scale, related_first = 0.1, 10.0  # z units, ~0.1 cosine each
        if self.lexicon:  # targets the lexicon relates to the clue come first
            related = relation_matrix(view.words, self.vocabulary)
            sims = sims + related_first * related[board, clue_ids[:, None]]
        if self.partner is not None:
            learned = self._learned(view.words, board, clue_ids[:, None])
            sims = sims + learned_scale * learned[:, :, 0]
        order = np.argsort(-np.where(targets_l, sims, -np.inf), axis=1)
        return np.take_along_axis(layout[:, :MAX_TARGETS], order, axis=1)

    def top_clues(self, view: SpymasterView, game: int = 0, k: int = 5) -> list[dict]:
        """The ``k`` best distinct clues for one game, with number, targets and margin."""
        games = np.array([game])
        score, candidates, layout, targets_l, cards_l, margins, _ = self._score(view, games)
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
            order = self._aim_order(view, np.array([clue_id]), layout, targets_l, cards_l)
            aims = order[0, :number].tolist()
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

    def agreeing_minds(self, view: SpymasterView, game: int, word: str, targets) -> list[str]:
        """The models (for the cross-play spymaster: the minds) of this spymaster for which
        ``word`` singles out its intended ``targets`` (board positions) in game ``game``:
        every target nearer the clue than every other visible card. For explanations."""
        clue_id = self._clue_ids().get(word.lower(), -1)
        targets = list(targets)
        if clue_id < 0 or not targets:
            return []
        cards, visible = view.cards[game], view.visible[game]  # (25,)
        others = visible.copy()
        others[targets] = False
        agreeing = []
        for model, table in zip(self.models, self.tables(view.words)):
            sims = table.zsims[cards, clue_id]  # (25,)
            nearest_other = sims[others].max() if others.any() else -np.inf
            if sims[targets].min() > nearest_other:
                agreeing.append(model)
        return agreeing

    def covers(self, view: SpymasterView, rng: np.random.Generator) -> np.ndarray:
        """The virtual team's agent to cover (Marvel co-op), by ``cover_policy``
        (:mod:`codebots.agents.covers`)."""
        if self.cover_policy == "random":
            return random_covers(view, rng)
        danger = danger_covers(view, self.tables(view.words)[0].card_sims)
        if self.cover_policy == "danger":
            return danger
        return lookahead_covers(view, self._best_score, danger)

    def _best_score(self, view: SpymasterView, games: np.ndarray) -> np.ndarray:
        """``(G,)`` the score of the best clue of each game in ``games``."""
        score = self._score(view, games)[0]
        return score.reshape(len(games), -1).max(axis=1)
