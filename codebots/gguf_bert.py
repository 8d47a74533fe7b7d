"""nomic-embed-text-v1.5 in torch, read from its GGUF file (the ``nomic`` mind).

The model ships as ``nomic-embed-text-v1.5.f16.gguf`` inside the GPT4All desktop bundle
(:mod:`codebots.model_files`): llama.cpp's file format, which sentence-transformers cannot
read. Its architecture is small enough to write out: a BERT encoder with rotary position
embeddings (GPT-NeoX halves, base 1,000), fused query/key/value, SwiGLU feed-forward and
post-layer norms, no biases in the linear layers; mean pooling over the tokens. The
tokenizer is bert-base-uncased's WordPiece, stored in the file with llama.cpp's spelling
(``▁word`` for a word start, bare pieces for continuations).

Every text is encoded with the task prefix ``model_files.NOMIC_PREFIX``. Checked against
llama.cpp itself (GPT4All's ``Embed4All``): cosine at least 0.9999 on every word of
tests/data/nomic_reference.npz (llama.cpp computes in float16).

The module mimics the part of a ``SentenceTransformer`` that :class:`SentenceEmbedding`
uses: ``preprocess(texts)`` gives ``input_ids`` and ``attention_mask`` and calling the
module on them gives ``{"sentence_embedding": ...}``; its linear layers are ``nn.Linear``,
so the encoder's bfloat16 cast applies as to the other sentence models.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from codebots.gguf import GGUFError, read_gguf
from codebots.model_files import NOMIC_PREFIX as PREFIX

ARCHITECTURE = "nomic-bert"


def wordpiece_vocabulary(tokens: list[str]) -> dict[str, int]:
    """BERT's WordPiece vocabulary from llama.cpp's spelling of it."""
    pieces = {}
    for index, token in enumerate(tokens):
        if token.startswith("\u2581"):
            piece = token[1:]
        elif token.startswith("[") and token.endswith("]"):
            piece = token  # [CLS], [SEP], [unused12] ...
        else:
            piece = "##" + token
        pieces[piece] = index
    return pieces


def _norm(weights: dict, name: str) -> torch.nn.LayerNorm:
    norm = torch.nn.LayerNorm(weights[name + ".weight"].shape[0])
    norm.weight.data = _tensor(weights[name + ".weight"])
    norm.bias.data = _tensor(weights[name + ".bias"])
    return norm


def _linear(*arrays: np.ndarray) -> torch.nn.Linear:
    """A bias-free linear layer of the stacked weights (fused products run as one GEMM)."""
    weight = np.concatenate(arrays) if len(arrays) > 1 else arrays[0]
    layer = torch.nn.Linear(weight.shape[1], weight.shape[0], bias=False)
    layer.weight.data = _tensor(weight)
    return layer


def _tensor(array: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.array(array, dtype=np.float32))


class _Block(torch.nn.Module):
    def __init__(self, weights: dict, prefix: str, heads: int, eps: float):
        super().__init__()
        self.heads = heads
        self.qkv = _linear(weights[prefix + "attn_qkv.weight"])
        self.out = _linear(weights[prefix + "attn_output.weight"])
        self.norm1 = _norm(weights, prefix + "attn_output_norm")
        # up and gate as one product: (…, 2 * feed_forward)
        self.up_gate = _linear(
            weights[prefix + "ffn_up.weight"], weights[prefix + "ffn_gate.weight"]
        )
        self.down = _linear(weights[prefix + "ffn_down.weight"])
        self.norm2 = _norm(weights, prefix + "layer_output_norm")
        self.norm1.eps = self.norm2.eps = eps

    def forward(self, x, cos, sin, mask):  # x (B, L, D); cos, sin (L, head/2); mask (B, 1, 1, L)
        batch, length, width = x.shape
        head = width // self.heads
        q, k, v = self.qkv(x).view(batch, length, 3, self.heads, head).permute(2, 0, 3, 1, 4)
        attended = torch.nn.functional.scaled_dot_product_attention(
            _rotate(q, cos, sin), _rotate(k, cos, sin), v, attn_mask=mask
        )
        x = self.norm1(self.out(attended.transpose(1, 2).reshape(batch, length, width)) + x)
        up, gate = self.up_gate(x).chunk(2, dim=-1)
        return self.norm2(self.down(up * torch.nn.functional.silu(gate)) + x)


def _rotate(z, cos, sin):  # rotary embedding, GPT-NeoX halves: z (B, H, L, head)
    first, second = z.chunk(2, dim=-1)
    return torch.cat([first * cos - second * sin, second * cos + first * sin], dim=-1)


class NomicBert(torch.nn.Module):
    """nomic-embed-text-v1.5 from its GGUF file; ``preprocess`` then call, as a
    ``SentenceTransformer`` (see the module doc)."""

    def __init__(self, path: str | Path):
        super().__init__()
        from tokenizers import BertWordPieceTokenizer

        metadata, weights = read_gguf(path)
        if metadata.get("general.architecture") != ARCHITECTURE:
            raise GGUFError(f"{path} holds a {metadata.get('general.architecture')} model")
        key = ARCHITECTURE + "."
        self.width = int(metadata[key + "embedding_length"])
        self.heads = int(metadata[key + "attention.head_count"])
        self.rope_base = float(metadata[key + "rope.freq_base"])
        eps = float(metadata[key + "attention.layer_norm_epsilon"])
        self.embed = torch.nn.Embedding.from_pretrained(_tensor(weights["token_embd.weight"]))
        self.token_type = torch.nn.Parameter(_tensor(weights["token_types.weight"][0]))
        self.embed_norm = _norm(weights, "token_embd_norm")
        self.embed_norm.eps = eps
        self.blocks = torch.nn.ModuleList(
            _Block(weights, f"blk.{i}.", self.heads, eps)
            for i in range(int(metadata[key + "block_count"]))
        )
        vocabulary = wordpiece_vocabulary(metadata["tokenizer.ggml.tokens"])
        self.tokenizer = BertWordPieceTokenizer(vocabulary, lowercase=True)
        self.tokenizer.enable_padding(pad_id=vocabulary["[PAD]"], pad_token="[PAD]")
        self.eval()

    def get_embedding_dimension(self) -> int:
        return self.width

    def preprocess(self, texts: list[str]) -> dict[str, torch.Tensor]:
        """Token ids of ``PREFIX + text`` ([CLS] .. [SEP]), right-padded, with their mask."""
        # one Rust call for the batch, padded to its longest text with [PAD] (id 0)
        encoded = self.tokenizer.encode_batch([PREFIX + text for text in texts])
        ids = torch.tensor([e.ids for e in encoded], dtype=torch.long).reshape(len(texts), -1)
        mask = torch.tensor([e.attention_mask for e in encoded], dtype=torch.long)
        return {"input_ids": ids, "attention_mask": mask.reshape(ids.shape)}

    def forward(self, features: dict) -> dict:
        ids, mask = features["input_ids"], features["attention_mask"]
        length = ids.shape[1]
        head = self.width // self.heads
        inverse = self.rope_base ** (-torch.arange(0, head, 2, dtype=torch.float32) / head)
        angles = torch.arange(length, dtype=torch.float32)[:, None] * inverse  # (L, head/2)
        cos, sin = angles.cos(), angles.sin()
        keep = mask.bool()
        # padded keys get no attention (an equal-length batch has none)
        attention = None if bool(keep.all()) else keep[:, None, None, :]
        x = self.embed_norm(self.embed(ids) + self.token_type)
        for block in self.blocks:
            x = block(x, cos, sin, attention)
        x = x.float() * keep[..., None]
        pooled = x.sum(dim=1) / keep.sum(dim=1, keepdim=True).clamp(min=1)
        return {"sentence_embedding": pooled}
