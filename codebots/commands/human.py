"""``codebots eval-guesser``: how often guessers agree with recorded human guesses."""

from __future__ import annotations

from typing import Annotated

import typer

from codebots.errors import CodebotsError


def register(app: typer.Typer) -> None:
    """Add the ``eval-guesser`` command to ``app``."""

    @app.command("eval-guesser")
    def eval_guesser(
        turns: Annotated[
            str,
            typer.Option(
                metavar="FILE",
                help='JSONL, one turn a line: {"board": [2-25 words], "clue": "ocean", '
                '"number": 2 (or null), "guesses": ["WHALE", "SHIP"], "revealed": [covered '
                "cards, optional]}; turns with no guesses are skipped and listed.",
            ),
        ],
        guesser: Annotated[
            str, typer.Option(help="Registered guesser name(s), comma-separated.")
        ] = "glove",
        seed: Annotated[
            str, typer.Option(metavar="INT", help="Seed of guessers that draw at random.")
        ] = "0",
    ) -> None:
        """Compare guessers with human guesses: first-guess agreement, overlap@k, mean rank
        of the human's first guess, and the random floor (exact expectation).

        Example: codebots eval-guesser --turns turns.jsonl --guesser glove,random
        """
        from codebots.commands.common import fail, parse_int

        try:
            from codebots.human_agreement import evaluate_guesser
            from codebots.report import to_markdown

            table = evaluate_guesser(
                turns, guesser.split(","), seed=parse_int("--seed", seed, minimum=0)
            )
        except CodebotsError as error:
            raise fail(error) from None
        typer.echo(to_markdown(table))
