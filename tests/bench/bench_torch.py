#!/usr/bin/python3
"""PyTorch's time for the benchmark's computation: x = randn(1, T, C), heads
of nn.Linear(C, C / heads) query, key and value, causal, scaled, every step
kept (q, k, v, scores, scaled, masked, weights, out), as the core records.
One thread, like the core. Prints JSON: {"torch": version, "results": [...]}.

    /usr/bin/python3 bench_torch.py '[[8, 1], [64, 1], …]'   # (T, heads), C = 128
"""
import json
import statistics
import sys
import time

import torch
import torch.nn as nn


def full_trace(x, heads, keep):
    steps = []
    for wq, wk, wv in heads:
        q, k, v = x @ wq, x @ wk, x @ wv
        scores = q @ k.transpose(-2, -1)
        scaled = scores * k.shape[-1] ** -0.5
        masked = scaled.masked_fill(keep == 0, float("-inf"))
        weights = torch.softmax(masked, dim=-1)
        out = weights @ v
        steps.append((q, k, v, scores, scaled, masked, weights, out))
    return torch.cat([s[-1] for s in steps], dim=-1), steps


def main():
    torch.set_num_threads(1)
    sizes = json.loads(sys.argv[1])
    results = []
    C = 128
    with torch.no_grad():
        for T, n_heads in sizes:
            torch.manual_seed(0)
            x = torch.randn(1, T, C)
            d = C // n_heads
            heads = [tuple(nn.Linear(C, d, bias=False).weight.T.contiguous() for _ in range(3)) for _ in range(n_heads)]
            keep = torch.tril(torch.ones(T, T))
            runs = 200 if T <= 64 else 25
            full_trace(x, heads, keep)  # warm up
            ms = []
            for _ in range(runs):
                start = time.perf_counter()
                full_trace(x, heads, keep)
                ms.append((time.perf_counter() - start) * 1000)
            results.append({"B": 1, "T": T, "C": C, "heads": n_heads, "runs": runs,
                            "median_ms": statistics.median(ms), "min_ms": min(ms), "max_ms": max(ms)})
    json.dump({"torch": torch.__version__, "threads": 1, "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
