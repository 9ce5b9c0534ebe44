# PyTorch's milliseconds per training step on the same files, one thread:
# draw a batch, forward, cross-entropy, zero_grad, backward, AdamW.step, as
# torch_train.py (the reference, copied beside this file) runs them; the
# median of 5 runs of 100 steps after 5 to warm up. Prints JSON.
import json
import sys
import time

import torch
import torch.nn.functional as F

import torch_train as ref


def ms_per_step(spec):
    task, m, opts = spec["task"], spec["model"], spec.get("train", {})
    V, T = ref.task_shape(task)
    torch.manual_seed(spec["seed"])
    model = ref.AttentionOnly(V, T, m["embed"], m.get("heads", 1), m.get("layers", 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=opts.get("lr", 1e-3), weight_decay=opts.get("weight_decay", 0.01))
    B = opts.get("batch", 32)

    def step():
        x, y = ref.draw_batch(task, B)
        logits, _ = model(x)
        loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1), ignore_index=ref.IGNORE)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    for _ in range(5):
        step()
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(100):
            step()
        runs.append((time.perf_counter() - start) * 1000 / 100)
    return sorted(runs)[2]


torch.set_num_threads(1)
out = []
for path in sys.argv[1:]:
    with open(path) as f:
        spec = json.load(f)
    out.append({"id": spec["id"], "ms_per_step": ms_per_step(spec)})
json.dump({"torch": torch.__version__, "training": out}, sys.stdout)
