#include "tensor/matmul.hpp"

#include <algorithm>
#include <cstddef>

#include "tensor/gemm.hpp"

namespace attention {

tensor3 project(const tensor3& x, const tensor2& w) {
  const std::size_t B = x.shape(0), T = x.shape(1), C = x.shape(2), d = w.shape(1);
  tensor3 out({B, T, d});
  // (B·T, C) @ (C, d): the batch folds into the rows
  gemm(row_major(x.data(), B * T, C), row_major(w.data(), C, d), out.data(), d);
  return out;
}

tensor3 project_transposed(const tensor3& x, const tensor2& w) {
  const std::size_t B = x.shape(0), T = x.shape(1), C = x.shape(2), d = w.shape(0);
  tensor3 out({B, T, d});
  // (B·T, C) @ Wᵀ (C, d): Wᵀ a view, so a tied GPT-2 wte (154 MB) is never transposed
  gemm(row_major(x.data(), B * T, C), row_major(w.data(), d, C).t(), out.data(), d);
  return out;
}

namespace {

// q @ kᵀ per batch element, one gemm call for all of them; kᵀ read where k lies
tensor3 scores_with(const tensor3& q, const tensor3& k, causal_part part) {
  const std::size_t B = q.shape(0), Tq = q.shape(1), d = q.shape(2), Tkv = k.shape(1);
  tensor3 out({B, Tq, Tkv});
  gemm(row_major(q.data(), Tq, d), row_major(k.data(), Tkv, d).t(), out.data(), Tkv,
       gemm_batch{B, Tq * d, Tkv * d, Tq * Tkv, part});
  return out;
}

// A masked weight is exactly 0 and adds a zero to a sum that is never -0:
// summing it, or not (causal), changes no bit (v is finite: every caller
// checks it or its inputs).
tensor3 weighted_with(const tensor3& weights, const tensor3& v, causal_part part) {
  const std::size_t B = weights.shape(0), Tq = weights.shape(1), Tkv = weights.shape(2), dv = v.shape(2);
  tensor3 out({B, Tq, dv});
  gemm(row_major(weights.data(), Tq, Tkv), row_major(v.data(), Tkv, dv), out.data(), dv,
       gemm_batch{B, Tq * Tkv, Tkv * dv, Tq * dv, part});
  return out;
}

}  // namespace

tensor3 scores_of(const tensor3& q, const tensor3& k) { return scores_with(q, k, causal_part::none); }
tensor3 weighted_sum(const tensor3& weights, const tensor3& v) { return weighted_with(weights, v, causal_part::none); }
tensor3 causal_scores_of(const tensor3& q, const tensor3& k) { return scores_with(q, k, causal_part::lower_c); }
tensor3 causal_weighted_sum(const tensor3& weights, const tensor3& v) {
  return weighted_with(weights, v, causal_part::lower_a);
}

tensor2 matmul(const tensor2& a, const tensor2& b) {
  tensor2 out({a.shape(0), b.shape(1)});
  gemm(row_major(a.data(), a.shape(0), a.shape(1)), row_major(b.data(), b.shape(0), b.shape(1)), out.data(),
       b.shape(1));
  return out;
}

}  // namespace attention
