// nn.LayerNorm(d) over the last axis (eps 1e-5, or a model's own: BERT's
// 1e-12), as PyTorch 1.13's CPU kernel
// computes it in float32: y = (x · rstd + (−rstd · mean)) · weight + bias,
// and its backward pass (the kernel's own arrangement of the same gradient).
#pragma once

#include <vector>

#include "tensor/tensor.hpp"

namespace attention {

struct layer_norm_weights {
  tensor2 weight, bias;  // (1, d): ones and zeros at first; empty when the model has no LayerNorm
                        // (a model file's bias may be absent alone: nanoGPT's bias=False)
};

layer_norm_weights layer_norm_init(std::size_t d);

struct norm_pass {
  tensor3 out;                    // (B, T, d)
  std::vector<float> mean, rstd;  // one per row: what the backward pass needs
};

// eps: added to the variance in float32 before its square root; biased:
// β added (spec.biases.norm; nanoGPT's bias=False has a weight only).
norm_pass layer_norm(const tensor3& x, const layer_norm_weights& w, float eps, bool biased);

// d x from d out; adds this batch's d weight and d bias into `grads`.
tensor3 layer_norm_backward(const tensor3& d_out, const tensor3& x, const norm_pass& pass, const layer_norm_weights& w,
                            layer_norm_weights& grads);

}  // namespace attention
