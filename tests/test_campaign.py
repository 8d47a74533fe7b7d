"""The mission-log evaluation: per-mission table, expected games, campaigns, the command."""

from __future__ import annotations

import math

import pandas as pd
import pytest
import typer
from typer.testing import CliRunner

from codebots.agents import make_agent
from codebots.campaign import (
    campaign_summary,
    expected_games,
    is_unlocked,
    next_mission,
    play_missions,
    score_distribution,
    simulate_campaign,
    summarize_missions,
)
from codebots.commands.campaign import register
from codebots.errors import CodebotsError
from codebots.missions import MISSIONS, MISSIONS_BY_SLUG

SLUGS = [m.slug for m in MISSIONS]


@pytest.fixture(scope="module")
def oracle_pair():
    return make_agent("spymaster", "random"), make_agent("guesser", "oracle")


@pytest.fixture(scope="module")
def oracle_records(oracle_pair):
    return play_missions(*oracle_pair, games=5, seed=0)


def test_table_has_the_standard_game_and_24_missions_with_their_token_setups(oracle_records):
    table = summarize_missions(oracle_records)
    assert len(table) == 25 and table["variant"].tolist() == [
        "duet",
        *(m.variant_id for m in MISSIONS),
    ]
    setups = dict(zip(table["variant"], zip(table["tokens"], table["mistakes"])))
    assert setups["duet"] == (10, 10)
    assert setups["mission/diagon-alley"] == (11, 3)
    assert setups["mission/battle-of-the-atrium"] == (7, 4)
    assert all(setups[m.variant_id] == (m.tokens, m.mistakes) for m in MISSIONS)
    assert (table["games"] == 5).all() and (table["wins"] == 5).all()  # the oracle never fails
    assert (table["win_rate"] == 1).all() and (table["win_high"] == 1).all()
    assert table["win_low"].between(0.5, 0.6).all()  # Wilson lower bound for 5/5
    assert table.loc[table["variant"] == "mission/hogsmeade", "location"].item() == "hogsmeade"
    assert table["mean_score"].notna().all()


def test_the_expert_option_takes_one_token_from_every_mission(oracle_pair):
    table = summarize_missions(play_missions(*oracle_pair, games=2, seed=0, expert=True))
    assert table["variant"].tolist() == ["duet", *(f"{m.variant_id}[expert]" for m in MISSIONS)]
    setups = dict(zip(table["variant"], zip(table["tokens"], table["mistakes"])))
    assert setups["duet"] == (10, 10)  # the standard game is no mission
    assert setups["mission/diagon-alley[expert]"] == (10, 3)
    assert setups["mission/train-station[expert]"] == (11, 0)
    assert setups["mission/london[expert]"] == (9, 9)  # mistake side capped by the bank
    assert expected_games(table)[0] == 24.0  # the oracle still wins every mission
    result = simulate_campaign(*oracle_pair, seed=1, max_games=30, expert=True)
    assert result.finished and result.games_played == 24


def test_score_distribution_counts_standard_game_scores_and_losses(oracle_records):
    distribution = score_distribution(oracle_records)
    assert distribution["result"].tolist()[-1] == "lost" and distribution["games"].sum() == 5
    assert distribution["games"].iloc[-1] == 0 and pd.isna(distribution["score"].iloc[-1])
    standard = oracle_records[oracle_records["variant"] == "duet"]
    won = distribution[distribution["result"] == "won"]
    assert dict(zip(won["score"], won["games"])) == standard["score"].value_counts().to_dict()
    with pytest.raises(CodebotsError, match="standard"):
        score_distribution(oracle_records[oracle_records["variant"] != "duet"])


def hand_table(p_low_high: dict[str, tuple[float, float, float]]) -> pd.DataFrame:
    """A table with win rate 0.5 [0.25, 1.0] everywhere except the given missions."""
    rows = [{"variant": "duet", "win_rate": 0.0, "win_low": 0.0, "win_high": 0.0}]
    for mission in MISSIONS:
        p, low, high = p_low_high.get(mission.slug, (0.5, 0.25, 1.0))
        rows.append(
            {"variant": mission.variant_id, "win_rate": p, "win_low": low, "win_high": high}
        )
    return pd.DataFrame(rows)


def test_expected_games_is_the_sum_of_geometric_means_over_the_log():
    # The standard game (p = 0) is not part of the log.
    expected, low, high = expected_games(hand_table({"london": (0.25, 0.1, 0.5)}))
    assert expected == pytest.approx(23 * 2 + 4)
    assert low == pytest.approx(23 * 1 + 2)  # upper bounds of p
    assert high == pytest.approx(23 * 4 + 10)  # lower bounds of p
    expected, low, high = expected_games(hand_table({"gringotts": (0.0, 0.0, 0.2)}))
    assert expected == math.inf and high == math.inf and low == pytest.approx(23 + 5)
    expected, low, high = expected_games(hand_table({"hogwarts": (0.1, 0.0, 0.3)}))
    assert expected == pytest.approx(46 + 10) and high == math.inf
    with pytest.raises(CodebotsError, match="mission/hogwarts"):
        expected_games(hand_table({}).query("variant != 'mission/hogwarts'"))


def test_unlock_rules():
    assert [m.slug for m in MISSIONS if is_unlocked(m, set())] == [
        "london",
        "hogwarts",
        "hogsmeade",
    ]
    after_london = {m.slug for m in MISSIONS if is_unlocked(m, {"london"})}
    assert {"privet-drive", "diagon-alley", "train-station"} <= after_london
    assert "the-burrow" not in after_london and "quidditch-pitch" not in after_london
    others = {m.slug for m in MISSIONS if m.location != "ministry"}
    ministry = MISSIONS_BY_SLUG["department-of-mysteries"]
    assert not is_unlocked(ministry, others - {"shrieking-shack"})
    assert is_unlocked(ministry, others)
    assert not is_unlocked(MISSIONS_BY_SLUG["hall-of-prophecy"], others)
    assert next_mission(set(SLUGS)) is None


def test_oracle_campaign_wins_every_mission_at_once_and_spends_bonuses_greedily(oracle_pair):
    result = simulate_campaign(*oracle_pair, seed=1)
    assert result.finished and result.games_played == len(MISSIONS) == 24
    assert [row["mission"] for row in result.log] == SLUGS  # catalogue order, Ministry last
    assert all(row["won"] for row in result.log) and set(result.attempts.values()) == {1}
    earned = {row["mission"]: row["earned"] for row in result.log if row["earned"]}
    assert earned == {
        "grimmauld-place": "fourteen_of_fifteen",
        "ollivanders": "extra_mistake_token",
        "hogwarts-express": "sudden_death_forgiveness",
        "forbidden-forest": "flip_time_to_mistake",
        "gryffindor-common-room": "double_clues",
        "shrieking-shack": "extra_time_tokens",
    }
    offered = {row["mission"]: row["bonuses"] for row in result.log if row["bonuses"]}
    spent = {row["mission"]: row["used"] for row in result.log if row["used"]}
    assert spent == {  # the next hard mission (<= 3 mistakes) after each reward
        "diagon-alley": ("fourteen_of_fifteen",),  # it ended the game at 14 greens
        "train-station": ("extra_mistake_token",),
        "great-hall": ("flip_time_to_mistake",),
        "department-of-mysteries": ("extra_time_tokens",),
    }
    # Bonuses the game did not use stay held: the oracle never reaches sudden death, and
    # its random spymaster never gives two clues in a turn.
    assert offered["great-hall"] == ("sudden_death_forgiveness", "flip_time_to_mistake")
    assert offered["hall-of-prophecy"] == ("sudden_death_forgiveness", "double_clues")
    assert result.earned == list(earned.values())
    assert sorted(result.spent) == sorted(set(result.earned) - {"sudden_death_forgiveness",
                                                                 "double_clues"})  # fmt: skip
    unspent = simulate_campaign(*oracle_pair, seed=1, policy="none")
    assert unspent.spent == [] and unspent.earned == result.earned
    assert campaign_summary([result, unspent]) == {
        "campaigns": 2,
        "finished": 2,
        "finished_fraction": 1.0,
        "mean_games": 24.0,
        "median_games": 24.0,
        "mean_games_played": 24.0,
    }


def test_a_campaign_that_never_wins_retries_london_until_max_games():
    result = simulate_campaign("random", "random", seed=2, max_games=6)
    assert not result.finished and result.games_played == 6
    assert result.attempts == {"london": 6}
    assert [row["game"] for row in result.log] == [1, 2, 3, 4, 5, 6]
    summary = campaign_summary([result])
    assert summary["finished_fraction"] == 0 and math.isnan(summary["mean_games"])
    with pytest.raises(CodebotsError, match="policy"):
        simulate_campaign("random", "random", seed=2, policy="lavish")


def test_glove_pair_small_realistic_run():
    spymaster, guesser = make_agent("spymaster", "glove"), make_agent("guesser", "glove")
    table = summarize_missions(play_missions(spymaster, guesser, games=2, seed=100))
    assert len(table) == 25 and table["win_rate"].between(0, 1).all()
    result = simulate_campaign(spymaster, guesser, seed=3, max_games=30)
    assert result.games_played == sum(result.attempts.values()) <= 30
    assert result.log[0]["mission"] == "london"


def cli_app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:  # a group, so that the command is invoked by name
        pass

    register(app)
    return app


def test_campaign_command_prints_the_tables_and_writes_files(tmp_path):
    args = ["campaign", "--spymaster", "random", "--guesser", "oracle", "--games", "5"]
    result = CliRunner().invoke(cli_app(), [*args, "--campaigns", "1", "--out-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "| mission/battle-of-the-atrium | Battle of the Atrium |" in result.output
    assert "expected games to finish the log: 24.0" in result.output
    assert "| lost |  | 0 |" in result.output
    assert "campaign seed 1: finished in 24 games" in result.output
    assert "finished 1 of 1; games to finish: mean 24.0, median 24.0" in result.output
    saved = pd.read_csv(tmp_path / "mission_table.csv")
    assert len(saved) == 25 and (tmp_path / "mission_table.md").read_text().startswith("| var")
    # What each bonus is worth: every mission with each reward and without its location bonus.
    assert "What each bonus is worth" in result.output
    worth = pd.read_csv(tmp_path / "mission_bonuses.csv")
    assert len(worth) == 24 and "+double_clues" in worth and "no location bonus" in worth
    assert (worth["as is"] == 1).all()  # the oracle
    assert worth.set_index("variant")["no location bonus"].isna().sum() == 3  # the Ministry


def test_campaign_command_expert_option():
    args = ["campaign", "--spymaster", "random", "--guesser", "oracle", "--games", "2"]
    result = CliRunner().invoke(
        cli_app(), [*args, "--campaigns", "0", "--expert", "--bonus-games", "0"]
    )
    assert result.exit_code == 0, result.output
    assert "Mission log (expert: one token fewer), random:oracle" in result.output
    assert "| mission/diagon-alley[expert] | Diagon Alley |" in result.output


def test_campaign_command_plays_two_seats():
    args = ["campaign", "--pair", "random/glove", "--games", "3", "--campaigns", "0"]
    args += ["--bonus-games", "0"]
    result = CliRunner().invoke(cli_app(), args)
    assert result.exit_code == 0, result.output
    assert "Mission log, random/glove, 3 games per mission" in result.output
    assert "| mission/battle-of-the-atrium | Battle of the Atrium |" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--spymaster", "nobody"], "error: unknown spymaster 'nobody'"),
        (["--games", "many"], "error: --games must be an integer, got 'many'"),
        (["--pair", "glove/nobody"], "error: unknown spymaster 'nobody'"),
        (["--pair", "glove/minilm", "--spymaster", "random"], "error: give --pair or"),
        (["--pair", "glove/minilm", "--guesser", "glove"], "error: give --pair or"),
        (["--pair", "glove"], "error: pair 'glove' must be spymaster:guesser"),
    ],
)
def test_campaign_command_errors_are_one_line(args, message):
    result = CliRunner().invoke(cli_app(), ["campaign", *args])
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(message)
