"""``codebots crossplay``: the cross-play matrix (codebots.crossplay) as tables and a heatmap."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from codebots.commands.common import (
    INTERRUPTED,
    check_output_folder,
    fail,
    parse_games,
    parse_int,
    parse_seeds,
    progress_wanted,
    table_text,
)
from codebots.errors import CodebotsError

SHOWN = ["variant", "role", "mind", "spymaster", "guesser", "cross", "games", "win_rate"]
SHOWN += ["assassin_rate", "clues_on_win", "mean_score"]
SHOWN += ["first_guess_on_target", "later_guess_on_target"]


def register(app: typer.Typer) -> None:
    app.command("crossplay")(crossplay)


def crossplay(
    games: Annotated[str, typer.Option(metavar="INT", help="Games per cell.")] = "1000",
    seed: Annotated[
        str, typer.Option(metavar="INT", help="First board seed (0: the report seeds 0-999).")
    ] = "0",
    variant: Annotated[
        str | None,
        typer.Option(help="Variant labels, comma-separated. [default: the benchmark five]"),
    ] = None,
    minds: Annotated[
        str | None, typer.Option(help="Partner minds, comma-separated. [default: the panel]")
    ] = None,
    candidates: Annotated[
        str | None,
        typer.Option(help="Cross-play candidates, comma-separated; the first is the default."),
    ] = None,
    out_dir: Annotated[
        str | None,
        typer.Option(
            metavar="DIR", help="Write crossplay.csv/.md/.png here and keep finished batches."
        ),
    ] = None,
    workers: Annotated[str, typer.Option(metavar="INT", help="Local worker processes.")] = "1",
    markdown: Annotated[bool, typer.Option(help="Print the table as Markdown.")] = False,
    headline: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Play nothing: print the headline of a written crossplay.csv (the default "
            "candidate with each partner mind, next to the same-model pairs).",
        ),
    ] = None,
) -> None:
    """Every cross-play candidate with every panel mind it leaves out, next to every mind's
    same-model pair: win rates, assassin, clues, scores and first-guess agreement.

    \b
    Example:
      codebots crossplay --games 200 --out-dir results
    """
    from codebots import crossplay as matrix
    from codebots.evaluation import run_grid
    from codebots.minds import check_minds
    from codebots.variants import split_labels

    if headline is not None:
        try:
            shown = matrix.headline(matrix.read_table(headline))
        except CodebotsError as error:
            raise fail(error) from None
        typer.echo(table_text(shown, markdown))
        return
    cache = None
    try:
        count = parse_games(games)
        first = parse_seeds(seed, count)
        variants = split_labels(variant) if variant else matrix.VARIANTS
        partners = check_minds(minds.split(",")) if minds else None
        chosen = split_labels(candidates) if candidates else None
        if candidates is not None and not chosen:
            raise CodebotsError("--candidates names no agent; e.g. --candidates crossplay")
        if out_dir:
            check_output_folder("--out-dir", out_dir, ("crossplay.csv", "crossplay.md"))
        options = {"variants": variants}
        if partners:
            options["minds"] = partners
        if chosen:
            options["candidates"] = chosen
        cells = matrix.crossplay_cells(count, first, **options)
        with tempfile.TemporaryDirectory() as scratch:
            cache = Path(out_dir) / "cells" / "crossplay" if out_dir else Path(scratch)
            records = run_grid(
                [cell for cell, _ in cells],
                cache,
                workers=parse_int("--workers", workers, minimum=1, maximum=256),
                progress=progress_wanted(),
            )
        table = matrix.crossplay_table(records, cells)
        agreement = matrix.agreement_matrix(table)
    except CodebotsError as error:
        raise fail(error) from None
    except KeyboardInterrupt:
        kept = f"finished batches are kept in {cache}" if out_dir else "nothing was kept"
        typer.echo(f"interrupted: {kept}", err=True)
        raise typer.Exit(INTERRUPTED) from None
    problem = None
    if out_dir:
        try:
            for path in matrix.write_crossplay(table, agreement, out_dir):
                typer.echo(f"wrote {path}", err=True)
        except OSError as error:
            problem = CodebotsError(f"cannot write the tables in {out_dir}: {error.strerror}")
    typer.echo(table_text(table[[c for c in SHOWN if c in table]], markdown))
    typer.echo("\n" + table_text(matrix.headline(table), markdown))
    if problem:
        raise fail(problem)
