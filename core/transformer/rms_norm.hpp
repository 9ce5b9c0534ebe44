// RMSNorm over the last axis (the Llama family's, models-v2.md section 2),
// as shared/tools/torch_hf.py computes it in float32:
//   rms(x, w) = w · (x · rsqrt(mean(x²) + eps))
// each step rounded to float32 in that order. No mean is subtracted and
// there is no bias: a norm of the row's size alone.
#pragma once

#include "tensor/tensor.hpp"
#include "transformer/layer_norm.hpp"

namespace attention {

// x (B, T, d); w.weight (1, d) (w.bias unused: RMSNorm has none). The
// pass's rstd holds each row's rsqrt(mean(x²) + eps); its mean stays empty.
norm_pass rms_norm(const tensor3& x, const layer_norm_weights& w, float eps);

}  // namespace attention
