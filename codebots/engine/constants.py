"""Codes shared by every part of the engine (see docs/engine-rules.md).

Plain ints so they broadcast into numpy arrays and compare with Python scalars alike.
"""

from __future__ import annotations

# Key codes. Team games: one key per game; Duet: one key per side (GREEN on a side = an agent
# the other player must find).
RED = 0
GREEN = 0
BLUE = 1
BYSTANDER = 2
ASSASSIN = 3
IDENTITY_NAMES = {RED: "agent", BLUE: "other agent", BYSTANDER: "bystander", ASSASSIN: "assassin"}

# Phases: what a game waits for.
CLUE = 0
GUESS = 1
COVER = 2
SUDDEN_DEATH = 3
DONE = 4
PHASE_NAMES = ("clue", "guess", "cover", "sudden death", "done")

# Sentinel action values.
NO_ACTION = -2  # "nothing for this game" in any action field
STOP = -1  # guess field: end the turn
PASS = -1  # cover field: decline an optional cover
UNLIMITED = -1  # clue number: no guess limit while correct
NO_LIMIT = 99  # guesses_left for a turn without a limit

# Why a game ended.
END_NONE = 0
END_AGENTS = 1
END_ASSASSIN = 2
END_GAUNTLET = 3
END_SUDDEN_DEATH_MISS = 4
END_OUT_OF_TIME = 5
END_FOURTEEN = 6
END_ILLEGAL = 7
END_REASON_NAMES = (
    "running",
    "agents",
    "assassin",
    "gauntlet",
    "sudden death miss",
    "out of time",
    "fourteen of fifteen",
    "illegal action",
)

N_CARDS = 25
