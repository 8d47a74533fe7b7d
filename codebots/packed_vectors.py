"""Unit vectors packed small enough to ship: transform coding (rotate, round, compress).

The sentence models' encodings of the clue vocabulary and the gloss vectors take minutes to
build (issue 17: at most a minute each) and 150-200 MB to store as float32; packed they ship
inside the package (``codebots/prebuilt/``, :mod:`codebots.prebuilt`). The recipe is the
textbook one for vectors: rotate onto the principal axes of the set (an orthogonal map, so
cosines are kept), round every coordinate to one common step (the error is then uniform,
step^2 / 12 per coordinate, spread evenly over the directions), and let ``np.savez_compressed``
entropy-code the small integers, axis by axis. The step is :data:`STEP_RATIO` times the
spread of the cosines between words of the set, so every model's packed vectors move a
cosine by the same share of its typical differences: about 4.3% of a standard deviation
(``STEP_RATIO / sqrt(12)``), a few times the difference between encoding a word in float32
and in bfloat16 (see ``docs/agents.md`` for the measured effect on play).
"""

from __future__ import annotations

import numpy as np

from codebots.word_vectors import normalize

STEP_RATIO = 0.15  # the rounding step, in standard deviations of the set's cosines
# The finest step: about float32's resolution of a unit vector's coordinates (no finer
# rounding means anything), so that even a set of near-copies has codes that fit int32.
MIN_STEP = 1e-6
SPREAD_SAMPLE = 2000  # words a side of the sample of cosines the spread is measured on
# Part of every cache key of packed vectors: what the arrays are and how they were rounded.
PACK_FORMAT = f"principal axes (float16), mean (float32), one rounding step = {STEP_RATIO} sd"


def cosine_spread(vectors: np.ndarray) -> float:
    """The standard deviation of the cosines between two fixed samples of ``vectors``
    (unit rows): the scale of the differences a reader of them acts on."""
    rng = np.random.default_rng(0)
    n = len(vectors)
    left = vectors[rng.choice(n, min(n, SPREAD_SAMPLE), replace=False)]
    right = vectors[rng.choice(n, min(n, SPREAD_SAMPLE), replace=False)]
    return float((left @ right.T).std())


def pack(vectors: np.ndarray) -> dict[str, np.ndarray]:
    """The packed form of ``(n, d)`` unit ``vectors``: ``codes`` ``(d, n)`` int8 (int16 or
    int32 when an axis needs it; laid out axis by axis, which compresses best), ``axes`` ``(d, d)``
    float16, ``mean`` ``(d,)`` float32 and ``step`` (a 0-d float64)."""
    vectors = np.asarray(vectors, dtype=np.float64)
    if vectors.ndim != 2 or len(vectors) < 2:
        raise ValueError(f"pack needs a matrix of at least two vectors, not {vectors.shape}")
    mean = vectors.mean(axis=0)
    _, axes = np.linalg.eigh(np.cov((vectors - mean).T))
    # The largest axis first, each axis's sign fixed by its largest entry, so the same set
    # gives the same arrays; rounded to float16 once, and used so for packing and unpacking.
    axes = axes[:, ::-1]
    axes *= np.sign(axes[np.abs(axes).argmax(axis=0), np.arange(axes.shape[1])])
    axes = axes.astype(np.float16)
    step = max(STEP_RATIO * cosine_spread(vectors), MIN_STEP)
    codes = np.rint((vectors - mean) @ axes.astype(np.float64) / step)
    widest = np.abs(codes).max()
    dtype = next(t for t in (np.int8, np.int16, np.int32) if widest <= np.iinfo(t).max)
    return {
        "codes": np.ascontiguousarray(codes.T.astype(dtype)),
        "axes": axes,
        "mean": mean.astype(np.float32),
        "step": np.array(step),
    }


def unpack(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """``(n, d)`` float32 unit vectors from :func:`pack`'s arrays."""
    axes = arrays["axes"].astype(np.float32)  # (d, d): column k is axis k
    coordinates = arrays["codes"].T.astype(np.float32) * np.float32(arrays["step"])  # (n, d)
    # The float16 axes are orthogonal to about 1e-3: their transpose undoes the rotation
    # to far below the rounding (checked in tests/test_packed_vectors.py).
    return normalize(coordinates @ axes.T + arrays["mean"])
