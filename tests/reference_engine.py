"""Plain-Python, one-game reference engine for the tests.

Written from ``RULES.md`` and ``docs/engine-rules.md`` only, independently of the batched
engine in ``codebots/engine/``. It is deliberately slow and obvious: one game, one action at a
time. The tests replay the same action sequences through both engines and compare every state.

Conventions shared by both classes:

* every public method (``clue``, ``guess``, ``cover``) is one action;
* a game that is ``DONE`` ignores every action;
* an action that does not fit the phase, or breaks a rule, is illegal: the game ends with
  ``end_reason = ILLEGAL``; the acting team loses (classic) or the players lose (``winner = 1``);
* an illegal action changes nothing else (all checks happen before any effect).
"""

import operator

# Key codes.
RED = GREEN = 0
BLUE = 1
BYSTANDER = 2
ASSASSIN = 3

# Phases.
CLUE, GUESS, COVER, SUDDEN_DEATH, DONE = 0, 1, 2, 3, 4

# Special action values.
NO_ACTION, STOP, PASS, UNLIMITED = -2, -1, -1, -1

# End reasons. (The "assassin" end reason is END_ASSASSIN = 2, because ASSASSIN is the key code 3.)
NONE, AGENTS, END_ASSASSIN, GAUNTLET = 0, 1, 2, 3
SUDDEN_DEATH_MISS, OUT_OF_TIME, FOURTEEN, ILLEGAL = 4, 5, 6, 7

NO_LIMIT = 99  # guesses_left when a turn has no guess limit
LEGAL_NUMBERS = frozenset([UNLIMITED] + list(range(10)))
N_CARDS = 25


def _is_card(card) -> bool:
    """True when ``card`` names a board position 0..24."""
    return isinstance(card, int) and 0 <= card < N_CARDS


def _int(x):
    """Coerce numpy-style integers to ``int``; leave anything else (then illegal) alone."""
    try:
        return operator.index(x)
    except TypeError:
        return x


class RefTeamGame:
    """One classic / single-team / Marvel co-op game.

    ``opponent``: ``"team"`` (classic, two teams), ``"none"`` (single-team benchmark, blue never
    acts), ``"virtual"`` (Marvel two-player co-op: the players are red, blue is the virtual team).
    ``invalid_clue``: ``"penalty"``, ``"accept"`` or ``"forfeit"``.
    """

    FIELDS = (
        "covered",
        "phase",
        "team",
        "guesses_made",
        "guesses_left",
        "covers_pending",
        "turns",
        "clues",
        "winner",
        "end_reason",
    )

    def __init__(
        self,
        key,
        start_team,
        *,
        opponent,
        zero_clues,
        unlimited_clues,
        infinity_gauntlet,
        invalid_clue,
        zero_clue_guesses=0,
    ):
        if len(key) != N_CARDS:
            raise ValueError("key must have 25 codes")
        if opponent not in ("team", "none", "virtual"):
            raise ValueError(f"bad opponent {opponent!r}")
        if invalid_clue not in ("penalty", "accept", "forfeit"):
            raise ValueError(f"bad invalid_clue {invalid_clue!r}")
        self.key = [int(c) for c in key]
        self.opponent = opponent
        self.zero_clues = bool(zero_clues)
        self.zero_clue_guesses = int(zero_clue_guesses)  # 0: no limit after a 0 clue
        self.unlimited_clues = bool(unlimited_clues)
        self.infinity_gauntlet = bool(infinity_gauntlet)
        self.invalid_clue = invalid_clue
        self.covered = [False] * N_CARDS
        self.phase = CLUE
        # Single-team and Marvel: the players are red and red always starts.
        self.team = int(start_team) if opponent == "team" else RED
        self.guesses_made = self.guesses_left = self.covers_pending = 0
        self.turns = self.clues = 0
        self.winner, self.end_reason = -1, NONE

    # -- helpers -------------------------------------------------------------------------

    def _uncovered(self, code: int) -> int:
        """How many cards with this key code are still uncovered."""
        return sum(1 for i in range(N_CARDS) if self.key[i] == code and not self.covered[i])

    def _end(self, winner: int, reason: int) -> None:
        """Finish the game; per-turn counters read 0 once the game is DONE."""
        self.winner, self.end_reason, self.phase = winner, reason, DONE
        self.guesses_made = self.guesses_left = self.covers_pending = 0

    def _illegal(self) -> None:
        """The acting side forfeits: the acting team (classic) or the players lose."""
        self._end(1 - self.team if self.opponent == "team" else 1, ILLEGAL)

    def _end_turn(self) -> None:
        """The clue-giving team's turn ends (not called for a game-ending guess)."""
        self.turns += 1
        self.guesses_made = self.guesses_left = 0
        if self.opponent == "team":
            self.team = 1 - self.team
            self.phase = CLUE
        elif self.opponent == "none":
            self.phase = CLUE
        else:  # Marvel: the virtual team's turn, one mandatory cover chosen by the players
            self.team = BLUE
            self.phase = COVER
            self.covers_pending = 1

    # -- actions -------------------------------------------------------------------------

    def clue(self, number: int, valid: bool = True) -> None:
        """The acting team's spymaster gives a clue with this number."""
        if self.phase == DONE:
            return
        number = _int(number)
        if self.phase != CLUE or number not in LEGAL_NUMBERS:
            return self._illegal()
        if (number == 0 and not self.zero_clues) or (
            number == UNLIMITED and not self.unlimited_clues
        ):
            return self._illegal()
        if not valid and self.invalid_clue == "forfeit":
            return self._illegal()
        self.clues += 1
        if not valid and self.invalid_clue == "penalty":
            self._end_turn()
            if self.opponent == "team":  # the other team may cover one of its agents
                self.phase = COVER
                self.covers_pending = 1
            elif self.opponent == "virtual":  # penalty cover + the regular virtual turn
                self.covers_pending = 2
            return
        self.phase = GUESS
        self.guesses_made = 0
        if number == 0 and self.zero_clue_guesses:
            self.guesses_left = self.zero_clue_guesses
        else:
            self.guesses_left = NO_LIMIT if number in (0, UNLIMITED) else number + 1

    def guess(self, card: int) -> None:
        """The acting team touches ``card`` (0..24) or stops (``STOP``)."""
        if self.phase == DONE:
            return
        card = _int(card)
        if self.phase != GUESS:
            return self._illegal()
        if card == STOP:
            if self.guesses_made == 0:
                return self._illegal()
            return self._end_turn()
        if not _is_card(card) or self.covered[card]:
            return self._illegal()
        team, other = self.team, 1 - self.team
        self.covered[card] = True
        self.guesses_made += 1
        code = self.key[card]
        if code == team:
            if self._uncovered(team) == 0:
                return self._end(team, AGENTS)
            if self.guesses_left != NO_LIMIT:
                self.guesses_left -= 1
                if self.guesses_left == 0:
                    self._end_turn()
        elif code == other:
            if self._uncovered(other) == 0:
                return self._end(other, AGENTS)
            self._end_turn()
        elif code == BYSTANDER:
            if self.infinity_gauntlet and self._uncovered(BYSTANDER) == 0:
                return self._end(other, GAUNTLET)
            self._end_turn()
        else:  # assassin
            self._end(other, END_ASSASSIN)

    def cover(self, card: int) -> None:
        """The covering team covers one of its own agents (or ``PASS`` where optional)."""
        if self.phase == DONE:
            return
        card = _int(card)
        if self.phase != COVER:
            return self._illegal()
        if card == PASS:
            if self.opponent != "team":  # Marvel covers are mandatory
                return self._illegal()
            self.covers_pending = 0
            self.phase = CLUE  # the covering team now gives its clue
            return
        if not _is_card(card) or self.covered[card] or self.key[card] != self.team:
            return self._illegal()
        self.covered[card] = True
        if self._uncovered(self.team) == 0:
            # Classic: the covering team wins. Marvel: team is BLUE, i.e. the players lose.
            return self._end(self.team, AGENTS)
        self.covers_pending -= 1
        if self.covers_pending == 0:
            self.phase = CLUE
            if self.opponent == "virtual":
                self.team = RED

    # -- reading -------------------------------------------------------------------------

    def snapshot(self) -> dict:
        """The state, with the same field names as the batched engine."""
        snap = {name: getattr(self, name) for name in self.FIELDS}
        snap["covered"] = list(self.covered)
        return snap

    def score(self):
        """Single-team: clues on a win, 25 on a loss. Marvel: blue left on a win, 0 on a loss."""
        if self.phase != DONE or self.opponent == "team":
            return None
        won = self.winner == 0
        if self.opponent == "none":
            return float(self.clues) if won else 25.0
        return float(self._uncovered(BLUE)) if won else 0.0


class RefDuetGame:
    """One Duet-style cooperative game (standard game or mission-log mission).

    ``key[s]`` is side ``s``: what player ``s`` sees, and what judges the guesses made on the
    clues of player ``s`` (the guesser is the other player).
    """

    FIELDS = (
        "found",
        "marked",
        "phase",
        "giver",
        "last_giver",
        "streak",
        "time_tokens",
        "mistake_tokens",
        "stop_tokens",
        "guesses_made",
        "turns",
        "clues",
        "sudden_death",
        "two_word_left",
        "double_left",
        "touch_two_left",
        "mark_left",
        "forgiveness_left",
        "winner",
        "end_reason",
    )
    _PREFERENCE = {GREEN: 0, BYSTANDER: 1, ASSASSIN: 2}  # touch-two: lower is better

    def __init__(
        self,
        key,
        *,
        time_tokens,
        mistake_tokens,
        loose_turn_order,
        invalid_clue,
        fourteen_of_fifteen=False,
        sudden_death_forgiveness=0,
        two_word_clues=0,
        double_clues=0,
        touch_two=0,
        mark_bystander=0,
    ):
        if len(key) != 2 or any(len(side) != N_CARDS for side in key):
            raise ValueError("key must be two sides of 25 codes")
        if invalid_clue not in ("penalty", "accept", "forfeit"):
            raise ValueError(f"bad invalid_clue {invalid_clue!r}")
        self.key = [[int(c) for c in key[0]], [int(c) for c in key[1]]]
        self.loose_turn_order = bool(loose_turn_order)
        self.invalid_clue = invalid_clue
        self.fourteen_of_fifteen = bool(fourteen_of_fifteen)
        self.total_greens = sum(
            1 for i in range(N_CARDS) if self.key[0][i] == GREEN or self.key[1][i] == GREEN
        )
        self.found = [False] * N_CARDS
        self.marked = [[False] * N_CARDS, [False] * N_CARDS]
        self.phase = CLUE
        self.giver, self.last_giver, self.streak = 0, -1, 0
        self.time_tokens = int(time_tokens)
        self.mistake_tokens = int(mistake_tokens)
        self.stop_tokens = self.guesses_made = self.turns = self.clues = 0
        self.sudden_death = False
        self.two_word_left = int(two_word_clues)
        self.double_left = int(double_clues)
        self.touch_two_left = int(touch_two)
        self.mark_left = int(mark_bystander)
        self.forgiveness_left = int(sudden_death_forgiveness)
        self.winner, self.end_reason = -1, NONE

    # -- helpers -------------------------------------------------------------------------

    @property
    def bank(self) -> int:
        """Tokens left in the time bank (both sides)."""
        return self.time_tokens + self.mistake_tokens

    def _covered(self, i: int) -> bool:
        """Found by a green agent, or marked bystander from both sides."""
        return self.found[i] or (self.marked[0][i] and self.marked[1][i])

    def _open(self, card) -> bool:
        """A card that may be guessed: on the board and not covered."""
        return _is_card(card) and not self._covered(card)

    def _greens_left(self, side: int) -> int:
        """Uncovered greens on ``side``: what player ``side`` can still clue."""
        return sum(1 for i in range(N_CARDS) if self.key[side][i] == GREEN and not self._covered(i))

    def _take_one(self) -> bool:
        """Take one token, time-side first; False if the bank is empty."""
        if self.time_tokens > 0:
            self.time_tokens -= 1
        elif self.mistake_tokens > 0:
            self.mistake_tokens -= 1
        else:
            return False
        return True

    def _end(self, winner: int, reason: int) -> None:
        self.winner, self.end_reason, self.phase = winner, reason, DONE
        self.guesses_made = 0

    def _illegal(self) -> None:
        self._end(1, ILLEGAL)

    def _find(self, card: int, in_turn: bool) -> None:
        """Cover ``card`` with a green agent and check for the win."""
        self.found[card] = True
        n = sum(self.found)
        if n >= self.total_greens:
            reason = AGENTS
        elif self.fourteen_of_fifteen and n >= 14:
            reason = FOURTEEN
        else:
            return
        if in_turn:  # the winning turn uses one token when the bank has one
            self._take_one()
        self._end(0, reason)

    def _end_turn(self) -> None:
        """Close the current giver's turn; schedule the next giver or enter sudden death."""
        g = self.giver
        self.turns += 1
        self.streak = self.streak + 1 if self.last_giver == g else 1
        self.last_giver = g
        self.guesses_made = 0
        if self.bank == 0:
            self.phase = SUDDEN_DEATH
            self.sudden_death = True
            return
        nxt = 1 - g
        if self._greens_left(nxt) == 0:  # "all my greens are found": the partner gives again
            nxt = g
        self.giver = nxt
        self.phase = CLUE

    def _may_give(self, g: int) -> bool:
        """May player ``g`` give the next clue?"""
        if self._greens_left(g) == 0:
            return False
        if g == self.giver or self.last_giver == -1:
            return True
        return self.loose_turn_order and not (self.last_giver == g and self.streak >= 2)

    # -- actions -------------------------------------------------------------------------

    def clue(
        self,
        number: int,
        valid: bool = True,
        giver: int = -1,
        two_word: bool = False,
        double: bool = False,
        mark: int = -1,
    ) -> None:
        """A clue by ``giver`` (-1: the scheduled giver), with optional bonuses."""
        if self.phase == DONE:
            return
        number, giver, mark = _int(number), _int(giver), _int(mark)
        if self.phase != CLUE or number not in LEGAL_NUMBERS:
            return self._illegal()
        if giver not in (-1, 0, 1):
            return self._illegal()
        g = self.giver if giver == -1 else giver
        if not self._may_give(g):
            return self._illegal()
        if (two_word and self.two_word_left <= 0) or (double and self.double_left <= 0):
            return self._illegal()
        if mark != -1:
            if not (
                self.mark_left > 0
                and self.bank >= 2
                and self._open(mark)
                and not self.marked[g][mark]
                and self.key[g][mark] == BYSTANDER
            ):
                return self._illegal()
        if not valid and self.invalid_clue == "forfeit":
            return self._illegal()
        # All checks passed: apply.
        if two_word:
            self.two_word_left -= 1
        if double:
            self.double_left -= 1
        if mark != -1:
            self.mark_left -= 1
            self._take_one()
            self.marked[g][mark] = True
        if not valid and self.invalid_clue == "penalty":
            self._take_one()
        self.clues += 2 if double else 1
        self.giver = g
        self.phase = GUESS
        self.guesses_made = 0

    def guess(self, card: int, second: int = -1, guesser: int = -1) -> None:
        """A guess (or ``STOP``) in a turn, or a sudden-death guess."""
        if self.phase == DONE:
            return
        card, second, guesser = _int(card), _int(second), _int(guesser)
        if self.phase == GUESS:
            self._turn_guess(card, second, guesser)
        elif self.phase == SUDDEN_DEATH:
            self._sudden_death_guess(card, second, guesser)
        else:
            self._illegal()

    def _turn_guess(self, card, second, guesser) -> None:
        g = self.giver
        if guesser not in (-1, 1 - g):  # only the giver's partner guesses
            return self._illegal()
        if card == STOP:
            if second != -1 or self.guesses_made == 0:
                return self._illegal()
            if self._take_one():
                self.stop_tokens += 1
            return self._end_turn()
        if not self._open(card):
            return self._illegal()
        if second != -1:
            if self.touch_two_left <= 0 or not self._open(second) or second == card:
                return self._illegal()
            self.touch_two_left -= 1
            pref = self._PREFERENCE
            if pref.get(self.key[g][second], 3) < pref.get(self.key[g][card], 3):
                card = second
        code = self.key[g][card]
        if code == GREEN:
            self.guesses_made += 1
            self._find(card, in_turn=True)
        elif code == BYSTANDER:
            self.marked[g][card] = True
            if self.mistake_tokens > 0:
                self.mistake_tokens -= 1
            elif self.time_tokens >= 2:
                self.time_tokens -= 2
            else:
                return self._end(1, OUT_OF_TIME)
            self._end_turn()
        else:
            self._end(1, END_ASSASSIN)

    def _sudden_death_guess(self, card, second, guesser) -> None:
        if card == STOP or second != -1:
            return self._illegal()
        if guesser == -1:  # the lowest-numbered player with cards to find
            p = 0 if self._greens_left(1) > 0 else 1
        elif guesser in (0, 1) and self._greens_left(1 - guesser) > 0:
            p = guesser
        else:
            return self._illegal()
        if not self._open(card):
            return self._illegal()
        side = 1 - p
        code = self.key[side][card]
        if code == GREEN:
            self._find(card, in_turn=False)
        elif code == BYSTANDER:
            self.marked[side][card] = True
            if self.forgiveness_left > 0:
                self.forgiveness_left -= 1
            else:
                self._end(1, SUDDEN_DEATH_MISS)
        else:
            self._end(1, END_ASSASSIN)

    # -- reading -------------------------------------------------------------------------

    def snapshot(self) -> dict:
        """The state, with the same field names as the batched engine."""
        snap = {name: getattr(self, name) for name in self.FIELDS}
        snap["found"] = list(self.found)
        snap["marked"] = [list(self.marked[0]), list(self.marked[1])]
        return snap

    def score(self):
        """3 x bank + stop tokens - 1 if sudden death, on a win; None otherwise."""
        if self.winner != 0:
            return None
        return float(3 * self.bank + self.stop_tokens - (1 if self.sudden_death else 0))
