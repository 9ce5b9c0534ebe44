#!/usr/bin/python3
"""scripts/export-nanogpt.py on checkpoints this test makes with torch: a small
GPT written as nanoGPT's model.py writes it (the same module names, its
LayerNorm with an optional bias, its tied lm_head, its causal mask buffer),
saved as nanoGPT's train.py saves it (some keys under torch.compile's
`_orig_mod.`), with a character meta.pkl. The core opens the exported file and
its model trace matches this module's own forward: attention within 1e-4,
logits within 1e-4 + 1e-4·|x|, the loss within 1e-5. The checkpoints hold what
train.py's do (the AdamW state, the config, iter_num, best_val_loss as a
tensor), in the zip format and the legacy one. Bad checkpoints get one line
and exit 2; a checkpoint or meta.pkl whose unpickling would run code (a
__reduce__, in either format; a TorchScript archive's __setstate__) is
refused in one line and the marker file that code would create never appears.

    /usr/bin/python3 tests/scripts/test_export_nanogpt.py build/native/attention-cli
"""
import json
import math
import os
import pickle
import subprocess
import sys
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
EXPORT = os.path.join(ROOT, "scripts", "export-nanogpt.py")


# ---- nanoGPT's model.py, as it names and computes things (no dropout) ------------

class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, x):
        return F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-5)


class CausalSelfAttention(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.c_attn = nn.Linear(a["n_embd"], 3 * a["n_embd"], bias=a["bias"])
        self.c_proj = nn.Linear(a["n_embd"], a["n_embd"], bias=a["bias"])
        self.n_head, self.n_embd = a["n_head"], a["n_embd"]
        T = a["block_size"]
        self.register_buffer("bias", torch.tril(torch.ones(T, T)).view(1, 1, T, T))

    def forward(self, x, record):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        record.append(att[0])
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.c_fc = nn.Linear(a["n_embd"], 4 * a["n_embd"], bias=a["bias"])
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * a["n_embd"], a["n_embd"], bias=a["bias"])

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.ln_1 = LayerNorm(a["n_embd"], a["bias"])
        self.attn = CausalSelfAttention(a)
        self.ln_2 = LayerNorm(a["n_embd"], a["bias"])
        self.mlp = MLP(a)

    def forward(self, x, record):
        x = x + self.attn(self.ln_1(x), record)
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(a["vocab_size"], a["n_embd"]),
            wpe=nn.Embedding(a["block_size"], a["n_embd"]),
            h=nn.ModuleList([Block(a) for _ in range(a["n_layer"])]),
            ln_f=LayerNorm(a["n_embd"], a["bias"])))
        self.lm_head = nn.Linear(a["n_embd"], a["vocab_size"], bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # nanoGPT's weight tying
        for p in self.parameters():                       # weights off their init: LayerNorms too
            with torch.no_grad():
                p.add_(torch.randn(p.shape) * 0.2)

    def forward(self, idx):
        record = []
        T = idx.size(1)
        x = self.transformer.wte(idx) + self.transformer.wpe(torch.arange(T))
        for block in self.transformer.h:
            x = block(x, record)
        return self.lm_head(self.transformer.ln_f(x)), torch.stack(record)


# ---- the test --------------------------------------------------------------------

failures = []


def check(condition, what):
    print(("ok: " if condition else "FAIL: ") + what)
    if not condition:
        failures.append(what)


def run(*args):
    return subprocess.run([*args], capture_output=True, text=True)


def nanogpt_checkpoint(model, state, a):
    """What nanoGPT's train.py saves: the AdamW state after a step, its
    config (plain values: train.py keeps only int, float, bool and str
    globals), iter_num, and best_val_loss as the tensor estimate_loss gives."""
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95), weight_decay=0.1)
    model.train()
    logits, _ = model(torch.tensor([[0, 1, 2, 3]]))
    logits.sum().backward()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    optimizer.step()
    with torch.no_grad():  # the optimizer's state, the weights as they were (the test compares them)
        for k, v in model.state_dict().items():
            v.copy_(before[k])
    model.eval()
    config = {"out_dir": "out", "eval_interval": 250, "always_save_checkpoint": False, "init_from": "scratch",
              "dataset": "shakespeare_char", "batch_size": 64, "block_size": a["block_size"], "dropout": 0.0,
              "learning_rate": 1e-3, "beta2": 0.99, "decay_lr": True, "backend": "nccl", "device": "cpu",
              "dtype": "bfloat16", "compile": False}
    return {"model": state, "optimizer": optimizer.state_dict(), "model_args": a, "iter_num": 5000,
            "best_val_loss": torch.tensor(1.4697), "config": config}


def export_and_compare(cli, tmp, bias, compiled):
    torch.manual_seed(1 if bias else 2)
    chars = sorted(set("To be, or not to be: that is the question.\n"))
    a = {"n_layer": 2, "n_head": 4, "n_embd": 32, "block_size": 24, "bias": bias, "vocab_size": len(chars),
         "dropout": 0.0}
    model = GPT(a).eval()
    state = model.state_dict()
    if compiled:  # torch.compile saves every key under _orig_mod.
        state = {"_orig_mod." + k: v for k, v in state.items()}
    else:         # some keys only, to be sure each is stripped on its own
        state = {("_orig_mod." + k if i % 3 == 0 else k): v for i, (k, v) in enumerate(state.items())}
    ckpt, meta, out = (os.path.join(tmp, f) for f in ("ckpt.pt", "meta.pkl", "model.safetensors"))
    # the zip format (torch ≥ 1.6's default) and the legacy one
    torch.save(nanogpt_checkpoint(model, state, a), ckpt, _use_new_zipfile_serialization=bias)
    with open(meta, "wb") as f:
        pickle.dump({"vocab_size": len(chars), "itos": dict(enumerate(chars)), "stoi": {c: i for i, c in enumerate(chars)}}, f)
    r = run(sys.executable, EXPORT, ckpt, meta, out)
    label = f"bias={bias}, compiled={compiled}, {'zip' if bias else 'legacy'} format"
    check(r.returncode == 0 and r.stderr == "", f"{label}: export exits 0 quietly ({r.stderr.strip()})")
    header = json.loads(open(out, "rb").read()[8:8 + int.from_bytes(open(out, "rb").read(8), "little")])
    names = [k for k in header if k != "__metadata__"]
    check(not any(k.startswith("_orig_mod.") for k in names), f"{label}: no _orig_mod. prefix left")
    check("lm_head.weight" not in names and "transformer.wte.weight" in names, f"{label}: the tied lm_head written once")
    check(not any(k.endswith(".attn.bias") for k in names), f"{label}: no causal mask buffer")
    check(header["__metadata__"]["n_head"] == "4" and header["__metadata__"]["activation"] == "gelu",
          f"{label}: n_head and activation in the metadata")
    check(json.loads(header["__metadata__"]["vocab"]) == chars, f"{label}: the vocabulary from meta.pkl")
    text = "To be, or not to be: th"  # 23 characters, block_size 24
    r = run(cli, "model", out, "--text", text)
    check(r.returncode == 0, f"{label}: the core opens it ({r.stderr.strip()})")
    if r.returncode != 0:
        return
    trace = json.loads(r.stdout)
    ids = [chars.index(c) for c in text]
    with torch.no_grad():
        logits, attention = model(torch.tensor([ids]))
        loss = F.cross_entropy(logits[0, :-1], torch.tensor(ids[1:])).item()
    check(trace["tokens"] == ids, f"{label}: --text tokenized by the vocabulary")
    parameters = sum(p.numel() for p in model.parameters())  # tied: once
    check(trace["config"]["parameters"] == parameters, f"{label}: parameters {trace['config']['parameters']} = {parameters}")
    got = torch.tensor(trace["attention"]["data"]).view(*trace["attention"]["shape"])
    worst = (got - attention).abs().max().item()
    check(list(got.shape) == list(attention.shape) and worst <= 1e-4, f"{label}: attention within 1e-4 ({worst:.2e})")
    want = logits[0, -1]
    have = torch.tensor(trace["last"]["logits"]["data"])
    check(bool(((have - want).abs() <= 1e-4 + 1e-4 * want.abs()).all()), f"{label}: last logits within 1e-4 + 1e-4·|x|")
    check(abs(trace["loss"] - loss) <= 1e-5, f"{label}: loss {trace['loss']} within 1e-5 of {loss}")
    top = torch.softmax(want, -1).argsort(descending=True)[:3].tolist()
    check([i for i, _ in trace["last"]["top"][:3]] == top, f"{label}: the most probable next tokens")


class Marker:
    """Unpickled, it would create the file `path`: what a hostile pickle's code could do."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def torchscript_archive(path, marker):
    """A TorchScript archive whose __setstate__ writes `marker` when loaded:
    torch.load hands such a zip to torch.jit.load, weights_only or not."""
    source = f"""
import torch
class Module(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.x = torch.zeros(1)
    @torch.jit.export
    def __getstate__(self):
        return (self.x, self.training)
    @torch.jit.export
    def __setstate__(self, state: tuple[torch.Tensor, bool]):
        self.x = state[0]
        self.training = state[1]
        torch.save(self.x, {marker!r})
torch.jit.script(Module()).save({path!r})
"""
    script = path + ".py"   # torch.jit.script reads the class's source from a file
    with open(script, "w") as f:
        f.write(source)
    r = run(sys.executable, script)
    assert r.returncode == 0 and not os.path.exists(marker), r.stderr


def hostile_files(tmp):
    """Checkpoints and meta.pkl files whose unpickling would run code."""
    out = os.path.join(tmp, "hostile.safetensors")
    a = {"n_layer": 1, "n_head": 1, "n_embd": 4, "block_size": 4, "bias": False, "vocab_size": 3, "dropout": 0.0}
    state = {"transformer.wte.weight": torch.zeros(3, 4), "transformer.wpe.weight": torch.zeros(4, 4)}
    for name, zipped, make in (
            ("a __reduce__ in the config, zip format", True, lambda m: {"model": state, "model_args": a, "config": {"x": Marker(m)}}),
            ("a __reduce__ at the top, legacy format", False, lambda m: Marker(m)),
            ("a __reduce__ in model_args, legacy format", False, lambda m: {"model": state, "model_args": {**a, "n_head": Marker(m)}})):
        ckpt, marker = os.path.join(tmp, "evil.pt"), os.path.join(tmp, "marker")
        torch.save(make(marker), ckpt, _use_new_zipfile_serialization=zipped)
        r = run(sys.executable, EXPORT, ckpt, out)
        check(not os.path.exists(marker), f"{name}: nothing runs (no marker file)")
        check(r.returncode == 2 and r.stderr == f'{ckpt}: cannot read (it asks for "io.open"; only tensors and '
              "plain values are read, and nothing in a checkpoint is run)\n", f"{name}: one line ({r.stderr.strip()})")
    # tensors are rebuilt from the file's sizes and strides: a 2⁴⁰-element view of one number, a sparse tensor
    ckpt = os.path.join(tmp, "odd.pt")
    torch.save({"model": {"transformer.wte.weight": torch.zeros(1).expand(1 << 20, 1 << 20)}, "model_args": a}, ckpt)
    r = run(sys.executable, EXPORT, ckpt, out)
    check(r.returncode == 2 and r.stderr == f"{ckpt}: more than 536,870,912 parameters (at model.transformer.wte.weight), "
          "the core's limit\n", f"a tensor of 2^40 elements over one number: one line, nothing allocated ({r.stderr.strip()})")
    torch.save({"model": {"transformer.wte.weight": torch.zeros(3, 4).to_sparse()}, "model_args": a}, ckpt)
    r = run(sys.executable, EXPORT, ckpt, out)
    check(r.returncode == 2 and r.stderr.startswith(f'{ckpt}: cannot read (it asks for "torch._utils._rebuild_sparse_tensor"'),
          f"a sparse tensor: one line ({r.stderr.strip()})")
    ckpt, marker = os.path.join(tmp, "script.pt"), os.path.join(tmp, "script-marker")
    torchscript_archive(ckpt, marker)
    r = run(sys.executable, EXPORT, ckpt, out)
    check(not os.path.exists(marker), "a TorchScript archive: its __setstate__ never runs (no marker file)")
    check(r.returncode == 2 and r.stderr == f"{ckpt}: cannot read (a TorchScript archive, which holds code; "
          "a checkpoint holds tensors and plain values)\n", f"a TorchScript archive: one line ({r.stderr.strip()})")
    # meta.pkl: a __reduce__ where the vocabulary would be, and plain data of other kinds
    good = os.path.join(tmp, "ckpt.pt")
    meta, marker = os.path.join(tmp, "hostile", "meta.pkl"), os.path.join(tmp, "meta-marker")
    os.makedirs(os.path.dirname(meta), exist_ok=True)
    with open(meta, "wb") as f:
        pickle.dump({"vocab_size": 3, "itos": Marker(marker), "stoi": {}}, f)
    r = run(sys.executable, EXPORT, good, meta, out)
    check(not os.path.exists(marker), "a meta.pkl with a __reduce__: nothing runs (no marker file)")
    check(r.returncode == 2 and r.stderr == f"{meta}: cannot read (names a class or a function; "
          "only plain dicts, lists, strings and numbers are read)\n", f"a hostile meta.pkl: one line ({r.stderr.strip()})")
    with open(meta, "wb") as f:
        pickle.dump({"itos": {0: ("a",)}}, f)
    r = run(sys.executable, EXPORT, good, meta, out)
    check(r.returncode == 2 and r.stderr == f"{meta}: holds a tuple; only plain dicts, lists, strings and numbers are read\n",
          f"a meta.pkl holding a tuple: one line ({r.stderr.strip()})")


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "native", "attention-cli")
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        export_and_compare(cli, tmp, bias=True, compiled=False)
        export_and_compare(cli, tmp, bias=False, compiled=True)
        # bad input: one line, exit 2; wrong arguments 64
        bad = os.path.join(tmp, "bad.pt")
        torch.save({"weights": {}}, bad)
        r = run(sys.executable, EXPORT, bad, os.path.join(tmp, "x.safetensors"))
        check(r.returncode == 2 and r.stderr == f"{bad}: not a nanoGPT checkpoint (needs 'model' and 'model_args')\n",
              f"a foreign checkpoint is one line ({r.stderr.strip()})")
        with open(bad, "wb") as f:
            f.write(b"not a checkpoint")
        r = run(sys.executable, EXPORT, bad, os.path.join(tmp, "x.safetensors"))
        check(r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith(f"{bad}: cannot read"),
              f"an unreadable checkpoint is one line ({r.stderr.strip()})")
        r = run(sys.executable, EXPORT, os.path.join(tmp, "ckpt.pt"), os.path.join(tmp, "meta.pkl"),
                "/nonexistent/out.safetensors")
        check(r.returncode == 2 and r.stderr.count("\n") == 1, f"an unwritable output is one line ({r.stderr.strip()})")
        with open(os.path.join(tmp, "short.pkl"), "wb") as f:
            pickle.dump({"itos": {0: "a"}}, f)
        r = run(sys.executable, EXPORT, os.path.join(tmp, "ckpt.pt"), os.path.join(tmp, "short.pkl"),
                os.path.join(tmp, "x.safetensors"))
        check(r.returncode == 2 and "1 characters, but the model's vocab_size is" in r.stderr,
              f"a meta.pkl of another vocabulary is refused ({r.stderr.strip()})")
        check(run(sys.executable, EXPORT).returncode == 64, "no arguments exit 64")
        hostile_files(tmp)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
