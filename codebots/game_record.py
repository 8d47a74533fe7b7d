"""Game records of ``codebots play``: JSON Lines, a ``start`` header and one line per move.

Reading checks every line's form and names the first bad one; a record whose only damage
is a cut-off last line (what a crash in the middle of a write by another program, or a
copy, leaves) is read up to its last whole move. Whether each move is *legal* is checked
by :meth:`codebots.play.Session.load`, which replays them.

Writing never replaces another game: a new record is created exclusively (a file already
there is an error naming ``--save`` and ``--resume``), later saves replace it atomically.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from codebots.errors import CodebotsError
from codebots.files import UMASK
from codebots.keys import MAX_SEED

RECORD_VERSION = 1
HEADER_FIELDS = {"variant": str, "seed": int, "role": str, "spymaster": str, "guesser": str}
MOVE_TYPES = ("clue", "guess", "cover", "turn")  # turn: a Duet choice of who acts next
MOVERS = ("human", "ai")


@dataclass
class GameRecord:
    header: dict
    moves: list[dict] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # the file line of each move
    cut_off: int | None = None  # the line number of a cut-off last line that was dropped


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _move_problem(move: dict) -> str | None:
    """What is wrong with the form of one move (None: nothing)."""
    kind = move.get("type")
    if kind not in MOVE_TYPES:
        return f"has no move type (clue, guess, cover or turn), but {json.dumps(kind)}"
    if move.get("by") not in MOVERS:
        return "does not say who moved ('by': human or ai)"
    if not isinstance(move.get("word"), str):
        return f"a {kind} without its 'word'"
    if kind == "clue":
        if not _is_int(move.get("number")):
            return "a clue without an integer 'number'"
        if not isinstance(move.get("valid", True), bool):
            return "a clue whose 'valid' is not true/false"
    elif kind == "turn":
        if move.get("next") not in MOVERS:
            return "a turn choice without 'next' (human or ai)"
    elif not _is_int(move.get("card")):
        return f"a {kind} without an integer 'card'"
    return None


def _header_problem(header: dict) -> str | None:
    if header.get("type") != "start":
        return "its first line is not a start line"
    if header.get("version", RECORD_VERSION) != RECORD_VERSION:
        return f"it is a version {header.get('version')} record; this codebots reads version 1"
    for name, kind in HEADER_FIELDS.items():
        value = header.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"its start line lacks '{name}'"
    if not 0 <= header["seed"] <= MAX_SEED:
        return "its start line has a seed outside 0 .. 2**63-1"
    campaign = header.get("campaign")
    if campaign is not None and not (
        isinstance(campaign, dict)
        and isinstance(campaign.get("path"), str)
        and isinstance(campaign.get("mission"), str)
        and isinstance(campaign.get("bonuses"), list)
    ):
        return "its campaign entry lacks path, mission or bonuses"
    return None


def read_record(path: str | os.PathLike) -> GameRecord:
    """The header and moves of a record; a one-line error naming the bad line otherwise."""
    path = Path(path)
    if path.is_dir():
        raise CodebotsError(f"{path} is a folder, not a game record")
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise CodebotsError(f"game record {path} does not exist") from None
    except OSError as error:
        raise CodebotsError(f"cannot read the game record {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise CodebotsError(f"{path} is not UTF-8 text, so not a codebots game record") from None
    numbered = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
    if not numbered:
        raise CodebotsError(f"{path} is empty, not a codebots game record")
    record = None
    for position, (number, line) in enumerate(numbered):
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            # Every line play writes ends with a newline: a last line without one, that
            # does not parse, was cut off in the middle of a write.
            last = position == len(numbered) - 1 and not text.endswith("\n")
            if last and record is not None:
                record.cut_off = number
                break
            raise CodebotsError(
                f"{path} line {number} is not a JSON object ({error.msg}); the record is damaged"
            ) from None
        if not isinstance(item, dict):
            raise CodebotsError(f"{path} line {number} is not a JSON object; the record is damaged")
        if record is None:
            problem = _header_problem(item)
            if problem:
                raise CodebotsError(f"{path} is not a codebots game record: {problem}")
            record = GameRecord(item)
            continue
        problem = _move_problem(item)
        if problem:
            raise CodebotsError(f"{path} line {number}: {problem}; the record is damaged")
        record.moves.append(item)
        record.lines.append(number)
    return record


def record_text(header: dict, moves: list[dict]) -> str:
    return "\n".join(json.dumps(line) for line in [header, *moves]) + "\n"


def create_record(path: str | os.PathLike, text: str) -> Path:
    """Write a new record at ``path``, which must not exist yet (never replaces a game).

    Written to a temporary file and linked into place, so the record appears whole and an
    existing file, even one made a moment ago by another process, is never touched.
    """
    path = Path(path)
    if path.is_dir():
        raise CodebotsError(f"--save {path} is a folder; name a .jsonl file")
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, 0o666 & ~UMASK)
        try:
            os.link(temporary, path)  # fails if the file exists: atomic and exclusive
        except FileExistsError:
            raise
        except OSError:  # a file system without hard links: exclusive create, then write
            with open(path, "x", encoding="utf-8") as stream:
                stream.write(text)
    except FileExistsError:
        raise CodebotsError(
            f"{path} already holds a game; continue it with --resume {path}, "
            "or name a new record with --save"
        ) from None
    finally:
        Path(temporary).unlink(missing_ok=True)
    return path


def fresh_record_path(seed: int, folder: Path = Path(".")) -> Path:
    """``codebots-game-<seed>.jsonl``, or with ``-2``, ``-3``, ... when that name is taken."""
    path = folder / f"codebots-game-{seed}.jsonl"
    number = 2
    while path.exists():
        path = folder / f"codebots-game-{seed}-{number}.jsonl"
        number += 1
    return path
