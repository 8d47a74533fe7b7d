"""Games, tables and turn logs stay identical through speed work.

Each case plays a fixed seed set with real agents and hashes the game table (CSV) and the
turn log (JSON); the digests are committed in ``tests/data/play_digests.json``. A change that
alters a single guess, clue or table cell fails here. When a change is *meant* to alter play,
regenerate the file and say why in the commit::

    .venv/bin/python tests/test_play_digest.py --write

Float32 sums round differently with the SIMD width numpy dispatches to (AVX2 or AVX-512)
and the BLAS kernel, so the same code plays slightly different games on another processor:
digests are recorded per platform (``platform_key``). On a platform with none recorded the
test skips and says how to record them (``--write`` adds this platform's, keeping others').
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

DIGESTS = Path(__file__).parent / "data" / "play_digests.json"
# name: (variant, spymaster, guesser, seats, games)
CASES = {
    "single-team-glove": ("single-team-2019", "glove", "glove", False, 300),
    "classic-glove-minilm": ("classic", "glove", "minilm", False, 100),
    "marvel-glove": ("marvel-coop", "glove", "glove", False, 100),
    "duet-glove-seats": ("duet", "glove", "glove", True, 100),
    "single-team-crossplay": ("single-team-2019", "crossplay[without=glove]", "glove", False, 60),
    "single-team-crossplay-guesser": (
        "single-team-2019",
        "glove",
        "crossplay[without=glove]",
        False,
        60,
    ),
    "duet-crossplay-seats": ("duet", "crossplay[without=glove]", "glove", True, 60),
    "experts-lexicon": ("marvel-coop[experts]", "glove-lexicon", "minilm", False, 60),
}


def platform_key() -> str:
    """What float results depend on besides the code: the machine, the SIMD extensions
    numpy dispatches to here, and the BLAS kernel."""
    import platform

    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    simd = "+".join(name for name in __cpu_dispatch__ if __cpu_features__.get(name))
    try:
        from threadpoolctl import threadpool_info

        # numpy's own OpenBLAS: other libraries (torch's, OpenMP) join the list once some
        # test has imported them, and they do not compute numpy's sums.
        kernels = {
            str(lib.get("architecture"))
            for lib in threadpool_info()
            if lib.get("user_api") == "blas" and "numpy" in str(lib.get("filepath", ""))
        }
        blas = ",".join(sorted(kernels)) or "unknown"
    except ImportError:  # pragma: no cover - threadpoolctl comes with the dev extra
        blas = "unknown"
    return f"{platform.machine()} numpy:{simd} blas:{blas}"


def recorded() -> dict:
    return json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}


def _play(variant: str, spymaster: str, guesser: str, seats: bool, games: int, batch_size: int):
    """``(table, turn log)`` of seeds ``0 .. games - 1`` in batches of ``batch_size``."""
    from codebots.agents import make_agent
    from codebots.arena import Seat, play

    if seats:
        first, second = Seat.of(spymaster), Seat.of(guesser)
    else:
        first, second = make_agent("spymaster", spymaster), make_agent("guesser", guesser)
    log: list[dict] = []
    table = play(variant, first, second, range(games), batch_size=batch_size, turn_log=log)
    return table, log


def play_digest(variant: str, spymaster: str, guesser: str, seats: bool, games: int) -> str:
    table, log = _play(variant, spymaster, guesser, seats, games, batch_size=64)
    digest = hashlib.sha256(table.to_csv(index=False, float_format="%.6g").encode())
    digest.update(json.dumps(log, sort_keys=True, default=str).encode())
    return digest.hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize("gather", ["z-table", "pair-tables"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_games_tables_and_turn_logs_match_the_committed_digest(case, gather, monkeypatch):
    # The spymaster gathers from its pair tables only in batches of PAIR_TABLE_MIN_GAMES and
    # more: force each gather here, so both are shown to play the same games.
    from codebots.agents import board_gather

    if gather == "pair-tables":
        monkeypatch.setattr(board_gather, "PAIR_TABLE_MIN_GAMES", 0)
    else:
        monkeypatch.setattr(board_gather, "PAIR_TABLE_MIN_GAMES", 10**9)
    digests = recorded().get(platform_key())
    if digests is None:
        pytest.skip(
            f"no play digests recorded for this platform ({platform_key()}); record them "
            "on a commit whose play is known good: tests/test_play_digest.py --write"
        )
    expected = digests.get(case)
    if expected is None:  # recorded here before this case's play last changed
        pytest.skip(
            f"no digest of {case} recorded for this platform ({platform_key()}); record it on "
            "a commit whose play is known good: tests/test_play_digest.py --write"
        )
    assert play_digest(*CASES[case]) == expected, (
        f"{case} ({gather}): play changed; if meant, rerun tests/test_play_digest.py --write"
    )


BATCH_CASES = [
    ("single-team-2019", "crossplay[without=glove]", "glove", False),
    ("duet", "crossplay[without=glove]", "glove", True),
    ("marvel-coop", "crossplay[without=mpnet]", "mpnet", False),
]


def _games(variant: str, spymaster: str, guesser: str, seats: bool, batch_size: int):
    """Each game's record and turns, by seed, played in batches of ``batch_size``."""
    table, log = _play(variant, spymaster, guesser, seats, 48, batch_size)
    turns = {}
    for turn in log:
        turns.setdefault(turn["seed"], []).append(json.dumps(turn, sort_keys=True, default=str))
    rows = [json.dumps(row, sort_keys=True, default=str) for row in table.to_dict("records")]
    return rows, turns  # as JSON text: a NaN score equals itself there


@pytest.mark.slow
@pytest.mark.parametrize("case", BATCH_CASES, ids=lambda case: f"{case[0]}-{case[1]}")
def test_a_game_plays_the_same_in_any_batch(case):
    # The agents work on whole batches (the spymaster in blocks of games, the guesser on the
    # games guessing now): no game may feel the others, or --workers slices would differ.
    assert _games(*case, batch_size=48) == _games(*case, batch_size=16)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: tests/test_play_digest.py --write")
    digests = {name: play_digest(*case) for name, case in sorted(CASES.items())}
    every = {**recorded(), platform_key(): digests}
    DIGESTS.write_text(json.dumps(every, indent=2, sort_keys=True) + "\n")
    print(platform_key(), json.dumps(digests, indent=2))
