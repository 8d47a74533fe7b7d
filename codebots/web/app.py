"""The web routes of ``codebots serve``: thin, over :mod:`codebots.web.games` and the same
:class:`codebots.play.Session` the terminal plays. Pages are rendered on the server (no
script at all, no external file: it works with no network); every form posts and redirects,
so a reload never repeats a move. Domain errors are a page with a 4xx status and one line
saying what went wrong and what to do: an unknown game 404, a move out of turn or submitted
twice 409, anything else the person typed 400.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Annotated

from codebots.errors import CodebotsError
from codebots.files import atomic_write_bytes
from codebots.play import InputProblem
from codebots.render import describe_move
from codebots.web import board
from codebots.web.games import Games, OutOfTurn, UnknownGame

try:
    from fastapi import FastAPI, File, Form, Request, UploadFile
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import HTMLResponse, RedirectResponse
    from fastapi.staticfiles import StaticFiles
    from fastapi.templating import Jinja2Templates
except ImportError:  # pragma: no cover - the message is tested through the CLI
    raise CodebotsError(
        "codebots serve needs the web extra: pip install 'codebots[web]' (make install has it)"
    ) from None

HERE = Path(__file__).parent
MAX_POOL_BYTES = 200_000  # an uploaded card list: thousands of cards
MAX_RECORD_BYTES = 2_000_000  # a game record: a few hundred moves
CAMPAIGN_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")
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
    from codebots.missions import REWARDS
    from codebots.play import DEFAULT_AI
    from codebots.variants import get_variant, list_variants
    from codebots.vocab import WORDLIST_DIR, load_pool

    app = FastAPI(title="codebots", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.games = games = Games(records)
    templates = Jinja2Templates(directory=HERE / "templates")
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    def page(request: Request, template: str, code: int = 200, **context) -> HTMLResponse:
        context.setdefault("message", "")
        return templates.TemplateResponse(request, template, context, status_code=code)

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

    def save_pool(upload) -> str:
        """An uploaded card list kept in the records folder (by its content's digest, so the
        game's record names a file that stays); "" without one."""
        if upload is None or not upload.filename:
            return ""
        data = read_upload(upload, MAX_POOL_BYTES, "a card list")
        folder = games.folder / "pools"
        folder.mkdir(exist_ok=True)
        path = folder / f"{hashlib.sha256(data).hexdigest()[:16]}.txt"
        atomic_write_bytes(path, data)
        load_pool(path)  # its one-line error now, before a game is made of it
        return str(path.resolve())

    def new_game_page(request: Request, status: int = 200, message: str = "", **chosen):
        defaults = {"variant": "classic", "role": "guesser", "spymaster": DEFAULT_AI}
        defaults |= {"guesser": DEFAULT_AI, "seed": "", "penalties": False, "options": ""}
        defaults |= {"pool": ""}
        return page(
            request,
            "new.html",
            status,
            message=message,
            variants=list_variants(),
            roles=list(SEATS.items()),
            spymasters=list(SPYMASTERS),
            guessers=list(GUESSERS),
            pools=sorted(path.stem for path in WORDLIST_DIR.glob("*.txt")),
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
        options: Annotated[str, Form()] = "",
        pool: Annotated[str, Form()] = "",
        pool_file: Annotated[UploadFile | None, File()] = None,
    ):
        chosen = {"variant": variant, "role": role, "spymaster": spymaster, "guesser": guesser}
        chosen |= {"seed": seed, "penalties": bool(penalties), "options": options, "pool": pool}
        try:
            variant = with_options(variant, options, pool, save_pool(pool_file))
            spec = get_variant(variant)
            if role not in SEATS:
                raise CodebotsError(f"unknown seat '{role}'; choose one of {', '.join(SEATS)}")
            number = board_seed(seed)
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
        game = games.get(game_id)
        session = game.session
        plan = session.campaign or {}
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
            notes=game.notes,
            campaign_name=Path(plan.get("path", "")).stem,
        )

    @app.post("/games/open")
    def open_record(request: Request, record: Annotated[UploadFile, File()]):
        try:
            data = read_upload(record, MAX_RECORD_BYTES, "a game record")
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise CodebotsError("that file is not UTF-8 text, so not a game record") from None
            game_id = games.adopt(text)
        except CodebotsError as error:
            return new_game_page(request, 400, f"{record.filename}: {error}")
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    def table(request: Request, game_id: str):
        game = games.get(game_id)
        with game.lock:
            return table_page(request, game_id)

    @app.get("/games/{game_id}/replay", response_class=HTMLResponse)
    def replay(request: Request, game_id: str, step: int = -1):
        from codebots.play import Session

        game = games.get(game_id)
        with game.lock:
            if not game.session.done:
                raise OutOfTurn("a game is replayed once it has ended (its key is shown)")
            total = len(game.session.events)
        step = total if step < 0 or step > total else step
        session = Session.load(games.path(game_id), moves=step)
        return page(
            request,
            "replay.html",
            game_id=game_id,
            variant=session.spec.label,
            seed=session.seed,
            step=step,
            total=total,
            cards=board.cards(session, reveal=True),
            clues=board.clues(session),
            status=board.summary(session)["status"],
            last=describe_move(session.events[-1]) if session.events else "the board is dealt",
        )

    @app.post("/games/{game_id}/move")
    def move(
        request: Request,
        game_id: str,
        moves: Annotated[int, Form()],
        text: Annotated[str, Form()] = "",
        card: Annotated[str, Form()] = "",
        first: Annotated[str, Form()] = "",
        second: Annotated[str, Form()] = "",
        mark: Annotated[str, Form()] = "",
    ):
        # The bonus buttons post the terminal's inputs: "A1 + B2" (touch two), "mark C3".
        typed = f"{first} + {second}" if first and second else f"mark {mark}" if mark else ""
        typed = typed or card or text
        try:
            games.move(game_id, typed, moves)
        except InputProblem as problem:
            game = games.get(game_id)
            with game.lock:
                return table_page(request, game_id, 400, f"{typed!r}: {problem}")
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    def campaign_path(name: str) -> Path:
        if not CAMPAIGN_NAME.fullmatch(name or ""):
            raise CodebotsError(
                f"'{name}' is not a campaign name: letters, digits, - and _ (at most 40)"
            )
        return games.campaigns / f"{name}.json"

    @app.get("/campaigns", response_class=HTMLResponse)
    def campaigns(request: Request):
        names = sorted(path.stem for path in games.campaigns.glob("*.json"))
        return page(request, "campaigns.html", names=names)

    @app.post("/campaigns")
    def new_campaign(request: Request, name: Annotated[str, Form()]):
        campaign_path(name.strip())
        return RedirectResponse(f"/campaigns/{name.strip()}", status_code=303)

    def campaign_page(request: Request, name: str, code: int = 200, message: str = ""):
        from codebots.campaign_progress import CampaignProgress

        progress = CampaignProgress.load(campaign_path(name))
        return page(
            request,
            "campaign.html",
            code,
            message=message,
            name=name,
            progress=progress,
            locations=mission_map(progress),
            rewards=REWARDS,
        )

    @app.get("/campaigns/{name}", response_class=HTMLResponse)
    def campaign(request: Request, name: str):
        return campaign_page(request, name)

    @app.post("/campaigns/{name}/play")
    def play_mission(
        request: Request,
        name: str,
        mission: Annotated[str, Form()],
        bonuses: Annotated[list[str], Form()] = [],  # noqa: B006 - FastAPI's form default
        expert: Annotated[str, Form()] = "",
        seed: Annotated[str, Form()] = "",
        spymaster: Annotated[str, Form()] = DEFAULT_AI,
        guesser: Annotated[str, Form()] = DEFAULT_AI,
    ):
        from codebots.campaign_progress import CampaignProgress, plan_game

        try:
            path = campaign_path(name)
            progress = CampaignProgress.load(path)
            progress.choose_expert(bool(expert))
            number = board_seed(seed)
            _, variant, plan = plan_game(progress, mission, bonuses, number, bool(seed.strip()))
            game_id = games.create(
                variant=variant,
                seed=number,
                role="guesser",
                spymaster_name=spymaster.strip(),
                guesser_name=guesser.strip(),
                campaign=plan,
            )
        except CodebotsError as error:
            return campaign_page(request, name, 400, str(error))
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    return app


def board_seed(text: str) -> int:
    """The seed typed on a page, or a fresh one when it was left empty."""
    from codebots.play import new_seed

    if not text.strip():
        return new_seed()
    if not text.strip().isdigit():
        raise CodebotsError(f"the seed must be a whole number 0 or more, not '{text}'")
    return int(text)


def read_upload(upload, limit: int, what: str) -> bytes:
    """An uploaded file's bytes, refused past ``limit`` bytes (``what`` it should be)."""
    data = upload.file.read(limit + 1)
    if len(data) > limit:
        raise CodebotsError(f"that file is over {limit // 1000} kB, too large for {what}")
    return data


def with_options(variant: str, options: str, pool: str, uploaded: str) -> str:
    """The variant id with the options typed on the new game page (``three_players``,
    ``experts``, ``tokens=8``) and the chosen or uploaded pool, as ``id[a,b,pool=...]``."""
    parts = [part.strip() for part in options.strip().strip("[]").split(",") if part.strip()]
    if uploaded or pool:
        parts.append(f"pool={uploaded or pool}")
    if not parts:
        return variant
    if "[" in variant:
        raise CodebotsError(f"choose a variant from the list, not '{variant}'")
    return f"{variant}[{','.join(parts)}]"


def mission_map(progress) -> list[dict]:
    """The campaign as the mission map: each location's missions in order, with whether
    each is won, open or locked, its tokens and the reward its box earns."""
    from codebots.campaign import is_unlocked
    from codebots.missions import MISSIONS

    won = set(progress.won)
    locations: dict[str, list[dict]] = {}
    for mission in MISSIONS:
        state = "won" if mission.slug in won else "open" if is_unlocked(mission, won) else "locked"
        locations.setdefault(mission.location, []).append(
            {"mission": mission, "state": state, "box": mission.box or mission.slug}
        )
    return [{"name": name, "missions": found} for name, found in locations.items()]
