"""``codebots evaluate`` (grids of pairings x variants) and ``codebots watch`` (a spymaster
learning its partner)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from codebots.commands.common import (
    INTERRUPTED,
    check_output_file,
    check_output_folder,
    fail,
    parse_games,
    parse_int,
    parse_seeds,
    plain_name,
    progress_wanted,
    table_text,
)
from codebots.errors import CodebotsError

OUTPUT_SUFFIXES = (".csv", ".md", ".png")


def register(app: typer.Typer) -> None:
    """Add ``evaluate`` and ``watch`` to ``app``."""
    app.command()(evaluate)
    app.command()(watch)


def evaluate(
    variant: Annotated[
        str | None,
        typer.Option(help="Variant ids or labels, comma-separated. [default: single-team-2019]"),
    ] = None,
    pairs: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated spymaster:guesser pairs; in Duet also seat0/seat1 (each seat "
            "gives its own clues and guesses its partner's). [default: glove:glove]"
        ),
    ] = None,
    games: Annotated[
        str | None, typer.Option(metavar="INT", help="Games per cell. [default: 1000]")
    ] = None,
    seed: Annotated[
        str | None, typer.Option(metavar="INT", help="First board seed. [default: 0]")
    ] = None,
    config: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="A grid config (TOML/JSON) instead of --variant, --pairs, --games, --seed "
            "and --name.",
        ),
    ] = None,
    out_dir: Annotated[
        str | None,
        typer.Option(
            metavar="DIR",
            help="Write NAME.csv/.md/.png here and cache finished batches (resumable).",
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(help="Base name of the output files (a plain name). [default: evaluation]"),
    ] = None,
    workers: Annotated[str, typer.Option(metavar="INT", help="Local worker processes.")] = "1",
    backend: Annotated[str, typer.Option(help="local, or dask (batches as cluster tasks).")] = (
        "local"
    ),
    address: Annotated[
        str | None, typer.Option(help="Dask scheduler address (default: a local cluster).")
    ] = None,
    markdown: Annotated[bool, typer.Option(help="Print the table as Markdown.")] = False,
    partner_memory: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Every spymaster plays with this partner memory (codebots watch); with "
            "--config it replaces the config's.",
        ),
    ] = None,
) -> None:
    """Play a grid of pairings x variants and print one row per cell.

    \b
    Example:
      codebots evaluate --variant single-team-2019,duet --pairs glove:glove,glove:minilm

    With --out-dir, every finished batch of games is kept: after Ctrl-C (or a crash) the
    same command plays only the rest.
    """
    from codebots.evaluation import grid_table, run_grid, write_outputs
    from codebots.grid_config import GridConfig, load_config, parse_pairs
    from codebots.variants import split_labels

    cache = None
    try:
        given = {
            "--variant": variant,
            "--pairs": pairs,
            "--games": games,
            "--seed": seed,
            "--name": name,
        }
        if config:
            clash = [option for option, value in given.items() if value is not None]
            if clash:
                raise CodebotsError(
                    f"--config describes the whole grid: leave out {', '.join(clash)} "
                    "(or leave out --config)"
                )
            grid = load_config(config)
            if partner_memory:
                from dataclasses import replace

                grid = replace(grid, partner_memory=partner_memory)
        else:
            n_games = parse_games(games or "1000")
            grid = GridConfig(
                name=plain_name("--name", name if name is not None else "evaluation"),
                variants=split_labels(variant or "single-team-2019"),
                pairs=parse_pairs(split_labels(pairs or "glove:glove")),
                games=n_games,
                seed=parse_seeds(seed or "0", n_games),
                partner_memory=partner_memory,
            )
        count = parse_int("--workers", workers, minimum=1, maximum=256)
        if out_dir:
            check_output_folder(
                "--out-dir", out_dir, tuple(grid.name + suffix for suffix in OUTPUT_SUFFIXES)
            )
        cells = grid.cells()
        with tempfile.TemporaryDirectory() as scratch:
            cache = Path(out_dir) / "cells" / grid.name if out_dir else Path(scratch)
            records = run_grid(
                cells,
                cache,
                workers=count,
                backend=backend,
                address=address,
                progress=progress_wanted(),
            )
        table = grid_table(records)
    except CodebotsError as error:
        raise fail(error) from None
    except KeyboardInterrupt:
        kept = (
            f"every finished batch is kept in {cache}; run the same command to continue"
            if out_dir
            else "nothing was kept (give --out-dir to make a run resumable)"
        )
        typer.echo(f"interrupted: {kept}", err=True)
        raise typer.Exit(INTERRUPTED) from None
    problem = None
    if out_dir:
        try:
            for path in write_outputs(table, out_dir, grid.name):
                typer.echo(f"wrote {path}", err=True)
        except OSError as error:
            problem = CodebotsError(f"cannot write the tables in {out_dir}: {error.strerror}")
    typer.echo(table_text(table, markdown))
    if problem:
        raise fail(problem)


def watch(
    out: Annotated[
        str,
        typer.Option(metavar="FILE", help="The memory file (.npz); an existing one learns on."),
    ],
    spymaster: Annotated[str, typer.Option(help="The spymaster that watches.")] = "glove-lexicon",
    guesser: Annotated[str, typer.Option(help="The partner it watches guess.")] = "minilm",
    variant: Annotated[str, typer.Option(help="Variant id or label.")] = "single-team-2019",
    games: Annotated[str, typer.Option(metavar="INT", help="Games to watch.")] = "1000",
    seed: Annotated[
        str, typer.Option(metavar="INT", help="First board seed (keep clear of evaluation seeds).")
    ] = "100000",
) -> None:
    """Let a spymaster watch its partner guess and save what it learned (a partner memory).

    \b
    Example:
      codebots watch --spymaster glove-lexicon --guesser minilm --out partner.npz
      codebots evaluate --pairs glove-lexicon:minilm --partner-memory partner.npz

    The first run on a machine also builds the spymaster's and the partner's tables (with
    MiniLM: about 8 minutes of encoding, once; a progress bar shows it).
    """
    try:
        import numpy as np

        from codebots.agents import make_agent
        from codebots.agents.partner import PartnerMemory
        from codebots.agents.registered import embedding_spymaster
        from codebots.arena import watch as watch_games
        from codebots.variants import get_variant
        from codebots.vocab import load_pool

        count = parse_games(games)
        first = parse_seeds(seed, count)
        path = check_output_file("--out", out)
        pool = load_pool(get_variant(variant).pool).words
        watcher = embedding_spymaster(spymaster, "learning from a partner")
        partner = make_agent("guesser", guesser)
        memory = (
            PartnerMemory.load(path) if path.exists() else PartnerMemory(pool, watcher.vocabulary)
        )
        memory.check_fits(pool, watcher.vocabulary)
        before = memory.turns_seen
        seeds = np.arange(first, first + count, dtype=np.int64)
        watch_games(variant, watcher, partner, seeds, memory, progress=progress_wanted())
        memory.save(path)
    except CodebotsError as error:
        raise fail(error) from None
    except KeyboardInterrupt:
        typer.echo(f"interrupted: {out} was not changed", err=True)
        raise typer.Exit(INTERRUPTED) from None
    except OSError as error:
        raise fail(CodebotsError(f"cannot write {out}: {error.strerror}")) from None
    learned = int(np.count_nonzero(memory.correction))
    typer.echo(
        f"watched {count:,} games ({memory.turns_seen - before:,} clues; "
        f"{memory.turns_seen:,} in all): {learned:,} learned (card, clue) pairs -> {path}"
    )
