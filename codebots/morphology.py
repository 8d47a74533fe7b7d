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

WORD_ZIPF = 3.0  # a "word" for stems and compound parts: wordfreq Zipf frequency >= 3
SHORT_PART_ZIPF = 3.5  # 3-letter compound parts must be commoner (tar, ato, hor are not)
BOTH_SHORT_ZIPF = 4.0  # ... and commoner still when both parts have 3 letters
LEXICON_FREE_ZIPF = 3.6  # parts outside lemminflect's lexicon must be at least this common
MIN_PART = 3
DERIVED_MARGIN = 0.8  # a derived word may be at most this much more frequent than its stem
# Adverbs in -ly are rarely much commoner than their adjective (belly is not bel + -ly).
SUFFIX_MARGIN = {"ly": 0.5}
COMPOUND_MARGIN = 0.5

DERIVATIONAL_SUFFIXES = (
    "ness", "less", "ful", "fully", "ish", "ishly", "ly", "y", "er", "ers", "est", "ed",
    "ing", "ings", "age", "ment", "ments", "able", "ible", "ity", "ous", "ive", "ism", "ist",
    "ists", "ize", "ise", "dom", "hood", "ship", "ery", "ate", "ess",
)  # fmt: skip
MIN_STEM = {"ate": 4}  # doctorate -> doctor, but palate is not pal + -ate
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
    if not known and word.endswith(("s", "ed", "ing")):
        # Out of lemminflect's lexicon: regular inflections only, kept if they are words.
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
    if suffix == "y" and base.endswith("er"):
        candidates.append(base[:-2] + "re")  # fiery -> fire
    if suffix == "ly" and base[-1:] in ("b", "d", "g", "k", "p", "t"):
        candidates.append(base + "le")  # gently -> gentle, humbly -> humble
    if suffix not in ("ly", "ful", "fully", "less", "ness", "ment", "ments") or (
        suffix == "ly" and base.endswith("u")
    ):
        candidates.append(base + "e")  # e-drop before a vowel: dancing -> dance; truly -> true
    return candidates


@functools.cache
def derivational_stems(word: str) -> frozenset[str]:
    """Common words that ``word`` derives from by one suffix (with spelling rules).

    For each suffix only the commonest spelling that gives a word counts (horned -> horn,
    not also the name Horne; starry -> star, not Starr).
    """
    stems = set()
    for suffix in DERIVATIONAL_SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < MIN_STEM.get(
            suffix, MIN_PART - 1
        ):
            continue
        words = [stem for stem in _stem_candidates(word, suffix) if stem != word and is_word(stem)]
        if words:
            stem = max(words, key=zipf)
            if zipf(word) <= zipf(stem) + SUFFIX_MARGIN.get(suffix, DERIVED_MARGIN):
                stems.add(stem)
    return frozenset(stems)


@functools.cache
def family(word: str) -> frozenset[str]:
    """Keys shared by a word and its inflections and derivations (lower-case input).

    Derivations: the suffix rules above, and WordNet's derivation links between words that
    share a stem (``codebots.lexicon.derivations``: africa/african, china/chinese).
    """
    from codebots.lexicon import derivations  # the lexicon module needs this one loaded

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
    # WordNet's derivations join one step, never expanded further: chained with the suffix
    # rules they would reach too far (grave -> gravely -> gravel + y).
    linked = derivations()
    for member in tuple(members):
        members |= linked.get(member, frozenset())
    return frozenset(members)


def part_score(part: str, both_short: bool = False, last: bool = False) -> float:
    """Zipf frequency of a possible compound part, or 0 if it cannot be one.

    A part is a dictionary word: in lemminflect's lexicon, or common (Zipf >= 3.6, which
    admits poly- but not names such as Cher). Short parts must be commoner still, and when
    both parts have 3 letters, commoner again (tea + pot, not car + rot). The last part is a
    base form (expel + led is no compound; the first may be inflected: were + wolf).
    """
    frequency = zipf(part)
    if len(part) < MIN_PART or frequency < WORD_ZIPF:
        return 0.0
    if frequency < LEXICON_FREE_ZIPF and not in_lexicon(part):
        return 0.0
    if last and not is_base_form(part):  # expel + led is no compound; were + wolf is
        return 0.0
    if len(part) == MIN_PART and frequency < (BOTH_SHORT_ZIPF if both_short else SHORT_PART_ZIPF):
        return 0.0
    return frequency


@functools.cache
def is_base_form(word: str) -> bool:
    """False for inflected forms (led, works, shoes): compounds are split on base forms."""
    from lemminflect import getAllLemmas

    known = getAllLemmas(word)
    return not known or any(word in forms for forms in known.values())


@functools.cache
def in_lexicon(word: str) -> bool:
    """Whether lemminflect's dictionary knows the word (names and fragments are not in it)."""
    from lemminflect import getAllInflections, getAllLemmas

    return bool(getAllLemmas(word) or getAllInflections(word))


@functools.cache
def compound_parts(word: str) -> tuple[str, ...]:
    """The two parts of a closed compound (``graveyard`` -> grave, yard), or ``()``.

    Both parts must be common words of at least 3 letters (3-letter parts: commoner still),
    neither a suffix-like or function word, and the compound not much commoner than its
    commoner part; of several splits the one whose rarer part is commonest wins. The word's
    lemmas are split too (``snowshoes`` -> snow, shoe).
    """
    best: tuple[float, tuple[str, ...]] = (0.0, ())
    for form in sorted(lemmas(word)):
        for cut in range(MIN_PART, len(form) - MIN_PART + 1):
            left, right = form[:cut], form[cut:]
            if left in NOT_PARTS or right in NOT_PARTS:
                continue
            both_short = len(left) == len(right) == MIN_PART
            scores = [
                part_score(left, both_short),
                part_score(right, both_short, last=True),
            ]
            score = min(scores)
            # A compound is not much commoner than its commoner part (million is not mil+lion).
            if zipf(form) > max(scores) + COMPOUND_MARGIN:
                continue
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
