"""The embedding guesser: ranks the visible cards by similarity to the clue.

See :class:`EmbeddingGuesser`; the spymaster it plays with is in ``codebots.agents.embedding``.
"""

from __future__ import annotations

import functools

import numpy as np

import codebots.agents.duet_reader as duet_reader
from codebots.agents.card_scores import majority_agrees, softmax_top, standardize
from codebots.agents.duet_reader import weights_without
from codebots.agents.tables import (
    DEFAULT_VOCABULARY,
    centred_units,
    model_tables,
    shared_vocabulary,
)
from codebots.agents.views import ASSASSIN, OWN, GuesserView
from codebots.engine.constants import STOP
from codebots.errors import CodebotsError
from codebots.lexicon import relation_matrix
from codebots.minds import model_minds
from codebots.morphology import compound_parts

TOUCH_TWO_GAP_Z = 1.0  # Hogwarts bonus: touch the next card too when this close (z units)

MAX_TARGETS = 9  # the most cards one clue may aim at
MEMORY = 32  # clues a guesser (and a spymaster) remembers per game
MIN_STANDOUT = 0.1  # a mind's smallest say (confidence_power): never none at all


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
    A ``0`` clue ("none of ours relate to this word") sends the guesses away from the
    word, to earlier clues' open cards, and stays a warning for the rest of the game: every
    later guess takes ``warning_weight`` z off a card for each z it has above
    ``warning_floor`` for each earlier ``0`` clue of the same giver (they add up: warnings
    repeated at one card single it out). An ``unlimited`` clue scores a card by the better of
    its z for this clue and for an earlier open clue. After the first guess of either it
    goes on only while the next card's z is at least ``unlimited_z``.
    Duet: ``own_assassin_caution`` lowers the score of cards the guesser's own side shows as
    assassins (the giver's assassin one time in three, RULES section 3). It is off by
    default: one of those three is the giver's green, and
    avoiding it cost more than it saved (500 Duet games: same-model wins 100% -> 96-98% at
    1 z; GloVe -> MiniLM 2.2% -> 1.6%, assassin 90% -> 86%). After the first
    guess it goes on only while the softmax probability of its next card (temperature
    ``temperature``) is at least ``threshold``. ``stop_at_number=False`` never stops by itself
    (the 2019 competition bots). ``lexicon_weight`` adds that many z units to the cards
    WordNet relates to the clue (``codebots.lexicon``): common ground with a spymaster of
    another mind, at a small cost with one of its own (docs/cross-model-notes.md).
    ``duet_reader`` (the left-out minds of a fitted fold, :mod:`codebots.agents.duet_reader`)
    replaces the Duet choice by probabilities: the card with the best ``p_green -
    duet_caution * p_assassin``, going on while that is at least ``duet_threshold`` (and,
    with ``stop_at_number``, not past the clue's number). With ``last_turn_threshold``, on
    Duet's last turn (the bank empties whether it stops or touches a bystander: sudden death
    follows either way) it goes on past the number while the value is at least that: a
    green left now must be found in sudden death, where a bystander loses too.
    """

    privileged = False
    uses_rng = False

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
        unlimited_z: float = 2.0,  # 0 / unlimited clues: go on while the next card's z is this
        lexicon_weight: float = 0.0,  # z units for cards WordNet relates to the clue
        warning_weight: float = 1.0,  # z off per z above warning_floor for each earlier "0" clue
        warning_floor: float = 1.0,
        duet_reader: tuple[str, ...] | None = None,  # Duet: the reader fitted without these
        duet_caution: float = 1.0,  # Duet reader: p_green - caution * p_assassin
        duet_threshold: float = 0.2,  # Duet reader: go on while the value is at least this
        last_turn_threshold: float | None = None,  # Duet reader, last turn: past the number
        solo_majority: bool = False,  # no rival, no clock: past the first card, most minds agree
        minds_apart: bool = False,  # a committee: read the clue by each mind's own z, averaged
        confidence_power: float = 0.0,  # minds apart: each weighted by its best card's standout
        voices: tuple[str, ...] | None = None,  # minds apart: the parts of ``model`` grouped
    ):
        self.model = model
        self.name = name or model
        self.minds = model_minds(model) | ({"wordnet"} if lexicon_weight else frozenset())
        self.vocabulary = shared_vocabulary(("glove", model), vocabulary_size)
        self.threshold = threshold
        self.temperature = temperature
        self.stop_at_number = stop_at_number
        self.memory_weight = memory_weight
        self.leftover_z = leftover_z
        self.own_assassin_caution = own_assassin_caution
        self.unlimited_z = unlimited_z
        self.lexicon_weight = lexicon_weight
        self.warning_weight = warning_weight
        self.warning_floor = warning_floor
        self.duet_reader = None if duet_reader is None else weights_without(tuple(duet_reader))
        self.duet_caution = duet_caution
        self.duet_threshold = duet_threshold
        self.last_turn_threshold = last_turn_threshold
        self.solo_majority = solo_majority
        self.minds_apart = minds_apart
        self.confidence_power = confidence_power
        # The minds read apart, as groups of the model's parts (``wordnet+gcide``: the two
        # dictionaries read as one mind); by default each part alone.
        self.voices = tuple(voices) if voices else tuple(model.split("+"))
        if "+".join(self.voices) != model:
            raise CodebotsError(f"voices {'|'.join(self.voices)} are not the parts of {model}")
        self._outside: tuple = (None, {})  # (table, word -> vector) of words outside it
        self.begin(0)

    def begin(self, size: int) -> None:
        """Forget every game: a new batch of ``size`` games starts."""
        # Each remembered clue's similarity to its game's cards, computed once (a game's
        # cards and a stored clue never change): (B, MEMORY, 25); zero until computed. New
        # clues wait in ``_pending`` (rows, slots, (N, d) vectors, (N, 25) similarities or
        # None) until the next guesses() call: a clue heard live comes with the similarities
        # its guesses computed, a resumed one is computed then (a (B, MEMORY, d) store of the
        # vectors took 670 MB for 4,096 games of the 1,252-dimensional cross-play guesser).
        self._memory_sims = np.zeros((size, MEMORY, 25), dtype=np.float32)
        self._pending: list[tuple] = []
        self._remaining = np.zeros((size, MEMORY), dtype=np.int16)  # cards still to find
        self._side = np.full((size, MEMORY), -1, dtype=np.int8)  # whose clue
        self._zero = np.zeros((size, MEMORY), dtype=bool)  # a "0" clue: a warning
        self._count = np.zeros(size, dtype=np.int64)  # clues remembered
        self._current = np.full(size, -1, dtype=np.int64)  # slot of the clue being played
        self._last_card = np.full(size, -1, dtype=np.int64)
        self._last_slot = np.full(size, -1, dtype=np.int64)
        self._scores = np.full((size, 25), -np.inf)  # (B, 25) the last guesses() ranking
        self._score_gap: float | None = TOUCH_TWO_GAP_Z

    def remember(self, game: int, pool: tuple[str, ...], word: str, number: int, side: int) -> None:
        """Note a clue of ``game`` played before this guesser saw it (a resumed record): a
        ``0`` clue stays a warning; a counted clue's cards are taken as found. Call it in
        play order, before the game's next live clue."""
        if game >= len(self._count):
            self.begin(game + 1)
        slot = int(self._count[game])
        if slot >= MEMORY:
            return
        table = model_tables(self.model, pool, self.vocabulary)
        vector = self.clue_vectors(table, [word])  # (1, d)
        rows = np.array([game])
        self._store(rows, np.array([slot]), vector, 0, side, np.array([number == 0]))

    def ranking(self, game: int) -> np.ndarray:
        """``(25,)`` how the last :meth:`guesses` call ranked ``game``'s cards, best highest;
        ``-inf`` for cards it would not touch (revealed, or known wrong from its own side)."""
        return self._scores[game].copy()

    def reads_clue(self, pool: tuple[str, ...], word: str) -> bool:
        """Whether this guesser's model has any meaning for the clue ``word`` on ``pool``."""
        return reads(model_tables(self.model, pool, self.vocabulary), word)

    def clue_vectors(self, table, words, known: np.ndarray | None = None) -> np.ndarray:
        """``(B, d)`` the table's vectors of the clue words (``known``: their clue ids).

        Any word a person or an agent of another mind may say has a vector: outside the
        table it is embedded by the model, lower-cased; a word the model lacks is read by
        its known compound parts (SEAHORSE: sea, horse), and one with none is a zero vector,
        which ranks every card alike: the guesser knows nothing of it, makes the one guess
        a clue must get (by earlier clues and, in Duet, the key) and stops."""
        known = _clue_ids(table, words) if known is None else known
        vectors = table.clue_vectors[np.clip(known, 0, None)]
        unknown = np.flatnonzero((known < 0) & np.array([bool(w) for w in words]))
        if len(unknown):
            vectors = vectors.copy()
            outside = [" ".join(words[i].lower().split()) for i in unknown]
            if self._outside[0] is not table:
                self._outside = (table, {})
            seen = self._outside[1]  # word -> (d,): a partner repeats its words all batch
            new = [word for word in dict.fromkeys(outside) if word not in seen]
            # The words the model has, embedded in one batch (a sentence model's call is
            # the expensive part); the rest by their parts.
            whole = [word for word in new if table.model.has(word)]
            if whole:
                embedded = centred_units(table.model.embed_words(whole), table.centre)
                seen.update(zip(whole, embedded))
            seen.update((word, _outside_vector(table, word)) for word in new if word not in seen)
            for index, word in zip(unknown, outside):
                vectors[index] = seen[word]
        return vectors

    def _related(self, view: GuesserView, clue_ids: np.ndarray) -> np.ndarray:
        """``(B, 25) bool``: the lexicon relates the card to the clue (clues outside the
        vocabulary relate to nothing)."""
        related = relation_matrix(view.words, self.vocabulary)
        return related[view.cards, np.clip(clue_ids, 0, None)[:, None]] & (clue_ids >= 0)[:, None]

    def _remember(self, view: GuesserView, clue: np.ndarray, sims: np.ndarray) -> None:
        size = len(view.active)
        if len(self._count) != size:
            self.begin(size)
        rows = np.arange(size)
        # What the last guess turned out to be: a found card counts for its clue. In Duet
        # the answer may come a turn late: a card missed for a clue stays marked from its
        # giver's side, and the other side may find it as a green of theirs in between;
        # then it was no find for this clue.
        judged = (self._last_card >= 0) & view.active
        card = np.clip(self._last_card, 0, 24)
        slots = np.clip(self._last_slot, 0, MEMORY - 1)
        missed = view.known_wrong[rows, card] & (self._side[rows, slots] == view.side)
        hit = judged & (view.revealed[rows, card] == OWN) & ~missed
        self._remaining[rows[hit], slots[hit]] = np.maximum(
            self._remaining[rows[hit], slots[hit]] - 1, 0
        )
        self._last_card[judged] = -1
        new = view.new_clue & view.active & (self._count < MEMORY)
        slot = np.clip(self._count, 0, MEMORY - 1)
        # A "0" clue points at no card: nothing of it is left to find later.
        number = np.where(view.clue_number < 0, MAX_TARGETS, np.maximum(view.clue_number, 0))
        zero = view.clue_number[new] == 0
        self._store(rows[new], slot[new], clue[new], number[new], view.side[new], zero, sims[new])

    def _memory(self, card_vectors: np.ndarray, cards: np.ndarray, used: int) -> np.ndarray:
        """``(B, used, 25)`` the similarity of each remembered clue (slots ``0 .. used - 1``)
        to its game's cards (``cards`` (B, 25) rows of ``card_vectors``); the clues stored
        since the last call are computed now (or were, with the guesses that heard them)."""
        for games, slots, vectors, sims in self._pending:
            if sims is None:  # the same sums as with the clue's guesses: einsum works row by row
                sims = np.einsum("nkd,nd->nk", card_vectors[cards[games]], vectors)
            self._memory_sims[games, slots] = sims
        self._pending = []
        return self._memory_sims[:, :used]

    def _store(self, rows, slots, clues, remaining, side, zero, sims=None) -> None:
        """Write new clues into the memory of games ``rows`` at ``slots``; each becomes the
        clue in play of its game (``sims`` (N, 25): their similarities to the cards, when
        known)."""
        if len(rows):
            self._pending.append((rows, slots, clues, sims))
        self._remaining[rows, slots] = remaining
        self._side[rows, slots] = side
        self._zero[rows, slots] = zero
        self._current[rows] = slots
        self._count[rows] += 1

    def guesses(self, view: GuesserView, rng: np.random.Generator) -> np.ndarray:
        table = model_tables(self.model, view.words, self.vocabulary)
        # Only the games guessing now are read (the others' answers are not used): their
        # clues' vectors and similarities; the others keep zero vectors and similarities.
        guessing = np.flatnonzero(view.active)
        clue_ids = np.full(len(view.active), -1, dtype=np.int64)  # (B,) -1: outside the vocabulary
        words = [view.clue_words[game] for game in guessing]
        clue_ids[guessing] = _clue_ids(table, words)
        clue = np.zeros((len(view.active), table.card_vectors.shape[1]), dtype=np.float32)
        clue[guessing] = self.clue_vectors(table, words, clue_ids[guessing])  # (B, d)
        sims = np.zeros((len(view.active), 25), dtype=np.float32)  # (B, 25)
        cards = table.card_vectors[view.cards[guessing]]  # (A, 25, d)
        sims[guessing] = np.einsum("bkd,bd->bk", cards, clue[guessing])
        self._remember(view, clue, sims)
        candidates = view.legal & ~view.known_wrong
        candidates = np.where(candidates.any(axis=1, keepdims=True), candidates, view.legal)
        mind_sims = None  # each mind's (A, 25) similarities, for the games guessing now
        if self.minds_apart and len(self._mind_slices) > 1:
            # The z of the pooled cosine leans to the mind whose cosines spread most (GloVe's
            # 50 dimensions); each mind's own z, averaged, gives every mind one voice, and the
            # near relative of a stranger's mind, when there is one, its full say
            # (docs/cross-model-notes.md, report seeds: single-team and Marvel co-op wins
            # +3-6 points with a MiniLM or MPNet partner, 2-3 fewer with a GloVe or WordNet
            # one).
            mind_sims = self._mind_sims(cards, clue[guessing])
            current = np.zeros_like(sims)  # (B, 25)
            weights = self._mind_weights(mind_sims, clue[guessing], table, candidates[guessing])
            for one, weight in zip(mind_sims, weights):
                current[guessing] += weight * standardize(one, candidates[guessing])
            current[guessing] /= sum(weights)
        else:
            current = standardize(sims, candidates)
        if self.lexicon_weight:
            current = current + self.lexicon_weight * self._related(view, clue_ids)
        # Earlier clues of the same side with cards still to find.
        used = max(int(self._count.max()), 1)  # slots fill in order: skip the empty ones
        slots = np.arange(used)[None, :]
        memory = self._memory(table.card_vectors, view.cards, used)  # (B, used, 25)
        earlier = (  # (B, used) this giver's clues before the one in play
            (self._side[:, :used] == view.side[:, None])
            & (slots < self._count[:, None])
            & (slots != self._current[:, None])
        )
        open_slots = earlier & (self._remaining[:, :used] > 0)
        old_z = np.zeros(memory.shape)  # (B, used, 25), for the games guessing now
        old_z[guessing] = standardize(memory[guessing], candidates[guessing, None, :])
        old = np.where(open_slots[:, :, None], old_z, -np.inf).max(axis=1)  # (B, 25)
        if self.warning_weight:
            warned = earlier & self._zero[:, :used]
            # Every warning adds: they all point at the same card, their noise does not.
            excess = np.maximum(old_z - self.warning_floor, 0)  # (B, used, 25)
            warning = np.where(warned[:, :, None], excess, 0.0).sum(axis=1)  # (B, 25)
        else:
            warning = 0.0
        old_or_zero = np.where(np.isfinite(old), old, 0.0)
        combined = current + self.memory_weight * old_or_zero
        # "unlimited": the giver's agents of this clue and of earlier open clues.
        unlimited = view.clue_number < 0  # (B,)
        catch_up = np.where(np.isfinite(old), np.maximum(current, old), current)
        later = unlimited & (view.guesses_made > 0)  # the clue's own best card comes first
        combined = np.where(later[:, None], catch_up, combined)
        # "word 0": none of the giver's agents relate to the word, so its nearest cards are
        # the ones to avoid; the guesses go to earlier clues' open cards instead.
        zero = view.clue_number == 0  # (B,)
        combined = np.where(zero[:, None], old_or_zero - current, combined)
        # Earlier "0" clues: their nearest cards stay to be avoided all game.
        combined = combined - self.warning_weight * warning
        if view.own_key is not None and self.own_assassin_caution:
            # Duet (RULES section 3): a card the guesser's own side shows as an assassin is
            # the giver's assassin one time in three, any other card one time in 9 to 13.
            combined = combined - self.own_assassin_caution * (view.own_key == ASSASSIN)
        # A clue the model has no meaning for (a word it lacks, with no known parts) gets
        # the one guess every clue must get (from earlier clues and, in Duet, the key), then
        # the guesser stops: it knows nothing of the word.
        unknown = ~clue.any(axis=1) & np.array([bool(w) for w in view.clue_words])
        give_up = unknown & (view.guesses_made > 0) & view.can_stop  # (B,)
        if self.duet_reader is not None and view.own_key is not None:
            choice = self._read_duet(view, current, old, candidates)
            return self._touched(view, np.where(give_up, STOP, choice))
        combined = np.where(candidates, combined, -np.inf)
        self._scores, self._score_gap = combined, TOUCH_TWO_GAP_Z  # for second_card
        best = combined.argmax(axis=1)
        leftover = np.where(candidates, old, -np.inf)
        leftover_card = leftover.argmax(axis=1)
        leftover_ok = leftover.max(axis=1) >= self.leftover_z

        expert = unlimited | zero  # no number cap: it goes on while sure enough
        wants_more = self._below_number(view)
        rows = np.arange(len(best))
        # After the first guess of a 0 / unlimited clue: on while the next card is clear.
        sure = np.where(zero, old_or_zero[rows, best], combined[rows, best]) >= self.unlimited_z
        confident = (view.guesses_made == 0) | (
            (softmax_top(sims, candidates, self.temperature) >= self.threshold) & (~expert | sure)
        )
        if self.solo_majority and view.variant.opponent == "none":
            # A single-team game has no rival and no clock: a second card costs nothing to
            # leave for the next clue, and a stranger's second card is often not what its
            # giver meant (docs/cross-model-notes.md). Go past the first only when most of
            # the minds read the card the guesser chose as the clue's first.
            later = view.active & (view.guesses_made > 0) & ~expert
            asked = later[guessing]  # (A,) of the games guessing now
            if mind_sims is None:  # from the card vectors gathered above
                mind_sims = self._mind_sims(cards[asked], clue[later])
            else:
                mind_sims = [one[asked] for one in mind_sims]
            agreed = np.ones(len(best), dtype=bool)
            agreed[later] = majority_agrees(mind_sims, candidates[later], best[later])
            confident = confident & agreed
        on_clue = wants_more & confident & ~give_up
        take_leftover = ~on_clue & view.can_stop & leftover_ok & self.stop_at_number & ~give_up
        choice = np.where(take_leftover, leftover_card, best)
        stop = view.can_stop & ~on_clue & ~take_leftover
        slot_of_old = np.where(open_slots[:, :, None], memory, -np.inf)[rows, :, choice]
        # A card found for an earlier clue counts for that clue.
        from_old = take_leftover | zero | (unlimited & (old[rows, best] > current[rows, best]))
        self._last_card = np.where(view.active & ~stop, choice, -1)
        self._last_slot = np.where(from_old, slot_of_old.argmax(axis=1), self._current)
        return np.where(stop, STOP, choice)

    @functools.cached_property
    def _mind_slices(self) -> list[slice]:
        """Each voice's columns of the (combined) vectors, in the order of the model's parts."""
        from codebots.embeddings import load_embedding

        bounds = np.cumsum([0] + [load_embedding(voice).dim for voice in self.voices])
        return [slice(start, stop) for start, stop in zip(bounds[:-1], bounds[1:])]

    def _mind_weights(self, mind_sims, clue, table, candidates) -> list[np.ndarray | float]:
        """Each mind's say in the averaged z: 1, or with ``confidence_power`` the standout of
        its best candidate card, ``((best - mean of the candidates) / spread over the pool)
        ** power`` (``(A, 1)``). A mind that does not know a clue reads it flat, and the
        board's z-scores blow its noise up to the scale of a real reading; measured over the
        pool it stands out little (docs/cross-model-notes.md: a Marvel co-op guesser +1-2
        points on average, +4-6 with a WordNet partner)."""
        if not self.confidence_power:
            return [1.0] * len(mind_sims)
        count = np.maximum(candidates.sum(axis=1, keepdims=True), 1)  # (A, 1)
        weights = []
        for one, part in zip(mind_sims, self._mind_slices):
            pool = clue[:, part] @ table.card_vectors[:, part].T  # (A, P) the clue to every card
            spread = np.maximum(pool.std(axis=1, keepdims=True), 1e-6)
            mean = np.where(candidates, one, 0.0).sum(axis=1, keepdims=True) / count
            best = np.where(candidates, one, -np.inf).max(axis=1, keepdims=True)
            standout = np.maximum((best - mean) / spread, MIN_STANDOUT)
            weights.append(standout**self.confidence_power)
        return weights

    def _mind_sims(self, cards: np.ndarray, clue: np.ndarray) -> list[np.ndarray]:
        """Each mind's similarities ``(R, 25)`` of ``clue`` (R, d) to ``cards`` (R, 25, d)."""
        return [
            np.einsum("rkd,rd->rk", cards[:, :, part], clue[:, part]) for part in self._mind_slices
        ]

    def _read_duet(self, view: GuesserView, current, old, candidates) -> np.ndarray:
        """Duet by probabilities (:mod:`codebots.agents.duet_reader`)."""
        features, rank, sudden = self._duet_features(view, current, old, candidates)
        # The last turn (the bank empties whether it stops or touches a bystander): past
        # the number, on while a green is worth ``last_turn_threshold``; else the cards
        # left wait for sudden death, where any miss loses.
        last, threshold = np.zeros_like(sudden), self.duet_threshold
        if self.last_turn_threshold is not None and view.last_turn is not None:
            last = view.last_turn & ~sudden
            threshold = np.where(last, self.last_turn_threshold, self.duet_threshold)  # (B,)
        p_green, p_assassin = duet_reader.probabilities(features, self.duet_reader)
        value = np.where(candidates, p_green - self.duet_caution * p_assassin, -np.inf)
        # A second card is worth touching when the reader would go on to it anyway.
        self._scores, self._score_gap = value, None
        choice = duet_reader.choose(
            p_green,
            p_assassin,
            candidates,
            rank,
            view.can_stop,
            sudden,
            self.duet_caution,
            threshold,
        )
        # Not past the clue's number either: a person's "king 1" means one card, and a card
        # beyond it is as likely an assassin as any (Duet seats and Diagon Alley, tuning
        # seeds: every partner's win rate within a point, six of eleven cells up, one down).
        reached = view.can_stop & ~self._below_number(view) & ~sudden & ~last
        return np.where(reached, STOP, choice)

    def _below_number(self, view: GuesserView) -> np.ndarray:
        """``(B,) bool``: fewer guesses made than the clue's number (a ``0`` or unlimited
        clue has none: up to ``MAX_TARGETS``); always, without ``stop_at_number``."""
        if not self.stop_at_number:
            return np.ones(len(view.active), dtype=bool)
        expert = view.clue_number <= 0
        number = np.where(expert, MAX_TARGETS, view.clue_number.astype(np.int64))
        return view.guesses_made < number

    def second_card(self, view: GuesserView, cards: np.ndarray) -> np.ndarray:
        """``(B,)`` a second card to touch with ``cards`` (the Hogwarts bonus: the giver keeps
        the better of the two), or -1: the next-best card, when it is nearly as good (within
        ``TOUCH_TWO_GAP_Z`` of the first by z; the Duet reader: worth going on to). Touching
        two never does worse than touching the first alone; the bonus is what it costs.
        Call it right after :meth:`guesses` on the same view."""
        scores = self._scores.copy()  # (B, 25) as guesses() ranked the cards
        rows = np.arange(len(cards))
        picked = np.clip(cards, 0, 24)
        first = scores[rows, picked]
        scores[rows, picked] = -np.inf
        second = scores.argmax(axis=1)
        value = scores.max(axis=1)
        if self._score_gap is None:
            worth = value >= self.duet_threshold
        else:
            worth = value >= first - self._score_gap
        use = view.active & (cards >= 0) & np.isfinite(value) & worth
        return np.where(use, second, -1)

    def _touched(self, view: GuesserView, choice: np.ndarray) -> np.ndarray:
        """Note the cards touched now for the current clues (judged at the next call);
        returns ``choice``."""
        self._last_card = np.where(view.active & (choice >= 0), choice, -1)
        self._last_slot = self._current.copy()
        return choice

    def _duet_features(self, view: GuesserView, current, old, candidates):
        """``(features (B, 25, F), rank (B, 25), sudden (B,))`` of the Duet reader; in sudden
        death, with no clue in play, a card's evidence is its best z for an earlier open
        clue of the giver."""
        sudden = view.sudden_death
        if sudden is None:  # a view built by hand without the flag: no sudden death
            sudden = np.zeros(len(view.active), dtype=bool)
        z = np.where(sudden[:, None] & np.isfinite(old), old, current)
        prior_green, prior_assassin = duet_reader.key_prior(
            view.own_key, view.revealed, view.known_wrong
        )
        features, rank = duet_reader.card_features(
            z, candidates, prior_green, prior_assassin, view.clue_number, view.guesses_made
        )
        return features, rank, sudden


def _clue_ids(table, words) -> np.ndarray:
    """``(B,)`` each word's id in the table's clue vocabulary (any case), -1 if not there."""
    index = table.clue_index
    return np.array(
        [index.get(word, index.get(word.strip().lower(), -1)) for word in words], dtype=np.int64
    )


def reads(table, word: str) -> bool:
    """Whether the table's model has any meaning for ``word`` (else it is a zero vector)."""
    if _clue_ids(table, [word])[0] >= 0:
        return True
    return bool(np.any(_outside_vector(table, word)))


def _outside_vector(table, word: str) -> np.ndarray:
    """``(d,)`` a clue word outside the table, as the table's vectors are (centred, unit)."""
    model = table.model
    pieces = []
    for part in word.lower().split():  # a two-word clue (the London bonus) by its words
        known = [part] if model.has(part) else compound_parts(part)
        pieces.extend(piece for piece in known if model.has(piece))
    if not pieces:
        return np.zeros(table.clue_vectors.shape[1], dtype=np.float32)
    embedded = model.embed_words(pieces).mean(axis=0, keepdims=True)  # NaN: a silent part
    return centred_units(embedded, table.centre)[0]
