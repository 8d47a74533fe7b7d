"""What every command shares: parsing numbers, names and output paths into one-line errors,
and printing tables.

Options are checked before any game is played, so a typo never costs a long run; a write
that fails afterwards (a full disk) still prints the table before its one-line error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from codebots.errors import CodebotsError
from codebots.files import plain_name  # noqa: F401 — part of the commands' toolkit
from codebots.keys import MAX_GAMES, MAX_SEED

INTERRUPTED = 130  # the shell's exit status for a run stopped by Ctrl-C


def fail(error: Exception) -> typer.Exit:
    """Print ``error`` as one line on stderr; the caller raises the returned exit (code 1)."""
    typer.echo(f"error: {error}", err=True)
    return typer.Exit(1)


def parse_int(name: str, text: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer option given as text, with a one-line error naming the option."""
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise CodebotsError(f"{name} must be an integer, got '{text}'") from None
    if minimum is not None and value < minimum:
        raise CodebotsError(f"{name} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise CodebotsError(f"{name} must be at most {maximum:,}, got {value:,}")
    return value


def parse_games(text: str, name: str = "--games") -> int:
    return parse_int(name, text, minimum=1, maximum=MAX_GAMES)


def parse_seeds(seed: str, games: int, name: str = "--seed") -> int:
    """The first board seed of ``games`` games: the last one must still be a seed."""
    first = parse_int(name, seed, minimum=0, maximum=MAX_SEED)
    if first + games - 1 > MAX_SEED:
        raise CodebotsError(
            f"{name} {first} with {games:,} games runs past the largest seed 2**63-1; "
            f"use a {name} of at most {MAX_SEED - games + 1}"
        )
    return first


def _writable_folder(option: str, path: Path, folder: Path) -> None:
    """Fail unless ``folder`` is, or can be made, a folder this process may write in."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise CodebotsError(
            f"{option} {path}: {existing} is a file, so no folder can be made there"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise CodebotsError(f"{option} {path}: no permission to write in {existing}")


def check_output_file(option: str, path: str | os.PathLike) -> Path:
    """Fail now, not after the run, if ``path`` cannot be written as a file."""
    path = Path(path)
    if path.is_dir():
        raise CodebotsError(
            f"{option} {path} is a folder; name a file in it, e.g. {path / 'results.csv'}"
        )
    _writable_folder(option, path, path.parent)
    return path


def check_output_folder(option: str, path: str | os.PathLike, names: tuple[str, ...] = ()) -> Path:
    """Fail now if ``path`` cannot be a folder to write ``names`` into."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise CodebotsError(f"{option} {path} is a file; give a folder")
    _writable_folder(option, path, path)
    for name in names:
        if (path / name).is_dir():
            raise CodebotsError(f"{option}: {path / name} is a folder; remove it or pick another")
    return path


def parse_cards(option: str, text: str) -> list[str]:
    """Comma-separated card names, upper-cased; none, or one twice, is a one-line error."""
    cards = [" ".join(card.split()).upper() for card in text.split(",") if card.strip()]
    if not cards:
        raise CodebotsError(f"{option} needs at least one card, e.g. {option} 'graveyard, owl'")
    twice = sorted({card for card in cards if cards.count(card) > 1})
    if twice:
        raise CodebotsError(f"{option} lists {', '.join(twice)} twice; name each card once")
    return cards


def table_text(table, markdown: bool = False) -> str:
    """A results table as aligned text (or Markdown), no trailing blank line."""
    import pandas as pd

    from codebots.report import to_markdown

    if markdown:
        return to_markdown(table)
    with pd.option_context(
        "display.width", 200, "display.max_columns", 20, "display.float_format", "{:.3f}".format
    ):
        return table.to_string(index=False)


def progress_wanted() -> bool:
    """Progress bars only for a person watching a terminal (not in logs and pipes)."""
    return sys.stderr.isatty()
