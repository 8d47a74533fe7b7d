"""Word pools (the cards a board is dealt from) and clue vocabularies.

Pools live in ``data/wordlists/<name>.txt``: one card per line, UTF-8. They are validated on
load; a bad pool is a one-line :class:`~codebots.errors.CodebotsError` naming the file, the
line and the fix.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from codebots.errors import CodebotsError

DATA_DIR = Path(os.environ.get("CODEBOTS_DATA", Path(__file__).resolve().parents[1] / "data"))
WORDLIST_DIR = DATA_DIR / "wordlists"
DEFAULT_POOL = "competition"
MIN_POOL_SIZE = 25
_CARD_PATTERN = re.compile(r"^[A-Za-z]+( [A-Za-z]+)*$")


@dataclass(frozen=True)
class WordPool:
    """A validated pool of cards, in file order (the order matters for competition boards)."""

    name: str
    path: Path
    words: tuple[str, ...]
    key_to_index: dict[str, int] = field(repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.words)

    def index(self, word: str) -> int:
        """Index of ``word`` (case-insensitive); a clear error if it is not in the pool."""
        try:
            return self.key_to_index[word.strip().upper()]
        except KeyError:
            raise CodebotsError(
                f"'{word}' is not a card of the pool '{self.name}' ({self.path}); "
                "check the spelling or pick a card from that file"
            ) from None


def available_pools() -> list[str]:
    return sorted(path.stem for path in WORDLIST_DIR.glob("*.txt"))


def pool_path(name_or_path: str | os.PathLike) -> Path:
    """Resolve a pool name (``competition``) or a file path to an existing file."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".txt" or candidate.exists():
        if candidate.is_dir():
            raise CodebotsError(
                f"word pool {candidate} is a folder; give a text file with one card per line"
            )
        if not candidate.is_file():
            raise CodebotsError(f"word pool file {candidate} does not exist")
        return candidate
    named = WORDLIST_DIR / f"{name_or_path}.txt"
    if not named.is_file():
        known = ", ".join(available_pools()) or "(none found)"
        raise CodebotsError(
            f"unknown word pool '{name_or_path}'; known pools: {known} (or give a .txt path)"
        )
    return named


def parse_pool(lines: list[str], source: str) -> tuple[str, ...]:
    """Validate pool lines; return the cards upper-cased. Raises CodebotsError."""
    cards: list[str] = []
    first_seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        card = raw.strip()
        if not card:
            raise CodebotsError(f"{source}: line {number} is blank; remove blank lines")
        if not _CARD_PATTERN.match(card):
            raise CodebotsError(
                f"{source}: line {number} '{card}' must be words of letters separated by "
                "single spaces"
            )
        upper = card.upper()
        if upper in first_seen:
            raise CodebotsError(
                f"{source}: line {number} '{card}' duplicates line {first_seen[upper]}; "
                "each card may appear once"
            )
        first_seen[upper] = number
        cards.append(upper)
    if len(cards) < MIN_POOL_SIZE:
        raise CodebotsError(
            f"{source}: {len(cards)} distinct cards, a board needs at least {MIN_POOL_SIZE}"
        )
    return tuple(cards)


@functools.lru_cache(maxsize=16)
def load_pool(name_or_path: str | os.PathLike = DEFAULT_POOL) -> WordPool:
    """Load and validate a word pool by name (``data/wordlists``) or path."""
    path = pool_path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is not a letter
    except UnicodeDecodeError as error:
        raise CodebotsError(
            f"{path}: byte {error.start} is not UTF-8 text; save the pool as UTF-8"
        ) from None
    except OSError as error:
        raise CodebotsError(f"cannot read word pool {path}: {error.strerror}") from None
    words = parse_pool(text.splitlines(), str(path))
    name = path.stem if path.parent == WORDLIST_DIR else str(path)
    return WordPool(name, path, words, {word: i for i, word in enumerate(words)})


# Function words that can never be clues, on top of the length filter.
_FUNCTION_WORDS = frozenset(
    """about above after again against all also although among and any are because been before
    being below between both but can cannot could did does doing done down during each either
    else ever every few for from further had has have having her here hers herself him himself
    his how however into its itself just least less many may might mine more most much must
    myself neither nor not now off once only other ought our ours ourselves out over own per
    rather same shall she should since some such than that the their theirs them themselves
    then there these they this those though through thus till too under unless until upon very
    was were what whatever when where whether which while who whom whose why will with within
    without would yet you your yours yourself yourselves""".split()
)


@functools.lru_cache(maxsize=1)
def offensive_words() -> frozenset[str]:
    """Words a bot must never say (``data/filters/offensive.txt``), lower case."""
    path = DATA_DIR / "filters" / "offensive.txt"
    lines = path.read_text(encoding="utf-8").split() if path.exists() else []
    return frozenset(line.strip().lower() for line in lines if line.strip())


def vocabulary_fingerprint() -> str:
    """What :func:`clue_vocabulary` depends on (this module's code, the offensive-word list,
    wordfreq's version), for the keys of cached vocabularies."""
    import hashlib
    from importlib.metadata import version

    offensive = DATA_DIR / "filters" / "offensive.txt"
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(offensive.read_bytes() if offensive.exists() else b"")
    digest.update(version("wordfreq").encode())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=8)
def clue_vocabulary(size: int = 50_000, require: frozenset[str] | None = None) -> tuple[str, ...]:
    """The clue vocabulary: the ``size`` most frequent usable English words (wordfreq).

    Alphabetic ASCII, at least 3 letters, lower case, no function words, no offensive
    words, and (with ``require``) present in every model in use. Frequency order.
    """
    from wordfreq import top_n_list

    banned = _FUNCTION_WORDS | offensive_words()
    words: list[str] = []
    for word in top_n_list("en", size * 4):
        if not (word.isascii() and word.isalpha() and len(word) >= 3 and word.islower()):
            continue
        if word in banned or (require is not None and word not in require):
            continue
        words.append(word)
        if len(words) == size:
            break
    return tuple(words)
