"""``codebots play`` and ``codebots replay``: a person at the terminal with the AI."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

HELP = """Type a clue as 'word number' ('ocean 2', 'fruit 0', 'fruit unlimited'); 'fruit 0'
means none of ours relate to it: the AI guesser keeps away from its cards for the rest of the
game. A guess is a card name (any case, a unique prefix is enough) or a grid square like B3;
'stop' to end your guesses; 'help'; 'quit' (the game is saved; resume it with --resume)."""

PROMPTS = {"clue": "your clue", "guess": "your guess", "cover": "cover which agent"}


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
        variant: Annotated[
            str, typer.Option(help="Variant id, e.g. duet or mission/gringotts.")
        ] = "classic",
        role: Annotated[
            str, typer.Option(help="Team games: guesser, spymaster, or team (both red seats).")
        ] = "guesser",
        seed: Annotated[str, typer.Option(metavar="INT", help="Board seed.")] = "0",
        spymaster: Annotated[str, typer.Option(help="The AI spymaster.")] = "glove",
        guesser: Annotated[str, typer.Option(help="The AI guesser.")] = "glove",
        save: Annotated[str | None, typer.Option(help="Game record (JSONL).")] = None,
        resume: Annotated[str | None, typer.Option(help="Continue a saved game.")] = None,
        penalties: Annotated[
            bool, typer.Option(help="Invalid clues get the rule book's penalty instead of a retry.")
        ] = False,
        campaign: Annotated[
            str | None, typer.Option(help="Mission-log progress file: play its next mission.")
        ] = None,
        mission: Annotated[
            str | None, typer.Option(help="With --campaign: an open mission to play instead.")
        ] = None,
        use_bonus: Annotated[
            str,
            typer.Option(help="With --campaign: held reward bonuses to spend, comma-separated."),
        ] = "",
    ) -> None:
        """Play a game with the AI at the terminal; every move is saved as it is made.

        Example: codebots play --variant duet --seed 7
        """
        from rich.console import Console

        from codebots.cli import fail, parse_int
        from codebots.errors import CodebotsError
        from codebots.play import InputProblem, Session

        console = Console(highlight=False)
        try:
            if resume:
                session = Session.load(resume)
                typer.echo(f"resumed {resume}: {len(session.events)} moves replayed")
            else:
                number = parse_int("--seed", seed, minimum=0)
                path = Path(save or f"codebots-game-{number}.jsonl")
                plan = None
                if campaign:
                    variant, plan = campaign_game(campaign, mission, use_bonus)
                session = Session(
                    variant, number, role, spymaster, guesser, path, penalties, campaign=plan
                )
                session.save()
                typer.echo(f"recording to {path}")
        except CodebotsError as error:
            raise fail(error) from None
        while not session.done:
            move = session.human_move()
            if move is None:
                event = session.ai_move()
                typer.echo(describe(event))
                continue
            show(console, session)
            try:
                text = input(f"{PROMPTS[move]}> ")
            except EOFError:
                text = "quit"
            command = text.strip().lower()
            if command in ("quit", "exit"):
                where = session.path or "(not saved)"
                typer.echo(f"saved to {where}; continue with: codebots play --resume {where}")
                raise typer.Exit(0)
            if command in ("help", "?", ""):
                typer.echo(HELP)
                continue
            try:
                event = getattr(session, f"human_{move}")(text)
            except InputProblem as problem:
                typer.echo(f"! {problem}")
                continue
            typer.echo(describe(event))
        show(console, session, reveal=True)
        typer.echo(session.result_text())
        if session.campaign:
            finish_campaign_game(session)
        lines = session.explanations()
        if lines:
            typer.echo("How the AI saw it:")
            for line in lines:
                typer.echo(f"  {line}")

    @app.command()
    def replay(path: Annotated[str, typer.Argument(help="A game record written by play.")]):
        """Show a saved game move by move."""
        from codebots.cli import fail
        from codebots.errors import CodebotsError
        from codebots.play import replay_lines

        try:
            lines = replay_lines(path)
        except CodebotsError as error:
            raise fail(error) from None
        for line in lines:
            typer.echo(line)


def campaign_game(path: str, slug: str | None, use: str) -> tuple[str, dict]:
    """Show the campaign, pick the mission and the bonuses: (variant label, plan)."""
    from codebots.campaign_progress import CampaignProgress

    progress = CampaignProgress.load(path)
    for line in progress.status_lines():
        typer.echo(line)
    mission = progress.choose(slug)
    bonuses = [b.strip() for b in use.split(",") if b.strip()]
    variant = progress.variant_for(mission, bonuses)
    typer.echo(f"mission: {mission.name} ({variant})")
    return variant, {"path": path, "mission": mission.slug, "bonuses": bonuses}


def finish_campaign_game(session) -> None:
    from codebots.campaign_progress import CampaignProgress
    from codebots.missions import MISSIONS_BY_SLUG

    plan = session.campaign
    progress = CampaignProgress.load(plan["path"])
    won = bool(session.state.winner[0] == 0)
    earned = progress.record(
        MISSIONS_BY_SLUG[plan["mission"]], plan["bonuses"], won, str(session.path)
    )
    if earned:
        typer.echo(f"box finished: you earned the bonus '{earned}'")
    typer.echo(f"campaign saved to {plan['path']}: {len(progress.won)} of 24 missions won")


def describe(event: dict) -> str:
    who = "You" if event.get("by") == "human" else "AI"
    if event["type"] == "clue":
        number = "unlimited" if event["number"] == -1 else event["number"]
        note = " (invalid: penalty)" if not event.get("valid", True) else ""
        if number == 0:
            note += " (none of ours relate to this word: keep away from the cards it suggests)"
        return f"{who} clue: {event['word'].upper()} {number}{note}"
    result = f" -> {event['result']}" if event.get("result") else ""
    verb = "guess" if event["type"] == "guess" else "cover"
    return f"{who} {verb}: {event['word']}{result}"


def show(console, session, reveal: bool = False) -> None:
    from codebots.render import board_table, clue_history, status_line

    giving = session.human_move() in ("clue", "cover")
    spymaster_view = (
        session.duet or session.role == "spymaster" or reveal or (session.role == "team" and giving)
    )
    console.print(
        board_table(
            session.state,
            session.words,
            key_side=0 if session.duet else None,
            show_key=spymaster_view,
        )
    )
    console.print(status_line(session.state) + " | " + clue_history(session.events))
    if session.clue_word and not session.done:
        number = "unlimited" if session.clue_number == -1 else session.clue_number
        console.print(f"current clue: {session.clue_word.upper()} {number}")
