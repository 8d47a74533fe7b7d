"""The notebooks run end to end on the packaged GloVe vectors."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(path, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    committed = nbformat.read(path, as_version=4)
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    errors = [
        o
        for c in notebook.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors
    assert len(NOTEBOOKS) >= 2
    # Committed executed, and what they show is what they compute now (make notebooks).
    assert texts(committed) == texts(notebook), f"{path.name} is stale: run make notebooks"


def texts(notebook) -> list[list[str]]:
    """The text outputs of every code cell (pictures left out: their bytes vary by build)."""
    cells = []
    for cell in notebook.cells:
        if cell.cell_type == "code":
            shown = []
            for output in cell.get("outputs", []):
                if output.get("output_type") == "stream":
                    shown.append(output["text"])
                elif "text/plain" in output.get("data", {}):
                    shown.append(output["data"]["text/plain"])
            cells.append(shown)
    return cells


def test_notebooks_are_committed_with_their_outputs():
    nbformat = pytest.importorskip("nbformat")
    for path in NOTEBOOKS:
        code = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
        assert code and all(c.get("execution_count") for c in code), path.name
        assert all(c.get("outputs") for c in code), f"{path.name}: run make notebooks"
