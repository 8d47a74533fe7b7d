"""What ``help`` says at the terminal: first how to make the move the game is waiting for,
with the bonuses this game still holds for it, then the commands of any move; ``rules`` adds
the Duet rules the engine applies (the time bank, sudden death, the score).

Why by the move: a person who types ``help`` while guessing wants the guess syntax, not a
paragraph about clue numbers before it. Every line is built from the game's state (its
variant's options, the bonuses left, whether the person may pass), so what it offers can
be typed now.
"""

from __future__ import annotations

from codebots.engine import SUDDEN_DEATH

ANY_MOVE = (
    "Any time: 'help' (this), 'rules' ({rules}), 'quit' (the game is saved; continue it with"
    " --resume)."
)
DUET_RULES = """Duet: each turn costs a token from the time bank: a bystander guess takes one (it
stays visible: it may be green for the other side), stopping after a correct guess takes
another. The giver's side decides every guess; touching its assassin loses at once. With the
bank empty comes sudden death: no more clues, any wrong guess loses. 'pass' lets the AI give
this clue (or make this sudden-death guess) where the rules let either player act: the first
clue, the looser turn order (two clues in a row at most), sudden death. When one side's
greens are all found, the other player gives every clue. Score on a win: 3 per token left,
+1 per token taken by stopping, -1 after sudden death.
Mission bonuses, while the game holds them: a two-word clue ('pet shop 3', London);
two clues in one turn ('ocean 2, music 1', the reward bonus);
'mark CARD' before your clue marks one of your bystanders for a token (Hogsmeade);
'CARD + CARD' touches two cards at once and the giver keeps the better (Hogwarts)."""
TEAM_RULES = (
    "Every variant, a line each: codebots variants; the rules as the engine plays them:"
    " docs/engine-rules.md; what makes a clue valid: docs/clue-rules.md."
)


def help_text(session, move: str | None) -> str:
    """The help for ``move`` ("clue", "guess", "cover", "turn"), then the general line."""
    lines = {
        "clue": _clue_help,
        "guess": _guess_help,
        "cover": _cover_help,
        "turn": _turn_help,
    }.get(move, lambda _: [])(session)
    rules = "the Duet rules" if session.duet else "where this variant's rules are"
    return "\n".join([*lines, ANY_MOVE.format(rules=rules)])


def rules_text(session) -> str:
    """``rules``: the Duet rules in Duet and the missions; elsewhere this variant's line."""
    if session.duet:
        return DUET_RULES
    return f"{session.spec.label}: {session.spec.description}\n{TEAM_RULES}"


def _held(session, counter: str) -> int:
    return int(getattr(session.state, counter)[0]) if session.duet else 0


def _clue_help(session) -> list[str]:
    spec = session.spec
    lines = ["Your clue: 'word number', e.g. 'ocean 2' (a number 0..9)."]
    if session.duet or spec.unlimited_clues:
        lines.append("'ocean unlimited': as many guesses as the guesser likes.")
    if session.duet or spec.zero_clues:
        lines.append(
            "'ocean 0': none of ours relate to it; the AI guesser keeps away from its cards for"
            " the rest of the game."
        )
    if session.relaxed:
        lines.append("Relaxed rules: names of several words, hyphens and acronyms are fine too.")
    else:
        lines.append(
            "One English word; not a visible word, a form or part of one, nor a compound"
            " holding one ('codebots check-clue' says why a word is refused)."
        )
    if _held(session, "two_word_left"):
        lines.append(f"Two-word clue ({_held(session, 'two_word_left')} left): 'pet shop 3'.")
    if _held(session, "double_left"):
        lines.append("Two clues in one turn (the reward bonus): 'ocean 2, music 1'.")
    if _held(session, "mark_left"):
        lines.append(
            "'mark CARD' first marks one of your bystanders with a token, then give your clue"
            f" ({_held(session, 'mark_left')} left)."
        )
    if session.may_pass():
        lines.append("'pass': the AI gives this clue instead.")
    return lines


def _guess_help(session) -> list[str]:
    lines = [
        "Your guess: a card's name (any case; a unique prefix is enough) or its square, e.g. B3."
    ]
    if session.duet and int(session.state.phase[0]) == SUDDEN_DEATH:
        lines.append("Sudden death: no clues and no stopping; any wrong guess loses the game.")
        if session.may_pass():
            lines.append("'pass': the AI makes this guess instead.")
        return lines
    lines.append("'stop' ends your guesses (after at least one).")
    if session.duet:
        lines.append(
            "A bystander costs a token and ends the turn; the giver's assassin loses at once."
        )
    if _held(session, "touch_two_left"):
        lines.append(
            "'CARD + CARD' touches two cards at once; the giver keeps the better"
            f" ({_held(session, 'touch_two_left')} left)."
        )
    return lines


def _cover_help(session) -> list[str]:
    if session.spec.opponent == "virtual":
        return [
            "Cover one of the virtual team's agents: its name or square. It frees the word for"
            " clues and takes a distractor off the board."
        ]
    return ["After the penalized clue: cover one of your agents (its name or square), or 'pass'."]


def _turn_help(session) -> list[str]:
    return [
        "The AI would give the next clue: press enter to let it, 'mine' to give it yourself,"
        " or type your clue straight away."
    ]
