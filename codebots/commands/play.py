"""``codebots play`` and ``codebots replay``: a person at the terminal with the AI."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from codebots.commands.common import INTERRUPTED, fail, parse_seeds
from codebots.errors import CodebotsError

PROMPTS = {
    "clue": "your clue",
    "guess": "your guess",
    "cover": "the virtual team's turn: cover one of its agents (your choice; it frees the"
    " word for clues and removes a distractor)",
    "turn": "the AI gives the next clue: enter, or 'mine' to give it yourself",
}


def register(app: typer.Typer) -> None:
    app.command()(play)
    app.command()(replay)


def play(
    variant: Annotated[
        str | None,
        typer.Option(help="Variant id, e.g. duet or mission/gringotts. [default: classic]"),
    ] = None,
    role: Annotated[
        str | None,
        typer.Option(
            help="Team games: guesser, spymaster, or team (both red seats). [default: guesser]"
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(metavar="INT", help="Board seed. [default: a fresh random seed]"),
    ] = None,
    spymaster: Annotated[
        str | None, typer.Option(help="The AI spymaster. [default: crossplay]")
    ] = None,
    guesser: Annotated[
        str | None, typer.Option(help="The AI guesser. [default: crossplay]")
    ] = None,
    save: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Game record (JSONL), a new file. [default: codebots-game-SEED.jsonl]",
        ),
    ] = None,
    resume: Annotated[
        str | None, typer.Option(metavar="FILE", help="Continue a saved game.")
    ] = None,
    penalties: Annotated[
        bool, typer.Option(help="Invalid clues get the rule book's penalty instead of a retry.")
    ] = False,
    relaxed: Annotated[
        bool,
        typer.Option(
            help="Your clues by the relaxed rules: names the word lists do not know, several"
            " words, hyphens, acronyms (each word still checked against the cards)."
        ),
    ] = False,
    campaign: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Mission-log progress file: play its next mission."),
    ] = None,
    mission: Annotated[
        str | None, typer.Option(help="With --campaign: an open mission to play instead.")
    ] = None,
    use_bonus: Annotated[
        str,
        typer.Option(help="With --campaign: held reward bonuses to spend, comma-separated."),
    ] = "",
    expert: Annotated[
        bool,
        typer.Option(
            help="With --campaign: the expert option, every mission with one token fewer (set"
            " when the campaign begins, kept after)."
        ),
    ] = False,
) -> None:
    """Play a game with the AI at the terminal; every move is saved as it is made.

    \b
    Example:
      codebots play --variant duet --seed 7

    A new game never replaces a saved one: without --save the record is
    codebots-game-SEED.jsonl (or -2, -3, ... when that name is taken).
    """
    from rich.console import Console

    from codebots.play import InputProblem
    from codebots.play.help_text import help_text, rules_text
    from codebots.render import describe_move

    console = Console(highlight=False)
    given = {
        "--variant": variant,
        "--role": role,
        "--seed": seed,
        "--spymaster": spymaster,
        "--guesser": guesser,
        "--save": save,
        "--penalties": penalties or None,
        "--relaxed": relaxed or None,
        "--campaign": campaign,
        "--mission": mission,
        "--use-bonus": use_bonus or None,
        "--expert": expert or None,
    }
    try:
        session = _open_session(resume, {k: v for k, v in given.items() if v is not None})
    except CodebotsError as error:
        raise fail(error) from None
    except KeyboardInterrupt:  # while the game is being set up: no move was made yet
        typer.echo("\ninterrupted before the first move", err=True)
        raise typer.Exit(INTERRUPTED) from None
    board_shown = False
    try:
        while not session.done:
            move = session.human_move()
            before = session.greens_left()
            if move is None:
                event = session.ai_move()
                say(describe_move(event), session, before)
                board_shown = False
                continue
            if not board_shown:  # once a move: help or a refused input stays in sight
                show(console, session)
                board_shown = True
            prompt = PROMPTS[move] + (" (or 'pass')" if session.may_pass() else "")
            if move == "guess" and session.spec.three_players:  # the guesser of both teams
                prompt += f" for {'red' if int(session.state.team[0]) == 0 else 'blue'}"
            try:
                text = input(f"{prompt}> ")
            except EOFError:
                text = "quit"
            command = text.strip().lower()
            if command in ("quit", "exit"):
                typer.echo(saved_line(session))
                raise typer.Exit(0)
            if command in ("help", "?") or (command == "" and move != "turn"):
                typer.echo(help_text(session, move))
                continue
            if command == "rules":
                typer.echo(rules_text(session))
                continue
            try:
                event = getattr(session, f"human_{move}")(text)
            except InputProblem as problem:
                typer.echo(f"! {problem}")
                continue
            say(describe_move(event), session, before)
            board_shown = False
    except KeyboardInterrupt:  # every move made is already in the record
        typer.echo(f"\ninterrupted: {saved_line(session)}", err=True)
        raise typer.Exit(INTERRUPTED) from None
    show(console, session, reveal=True)
    typer.echo(session.result_text())
    if session.campaign:
        try:
            finish_campaign_game(session)
        except CodebotsError as error:
            raise fail(error) from None
    lines = session.explanations()
    if lines:
        typer.echo("How the AI saw it:")
        for line in lines:
            typer.echo(f"  {line}")


def _open_session(resume: str | None, given: dict):
    """The game to play: a resumed one, or a new one whose record is created now. ``given``:
    the options the person typed (an option that would be ignored is an error)."""
    from codebots.game_record import fresh_record_path
    from codebots.play import DEFAULT_AI, Session, new_seed
    from codebots.variants import get_variant

    if resume:
        if given:
            raise CodebotsError(
                f"--resume continues a saved game as it was: leave out {', '.join(given)}"
            )
        session = Session.load(resume)
        if session.cut_off:
            typer.echo(
                f"note: line {session.cut_off} of {resume} was cut off (a crash while it was "
                "written?); resuming from the last whole move"
            )
            session.save()
        typer.echo(f"resumed {resume}: {len(session.events)} moves replayed")
        return session
    campaign = given.get("--campaign")
    for option in ("--mission", "--use-bonus", "--expert"):
        if option in given and not campaign:
            raise CodebotsError(f"{option} needs --campaign FILE (the mission-log progress)")
    if campaign and "--variant" in given:
        raise CodebotsError("--campaign plays its missions: leave out --variant (or --campaign)")
    seed = given.get("--seed")
    number = parse_seeds(seed, 1) if seed is not None else new_seed()
    variant, plan = given.get("--variant", "classic"), None
    if campaign:
        variant, plan = campaign_game(
            campaign,
            given.get("--mission"),
            given.get("--use-bonus", ""),
            number,
            seed is not None,
            bool(given.get("--expert")),
        )
    if "--role" in given and get_variant(variant).family == "duet":
        raise CodebotsError(
            "--role is for team games; in Duet and the missions you are player 0 (leave it out)"
        )
    save = given.get("--save")
    path = Path(save) if save else fresh_record_path(number)
    session = Session(
        variant,
        number,
        given.get("--role", "guesser"),
        given.get("--spymaster", DEFAULT_AI),
        given.get("--guesser", DEFAULT_AI),
        path,
        bool(given.get("--penalties")),
        campaign=plan,
        relaxed=bool(given.get("--relaxed")),
    )
    session.start()
    typer.echo(f"recording to {path} (seed {number})")
    typer.echo(partner_line(session.spymaster_name, session.guesser_name))
    return session


def partner_line(spymaster: str, guesser: str) -> str:
    """Who the AI is, and the wait for its models the first time."""
    from codebots import dictionary_vectors
    from codebots.agents.crossplay import committee
    from codebots.agents.registry import split_agent_name

    names = {*spymaster.split("|"), guesser}  # rival spymasters: red's|blue's
    line = f"the AI: spymaster {spymaster}, guesser {guesser}"
    crossplay = [split_agent_name(n.strip()) for n in names]
    crossplay = [name for name in crossplay if name[0] == "crossplay"]
    if crossplay:
        minds = ", ".join(committee(crossplay[0][1].get("without", "")))
        line += (
            f" (thinking with {minds}; the first game on a machine builds their tables, two to"
            " three minutes; --spymaster glove --guesser glove starts in seconds)"
        )
        if "gcide" not in minds and not dictionary_vectors.available():
            line += f"; the gcide mind is not installed: {dictionary_vectors.INSTALL_HINT}"
    return line


def saved_line(session) -> str:
    where = session.path or "(not saved)"
    return f"saved to {where}; continue with: codebots play --resume {where}"


def replay(path: Annotated[str, typer.Argument(help="A game record written by play.")]):
    """Show a saved game move by move."""
    from codebots.replay import replay_lines

    try:
        lines = replay_lines(path)
    except CodebotsError as error:
        raise fail(error) from None
    for line in lines:
        typer.echo(line)


def campaign_game(
    path: str, slug: str | None, use: str, seed: int, chosen: bool, expert: bool = False
) -> tuple[str, dict]:
    """Show the campaign, pick the mission and the bonuses: (variant label, plan)."""
    from codebots.campaign_progress import CampaignProgress, plan_game

    progress = CampaignProgress.load(path)
    progress.choose_expert(expert)
    for line in progress.status_lines():
        typer.echo(line)
    bonuses = [b.strip() for b in use.split(",") if b.strip()]
    mission, variant, plan = plan_game(progress, slug, bonuses, seed, chosen)
    typer.echo(f"mission: {mission.name} ({variant})")
    return variant, plan


def finish_campaign_game(session) -> None:
    """Book the finished game in its campaign (once)."""
    from codebots.campaign_progress import book_game

    for line in book_game(session):
        typer.echo(line)


def say(line: str, session, before: tuple[int, int]) -> None:
    """A move's line, then the hand-over it caused (Duet), if any."""
    typer.echo(line)
    for announcement in session.announcements(before):
        typer.echo(f"* {announcement}")


def show(console, session, reveal: bool = False) -> None:
    from codebots.render import board_table, clue_history, legend, shows_key, status_line, team_line

    spymaster_view = shows_key(session, reveal)
    console.print(
        board_table(
            session.state,
            session.words,
            key_side=0 if session.duet else None,
            show_key=spymaster_view,
        )
    )
    if spymaster_view:
        console.print(legend(session.duet))
    if reveal and session.duet:  # the end: the AI's side of the key too, and what lost
        console.print("The AI's side of the key:")
        console.print(board_table(session.state, session.words, key_side=1, show_key=True))
        losing = session.losing_card()
        if losing:
            console.print(losing)
    status = status_line(session.state) + " | " + clue_history(session.events)
    console.print(status if session.duet else f"{team_line(session)} | {status}")
    held = session.bonuses_held()
    if held and not session.done:
        console.print(f"bonuses: {held} (see 'help')")
    if session.clue_in_play():
        console.print(f"current clue: {session.clue_in_play()}")
