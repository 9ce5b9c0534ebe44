#include "tensor/matmul.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace attention {
namespace {

// c (n, m) = a (n, k) @ b (k, m), row-major. The i-p-j order streams rows of
// b and c, which vectorizes without reassociating any sum.
void gemm(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m) {
  if (m < 4) {
    // Narrow outputs (a head_size of 1 over a wide x): the i-p-j loop would
    // spend its time starting rows of length m. The same sums, each in the
    // same order over p, as a dot product per cell.
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        const float* a_row = a + i * k;
        float sum = 0.0f;
        for (std::size_t p = 0; p < k; ++p) sum += a_row[p] * b[p * m + j];
        c[i * m + j] = sum;
      }
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    float* c_row = c + i * m;
    for (std::size_t j = 0; j < m; ++j) c_row[j] = 0.0f;
    for (std::size_t p = 0; p < k; ++p) {
      const float a_ip = a[i * k + p];
      const float* b_row = b + p * m;
      for (std::size_t j = 0; j < m; ++j) c_row[j] += a_ip * b_row[j];
    }
  }
}

}  // namespace

tensor3 project(const tensor3& x, const tensor2& w) {
  const std::size_t B = x.shape(0), T = x.shape(1), C = x.shape(2), d = w.shape(1);
  tensor3 out({B, T, d});
  // (B·T, C) @ (C, d): the batch folds into the rows
  gemm(x.data(), w.data(), out.data(), B * T, C, d);
  return out;
}

tensor3 project_transposed(const tensor3& x, const tensor2& w) {
  const std::size_t B = x.shape(0), T = x.shape(1), C = x.shape(2), d = w.shape(0), rows = B * T;
  tensor3 out({B, T, d});
  // A panel of Wᵀ at a time, (C, 64): the same in-order sums as project's,
  // with the 154 MB of a tied GPT-2 wte never transposed whole.
  constexpr std::size_t panel = 64;
  std::vector<float> w_t(C * panel), block(rows * panel);
  for (std::size_t j0 = 0; j0 < d; j0 += panel) {
    const std::size_t n = std::min(panel, d - j0);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t c = 0; c < C; ++c) w_t[c * n + j] = w(j0 + j, c);
    gemm(x.data(), w_t.data(), block.data(), rows, C, n);  // (rows, n)
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t j = 0; j < n; ++j) out.data()[r * d + j0 + j] = block[r * n + j];
  }
  return out;
}

tensor3 scores_of(const tensor3& q, const tensor3& k) {
  const std::size_t B = q.shape(0), Tq = q.shape(1), d = q.shape(2), Tkv = k.shape(1);
  tensor3 out({B, Tq, Tkv});
  std::vector<float> k_t(d * Tkv);  // (d, Tkv): kᵀ of one batch element
  for (std::size_t b = 0; b < B; ++b) {
    const float* k_b = k.data() + b * Tkv * d;
    for (std::size_t t = 0; t < Tkv; ++t)
      for (std::size_t c = 0; c < d; ++c) k_t[c * Tkv + t] = k_b[t * d + c];
    gemm(q.data() + b * Tq * d, k_t.data(), out.data() + b * Tq * Tkv, Tq, d, Tkv);
  }
  return out;
}

tensor3 weighted_sum(const tensor3& weights, const tensor3& v) {
  const std::size_t B = weights.shape(0), Tq = weights.shape(1), Tkv = weights.shape(2),
                    dv = v.shape(2);
  tensor3 out({B, Tq, dv});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t i = 0; i < Tq; ++i) {
      const float* w = weights.data() + (b * Tq + i) * Tkv;
      float* o = out.data() + (b * Tq + i) * dv;
      for (std::size_t c = 0; c < dv; ++c) o[c] = 0.0f;
      for (std::size_t j = 0; j < Tkv; ++j) {
        if (w[j] == 0.0f) continue;  // a masked position adds nothing: half the work under a causal mask
        const float* v_j = v.data() + (b * Tkv + j) * dv;
        for (std::size_t c = 0; c < dv; ++c) o[c] += w[j] * v_j[c];
      }
    }
  return out;
}

tensor2 matmul(const tensor2& a, const tensor2& b) {
  tensor2 out({a.shape(0), b.shape(1)});
  gemm(a.data(), b.data(), out.data(), a.shape(0), a.shape(1), b.shape(1));
  return out;
}

}  // namespace attention
