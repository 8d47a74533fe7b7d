"""At least 1,000 random games through every registered variant and mission.

Invariants checked after every step: the time bank never goes negative; each Duet turn costs
exactly one token, except a mistake paid with two time-side tokens; covered cards stay
covered (and found/marked cards stay so); finished games never change; every game ends.
"""

from __future__ import annotations

import numpy as np
import pytest
from random_play import play_random
from variant_matrix import ALL_LABELS

from codebots.engine import GUESS, DuetState
from codebots.engine.constants import DONE

GAMES = 1000


def check_invariants(before, kind, action, after):
    if before is None:
        return
    assert (after.covered | ~before.covered).all(), "a covered card was uncovered"
    finished = before.phase == DONE
    for name in ("phase", "turns", "clues", "winner", "end_reason"):
        assert (getattr(after, name)[finished] == getattr(before, name)[finished]).all(), name
    assert ((after.phase == DONE) == (after.winner >= 0)).all(), "winner without an end"
    if not isinstance(after, DuetState):
        return
    assert (after.time_tokens >= 0).all() and (after.mistake_tokens >= 0).all()
    assert (after.found | ~before.found).all() and (after.marked | ~before.marked).all()
    if kind == "guess":
        # A turn that ended in this step (turns went up) paid one token, or two for a mistake
        # paid with time-side tokens; a turn whose bank a clue penalty emptied paid nothing.
        ended = (after.turns > before.turns) & (before.phase == GUESS)
        paid = before.bank - after.bank
        double = (
            (before.mistake_tokens == 0) & (paid == 2) & (after.stop_tokens == before.stop_tokens)
        )
        expected = np.where(before.bank == 0, 0, np.where(double, 2, 1))
        assert (paid[ended] == expected[ended]).all(), (paid[ended], expected[ended])
        two_time_side = (before.time_tokens - after.time_tokens)[ended & double]
        assert (two_time_side == 2).all(), "a two-token mistake is paid with time-side tokens"
        stopped = ended & (after.stop_tokens > before.stop_tokens)
        assert (paid[stopped] == 1).all()


@pytest.mark.slow
@pytest.mark.parametrize("label", ALL_LABELS)
def test_random_games_keep_invariants(label):
    game, final = play_random(label, np.arange(GAMES), seed=11, on_step=check_invariants)
    assert final.done.all()
    assert (final.winner >= 0).all()
    if isinstance(final, DuetState):
        assert (final.bank >= 0).all()
        won = final.winner == 0
        assert (final.total_greens_left()[won & (final.end_reason == 1)] == 0).all()
