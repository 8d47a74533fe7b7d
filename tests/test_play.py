"""Terminal play end to end: scripted people win and lose every variant in every role."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scripted_play import GLOVE_AI, expected_text, find_seed, quit_halfway, script, spawn_play
from typer.testing import CliRunner

from codebots.cli import app
from codebots.missions import MISSIONS_BY_SLUG
from codebots.play import Session
from codebots.replay import replay_lines

runner = CliRunner()


TEAM_VARIANTS = ("single-team-2019", "classic", "marvel-coop")
CASES = [
    (variant, role, win)
    for variant in (*TEAM_VARIANTS, "duet", "mission/gringotts")
    for role in (("guesser", "spymaster", "team") if variant in TEAM_VARIANTS else ("guesser",))
    for win in (True, False)
]


def seat(variant: str, role: str) -> list[str]:
    """``--role`` for team games; in Duet the person is always player 0."""
    return ["--role", role] if variant in TEAM_VARIANTS else []


@pytest.mark.slow
@pytest.mark.parametrize("variant, role, win", CASES)
def test_scripted_games_through_the_cli(tmp_path, variant, role, win):
    seed, inputs, session = find_seed(variant, role, win)
    record = tmp_path / "game.jsonl"
    result = runner.invoke(
        app,
        ["play", "--variant", variant, *seat(variant, role), "--seed", str(seed)]
        + ["--save", str(record), *GLOVE_AI],
        input="\n".join(inputs) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert expected_text(session, win) in result.output
    if any(e["by"] == "ai" and e["type"] in ("clue", "guess") for e in session.events):
        assert "How the AI saw it:" in result.output
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["type"] == "start" and lines[0]["seed"] == seed
    assert len(lines) - 1 == len(session.events)
    assert replay_lines(record)[-1] == session.result_text()


@pytest.mark.slow
def test_a_killed_game_resumes_on_the_same_board(tmp_path):
    seed, inputs, session = find_seed("duet", "guesser", True)
    record = tmp_path / "game.jsonl"
    half = quit_halfway(runner, app, "duet", seed, inputs, record)
    saved = Session.load(record)
    assert (saved.state.cards == session.state.cards).all()  # the same board
    assert not saved.done
    second = runner.invoke(
        app, ["play", "--resume", str(record)], input="\n".join(inputs[half:]) + "\n"
    )
    assert second.exit_code == 0, second.output
    assert "You won" in second.output and "resumed" in second.output
    final = Session.load(record)
    assert final.done and final.result_text() == session.result_text()


def test_a_resumed_ai_spymaster_remembers_its_clues_and_their_targets(tmp_path):
    record = tmp_path / "g.jsonl"
    session = Session("classic", 3, "guesser", "glove", "glove", record)
    while session.human_move() is None:  # the AI team's turn, then the AI gives our clue
        session.ai_move()
    clues = [e for e in session.events if e["type"] == "clue"]
    resumed = Session.load(record)
    spymaster = resumed.spymaster
    for clue in clues:  # the clue is not given again, and what it aimed at is known
        clue_id = spymaster.vocabulary.index(clue["word"])
        assert clue_id in spymaster._given[0]
        aimed = [resumed.card_word(i) for i in np.flatnonzero(spymaster._aimed[0] == clue_id)]
        assert sorted(aimed) == sorted(clue["targets"]) and aimed


def test_input_help_typos_and_invalid_clues():
    session = Session("single-team-2019", 3, "spymaster", "glove", "glove")
    cards = [session.card_word(i) for i in range(25)]
    from codebots.play import InputProblem

    with pytest.raises(InputProblem, match="invalid clue: 'snow' is the visible word"):
        session.human_clue("Snow 2")
    with pytest.raises(InputProblem, match="not a number"):
        session.human_clue("weather lots")
    strict = Session("single-team-2019[zero_clues=false]", 3, "spymaster", "glove", "glove")
    with pytest.raises(
        InputProblem, match=r"single-team-2019\[zero_clues=false\] does not allow 0 clues"
    ):
        strict.human_clue("weather 0")
    assert session.find_card("a1") == 0 and session.find_card(cards[7].lower()) == 7
    with pytest.raises(InputProblem, match="did you mean SATELLITE"):
        session.find_card("satelite")
    assert session.find_card("sate") == cards.index("SATELLITE")  # a unique prefix


def test_an_ai_warning_clue_is_explained_to_the_person_and_survives_a_resume(tmp_path):
    from codebots.render import describe_move as describe

    variant = "single-team-2019"
    record = tmp_path / "g.jsonl"
    session = Session(variant, 3, "spymaster", "glove-lexicon", "minilm", record)
    session.human_clue("weather 0")  # the person warns the AI guesser off a card
    resumed = Session.load(record)
    assert resumed.guesser._zero[0, 0] and resumed.guesser._count[0] == 1
    session = Session(variant, 3, "guesser", "glove-lexicon", "minilm")
    session.ai_move()  # the lexicon spymaster opens with a warning at the assassin
    clue = session.events[-1]
    assert clue["type"] == "clue" and clue["number"] == 0, clue
    assert "keep away from the cards it suggests" in describe(clue)
    assert any(f"{clue['word']} 0: meant a warning" in line for line in session.explanations())
    assert "keep away" not in describe({**clue, "number": 1})


def test_pseudo_terminal_session(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    _, session = script("single-team-2019", "guesser", 3, False)
    assassin = [e["word"] for e in session.events if e.get("result") == "assassin"][0]
    child = spawn_play(pexpect, "3", str(tmp_path / "g.jsonl"))
    child.expect("your guess> ")
    child.sendline(assassin.lower())
    child.expect("You lost")
    child.expect(pexpect.EOF)


def test_replay_and_bad_records(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "clue"}\n')
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1 and "not a codebots game record" in result.output
    result = runner.invoke(app, ["play", "--role", "captain"])
    assert result.exit_code == 1 and "role must be one of guesser, spymaster" in result.output


@pytest.mark.slow
def test_a_killed_process_loses_nothing(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    seed, inputs, session = find_seed("single-team-2019", "guesser", True)
    record = tmp_path / "g.jsonl"
    child = spawn_play(pexpect, str(seed), str(record))
    for text in inputs[:3]:
        child.expect("your guess> ")
        child.sendline(text)
    child.expect("your guess> ")  # the third guess has been recorded
    child.kill(9)  # no chance to clean up
    child.close(force=True)
    saved = Session.load(record)
    assert [e["word"].lower() for e in saved.events if e["by"] == "human"] == inputs[:3]
    result = runner.invoke(
        app, ["play", "--resume", str(record)], input="\n".join(inputs[3:]) + "\n"
    )
    assert result.exit_code == 0 and "You won" in result.output
    assert Session.load(record).result_text() == session.result_text()


@pytest.mark.slow
def test_a_human_team_against_the_ai_team(tmp_path):
    seed, inputs, session = find_seed("classic", "team", True)
    result = runner.invoke(
        app,
        [
            "play",
            *GLOVE_AI,
            "--variant",
            "classic",
            "--role",
            "team",
            "--seed",
            str(seed),
            "--save",
            str(tmp_path / "g.jsonl"),
        ],
        input="\n".join(inputs) + "\n",
    )
    assert result.exit_code == 0 and "Red won" in result.output
    humans = {e["type"] for e in session.events if e["by"] == "human"}
    assert humans == {"clue", "guess"}  # the people hold both red seats


@pytest.mark.slow
def test_the_mission_log_campaign_inside_play(tmp_path):
    from codebots.campaign_progress import CampaignProgress

    progress_file = tmp_path / "campaign.json"
    seed, inputs, _ = find_seed("mission/london", "guesser", True)
    result = runner.invoke(
        app,
        [
            "play",
            *GLOVE_AI,
            "--campaign",
            str(progress_file),
            "--seed",
            str(seed),
            "--save",
            str(tmp_path / "g.jsonl"),
        ],
        input="\n".join(inputs) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "[open  ] london" in result.output and "[locked] privet-drive" in result.output
    assert "You won" in result.output and "1 of 24 missions won" in result.output
    progress = CampaignProgress.load(progress_file)
    assert progress.won == ["london"] and progress.games[0]["mission"] == "london"
    assert any(line.startswith("[open  ] privet-drive") for line in progress.status_lines())
    # Bonuses: only held ones can be spent, and only on open missions.
    progress.held.append("sudden_death_forgiveness")
    progress.save()
    mission = progress.choose("privet-drive")
    label = progress.variant_for(mission, ["sudden_death_forgiveness"])
    assert label == "mission/privet-drive[sudden_death_forgiveness=1]"
    for args, message in (
        (["--use-bonus", "double_clues"], "bonus 'double_clues' is not held"),
        (["--mission", "the-burrow"], "mission 'the-burrow' is locked"),
        (["--mission", "azkaban"], "unknown mission 'azkaban'"),
    ):
        bad = runner.invoke(app, ["play", "--campaign", str(progress_file), *args])
        assert bad.exit_code == 1 and message in bad.output, bad.output
    assert progress.record(mission, ["sudden_death_forgiveness"], True, "x.jsonl") is None
    assert CampaignProgress.load(progress_file).spent == ["sudden_death_forgiveness"]
    # A campaign begun without the expert option keeps it.
    bad = runner.invoke(app, ["play", "--campaign", str(progress_file), "--expert"])
    assert bad.exit_code == 1 and "was begun without the expert option" in bad.output


def test_an_expert_campaign_plays_every_mission_with_one_token_fewer(tmp_path):
    from codebots.campaign_progress import CampaignProgress

    progress_file = tmp_path / "expert.json"
    record = tmp_path / "g.jsonl"
    arguments = ["play", *GLOVE_AI, "--campaign", str(progress_file), "--expert"]
    result = runner.invoke(app, [*arguments, "--seed", "5", "--save", str(record)], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "mission: London (mission/london[expert])" in result.output
    assert "expert option: every mission has one token fewer" in result.output
    assert CampaignProgress.load(progress_file).expert  # saved when the campaign began
    session = Session.load(record)
    assert int(session.state.bank[0]) == 9  # London is 10/10: one token fewer
    progress = CampaignProgress.load(progress_file)
    assert progress.variant_for(MISSIONS_BY_SLUG["privet-drive"], []) == (
        "mission/privet-drive[expert]"
    )
    later = runner.invoke(
        app,
        ["play", *GLOVE_AI, "--campaign", str(progress_file), "--save", str(tmp_path / "h.jsonl")],
        input="quit\n",
    )  # kept without repeating the flag
    assert later.exit_code == 0 and "(mission/london[expert])" in later.output, later.output


def test_the_ai_partner_of_a_person_is_the_crossplay_agent(tmp_path):
    pytest.importorskip("sentence_transformers")
    from codebots.agents.crossplay import committee
    from codebots.agents.views import spymaster_view

    record = tmp_path / "g.jsonl"
    result = runner.invoke(
        app,
        ["play", "--variant", "single-team-2019[zero_clues=false]", "--seed", "5"]
        + ["--save", str(record)],
        input="quit\n",
    )
    assert result.exit_code == 0, result.output
    assert "the AI: spymaster crossplay, guesser crossplay (thinking with" in result.output
    header = json.loads(record.read_text().splitlines()[0])
    assert (header["spymaster"], header["guesser"]) == ("crossplay", "crossplay")
    clue = json.loads(record.read_text().splitlines()[1])
    assert clue["by"] == "ai" and clue["minds"]
    # Each mind named singles out the clue's targets: every target above every other card.
    session = Session.load(record)
    session.state = session.game.reset(session.state.seed)  # the board the clue was given on
    view = spymaster_view(session.spec, session.words, session.state, np.ones(1, bool))
    spymaster = session.spymaster.single
    targets = [session.words.index(w) for w in clue["targets"]]
    positions = [int(np.flatnonzero(view.cards[0] == t)[0]) for t in targets]
    for model, table in zip(spymaster.models, spymaster.tables(session.words)):
        z = table.zsims[view.cards[0], spymaster._clue_ids()[clue["word"]]]
        others = np.delete(z, positions)
        assert (model in clue["minds"]) == bool(z[positions].min() > others.max())
    assert set(clue["minds"]) <= set(committee())
    assert any("minds agreeing:" in line for line in session.explanations())


def test_the_ai_guessers_next_choices_leave_out_cards_it_knows_are_wrong_and_no_clue_goes_stale():
    # Seed 11, the person's side: IRON a bystander, GROUND and DROP agents. "steel 1": the
    # AI touches IRON, which marks it bystander from the person's side; the next "steel 1"
    # it guesses past IRON, and its explanation must not offer IRON as a next choice either.
    session = Session("duet", 11, "guesser", "glove", "glove")
    iron = session.words.index("IRON")
    position = int(np.flatnonzero(session.state.cards[0] == iron)[0])
    assert session.state.key[0, 0, position] == 2  # a bystander on the person's side
    session.human_clue("steel 1")
    assert session.clue_in_play() == "STEEL 1"
    first = session.ai_move()
    assert (first["word"], first["result"]) == ("IRON", "bystander"), first
    assert session.clue_in_play() == ""  # the turn is over: the AI gives the next clue
    assert "IRON" not in first["runner_up"] and len(first["runner_up"]) == 2
    while session.human_move() != "clue":  # the AI's clue, the person's one guess
        if session.human_move() == "guess":
            session.human_guess(session.visible_words()[0])
        else:
            session.ai_move()
    assert session.state.marked[0, 0, position]
    session.human_clue("steel 1")
    second = session.ai_move()
    assert second["word"] != "IRON" and "IRON" not in second["runner_up"], second
    # The next choices are the guesser's own ranking after its card, best first.
    ranking = session.guesser.ranking(0)
    ranking[int(second["card"])] = -np.inf
    best = [session.card_word(int(i)) for i in np.argsort(-ranking, kind="stable")[:2]]
    assert second["runner_up"] == best and not np.isfinite(session.guesser.ranking(0)[position])
    assert any("next choices: " + ", ".join(best) in line for line in session.explanations())
