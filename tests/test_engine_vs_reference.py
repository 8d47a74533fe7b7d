"""The batched engine and the plain-Python reference agree on every state of random games.

Across all variants and option sets, at least 10,000 games: after every step the snapshot of
each reference game equals the same game's slice of the batched state, field by field, and
the final scores agree.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from random_play import play_random
from reference_engine import RefDuetGame, RefTeamGame
from variant_matrix import ALL_LABELS

from codebots.engine import NO_ACTION, DuetState
from codebots.variants import get_variant

GAMES_PER_VARIANT = 10_000 // len(ALL_LABELS) + 1


def reference_games(label: str, state) -> list:
    spec = get_variant(label)
    if isinstance(state, DuetState):
        time_side, mistake_side = spec.token_setup
        return [
            RefDuetGame(
                state.key[b].tolist(),
                time_tokens=time_side,
                mistake_tokens=mistake_side,
                loose_turn_order=spec.loose_turn_order,
                invalid_clue=spec.invalid_clue,
                fourteen_of_fifteen=spec.fourteen_of_fifteen,
                sudden_death_forgiveness=spec.sudden_death_forgiveness,
                two_word_clues=spec.two_word_clues,
                double_clues=spec.double_clues,
                touch_two=spec.touch_two,
                mark_bystander=spec.mark_bystander,
            )
            for b in range(state.batch_size)
        ]
    return [
        RefTeamGame(
            state.key[b].tolist(),
            int(state.team[b]),
            opponent=spec.opponent,
            zero_clues=spec.zero_clues,
            zero_clue_guesses=spec.zero_clue_guesses,
            unlimited_clues=spec.unlimited_clues,
            infinity_gauntlet=spec.infinity_gauntlet,
            invalid_clue=spec.invalid_clue,
        )
        for b in range(state.batch_size)
    ]


def batched_snapshot(state, b: int, names) -> dict:
    out = {}
    for name in names:
        value = getattr(state, name)[b]
        out[name] = value.tolist() if isinstance(value, np.ndarray) else value.item()
    return out


def entry(action, name: str, b: int):
    """Game ``b``'s entry of an action field (fields may be scalars that broadcast)."""
    value = np.asarray(getattr(action, name))
    return (value[b] if value.ndim else value).item()


ACTION_FIELDS = {
    ("clue", False): ("number", "valid"),
    ("clue", True): ("number", "valid", "giver", "two_word", "double", "mark"),
    ("guess", False): ("card",),
    ("guess", True): ("card", "second", "guesser"),
    ("cover", False): ("card",),
}


def apply(reference, kind: str, action, b: int) -> str | None:
    """Send game ``b``'s entry of a batched action to its reference game; a log line."""
    names = ACTION_FIELDS[kind, isinstance(reference, RefDuetGame)]
    args = {name: entry(action, name, b) for name in names}
    if args[names[0]] == NO_ACTION:
        return None
    getattr(reference, kind)(**args)
    return f"{kind}({args})"


@pytest.mark.slow
@pytest.mark.parametrize("label", ALL_LABELS)
def test_batched_engine_matches_reference(label):
    references: list = []
    logs: list[list[str]] = []

    def check(before, kind, action, after):
        if kind == "init":
            references.extend(reference_games(label, after))
            logs.extend([] for _ in references)
        else:
            for b, reference in enumerate(references):
                line = apply(reference, kind, action, b)
                if line:
                    logs[b].append(line)
        for b, reference in enumerate(references):
            expected = reference.snapshot()
            got = batched_snapshot(after, b, expected.keys())
            if got != expected:
                diff = {k: (got[k], expected[k]) for k in expected if got[k] != expected[k]}
                raise AssertionError(
                    f"{label} game seed {after.seed[b]} differs (batched, reference): {diff}\n"
                    f"actions: {logs[b]}"
                )

    game, final = play_random(label, np.arange(GAMES_PER_VARIANT), seed=7, on_step=check)
    scores = game.score(final)
    for b, reference in enumerate(references):
        expected = reference.score()
        if expected is None:
            assert math.isnan(scores[b]), (label, b, scores[b])
        else:
            assert scores[b] == expected, (label, b, scores[b], expected)
