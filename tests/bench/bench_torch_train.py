#!/usr/bin/python3
"""`make bench`: PyTorch's milliseconds per training step on the training
files, one thread. A step is what the core's step does: draw a batch,
forward, cross-entropy, zero_grad, backward, AdamW.step, on the model the
file describes (the lecture's heads, written as a PyTorch user writes them).

Only the work is compared, not the numbers: a batch is random tokens of the
task's shape, since a step's cost does not depend on which tokens it sees.
9 runs of 20 steps after 5 to warm up: the best run and the median. JSON on
standard output.

    /usr/bin/python3 tests/bench/bench_torch_train.py web/trainings/*.json
"""
import json
import os
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

IGNORE = -100  # F.cross_entropy's ignore_index: positions with no target
ACTIVATIONS = {"relu": F.relu, "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh")}


def task_shape(task, folder):
    """(vocabulary size, context length) of a training file's task."""
    name = task["name"]
    if name == "text":
        if "text" in task:
            text = task["text"]
        else:
            with open(os.path.join(folder, task["corpus"]), encoding="utf-8", newline="") as f:
                text = f.read()
        return len(set(text)), task["length"]
    if name in ("reverse", "sort"):  # the half, a separator token, the half again, less the last
        return task["tokens"] + 1, 2 * task["half"]
    return task["tokens"], task["length"]  # previous, induction


def random_batch(B, V, T):
    """x, y [B, T]: tokens, and the next ones as targets (the first ignored)."""
    x = torch.randint(0, V, (B, T))
    y = torch.roll(x, -1, dims=1)
    y[:, -1] = IGNORE
    return x, y


class Head(nn.Module):
    def __init__(self, embed, head_size, bias):
        super().__init__()
        self.key = nn.Linear(embed, head_size, bias=False)
        self.query = nn.Linear(embed, head_size, bias=bias)
        self.value = nn.Linear(embed, head_size, bias=bias)

    def forward(self, x, causal):                                  # x [B, T, d]
        q, k, v = self.query(x), self.key(x), self.value(x)         # [B, T, hs]
        scores = q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5       # [B, T, T]
        weights = scores.masked_fill(~causal, float("-inf")).softmax(dim=-1)
        return weights @ v                                          # [B, T, hs]


class Block(nn.Module):
    def __init__(self, embed, heads, mlp, norm, bias, activation):
        super().__init__()
        self.heads = nn.ModuleList(Head(embed, embed // heads, bias) for _ in range(heads))
        self.proj = nn.Linear(embed, embed, bias=bias)
        self.ln1 = nn.LayerNorm(embed) if norm else nn.Identity()
        self.ln2 = nn.LayerNorm(embed) if norm else nn.Identity()
        self.mlp = mlp
        if mlp:
            self.fc = nn.Linear(embed, mlp * embed, bias=bias)
            self.fc2 = nn.Linear(mlp * embed, embed, bias=bias)
        self.act = ACTIVATIONS[activation]

    def forward(self, x, causal):
        a = self.ln1(x)
        x = x + self.proj(torch.cat([head(a, causal) for head in self.heads], dim=-1))
        if self.mlp:
            x = x + self.fc2(self.act(self.fc(self.ln2(x))))
        return x


class GPT(nn.Module):
    def __init__(self, V, T, m):
        super().__init__()
        embed = m["embed"]
        self.tokens = nn.Embedding(V, embed)
        self.positions = nn.Embedding(T, embed)
        self.blocks = nn.ModuleList(
            Block(embed, m.get("heads", 1), m.get("mlp", 0), m.get("norm", False), m.get("bias", False),
                  m.get("activation", "relu")) for _ in range(m.get("layers", 1)))
        self.ln_f = nn.LayerNorm(embed) if m.get("norm", False) else nn.Identity()
        self.unembed = nn.Linear(embed, V, bias=m.get("bias", False))
        self.register_buffer("causal", torch.ones(T, T, dtype=torch.bool).tril())

    def forward(self, x):                                           # x [B, T]
        h = self.tokens(x) + self.positions(torch.arange(x.shape[1]))  # [B, T, d]
        for block in self.blocks:
            h = block(h, self.causal)
        return self.unembed(self.ln_f(h))                           # [B, T, V]


def ms_per_step(spec, folder):
    V, T = task_shape(spec["task"], folder)
    train = spec.get("train", {})
    torch.manual_seed(spec["seed"])
    model = GPT(V, T, spec["model"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=train.get("lr", 1e-3), weight_decay=train.get("weight_decay", 0.01))
    B = train.get("batch", 32)

    def step():
        x, y = random_batch(B, V, T)
        loss = F.cross_entropy(model(x).reshape(-1, V), y.reshape(-1), ignore_index=IGNORE)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    for _ in range(5):
        step()
    runs = []
    for _ in range(9):
        start = time.perf_counter()
        for _ in range(20):
            step()
        runs.append((time.perf_counter() - start) * 1000 / 20)
    return min(runs), statistics.median(runs)


def main(paths):
    torch.set_num_threads(1)
    out = []
    for path in paths:
        with open(path) as f:
            spec = json.load(f)
        best, median = ms_per_step(spec, os.path.dirname(os.path.abspath(path)))
        out.append({"id": spec["id"], "ms_per_step": best, "median_ms": median})
    json.dump({"torch": torch.__version__, "training": out}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
