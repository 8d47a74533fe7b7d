"""The ``campaign`` command: mission-log win rates, expected games and simulated campaigns."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add the ``campaign`` command to ``app``."""
    app.command("campaign")(campaign)


def campaign(
    spymaster: Annotated[
        str | None, typer.Option(help="Registered spymaster name. [default: glove]")
    ] = None,
    guesser: Annotated[
        str | None, typer.Option(help="Registered guesser name. [default: glove]")
    ] = None,
    pair: Annotated[
        str | None,
        typer.Option(
            help="Instead of --spymaster/--guesser: 'A:B' (roles) or 'A/B' (two seats, each "
            "giving its own clues and guessing the other's)."
        ),
    ] = None,
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
    expert: Annotated[
        bool, typer.Option(help="The expert option: every mission with one token fewer.")
    ] = False,
    bonus_games: Annotated[
        str,
        typer.Option(
            metavar="INT",
            help="Games per mission and bonus for the table of what each bonus is worth "
            "(0: no table).",
        ),
    ] = "50",
    out_dir: Annotated[
        str | None, typer.Option(help="Write mission_table.csv and mission_table.md here.")
    ] = None,
) -> None:
    """Win rate on every Duet mission, expected games to finish the log, simulated campaigns.

    Also prints the standard 10-token game's score distribution.

    Example: codebots campaign --spymaster glove --guesser glove --games 200 --campaigns 3
    """
    from codebots.commands.common import (
        INTERRUPTED,
        check_output_folder,
        fail,
        parse_games,
        parse_int,
        parse_seeds,
        progress_wanted,
    )
    from codebots.errors import CodebotsError
    from codebots.keys import MAX_SEED

    try:
        from pathlib import Path

        from codebots.campaign import (
            POLICIES,
            SEED_STRIDE,
            bonus_table,
            campaign_summary,
            expected_games,
            play_missions,
            score_distribution,
            simulate_campaign,
            summarize_missions,
        )
        from codebots.report import to_markdown

        n_games = parse_games(games)
        first_seed = parse_seeds(seed, n_games)
        n_campaigns = parse_int("--campaigns", campaigns, minimum=0, maximum=10_000)
        limit = parse_int("--max-games", max_games, minimum=1, maximum=1_000_000)
        n_bonus = parse_int("--bonus-games", bonus_games, minimum=0, maximum=100_000)
        if policy not in POLICIES:
            raise CodebotsError(f"unknown bonus policy '{policy}'; use {' or '.join(POLICIES)}")
        if n_campaigns and (first_seed + n_campaigns) * SEED_STRIDE + limit > MAX_SEED:
            raise CodebotsError(
                f"--seed {first_seed} is too large for campaign board seeds "
                f"(seed x {SEED_STRIDE:,} + game); use a --seed below "
                f"{(MAX_SEED - limit) // SEED_STRIDE - n_campaigns:,}"
            )
        if out_dir:
            names = ("mission_table", "mission_bonuses")
            check_output_folder(
                "--out-dir", out_dir, tuple(f"{n}.{e}" for n in names for e in ("csv", "md"))
            )
        spy, guess, label = _pairing(pair, spymaster, guesser)
        records = play_missions(
            spy, guess, n_games, first_seed, progress=progress_wanted(), expert=expert
        )
        table = summarize_missions(records)
        typer.echo(
            f"Mission log{' (expert: one token fewer)' if expert else ''}, {label}, "
            f"{n_games} games per mission "
            f"(seeds {first_seed}..{first_seed + n_games - 1})\n"
        )
        typer.echo(to_markdown(table))
        if out_dir:  # after the table: a failed write (a full disk) still shows it
            _write(Path(out_dir), "mission_table", table)
        if n_bonus:
            worth = bonus_table(spy, guess, n_bonus, first_seed, expert, progress_wanted())
            typer.echo(
                f"\nWhat each bonus is worth: win rate as is, with each reward, without the "
                f"location bonus ({n_bonus} games each, the same boards)\n"
            )
            typer.echo(to_markdown(worth))
            if out_dir:
                _write(Path(out_dir), "mission_bonuses", worth)
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
            result = simulate_campaign(
                spy, guess, first_seed + 1 + index, limit, policy, expert=expert
            )
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
    except CodebotsError as error:
        raise fail(error) from None
    except KeyboardInterrupt:
        typer.echo("\ninterrupted", err=True)
        raise typer.Exit(INTERRUPTED) from None


def _write(folder, name: str, table) -> None:
    """``name.csv`` and ``name.md`` in ``folder``, each written atomically."""
    from codebots.errors import CodebotsError
    from codebots.report import atomic_write_text, to_markdown

    try:
        atomic_write_text(folder / f"{name}.csv", table.to_csv(index=False))
        atomic_write_text(folder / f"{name}.md", to_markdown(table) + "\n")
    except OSError as error:
        raise CodebotsError(f"cannot write the tables in {folder}: {error.strerror}") from None


def _pairing(pair: str | None, spymaster: str | None, guesser: str | None):
    """``(spymaster or seat 0, guesser or seat 1, label)`` from ``--pair`` or the two names."""
    from codebots.agents import make_agent
    from codebots.arena import Seat
    from codebots.errors import CodebotsError
    from codebots.grid_config import split_pair

    if pair is None:
        spymaster, guesser = spymaster or "glove", guesser or "glove"
        label = f"{spymaster}:{guesser}"
        return make_agent("spymaster", spymaster), make_agent("guesser", guesser), label
    if spymaster is not None or guesser is not None:
        raise CodebotsError("give --pair or --spymaster/--guesser, not both")
    first, second, seats = split_pair(pair)
    if not seats:
        return make_agent("spymaster", first), make_agent("guesser", second), pair
    return Seat.of(first), Seat.of(second), pair
