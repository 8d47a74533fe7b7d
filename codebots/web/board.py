"""What the person's seat sees of a game, as plain data for the page templates.

The one place that decides what a page may show: a card's identity appears only when it is
covered, or when the seat sees the key (:func:`codebots.render.shows_key`: a spymaster, the
team's clue turn, Duet's own side, the end of the game). The AI's intended targets are part
of the record but never of a page before the game ends.
"""

from __future__ import annotations

from codebots.engine import DuetState
from codebots.render import DUET_NAMES, TEAM_NAMES, coordinate, number_text, shows_key, status_line


def cards(session, reveal: bool = False, key_side: int = 0) -> list[dict]:
    """The 25 cards in grid order: ``word``, ``coordinate`` (A1..E5), ``covered``,
    ``identity`` (None when the seat may not know it), Duet ``marks`` (sides that marked it)."""
    state = session.state
    see_key = shows_key(session, reveal) if key_side == 0 else reveal
    duet = isinstance(state, DuetState)
    out = []
    for index in range(25):
        cell = {
            "index": index,
            "word": session.card_word(index),
            "coordinate": coordinate(index),
            "covered": False,
            "identity": None,
            "marks": [],
        }
        if duet:
            cell["marks"] = [side for side in (0, 1) if state.marked[0, side, index]]
            if state.found[0, index]:
                cell.update(covered=True, identity="agent")
            elif state.covered[0, index]:
                cell.update(covered=True, identity="bystander")
            elif see_key:
                cell["identity"] = DUET_NAMES[int(state.key[0, key_side, index])]
        else:
            code = int(state.key[0, index])
            if state.covered[0, index]:
                cell.update(covered=True, identity=TEAM_NAMES[code])
            elif see_key:
                cell["identity"] = TEAM_NAMES[code]
        out.append(cell)
    return out


def clues(session) -> list[dict]:
    """The clues so far, oldest first: who gave it, the word, the number as shown, whether it
    was valid, and the guesses made on it (no intended targets: they would leak the key)."""
    history = []
    for event in session.events:
        if event["type"] == "clue":
            by = "you" if event["by"] == "human" else "AI"
            number, valid = number_text(event["number"]), event.get("valid", True)
            history.append({"by": by, "word": event["word"], "number": number, "valid": valid})
            history[-1]["guesses"] = []
        elif event["type"] == "guess" and history:
            history[-1]["guesses"].append(
                {"word": event["word"], "by": "you" if event["by"] == "human" else "AI"}
            )
    return history


def summary(session) -> dict:
    """Whose move it is, the status line, the clue in play, the result at the end."""
    move = session.human_move()
    done = move == "done"
    return {
        "move": move,
        "done": done,
        "status": status_line(session.state),
        "current_clue": session.clue_in_play(),
        "result": session.result_text() if done else "",
        "explanations": session.explanations() if done else [],
        "may_pass": session.may_pass(),
        "bonuses": session.bonuses_held(),
        "moves": len(session.events),
        # Duet bonuses the person may use with a button now (RULES section 3.1).
        "touch_two": bool(session.duet and move == "guess" and session.state.touch_two_left[0]),
        "mark": bool(session.duet and move == "clue" and session.state.mark_left[0]),
        "pending_mark": session.card_word(session.pending_mark)
        if session.pending_mark >= 0
        else "",
    }
