#!/usr/bin/python3
"""Exports a nanoGPT checkpoint as a model file the playground opens
(shared spec gpt-v1.md, section 2: safetensors in nanoGPT's tensor names).

    /usr/bin/python3 scripts/export-nanogpt.py CKPT.pt [meta.pkl] OUT.safetensors

CKPT.pt is what nanoGPT's train.py saves (out/ckpt.pt): checkpoint['model'] is
the state dict, checkpoint['model_args'] holds n_layer, n_head, n_embd,
block_size, bias and vocab_size. meta.pkl is a character dataset's
(data/shakespeare_char/meta.pkl): its `itos` becomes the model's vocabulary,
so `attention-cli model OUT --text "…"` and the page's Model view type text.
Without it, a vocabulary of 50,257 tokens or more (GPT-2's, or nanoGPT's
padded 50,304) is marked as GPT-2's BPE.

What it does: strips torch.compile's `_orig_mod.` prefixes, drops the causal
mask buffers (`attn.bias`), writes the tied lm_head.weight once (as
transformer.wte.weight), and writes every tensor as float32 with the metadata
n_head, activation ("gelu": nanoGPT's nn.GELU() is the exact one) and the
vocabulary. PyTorch only (Debian's python3-torch): the safetensors file is
written by hand (8-byte little-endian header length, JSON header, data).

Bad input: one line on stderr naming the file and the problem, exit 2; wrong
arguments exit 64.
"""
import json
import os
import pickle
import struct
import sys

import torch

BUFFERS = (".attn.bias", ".attn.masked_bias")  # causal masks, not weights


class ExportError(Exception):
    pass


def state_of(checkpoint, path):
    if not isinstance(checkpoint, dict) or "model" not in checkpoint or "model_args" not in checkpoint:
        raise ExportError(f"{path}: not a nanoGPT checkpoint (needs 'model' and 'model_args')")
    args = checkpoint["model_args"]
    for key in ("n_layer", "n_head", "n_embd", "block_size", "vocab_size"):
        if not isinstance(args.get(key), int) or args[key] < 1:
            raise ExportError(f"{path}: model_args.{key} is {args.get(key)!r}, expected a positive integer")
    if args["n_embd"] % args["n_head"]:
        raise ExportError(f"{path}: model_args.n_head {args['n_head']} does not divide n_embd {args['n_embd']}")
    state = {}
    for key, tensor in checkpoint["model"].items():
        while key.startswith("_orig_mod."):          # torch.compile's wrapper
            key = key[len("_orig_mod."):]
        if key.endswith(BUFFERS):
            continue
        if not torch.is_tensor(tensor):
            raise ExportError(f"{path}: model.{key} is not a tensor")
        if key in state:
            raise ExportError(f"{path}: model.{key} is given twice (with and without _orig_mod.)")
        state[key] = tensor
    wte, head = state.get("transformer.wte.weight"), state.get("lm_head.weight")
    if wte is None:
        raise ExportError(f"{path}: model has no transformer.wte.weight")
    # nanoGPT ties lm_head.weight to wte: written once, as the spec's tied unembedding
    if head is not None and head.shape == wte.shape and torch.equal(head, wte):
        del state["lm_head.weight"]
    return state, args


def vocabulary(meta_path, vocab_size):
    with open(meta_path, "rb") as f:
        meta = pickle.load(f)
    itos = meta.get("itos") if isinstance(meta, dict) else None
    if not isinstance(itos, dict) or sorted(itos) != list(range(len(itos))):
        raise ExportError(f"{meta_path}: no itos mapping ids 0, 1, 2, ... to characters")
    if len(itos) != vocab_size:
        raise ExportError(f"{meta_path}: {len(itos)} characters, but the model's vocab_size is {vocab_size}")
    chars = [itos[i] for i in range(vocab_size)]
    if not all(isinstance(c, str) for c in chars):
        raise ExportError(f"{meta_path}: itos holds something other than strings")
    return chars


def write_safetensors(path, tensors, metadata):
    header, blobs, offset = {}, [], 0
    for name, t in tensors.items():
        data = t.detach().to(torch.float32).contiguous().cpu().numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    header["__metadata__"] = metadata
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)                  # the data starts 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def main(argv):
    if len(argv) not in (2, 3) or any(a in ("-h", "--help") for a in argv):
        print("usage: export-nanogpt.py CKPT.pt [meta.pkl] OUT.safetensors", file=sys.stderr)
        return 64
    ckpt_path, out_path = argv[0], argv[-1]
    meta_path = argv[1] if len(argv) == 3 else None
    try:
        try:
            checkpoint = torch.load(ckpt_path, map_location="cpu")
        except Exception as e:                     # a missing, truncated or foreign file
            raise ExportError(f"{ckpt_path}: cannot read ({type(e).__name__})") from None
        state, args = state_of(checkpoint, ckpt_path)
        metadata = {"n_head": str(args["n_head"]), "activation": "gelu",
                    "source": os.path.basename(ckpt_path)}
        if meta_path:
            metadata["vocab"] = json.dumps(vocabulary(meta_path, args["vocab_size"]), ensure_ascii=False)
        elif args["vocab_size"] >= 50257:
            metadata["tokenizer"] = "gpt2"
        write_safetensors(out_path, state, metadata)
    except ExportError as e:
        print(e, file=sys.stderr)
        return 2
    except OSError as e:
        print(f"{e.filename or out_path}: {e.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    torch.set_num_threads(1)
    sys.exit(main(sys.argv[1:]))
