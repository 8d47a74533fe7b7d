"""``codebots serve``: the local web table (:mod:`codebots.web`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from codebots.commands.common import fail
from codebots.errors import CodebotsError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def register(app: typer.Typer) -> None:
    app.command()(serve)


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (loopback: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8765,
    records: Annotated[
        str, typer.Option(help="Folder of the games' records (created if missing).")
    ] = "codebots-games",
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the front page in the default browser.")
    ] = False,
):
    """Play in the browser: a local web table for every variant and seat.

    \b
    Example:
      codebots serve --open

    Every move is written to RECORDS/web-<id>.jsonl as it is made, in the format of
    codebots play: a game resumes in the browser after a restart, or at the terminal
    with codebots play --resume.
    """
    try:
        import uvicorn

        from codebots.web.app import create_app
    except ImportError:
        raise fail(
            CodebotsError("codebots serve needs the web extra: pip install 'codebots[web]'")
        ) from None
    except CodebotsError as error:
        raise fail(error) from None
    try:
        application = create_app(Path(records))
    except OSError as error:
        message = f"cannot use the records folder {records}: {error.strerror}"
        raise fail(CodebotsError(message)) from None
    _check_address(host, port)
    shown = f"[{host}]" if ":" in host else host
    where = "this machine only" if host in LOOPBACK else "every machine that can reach it"
    typer.echo(f"codebots table at http://{shown}:{port}/ ({where}); records in {records}/")
    typer.echo("Ctrl-C stops the server; every game is saved and resumes after a restart.")
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, (f"http://{shown}:{port}/",)).start()
    uvicorn.run(application, host=host, port=port, log_level="warning")


def _check_address(host: str, port: int) -> None:
    """A one-line error now, rather than the server's log later, for an address it cannot
    listen on (a port in use, a host not of this machine)."""
    import socket

    try:
        family, kind, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        reason = getattr(error, "strerror", None) or str(error)
        message = f"cannot listen on {host}:{port} ({reason}); choose another --port or --host"
        raise fail(CodebotsError(message)) from None
