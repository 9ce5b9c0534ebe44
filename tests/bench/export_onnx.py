#!/usr/bin/python3
"""`make bench`'s peer: a GPT model file (gpt_file.py's reader, so the very same weights) exported
as ONNX with torch.onnx.export, for ONNX Runtime Web to run the forward the Model view needs.

    /usr/bin/python3 tests/bench/export_onnx.py MODEL.safetensors OUT.onnx [T]

The graph takes `tokens` (int64 [T], T fixed, 128 by default) and gives `logits` ([T, V]: after
every position, as the core computes them for the guesses after every position) and `attention`
([L, H, T, T]: every head's weights, as the Model view draws them). It is GPT-2's forward as a
PyTorch user writes it (gpt_file.forward, with the heads batched): LayerNormalization (opset 17),
the causal mask as -inf before the softmax, GELU in its tanh form, the tied unembedding read as
wte itself (F.linear on [T, d] exports as Gemm with transB, so the 154 MB matrix is stored once).
torch.onnx.export serializes the graph itself; the `onnx` Python package is not needed.
"""
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpt_file  # noqa: E402  (beside this file)


class Forward(torch.nn.Module):
    def __init__(self, m, T):
        super().__init__()
        self.d, self.H, self.L = m.d, m.n_head, m.layers
        self.act = gpt_file.ACTIVATIONS[m.activation]
        P = torch.nn.Parameter
        self.wte = P(m.wte, requires_grad=False)               # [V, d], also the unembedding when tied
        self.wpe = P(m.wpe[:T].clone(), requires_grad=False)   # [T, d]
        self.tied = m.unembed is m.wte
        self.unembed = None if self.tied else P(m.unembed, requires_grad=False)
        self.unembed_bias = None if m.unembed_bias is None else P(m.unembed_bias, requires_grad=False)
        self.ln_f = torch.nn.ParameterList([P(t, requires_grad=False) for t in m.ln_f if t is not None])
        self.blocks = torch.nn.ModuleList()
        for b in m.blocks:
            block = torch.nn.Module()
            for key, t in b.items():
                block.register_parameter(key.replace(".", "_"), P(t, requires_grad=False))
            self.blocks.append(block)
        self.register_buffer("causal", torch.tril(torch.ones(T, T, dtype=torch.bool)))

    def norm(self, h, weight, bias):
        return F.layer_norm(h, (self.d,), weight, bias, 1e-5)

    def forward(self, tokens):                                  # tokens [T]
        T, d, H = tokens.shape[0], self.d, self.H
        hs = d // H
        h = self.wte[tokens] + self.wpe                          # [T, d]
        attention = []
        for b in self.blocks:
            g = lambda name: getattr(b, name, None)  # noqa: E731
            a = self.norm(h, g("ln_1_weight"), g("ln_1_bias"))
            qkv = F.linear(a, b.attn_c_attn_weight, g("attn_c_attn_bias"))             # [T, 3d]
            q, k, v = (x.reshape(T, H, hs).transpose(0, 1) for x in qkv.split(d, dim=-1))  # [H, T, hs]
            w = q @ k.transpose(1, 2) * hs ** -0.5                                      # [H, T, T]
            w = F.softmax(w.masked_fill(~self.causal, float("-inf")), dim=-1)
            attention.append(w)
            out = (w @ v).transpose(0, 1).reshape(T, d)                                 # [T, d]
            h = h + F.linear(out, b.attn_c_proj_weight, g("attn_c_proj_bias"))
            if g("mlp_c_fc_weight") is not None:
                a2 = self.norm(h, g("ln_2_weight"), g("ln_2_bias"))
                hidden = self.act(F.linear(a2, b.mlp_c_fc_weight, g("mlp_c_fc_bias")))  # [T, 4d]
                h = h + F.linear(hidden, b.mlp_c_proj_weight, g("mlp_c_proj_bias"))
        if len(self.ln_f) == 2:
            h = self.norm(h, self.ln_f[0], self.ln_f[1])
        logits = F.linear(h, self.wte if self.tied else self.unembed, self.unembed_bias)  # [T, V]
        return logits, torch.stack(attention)                                          # [L, H, T, T]


def main(argv):
    if len(argv) < 2:
        print("usage: export_onnx.py MODEL.safetensors OUT.onnx [T]", file=sys.stderr)
        return 64
    torch.set_num_threads(1)
    T = int(argv[2]) if len(argv) > 2 else 128
    start = time.perf_counter()
    m = gpt_file.read(argv[0])
    tokens = [(t * 7919 + 13) % m.V for t in range(T)]
    net = Forward(m, T).eval()
    with torch.no_grad():
        logits, attention = net(torch.tensor(tokens))
        ref_logits, ref_attention = gpt_file.forward(m, tokens)
        # the exported module is the oracle's forward, heads batched: the same numbers
        diff = max((logits - ref_logits).abs().max().item(), (attention - ref_attention).abs().max().item())
        if diff > 1e-4:
            print(f"{argv[0]}: the exported forward differs from gpt_file.forward by {diff}", file=sys.stderr)
            return 1
        torch.onnx.export(net, (torch.tensor(tokens),), argv[1], input_names=["tokens"],
                          output_names=["logits", "attention"], opset_version=17, do_constant_folding=True)
    print(f"exported {argv[1]} in {time.perf_counter() - start:.1f} s "
          f"(PyTorch {torch.__version__}; its forward within {diff:.1e} of gpt_file.forward)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
