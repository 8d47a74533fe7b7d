"""The ``campaign`` command: mission-log win rates, expected games and simulated campaigns."""

from __future__ import annotations

import sys
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add the ``campaign`` command to ``app``."""
    app.command("campaign")(campaign)


def campaign(
    spymaster: Annotated[str, typer.Option(help="Registered spymaster name.")] = "glove",
    guesser: Annotated[str, typer.Option(help="Registered guesser name.")] = "glove",
    games: Annotated[str, typer.Option(metavar="INT", help="Games per mission.")] = "200",
    seed: Annotated[
        str, typer.Option(metavar="INT", help="First board seed of the mission table.")
    ] = "0",
    campaigns: Annotated[
        str, typer.Option(metavar="INT", help="Simulated campaigns (seeds seed+1, seed+2, ...).")
    ] = "3",
    max_games: Annotated[
        str, typer.Option(metavar="INT", help="Games after which a campaign gives up.")
    ] = "2000",
    policy: Annotated[str, typer.Option(help="Reward bonus policy: greedy or none.")] = "greedy",
    out_dir: Annotated[
        str | None, typer.Option(help="Write mission_table.csv and mission_table.md here.")
    ] = None,
) -> None:
    """Win rate on every Duet mission, expected games to finish the log, simulated campaigns.

    Also prints the standard 10-token game's score distribution.

    Example: codebots campaign --spymaster glove --guesser glove --games 200 --campaigns 3
    """
    from codebots.cli import fail, parse_int
    from codebots.errors import CodebotsError

    try:
        from pathlib import Path

        from codebots.agents import make_agent
        from codebots.campaign import (
            campaign_summary,
            expected_games,
            play_missions,
            score_distribution,
            simulate_campaign,
            summarize_missions,
        )
        from codebots.report import atomic_write_text, to_markdown

        n_games = parse_int("--games", games, minimum=1)
        first_seed = parse_int("--seed", seed, minimum=0)
        n_campaigns = parse_int("--campaigns", campaigns, minimum=0)
        limit = parse_int("--max-games", max_games, minimum=1)
        spy, guess = make_agent("spymaster", spymaster), make_agent("guesser", guesser)
        records = play_missions(spy, guess, n_games, first_seed, progress=sys.stderr.isatty())
        table = summarize_missions(records)
        if out_dir:
            atomic_write_text(Path(out_dir) / "mission_table.csv", table.to_csv(index=False))
            atomic_write_text(Path(out_dir) / "mission_table.md", to_markdown(table) + "\n")
        typer.echo(
            f"Mission log, {spymaster}:{guesser}, {n_games} games per mission "
            f"(seeds {first_seed}..{first_seed + n_games - 1})\n"
        )
        typer.echo(to_markdown(table))
        expected, low, high = expected_games(table)
        typer.echo(
            f"\nexpected games to finish the log: {expected:.1f} "
            f"(95% interval {low:.1f} .. {high:.1f})\n"
        )
        distribution = score_distribution(records)
        distribution["score"] = distribution["score"].astype(object).fillna("")
        typer.echo("Standard game (duet, 10 tokens) scores:\n")
        typer.echo(to_markdown(distribution))
        results = []
        if n_campaigns:
            typer.echo(f"\nSimulated campaigns (bonus policy {policy}):")
        for index in range(n_campaigns):
            result = simulate_campaign(spy, guess, first_seed + 1 + index, limit, policy)
            results.append(result)
            outcome = (
                f"finished in {result.games_played} games"
                if result.finished
                else f"not finished after {result.games_played} games "
                f"({result.missions_won} of 24 missions won)"
            )
            typer.echo(f"campaign seed {result.seed}: {outcome}")
        if results:
            summary = campaign_summary(results)
            figures = (
                f"; games to finish: mean {summary['mean_games']:.1f}, "
                f"median {summary['median_games']:.1f}"
                if summary["finished"]
                else ""
            )
            typer.echo(f"finished {summary['finished']} of {summary['campaigns']}{figures}")
    except (CodebotsError, OSError) as error:
        raise fail(error) from None
