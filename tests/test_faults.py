"""Faults injected into real files and real processes: damaged caches, cells and records, a
full disk, Ctrl-C and ``kill -9``. Each ends with nothing lost and a one-line message, and
the next run's results equal an undisturbed run's."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from codebots import cache, files
from codebots.cli import app
from codebots.evaluation import Cell, run_grid

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


# --- damaged cache files -------------------------------------------------------------------


def _glove_table():
    from codebots.agents.tables import model_tables
    from codebots.vocab import clue_vocabulary, load_pool

    pool = load_pool().words[:120]  # above the size from which tables are cached
    vocabulary = clue_vocabulary(2000)
    return model_tables.__wrapped__("glove", pool, vocabulary).sims


def _shared_vocabulary():
    from codebots.agents.tables import shared_vocabulary

    return shared_vocabulary.__wrapped__(("glove", "minilm"), 2000)


def _forbid_table():
    from codebots.validity import ClueChecker
    from codebots.vocab import clue_vocabulary, load_pool

    table = ClueChecker(load_pool().words[:60]).forbid_table(clue_vocabulary(3000))
    return np.concatenate([table.indptr, table.indices])


def _relation_matrix():
    from codebots.lexicon import relation_matrix
    from codebots.vocab import clue_vocabulary, load_pool

    return relation_matrix.__wrapped__(load_pool().words[:60], clue_vocabulary(3000))


def _derivations():
    from codebots.lexicon import derivations

    found = derivations.__wrapped__()
    return np.array(sorted(f"{word}:{','.join(sorted(found[word]))}" for word in found))


def _gloss_vectors(monkeypatch):
    import itertools

    from codebots import gloss_vectors

    # Real training on the first 3,000 WordNet synsets (all of WordNet takes minutes).
    real = gloss_vectors.synset_records
    monkeypatch.setattr(gloss_vectors, "synset_records", lambda: itertools.islice(real(), 3000))
    return gloss_vectors.gloss_vectors.__wrapped__().vectors


CACHE_KINDS = {
    "tables": lambda monkeypatch: _glove_table(),
    "vocabulary": lambda monkeypatch: _shared_vocabulary(),
    "forbid": lambda monkeypatch: _forbid_table(),
    "lexicon": lambda monkeypatch: _relation_matrix(),
    "derivations": lambda monkeypatch: _derivations(),
    "gloss": _gloss_vectors,
}


def _damage(path: Path, fault: str) -> None:
    data = path.read_bytes()
    if fault == "empty":
        path.write_bytes(b"")
    elif fault == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif fault == "corrupt":  # bytes flipped inside the archive
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes(b ^ 0xFF for b in data[middle : middle + 64]))
    elif fault == "altered":  # a valid archive whose numbers were changed, record kept
        with np.load(path) as archive:
            arrays = {name: archive[name] for name in archive.files}
        name = min(n for n in arrays if n != cache.META)
        changed = arrays[name].copy().reshape(-1)
        kind = changed.dtype.kind
        if kind == "U":
            changed[0] = "zz" if changed[0] != "zz" else "yy"
        else:
            changed[0] = (changed[0] ^ 1) if kind in "iub" else changed[0] + 1
        arrays[name] = changed.reshape(arrays[name].shape)
        with open(path, "wb") as handle:
            np.savez(handle, **arrays)
    elif fault == "swapped":  # a sound cache file of the same kind, built from other inputs
        with np.load(path) as archive:
            arrays = {n: archive[n] for n in archive.files if n != cache.META}
        kind = path.name.split("-")[0]
        cache.write(path, kind, ("other inputs",), "another table", arrays)
    else:
        raise AssertionError(fault)


@pytest.mark.slow
@pytest.mark.parametrize("kind", CACHE_KINDS)
def test_every_damaged_cache_file_is_rebuilt_with_one_line(kind, tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    monkeypatch.setenv("CODEBOTS_PREBUILT", "off")  # the user's cache files, not the shipped
    build = CACHE_KINDS[kind]
    expected = np.asarray(build(monkeypatch))
    (path,) = [p for p in tmp_path.glob(f"{kind}-*.npz")]
    capfd.readouterr()
    for fault in ("empty", "truncated", "corrupt", "altered", "swapped"):
        _damage(path, fault)
        again = np.asarray(build(monkeypatch))
        np.testing.assert_array_equal(again, expected, err_msg=fault)
        err = capfd.readouterr().err.strip().splitlines()
        # One line says which file and why; a slow rebuild (the gloss vectors' training)
        # may add its own progress lines, never a traceback.
        about = [line for line in err if str(path) in line]
        assert len(about) == 1 and "rebuilding it" in about[0], (fault, err)
        assert all(line.startswith("codebots: ") for line in err), (fault, err)
        assert len(err) == 1 or kind == "gloss", (fault, err)
        np.asarray(build(monkeypatch))  # rebuilt and sound: read quietly
        assert capfd.readouterr().err == "", fault


def test_a_cache_file_says_what_it_was_built_from(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    arrays = cache.cached("forbid", ("key", 1), "a test table", lambda: {"a": np.arange(3)})
    (path,) = tmp_path.glob("forbid-*.npz")
    with np.load(path) as archive:
        meta = json.loads(archive[cache.META].tobytes())
    assert meta["built_from"] == "a test table" and meta["key"] == cache.key_digest(("key", 1))
    assert meta["checksum"] == cache.checksum(arrays)


def test_an_unwritable_cache_folder_costs_the_cache_not_the_run(tmp_path, monkeypatch, capfd):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(files, "CACHE_DIR", blocker / "cache")
    arrays = cache.cached("forbid", ("k",), "a test table", lambda: {"a": np.arange(3)})
    np.testing.assert_array_equal(arrays["a"], np.arange(3))
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not caching" in err[0]


# --- damaged evaluation cells --------------------------------------------------------------

CELLS = [Cell("duet", "random", "random", 300), Cell("classic", "random", "oracle", 200)]


def _cell_faults(path: Path, fault: str, other: Path) -> None:
    text = path.read_text()
    lines = text.splitlines()
    if fault == "empty":
        path.write_text("")
    elif fault == "garbage":
        path.write_bytes(b"\x00\xff\xfe not a table \x81")
    elif fault == "truncated":  # cut in the middle of a line
        path.write_text(text[: len(text) // 2])
    elif fault == "cut-down":  # whole rows, but fewer games than asked for
        path.write_text("\n".join(lines[: len(lines) // 3]) + "\n")
    elif fault == "wrong-content":  # another cell's rows
        shutil.copy(other, path)
    elif fault == "header-only":
        path.write_text(lines[0] + "\n")
    else:
        raise AssertionError(fault)


@pytest.mark.parametrize(
    "fault", ["empty", "garbage", "truncated", "cut-down", "wrong-content", "header-only"]
)
def test_a_damaged_cell_is_played_again_with_one_line(fault, tmp_path, capfd):
    clean = run_grid(CELLS, tmp_path / "clean")
    run_grid(CELLS, tmp_path / "cells")
    first, second = (tmp_path / "cells" / f"{cell.id}.csv" for cell in CELLS)
    _cell_faults(first, fault, second)
    capfd.readouterr()
    again = run_grid(CELLS, tmp_path / "cells")
    pd.testing.assert_frame_equal(again, clean)
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(first) in err[0] and "playing them again" in err[0], err
    assert first.read_text() == (tmp_path / "clean" / first.name).read_text()


def test_a_table_run_with_more_games_never_reuses_a_smaller_cell(tmp_path, capfd):
    small = Cell("duet", "random", "random", 100)
    run_grid([small], tmp_path)
    big = Cell("duet", "random", "random", 250)
    # Same cell id only if the file names clash; force it by putting the small rows there.
    shutil.copy(tmp_path / f"{small.id}.csv", tmp_path / f"{big.id}.csv")
    capfd.readouterr()
    rows = run_grid([big], tmp_path)
    assert len(rows) == 250 and rows["seed"].tolist() == list(range(250))
    assert "holds 100 games, not the 250 asked for" in capfd.readouterr().err


def test_kept_batches_of_an_unfinished_cell_are_reused_and_checked(tmp_path, monkeypatch, capfd):
    monkeypatch.setattr("codebots.cell_store.BATCH", 64)  # 300 games = 5 batches
    cell = Cell("classic", "random", "random", 300)
    clean = run_grid([cell], tmp_path / "clean")
    from codebots.cell_store import CellStore

    store = CellStore(tmp_path / "cells")
    store.folder.mkdir()
    kept = clean.iloc[64:128].reset_index(drop=True)
    store.store_batch(cell, 1, kept)  # batch 1, as an interrupted run leaves it
    store.store_batch(cell, 3, clean.iloc[:64])  # batch 3 holding batch 0's games: damaged
    stamp = store.batch_path(cell, 1).stat().st_mtime_ns
    played = []
    import codebots.evaluation as evaluation

    real = evaluation.play_batches
    monkeypatch.setattr(
        evaluation,
        "play_batches",
        lambda cell, first, stop, progress=False, part=(0, 1): (
            played.append(first) or real(cell, first, stop, part=part)
        ),
    )
    capfd.readouterr()
    rows = run_grid([cell], tmp_path / "cells")
    pd.testing.assert_frame_equal(rows, clean)
    assert sorted(played) == [0, 2, 3, 4]  # batch 1 was kept, batch 3 played again
    assert "holds other games" in capfd.readouterr().err
    assert not store.batch_path(cell, 1).exists() and stamp  # folded into the cell file
    assert not (store.folder / f"{cell.id}.batches").exists()


# --- a full disk ---------------------------------------------------------------------------


@pytest.fixture(params=["tmpfs", "injected"])
def full_disk(request, tmp_path, monkeypatch):
    """A folder whose writes fail with ENOSPC: a real tiny tmpfs where this machine lets
    us mount one, and always an ``OSError`` raised at the write."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if request.param == "tmpfs":
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(folder)],
            capture_output=True,
        )
        if mounted.returncode != 0:
            pytest.skip("cannot mount a tmpfs here (the injected case covers it)")
        try:
            with open(folder / "filler", "wb") as handle:  # fill it up
                handle.write(b"x" * 8192)
        except OSError:
            pass
        yield folder
        subprocess.run(["umount", str(folder)], check=False)
    else:
        real = files.atomic_write

        def no_space(path, write):
            if Path(path).parent == folder:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
            return real(path, write)

        monkeypatch.setattr(files, "atomic_write", no_space)
        yield folder


def test_a_failed_write_still_prints_the_table(full_disk):
    out = full_disk / "games.csv"
    result = runner.invoke(
        app, ["simulate", "--variant", "duet", "--games", "50", "--out", str(out)]
    )
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].split()[:3] == ["variant", "spymaster", "guesser"]
    assert "duet" in result.stdout
    assert result.stderr.strip() == f"error: cannot write {out}: No space left on device"


def test_a_failed_table_write_after_an_evaluation_still_prints_it(full_disk):
    result = runner.invoke(
        app,
        ["evaluate", "--variant", "duet", "--pairs", "random:oracle", "--games", "30"]
        + ["--out-dir", str(full_disk)],
    )
    assert result.exit_code == 1
    assert "random" in result.stdout and "oracle" in result.stdout
    err = result.stderr.strip().splitlines()
    assert err[-1].startswith(f"error: cannot write the tables in {full_disk}")


# --- Ctrl-C and kill -9 of evaluate --workers 2 --------------------------------------------

SWEEP = ["--variant", "classic", "--pairs", "random:random", "--games", "90000"]


def _evaluate(out: Path, *extra: str, **popen) -> subprocess.Popen:
    command = [sys.executable, "-m", "codebots", "evaluate", *SWEEP, "--out-dir", str(out)]
    return subprocess.Popen(
        [*command, "--workers", "2", "--name", "sweep", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell job: Ctrl-C hits all
        # A process started from a background job inherits an ignored SIGINT, and Python
        # keeps it ignored: give the run the default, as a terminal's foreground job has.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **popen,
    )


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for_batches(out: Path, process, at_least: int, deadline: float = 240) -> None:
    folder = out / "cells" / "sweep"
    start = time.monotonic()
    while len([p for p in folder.glob("*.batches/*.csv")]) < at_least:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() - start < deadline, "no batch finished"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory):
    out = tmp_path_factory.mktemp("undisturbed")
    process = _evaluate(out)
    stdout, stderr = process.communicate(timeout=600)
    assert process.returncode == 0, stderr
    return stdout


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("trial", range(2))
def test_ctrl_c_stops_evaluate_with_workers_at_once_keeping_finished_batches(
    trial, tmp_path, undisturbed
):
    rng = np.random.default_rng(trial)
    process = _evaluate(tmp_path)
    _wait_for_batches(tmp_path, process, 1)
    time.sleep(rng.uniform(0, 3))  # a random point of the run
    workers = _children(process.pid)
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    _, stderr = process.communicate(timeout=30)
    stopped = time.monotonic() - sent
    assert process.returncode == 130, stderr  # 22 batches: far from finished
    assert stopped < 2.0, f"took {stopped:.1f} s to stop"
    assert stderr.strip().splitlines()[-1].startswith("interrupted: every finished batch is kept")
    assert "Traceback" not in stderr
    assert not [pid for pid in workers if _alive(pid)]
    kept = list((tmp_path / "cells" / "sweep").glob("*.batches/*.csv"))
    assert kept  # the batches finished before Ctrl-C
    again = _evaluate(tmp_path)
    stdout, stderr = again.communicate(timeout=600)
    assert again.returncode == 0, stderr
    assert stdout == undisturbed


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_evaluate_takes_its_workers_with_it(tmp_path, undisturbed):
    process = _evaluate(tmp_path)
    _wait_for_batches(tmp_path, process, 1)
    workers = _children(process.pid)
    assert len(workers) >= 2, workers
    process.kill()  # SIGKILL: no chance to clean up
    process.communicate(timeout=30)
    deadline = time.monotonic() + 5
    while [pid for pid in workers if _alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "workers outlived their parent"
    again = _evaluate(tmp_path)
    stdout, stderr = again.communicate(timeout=600)
    assert again.returncode == 0, stderr
    assert stdout == undisturbed


# --- a cut-off game record, Ctrl-C and kill -9 of play -------------------------------------


def _human_moves(record: Path) -> int:
    from codebots.play import Session

    return sum(event["by"] == "human" for event in Session.load(record).events)


def test_a_cut_off_last_line_resumes_from_the_last_whole_move(tmp_path):
    from scripted_play import find_seed, quit_halfway

    from codebots.play import Session

    seed, inputs, finished = find_seed("duet", "guesser", True)
    record = tmp_path / "g.jsonl"
    quit_halfway(runner, app, "duet", seed, inputs, record)
    text = record.read_text()
    lines = text.splitlines()
    record.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    session = Session.load(record)
    assert session.cut_off == len(lines) and len(session.events) == len(lines) - 2
    done = _human_moves(record)
    result = runner.invoke(
        app, ["play", "--resume", str(record)], input="\n".join(inputs[done:]) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert f"note: line {len(lines)} of {record} was cut off" in result.output
    assert "You won" in result.output
    final = Session.load(record)
    assert final.cut_off is None and final.events == finished.events


@pytest.mark.slow
@pytest.mark.parametrize(
    "stop, when", [("SIGINT", "prompt"), ("SIGINT", "thinking"), ("SIGKILL", "thinking")]
)
def test_play_stopped_at_a_random_point_loses_nothing(stop, when, tmp_path):
    pexpect = pytest.importorskip("pexpect")
    from scripted_play import find_seed, spawn_play

    from codebots.play import Session

    seed, inputs, undisturbed = find_seed("single-team-2019", "guesser", True)
    record = tmp_path / "g.jsonl"
    rng = np.random.default_rng(len(stop + when))
    point = int(rng.integers(1, len(inputs) - 1))
    child = spawn_play(pexpect, seed, record)
    for text in inputs[:point]:
        child.expect("your guess> ")
        child.sendline(text)
    if when == "prompt":
        child.expect("your guess> ")
    else:  # while the game is applying the move and the AI may be choosing its next one
        time.sleep(float(rng.uniform(0, 0.3)))
    if stop == "SIGINT":
        child.sendintr()  # Ctrl-C at the terminal
        child.expect(r"interrupted: saved to \S+; continue with: codebots play --resume")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 130
    else:
        child.kill(signal.SIGKILL)
        child.close(force=True)
    assert "Traceback" not in (child.before or "")
    done = _human_moves(record)
    assert done in (point - 1, point)  # the move in progress may not have been written
    result = runner.invoke(
        app, ["play", "--resume", str(record)], input="\n".join(inputs[done:]) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert Session.load(record).events == undisturbed.events


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["empty", "truncated", "corrupt", "count", "missing", "listing"])
def test_a_damaged_word_store_shard_is_encoded_again_with_one_line(
    fault, tmp_path, monkeypatch, capfd
):
    """A sentence model's word store (codebots.word_store): every shard is checked on read;
    a damaged one is named in one line and its words encoded again, to the same vectors."""
    pytest.importorskip("sentence_transformers")
    from codebots.embeddings import SentenceEmbedding
    from codebots.model_files import minilm_path
    from codebots.vocab import clue_vocabulary

    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    words = clue_vocabulary(1200)
    expected = SentenceEmbedding("minilm", minilm_path()).embed_vocabulary(words)
    (listing,) = tmp_path.glob("words-minilm-*/*.txt")
    vectors = listing.with_suffix(".npy")
    data = vectors.read_bytes()
    if fault == "empty":
        vectors.write_bytes(b"")
    elif fault == "truncated":
        vectors.write_bytes(data[: len(data) // 2])
    elif fault == "corrupt":  # numbers changed in place, the file still loads
        vectors.write_bytes(data[:-64] + bytes(b ^ 0xFF for b in data[-64:]))
    elif fault == "count":  # a listing that lost a word
        listing.write_text("\n".join(listing.read_text().split("\n")[:-1]))
    elif fault == "missing":
        vectors.unlink()
    else:
        listing.write_bytes(b"\xff\xfe not a listing")
    capfd.readouterr()
    again = SentenceEmbedding("minilm", minilm_path()).embed_vocabulary(words)
    np.testing.assert_array_equal(again, expected)
    err = capfd.readouterr().err.strip().splitlines()
    about = [line for line in err if str(listing) in line]
    assert len(about) == 1 and "ignoring the damaged word store shard" in about[0], err
    assert all(line.startswith("codebots: ") for line in err), err


def test_a_damaged_mpnet_archive_is_a_one_line_error_and_leaves_no_model(tmp_path):
    """The parts are joined and extracted with every member's CRC checked on the way: a
    flipped byte in a member is a clear error naming the fix, and no half model is left."""
    import zipfile

    from codebots.errors import CodebotsError
    from codebots.model_files import _unpack

    archive = tmp_path / "model.zip"
    payload = bytes(range(256)) * 400
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as out:
        out.writestr("all-mpnet-base-v2/config.json", b'{"dim": 768}')
        out.writestr("all-mpnet-base-v2/model.safetensors", payload)
    data = bytearray(archive.read_bytes())
    half = len(data) // 2
    parts = [tmp_path / "part-001", tmp_path / "part-002"]
    parts[0].write_bytes(data[:half])
    parts[1].write_bytes(data[half:])
    target = tmp_path / "models" / "all-mpnet-base-v2-whole"
    _unpack(parts, target)  # whole: unpacked and in place
    assert (target / "model.safetensors").read_bytes() == payload

    at = data.index(payload[:512]) + 1000  # a byte inside the weights, not a header
    data[at] ^= 0xFF
    parts[0].write_bytes(data[:half])
    parts[1].write_bytes(data[half:])
    damaged = tmp_path / "models" / "all-mpnet-base-v2-damaged"
    with pytest.raises(CodebotsError, match="do not make a whole model .*reinstall") as error:
        _unpack(parts, damaged)
    assert "\n" not in str(error.value)
    assert not damaged.exists()
    assert sorted(path.name for path in damaged.parent.iterdir()) == [target.name]
