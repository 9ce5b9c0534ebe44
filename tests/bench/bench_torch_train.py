# PyTorch's milliseconds per training step on the same files, one thread:
# draw a batch, forward, cross-entropy, zero_grad, backward, AdamW.step, as
# torch_train.py (the reference, copied beside this file) runs them; 9 runs
# of 20 steps after 5 to warm up: the best run and the median. Prints JSON.
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

import torch_train as ref


def ms_per_step(spec, folder):
    task, m, opts = spec["task"], spec["model"], spec.get("train", {})
    text = ref.Text(task, folder) if task["name"] == "text" else None
    V, T = ref.task_shape(task, text)
    torch.manual_seed(spec["seed"])
    model = ref.Transformer(V, T, m["embed"], m.get("heads", 1), m.get("layers", 1), mlp=m.get("mlp", 0),
                            norm=m.get("norm", False), bias=m.get("bias", False),
                            activation=m.get("activation", "relu"))
    optimizer = torch.optim.AdamW(model.parameters(), lr=opts.get("lr", 1e-3), weight_decay=opts.get("weight_decay", 0.01))
    B = opts.get("batch", 32)

    def step():
        x, y = ref.draw_batch(task, B, text)
        logits, _ = model(x)
        loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1), ignore_index=ref.IGNORE)
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


torch.set_num_threads(1)
out = []
for path in sys.argv[1:]:
    with open(path) as f:
        spec = json.load(f)
    best, median = ms_per_step(spec, os.path.dirname(os.path.abspath(path)))
    out.append({"id": spec["id"], "ms_per_step": best, "median_ms": median})
json.dump({"torch": torch.__version__, "training": out}, sys.stdout)
