"""Atomic writes and the build lock shared by every cache."""

import os
import stat
import subprocess
import sys
import textwrap

import pytest

from codebots import files
from codebots.files import atomic_write_text, build_lock

BUILDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from codebots.files import atomic_write_text, build_lock

    path, log = Path(sys.argv[1]), Path(sys.argv[2])
    with build_lock(path):
        if not path.exists():
            with open(log, "a") as handle:
                handle.write("built\\n")
            time.sleep(0.5)  # a slow build: the other process arrives meanwhile
            atomic_write_text(path, "table")
    print(path.read_text())
    """
)


def test_atomic_write_leaves_only_the_file(tmp_path):
    path = atomic_write_text(tmp_path / "deep" / "table.md", "| a |")
    assert path.read_text() == "| a |"
    assert list(path.parent.iterdir()) == [path]


def test_the_umask_is_read_once_and_left_as_it_was():
    current = os.umask(0)
    os.umask(current)
    assert files.UMASK == current


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_atomic_write_gives_the_usual_permissions(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "UMASK", 0o022)  # the umask of a typical shell
    path = atomic_write_text(tmp_path / "results.csv", "a,b\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # not mkstemp's owner-only 0600


@pytest.mark.skipif(sys.platform == "win32", reason="fcntl locks are POSIX")
def test_two_processes_needing_one_cache_entry_build_it_once(tmp_path):
    path, log = tmp_path / "cache" / "entry.txt", tmp_path / "builds.log"
    command = [sys.executable, "-c", BUILDER, str(path), str(log)]
    workers = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [worker.communicate(timeout=60)[0].strip() for worker in workers]
    assert [worker.returncode for worker in workers] == [0, 0]
    assert outputs == ["table", "table"]
    assert log.read_text().splitlines() == ["built"]


def test_the_lock_is_released_after_the_build(tmp_path):
    path = tmp_path / "entry.txt"
    with build_lock(path):
        atomic_write_text(path, "x")
    with build_lock(path):  # released: taking it again does not hang
        assert path.read_text() == "x"
