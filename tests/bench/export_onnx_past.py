#!/usr/bin/python3
"""`make bench`'s peer for cached generation: a GPT model file (gpt_file.py's reader, the very
same weights) exported as ONNX with torch.onnx.export, one step of generation with a key/value
cache, as a PyTorch user exports GPT-2 for ONNX Runtime (past keys and values in, presents out).

    /usr/bin/python3 tests/bench/export_onnx_past.py MODEL.safetensors OUT.onnx

Inputs: `tokens` (int64 [S]), `positions` (int64 [S]: their places in the text, P … P+S−1),
`past_keys` and `past_values` (float32 [L, H, P, hs]; P may be 0). Outputs: `logits` ([1, V]:
after the last of the S tokens, what the next draw reads), `present_keys` and `present_values`
([L, H, P+S, hs]). A 128-token prompt is one step with P = 0, each new token one with S = 1.
The layers are export_onnx.Forward's (LayerNormalization, GELU in its tanh form, the tied
unembedding stored once); query i sees the cache's keys 0 … P+i.
"""
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_onnx  # noqa: E402  (beside this file)
import gpt_file  # noqa: E402


class Step(export_onnx.Forward):
    def __init__(self, m):
        super().__init__(m, m.wpe.shape[0])                   # every position's row of wpe

    def forward(self, tokens, positions, past_keys, past_values):  # [S], [S], [L, H, P, hs] twice
        S, d, H = tokens.shape[0], self.d, self.H
        hs = d // H
        P = past_keys.shape[2]
        h = self.wte[tokens] + self.wpe[positions]                 # [S, d]
        seen = torch.arange(P + S).unsqueeze(0) <= (torch.arange(S) + P).unsqueeze(1)  # [S, P+S]
        keys, values = [], []
        for i, b in enumerate(self.blocks):
            g = lambda name: getattr(b, name, None)  # noqa: E731
            a = self.norm(h, g("ln_1_weight"), g("ln_1_bias"))
            qkv = F.linear(a, b.attn_c_attn_weight, g("attn_c_attn_bias"))                # [S, 3d]
            q, k, v = (x.reshape(S, H, hs).transpose(0, 1) for x in qkv.split(d, dim=-1))  # [H, S, hs]
            k = torch.cat([past_keys[i], k], dim=1)                                        # [H, P+S, hs]
            v = torch.cat([past_values[i], v], dim=1)
            keys.append(k)
            values.append(v)
            w = q @ k.transpose(1, 2) * hs ** -0.5                                         # [H, S, P+S]
            w = F.softmax(w.masked_fill(~seen, float("-inf")), dim=-1)
            out = (w @ v).transpose(0, 1).reshape(S, d)                                    # [S, d]
            h = h + F.linear(out, b.attn_c_proj_weight, g("attn_c_proj_bias"))
            if g("mlp_c_fc_weight") is not None:
                a2 = self.norm(h, g("ln_2_weight"), g("ln_2_bias"))
                hidden = self.act(F.linear(a2, b.mlp_c_fc_weight, g("mlp_c_fc_bias")))     # [S, 4d]
                h = h + F.linear(hidden, b.mlp_c_proj_weight, g("mlp_c_proj_bias"))
        last = h[S - 1:]                                                                   # [1, d]
        if len(self.ln_f) == 2:
            last = self.norm(last, self.ln_f[0], self.ln_f[1])
        logits = F.linear(last, self.wte if self.tied else self.unembed, self.unembed_bias)  # [1, V]
        return logits, torch.stack(keys), torch.stack(values)                               # [L, H, P+S, hs]


def main(argv):
    if len(argv) < 2:
        print("usage: export_onnx_past.py MODEL.safetensors OUT.onnx", file=sys.stderr)
        return 64
    torch.set_num_threads(1)
    start = time.perf_counter()
    m = gpt_file.read(argv[0])
    net = Step(m).eval()
    L, H, hs = m.layers, m.n_head, m.d // m.n_head
    T = 16
    tokens = [(t * 7919 + 13) % m.V for t in range(T + 1)]
    with torch.no_grad():
        # the prompt as one step, then one token: the last logits of the whole forward on T + 1
        empty = torch.zeros(L, H, 0, hs)
        _, keys, values = net(torch.tensor(tokens[:T]), torch.arange(T), empty, empty)
        logits, _, _ = net(torch.tensor(tokens[T:]), torch.tensor([T]), keys, values)
        ref_logits, _ = gpt_file.forward(m, tokens)
        diff = (logits[0] - ref_logits[-1]).abs().max().item()
        if diff > 1e-4:
            print(f"{argv[0]}: the cached step differs from gpt_file.forward by {diff}", file=sys.stderr)
            return 1
        names = ["tokens", "positions", "past_keys", "past_values"]
        torch.onnx.export(net, (torch.tensor(tokens[T:]), torch.tensor([T]), keys, values), argv[1],
                          input_names=names, output_names=["logits", "present_keys", "present_values"],
                          dynamic_axes={"tokens": {0: "S"}, "positions": {0: "S"}, "past_keys": {2: "P"},
                                        "past_values": {2: "P"}, "present_keys": {2: "P+S"},
                                        "present_values": {2: "P+S"}},
                          opset_version=17, do_constant_folding=True)
    print(f"exported {argv[1]} in {time.perf_counter() - start:.1f} s "
          f"(PyTorch {torch.__version__}; a cached step within {diff:.1e} of gpt_file.forward)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
