"""The Duet mission log as an evaluation: per-mission win rates and simulated campaigns.

Results (RULES §3.1): the win rate of an agent pair on every mission
(:func:`mission_table`), the standard-game score distribution (:func:`score_distribution`),
the expected number of games to finish the whole log (:func:`expected_games`) and simulated
campaigns that play the missions in unlock order and spend the reward bonuses
(:func:`simulate_campaign`, :func:`campaign_summary`).

Campaign rules, as :func:`simulate_campaign` plays them:

- The three location entry missions are playable from the start: London (10/10), and
  Hogwarts (9/9) and Hogsmeade (8/8), which "you can unlock at any time".
- Winning a location's entry mission unlocks the top mission of each of its boxes. A box is
  played top-down: winning a mission unlocks the next one in its box.
- Winning the last mission of a box finishes it and earns the box's reward bonus
  (:data:`codebots.missions.REWARDS`, the ``reward`` field of the box's missions).
- The Ministry box unlocks only when every other mission (all 21 of the other 24) is won.
- Mission choice: the first unlocked mission not yet won, in catalogue order
  (:data:`codebots.missions.MISSIONS`); a lost mission is therefore retried at once.
- Bonus policy ``"greedy"``: every held reward bonus is spent on the next attempt of a hard
  mission (at most :data:`HARD_MISTAKES` mistake-side tokens); ``"none"`` never spends.
  A bonus is spent when it was used, whether that game is won or not (:func:`used_bonuses`):
  the token rewards always (they set the bank), ``double_clues`` and
  ``sudden_death_forgiveness`` when the game used them, ``fourteen_of_fifteen`` when it won
  the game; an unused one stays held for the next attempt. Bonuses are the variant options
  of the same name (``sudden_death_forgiveness`` and ``double_clues`` with a count of 1,
  the others switched on). Location bonuses are part of every mission variant anyway.
- Each attempt is one game on board seed ``seed * 100_000 + game`` (games numbered from 1),
  the agents' random choices seeded the same way. The campaign stops when every mission is
  won or after ``max_games`` games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from codebots.agents import Guesser, Spymaster, make_agent
from codebots.arena import play
from codebots.engine.constants import END_FOURTEEN, END_REASON_NAMES
from codebots.errors import CodebotsError
from codebots.missions import LOCATION_BONUSES, MISSIONS, MISSIONS_BY_SLUG, REWARDS, Mission
from codebots.report import wilson_interval
from codebots.variants import get_variant

STANDARD = "duet"  # the standard 10-token game, played alongside the missions
HARD_MISTAKES = 3  # the greedy policy spends bonuses on missions with at most this many
POLICIES = ("greedy", "none")
SEED_STRIDE = 100_000  # campaign game seeds: seed * SEED_STRIDE + game number
COUNTED_BONUSES = ("sudden_death_forgiveness", "double_clues")  # int options: use 1
TABLE_COLUMNS = [
    "variant",
    "mission",
    "location",
    "tokens",
    "mistakes",
    "games",
    "wins",
    "win_rate",
    "win_low",
    "win_high",
    "mean_score",
]


def _agents(spymaster: Spymaster | str, guesser: Guesser | str) -> tuple[Spymaster, Guesser]:
    """Agents from objects or registered names (an unknown name is a CodebotsError)."""
    if isinstance(spymaster, str):
        spymaster = make_agent("spymaster", spymaster)
    if isinstance(guesser, str):
        guesser = make_agent("guesser", guesser)
    return spymaster, guesser


# --- per-mission win rates -----------------------------------------------------------------


def play_missions(
    spymaster: Spymaster | str,
    guesser: Guesser | str,
    games: int,
    seed: int = 0,
    progress: bool = False,
    expert: bool = False,
) -> pd.DataFrame:
    """Play the standard game and all 24 missions ``games`` times each, on board seeds
    ``seed .. seed + games - 1`` (the same boards for every mission); with ``expert`` the
    missions have one token fewer (RULES section 3.1; the standard game is no mission).

    Returns the per-game records of :func:`codebots.arena.play`, ``25 * games`` rows.
    """
    if games < 1:
        raise CodebotsError(f"games per mission must be at least 1, got {games}")
    spymaster, guesser = _agents(spymaster, guesser)
    seeds = np.arange(seed, seed + games)  # (games,)
    variants = [STANDARD, *(mission_variant(mission, expert=expert) for mission in MISSIONS)]
    frames = [
        play(variant, spymaster, guesser, seeds, agent_seed=seed, progress=progress)
        for variant in variants
    ]
    return pd.concat(frames, ignore_index=True)


def mission_variant(mission: Mission, bonuses: list[str] = (), expert: bool = False) -> str:
    """The variant label of ``mission`` with reward ``bonuses`` spent and the expert option."""
    options = {**bonus_options(list(bonuses)), **({"expert": True} if expert else {})}
    return get_variant(mission.variant_id, **options).label


def summarize_missions(records: pd.DataFrame) -> pd.DataFrame:
    """One row per variant of ``records`` (the standard game first, then catalogue order):
    variant, mission name, location, token setup, games, wins, win rate with its 95% Wilson
    interval, and the mean score over won games (NaN when none was won)."""
    rows = []
    for variant, group in records.groupby("variant", sort=False):
        spec = get_variant(variant)
        mission = MISSIONS_BY_SLUG.get(spec.mission) if spec.mission else None
        wins = int(group["won"].sum())
        low, high = wilson_interval(wins, len(group))
        won_scores = group.loc[group["won"], "score"]
        rows.append(
            {
                "variant": variant,
                "mission": mission.name if mission else "Standard",
                "location": mission.location if mission else "standard",
                "tokens": sum(spec.token_setup),  # the bank at the start, options applied
                "mistakes": spec.token_setup[1],
                "games": len(group),
                "wins": wins,
                "win_rate": wins / len(group),
                "win_low": low,
                "win_high": high,
                "mean_score": won_scores.mean() if wins else math.nan,
            }
        )
    order = {m.slug: i for i, m in enumerate(MISSIONS)}
    table = pd.DataFrame(rows, columns=TABLE_COLUMNS)
    position = table["variant"].map(lambda v: order.get(get_variant(v).mission or "", -1))
    table = table.iloc[np.argsort(position.to_numpy(), kind="stable")]
    return table.reset_index(drop=True)


def mission_table(
    spymaster: Spymaster | str,
    guesser: Guesser | str,
    games: int,
    seed: int = 0,
    progress: bool = False,
    expert: bool = False,
) -> pd.DataFrame:
    """Win rate of the pair on the standard game and every mission: 25 rows
    (see :func:`play_missions` for the games and :func:`summarize_missions` for the columns)."""
    return summarize_missions(play_missions(spymaster, guesser, games, seed, progress, expert))


def bonus_table(
    spymaster: Spymaster | str,
    guesser: Guesser | str,
    games: int,
    seed: int = 0,
    expert: bool = False,
    progress: bool = False,
) -> pd.DataFrame:
    """What each bonus is worth: every mission's win rate as it is, with each reward bonus
    spent (``+bonus``), and without its location bonus (``no location bonus``: London's
    two-word clues, Hogwarts' touch-two, Hogsmeade's mark; empty for the Ministry), on the
    same boards (seeds ``seed .. seed + games - 1``). One row per mission."""
    spymaster, guesser = _agents(spymaster, guesser)
    seeds = np.arange(seed, seed + games)

    def rate(label: str, options: dict) -> float:
        spec = get_variant(label, **options)
        played = play(spec, spymaster, guesser, seeds, agent_seed=seed, progress=progress)
        return float(played["won"].mean())

    rows = []
    for mission in MISSIONS:
        label = mission_variant(mission, expert=expert)
        row = {"variant": label, "mission": mission.name, "as is": rate(label, {})}
        for bonus in REWARDS:
            row[f"+{bonus}"] = rate(label, bonus_options([bonus]))
        location = LOCATION_BONUSES.get(mission.location)
        row["no location bonus"] = rate(label, {location[0]: 0}) if location else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def expected_games(table: pd.DataFrame) -> tuple[float, float, float]:
    """Expected games to win all 24 log missions, with a rough 95% interval.

    Each mission is retried until won, so its number of games is geometric with mean 1/p;
    the log needs ``sum(1 / p)`` games (the standard ``duet`` row is not part of the log;
    reward bonuses and unlock order do not change the sum). The interval plugs in the
    Wilson bounds: ``low`` uses every mission's upper bound of p, ``high`` every lower
    bound (so it is conservative). A probability of 0 makes the figure ``inf``.

    Returns ``(expected, low, high)``.
    """
    log = table[table["variant"].str.startswith("mission/")]
    log = log.set_index(log["variant"].map(lambda v: get_variant(v).mission))  # by slug
    missing = [m.variant_id for m in MISSIONS if m.slug not in log.index]
    if missing:
        raise CodebotsError(f"the table lacks missions: {', '.join(missing)}")
    log = log.loc[[m.slug for m in MISSIONS]]  # (24,) rows in catalogue order

    def total(p: pd.Series) -> float:
        p = p.to_numpy(dtype=float)  # (24,) win probabilities
        if np.isnan(p).any():
            raise CodebotsError("a mission has no win rate (no games played)")
        if (p <= 0).any():
            return math.inf
        return float((1.0 / p).sum())

    return total(log["win_rate"]), total(log["win_high"]), total(log["win_low"])


def score_distribution(records: pd.DataFrame) -> pd.DataFrame:
    """Scores of the standard 10-token game (``duet`` rows of ``records``).

    One row per score value of the won games (ascending), then one ``lost`` row: columns
    result ("won" | "lost"), score (nullable int, NA for the losses), games, share.
    """
    standard = records[records["variant"] == STANDARD]
    if standard.empty:
        raise CodebotsError(f"no standard-game records: play the '{STANDARD}' variant")
    won = standard.loc[standard["won"], "score"].astype(int)
    counts = won.value_counts().sort_index()  # (distinct scores,)
    table = pd.DataFrame(
        {
            "result": ["won"] * len(counts) + ["lost"],
            "score": pd.array([*counts.index, pd.NA], dtype="Int64"),
            "games": [*counts.to_numpy(), int((~standard["won"]).sum())],
        }
    )
    table["share"] = table["games"] / len(standard)
    return table


# --- simulated campaigns -------------------------------------------------------------------


@dataclass
class CampaignResult:
    """One simulated campaign (see the module docstring for the rules).

    ``log`` has one dict per game: game (from 1), mission (slug), bonuses (spent on that
    game), won, score (NaN when lost), earned (reward finished by that win, or None).
    """

    seed: int
    policy: str
    games_played: int = 0
    finished: bool = False
    attempts: dict[str, int] = field(default_factory=dict)
    earned: list[str] = field(default_factory=list)
    spent: list[str] = field(default_factory=list)
    log: list[dict] = field(default_factory=list)

    @property
    def missions_won(self) -> int:
        return sum(1 for row in self.log if row["won"])


def _boxes() -> dict[str, tuple[Mission, ...]]:
    """Box name -> its missions top-down (entry missions are their own one-mission box)."""
    boxes: dict[str, list[Mission]] = {}
    for mission in MISSIONS:
        boxes.setdefault(mission.box or mission.slug, []).append(mission)
    return {name: tuple(missions) for name, missions in boxes.items()}


BOXES = _boxes()
ENTRY = {m.location: m.slug for m in MISSIONS if m.box is None}  # location -> entry slug


def is_unlocked(mission: Mission, won: set[str]) -> bool:
    """Whether ``mission`` may be played once the missions in ``won`` are won."""
    if mission.box is None:  # London, Hogwarts, Hogsmeade: playable from the start
        return True
    box = BOXES[mission.box]
    position = box.index(mission)
    if position > 0:  # top-down inside a box
        return box[position - 1].slug in won
    if mission.location == "ministry":  # after every other mission
        return all(m.slug in won for m in MISSIONS if m.location != "ministry")
    return ENTRY[mission.location] in won


def next_mission(won: set[str]) -> Mission | None:
    """The first unlocked mission not yet won, in catalogue order (None when all are won)."""
    for mission in MISSIONS:
        if mission.slug not in won and is_unlocked(mission, won):
            return mission
    return None


def bonus_options(bonuses: list[str]) -> dict[str, object]:
    """Variant options that apply reward bonuses: counts of 1 or switched on."""
    return {name: 1 if name in COUNTED_BONUSES else True for name in bonuses}


def simulate_campaign(
    spymaster: Spymaster | str,
    guesser: Guesser | str,
    seed: int,
    max_games: int = 2000,
    policy: str = "greedy",
    expert: bool = False,
) -> CampaignResult:
    """Play the mission log in unlock order, one game per attempt, until every mission is
    won or ``max_games`` games were played (rules and seeds: module docstring); ``expert``:
    every mission with one token fewer."""
    if policy not in POLICIES:
        raise CodebotsError(f"unknown bonus policy '{policy}'; known: {', '.join(POLICIES)}")
    if not 1 <= max_games < SEED_STRIDE:
        raise CodebotsError(f"max_games must be 1..{SEED_STRIDE - 1}, got {max_games}")
    if seed < 0:
        raise CodebotsError(f"campaign seed must be non-negative, got {seed}")
    spymaster, guesser = _agents(spymaster, guesser)
    result = CampaignResult(seed=seed, policy=policy)
    won: set[str] = set()
    held: list[str] = []  # reward bonuses earned and not yet spent
    mission = next_mission(won)
    while mission is not None and result.games_played < max_games:
        game = result.games_played + 1
        spend = held if policy == "greedy" and mission.mistakes <= HARD_MISTAKES else []
        held = [bonus for bonus in held if bonus not in spend]
        variant = mission_variant(mission, spend, expert)
        board = seed * SEED_STRIDE + game
        row = play(variant, spymaster, guesser, [board], batch_size=1, agent_seed=board)
        victory = bool(row["won"].iloc[0])
        used = used_bonuses(spend, row.iloc[0])
        held = [bonus for bonus in spend if bonus not in used] + held  # unused: kept
        result.games_played = game
        result.attempts[mission.slug] = result.attempts.get(mission.slug, 0) + 1
        result.spent.extend(used)
        earned = None
        if victory:
            won.add(mission.slug)
            if mission.reward and BOXES[mission.box][-1] is mission:  # finished the box
                earned = mission.reward
                held.append(earned)
                result.earned.append(earned)
        result.log.append(
            {
                "game": game,
                "mission": mission.slug,
                "bonuses": tuple(spend),
                "used": tuple(used),
                "won": victory,
                "score": float(row["score"].iloc[0]),
                "earned": earned,
            }
        )
        mission = next_mission(won)
    result.finished = mission is None
    return result


def used_bonuses(spend: list[str], row) -> list[str]:
    """The reward bonuses of ``spend`` that the game (``row``, a record of
    :func:`codebots.arena.play`) used: the token rewards always (they set the bank), the
    counted ones (``double_clues``, ``sudden_death_forgiveness``) when spent in the game,
    ``fourteen_of_fifteen`` when it won the game."""
    used = []
    for bonus in spend:
        if bonus in COUNTED_BONUSES:
            happened = int(row.get(f"{bonus}_used", 0)) > 0
        elif bonus == "fourteen_of_fifteen":
            happened = row["end"] == END_REASON_NAMES[END_FOURTEEN]
        else:
            happened = True
        if happened:
            used.append(bonus)
    return used


def campaign_summary(results: list[CampaignResult]) -> dict:
    """Campaigns run, fraction finished, and mean / median games to finish (over the
    finished campaigns; NaN when none finished), plus the mean games played by all."""
    finished = [r.games_played for r in results if r.finished]
    return {
        "campaigns": len(results),
        "finished": len(finished),
        "finished_fraction": len(finished) / len(results) if results else math.nan,
        "mean_games": float(np.mean(finished)) if finished else math.nan,
        "median_games": float(np.median(finished)) if finished else math.nan,
        "mean_games_played": (
            float(np.mean([r.games_played for r in results])) if results else math.nan
        ),
    }
