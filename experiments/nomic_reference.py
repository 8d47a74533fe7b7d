"""Rebuild tests/data/nomic_reference.npz: nomic-embed-text-v1.5 vectors computed by llama.cpp.

The ``nomic`` mind runs the model's GGUF file through our own torch encoder
(codebots/gguf_bert.py); the test compares it with these vectors from an independent
implementation, llama.cpp, as GPT4All's ``Embed4All`` runs it. GPT4All is not a dependency of
codebots (it bundles CUDA libraries and its own llama.cpp build), so run this in a separate
virtual environment:

    python -m venv /tmp/gpt4all && /tmp/gpt4all/bin/pip install gpt4all==2.8.2 numpy
    /tmp/gpt4all/bin/python experiments/nomic_reference.py PATH/TO/nomic-embed-text-v1.5.f16.gguf

(the GGUF file: ``.venv/bin/python -c "from codebots.model_files import nomic_path;
print(nomic_path())"`` extracts it into the cache and prints where).
"""

import sys
from pathlib import Path

import numpy as np
from gpt4all import Embed4All

TEXTS = ["king", "queen", "apple", "banana", "piano", "guitar", "moon", "knight", "ice cream",
         "scuba diver", "loch ness", "ocean"]  # fmt: skip
OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "nomic_reference.npz"


def main() -> None:
    model = Path(sys.argv[1])
    embedder = Embed4All(
        model_name=model.name, model_path=str(model.parent), allow_download=False, device="cpu"
    )
    # GPT4All joins the task prefix as "classification: TEXT", as codebots does
    vectors = np.array(embedder.embed(TEXTS, prefix="classification"), dtype=np.float32)
    about = "nomic-embed-text-v1.5.f16.gguf through llama.cpp (gpt4all 2.8.2 Embed4All, CPU)"
    np.savez_compressed(OUT, texts=np.array(TEXTS), vectors=vectors, about=np.array(about))
    print(f"wrote {OUT}: {vectors.shape}")


if __name__ == "__main__":
    main()
