"""Word families for the clue checker: inflections, derivations and compound parts.

- Inflections come from lemminflect (break / broke / broken / breaking; geese -> goose) and
  WordNet's lists of irregular forms (oxen -> ox, which lemminflect does not know).
- Derivations: a small set of suffixes with English spelling rules (consonant doubling
  slug -> sluggish, e-drop dance -> dancing, y -> i happy -> happiness). A stripped stem must
  be a common word (wordfreq), and a derived word far more frequent than its "stem" is not
  derived from it (mother is not moth + -er).
- Compounds: a word splits into two parts when both are common words of at least 3 letters
  (wordfreq's English list), never into fragments (GRAVEYARD -> grave + yard, not g + rave).
  The right-hand part of a word that is itself a base form may be inflected (HOGWARTS ->
  hog + warts, HANDMADE -> hand + made); an inflected word splits only by its lemma
  (expelled is expel + -ed, not expel + led). Prefixes are not parts: UNICORN is uni- +
  Latin cornu, not a compound of the English word corn (the strict rule still refuses
  ``corn`` by its letters).

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
    pre dis non mis sub ion uni""".split()
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


def is_english(word: str) -> bool:
    """Rule 6 of RULES section 4 (English words, or foreign words used in English), as far as
    word lists can tell: wordfreq's English list (which holds common names and borrowings),
    lemminflect's dictionary or WordNet's irregular forms know the lower-case word."""
    return zipf(word) > 0 or in_lexicon(word) or word in irregular_bases()


def is_word(word: str, threshold: float = WORD_ZIPF) -> bool:
    return len(word) >= MIN_PART and zipf(word) >= threshold


@functools.cache
def lemmas(word: str) -> frozenset[str]:
    """The word and its lemmas under every part of speech (lemminflect)."""
    from lemminflect import getAllLemmas, getAllLemmasOOV

    found = {word, *irregular_bases().get(word, ())}
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


@functools.lru_cache(maxsize=1)
def irregular_bases() -> dict[str, tuple[str, ...]]:
    """WordNet 3.0's irregular inflections (``noun.exc``, ``verb.exc``, ``adj.exc``): form ->
    its base forms (oxen -> ox, better -> good). About 6,000 lines, read in milliseconds."""
    from codebots.lexicon import wordnet_dir  # the lexicon module needs this one loaded

    bases: dict[str, tuple[str, ...]] = {}
    for part_of_speech in ("noun", "verb", "adj", "adv"):
        for line in (wordnet_dir() / f"{part_of_speech}.exc").read_text().splitlines():
            form, *lemmas_of_form = line.split()
            if form.isalpha():
                found = (*bases.get(form, ()), *(b for b in lemmas_of_form if b.isalpha()))
                bases[form] = tuple(dict.fromkeys(found))
    return bases


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


def part_score(part: str, both_short: bool = False, last: bool | str = False) -> float:
    """Zipf frequency of a possible compound part, or 0 if it cannot be one.

    A part is a dictionary word: in lemminflect's lexicon, or common (Zipf >= 3.6, which
    admits poly- but not names such as Cher). Short parts must be commoner still, and when
    both parts have 3 letters, commoner again (tea + pot, not car + rot). The last part is a
    base form (expel + led is no compound; the first may be inflected: were + wolf), or with
    ``last="inflected"`` (the end of a word that is itself a base form) a base form or a
    :func:`compound_inflection` (hog + warts).
    """
    frequency = zipf(part)
    if len(part) < MIN_PART or frequency < WORD_ZIPF:
        return 0.0
    if frequency < LEXICON_FREE_ZIPF and not in_lexicon(part):
        return 0.0
    if last is True and not is_base_form(part):  # expel + led is no compound; were + wolf is
        return 0.0
    if last == "inflected" and not (is_base_form(part) or compound_inflection(part)):
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


COMPOUND_INFLECTIONS = ("NNS", "VBG", "VBN")  # warts, keeping, made: not led, taller


@functools.cache
def compound_inflection(part: str) -> bool:
    """Whether ``part`` may end a compound as an inflected word: a plural, a gerund or a
    participle of at least four letters whose lemma is no suffix-like word (hog + warts, book
    + keeping, hand + made; not car + men, tang + led, bill + ions), and not a
    y-plural (kiddies, nineties: the plural of a -y word, not kid + dies, nine + ties)."""
    from lemminflect import getAllInflections, getAllLemmas

    if len(part) < 4 or part.endswith(("ies", "ied")):  # kiddies is no kid + dies
        return False
    for forms in getAllLemmas(part).values():
        for lemma in forms:
            inflections = getAllInflections(lemma)
            tagged = any(part in inflections.get(tag, ()) for tag in COMPOUND_INFLECTIONS)
            if tagged and lemma not in NOT_PARTS and len(lemma) >= MIN_PART:
                return True
    return False


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
        # A base form may end in an inflected word (hogwarts, handmade); an inflected form
        # is split by its lemma only (expelled -> expel, never expel + led).
        base = is_base_form(form) and not irregular_bases().get(form)
        for cut in range(MIN_PART, len(form) - MIN_PART + 1):
            left, right = form[:cut], form[cut:]
            if left in NOT_PARTS or right in NOT_PARTS:
                continue
            both_short = len(left) == len(right) == MIN_PART
            right_score = part_score(right, both_short, last="inflected" if base else True)
            if right_score and not is_base_form(right) and len(left) == MIN_PART:
                # Before an inflected part a 3-letter part must be in the dictionary: hog +
                # warts, but not sam + sung, pic + kings.
                right_score *= in_lexicon(left)
            scores = [part_score(left, both_short), right_score]
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
