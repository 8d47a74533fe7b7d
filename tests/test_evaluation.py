"""Evaluation grids: configs, cached and resumable cells, workers, dask, outputs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from codebots.cli import app
from codebots.errors import CodebotsError
from codebots.evaluation import grid_table, run_grid, write_outputs
from codebots.grid_config import Cell, load_config

runner = CliRunner()
QUICK = [Cell("classic", "random", "random", 200), Cell("duet", "random", "oracle", 200)]


def write(tmp_path: Path, text: str, name: str = "grid.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_config_round_trip(tmp_path):
    grid = load_config(
        write(
            tmp_path,
            'name = "t"\nvariants = ["duet", "classic"]\npairs = ["random:oracle"]\ngames = 10\n',
        )
    )
    assert [c.variant for c in grid.cells()] == ["duet", "classic"] and grid.seed == 0
    json_grid = load_config(
        write(
            tmp_path,
            '{"name": "j", "variants": ["duet"], "pairs": ["glove:glove"], "games": 5, "seed": 3}',
            "grid.json",
        )
    )
    assert json_grid.cells() == [Cell("duet", "glove", "glove", 5, 3)]


@pytest.mark.parametrize(
    "text, message",
    [
        (
            'name = "t"\nvariants = ["duet"]\npairs = ["a:b"]\ngames = 1\ncolour = 2\n',
            "unknown key\\(s\\) colour",
        ),
        ('name = "t"\nvariants = ["duet"]\npairs = ["a:b"]\n', "missing key 'games'"),
        (
            'name = "t"\nvariants = "duet"\npairs = ["a:b"]\ngames = 1\n',
            "'variants' must be a list",
        ),
        (
            'name = "t"\nvariants = ["duet"]\npairs = ["glove"]\ngames = 1\n',
            "must be spymaster:guesser",
        ),
        ('name = "t"\nvariants = ["duet"]\npairs = ["a:b"]\ngames = 0\n', "at least 1"),
        ("name = = 1\n", "not valid TOML"),
    ],
)
def test_malformed_configs_are_one_line_errors(tmp_path, text, message):
    with pytest.raises(CodebotsError, match=message) as error:
        load_config(write(tmp_path, text))
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    "cell, message",
    [
        (Cell("nope", "random", "random", 5), "unknown variant 'nope'"),
        (Cell("duet", "genius", "random", 5), "unknown spymaster 'genius'"),
        (Cell("duet", "random", "psychic", 5), "unknown guesser 'psychic'"),
    ],
)
def test_unknown_variants_and_agents_fail_before_playing(tmp_path, cell, message):
    with pytest.raises(CodebotsError, match=message):
        run_grid([QUICK[0], cell], tmp_path)
    assert not list(tmp_path.iterdir())  # nothing was played


def test_cells_are_cached_and_workers_give_the_same_table(tmp_path):
    serial = run_grid(QUICK, tmp_path / "serial")
    files = sorted((tmp_path / "serial").iterdir())
    assert len(files) == 2
    stamps = [f.stat().st_mtime_ns for f in files]
    again = run_grid(QUICK, tmp_path / "serial")
    assert [f.stat().st_mtime_ns for f in files] == stamps  # loaded, not recomputed
    pd.testing.assert_frame_equal(serial, again)
    parallel = run_grid(QUICK, tmp_path / "parallel", workers=2)
    pd.testing.assert_frame_equal(grid_table(serial), grid_table(parallel))


def test_outputs_csv_markdown_png(tmp_path):
    table = grid_table(run_grid([Cell("marvel-coop", "random", "oracle", 50)], tmp_path / "c"))
    assert "typical_rank" in table.columns and table.loc[0, "mean_score"] > 0
    paths = write_outputs(table, tmp_path / "out", "marvel")
    assert [p.name for p in paths] == ["marvel.csv", "marvel.md", "marvel.png"]
    assert paths[2].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "marvel.csv",
        "marvel.md",
        "marvel.png",
    ]  # no temporary files left


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_table_as_the_local_run(tmp_path):
    pytest.importorskip("dask.distributed")
    local = grid_table(run_grid(QUICK, tmp_path / "local"))
    clustered = grid_table(run_grid(QUICK, tmp_path / "dask", backend="dask", workers=2))
    pd.testing.assert_frame_equal(local, clustered)


@pytest.mark.slow
def test_an_interrupted_sweep_resumes_without_recomputing(tmp_path):
    config = write(
        tmp_path,
        'name = "sweep"\nvariants = ["single-team-2019", "duet", '
        '"classic", "marvel-coop"]\npairs = ["glove:glove"]\n'
        "games = 400\n",
    )
    command = [sys.executable, "-m", "codebots", "evaluate", "--config", str(config)]
    cells = tmp_path / "out" / "cells" / "sweep"

    def finished_cells():  # not the hidden temporary file of a cell being written
        return [p for p in cells.glob("*.csv") if not p.name.startswith(".")]

    process = subprocess.Popen(
        [*command, "--out-dir", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # A shell that starts jobs in the background ignores SIGINT in them, and Python
        # keeps an ignored SIGINT: give the run the default so Ctrl-C reaches it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 240
    while not (cells.exists() and finished_cells()):
        assert process.poll() is None and time.monotonic() < deadline, "no cell finished"
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    done = {p.name: p.stat().st_mtime_ns for p in finished_cells()}
    assert 1 <= len(done) < 4 and not (tmp_path / "out" / "sweep.md").exists()
    resumed = subprocess.run(
        [*command, "--out-dir", str(tmp_path / "out"), "--markdown"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert resumed.returncode == 0, resumed.stderr
    for name, stamp in done.items():  # finished cells were not recomputed
        assert (cells / name).stat().st_mtime_ns == stamp
    fresh = subprocess.run(
        [*command, "--out-dir", str(tmp_path / "fresh"), "--markdown"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert resumed.stdout == fresh.stdout
    assert (tmp_path / "out" / "sweep.md").read_text() == (
        tmp_path / "fresh" / "sweep.md"
    ).read_text()


def test_evaluate_command_errors():
    result = runner.invoke(app, ["evaluate", "--config", "missing.toml"])
    assert result.exit_code == 1 and "config file missing.toml does not exist" in result.output
    result = runner.invoke(app, ["evaluate", "--variant", "duet", "--pairs", "random:psychic"])
    assert result.exit_code == 1 and "unknown guesser 'psychic'" in result.output
    result = runner.invoke(app, ["evaluate", "--workers", "0"])
    assert result.exit_code == 1 and "--workers must be at least 1" in result.output


def test_environment_is_not_changed_by_the_grid(tmp_path):
    before = dict(os.environ)
    run_grid(QUICK[:1], tmp_path)
    assert dict(os.environ) == before


def test_a_big_cell_split_across_workers_gives_the_same_games(tmp_path, monkeypatch):
    monkeypatch.setattr("codebots.cell_store.BATCH", 64)  # 300 games = 5 batches
    cell = [Cell("classic", "random", "random", 300)]
    serial = run_grid(cell, tmp_path / "one")
    split = run_grid(cell, tmp_path / "two", workers=2)
    pd.testing.assert_frame_equal(serial, split)


@pytest.mark.parametrize(
    "cell",
    [
        Cell("single-team-2019", "glove", "glove", 1000),
        Cell("duet", "glove", "minilm", 450, seats=True),
        Cell("classic", "random", "glove", 500),  # a random agent: whole batches only
    ],
    ids=["glove-pair", "duet-seats", "random"],
)
def test_workers_share_one_batch_evenly_and_play_the_same_games(tmp_path, cell, monkeypatch):
    import codebots.evaluation as evaluation

    serial = run_grid([cell], tmp_path / "one")
    slices = evaluation._split([(cell, 0)], 2)
    random_agent = "random" in (cell.spymaster, cell.guesser)
    assert [task[2:] for task in slices] == ([(0, 1)] if random_agent else [(0, 2), (1, 2)])
    asked = []
    real = evaluation._results

    def spy(tasks, workers, backend, address):
        asked.extend(tasks)
        yield from real(tasks, workers, backend, address)

    monkeypatch.setattr(evaluation, "_results", spy)
    shared = run_grid([cell], tmp_path / "two", workers=2)
    pd.testing.assert_frame_equal(serial, shared)
    assert asked == slices  # the two workers were given those slices


def test_a_cell_id_follows_the_rules_behind_its_variant_label(monkeypatch):
    # A changed registered rule must not reuse cells cached under the old one.
    import dataclasses

    from codebots import variants

    cell = Cell("single-team-2019", "glove", "glove", 10)
    before = cell.id
    strict = dataclasses.replace(variants.VARIANTS["single-team-2019"], zero_clues=False)
    monkeypatch.setitem(variants.VARIANTS, "single-team-2019", strict)
    assert cell.id != before and cell.id.startswith("single-team-2019-glove-glove-")
    monkeypatch.undo()
    assert cell.id == before


def test_a_cached_cell_is_not_reused_once_a_minds_vectors_change(monkeypatch):
    """A cell's id (its cache file) names what the panel's vectors are: after a new way of
    encoding or a new model package, a cached cell of the old vectors is played again."""
    from codebots import embeddings, grid_config

    cell = Cell("single-team-2019", "crossplay", "glove", 100)
    before = cell.id
    grid_config.minds_fingerprint.cache_clear()
    monkeypatch.setattr(embeddings, "sentence_encoding", lambda: "another way")
    try:
        assert cell.id != before
    finally:
        grid_config.minds_fingerprint.cache_clear()
    monkeypatch.undo()
    assert cell.id == before


def test_a_cached_cell_is_not_reused_once_the_game_code_changes(tmp_path, monkeypatch):
    """A cell's id names the code that played it: after an edit to an agent, the Duet
    reader's weights or the engine, a cached cell is played again; an edit to a report is no
    reason to."""
    import shutil

    from codebots import grid_config

    # A listed module renamed away would drop out of the hash without a word.
    assert all((grid_config.PACKAGE / entry).exists() for entry in grid_config.GAME_CODE)
    copy = tmp_path / "codebots"
    shutil.copytree(grid_config.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = grid_config.code_fingerprint(copy)
    assert before == grid_config.code_fingerprint(grid_config.PACKAGE)  # the bytes, not the place
    report = copy / "report.py"
    report.write_text(report.read_text() + "\n# a report's edit\n")
    grid_config.code_fingerprint.cache_clear()
    assert grid_config.code_fingerprint(copy) == before
    for edited in ("agents/duet_reader.json", "agents/crossplay.py", "engine/duet.py"):
        grid_config.code_fingerprint.cache_clear()
        path = copy / edited
        original = path.read_bytes()
        path.write_bytes(original + b"\n")
        assert grid_config.code_fingerprint(copy) != before, edited
        path.write_bytes(original)
    grid_config.code_fingerprint.cache_clear()
    assert grid_config.code_fingerprint(copy) == before

    cell = Cell("duet", "crossplay", "glove", 100, seats=True)
    old_id = cell.id
    grid_config.code_fingerprint.cache_clear()
    monkeypatch.setattr(grid_config, "PACKAGE", copy)
    (copy / "agents" / "crossplay.py").write_text("# another agent\n")
    try:
        assert Cell("duet", "crossplay", "glove", 100, seats=True).id != old_id
    finally:
        grid_config.code_fingerprint.cache_clear()
