"""The tables shipped in codebots/prebuilt/ are the ones a fresh install asks for, and
exactly what a build gives (else: ``make prebuilt``)."""

from __future__ import annotations

import json

import pytest

from codebots.cache import PREBUILT_DIR, recorded_meta
from codebots.prebuilt import SHIPPED_KINDS, build_in, shipped_files

REBUILD = "stale or missing: run `make prebuilt` (python -m codebots.prebuilt) and commit"


def test_one_shipped_file_per_kind_and_nothing_else():
    from codebots.encoding_packs import PACKED_MODELS

    names = sorted(path.name for path in PREBUILT_DIR.glob("*"))
    kinds = [name.split("-")[0] for name in names]
    assert sorted(set(kinds)) == sorted(SHIPPED_KINDS), REBUILD
    assert all(
        kinds.count(kind) == (len(PACKED_MODELS) if kind == "encodings" else 1) for kind in kinds
    )
    assert [name.split("-")[1] for name in names if name.startswith("encodings-")] == sorted(
        PACKED_MODELS
    )
    # Issue 17: shipped artefacts stay small (say 50 MB in all).
    shipped = sum(path.stat().st_size for path in PREBUILT_DIR.glob("*"))
    assert shipped <= 50_000_000, (
        f"{shipped:,} B shipped: pack coarser (codebots.packed_vectors.STEP_RATIO) or ship less"
    )


def test_a_cold_start_reads_the_shipped_tables_instead_of_building_them(tmp_path):
    log = tmp_path / "builds.jsonl"
    build_in(tmp_path / "cache", log=log, shipped=True)
    built = [json.loads(line)["kind"] for line in log.read_text().splitlines()]
    assert built == ["tables"], f"built {built}; shipped tables {REBUILD}"
    assert not shipped_files(tmp_path / "cache")  # read from the package, not copied


@pytest.mark.slow
def test_the_shipped_tables_are_what_a_build_gives(tmp_path):
    import numpy as np

    from codebots.packed_vectors import unpack

    build_in(tmp_path)  # shipped tables ignored: everything built (but the encodings, see
    # tests/test_packed_vectors.py: minutes to build, checked against their models there)
    rebuilt = {path.name: recorded_meta(path) for path in shipped_files(tmp_path)}
    shipped = {path.name: recorded_meta(path) for path in shipped_files(PREBUILT_DIR)}
    shipped = {name: meta for name, meta in shipped.items() if not name.startswith("encodings-")}
    assert rebuilt.keys() == shipped.keys(), REBUILD  # the same kinds of the same keys
    for name in rebuilt:
        if rebuilt[name] == shipped[name]:
            continue
        # The gloss vectors are trained one word pair at a time with BLAS's dot and axpy,
        # whose kernel (chosen per processor: Haswell, SkylakeX, ...) rounds differently:
        # on another kind of machine the same training gives the same words with vectors
        # within cosine 0.99998 (measured), then packed apart (axes, step and rounding of
        # their own: cosine 0.99 between two packings at worst). The rest must be identical.
        assert name.startswith("gloss-"), (name, REBUILD)
        ours, theirs = np.load(tmp_path / name), np.load(PREBUILT_DIR / name)
        assert np.array_equal(ours["keys"], theirs["keys"]), REBUILD
        cosines = (unpack(ours) * unpack(theirs)).sum(axis=1)
        assert cosines.min() > 0.98, REBUILD


def test_a_shipped_file_is_checked_like_a_cache_file(tmp_path, monkeypatch, capsys):
    import numpy as np

    from codebots import cache, files

    monkeypatch.setattr(files, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(cache, "PREBUILT_DIR", tmp_path / "shipped")
    (tmp_path / "shipped").mkdir()
    builds = []

    def build():
        builds.append(1)
        return {"x": np.arange(3)}

    name = cache.cache_path("demo", ("k", 1)).name
    cache.write(tmp_path / "shipped" / name, "demo", ("k", 1), "a demo", {"x": np.arange(3)})
    assert cache.cached("demo", ("k", 1), "a demo", build)["x"].tolist() == [0, 1, 2]
    assert not builds and not (tmp_path / "cache").exists()  # read from the shipped file
    (tmp_path / "shipped" / name).write_bytes(b"not an archive")
    assert cache.cached("demo", ("k", 1), "a demo", build)["x"].tolist() == [0, 1, 2]
    assert builds == [1] and "shipped table" in capsys.readouterr().err
