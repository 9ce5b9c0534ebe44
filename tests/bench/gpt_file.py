#!/usr/bin/python3
"""A GPT model file (.safetensors with nanoGPT's or Hugging Face GPT-2's tensor
names) in PyTorch, for `make bench`: its reader, the forward a PyTorch user
writes, and a writer of random GPT-2-shaped files.

The bench only reads files it wrote or the project ships, so the reader checks
what a bench needs (the dtypes, the shapes it indexes) and leaves the full
validation of hostile files to the core.

    /usr/bin/python3 tests/bench/gpt_file.py random OUT.safetensors --vocab 50257 --length 1024 \\
        --embed 768 --heads 12 --layers 12 [--mlp 4] [--untied] [--attn-scale 1] [--seed 0]
"""
import argparse
import json
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F

ACTIVATIONS = {
    "relu": F.relu,
    "gelu": F.gelu,                                        # the erf form: nanoGPT's
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),  # GPT-2's
}
DTYPES = {"F32": ("<f4", 4), "F16": ("<f2", 2), "BF16": ("<u2", 2)}
# Hugging Face's Conv1D keeps these as [in, out]; nn.Linear as [out, in]
CONV1D = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
MASKS = ("attn.bias", "attn.masked_bias")                  # Hugging Face's buffers, not weights


def read_safetensors(path):
    """(name -> float32 tensor, metadata)."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = memoryview(raw)[8 + n:]
    tensors = {}
    for name, info in header.items():
        if info["dtype"] not in DTYPES:
            raise ValueError(f"{name}: dtype {info['dtype']}, the bench reads F32, F16 and BF16")
        kind, size = DTYPES[info["dtype"]]
        begin, end = info["data_offsets"]
        a = np.frombuffer(data[begin:end], dtype=kind)
        if info["dtype"] == "BF16":                        # a float32's upper 16 bits
            a = (a.astype(np.uint32) << 16).view(np.float32)
        tensors[name] = torch.from_numpy(a.astype(np.float32)).reshape(info["shape"])
    return tensors, meta


class Model:
    """A GPT's tensors as nn.Linear keeps them ([out, in]), float32."""

    def __init__(self, tensors, meta):
        named = {}
        for name, t in tensors.items():
            key = name.removeprefix("transformer.")
            if key.split(".", 2)[-1] not in MASKS:              # h.N.attn.bias: a buffer
                named[key] = t
        self.wte, self.wpe = named.pop("wte.weight"), named.pop("wpe.weight")  # [V, d], [Tmax, d]
        self.V, self.d = self.wte.shape
        self.Tmax = self.wpe.shape[0]
        self.layers = len({key.split(".")[1] for key in named if key.startswith("h.")})
        # Conv1D's c_attn is [d, 3d]; nn.Linear's [3d, d]
        self.conv1d = self.layers > 0 and list(named["h.0.attn.c_attn.weight"].shape) == [self.d, 3 * self.d]
        self.blocks = []
        for i in range(self.layers):
            prefix = f"h.{i}."
            block = {key[len(prefix):]: t for key, t in named.items() if key.startswith(prefix)}
            for key in CONV1D:
                if self.conv1d and key in block:
                    block[key] = block[key].T.contiguous()
            self.blocks.append(block)
        self.ln_f = (named.get("ln_f.weight"), named.get("ln_f.bias"))
        self.unembed = named.get("lm_head.weight", self.wte)  # absent: tied to wte
        self.unembed_bias = named.get("lm_head.bias")
        self.n_head = int(meta.get("n_head", self.d // 64))
        self.activation = meta.get("activation", "gelu_tanh" if self.conv1d else "gelu")


def read(path):
    return Model(*read_safetensors(path))


def layer_norm(h, weight, bias):
    if weight is None and bias is None:                    # trained without norm
        return h
    return F.layer_norm(h, h.shape[-1:], weight, bias, 1e-5)


def forward(m, tokens):
    """logits [T, V] after every position, attention [layers, heads, T, T]."""
    T, d, H = len(tokens), m.d, m.n_head
    head_size = d // H
    act = ACTIVATIONS[m.activation]
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    x = m.wte[torch.tensor(tokens)] + m.wpe[:T]            # [T, d]
    attention = []
    for b in m.blocks:
        a = layer_norm(x, b.get("ln_1.weight"), b.get("ln_1.bias"))
        q, k, v = F.linear(a, b["attn.c_attn.weight"], b.get("attn.c_attn.bias")).split(d, dim=-1)  # [T, d] each
        # one head at a time, as the lecture's Head modules: the exporters'
        # batched heads are checked against this other order of the work
        outs, weights = [], []
        for s in (slice(i * head_size, (i + 1) * head_size) for i in range(H)):
            scores = q[:, s] @ k[:, s].T / head_size ** 0.5                          # [T, T]
            weights.append(scores.masked_fill(~causal, float("-inf")).softmax(dim=-1))
            outs.append(weights[-1] @ v[:, s])                                      # [T, hs]
        x = x + F.linear(torch.cat(outs, dim=-1), b["attn.c_proj.weight"], b.get("attn.c_proj.bias"))
        if "mlp.c_fc.weight" in b:
            a = layer_norm(x, b.get("ln_2.weight"), b.get("ln_2.bias"))
            hidden = act(F.linear(a, b["mlp.c_fc.weight"], b.get("mlp.c_fc.bias")))  # [T, mlp]
            x = x + F.linear(hidden, b["mlp.c_proj.weight"], b.get("mlp.c_proj.bias"))
        attention.append(torch.stack(weights))                                     # [H, T, T]
    logits = F.linear(layer_norm(x, *m.ln_f), m.unembed, m.unembed_bias)          # [T, V]
    return logits, torch.stack(attention) if attention else torch.zeros(0, H, T, T)


def write_random(path, vocab, length, embed, heads, layers, mlp=4, tied=True, attn_scale=1.0, seed=0):
    """A GPT-2-shaped model in Hugging Face's layout (Conv1D [in, out]), F32,
    initialised as GPT-2 is: Linear weights N(0, 0.02), zero biases, LayerNorm
    ones and zeros; the embeddings wider (wte N(0, 0.3), wpe N(0, 0.1)) so the
    tokens differ. c_attn's weight is multiplied by attn_scale."""
    g = torch.Generator().manual_seed(seed)
    normal = lambda *shape, std: torch.randn(*shape, generator=g) * std  # noqa: E731
    d, width = embed, mlp * embed
    t = {"wte.weight": normal(vocab, d, std=0.3), "wpe.weight": normal(length, d, std=0.1)}
    for i in range(layers):
        p = f"h.{i}."
        t[p + "ln_1.weight"], t[p + "ln_1.bias"] = torch.ones(d), torch.zeros(d)
        t[p + "attn.c_attn.weight"], t[p + "attn.c_attn.bias"] = normal(d, 3 * d, std=0.02) * attn_scale, torch.zeros(3 * d)
        t[p + "attn.c_proj.weight"], t[p + "attn.c_proj.bias"] = normal(d, d, std=0.02), torch.zeros(d)
        if width:
            t[p + "ln_2.weight"], t[p + "ln_2.bias"] = torch.ones(d), torch.zeros(d)
            t[p + "mlp.c_fc.weight"], t[p + "mlp.c_fc.bias"] = normal(d, width, std=0.02), torch.zeros(width)
            t[p + "mlp.c_proj.weight"], t[p + "mlp.c_proj.bias"] = normal(width, d, std=0.02), torch.zeros(d)
    t["ln_f.weight"], t["ln_f.bias"] = torch.ones(d), torch.zeros(d)
    if not tied:
        t["lm_head.weight"] = normal(vocab, d, std=0.3)
    header, blobs, offset = {}, [], 0
    for name, tensor in t.items():
        blob = tensor.contiguous().numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensor.shape), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    header["__metadata__"] = {"n_head": str(heads), "activation": "gelu_tanh"}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)                        # tensors start 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for blob in blobs:
            f.write(blob)


def main(argv):
    parser = argparse.ArgumentParser(prog="gpt_file.py")
    parser.add_argument("command", choices=["random"])
    parser.add_argument("out")
    for name in ("vocab", "length", "embed", "heads", "layers"):
        parser.add_argument(f"--{name}", type=int, required=True)
    parser.add_argument("--mlp", type=int, default=4)
    parser.add_argument("--untied", action="store_true")
    parser.add_argument("--attn-scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    a = parser.parse_args(argv)
    write_random(a.out, a.vocab, a.length, a.embed, a.heads, a.layers, a.mlp, not a.untied, a.attn_scale, a.seed)


if __name__ == "__main__":
    main(sys.argv[1:])
