"""Local worker processes that never outlive the run that started them.

Ctrl-C reaches only the parent (workers ignore SIGINT), which then ends the workers at once
instead of waiting for their batches; a parent killed outright (``kill -9``) takes its
workers with it: on Linux the kernel kills them (``PR_SET_PDEATHSIG``), elsewhere each
worker notices within half a second that its parent is gone and exits.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator

PR_SET_PDEATHSIG = 1  # linux/prctl.h
PARENT_POLL_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def die_with_parent(parent: int) -> None:
    """Worker initializer: ignore Ctrl-C, and end when process ``parent`` ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watcher thread below still ends the worker
    if os.getppid() != parent:  # the parent died before the worker was set up
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def thread_budget() -> int:
    """Threads one process should compute with: ``CODEBOTS_THREADS`` (a worker's share of
    the cores, set by :class:`WorkerPool`), else every core. More threads than cores make
    torch's and OpenMP's spinning threads fight (a MiniLM encoding ran 5-9x slower so)."""
    try:
        return max(1, int(os.environ["CODEBOTS_THREADS"]))
    except (KeyError, ValueError):
        return cores()


def _start_worker(parent: int, threads: int) -> None:
    die_with_parent(parent)
    os.environ["CODEBOTS_THREADS"] = str(threads)


class WorkerPool:
    """``workers`` processes for :meth:`imap_unordered`; leaving the ``with`` block for any
    reason but normal completion (Ctrl-C, an error) terminates them immediately. Each
    worker computes with its share of the cores (:func:`thread_budget`)."""

    def __init__(self, workers: int):
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        threads = max(1, thread_budget() // workers)
        self._pool = context.Pool(
            workers, initializer=_start_worker, initargs=(os.getpid(), threads)
        )

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if kind is None:
            self._pool.close()
        else:
            self._pool.terminate()
        self._pool.join()

    def imap_unordered(self, function: Callable, tasks: Iterable) -> Iterator:
        """``function(task)`` for every task, results as they finish."""
        return self._pool.imap_unordered(function, tasks)
