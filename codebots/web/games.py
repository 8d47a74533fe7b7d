"""The games one ``codebots serve`` holds: each a :class:`codebots.play.Session` with its own
record file and lock, so that several browser tabs play at once and one game's requests never
touch another's.

Game ids are unguessable (``secrets``: 96 random bits). Every move is written to the game's
record as it is made (the same format and checks as ``codebots play``), in the server's
records folder as ``web-<id>.jsonl``: after a restart a game is loaded from its record on
first use, and ``codebots play --resume`` continues it at the terminal (and the server a
terminal game copied there).
"""

from __future__ import annotations

import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path

from codebots.errors import CodebotsError
from codebots.files import atomic_write_text
from codebots.play import InputProblem, Session

GAME_ID = re.compile(r"[A-Za-z0-9_-]{16}")


class UnknownGame(CodebotsError):
    """No game of that id on this server (a 404)."""


class OutOfTurn(CodebotsError):
    """A move the game is not waiting for: out of turn, after the end, or submitted twice
    (a 409)."""


@dataclass
class Game:
    session: Session
    lock: threading.Lock = field(default_factory=threading.Lock)
    notes: list[str] = field(default_factory=list)  # what booking it in its campaign said


class Games:
    """The server's games, by id, their records in ``folder``."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.campaigns = self.folder / "campaigns"  # mission-log progress files, by name
        self._games: dict[str, Game] = {}
        self._lock = threading.Lock()

    def path(self, game_id: str) -> Path:
        return self.folder / f"web-{game_id}.jsonl"

    def create(self, **options) -> str:
        """Start a new game (``options``: :class:`Session`'s fields but ``path`` and
        ``game_id``), play the AI's opening moves, and return its id."""
        game_id = secrets.token_urlsafe(12)  # 16 characters
        session = Session(**options, path=self.path(game_id), game_id=game_id)
        session.start()
        game = Game(session)
        with game.lock:
            with self._lock:
                self._games[game_id] = game
            play_ai(session)
        return game_id

    def adopt(self, text: str) -> str:
        """A game record from elsewhere (``codebots play --save``), kept as one of this
        server's games under its own id; returns the id. The record is checked move by move
        first; one of the same id already here must be the same game."""
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            probe = Path(folder) / "game.jsonl"
            probe.write_text(text, encoding="utf-8")
            session = Session.load(probe)
        game_id = session.game_id
        if not GAME_ID.fullmatch(game_id):
            raise CodebotsError(f"that record's game id '{game_id}' is not one this server uses")
        path = self.path(game_id)
        with self._lock:
            if path.exists():
                if path.read_text(encoding="utf-8") != text:
                    raise CodebotsError(
                        f"game {game_id} is already on this server (at another move): "
                        f"continue it at /games/{game_id}"
                    )
            else:
                atomic_write_text(path, text)
        return game_id

    def get(self, game_id: str) -> Game:
        """The game ``game_id``, loaded from its record if this server has not seen it yet
        (a restart)."""
        if not GAME_ID.fullmatch(game_id or ""):
            raise UnknownGame(f"no game '{game_id}' on this server; start one on the front page")
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                path = self.path(game_id)
                if not path.exists():
                    raise UnknownGame(
                        f"no game '{game_id}' on this server; start one on the front page"
                    )
                session = Session.load(path)
                if session.cut_off:
                    session.save()  # the cut-off last line dropped, as play --resume does
                game = self._games[game_id] = Game(session)
                _finish(game)  # a campaign game that ended just before a crash
        return game

    def move(self, game_id: str, text: str, moves_seen: int) -> dict:
        """The person's move ``text`` in game ``game_id``, then the AI's moves until the person
        is to act again. ``moves_seen``: how many moves the page showed; a page older than the
        game (a double submit, a second tab) is refused, never applied twice."""
        game = self.get(game_id)
        with game.lock:
            session = game.session
            if moves_seen != len(session.events):
                raise OutOfTurn("that page is out of date (a move was made since); it is reloaded")
            move = session.human_move()
            if move == "done":
                raise OutOfTurn("the game is over; start a new one on the front page")
            if move is None:
                raise OutOfTurn("it is the AI's move, not yours; reload the page")
            event = getattr(session, f"human_{move}")(text)
            play_ai(session)
            _finish(game)
            return event


def _finish(game: Game) -> None:
    """Count an ended campaign game in its campaign (once, however often it is loaded)."""
    session = game.session
    if session.done and session.campaign and not game.notes:
        from codebots.campaign_progress import book_game

        game.notes = book_game(session)


def play_ai(session: Session) -> None:
    """The AI's moves until the person is to act or the game ends."""
    while not session.done and session.human_move() is None:
        session.ai_move()


__all__ = ["GAME_ID", "Game", "Games", "InputProblem", "OutOfTurn", "UnknownGame", "play_ai"]
