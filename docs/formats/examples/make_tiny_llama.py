# Writes tiny-llama/, the Hugging Face Llama-family folder that the runnable
# examples of docs/formats/folders.md read: config.json, two safetensors
# shards and their index, and a small BPE tokenizer.json. Needs only Debian's
# python3 (the standard library: no NumPy, no PyTorch). From the
# repository's root:
#
#     python3 docs/formats/examples/make_tiny_llama.py
#
# or, to write the folder elsewhere (to compare it with the committed one):
#
#     python3 docs/formats/examples/make_tiny_llama.py --out /tmp/tiny-llama
#
# The weights are one draw of Python's random module, seeded with 2024, taken
# in the shards' header order: each weight matrix and the embedding are
# random.gauss(0, 0.5), each RMSNorm weight random.gauss(1, 0.1). The two
# rotary_emb.inv_freq buffers (which the core skips) also take their two
# draws, then hold the usual 1 / theta^(2i / head_dim) instead. The MLP
# matrices are stored as BF16 (float32 rounded to nearest, ties to even), the
# rest as F32. Layer 0 and the embedding go to the first shard, layer 1 and
# the final norm to the second. The output is the same bytes on every run.
import json
import os
import random
import struct
import sys

SEED = 2024
CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "vocab_size": 32,
    "hidden_size": 8,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "head_dim": 4,
    "num_hidden_layers": 2,
    "intermediate_size": 16,
    "max_position_embeddings": 32,
    "rms_norm_eps": 1e-05,
    "rope_theta": 10000.0,
    "rope_scaling": None,
    "hidden_act": "silu",
    "tie_word_embeddings": True,
    "attention_bias": False,
    "torch_dtype": "float32",
    "bos_token_id": 1,
    "eos_token_id": 2,
}
SHARDS = ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]


def tensors():
    """(shard index, name, dtype, shape, kind) in the order the shards hold them."""
    c = CONFIG
    d, f, hd = c["hidden_size"], c["intermediate_size"], c["head_dim"]
    q, kv = c["num_attention_heads"] * hd, c["num_key_value_heads"] * hd
    out = [(0, "model.embed_tokens.weight", "F32", [c["vocab_size"], d], "matrix")]
    for layer in range(c["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        out += [
            (layer, p + "input_layernorm.weight", "F32", [d], "norm"),
            (layer, p + "self_attn.q_proj.weight", "F32", [q, d], "matrix"),
            (layer, p + "self_attn.k_proj.weight", "F32", [kv, d], "matrix"),
            (layer, p + "self_attn.v_proj.weight", "F32", [kv, d], "matrix"),
            (layer, p + "self_attn.o_proj.weight", "F32", [d, q], "matrix"),
            (layer, p + "self_attn.rotary_emb.inv_freq", "F32", [hd // 2], "inv_freq"),
            (layer, p + "post_attention_layernorm.weight", "F32", [d], "norm"),
            (layer, p + "mlp.gate_proj.weight", "BF16", [f, d], "matrix"),
            (layer, p + "mlp.up_proj.weight", "BF16", [f, d], "matrix"),
            (layer, p + "mlp.down_proj.weight", "BF16", [d, f], "matrix"),
        ]
    out.append((len(SHARDS) - 1, "model.norm.weight", "F32", [d], "norm"))
    return out


def values(rng, kind, count):
    if kind == "norm":
        return [rng.gauss(1.0, 0.1) for _ in range(count)]
    drawn = [rng.gauss(0.0, 0.5) for _ in range(count)]
    if kind == "inv_freq":
        hd = CONFIG["head_dim"]
        return [1.0 / CONFIG["rope_theta"] ** (2 * i / hd) for i in range(count)]
    return drawn


def encode(dtype, numbers):
    if dtype == "F32":
        return struct.pack(f"<{len(numbers)}f", *numbers)
    bits = struct.unpack(f"<{len(numbers)}I", struct.pack(f"<{len(numbers)}f", *numbers))
    # BF16: the float32's top half, rounded to nearest, ties to even
    return struct.pack(f"<{len(bits)}H", *(((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF for b in bits))


def safetensors(entries):
    header, data = {"__metadata__": {"format": "pt"}}, b""
    for name, dtype, shape, raw in entries:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data, len(data)


def tokenizer():
    specials = ["<unk>", "<s>", "</s>"]
    pieces = specials + ["\u2581"] + [chr(c) for c in range(ord("a"), ord("z") + 1)] + ["\u2581t", "he"]
    token = {"single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
    bos = {"SpecialToken": {"id": "<s>", "type_id": 0}}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [{"id": i, "content": s, **token} for i, s in enumerate(specials)],
        "normalizer": None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": False},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [bos, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [
                bos,
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "<s>", "type_id": 1}},
                {"Sequence": {"id": "B", "type_id": 1}},
            ],
            "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}},
        },
        "decoder": {
            "type": "Sequence",
            "decoders": [
                {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
                {"type": "Fuse"},
                {"type": "Strip", "content": " ", "start": 1, "stop": 0},
            ],
        },
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": "<unk>",
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": True,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": {piece: i for i, piece in enumerate(pieces)},
            "merges": ["\u2581 t", "h e"],
        },
    }


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main(argv):
    if len(argv) not in (0, 2) or (argv and argv[0] != "--out"):
        sys.exit("usage: make_tiny_llama.py [--out DIR]  (default: docs/formats/examples/tiny-llama)")
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.abspath(argv[1]) if argv else os.path.join(here, "tiny-llama")
    os.makedirs(out, exist_ok=True)

    rng = random.Random(SEED)
    per_shard = [[] for _ in SHARDS]
    for shard, name, dtype, shape, kind in tensors():
        count = 1
        for n in shape:
            count *= n
        per_shard[shard].append((name, dtype, shape, encode(dtype, values(rng, kind, count))))

    total, weight_map = 0, {}
    for file, entries in zip(SHARDS, per_shard):
        blob, size = safetensors(entries)
        write(os.path.join(out, file), blob)
        total += size
        weight_map.update({name: file for name, _, _, _ in entries})

    index = {"metadata": {"total_size": total}, "weight_map": dict(sorted(weight_map.items()))}
    write(os.path.join(out, "config.json"), (json.dumps(CONFIG, indent=2) + "\n").encode())
    write(os.path.join(out, "model.safetensors.index.json"), (json.dumps(index, indent=2) + "\n").encode())
    text = json.dumps(tokenizer(), indent=1, ensure_ascii=False) + "\n"
    write(os.path.join(out, "tokenizer.json"), text.encode("utf-8"))


if __name__ == "__main__":
    main(sys.argv[1:])
