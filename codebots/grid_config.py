"""Grids to evaluate: a cell (one pairing on one variant, a run of seeds) with the id its
cached results are kept under, pairs as written (``spymaster:guesser``, Duet seats
``seat0/seat1``) and the config file (TOML or JSON) of a grid::

    name = "replication-2019"
    variants = ["single-team-2019"]
    pairs = ["glove:glove", "nearest:glove"]
    games = 1000
    seed = 0

Every problem with a config is a one-line error naming the file and the key.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tomllib
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from codebots.cache import recorded_meta
from codebots.errors import CodebotsError
from codebots.files import plain_name
from codebots.keys import MAX_GAMES, MAX_SEED
from codebots.variants import get_variant

CONFIG_KEYS = {
    "name": str,
    "variants": list,
    "pairs": list,
    "games": int,
    "seed": int,
    "partner_memory": str,  # optional: every spymaster plays with this memory (codebots watch)
}
OPTIONAL_KEYS = {"seed", "partner_memory"}
KIND_NAMES = {str: "a string", list: "a list", int: "an integer"}
EXAMPLES = {"variants": '["single-team-2019", "duet"]', "pairs": '["glove:glove"]'}


@functools.cache
def minds_fingerprint() -> str:
    """What every panel mind's vectors are (package versions, encoding, gloss training),
    without loading them."""
    from codebots.embeddings import model_fingerprint
    from codebots.minds import PANEL

    return repr([model_fingerprint(mind) for mind in PANEL])


PACKAGE = Path(__file__).resolve().parent
# The code that decides a cell's games: the agents (and the Duet reader's fitted weights),
# the engine, the rules and everything the agents' tables are built with. Reports, the CLI
# and the web pages are left out: editing them changes no game, so it replays no cell.
GAME_CODE = (
    "agents",
    "engine",
    "arena.py",
    "bonus_moves.py",
    "embeddings.py",
    "encoding_packs.py",
    "gguf.py",
    "gguf_bert.py",
    "gloss_vectors.py",
    "keys.py",
    "lexicon.py",
    "minds.py",
    "missions.py",
    "morphology.py",
    "packed_vectors.py",
    "prebuilt",  # the shipped vectors (their records: what they hold, checksummed)
    "validity.py",
    "variants.py",
    "vocab.py",
    "word_store.py",
    "word_vectors.py",
)


def _content(file: Path) -> bytes:
    """A code file's bytes; a shipped table's record (its key and its arrays' checksum),
    not its megabytes."""
    return recorded_meta(file) if file.suffix == ".npz" else file.read_bytes()


@functools.cache
def code_fingerprint(root: Path | None = None) -> str:
    """A hash of the game code under ``root`` (the package by default; :data:`GAME_CODE`:
    every ``.py`` and ``.json`` file of it, and the shipped tables' records), so that a cell
    cached before an agent, the engine or the shipped vectors changed is played again rather
    than reported as the new code's."""
    root = PACKAGE if root is None else root
    digest = hashlib.sha256()
    for entry in GAME_CODE:
        path = root / entry
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.suffix in (".py", ".json", ".npz") and file.is_file():
                digest.update(file.relative_to(root).as_posix().encode() + b"\0")
                digest.update(_content(file) + b"\0")
    return digest.hexdigest()


@dataclass(frozen=True)
class Cell:
    variant: str
    spymaster: str
    guesser: str
    games: int
    seed: int = 0
    partner_memory: str = ""  # a PartnerMemory file the spymaster uses ("" none)
    partner_digest: str = ""  # its content hash: a changed file is another cell
    seats: bool = False  # Duet: spymaster and guesser name the two seats (players)

    @property
    def id(self) -> str:
        # The memory counts by its content, not where the file is; the variant by the rules
        # its label resolves to, so a changed registered rule never reuses an old cell; the
        # panel's models by what their vectors are, so a cell cached before new vectors or a
        # new way of encoding (codebots.embeddings.model_fingerprint) is played again; the
        # game code by its source, so a cell of an older agent or engine is played again too.
        fields = asdict(self)
        del fields["partner_memory"]
        for optional in ("partner_digest", "seats"):  # unset: the ids of older cells
            if not fields[optional]:
                del fields[optional]
        fields["rules"] = get_variant(self.variant).rules
        fields["minds"] = minds_fingerprint()  # new vectors or encodings: other games
        fields["code"] = code_fingerprint()  # another agent or engine: other games
        digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()
        joint = "~" if self.seats else "-"
        readable = f"{self.variant}-{self.spymaster}{joint}{self.guesser}".replace("/", "_")
        return f"{readable}-{digest[:12]}"

    @property
    def label(self) -> str:
        """The variant label the rows record (options in their canonical form)."""
        return get_variant(self.variant).label

    @property
    def spymaster_label(self) -> str:
        """The spymaster name the rows record: with a partner memory, its file's hash."""
        if not self.partner_memory:
            return self.spymaster
        return f"{self.spymaster}+partner-{self.partner_digest[:8]}"


@dataclass(frozen=True)
class GridConfig:
    name: str
    variants: tuple[str, ...]
    pairs: tuple[str, ...]
    games: int
    seed: int = 0
    partner_memory: str | None = None

    def cells(self) -> list[Cell]:
        memory, digest = "", ""
        if self.partner_memory:
            path = Path(self.partner_memory)
            if not path.is_file():
                raise CodebotsError(
                    f"partner memory {path} does not exist; make one with codebots watch"
                )
            memory, digest = str(path.resolve()), hashlib.sha256(path.read_bytes()).hexdigest()
        out = []
        for variant in self.variants:
            for pair in self.pairs:
                first, second, seats = split_pair(pair)
                out.append(
                    Cell(variant, first, second, self.games, self.seed, memory, digest, seats)
                )
        return out


def split_pair(pair: str) -> tuple[str, str, bool]:
    """``spymaster:guesser`` (roles) or ``seat0/seat1`` (Duet players): (first, second,
    seats)."""
    seats = "/" in pair and ":" not in pair
    first, sep, second = pair.partition("/" if seats else ":")
    if not sep or not first.strip() or not second.strip():
        raise CodebotsError(
            f"pair '{pair}' must be spymaster:guesser (e.g. glove:minilm) or, in Duet, "
            "two seats player0/player1 (e.g. glove/minilm)"
        )
    return first.strip(), second.strip(), seats


def parse_pairs(pairs: Iterable[str]) -> tuple[str, ...]:
    clean = tuple(p.strip() for p in pairs if p.strip())
    for pair in clean:
        split_pair(pair)
    if not clean:
        raise CodebotsError("no pairs given; e.g. glove:glove")
    return clean


def load_config(path: str | os.PathLike) -> GridConfig:
    """Read a grid config (TOML or JSON); every problem is a one-line error naming the file."""
    path = Path(path)
    if not path.is_file():
        what = "is a folder" if path.is_dir() else "does not exist"
        raise CodebotsError(f"config file {path} {what}")
    try:
        text = path.read_text(encoding="utf-8-sig")
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except UnicodeDecodeError:
        raise CodebotsError(f"{path}: not UTF-8 text; save the config as UTF-8") from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        kind = "JSON" if path.suffix == ".json" else "TOML"
        raise CodebotsError(f"{path}: not valid {kind}: {error}") from None
    except OSError as error:
        raise CodebotsError(f"cannot read config file {path}: {error.strerror}") from None
    if not isinstance(data, dict):
        raise CodebotsError(f"{path}: a config is a table of keys ({', '.join(CONFIG_KEYS)})")
    unknown = sorted(set(data) - set(CONFIG_KEYS))
    if unknown:
        raise CodebotsError(
            f"{path}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(CONFIG_KEYS)}"
        )
    for key, kind in CONFIG_KEYS.items():
        if key not in data and key not in OPTIONAL_KEYS:
            raise CodebotsError(f"{path}: missing key '{key}'")
        if key in data and (not isinstance(data[key], kind) or isinstance(data[key], bool)):
            raise CodebotsError(f"{path}: '{key}' must be {KIND_NAMES[kind]}, got {data[key]!r}")
    for key in ("variants", "pairs"):
        items = data[key]
        if not items or not all(isinstance(item, str) and item.strip() for item in items):
            raise CodebotsError(
                f"{path}: '{key}' must be a non-empty list of strings, e.g. {EXAMPLES[key]}"
            )
    games, seed = data["games"], data.get("seed", 0)
    if games < 1:
        raise CodebotsError(f"{path}: 'games' must be at least 1, got {games}")
    if games > MAX_GAMES:
        raise CodebotsError(f"{path}: 'games' must be at most {MAX_GAMES:,}, got {games:,}")
    if not 0 <= seed <= MAX_SEED - games + 1:
        raise CodebotsError(
            f"{path}: 'seed' must be from 0 to {MAX_SEED - games + 1} (the last game's seed "
            f"stays below 2**63), got {seed}"
        )
    try:
        variants = tuple(label.strip() for label in data["variants"])
        for label in variants:
            get_variant(label)
        pairs = parse_pairs(data["pairs"])
        name = plain_name(f"{path}: 'name'", data["name"])
    except CodebotsError as error:
        message = str(error)
        prefixed = message if message.startswith(str(path)) else f"{path}: {message}"
        raise CodebotsError(prefixed) from None
    return GridConfig(
        name=name,
        variants=variants,
        pairs=pairs,
        games=games,
        seed=seed,
        # A relative memory path is relative to the config file.
        partner_memory=str(path.parent / data["partner_memory"])
        if "partner_memory" in data
        else None,
    )
