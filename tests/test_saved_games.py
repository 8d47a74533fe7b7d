"""A person's saved games and campaign under misuse: never overwritten, always counted,
never replayed on a known board, and damaged records refused at the line that is wrong."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from scripted_play import GLOVE_AI, find_seed
from typer.testing import CliRunner

from codebots.campaign_progress import CampaignProgress
from codebots.cli import app
from codebots.play import Session

runner = CliRunner()


def cli(arguments: list[str], text: str = "", cwd=None) -> subprocess.CompletedProcess:
    """``codebots ARGUMENTS`` as its own process, ``text`` typed at its prompts."""
    return subprocess.run(
        [sys.executable, "-m", "codebots", *arguments],
        input=text, capture_output=True, text=True, timeout=300, cwd=cwd,
    )  # fmt: skip


def quit_at_once(*arguments: str, cwd=None):
    return cli(["play", *arguments], "quit\n", cwd)


def test_a_new_game_never_replaces_a_saved_record(tmp_path):
    first = cli(["play", "--variant", "duet", "--seed", "3"], "ocean 2\nquit\n", tmp_path)
    assert first.returncode == 0, first.stderr
    saved = (tmp_path / "codebots-game-3.jsonl").read_bytes()
    assert len(saved.splitlines()) >= 2  # the start line and at least the person's clue
    again = quit_at_once("--variant", "duet", "--seed", "3", cwd=tmp_path)
    assert again.returncode == 0 and "recording to codebots-game-3-2.jsonl" in again.stdout
    for arguments in (("--variant", "classic", "--role", "spymaster", "--seed", "3"),
                      ("--variant", "classic", "--role", "team", "--seed", "3")):  # fmt: skip
        assert quit_at_once(*arguments, cwd=tmp_path).returncode == 0
    assert (tmp_path / "codebots-game-3.jsonl").read_bytes() == saved
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == [
        "codebots-game-3-2.jsonl",
        "codebots-game-3-3.jsonl",
        "codebots-game-3-4.jsonl",
        "codebots-game-3.jsonl",
    ]
    refused = quit_at_once("--variant", "duet", "--save", "codebots-game-3.jsonl", cwd=tmp_path)
    assert refused.returncode == 1
    assert refused.stderr.strip() == (
        "error: codebots-game-3.jsonl already holds a game; continue it with --resume "
        "codebots-game-3.jsonl, or name a new record with --save"
    )
    assert (tmp_path / "codebots-game-3.jsonl").read_bytes() == saved


def test_a_game_without_seed_gets_a_fresh_one_that_its_record_keeps(tmp_path):
    seeds = []
    for _ in range(2):
        result = quit_at_once("--variant", "duet", cwd=tmp_path)
        assert result.returncode == 0
        line = next(line for line in result.stdout.splitlines() if line.startswith("recording"))
        path, seed = line.split()[2], int(line.split("seed ")[1].rstrip(")"))
        assert json.loads((tmp_path / path).read_text().splitlines()[0])["seed"] == seed
        seeds.append(seed)
    assert seeds[0] != seeds[1]


def _campaign_game(progress_file, record, inputs, *extra):
    return cli(
        ["play", "--campaign", str(progress_file), "--save", str(record), *extra, *GLOVE_AI],
        "\n".join(inputs) + "\n",
    )


@pytest.mark.slow
def test_a_campaign_game_quit_and_resumed_is_counted_once(tmp_path):
    seed, inputs, _ = find_seed("mission/london", "guesser", True)
    progress_file, record = tmp_path / "campaign.json", tmp_path / "g.jsonl"
    half = len(inputs) // 2
    first = _campaign_game(progress_file, record, [*inputs[:half], "quit"], "--seed", str(seed))
    assert first.returncode == 0, first.stderr
    header = json.loads(record.read_text().splitlines()[0])
    assert header["campaign"] == {"path": str(progress_file), "mission": "london", "bonuses": []}
    resumed = cli(["play", "--resume", str(record)], "\n".join(inputs[half:]) + "\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "You won" in resumed.stdout and "1 of 24 missions won" in resumed.stdout
    progress = CampaignProgress.load(progress_file)
    assert progress.won == ["london"] and len(progress.games) == 1
    assert progress.games[0]["game_id"] == header["game_id"]
    before = progress_file.read_bytes()
    again = cli(["play", "--resume", str(record)])  # a finished game
    assert again.returncode == 0 and "this game was already counted" in again.stdout
    assert progress_file.read_bytes() == before


@pytest.mark.slow
def test_a_retried_mission_is_dealt_a_new_board(tmp_path):
    progress_file = tmp_path / "campaign.json"
    seed, losing, _ = find_seed("mission/london", "guesser", False)
    lost = _campaign_game(progress_file, tmp_path / "a.jsonl", losing, "--seed", str(seed))
    assert lost.returncode == 0 and "You lost" in lost.stdout, lost.stderr
    assert CampaignProgress.load(progress_file).games[0]["seed"] == seed
    retry = _campaign_game(progress_file, tmp_path / "b.jsonl", ["quit"])
    assert retry.returncode == 0, retry.stderr
    header = json.loads((tmp_path / "b.jsonl").read_text().splitlines()[0])
    assert header["campaign"]["mission"] == "london" and header["seed"] != seed
    again = _campaign_game(progress_file, tmp_path / "c.jsonl", ["quit"], "--seed", str(seed))
    assert again.returncode == 1
    assert f"seed {seed} was already played for london in this campaign" in again.stderr


def _record(tmp_path, moves: int = 6):
    """A real record of a single-team game with a few moves made."""
    seed, inputs, _ = find_seed("single-team-2019", "guesser", True)
    record = tmp_path / "g.jsonl"
    session = Session("single-team-2019", seed, "guesser", "glove", "glove", record)
    session.start()
    from scripted_play import choose

    while len(session.events) < moves:
        move = session.human_move()
        if move is None:
            session.ai_move()
        else:
            getattr(session, f"human_{move}")(choose(session, move, True))
    return record, record.read_text().splitlines()


def _damaged(tmp_path, lines):
    path = tmp_path / "damaged.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_damaged_records_are_refused_at_the_bad_line(tmp_path):
    record, lines = _record(tmp_path)
    guess = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "guess")
    moved = json.loads(lines[guess])
    far = {**moved, "card": 99}
    cases = {
        "duplicated": (lines[: guess + 1] + [lines[guess]] + lines[guess + 1 :], guess + 2),
        "card 99": (lines[:guess] + [json.dumps(far)] + lines[guess + 1 :], guess + 1),
        "wrong word": (
            lines[:guess] + [json.dumps({**moved, "word": "NOT A CARD"})] + lines[guess + 1 :],
            guess + 1,
        ),
        "by the AI": (
            lines[:guess] + [json.dumps({**moved, "by": "ai"})] + lines[guess + 1 :],
            guess + 1,
        ),
    }
    for name, (damaged, bad_line) in cases.items():
        path = _damaged(tmp_path, damaged)
        for command in (["replay", str(path)], ["play", "--resume", str(path)]):
            result = runner.invoke(app, command)
            assert result.exit_code == 1, (name, result.output)
            message = result.stderr.strip()
            assert message.startswith(f"error: {path} line {bad_line}"), (name, message)
            assert "\n" not in message and "You lost" not in result.output, name


def test_a_record_cut_in_the_middle_is_refused_but_a_cut_last_line_is_not(tmp_path):
    record, lines = _record(tmp_path)
    middle = _damaged(tmp_path, lines[:3] + [lines[3][:10]] + lines[4:])
    result = runner.invoke(app, ["replay", str(middle)])
    assert result.exit_code == 1 and f"{middle} line 4 is not a JSON object" in result.stderr
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:7])
    result = runner.invoke(app, ["replay", str(cut)])
    assert result.exit_code == 0, result.output
    assert f"(line {len(lines)} was cut off and is left out)" in result.output


def test_replay_loads_no_ai_agent(tmp_path, monkeypatch):
    record, _ = _record(tmp_path)
    import codebots.agents

    def refuse(role, name, **options):
        raise AssertionError(f"replay built the {role} {name}")

    monkeypatch.setattr(codebots.agents, "make_agent", refuse)
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].endswith("AI spymaster glove, AI guesser glove")


def test_a_duet_replay_names_the_seats(tmp_path):
    record = tmp_path / "d.jsonl"
    Session("duet", 4, "guesser", "glove", "glove", record).start()
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == (
        "duet seed 4: you as player 0, AI player 1 (glove clues, glove guesses)"
    )
