"""The ``codebots`` command line: thin wrappers over the library.

Domain errors (unknown variant, bad pool, bad number) print one line on stderr and exit 1.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from codebots.commands.campaign import register as register_campaign
from codebots.commands.human import register as register_human
from codebots.commands.play import register as register_play
from codebots.errors import CodebotsError

app = typer.Typer(
    name="codebots",
    help="Codenames agents, a batched simulator and evaluation tools.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def parse_int(name: str, text: str, minimum: int | None = None) -> int:
    """An integer option given as text, with a one-line error naming the option."""
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise CodebotsError(f"{name} must be an integer, got '{text}'") from None
    if minimum is not None and value < minimum:
        raise CodebotsError(f"{name} must be at least {minimum}, got {value}")
    return value


def fail(error: Exception) -> typer.Exit:
    typer.echo(f"error: {error}", err=True)
    return typer.Exit(1)


@app.command()
def variants() -> None:
    """List every variant id with a one-line description."""
    from codebots.variants import list_variants

    specs = list_variants()
    width = max(len(spec.id) for spec in specs)
    for spec in specs:
        typer.echo(f"{spec.id:<{width}}  {spec.description}")


@app.command()
def agents() -> None:
    """List every registered spymaster and guesser with a one-line description."""
    from codebots.agents import GUESSERS, SPYMASTERS
    from codebots.agents.base import SUMMARIES

    width = max(len(name) for name in (*SPYMASTERS, *GUESSERS))
    for role, registry in (("spymaster", SPYMASTERS), ("guesser", GUESSERS)):
        typer.echo(f"{role}s:")
        for name in registry:
            typer.echo(f"  {name:<{width}}  {SUMMARIES[role, name]}")


@app.command()
def simulate(
    variant: Annotated[
        str, typer.Option(help="Variant id, e.g. duet or 'duet[tokens=11]'.")
    ] = "classic",
    spymaster: Annotated[
        str, typer.Option(help="Registered spymaster (`codebots agents` lists them).")
    ] = "random",
    guesser: Annotated[
        str, typer.Option(help="Registered guesser (`codebots agents` lists them).")
    ] = "oracle",
    games: Annotated[str, typer.Option(metavar="INT", help="Number of games.")] = "1000",
    seed: Annotated[
        str, typer.Option(metavar="INT", help="First board seed; games use seed, seed+1, ...")
    ] = "0",
    batch_size: Annotated[str, typer.Option(metavar="INT", help="Games per batch.")] = "4096",
    out: Annotated[str | None, typer.Option(help="Write one row per game to this CSV.")] = None,
    markdown: Annotated[bool, typer.Option(help="Print the table as Markdown.")] = False,
) -> None:
    """Play a batch of games and print the results table.

    Example: codebots simulate --variant duet --guesser oracle --games 10000 --seed 0
    """
    try:
        import numpy as np

        from codebots.agents import make_agent
        from codebots.arena import play
        from codebots.variants import get_variant

        n_games = parse_int("--games", games, minimum=1)
        first_seed = parse_int("--seed", seed, minimum=0)
        size = parse_int("--batch-size", batch_size, minimum=1)
        spec = get_variant(variant)
        records = play(
            spec,
            make_agent("spymaster", spymaster),
            make_agent("guesser", guesser),
            np.arange(first_seed, first_seed + n_games),
            batch_size=size,
            agent_seed=first_seed,
            progress=sys.stderr.isatty(),
        )
        publish(records, out, markdown)
    except CodebotsError as error:
        raise fail(error) from None


@app.command("check-clue")
def check_clue_command(
    clue: Annotated[str, typer.Argument(help="The clue word to check.")],
    board: Annotated[
        str, typer.Option(help="The visible cards, comma-separated: 'graveyard, horace slughorn'.")
    ],
    strict: Annotated[bool, typer.Option(help="Also refuse substring overlaps.")] = False,
    relaxed: Annotated[
        bool, typer.Option(help="Allow multi-word names, hyphens, acronyms.")
    ] = False,
) -> None:
    """Check a clue against the visible cards; exit code 0 valid, 1 invalid, 2 usage error.

    Example: codebots check-clue sluggish --board "graveyard, horace slughorn"
    """
    from codebots.validity import CheckOptions, check_clue

    cards = [card.strip().upper() for card in board.split(",") if card.strip()]
    if not cards:
        typer.echo(
            "error: --board needs at least one card, e.g. --board 'graveyard, owl'", err=True
        )
        raise typer.Exit(2)
    verdict = check_clue(clue, cards, CheckOptions(strict=strict, relaxed=relaxed))
    if verdict.valid:
        typer.echo(f"valid: {verdict.reason}")
        return
    typer.echo(f"invalid ({verdict.rule}): {verdict.reason}")
    raise typer.Exit(1)


def parse_cards(option: str, text: str) -> list[str]:
    cards = [card.strip().upper() for card in text.split(",") if card.strip()]
    if not cards:
        raise CodebotsError(f"{option} needs at least one card, e.g. {option} 'graveyard, owl'")
    return cards


@app.command()
def clue(
    board: Annotated[str, typer.Option(help="All visible cards, comma-separated (up to 25).")],
    targets: Annotated[str, typer.Option(help="Your cards among them, comma-separated.")],
    avoid: Annotated[str, typer.Option(help="Cards to stay away from (like assassins).")] = "",
    spymaster: Annotated[
        str,
        typer.Option(
            help="An embedding spymaster (glove, minilm, ...: `codebots agents` lists them)."
        ),
    ] = "glove",
    top: Annotated[str, typer.Option(metavar="INT", help="How many clues to show.")] = "5",
) -> None:
    """Suggest clues for your cards on a board, with intended targets and scores.

    Example: codebots clue --board "graveyard, ghost, owl, bank, wand" --targets "graveyard, ghost"
    """
    try:
        from codebots.agents.views import ASSASSIN, BYSTANDER, OWN, SpymasterView
        from codebots.variants import get_variant

        count = parse_int("--top", top, minimum=1)
        cards = parse_cards("--board", board)
        own = parse_cards("--targets", targets)
        danger = [c.strip().upper() for c in avoid.split(",") if c.strip()]
        if len(cards) > 25:
            raise CodebotsError(f"--board has {len(cards)} cards; a board holds at most 25")
        for option, chosen in (("--targets", own), ("--avoid", danger)):
            unknown = [c for c in chosen if c not in cards]
            if unknown:
                raise CodebotsError(f"{option} names cards not on --board: {', '.join(unknown)}")
        from codebots.agents.registered import embedding_spymaster

        agent = embedding_spymaster(spymaster, "clue suggestions")
        identity = [
            OWN if card in own else ASSASSIN if card in danger else BYSTANDER for card in cards
        ]
        view = SpymasterView.single(cards, identity, get_variant("classic"))
        rows = agent.top_clues(view, 0, count)
    except CodebotsError as error:
        raise fail(error) from None
    for rank, row in enumerate(rows, start=1):
        typer.echo(
            f"{rank}. {row['clue']} {row['number']}  -> {', '.join(row['targets'])}"
            f"  (margin {row['margin']:+.3f}, score {row['score']:.3f})"
        )


@app.command()
def evaluate(
    variant: Annotated[str, typer.Option(help="Variant ids or labels, comma-separated.")] = (
        "single-team-2019"
    ),
    pairs: Annotated[str, typer.Option(help="Comma-separated spymaster:guesser pairs.")] = (
        "glove:glove"
    ),
    games: Annotated[str, typer.Option(metavar="INT", help="Games per cell.")] = "1000",
    seed: Annotated[str, typer.Option(metavar="INT", help="First board seed.")] = "0",
    config: Annotated[
        str | None, typer.Option(help="A grid config (TOML/JSON) instead of the options above.")
    ] = None,
    out_dir: Annotated[
        str | None,
        typer.Option(help="Write NAME.csv/.md/.png here and cache finished cells (resumable)."),
    ] = None,
    name: Annotated[str, typer.Option(help="Base name of the output files.")] = "evaluation",
    workers: Annotated[str, typer.Option(metavar="INT", help="Local worker processes.")] = "1",
    backend: Annotated[str, typer.Option(help="local, or dask (cells as cluster tasks).")] = (
        "local"
    ),
    address: Annotated[
        str | None, typer.Option(help="Dask scheduler address (default: a local cluster).")
    ] = None,
    markdown: Annotated[bool, typer.Option(help="Print the table as Markdown.")] = False,
    partner_memory: Annotated[
        str | None,
        typer.Option(help="Every spymaster plays with this partner memory (codebots watch)."),
    ] = None,
) -> None:
    """Play a grid of pairings x variants and print one row per cell.

    Example: codebots evaluate --variant single-team-2019,duet --pairs glove:glove,glove:minilm
    """
    import tempfile

    try:
        from codebots.evaluation import (
            GridConfig,
            grid_table,
            load_config,
            parse_pairs,
            run_grid,
            write_outputs,
        )
        from codebots.report import to_markdown
        from codebots.variants import split_labels

        if config:
            grid = load_config(config)
            name = grid.name
            if partner_memory:
                from dataclasses import replace

                grid = replace(grid, partner_memory=partner_memory)
        else:
            grid = GridConfig(
                name=name,
                variants=split_labels(variant),
                pairs=parse_pairs(pairs.split(",")),
                games=parse_int("--games", games, minimum=1),
                seed=parse_int("--seed", seed, minimum=0),
                partner_memory=partner_memory,
            )
        count = parse_int("--workers", workers, minimum=1)
        with tempfile.TemporaryDirectory() as scratch:
            cache = Path(out_dir) / "cells" / name if out_dir else Path(scratch)
            records = run_grid(
                grid.cells(),
                cache,
                workers=count,
                backend=backend,
                address=address,
                progress=sys.stderr.isatty(),
            )
        table = grid_table(records)
        if out_dir:
            for path in write_outputs(table, out_dir, name):
                typer.echo(f"wrote {path}", err=True)
    except CodebotsError as error:
        raise fail(error) from None
    typer.echo(to_markdown(table) if markdown else with_pandas_options(table))


@app.command()
def watch(
    out: Annotated[str, typer.Option(help="The memory file (.npz); an existing one learns on.")],
    spymaster: Annotated[str, typer.Option(help="The spymaster that watches.")] = "glove-lexicon",
    guesser: Annotated[str, typer.Option(help="The partner it watches guess.")] = "minilm",
    variant: Annotated[str, typer.Option(help="Variant id or label.")] = "single-team-2019",
    games: Annotated[str, typer.Option(metavar="INT", help="Games to watch.")] = "1000",
    seed: Annotated[
        str, typer.Option(metavar="INT", help="First board seed (keep clear of evaluation seeds).")
    ] = "100000",
) -> None:
    """Let a spymaster watch its partner guess and save what it learned (a partner memory).

    Example: codebots watch --spymaster glove-lexicon --guesser minilm --out partner.npz;
    then: codebots evaluate --pairs glove-lexicon:minilm --partner-memory partner.npz
    """
    try:
        import numpy as np

        from codebots.agents import make_agent
        from codebots.agents.partner import PartnerMemory
        from codebots.agents.partner import watch as watch_games
        from codebots.agents.registered import embedding_spymaster
        from codebots.variants import get_variant
        from codebots.vocab import load_pool

        count = parse_int("--games", games, minimum=1)
        first = parse_int("--seed", seed, minimum=0)
        pool = load_pool(get_variant(variant).pool).words
        watcher = embedding_spymaster(spymaster, "learning from a partner")
        partner = make_agent("guesser", guesser)
        path = Path(out)
        memory = (
            PartnerMemory.load(path) if path.exists() else PartnerMemory(pool, watcher.vocabulary)
        )
        memory.check_fits(pool, watcher.vocabulary)
        before = memory.turns_seen
        seeds = np.arange(first, first + count)
        watch_games(variant, watcher, partner, seeds, memory, progress=sys.stderr.isatty())
        memory.save(path)
    except CodebotsError as error:
        raise fail(error) from None
    learned = int(np.count_nonzero(memory.correction))
    typer.echo(
        f"watched {count:,} games ({memory.turns_seen - before:,} clues; "
        f"{memory.turns_seen:,} in all): {learned:,} learned (card, clue) pairs -> {path}"
    )


def publish(records, out: str | None, markdown: bool) -> None:
    """Write the per-game records (atomically) if asked, then print the summary table."""
    from codebots.report import atomic_write_text, summarize, to_markdown

    if out:
        atomic_write_text(out, records.to_csv(index=False))
    table = summarize(records)
    typer.echo(to_markdown(table) if markdown else with_pandas_options(table))


def with_pandas_options(table) -> str:
    import pandas as pd

    with pd.option_context(
        "display.width", 200, "display.max_columns", 20, "display.float_format", "{:.3f}".format
    ):
        typer.echo(table.to_string(index=False))


register_campaign(app)
register_human(app)
register_play(app)


def main() -> None:  # console-script entry point
    app()


if __name__ == "__main__":
    main()
