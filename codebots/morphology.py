"""Word families for the clue checker: inflections, derivations and compound parts.

- Inflections come from lemminflect (break / broke / broken / breaking; geese -> goose).
- Derivations: a small set of suffixes with English spelling rules (consonant doubling
  slug -> sluggish, e-drop dance -> dancing, y -> i happy -> happiness). A stripped stem must
  be a common word (wordfreq), and a derived word far more frequent than its "stem" is not
  derived from it (mother is not moth + -er).
- Compounds: a word splits into two parts when both are common words of at least 3 letters
  (wordfreq's English list), never into fragments (GRAVEYARD -> grave + yard, not g + rave).

The *family* of a word is the set of keys it shares with its forms; two words are forms of
each other exactly when their families intersect. Every function here is cached.
"""

from __future__ import annotations

import functools
import math

VERSION = 1  # bump when the rules below change: it invalidates cached forbid tables

WORD_ZIPF = 3.0  # a "word" for stems and compound parts: wordfreq Zipf frequency >= 3
SHORT_PART_ZIPF = 3.5  # 3-letter compound parts must be commoner (tar, ato, hor are not)
MIN_PART = 3
DERIVED_MARGIN = 0.8  # a derived word may be at most this much more frequent than its stem
# Adjectives in -y are rarer than their nouns (sunny < sun, icy < ice); carry is not car + y.
SUFFIX_MARGIN = {"y": -0.8, "ly": 0.5}

DERIVATIONAL_SUFFIXES = (
    "ness", "less", "ful", "fully", "ish", "ishly", "ly", "y", "er", "ers", "est", "ed",
    "ing", "ings", "age", "ment", "ments", "able", "ible", "ity", "ous", "ive", "ism", "ist",
    "ists", "ize", "ise", "dom", "hood", "ship", "ery",
)  # fmt: skip
# Right-hand "parts" that are really suffixes (man+age, mess+age), and function words that
# make false compounds (for+get, how+ever).
NOT_PARTS = frozenset(
    """age ate ant ent ion ism ist ity ous ive ery ship hood dom ment ness less ful able ible
    ward wards wise ish ess ure ance ence let ling ize ise est ers ier ies ing ings
    for her his him its how now the and but not any you our who was are can per con pro com
    pre dis non mis sub ion""".split()
)
_VOWELS = set("aeiou")


@functools.lru_cache(maxsize=1)
def _zipf_table() -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return {
        word: math.log10(freq) + 9.0
        for word, freq in get_frequency_dict("en").items()
        if word.isalpha()
    }


def zipf(word: str) -> float:
    """wordfreq's Zipf frequency of a lower-case word (0 if unknown)."""
    return _zipf_table().get(word, 0.0)


def is_word(word: str, threshold: float = WORD_ZIPF) -> bool:
    return len(word) >= MIN_PART and zipf(word) >= threshold


@functools.cache
def lemmas(word: str) -> frozenset[str]:
    """The word and its lemmas under every part of speech (lemminflect)."""
    from lemminflect import getAllLemmas, getAllLemmasOOV

    found = {word}
    known = getAllLemmas(word)
    for forms in known.values():
        found.update(forms)
    if not known:  # out of vocabulary: rule-based lemmas, kept only if they are words
        for upos in ("NOUN", "VERB"):
            for lemma in getAllLemmasOOV(word, upos).get(upos, ()):
                if lemma == word or zipf(lemma) > 0:
                    found.add(lemma)
    return frozenset(form.lower() for form in found if form.isalpha())


def _stem_candidates(word: str, suffix: str) -> list[str]:
    """Possible stems before ``suffix`` under English spelling rules."""
    base = word[: -len(suffix)]
    candidates = [base]
    if len(base) >= 2 and base[-1] == base[-2] and base[-1] not in _VOWELS:
        candidates.append(base[:-1])  # doubling: sluggish -> slug, potting -> pot
    if base.endswith("i"):
        candidates.append(base[:-1] + "y")  # happiness -> happy, carried -> carry
    if suffix == "ly" and base[-1:] in ("b", "d", "g", "k", "p", "t"):
        candidates.append(base + "le")  # gently -> gentle, humbly -> humble
    candidates.append(base + "e")  # e-drop: dancing -> dance
    return candidates


@functools.cache
def derivational_stems(word: str) -> frozenset[str]:
    """Common words that ``word`` derives from by one suffix (with spelling rules).

    For each suffix only the commonest spelling that gives a word counts (horned -> horn,
    not also the name Horne; starry -> star, not Starr).
    """
    stems = set()
    for suffix in DERIVATIONAL_SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < MIN_PART - 1:
            continue
        words = [stem for stem in _stem_candidates(word, suffix) if stem != word and is_word(stem)]
        if words:
            stem = max(words, key=zipf)
            if zipf(word) <= zipf(stem) + SUFFIX_MARGIN.get(suffix, DERIVED_MARGIN):
                stems.add(stem)
    return frozenset(stems)


@functools.cache
def family(word: str) -> frozenset[str]:
    """Keys shared by a word and its inflections and derivations (lower-case input)."""
    members: set[str] = set()
    frontier = {word}
    for _ in range(3):  # word -> lemma -> stem -> lemma of the stem ...
        new = set()
        for form in frontier:
            new |= lemmas(form)
            new |= derivational_stems(form)
        new -= members
        members |= new | frontier
        frontier = new
        if not frontier:
            break
    return frozenset(members)


@functools.cache
def compound_parts(word: str) -> tuple[str, ...]:
    """The two parts of a closed compound (``graveyard`` -> grave, yard), or ``()``.

    Both parts must be common words of at least 3 letters (3-letter parts: commoner still),
    neither a suffix-like or function word; of several splits the one whose rarer part is
    commonest wins. The word's lemmas are split too (``snowshoes`` -> snow, shoe).
    """
    best: tuple[float, tuple[str, ...]] = (0.0, ())
    for form in sorted(lemmas(word)):
        for cut in range(MIN_PART, len(form) - MIN_PART + 1):
            left, right = form[:cut], form[cut:]
            if left in NOT_PARTS or right in NOT_PARTS:
                continue
            scores = []
            for part in (left, right):
                threshold = SHORT_PART_ZIPF if len(part) == MIN_PART else WORD_ZIPF
                scores.append(zipf(part) if is_word(part, threshold) else 0.0)
            score = min(scores)
            if score > best[0]:
                best = (score, (left, right))
    return best[1]


def words_of(text: str) -> tuple[str, ...]:
    """Lower-case alphabetic words of a card or a relaxed clue (``House-Elf`` -> house, elf)."""
    out, current = [], []
    for char in text.lower():
        if char.isalpha():
            current.append(char)
        elif current:
            out.append("".join(current))
            current = []
    if current:
        out.append("".join(current))
    return tuple(out)
