"""The nomic mind: its GGUF reader, its extraction from the tail of a split zip, and its
encoder against llama.cpp's vectors of the same file (tests/data/nomic_reference.npz)."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

from codebots.errors import CodebotsError
from codebots.gguf import GGUFError, embedding_length, read_gguf
from codebots.model_files import NOMIC_MEMBER, _extract

DATA = Path(__file__).parent / "data"


def _string(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def _gguf(path: Path, tensor_type: int = 1) -> np.ndarray:
    """A small GGUF v3 file by hand: three fields and one (2, 3) tensor."""
    weights = np.arange(6, dtype=np.float16).reshape(2, 3) / 4
    fields = [
        _string("general.architecture") + struct.pack("<I", 8) + _string("toy"),
        _string("toy.embedding_length") + struct.pack("<II", 4, 3),
        _string("tokens") + struct.pack("<IIQ", 9, 8, 2) + _string("[CLS]") + _string("\u2581a"),
    ]
    info = _string("w") + struct.pack("<I", 2) + struct.pack("<QQ", 3, 2)  # innermost first
    info += struct.pack("<IQ", tensor_type, 0)
    head = b"GGUF" + struct.pack("<IQQ", 3, 1, len(fields)) + b"".join(fields) + info
    head += b"\0" * (-len(head) % 32)
    path.write_bytes(head + weights.tobytes())
    return weights


def test_the_gguf_reader_gives_fields_and_tensors(tmp_path):
    path = tmp_path / "toy.gguf"
    weights = _gguf(path)
    metadata, tensors = read_gguf(path)
    assert metadata["general.architecture"] == "toy"
    assert metadata["tokens"] == ["[CLS]", "\u2581a"]
    assert tensors["w"].shape == (2, 3) and np.array_equal(tensors["w"], weights)
    assert embedding_length(path) == 3


def test_a_file_the_reader_cannot_read_is_named(tmp_path):
    path = tmp_path / "toy.gguf"
    _gguf(path, tensor_type=2)  # q4_0: quantized
    with pytest.raises(GGUFError, match="toy.gguf: tensor w is of GGUF type 2"):
        read_gguf(path)
    path.write_bytes(b"PK\x03\x04" + b"\0" * 64)
    with pytest.raises(GGUFError, match="is not a GGUF file"):
        read_gguf(path)


def test_the_model_extracts_from_the_tail_of_a_split_zip(tmp_path):
    """Only the last parts of the bundle are installed: the member and the directory are in
    them, the front of the archive is not."""
    archive = tmp_path / "bundle.zip"
    payload = np.random.default_rng(0).bytes(300_000)
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("gpt4all/bin/chat.exe", np.random.default_rng(1).bytes(400_000))
        out.writestr(NOMIC_MEMBER, payload)
    data = bytearray(archive.read_bytes())
    size = 200_000
    cuts = [data[i : i + size] for i in range(0, len(data), size)]
    tail = [tmp_path / f"part-{i}" for i in range(len(cuts))][2:]  # the chat.exe parts missing
    for path, cut in zip(tail, cuts[2:], strict=True):
        path.write_bytes(cut)
    target = tmp_path / "models" / "nomic.gguf"
    _extract(tail, target)
    assert target.read_bytes() == payload

    # a flipped byte inside the model: a one-line error, and no half model left
    broken = bytearray(tail[0].read_bytes())
    broken[len(broken) // 2] ^= 0xFF
    tail[0].write_bytes(broken)
    damaged = tmp_path / "models" / "nomic-damaged.gguf"
    with pytest.raises(CodebotsError, match="do not make a whole model .*reinstall") as error:
        _extract(tail, damaged)
    assert "\n" not in str(error.value) and not damaged.exists()
    assert sorted(path.name for path in damaged.parent.iterdir()) == [target.name]


@pytest.mark.slow
def test_the_nomic_mind_reads_as_llama_cpp_does():
    """Our torch encoder of the GGUF file against llama.cpp's vectors of the same texts."""
    pytest.importorskip("torch")
    from codebots.embeddings import load_embedding

    reference = np.load(DATA / "nomic_reference.npz")
    texts = [str(text) for text in reference["texts"]]
    expected = reference["vectors"] / np.linalg.norm(reference["vectors"], axis=1, keepdims=True)
    model = load_embedding("nomic")
    assert model.dim == 768
    ours = model.encode_texts(texts)  # unit vectors
    assert np.all(np.sum(ours * expected, axis=1) > 0.9999)
    # and so a real model: nearer neighbours in meaning
    king, queen, apple, banana = ours[:4]
    assert king @ queen > king @ apple and apple @ banana > apple @ queen


@pytest.mark.parametrize(
    "path, missing",
    [
        ("nomic_path", "tokenizers"),
        ("nomic_path", "torch"),
        ("minilm_path", "sentence_transformers"),
    ],
)
def test_a_missing_module_of_the_st_extra_is_named_in_one_line(monkeypatch, path, missing):
    """Each packaged model asks for the modules it runs with (nomic: torch and tokenizers, no
    sentence-transformers) and names the extra that installs them."""
    import importlib.util

    from codebots import model_files

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == missing else real(name, *a)
    )
    with pytest.raises(CodebotsError, match=rf"needs the 'st' extra \({missing} is missing\)"):
        getattr(model_files, path)()
