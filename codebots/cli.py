"""The ``codebots`` command line: thin wrappers over the library.

Domain errors (unknown variant, bad pool, bad number) print one line on stderr and exit 1.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from codebots.commands.campaign import register as register_campaign
from codebots.commands.common import (
    INTERRUPTED,
    MAX_GAMES,
    check_output_file,
    fail,
    parse_cards,
    parse_games,
    parse_int,
    parse_seeds,
    progress_wanted,
    table_text,
)
from codebots.commands.crossplay import register as register_crossplay
from codebots.commands.evaluate import register as register_evaluate
from codebots.commands.human import register as register_human
from codebots.commands.play import register as register_play
from codebots.commands.serve import register as register_serve
from codebots.errors import CodebotsError

app = typer.Typer(
    name="codebots",
    help="Codenames agents, a batched simulator and evaluation tools.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain help: rich markup would eat the brackets of variant labels (duet[tokens=11]).
    rich_markup_mode=None,
)


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"codebots {version('codebots')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Codenames agents, a batched simulator and evaluation tools."""


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
    from codebots.agents.registry import SUMMARIES

    width = max(len(name) for name in (*SPYMASTERS, *GUESSERS))
    for role, registry in (("spymaster", SPYMASTERS), ("guesser", GUESSERS)):
        typer.echo(f"{role}s:")
        for name in registry:
            typer.echo(f"  {name:<{width}}  {SUMMARIES[role, name]}")


@app.command()
def minds() -> None:
    """List the panel of minds: every word model agents can think with, offline."""
    from codebots.minds import PANEL

    width = max(len(name) for name in PANEL)
    for mind in PANEL.values():
        extra = f", extra '{mind.extra}'" if mind.extra else ""
        typer.echo(f"{mind.name:<{width}}  {mind.kind}: {mind.source}")
        typer.echo(f"{'':<{width}}  {mind.package}{extra}; {mind.size}; {mind.licence}")


@app.command()
def cache(
    prune: Annotated[
        float | None,
        typer.Option(
            help="Remove what has not been used for this many days (0: everything); it is "
            "rebuilt when next needed.",
            min=0,
        ),
    ] = None,
) -> None:
    """Show what the cache folder holds (CODEBOTS_CACHE moves it), by kind.

    \b
    Example:
      codebots cache --prune 30
    """
    import datetime

    from codebots import files
    from codebots.cache_folder import by_kind, entries, human_size
    from codebots.cache_folder import prune as prune_folder

    folder = files.CACHE_DIR
    if prune is not None:
        removed = prune_folder(folder, prune)
        freed = human_size(sum(entry.size for entry in removed))
        typer.echo(f"removed {_entries(len(removed))} unused for {prune:g} days ({freed})")
    found = entries(folder)
    typer.echo(f"{folder}: {human_size(sum(e.size for e in found))} in {_entries(len(found))}")
    for kind, count, size, last in by_kind(found):
        day = datetime.date.fromtimestamp(last).isoformat()
        typer.echo(f"  {kind:<12} {_entries(count):>12}  {human_size(size):>10}  last used {day}")


def _entries(count: int) -> str:
    return f"{count} {'entry' if count == 1 else 'entries'}"


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
    out: Annotated[
        str | None, typer.Option(metavar="FILE", help="Write one row per game to this CSV.")
    ] = None,
    markdown: Annotated[bool, typer.Option(help="Print the table as Markdown.")] = False,
) -> None:
    """Play a batch of games and print the results table.

    \b
    Example:
      codebots simulate --variant 'duet[tokens=11]' --guesser oracle --games 10000 --seed 0
    """
    try:
        import numpy as np

        from codebots.agents import make_agent
        from codebots.arena import play
        from codebots.variants import get_variant

        n_games = parse_games(games)
        first_seed = parse_seeds(seed, n_games)
        size = parse_int("--batch-size", batch_size, minimum=1, maximum=MAX_GAMES)
        if out:
            check_output_file("--out", out)
        spec = get_variant(variant)
        records = play(
            spec,
            make_agent("spymaster", spymaster),
            make_agent("guesser", guesser),
            np.arange(first_seed, first_seed + n_games, dtype=np.int64),
            batch_size=size,
            agent_seed=first_seed,
            progress=progress_wanted(),
        )
    except CodebotsError as error:
        raise fail(error) from None
    except KeyboardInterrupt:
        typer.echo("interrupted: nothing was written", err=True)
        raise typer.Exit(INTERRUPTED) from None
    publish(records, out, markdown)


def publish(records, out: str | None, markdown: bool) -> None:
    """Write the per-game records (atomically) if asked, and print the summary table; a
    failed write still prints the table, then its one-line error."""
    from codebots.files import atomic_write_text
    from codebots.report import summarize

    problem = None
    if out:
        try:
            atomic_write_text(out, records.to_csv(index=False))
        except OSError as error:
            problem = CodebotsError(f"cannot write {out}: {error.strerror or error}")
    typer.echo(table_text(summarize(records), markdown))
    if problem:
        raise fail(problem)


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

    \b
    Example:
      codebots check-clue sluggish --board "graveyard, horace slughorn"
    """
    from codebots.validity import CheckOptions, check_clue

    try:
        cards = parse_cards("--board", board)
    except CodebotsError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    verdict = check_clue(clue, cards, CheckOptions(strict=strict, relaxed=relaxed))
    if verdict.valid:
        typer.echo(f"valid: {verdict.reason}")
        return
    typer.echo(f"invalid ({verdict.rule}): {verdict.reason}")
    raise typer.Exit(1)


@app.command()
def clue(
    board: Annotated[str, typer.Option(help="All visible cards, comma-separated (up to 25).")],
    targets: Annotated[str, typer.Option(help="Your cards among them, comma-separated.")],
    avoid: Annotated[str, typer.Option(help="Cards to stay away from (like assassins).")] = "",
    spymaster: Annotated[
        str,
        typer.Option(
            help="An embedding spymaster (crossplay, glove, minilm, ...: `codebots agents` "
            "lists them); crossplay, the partner of a person in codebots play, thinks with "
            "every mind (its first use on a machine builds their tables, two to three minutes; "
            "glove answers in seconds)."
        ),
    ] = "crossplay",
    top: Annotated[str, typer.Option(metavar="INT", help="How many clues to show.")] = "5",
) -> None:
    """Suggest clues for your cards on a board, with intended targets and scores.

    \b
    Example:
      codebots clue --board "graveyard, ghost, owl, bank, wand" --targets "graveyard, ghost"
    """
    try:
        from codebots.agents.views import ASSASSIN, BYSTANDER, OWN, SpymasterView
        from codebots.variants import get_variant

        count = parse_int("--top", top, minimum=1, maximum=100)
        cards = parse_cards("--board", board)
        own = parse_cards("--targets", targets)
        danger = parse_cards("--avoid", avoid) if avoid.strip() else []
        if len(cards) > 25:
            raise CodebotsError(f"--board has {len(cards)} cards; a board holds at most 25")
        for option, chosen in (("--targets", own), ("--avoid", danger)):
            unknown = [c for c in chosen if c not in cards]
            if unknown:
                raise CodebotsError(f"{option} names cards not on --board: {', '.join(unknown)}")
        both = [card for card in own if card in danger]
        if both:
            raise CodebotsError(f"{', '.join(both)} cannot be both a target and a card to avoid")
        if len(own) == len(cards):
            raise CodebotsError(
                "every card on --board is a target: a clue is only needed when some cards "
                "are not yours; add the others to --board"
            )
        from codebots.agents.registered import embedding_spymaster

        agent = embedding_spymaster(spymaster, "clue suggestions")
        identity = [
            OWN if card in own else ASSASSIN if card in danger else BYSTANDER for card in cards
        ]
        view = SpymasterView.single(cards, identity, get_variant("classic"))
        rows = agent.top_clues(view, 0, count)
        for row in rows:  # a committee says which of its minds read the clue as intended
            positions = [cards.index(card) for card in row["targets"]]
            row["minds"] = agent.agreeing_minds(view, 0, row["clue"], positions)
    except CodebotsError as error:
        raise fail(error) from None
    if not rows:
        raise fail(CodebotsError("no valid clue word separates these targets from the rest"))
    committee = len(agent.models) > 1
    for rank, row in enumerate(rows, start=1):
        minds = f"; minds agreeing: {', '.join(row['minds']) or 'none'}" if committee else ""
        typer.echo(
            f"{rank}. {row['clue']} {row['number']}  -> {', '.join(row['targets'])}"
            f"  (margin {row['margin']:+.3f}, score {row['score']:.3f}{minds})"
        )


register_campaign(app)
register_crossplay(app)
register_evaluate(app)
register_human(app)
register_play(app)
register_serve(app)


def main() -> None:
    """The console-script entry point: a domain error that escaped a command is still one
    line, never a traceback."""
    try:
        app()
    except CodebotsError as error:
        typer.echo(f"error: {error}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
