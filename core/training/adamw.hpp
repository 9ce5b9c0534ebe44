// torch.optim.AdamW as PyTorch 1.13's single-tensor path computes it, in
// float32 with the bias corrections in double as Python computes them:
//   p *= 1 − lr·wd;  m = β1·m + (1 − β1)·g;  v = β2·v + (1 − β2)·g²;
//   p −= lr / (1 − β1ᵗ) · m / (sqrt(v) / sqrt(1 − β2ᵗ) + eps)
#pragma once

#include <cstddef>
#include <vector>

#include "tensor/tensor.hpp"

namespace attention {

struct adamw_settings {
  double lr = 1e-3, weight_decay = 0.01, beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
};

struct adamw_state {
  std::size_t step = 0;
  std::vector<tensor2> m, v;  // exp_avg, exp_avg_sq, one per parameter
};

// One optimizer step over params and their grads (same order and shapes).
void adamw_step(const adamw_settings& s, adamw_state& state, const std::vector<tensor2*>& params,
                const std::vector<const tensor2*>& grads);

}  // namespace attention
