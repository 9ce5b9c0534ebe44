#!/usr/bin/python3
"""`make bench`: PyTorch one thread on a model file's GPT forward (gpt_file.py's
reader and forward, as a PyTorch user writes it) over T tokens; JSON on stdout.

    /usr/bin/python3 tests/bench/bench_torch_model.py MODEL.safetensors [T] [RUNS]
"""
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpt_file  # noqa: E402  (beside this file)


def main(argv):
    path = argv[0]
    T = int(argv[1]) if len(argv) > 1 else 128
    runs = int(argv[2]) if len(argv) > 2 else 5
    torch.set_num_threads(1)
    start = time.perf_counter()
    model = gpt_file.read(path)
    load_ms = (time.perf_counter() - start) * 1000
    tokens = [(t * 7919 + 13) % model.V for t in range(T)]
    with torch.no_grad():
        gpt_file.forward(model, tokens)  # warm
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            gpt_file.forward(model, tokens)
            times.append((time.perf_counter() - start) * 1000)
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "load_ms": load_ms,
                      "forward_ms": times}))


if __name__ == "__main__":
    main(sys.argv[1:])
