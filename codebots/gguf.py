"""GGUF files (llama.cpp's model format), read with numpy: metadata and float tensors.

Enough of the format (versions 2 and 3, float32 and float16 tensors) for the encoders
written out in torch (:mod:`codebots.gguf_bert`); quantized tensors are refused by name.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

# GGUF value types (scalars by struct format; 8 is a string, 9 an array)
_SCALARS = {
    0: "<B",
    1: "<b",
    2: "<H",
    3: "<h",
    4: "<I",
    5: "<i",
    6: "<f",
    7: "<?",
    10: "<Q",
    11: "<q",
    12: "<d",
}
_TENSOR_TYPES = {0: np.float32, 1: np.float16}


class GGUFError(ValueError):
    """A file that is not a GGUF model this module reads."""


def read_gguf(path: str | Path) -> tuple[dict, dict[str, np.ndarray]]:
    """``(metadata, tensors)`` of a GGUF (version 2 or 3) file of float32 / float16 tensors.

    Tensors are read-only views of a memory map, shaped as numpy arrays (GGUF lists the
    innermost dimension first: a ``[768, 2304]`` tensor is a ``(2304, 768)`` array)."""
    data = np.memmap(path, dtype=np.uint8, mode="r")
    position = 0

    def take(fmt: str):
        nonlocal position
        values = struct.unpack_from(fmt, data, position)
        position += struct.calcsize(fmt)
        return values[0]

    def string() -> str:
        nonlocal position
        size = take("<Q")
        text = bytes(data[position : position + size]).decode("utf-8")
        position += size
        return text

    def value(kind: int):
        if kind == 8:
            return string()
        if kind == 9:
            inner, count = take("<I"), take("<Q")
            return [value(inner) for _ in range(count)]
        if kind not in _SCALARS:
            raise GGUFError(f"{path}: unknown GGUF value type {kind}")
        return take(_SCALARS[kind])

    if bytes(data[:4]) != b"GGUF":
        raise GGUFError(f"{path} is not a GGUF file")
    position = 4
    version, tensor_count, field_count = take("<I"), take("<Q"), take("<Q")
    if version not in (2, 3):
        raise GGUFError(f"{path}: GGUF version {version}; this reader knows 2 and 3")
    metadata = {}
    for _ in range(field_count):
        key = string()
        metadata[key] = value(take("<I"))
    infos = []
    for _ in range(tensor_count):
        name = string()
        shape = [take("<Q") for _ in range(take("<I"))]
        infos.append((name, shape, take("<I"), take("<Q")))
    alignment = int(metadata.get("general.alignment", 32))
    start = -(-position // alignment) * alignment
    tensors = {}
    for name, shape, kind, offset in infos:
        if kind not in _TENSOR_TYPES:
            raise GGUFError(f"{path}: tensor {name} is of GGUF type {kind} (quantized?)")
        count = int(np.prod(shape))
        array = np.frombuffer(data, _TENSOR_TYPES[kind], count, start + offset)
        tensors[name] = array.reshape(shape[::-1])
    return metadata, tensors


def embedding_length(path: str | Path) -> int:
    """The model's width from the file's metadata, without reading its tensors."""
    metadata, _ = read_gguf(path)
    return int(metadata[f"{metadata['general.architecture']}.embedding_length"])
