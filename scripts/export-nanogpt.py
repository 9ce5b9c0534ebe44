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

Nothing in the files runs: the checkpoint is read by torch's own readers
(zip and legacy formats) with an unpickler that builds tensors and plain
values only (weights_only=True's rules, with floats, which Debian's torch
1.13's weights_only refuses; a TorchScript archive, whose code torch.load
runs even with weights_only=True, is refused), and meta.pkl by one that
builds plain dicts, lists, strings and numbers and never looks up a class or
a function.

Bad input: one line on stderr naming the file and the problem, exit 2; wrong
arguments exit 64.
"""
import collections
import io
import json
import os
import pickle
import struct
import sys
import types

import torch

BUFFERS = (".attn.bias", ".attn.masked_bias")  # causal masks, not weights
PARAMETERS = 536_870_912  # the core's parameter limit (core/formats/limits.hpp): 2 GiB as float32
META_BYTES = 64 << 20     # a character vocabulary's meta.pkl is a few kB


class ExportError(Exception):
    pass


class Refused(pickle.UnpicklingError):
    """A pickle that asks for more than tensors and plain values."""


def allowed_globals():
    """What a checkpoint's pickle may name: the functions that rebuild a
    tensor or a parameter from its storage, OrderedDict (a state dict),
    torch.Size and the dtypes. Storages are mapped by torch's readers."""
    allowed = {f"torch._utils.{f.__name__}": f for f in (
        torch._utils._rebuild_tensor, torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter)}
    allowed["collections.OrderedDict"] = collections.OrderedDict
    allowed["torch.Size"] = torch.Size
    allowed.update({str(t): t for t in vars(torch).values() if isinstance(t, torch.dtype)})
    return allowed


class CheckpointUnpickler(pickle._Unpickler):
    """torch.load's weights_only unpickler, with floats: Debian's torch 1.13
    has weights_only=True, but it refuses every float (no BINFLOAT), and a
    nanoGPT checkpoint holds floats (model_args.dropout, the config, AdamW's
    lr). Python's own unpickler, cut down: a global only from the list above,
    an object built (BUILD) only as a tensor, a parameter or an OrderedDict,
    and no instance of any class made (INST, OBJ, NEWOBJ)."""

    allowed = None
    dispatch = dict(pickle._Unpickler.dispatch)

    def find_class(self, module, name):
        CheckpointUnpickler.allowed = CheckpointUnpickler.allowed or allowed_globals()
        found = self.allowed.get(f"{module}.{name}")
        if found is None:
            raise Refused(f"{module}.{name}")
        return found

    def load_build(self):
        if type(self.stack[-2]) not in (torch.Tensor, torch.nn.Parameter, collections.OrderedDict):
            raise Refused(f"a {type(self.stack[-2]).__name__}'s state")
        pickle._Unpickler.load_build(self)

    def refuse_instance(self):
        raise Refused("an instance of a class")

    dispatch[pickle.BUILD[0]] = load_build
    for opcode in (pickle.INST, pickle.OBJ, pickle.NEWOBJ, pickle.NEWOBJ_EX):
        dispatch[opcode[0]] = refuse_instance
    del opcode


restricted_pickle = types.ModuleType("restricted_pickle")  # torch's readers take it as their pickle_module
restricted_pickle.Unpickler = CheckpointUnpickler
restricted_pickle.load = lambda f, **options: CheckpointUnpickler(f, **options).load()


class NoFileno(io.BufferedReader):
    """The checkpoint without a file descriptor: torch's legacy reader then
    never tries the pre-2018 tar format, which it would extract to disk."""

    def fileno(self):
        raise io.UnsupportedOperation("fileno")


def read_checkpoint(path):
    """The checkpoint's dict, from tensors and plain values only. torch.load
    itself is not called: it would hand a TorchScript archive to
    torch.jit.load (which runs its code, weights_only or not), and Debian's
    torch 1.13 replaces a pickle_module given to it by pickle's own. Its two
    readers, of the zip format and the legacy one, are called with the
    restricted unpickler, as torch.load calls them."""
    serialization = torch.serialization
    try:
        with NoFileno(io.FileIO(path, "rb")) as f:
            if serialization._is_zipfile(f):
                with serialization._open_zipfile_reader(f) as archive:
                    records = archive.get_all_records()
                    if "constants.pkl" in records or any(r.startswith("code/") for r in records):
                        raise ExportError(f"{path}: cannot read (a TorchScript archive, which holds code; "
                                          "a checkpoint holds tensors and plain values)")
                    return serialization._load(archive, "cpu", restricted_pickle, encoding="utf-8")
            return serialization._legacy_load(f, "cpu", restricted_pickle, encoding="utf-8")
    except ExportError:
        raise
    except Refused as e:                           # the name is the file's text: quoted, shortened
        raise ExportError(f"{path}: cannot read (it asks for {json.dumps(str(e)[:60])}; only tensors and "
                          "plain values are read, and nothing in a checkpoint is run)") from None
    except Exception as e:                         # a missing, truncated or foreign file
        raise ExportError(f"{path}: cannot read ({type(e).__name__})") from None


def positive(args, key, path):
    value = args.get(key)
    if type(value) is not int or value < 1:
        shown = value if type(value) in (int, float, bool) or value is None else type(value).__name__
        raise ExportError(f"{path}: model_args.{key} is {shown!r}, expected a positive integer")
    return value


def state_of(checkpoint, path):
    if not isinstance(checkpoint, dict) or "model" not in checkpoint or "model_args" not in checkpoint:
        raise ExportError(f"{path}: not a nanoGPT checkpoint (needs 'model' and 'model_args')")
    args, model = checkpoint["model_args"], checkpoint["model"]
    if not isinstance(args, dict) or not isinstance(model, dict):
        raise ExportError(f"{path}: model and model_args are not dicts, as nanoGPT's train.py saves them")
    for key in ("n_layer", "n_head", "n_embd", "block_size", "vocab_size"):
        positive(args, key, path)
    if args["n_embd"] % args["n_head"]:
        raise ExportError(f"{path}: model_args.n_head {args['n_head']} does not divide n_embd {args['n_embd']}")
    state, parameters = {}, 0
    for key, tensor in model.items():
        if not isinstance(key, str):
            raise ExportError(f"{path}: model holds a key that is not a tensor's name")
        while key.startswith("_orig_mod."):          # torch.compile's wrapper
            key = key[len("_orig_mod."):]
        if key.endswith(BUFFERS):
            continue
        plain = 0 < len(key) <= 100 and all(c.isascii() and (c.isalnum() or c in "._-") for c in key)
        name = key if plain else json.dumps(key)   # the file's text: quoted unless plain
        # a tensor is rebuilt from the file's sizes and strides: checked before any arithmetic touches it
        if not torch.is_tensor(tensor) or tensor.layout != torch.strided or tensor.device.type != "cpu":
            raise ExportError(f"{path}: model.{name} is not a dense tensor")
        if not tensor.is_floating_point():
            raise ExportError(f"{path}: model.{name} is not a floating-point tensor")
        if key in state:
            raise ExportError(f"{path}: model.{name} is given twice (with and without _orig_mod.)")
        parameters += tensor.numel()
        if parameters > PARAMETERS:
            raise ExportError(f"{path}: more than {PARAMETERS:,} parameters (at model.{name}), the core's limit")
        state[key] = tensor
    wte, head = state.get("transformer.wte.weight"), state.get("lm_head.weight")
    if wte is None:
        raise ExportError(f"{path}: model has no transformer.wte.weight")
    # nanoGPT ties lm_head.weight to wte: written once, as the spec's tied unembedding
    if head is not None and head.shape == wte.shape and torch.equal(head, wte):
        del state["lm_head.weight"]
    return state, args


class PlainUnpickler(pickle.Unpickler):
    """Builds dicts, lists, strings and numbers; refuses every class and
    function a pickle names (what a __reduce__ would call), so nothing runs."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError("names a class or a function")

    def persistent_load(self, pid):
        raise pickle.UnpicklingError("names a persistent object")


PLAIN = (dict, list, str, int, float)


def read_meta(meta_path):
    """meta.pkl as plain data: {"vocab_size", "itos", "stoi"} in nanoGPT's."""
    with open(meta_path, "rb") as f:
        data = f.read(META_BYTES + 1)
    if len(data) > META_BYTES:
        raise ExportError(f"{meta_path}: larger than {META_BYTES >> 20} MiB; a meta.pkl holds a vocabulary")
    try:
        meta = PlainUnpickler(io.BytesIO(data)).load()
    except pickle.UnpicklingError as e:
        why = str(e) if str(e) in ("names a class or a function", "names a persistent object") else "not a pickle"
        raise ExportError(f"{meta_path}: cannot read ({why}; only plain dicts, lists, strings and numbers are read)") from None
    except Exception as e:                         # truncated, not a pickle, too large a length
        raise ExportError(f"{meta_path}: cannot read ({type(e).__name__})") from None
    seen, todo = set(), [meta]                     # no recursion: a pickle may nest deep or refer to itself
    while todo:
        value = todo.pop()
        if type(value) not in PLAIN:
            raise ExportError(f"{meta_path}: holds a {type(value).__name__}; only plain dicts, lists, strings and numbers are read")
        if type(value) in (dict, list) and id(value) not in seen:
            seen.add(id(value))
            todo.extend([*value.keys(), *value.values()] if type(value) is dict else value)
    return meta


def vocabulary(meta_path, vocab_size):
    meta = read_meta(meta_path)
    itos = meta.get("itos") if isinstance(meta, dict) else None
    if (not isinstance(itos, dict) or not all(type(i) is int for i in itos)
            or sorted(itos) != list(range(len(itos)))):
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
        checkpoint = read_checkpoint(ckpt_path)
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
    except Exception as e:                         # what the checks above did not foresee: still one line
        print(f"{ckpt_path}: cannot export ({type(e).__name__})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    torch.set_num_threads(1)
    sys.exit(main(sys.argv[1:]))
