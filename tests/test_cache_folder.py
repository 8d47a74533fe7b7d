"""The cache folder: what it holds, and pruning what has not been used for a while."""

from __future__ import annotations

import os
import time

import numpy as np
from typer.testing import CliRunner

from codebots import cache, files
from codebots.cache_folder import DAY, entries, prune
from codebots.cli import app


def _age(path, days: float) -> None:
    then = time.time() - days * DAY
    os.utime(path, (then, then))


def test_reading_a_cached_table_marks_it_used(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    build = lambda: {"values": np.arange(5)}  # noqa: E731
    cache.cached("vocabulary", ("a key",), "five numbers", build)
    (path,) = tmp_path.glob("vocabulary-*.npz")
    _age(path, 40)
    assert time.time() - path.stat().st_mtime > 39 * DAY
    cache.cached("vocabulary", ("a key",), "five numbers", lambda: 1 / 0)  # read, not built
    assert time.time() - path.stat().st_mtime < DAY


def test_prune_removes_only_what_was_not_used_for_the_days_given(tmp_path):
    old_table, new_table = tmp_path / "tables-glove-aaaa.npz", tmp_path / "tables-glove-bbbb.npz"
    store = tmp_path / "words-minilm-cccc"
    store.mkdir()
    (store / "1.npy").write_bytes(b"x" * 100)
    for path in (old_table, new_table):
        path.write_bytes(b"y" * 10)
    (tmp_path / "tables-glove-aaaa.npz.lock").write_text("")
    (tmp_path / ".tables-glove-dddd.npz.tmp.npz").write_bytes(b"being written")
    _age(old_table, 31)
    _age(store, 45)
    kinds = {entry.path.name: (entry.kind, entry.size) for entry in entries(tmp_path)}
    assert kinds == {
        old_table.name: ("tables", 10),
        new_table.name: ("tables", 10),
        store.name: ("words", 100),
    }
    removed = prune(tmp_path, 30)
    assert sorted(entry.path.name for entry in removed) == [old_table.name, store.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".tables-glove-dddd.npz.tmp.npz",  # a file being written is never touched
        new_table.name,
    ]
    assert [entry.path for entry in prune(tmp_path, 0)] == [new_table]


def test_the_cache_command_shows_the_kinds_and_prunes(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "CACHE_DIR", tmp_path)
    (tmp_path / "forbid-aaaa.npz").write_bytes(b"z" * 2000)
    (tmp_path / "tables-glove-bbbb.npz").write_bytes(b"z" * 3000)
    _age(tmp_path / "forbid-aaaa.npz", 10)
    runner = CliRunner()
    shown = runner.invoke(app, ["cache"])
    assert shown.exit_code == 0, shown.output
    assert "5.0 kB in 2 entries" in shown.output
    assert "forbid" in shown.output and "1 entry" in shown.output
    pruned = runner.invoke(app, ["cache", "--prune", "7"])
    assert pruned.exit_code == 0, pruned.output
    assert "removed 1 entry unused for 7 days (2.0 kB)" in pruned.output
    assert not (tmp_path / "forbid-aaaa.npz").exists()
    refused = runner.invoke(app, ["cache", "--prune", "-1"])
    assert refused.exit_code != 0


def test_sizes_read_in_powers_of_a_thousand():
    from codebots.cache_folder import human_size

    assert [human_size(n) for n in (0, 999, 1500, 2_345_678, 6.04e9)] == [
        "0 B",
        "999 B",
        "1.5 kB",
        "2.3 MB",
        "6.0 GB",
    ]
