#!/usr/bin/python3
"""Writes the model-file fuzzer's seeds and hostile files (no PyTorch: plain
struct and json, safetensors by hand).

    python3 tests/fuzz/model/make_model_files.py [OUT]

OUT (default: this folder) receives corpus/ and regressions/; another folder
lets you compare a fresh run with the committed files.

corpus/: small valid GPTs in both schemes and every dtype (a fuzz input is at
most 64 KiB). regressions/: hostile files, each named after what is wrong
with it; hostile.json says the one line each must be refused with, and the
Catch2 CLI test checks it (tests/cli/test_cli.cpp).
"""
import json
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def values(n, seed):
    """n small finite floats, different for each seed."""
    return [math.sin(seed * 7.1 + k * 1.3) * 0.5 for k in range(n)]


def encode(vals, dtype):
    if dtype == "F32":
        return struct.pack(f"<{len(vals)}f", *vals)
    if dtype == "F16":
        return struct.pack(f"<{len(vals)}e", *vals)
    if dtype == "BF16":  # the high half of the float32
        return b"".join(struct.pack("<f", v)[2:] for v in vals)
    raise ValueError(dtype)


def gpt(layout="nanogpt", dtype="F32", vocab=5, length=4, embed=8, heads=2, layers=1, mlp=2, bias=True, tied=True,
        chars=True):
    """(tensors, metadata): name -> [dtype, shape, bytes], in file order."""
    pre = "" if layout == "hf" else "transformer."
    d, w = embed, mlp * embed
    t = {}
    seed = [0]

    def add(name, *shape):
        seed[0] += 1
        n = math.prod(shape)
        t[name] = [dtype, list(shape), encode(values(n, seed[0]), dtype)]

    def linear(name, out, inp):
        add(name + ".weight", *((inp, out) if layout == "hf" else (out, inp)))
        if bias:
            add(name + ".bias", out)

    add(pre + "wte.weight", vocab, d)
    add(pre + "wpe.weight", length, d)
    for i in range(layers):
        p = f"{pre}h.{i}."
        add(p + "ln_1.weight", d)
        add(p + "ln_1.bias", d)
        linear(p + "attn.c_attn", 3 * d, d)
        linear(p + "attn.c_proj", d, d)
        if mlp:
            add(p + "ln_2.weight", d)
            add(p + "ln_2.bias", d)
            linear(p + "mlp.c_fc", w, d)
            linear(p + "mlp.c_proj", d, w)
    add(pre + "ln_f.weight", d)
    add(pre + "ln_f.bias", d)
    if not tied:
        add("lm_head.weight", vocab, d)
    meta = {"n_head": str(heads), "activation": "gelu_tanh" if layout == "hf" else "gelu"}
    if chars:
        meta["vocab"] = json.dumps([chr(ord("a") + i) for i in range(vocab)])
    return t, meta


def file_bytes(tensors, meta, header=None, tail=b""):
    """The file; `header` replaces the JSON header text when given."""
    h, data, offset = {}, b"", 0
    for name, (dtype, shape, raw) in tensors.items():
        h[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        data += raw
        offset += len(raw)
    if meta is not None:
        h["__metadata__"] = meta
    text = header if header is not None else json.dumps(h, separators=(",", ":")).encode()
    return struct.pack("<Q", len(text)) + text + data + tail


def header_of(tensors, meta):
    b = file_bytes(tensors, meta)
    n = struct.unpack("<Q", b[:8])[0]
    return json.loads(b[8:8 + n])


def with_header(tensors, meta, change):
    """The file whose parsed header went through change(h) (h is a dict)."""
    h = header_of(tensors, meta)
    change(h)
    return file_bytes(tensors, meta, header=json.dumps(h).encode())


def main():
    if len(sys.argv) > 2:
        sys.exit("usage: make_model_files.py [OUT]")
    out = os.path.abspath(sys.argv[1]) if len(sys.argv) == 2 else HERE
    corpus = os.path.join(out, "corpus")
    hostile = os.path.join(out, "regressions")
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(hostile, exist_ok=True)
    seeds = {
        "nano-f32-tied": gpt(),
        "nano-f16-nobias": gpt(dtype="F16", bias=False, heads=4, layers=2),
        "hf-f32-untied": gpt(layout="hf", tied=False, chars=False, layers=2),
        "hf-bf16-nomlp": gpt(layout="hf", dtype="BF16", mlp=0, chars=False),
    }
    for name, (t, m) in seeds.items():
        with open(os.path.join(corpus, name + ".safetensors"), "wb") as f:
            f.write(file_bytes(t, m))

    t, m = gpt()
    good = file_bytes(t, m)
    files = {}
    files["empty"] = b""
    files["shorter-than-8-bytes"] = b"\x10\x00\x00"
    files["truncated"] = good[: len(good) // 2]
    files["header-length-beyond-the-file"] = struct.pack("<Q", 10 ** 6) + good[8:]
    files["header-length-2-63"] = struct.pack("<Q", 2 ** 63) + good[8:]
    files["header-not-json"] = file_bytes(t, m, header=b'{"transformer.wte.weight": [1, 2,}')
    files["header-not-an-object"] = file_bytes({}, None, header=b"[1, 2, 3]")
    files["header-nul-byte"] = file_bytes(t, m, header=b'{"a"\x00: 1}')
    files["header-invalid-utf8"] = file_bytes(t, m, header=b'{"\xff\xfe": 1}')
    files["nested-too-deep"] = file_bytes(t, m, header=b'{"a": ' + b"[" * 40 + b"]" * 40 + b"}")
    text = file_bytes(t, m)[8:8 + struct.unpack("<Q", good[:8])[0]]
    files["duplicate-keys"] = file_bytes(t, m, header=text[:-1] + b',"transformer.wte.weight":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}')
    files["unknown-dtype"] = with_header(t, m, lambda h: h["transformer.wte.weight"].update(dtype="F128"))
    files["integer-weights"] = with_header(t, m, lambda h: h["transformer.wpe.weight"].update(dtype="I32"))
    files["missing-data-offsets"] = with_header(t, m, lambda h: h["transformer.wte.weight"].pop("data_offsets"))
    files["negative-offset"] = with_header(t, m, lambda h: h["transformer.wte.weight"].update(data_offsets=[-4, 156]))
    files["shape-not-sizes"] = with_header(t, m, lambda h: h["transformer.wte.weight"].update(shape=[5, "8"]))
    files["too-many-dimensions"] = with_header(t, m, lambda h: h["transformer.wte.weight"].update(shape=[1] * 9 + [40]))
    files["shape-overflows-64-bits"] = with_header(
        t, m, lambda h: h["transformer.wte.weight"].update(shape=[2 ** 31 - 1] * 3))
    files["shape-disagrees-with-bytes"] = with_header(t, m, lambda h: h["transformer.wte.weight"].update(shape=[5, 9]))

    def overlap(h):
        h["transformer.wpe.weight"]["data_offsets"][0] -= 4
        h["transformer.wpe.weight"]["data_offsets"][1] -= 4
    files["overlapping-offsets"] = with_header(t, m, overlap)

    def gap(h):
        for name, e in h.items():
            if name != "__metadata__" and name != "transformer.wte.weight":
                e["data_offsets"] = [e["data_offsets"][0] + 4, e["data_offsets"][1] + 4]
    files["gap"] = file_bytes(t, m, header=json.dumps(header_with(t, m, gap)).encode(), tail=b"\0" * 4)
    files["trailing-bytes"] = good + b"\0" * 4
    files["offsets-past-the-end"] = with_header(t, m, lambda h: h["transformer.ln_f.bias"].update(
        data_offsets=[h["transformer.ln_f.bias"]["data_offsets"][0], h["transformer.ln_f.bias"]["data_offsets"][1] + 32]))

    def nan_in(tensors, name, index, dtype="F32"):
        t2 = {k: list(v) for k, v in tensors.items()}
        raw = bytearray(t2[name][2])
        size = {"F32": 4, "F16": 2, "BF16": 2}[dtype]
        raw[index * size:(index + 1) * size] = {"F32": struct.pack("<f", math.nan), "F16": b"\x00\x7e",
                                                "BF16": b"\x80\xff"}[dtype]
        t2[name][2] = bytes(raw)
        return t2
    files["nan-weight"] = file_bytes(nan_in(t, "transformer.h.0.attn.c_attn.weight", 19), m)
    tf, mf = gpt(dtype="F16")
    files["nan-weight-f16"] = file_bytes(nan_in(tf, "transformer.h.0.mlp.c_proj.weight", 17, "F16"), mf)
    tb, mb = gpt(dtype="BF16", layout="hf")
    files["infinity-bf16"] = file_bytes(nan_in(tb, "wpe.weight", 9, "BF16"), mb)
    files["wrong-vocab-length"] = file_bytes(t, dict(m, vocab=json.dumps(["a", "b", "c"])))
    files["vocab-not-json"] = file_bytes(t, dict(m, vocab="[\"a\", "))
    files["metadata-not-strings"] = with_header(t, m, lambda h: h["__metadata__"].update(n_head=2))
    files["unknown-tensor-name"] = file_bytes(dict(t, **{"transformer.h.0.attn.rotary_emb.inv_freq": ["F32", [4], b"\0" * 16]}), m)
    files["llama-tensor-names"] = file_bytes({"model.embed_tokens.weight": ["F32", [5, 8], b"\0" * 160]}, m)
    files["escapes-in-a-name"] = file_bytes(dict(t, **{"\x1b]0;pwned\x07\x1b[2J": ["F32", [1], b"\0" * 4]}), m)
    files["n-head-not-dividing-d"] = file_bytes(t, dict(m, n_head="3"))
    mb_ = dict(m)
    del mb_["n_head"]
    files["no-n-head-and-d-not-a-multiple-of-64"] = file_bytes(t, mb_)
    files["unknown-activation"] = file_bytes(t, dict(m, activation="swiglu"))
    files["unknown-tokenizer"] = file_bytes(t, {k: v for k, v in dict(m, tokenizer="llama").items() if k != "vocab"})
    t2, m2 = gpt(layers=2)  # block 0 decides the layout (nn.Linear); block 1's c_attn is Conv1D's
    t2["transformer.h.1.attn.c_attn.weight"][1] = [8, 24]
    files["c-attn-transposed"] = file_bytes(t2, m2)
    t3 = {k: v for k, v in t.items() if k != "transformer.wpe.weight"}
    files["missing-wpe"] = file_bytes(t3, m)
    t4 = dict(t)
    t4["transformer.h.2.attn.c_attn.weight"] = t["transformer.h.0.attn.c_attn.weight"]
    files["layers-not-numbered-in-order"] = file_bytes(t4, m)
    t5 = {k: v for k, v in t.items() if k != "transformer.h.0.attn.c_proj.weight"}
    files["missing-c-proj"] = file_bytes(t5, m)
    t6 = {k: v for k, v in t.items() if k not in ("transformer.h.0.ln_1.weight", "transformer.h.0.ln_1.bias")}
    files["layer-norm-in-some-blocks"] = file_bytes(t6, m)
    files["no-tensors"] = file_bytes({}, {})
    for name, b in files.items():
        with open(os.path.join(hostile, name + ".safetensors"), "wb") as f:
            f.write(b)


def header_with(tensors, meta, change):
    h = header_of(tensors, meta)
    change(h)
    return h


if __name__ == "__main__":
    main()
