"""The web routes of ``codebots serve``: thin, over :mod:`codebots.web.games` and the same
:class:`codebots.play.Session` the terminal plays. Pages are rendered on the server (no
script at all, no external file: it works with no network); every form posts and redirects,
so a reload never repeats a move. Domain errors are a page with a 4xx status and one line
saying what went wrong and what to do: an unknown game 404, a move out of turn or submitted
twice 409, anything else the person typed 400.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from codebots.errors import CodebotsError
from codebots.play import InputProblem
from codebots.web import board
from codebots.web.games import Games, OutOfTurn, UnknownGame

try:
    from fastapi import FastAPI, Form, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import HTMLResponse, RedirectResponse
    from fastapi.staticfiles import StaticFiles
    from fastapi.templating import Jinja2Templates
except ImportError:  # pragma: no cover - the message is tested through the CLI
    raise CodebotsError(
        "codebots serve needs the web extra: pip install 'codebots[web]' (make install has it)"
    ) from None

HERE = Path(__file__).parent
SEATS = {
    "guesser": "red's guesser (the AI gives the clues)",
    "spymaster": "red's spymaster (the AI guesses)",
    "team": "both red seats (two people at one screen)",
}
PROMPTS = {
    "clue": "your clue, as 'word number'",
    "guess": "click a card, or type its name or square (B3)",
    "cover": "cover one of the virtual team's agents: click it",
    "turn": "the AI gives the next clue: 'pass', or type 'mine' or your clue to give it",
}


def create_app(records: Path) -> FastAPI:
    """The app, its games' records kept in folder ``records``."""
    from codebots.agents import GUESSERS, SPYMASTERS
    from codebots.play import DEFAULT_AI, new_seed
    from codebots.variants import get_variant, list_variants

    app = FastAPI(title="codebots", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.games = games = Games(records)
    templates = Jinja2Templates(directory=HERE / "templates")
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    def page(request: Request, name: str, code: int = 200, **context) -> HTMLResponse:
        context.setdefault("message", "")
        return templates.TemplateResponse(request, name, context, status_code=code)

    def error_page(request: Request, code: int, message: str, game_id: str = ""):
        back = game_id if code != 404 else ""  # a link back to a game that exists
        return page(request, "error.html", code, status=code, message=message, game_id=back)

    @app.exception_handler(CodebotsError)
    async def domain_error(request: Request, error: CodebotsError):
        status = (
            404 if isinstance(error, UnknownGame) else 409 if isinstance(error, OutOfTurn) else 400
        )
        return error_page(request, status, str(error), request.path_params.get("game_id", ""))

    @app.exception_handler(RequestValidationError)
    async def bad_form(request: Request, error: RequestValidationError):
        fields = ", ".join(str(problem["loc"][-1]) for problem in error.errors())
        return error_page(request, 400, f"the form is missing or garbles: {fields}; reload it")

    def new_game_page(request: Request, status: int = 200, message: str = "", **chosen):
        defaults = {"variant": "classic", "role": "guesser", "spymaster": DEFAULT_AI}
        defaults |= {"guesser": DEFAULT_AI, "seed": "", "penalties": False}
        return page(
            request,
            "new.html",
            status,
            message=message,
            variants=list_variants(),
            roles=list(SEATS.items()),
            spymasters=list(SPYMASTERS),
            guessers=list(GUESSERS),
            chosen=defaults | chosen,
        )

    @app.get("/", response_class=HTMLResponse)
    def front(request: Request):
        return new_game_page(request)

    @app.post("/games")
    def start(
        request: Request,
        variant: Annotated[str, Form()],
        role: Annotated[str, Form()] = "guesser",
        spymaster: Annotated[str, Form()] = DEFAULT_AI,
        guesser: Annotated[str, Form()] = DEFAULT_AI,
        seed: Annotated[str, Form()] = "",
        penalties: Annotated[str, Form()] = "",
    ):
        chosen = {"variant": variant, "role": role, "spymaster": spymaster, "guesser": guesser}
        chosen |= {"seed": seed, "penalties": bool(penalties)}
        try:
            spec = get_variant(variant)
            if role not in SEATS:
                raise CodebotsError(f"unknown seat '{role}'; choose one of {', '.join(SEATS)}")
            if seed.strip() and not seed.strip().isdigit():
                raise CodebotsError(f"the seed must be a whole number 0 or more, not '{seed}'")
            number = int(seed) if seed.strip() else new_seed()
            game_id = games.create(
                variant=variant,
                seed=number,
                role="guesser" if spec.family == "duet" else role,
                spymaster_name=spymaster.strip(),
                guesser_name=guesser.strip(),
                penalties=bool(penalties),
            )
        except CodebotsError as error:
            return new_game_page(request, 400, str(error), **chosen)
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    def table_page(request: Request, game_id: str, status: int = 200, message: str = ""):
        session = games.get(game_id).session
        summary = board.summary(session)
        move = summary["move"]
        seat = "player 0 (the AI is player 1)" if session.duet else SEATS[session.role]
        return page(
            request,
            "table.html",
            status,
            message=message,
            game_id=game_id,
            variant=session.spec.label,
            seed=session.seed,
            seat=seat,
            summary=summary,
            cards=board.cards(session, reveal=summary["done"]),
            other_side=board.cards(session, True, key_side=1)
            if session.duet and summary["done"]
            else [],
            clues=board.clues(session),
            clickable=move in ("guess", "cover"),
            prompt=PROMPTS.get(move, ""),
            placeholder="ocean 2" if move in ("clue", "turn") else "card name",
            record=str(games.path(game_id)),
        )

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    def table(request: Request, game_id: str):
        game = games.get(game_id)
        with game.lock:
            return table_page(request, game_id)

    @app.post("/games/{game_id}/move")
    def move(
        request: Request,
        game_id: str,
        moves: Annotated[int, Form()],
        text: Annotated[str, Form()] = "",
        card: Annotated[str, Form()] = "",
    ):
        typed = card or text
        try:
            games.move(game_id, typed, moves)
        except InputProblem as problem:
            game = games.get(game_id)
            with game.lock:
                return table_page(request, game_id, 400, f"{typed!r}: {problem}")
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    return app
