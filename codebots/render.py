"""Board rendering for the terminal (rich): the grid, covered cards, marks, the time bank."""

from __future__ import annotations

import numpy as np
from rich.table import Table
from rich.text import Text

from codebots.engine import DuetState
from codebots.engine.constants import ASSASSIN, BLUE, BYSTANDER, RED

ROWS = "ABCDE"
TEAM_STYLE = {
    RED: "bold white on red",
    BLUE: "bold white on blue",
    BYSTANDER: "black on grey70",
    ASSASSIN: "bold white on grey11",
}
KEY_STYLE = {RED: "red", BLUE: "blue", BYSTANDER: "grey50", ASSASSIN: "bold magenta"}


def coordinate(index: int) -> str:
    """Grid name of a card position: 0 -> A1, 24 -> E5."""
    return f"{ROWS[index // 5]}{index % 5 + 1}"


def board_table(
    state, words, game: int = 0, key_side: int | None = None, show_key: bool = False
) -> Table:
    """A 5x5 table of one game. ``show_key``: colour visible words by the key (team games:
    the key; Duet: side ``key_side``)."""
    table = Table(show_header=True, header_style="bold", show_lines=True, pad_edge=False)
    table.add_column("")
    for column in range(5):
        table.add_column(str(column + 1), justify="center", min_width=10)
    duet = isinstance(state, DuetState)
    for row in range(5):
        cells = []
        for column in range(5):
            index = row * 5 + column
            word = words[state.cards[game, index]]
            cells.append(_cell(state, game, index, word, duet, key_side, show_key))
        table.add_row(ROWS[row], *cells)
    return table


TEAM_NAMES = {RED: "red", BLUE: "blue", BYSTANDER: "bystander", ASSASSIN: "assassin"}
DUET_NAMES = {0: "green", BYSTANDER: "bystander", ASSASSIN: "assassin"}
DUET_STYLE = {0: "green", BYSTANDER: "grey50", ASSASSIN: "bold magenta"}
# Every identity is also written out, never shown by colour alone: with NO_COLOR, in a pipe or
# to a colour-blind player the key must still be there.
LEGEND = "(x): the key of a card in play   [x]: a card already covered"
DUET_LEGEND = (
    "(green / bystander / assassin): the key of your side   [agent]: a green found   "
    "✕0 / ✕1: marked bystander from your side / the AI's (a card marked from both is covered)"
)


def shows_key(session, reveal: bool = False) -> bool:
    """Whether the person's seat sees the key now (Duet: its own side): a spymaster always,
    both red seats on their clue or cover turn, every seat once ``reveal`` (the end)."""
    giving = session.human_move() in ("clue", "cover")
    seat_sees = session.role == "spymaster" or (session.role == "team" and giving)
    return bool(session.duet or seat_sees or reveal)


def legend(duet: bool) -> Text:
    """The legend as plain text (no markup: its brackets are part of it)."""
    return Text(DUET_LEGEND if duet else LEGEND)


def team_line(session) -> str:
    """Team games: who the person plays and which team starts."""
    key = session.state.key[0]
    starts = "red" if (key == RED).sum() > (key == BLUE).sum() else "blue"  # 9 agents to 8
    seat = {"guesser": "red's guesser", "spymaster": "red's spymaster", "team": "both red seats"}
    if session.spec.three_players:  # Marvel's three players: one guesser for both teams
        seat["guesser"] = "the guesser of both teams"
    return f"you play {seat[session.role]}; {starts} starts"


def _cell(state, game, index, word, duet, key_side, show_key) -> Text:
    if duet:
        marks = " ".join(f"✕{side}" for side in (0, 1) if state.marked[game, side, index])
        if state.found[game, index]:
            return Text(f"{word}\n[agent]", style="bold white on green4")
        if state.covered[game, index]:
            return Text(f"{word}\n{marks}", style=TEAM_STYLE[BYSTANDER])
        lines = [word]
        style = ""
        if show_key and key_side is not None:
            code = int(state.key[game, key_side, index])
            lines.append(f"({DUET_NAMES[code]})")
            style = DUET_STYLE[code]
        if marks:
            lines.append(marks)
        return Text("\n".join(lines), style=style)
    code = int(state.key[game, index])
    if state.covered[game, index]:
        return Text(f"{word}\n[{TEAM_NAMES[code]}]", style=TEAM_STYLE[code])
    if show_key:
        return Text(f"{word}\n({TEAM_NAMES[code]})", style=KEY_STYLE[code])
    return Text(word)


def status_line(state, game: int = 0) -> str:
    """Agents left, the time bank, the phase: one line."""
    if isinstance(state, DuetState):
        left = int(state.total_greens_left()[game])
        bank = (
            f"time bank {int(state.bank[game])} (time side {int(state.time_tokens[game])}, "
            f"mistake side {int(state.mistake_tokens[game])})"
        )
        extra = " — SUDDEN DEATH" if state.sudden_death[game] else ""
        return f"greens left {left}/15, {bank}{extra}"
    red = int(((state.key[game] == RED) & ~state.covered[game]).sum())
    blue = int(((state.key[game] == BLUE) & ~state.covered[game]).sum())
    return f"red agents left {red}, blue agents left {blue}"


def clue_history(events: list[dict]) -> str:
    clues = [e for e in events if e["type"] == "clue"]
    if not clues:
        return "no clues yet"
    return "clues: " + ", ".join(f"{e['word']} {number_text(e['number'])}" for e in clues[-8:])


def number_text(number: int) -> str:
    """A clue's number as shown: ``unlimited`` for -1."""
    return "unlimited" if number == -1 else str(number)


def rank_cards(scores: np.ndarray, legal: np.ndarray, words: list[str], k: int = 3) -> list[str]:
    order = np.argsort(-np.where(legal, scores, -np.inf))
    return [words[i] for i in order[:k] if legal[i]]


def describe_move(event: dict) -> str:
    """One move of a game record in words (the terminal's line, the replay page's)."""
    who = "You" if event.get("by") == "human" else "AI"
    if event["type"] == "turn":
        return "You let the AI act next" if event["next"] == "ai" else "You take the next clue"
    if event["type"] == "note":  # nothing played yet (a mark waiting for the clue)
        return event["word"]
    if event["type"] == "clue":
        number = number_text(event["number"])
        note = " (invalid: penalty)" if not event.get("valid", True) else ""
        if event["number"] == 0:
            note += " (none of ours relate to this word: keep away from the cards it suggests)"
        if "mark" in event:
            note += f" (first marks {event.get('mark_word', 'a bystander')}: a token)"
        if event.get("double"):  # two clues in one turn
            given = " + ".join(f"{w.upper()} {number_text(n)}" for w, n in event["clues"])
            return f"{who} clues: {given}{note}"
        return f"{who} clue: {event['word'].upper()} {number}{note}"
    result = f" -> {event['result']}" if event.get("result") else ""
    verb = "guess" if event["type"] == "guess" else "cover"
    note = f" ({event['note']})" if event.get("note") else ""
    word = event["word"]
    if "second_word" in event:  # the Hogwarts bonus: two cards, the better one counted
        word = f"{word} + {event['second_word']}"
        kept = event.get("counted", event["card"])
        note += f" (counted: {event['second_word'] if kept == event['second'] else event['word']})"
    return f"{who} {verb}: {word}{result}{note}"
