"""``codebots replay``: a saved game, move by move, as text (no AI agent is loaded)."""

from __future__ import annotations

from pathlib import Path

from codebots.engine import UNLIMITED
from codebots.play import Session


def replay_lines(path: str | Path) -> list[str]:
    """A saved game, move by move, as text."""
    session = Session.load(path)
    head = session.header()
    if session.duet:  # the person is player 0, the AI player 1 (one agent of each kind)
        seats = (
            f"you as player 0, AI player 1 ({head['spymaster']} clues, {head['guesser']} guesses)"
        )
    else:
        seats = (
            f"you as {head['role']}, AI spymaster {head['spymaster']}, AI guesser {head['guesser']}"
        )
    lines = [f"{head['variant']} seed {head['seed']}: {seats}"]
    if session.cut_off:
        lines.append(f"(line {session.cut_off} was cut off and is left out)")
    for number, event in enumerate(session.events, start=1):
        who = "you" if event.get("by") == "human" else "AI"
        if event["type"] == "clue":
            count = "unlimited" if event["number"] == UNLIMITED else event["number"]
            lines.append(f"{number:3d}. {who} clue: {event['word']} {count}")
        elif event["type"] == "turn":  # a Duet choice of who acts next
            acts = "the AI acts next" if event["next"] == "ai" else "you take the next clue"
            lines.append(f"{number:3d}. {who}: {acts}")
        else:
            result = f" -> {event['result']}" if event.get("result") else ""
            lines.append(f"{number:3d}. {who} {event['type']}: {event['word']}{result}")
    lines.append(session.result_text() if session.done else "(game not finished)")
    return lines
