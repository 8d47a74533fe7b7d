"""Bad input, each as a user met it: exit code 1 (2 for a usage error) and one line on
stderr naming the problem and the fix, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codebots.cli import app
from codebots.vocab import load_pool

runner = CliRunner()
LATIN1 = "CAFÉ\nNAÏVE\n".encode("latin-1")
BOM = b"\xef\xbb\xbf"


def pool_file(folder: Path, prefix: bytes = b"", extra: str = "") -> Path:
    path = folder / "cards.txt"
    cards = "\n".join(load_pool().words[:30]) + "\n" + extra
    path.write_bytes(prefix + cards.encode("utf-8"))
    return path


def config_file(folder: Path, text: str | bytes, suffix: str = ".toml") -> Path:
    path = folder / f"grid{suffix}"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


GOOD_CONFIG = 'name = "t"\nvariants = ["duet"]\npairs = ["random:random"]\ngames = 5\n'
START = {"type": "start", "version": 1, "variant": "duet", "seed": 1, "role": "guesser",
         "spymaster": "glove", "guesser": "glove"}  # fmt: skip


def record_file(folder: Path, *lines) -> Path:
    path = folder / "game.jsonl"
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    path.write_text(text + "\n")
    return path


def latin1_file(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_bytes(LATIN1)
    return path


# (case id, arguments given the test's folder, expected exit code, text in the one line)
# fmt: off
CASES = [
    # 11: files that are not UTF-8, a folder given as a file
    ("pool not UTF-8",
     lambda d: ["simulate", "--variant", f"classic[pool={latin1_file(d, 'p.txt')}]"],
     1, "is not UTF-8 text; save the pool as UTF-8"),
    ("pool is a folder", lambda d: ["simulate", "--variant", f"classic[pool={d}]"],
     1, "is a folder; give a text file with one card per line"),
    ("pool with a bad card after a BOM",
     lambda d: ["simulate", "--variant",
                f"classic[pool={pool_file(d, BOM, 'A-B')}]"],
     1, "line 31 'A-B' must be words of letters"),
    ("config not UTF-8",
     lambda d: ["evaluate", "--config", str(config_file(d, b'name = "\xe9t\xe9"\n'))],
     1, "not UTF-8 text; save the config as UTF-8"),
    ("config is a folder", lambda d: ["evaluate", "--config", str(d)], 1, "is a folder"),
    ("record not UTF-8", lambda d: ["replay", str(latin1_file(d, "g.jsonl"))],
     1, "is not UTF-8 text, so not a codebots game record"),
    ("resume not UTF-8", lambda d: ["play", "--resume", str(latin1_file(d, "g.jsonl"))],
     1, "is not UTF-8 text, so not a codebots game record"),
    ("campaign not UTF-8", lambda d: ["play", "--campaign", str(latin1_file(d, "c.json"))],
     1, "is not UTF-8 text, so not a campaign file"),
    ("campaign not JSON",
     lambda d: ["play", "--campaign", str(config_file(d, "{won: 1", ".json"))],
     1, "is not a codebots campaign file (line 1"),
    ("campaign with strange content",
     lambda d: ["play", "--campaign", str(config_file(
         d, '{"won": ["mordor"], "held": [], "spent": [], "games": []}', ".json"))],
     1, "'won' holds 'mordor', which is not a known mission"),
    # 11: numbers out of range
    ("huge seed", lambda d: ["simulate", "--seed", "9223372036854775807"],
     1, "runs past the largest seed 2**63-1"),
    ("seed beyond int64", lambda d: ["simulate", "--seed", "99999999999999999999"],
     1, "--seed must be at most"),
    ("huge games", lambda d: ["simulate", "--games", "100000000000"],
     1, "--games must be at most 10,000,000"),
    ("huge games to evaluate", lambda d: ["evaluate", "--games", "100000000000"],
     1, "--games must be at most 10,000,000"),
    ("huge play seed", lambda d: ["play", "--seed", "9223372036854775808"],
     1, "--seed must be at most"),
    ("huge campaign seed",
     lambda d: ["campaign", "--seed", "92233720368547758", "--games", "1"],
     1, "is too large for campaign board seeds"),
    # 11: configs
    ("config pairs of numbers",
     lambda d: ["evaluate", "--config", str(config_file(d, GOOD_CONFIG.replace(
         '["random:random"]', "[1]")))],
     1, "'pairs' must be a non-empty list of strings"),
    ("config without variants",
     lambda d: ["evaluate", "--config", str(config_file(d, GOOD_CONFIG.replace(
         '["duet"]', "[]")))],
     1, "'variants' must be a non-empty list of strings"),
    ("config with an empty name",
     lambda d: ["evaluate", "--config", str(config_file(d, GOOD_CONFIG.replace('"t"', '""')))],
     1, "'name' '' must be a plain file name"),
    ("config with a path as name",
     lambda d: ["evaluate", "--config", str(config_file(
         d, GOOD_CONFIG.replace('"t"', '"../../up"')))],
     1, "'name' '../../up' must be a plain file name"),
    ("config games as text",
     lambda d: ["evaluate", "--config", str(config_file(d, GOOD_CONFIG.replace("5", '"5"')))],
     1, "'games' must be an integer, got '5'"),
    ("config negative seed",
     lambda d: ["evaluate", "--config", str(config_file(d, GOOD_CONFIG + "seed = -3\n"))],
     1, "grid.toml: 'seed' must be from 0 to"),
    ("config unknown variant",
     lambda d: ["evaluate", "--config", str(config_file(d, GOOD_CONFIG.replace(
         '["duet"]', '["duett"]')))],
     1, "grid.toml: unknown variant 'duett'"),
    ("config a list", lambda d: ["evaluate", "--config", str(config_file(d, "[1, 2]", ".json"))],
     1, "a config is a table of keys"),
    # 11: game records
    ("record first line a list", lambda d: ["replay", str(record_file(d, [1, 2]))],
     1, "line 1 is not a JSON object"),
    ("record without variant",
     lambda d: ["replay", str(record_file(d, {k: v for k, v in START.items() if k != "variant"}))],
     1, "its start line lacks 'variant'"),
    ("record without type",
     lambda d: ["replay", str(record_file(d, {k: v for k, v in START.items() if k != "type"}))],
     1, "its first line is not a start line"),
    ("record move without word",
     lambda d: ["replay", str(record_file(d, START, {"type": "clue", "by": "human", "number": 2}))],
     1, "line 2: a clue without its 'word'"),
    ("record of an unknown variant",
     lambda d: ["replay", str(record_file(d, {**START, "variant": "duett"}))],
     1, "unknown variant 'duett'"),
    ("record with a negative seed",
     lambda d: ["play", "--resume", str(record_file(d, {**START, "seed": -1}))],
     1, "its start line has a seed outside 0 .. 2**63-1"),
    ("record with a huge seed",
     lambda d: ["replay", str(record_file(d, {**START, "seed": 2**64}))],
     1, "its start line has a seed outside 0 .. 2**63-1"),
    ("empty record", lambda d: ["replay", str(record_file(d, ""))], 1, "is empty"),
    ("missing record", lambda d: ["replay", str(d / "nope.jsonl")], 1, "does not exist"),
    # 11: variant labels
    ("unclosed options", lambda d: ["simulate", "--variant", "duet[tokens=11"],
     1, "options go in one pair of brackets after the id"),
    # 12: options that would be silently ignored
    ("mission without campaign", lambda d: ["play", "--mission", "london"],
     1, "--mission needs --campaign FILE"),
    ("bonus without campaign", lambda d: ["play", "--use-bonus", "double_clues"],
     1, "--use-bonus needs --campaign FILE"),
    ("resume with a seed", lambda d: ["play", "--resume", "x.jsonl", "--seed", "3"],
     1, "--resume continues a saved game as it was: leave out --seed"),
    ("config and games",
     lambda d: ["evaluate", "--config", str(config_file(d, GOOD_CONFIG)), "--games", "9"],
     1, "--config describes the whole grid: leave out --games"),
    ("config and variant and name",
     lambda d: ["evaluate", "--config", str(config_file(d, GOOD_CONFIG)), "--variant", "duet",
                "--name", "x"],
     1, "leave out --variant, --name"),
    ("a role in Duet", lambda d: ["play", "--variant", "duet", "--role", "spymaster"],
     1, "--role is for team games; in Duet and the missions you are player 0"),
    ("a variant with a campaign",
     lambda d: ["play", "--campaign", "c.json", "--variant", "classic"],
     1, "--campaign plays its missions: leave out --variant"),
    ("resume with agents",
     lambda d: ["play", "--resume", "x.jsonl", "--spymaster", "minilm", "--penalties"],
     1, "leave out --spymaster, --penalties"),
    ("an option set twice", lambda d: ["simulate", "--variant", "duet[tokens=11,tokens=12]"],
     1, "sets the option 'tokens' twice; set it once"),
    # 6, 7: outputs checked before any game
    ("out is a folder", lambda d: ["simulate", "--out", str(d)], 1, "is a folder; name a file"),
    ("out under a file",
     lambda d: ["simulate", "--out", str(config_file(d, "x") / "games.csv")],
     1, "is a file, so no folder can be made there"),
    ("out-dir is a file",
     lambda d: ["evaluate", "--games", "5", "--out-dir", str(config_file(d, "x"))],
     1, "is a file; give a folder"),
    ("name is a path", lambda d: ["evaluate", "--name", "../../../up", "--out-dir", str(d)],
     1, "--name '../../../up' must be a plain file name"),
    ("hidden name", lambda d: ["evaluate", "--name", ".hidden"], 1, "must be a plain file name"),
    ("watch out is a folder", lambda d: ["watch", "--out", str(d)], 1, "is a folder"),
    ("campaign out-dir is a file",
     lambda d: ["campaign", "--games", "1", "--out-dir", str(config_file(d, "x"))],
     1, "is a file; give a folder"),
    # 13: clue boards
    ("a board of targets only",
     lambda d: ["clue", "--board", "ghost, owl", "--targets", "ghost, owl"],
     1, "every card on --board is a target"),
    ("a card twice", lambda d: ["clue", "--board", "ghost, owl, ghost", "--targets", "ghost"],
     1, "--board lists GHOST twice; name each card once"),
    ("a target that is also avoided",
     lambda d: ["clue", "--board", "ghost, owl, bank", "--targets", "ghost", "--avoid", "ghost"],
     1, "GHOST cannot be both a target and a card to avoid"),
    ("check-clue card twice",
     lambda d: ["check-clue", "sluggish", "--board", "slug, slug"], 2, "lists SLUG twice"),
]
# fmt: on


@pytest.mark.parametrize("name, arguments, code, text", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line(name, arguments, code, text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, arguments(tmp_path))
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: ") and text in lines[0], lines[0]
    assert "\ufeff" not in lines[0]


def test_a_pool_with_a_byte_order_mark_plays(tmp_path):
    path = pool_file(tmp_path, BOM)
    result = runner.invoke(app, ["simulate", "--variant", f"classic[pool={path}]", "--games", "3"])
    assert result.exit_code == 0, result.output
    assert load_pool(path).words[0] == load_pool().words[0]  # the mark is not part of it


@pytest.mark.slow
def test_an_unreachable_dask_scheduler_is_one_line():
    pytest.importorskip("dask.distributed")
    result = runner.invoke(
        app,
        ["evaluate", "--games", "5", "--pairs", "random:random", "--backend", "dask",
         "--address", "tcp://127.0.0.1:9"],
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the dask scheduler at tcp://127.0.0.1:9" in lines[0]


def test_outputs_are_checked_before_any_game_is_played(tmp_path, monkeypatch):
    import codebots.arena
    import codebots.evaluation

    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before the output was checked")

    monkeypatch.setattr(codebots.arena, "play", refuse)
    monkeypatch.setattr(codebots.evaluation, "run_grid", refuse)
    for arguments in (
        ["simulate", "--games", "200000", "--out", str(tmp_path)],
        ["evaluate", "--games", "200000", "--out-dir", str(pool_file(tmp_path))],
        ["evaluate", "--name", "../up", "--out-dir", str(tmp_path)],
    ):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), arguments
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
