"""The clue checker (RULES §4): one clue with the reason it fails, and batched masks.

A clue is invalid when it is not one word of letters (rule 1), when it is a visible word or a
form of one (rule 2: inflections, derivations; every word of a multi-word card counts), when
it is a part of a visible compound or a form of a part (rule 3), when it is a compound
containing a visible word or part (rule 4), or when no English word list knows it (rule 6:
``qwxzk``, ``alpss``). Word forms and compound parts come from :mod:`codebots.morphology`.
Options: ``relaxed`` accepts multi-word names, hyphens, acronyms and words the lists do not
know (proper names; each word is still checked against the cards); ``strict`` also refuses
any substring overlap with a visible word or part, as the Marvel experts rule and older bots
do.

Both paths share one definition: a clue's keys (its family and its parts' families) against a
card's keys (its words' and parts' families). :func:`check_clue` explains the first
conflict; :class:`ClueChecker` answers for whole batches from per-word columns, and builds
the (pool x vocabulary) forbid table that spymasters mask with, cached on disk.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np

from codebots.cache import cached
from codebots.morphology import compound_parts, family, is_english, words_of

_ONE_WORD = re.compile(r"^[A-Za-z]{2,}$")
_RELAXED = re.compile(r"^[A-Za-z][A-Za-z .'\-]*$")
# Cached forbid tables are keyed by the code that decides them, so an edit to the rules can
# never serve a stale table.
# The word lists' versions too: a new wordfreq or lemminflect can change a verdict.
RULES_FINGERPRINT = hashlib.sha256(
    b"".join(
        (Path(__file__).parent / name).read_bytes()
        for name in ("morphology.py", "validity.py", "lexicon.py")
    )
    + " ".join(version(package) for package in ("wordfreq", "lemminflect")).encode()
).hexdigest()[:16]


@dataclass(frozen=True)
class CheckOptions:
    strict: bool = False  # also refuse substring overlaps (Marvel experts, older bots)
    relaxed: bool = False  # accept multi-word names, hyphens, acronyms, unlisted names


@dataclass(frozen=True)
class Verdict:
    valid: bool
    rule: str = ""  # "one-word" | "english" | "form" | "part" | "compound" | "substring"
    card: str = ""  # the visible card the clue conflicts with, as given
    reason: str = ""  # one sentence for humans

    def __bool__(self) -> bool:
        return self.valid


@functools.cache
def card_anatomy(card: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each word of a card with its compound parts: ``HORACE SLUGHORN`` ->
    ((horace, ()), (slughorn, (slug, horn)))."""
    return tuple((word, compound_parts(word)) for word in words_of(card))


@functools.cache
def card_keys(card: str) -> frozenset[str]:
    """Keys of everything a visible card forbids: its words', and their parts', families."""
    keys: set[str] = set()
    for word, parts in card_anatomy(card):
        keys |= family(word)
        for part in parts:
            keys |= family(part)
    return frozenset(keys)


@functools.cache
def clue_keys(word: str) -> frozenset[str]:
    """Keys a one-word clue (lower case) is made of: its family and its parts' families."""
    keys = set(family(word))
    for part in compound_parts(word):
        keys |= family(part)
    return frozenset(keys)


def _tokens(clue: str, options: CheckOptions) -> tuple[str, ...] | Verdict:
    if options.relaxed:
        if not _RELAXED.match(clue.strip()) or not words_of(clue):
            return Verdict(False, "one-word", "", f"'{clue}' must be made of letters")
        tokens = tuple(t for t in words_of(clue) if len(t) >= 2)  # acronym letters pass
        if not tokens:
            return Verdict(False, "one-word", "", f"'{clue}' is a single letter, not a clue")
        return tokens
    if not _ONE_WORD.match(clue):
        return Verdict(
            False, "one-word", "", f"'{clue}' must be one word of letters, at least 2 of them"
        )
    if not is_english(clue.lower()):
        return Verdict(
            False,
            "english",
            "",
            f"'{clue}' is not an English word (rule 6); a proper name the word lists do not "
            "know is accepted with the relaxed rules (--relaxed)",
        )
    return (clue.lower(),)


def _explain(clue: str, token: str, card: str) -> Verdict | None:
    """Why ``token`` (a word of ``clue``) conflicts with ``card``, or None."""
    own = family(token)
    for word, _ in card_anatomy(card):
        if own & family(word):
            what = "the visible word" if token == word else f"a form of '{word}', visible"
            return Verdict(False, "form", card, f"'{clue}' is {what} on the card {card}")
    for _, parts in card_anatomy(card):
        for part in parts:
            if own & family(part):
                what = "part" if token == part else f"a form of '{part}', part"
                reason = f"'{clue}' is {what} of the visible card {card}"
                return Verdict(False, "part", card, reason)
    targets = card_keys(card)
    for part in compound_parts(token):
        if family(part) & targets:
            return Verdict(
                False,
                "compound",
                card,
                f"'{clue}' is a compound of '{part}', which the visible card {card} contains",
            )
    return None


@functools.cache
def card_pieces(card: str) -> tuple[str, ...]:
    """Strings the strict rule looks for: the card's words, parts and their stems."""
    pieces = {piece for piece in card_keys(card) if len(piece) >= 3}
    for word, parts in card_anatomy(card):
        pieces.update((word, *parts))
    return tuple(sorted(pieces, key=lambda piece: (len(piece), piece)))


def _substring(clue: str, token: str, card: str) -> Verdict | None:
    for piece in card_pieces(card):
        if piece in token or token in piece:
            return Verdict(
                False,
                "substring",
                card,
                f"'{clue}' and the visible card {card} share '{min(piece, token, key=len)}'"
                " (strict rule)",
            )
    return None


def check_clue(
    clue: str, visible_cards: Sequence[str], options: CheckOptions = CheckOptions()
) -> Verdict:
    """The verdict on ``clue`` with ``visible_cards`` on the board (covered cards left out)."""
    tokens = _tokens(clue, options)
    if isinstance(tokens, Verdict):
        return tokens
    for token in tokens:
        for card in visible_cards:
            verdict = _explain(clue, token, card)
            if verdict is None and options.strict:
                verdict = _substring(clue, token, card)
            if verdict is not None:
                return verdict
    return Verdict(True, reason=f"'{clue}' is a valid clue")


class ClueChecker:
    """Batched verdicts for one word pool.

    ``forbidders(word)`` lists the pool cards that forbid a one-word clue while visible; the
    same keys as :func:`check_clue` decide it. ``valid`` answers a batch of clues at once
    from a per-word column table; ``forbid_table`` / ``invalid_mask`` serve spymasters that
    mask a whole clue vocabulary.
    """

    def __init__(self, pool: Sequence[str], options: CheckOptions = CheckOptions()):
        self.pool = tuple(pool)
        self.options = options
        self._ids: dict[str, int] = {}
        # (P, capacity) bool: column ``i`` holds the pool cards forbidding word id ``i``
        # (the first ``len(_ids)`` columns are filled).
        self._table = np.zeros((len(self.pool), 0), dtype=bool)
        # Forbid tables this checker built or read, by column: (clue index, indptr, rows),
        # the rows of every card forbidding clue i in rows[indptr[i]:indptr[i + 1]]. A word
        # of their vocabularies is answered from them, the same answer as forbidders().
        self._adopted: list[tuple[dict[str, int], np.ndarray, np.ndarray]] = []
        self._tables: dict[tuple[str, ...], ForbidTable] = {}

    @functools.cached_property
    def _index(self) -> dict[str, list[int]]:
        """Key -> rows of the cards holding it (built on first need: seconds for a pool)."""
        index: dict[str, list[int]] = {}
        for row, card in enumerate(self.pool):
            for key in card_keys(card):
                index.setdefault(key, []).append(row)
        return index

    @functools.cached_property
    def _strict_rows(self) -> tuple[dict[str, set[int]], dict[str, set[int]]]:
        """The strict rule by lookups (the same answer as _substring, card by card): rows
        of the cards holding each piece, and of the cards with a piece containing a string."""
        piece_rows: dict[str, set[int]] = {}
        inside_rows: dict[str, set[int]] = {}
        for row, card in enumerate(self.pool):
            for piece in card_pieces(card):
                piece_rows.setdefault(piece, set()).add(row)
                for start in range(len(piece)):
                    for end in range(start + 1, len(piece) + 1):
                        inside_rows.setdefault(piece[start:end], set()).add(row)
        return piece_rows, inside_rows

    def _substring_rows(self, token: str) -> set[int]:
        """Rows whose card shares a piece with ``token`` under the strict rule."""
        pieces, inside = self._strict_rows
        rows = set(inside.get(token, ()))  # the token is inside a piece
        for start in range(len(token)):  # a piece is inside the token
            for end in range(start + 1, len(token) + 1):
                rows |= pieces.get(token[start:end], set())
        return rows

    def forbidders(self, word: str) -> np.ndarray:
        """Sorted pool rows whose card forbids the clue ``word`` (all rows if not one word)."""
        verdict = _tokens(word, self.options)
        if isinstance(verdict, Verdict):
            return np.arange(len(self.pool))
        rows: set[int] = set()
        for token in verdict:
            for key in clue_keys(token):
                rows.update(self._index.get(key, ()))
            if self.options.strict:
                rows |= self._substring_rows(token)
        return np.array(sorted(rows), dtype=np.intp)

    def _forbidding_rows(self, word: str) -> np.ndarray:
        """:meth:`forbidders`, from an adopted forbid table when it holds the word."""
        for clue_index, indptr, rows in self._adopted:
            clue_id = clue_index.get(word)
            if clue_id is not None:
                return rows[indptr[clue_id] : indptr[clue_id + 1]]
        return self.forbidders(word)

    def _adopt(self, vocabulary: tuple[str, ...], table: ForbidTable) -> None:
        """Answer the words of ``vocabulary`` from ``table`` (its CSR rows turned into
        columns; rows stay sorted, as forbidders() gives them)."""
        entry_rows = np.repeat(np.arange(len(self.pool)), np.diff(table.indptr))
        order = np.argsort(table.indices, kind="stable")
        indptr = np.zeros(table.vocabulary_size + 1, dtype=np.int64)
        np.cumsum(np.bincount(table.indices, minlength=table.vocabulary_size), out=indptr[1:])
        index = {word: i for i, word in enumerate(vocabulary)}
        self._adopted.append((index, indptr, entry_rows[order]))

    def word_ids(self, words: Sequence[str]) -> np.ndarray:
        """``(B,) intp`` column ids of ``words``, adding columns for new words."""
        ids = np.empty(len(words), dtype=np.intp)
        for i, word in enumerate(words):
            index = self._ids.get(word)
            if index is None:
                index = self._ids[word] = len(self._ids)
                if index == self._table.shape[1]:  # full: twice the columns, so that a run
                    # of new words costs a copy now and then, not one per batch of clues
                    grown = np.zeros((len(self.pool), max(2 * index, 256)), dtype=bool)
                    grown[:, :index] = self._table
                    self._table = grown
                self._table[self._forbidding_rows(word), index] = True
            ids[i] = index
        return ids

    def valid(self, words: Sequence[str], cards: np.ndarray, visible: np.ndarray) -> np.ndarray:
        """``(B,) bool`` for clue ``words[b]`` on board ``cards[b]`` with ``visible[b]``."""
        ids = self.word_ids(words)
        forbidden = self._table[cards, ids[:, None]]  # (B, 25)
        return ~(forbidden & visible).any(axis=1)

    def forbid_table(self, vocabulary: Sequence[str], cache: bool = True) -> ForbidTable:
        """The (pool x vocabulary) table of forbidden clues, cached on disk by content.
        Checks of its words are answered from it from then on."""
        vocabulary = tuple(vocabulary)
        known = self._tables.get(vocabulary)
        if known is None:
            known = self._tables[vocabulary] = ForbidTable.build(self, vocabulary, cache=cache)
            self._adopt(vocabulary, known)
        return known


@dataclass(frozen=True)
class ForbidTable:
    """CSR rows: pool card ``p`` forbids clue ids ``indices[indptr[p]:indptr[p + 1]]``."""

    indptr: np.ndarray  # (P + 1,) int64
    indices: np.ndarray  # (nnz,) int32
    vocabulary_size: int

    @classmethod
    def build(cls, checker: ClueChecker, vocabulary: tuple[str, ...], cache: bool) -> ForbidTable:
        def compute() -> dict[str, np.ndarray]:
            rows, cols = [], []
            for clue_id, word in enumerate(vocabulary):
                forbidders = checker.forbidders(word)
                rows.append(forbidders)
                cols.append(np.full(len(forbidders), clue_id, dtype=np.int32))
            rows_all = np.concatenate(rows) if rows else np.zeros(0, np.intp)
            cols_all = np.concatenate(cols) if cols else np.zeros(0, np.int32)
            order = np.argsort(rows_all, kind="stable")
            indptr = np.zeros(len(checker.pool) + 1, dtype=np.int64)
            np.cumsum(np.bincount(rows_all, minlength=len(checker.pool)), out=indptr[1:])
            return {"indptr": indptr, "indices": cols_all[order]}

        arrays = cached(
            "forbid",
            (RULES_FINGERPRINT, checker.options, checker.pool, vocabulary),
            f"clue rules {RULES_FINGERPRINT}, {len(checker.pool)} cards x "
            f"{len(vocabulary)} clue words",
            compute,
            store=cache,
        )
        return cls(arrays["indptr"], arrays["indices"], len(vocabulary))

    @property
    def nnz(self) -> int:
        return len(self.indices)

    def forbidden(self, cards: np.ndarray, visible: np.ndarray, clue_ids: np.ndarray) -> np.ndarray:
        """``(B, C) bool``: clue ``clue_ids[b, c]`` is invalid on board ``b``.

        The same gather as :meth:`invalid_mask`, then a sorted search of the (game, clue)
        keys, so a spymaster checks its candidates without a dense ``(B, V)`` array.
        """
        indptr, indices = self._invalid_rows(cards, visible)
        games = np.repeat(np.arange(len(cards), dtype=np.int64), np.diff(indptr))
        keys = np.sort(games * self.vocabulary_size + indices)
        wanted = np.arange(len(clue_ids), dtype=np.int64)[:, None] * self.vocabulary_size
        wanted = wanted + clue_ids
        where = np.searchsorted(keys, wanted).clip(0, max(len(keys) - 1, 0))
        return (keys[where] == wanted) if len(keys) else np.zeros(clue_ids.shape, dtype=bool)

    def invalid_mask(self, cards: np.ndarray, visible: np.ndarray):
        """``(B, V)`` sparse bool (scipy CSR): clue ``v`` is invalid on board ``b``.

        A gather of each visible card's forbidden ids and an OR (duplicates allowed in the
        CSR rows; ``.toarray()`` gives the dense mask).
        """
        from scipy.sparse import csr_array

        indptr, indices = self._invalid_rows(cards, visible)
        data = np.ones(len(indices), dtype=bool)
        return csr_array((data, indices, indptr), shape=(len(cards), self.vocabulary_size))

    def _invalid_rows(self, cards: np.ndarray, visible: np.ndarray):
        """``(indptr, indices)`` of :meth:`invalid_mask`'s CSR rows (no scipy needed)."""
        size = cards.shape[0]
        games, slots = np.nonzero(visible)  # row-major: grouped by game
        rows = cards[games, slots]
        starts = self.indptr[rows]
        counts = self.indptr[rows + 1] - starts
        indices = self.indices[ranges(starts, counts)[1]]
        indptr = np.zeros(size + 1, dtype=np.int64)
        np.cumsum(
            np.bincount(games, weights=counts, minlength=size).astype(np.int64), out=indptr[1:]
        )
        return indptr, indices


def ranges(starts: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every index of the ranges ``starts[r] .. starts[r] + counts[r]``, in order, with the
    range ``r`` each came from: ``(owners, indices)`` (a CSR table's rows gathered)."""
    ends = np.cumsum(counts)
    total = int(ends[-1]) if len(ends) else 0
    owners = np.repeat(np.arange(len(counts)), counts)
    return owners, np.arange(total) - np.repeat(ends - counts - starts, counts)


def checker_for(pool: tuple[str, ...], options: CheckOptions = CheckOptions()) -> ClueChecker:
    """The shared :class:`ClueChecker` of a pool (its columns and forbid tables are reused
    across runs), one per pool and options however they are passed."""
    return _shared_checker(tuple(pool), options)


@functools.lru_cache(maxsize=8)
def _shared_checker(pool: tuple[str, ...], options: CheckOptions) -> ClueChecker:
    return ClueChecker(pool, options)


def variant_options(variant) -> CheckOptions:
    """The clue rules of a variant: the strict rule with the experts option (RULES section 1:
    a clue may not contain a card's name or any part of it)."""
    return CheckOptions(strict=bool(getattr(variant, "experts", False)))


def variant_checker(variant, pool: tuple[str, ...]) -> ClueChecker:
    """The shared checker of ``pool`` under ``variant``'s clue rules."""
    return checker_for(pool, variant_options(variant))
