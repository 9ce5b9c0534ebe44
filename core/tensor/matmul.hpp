// The three products attention needs, batched over the leading axis, and a
// plain one: each a gemm() (gemm.hpp), so each sum is in order over the
// inner index, PyTorch's float32 `@` bit for bit.
#pragma once

#include "tensor/tensor.hpp"

namespace attention {

// x @ W: (B, T, C) @ (C, d) -> (B, T, d)
tensor3 project(const tensor3& x, const tensor2& w);

// x @ Wᵀ: (B, T, C) @ (d, C)ᵀ -> (B, T, d), W stored [out, in] as nn.Linear
// and a model file's tied wte keep it: read in place, never copied whole.
tensor3 project_transposed(const tensor3& x, const tensor2& w);

// q @ kᵀ: (B, Tq, d) @ (B, Tkv, d)ᵀ -> (B, Tq, Tkv)
tensor3 scores_of(const tensor3& q, const tensor3& k);

// weights @ v: (B, Tq, Tkv) @ (B, Tkv, d_v) -> (B, Tq, d_v)
tensor3 weighted_sum(const tensor3& weights, const tensor3& v);

// The same two under a causal mask (Tq = Tkv): scores on and below the
// diagonal (the cells above it the caller masks: their values are
// unspecified), and weights that are exactly 0 above it, whose terms are
// left out (gemm.hpp's causal_part: the same bits, about half the work).
tensor3 causal_scores_of(const tensor3& q, const tensor3& k);
tensor3 causal_weighted_sum(const tensor3& weights, const tensor3& v);

// a @ b for plain matrices: (n, k) @ (k, m) -> (n, m)
tensor2 matmul(const tensor2& a, const tensor2& b);

}  // namespace attention
