"""Execute the notebooks in place, so they are committed with their outputs (make notebooks).

Each is run top to bottom in a fresh kernel from the notebooks folder and written back
atomically; a cell that fails stops with its error and leaves the file as it was.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from codebots.files import atomic_write_text

HERE = Path(__file__).resolve().parent


def execute(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}
    ).execute()
    atomic_write_text(path, nbformat.writes(notebook) + "\n")


if __name__ == "__main__":
    for path in [Path(arg) for arg in sys.argv[1:]] or sorted(HERE.glob("*.ipynb")):
        print(f"executing {path.name}", file=sys.stderr, flush=True)
        execute(path)
