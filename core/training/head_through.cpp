#include "training/head_through.hpp"

#include <vector>

#include "tensor/simd.hpp"

namespace attention {
namespace {

// The three weights transposed, (hs, d) each, so that W neighbouring
// columns of d_read are one vector load at each step of the sums.
struct transposed_weights {
  std::vector<float> q, k, v;
  transposed_weights(const head_gradients_in& in, std::size_t d, std::size_t hs) : q(hs * d), k(hs * d), v(hs * d) {
    for (std::size_t c = 0; c < d; ++c)
      for (std::size_t p = 0; p < hs; ++p) {
        q[p * d + c] = in.w_q[c * hs + p];
        k[p * d + c] = in.w_k[c * hs + p];
        v[p * d + c] = in.w_v[c * hs + p];
      }
  }
};

// One output, as the vectors compute each lane: three sums from +0, each a
// multiply then an add per step.
ATTENTION_INLINE float one_through(const head_gradients_in& in, const transposed_weights& t, std::size_t r,
                                   std::size_t c, std::size_t d, std::size_t hs) {
  float q = 0.0f, k = 0.0f, v = 0.0f;
  for (std::size_t p = 0; p < hs; ++p) {
    const float pq = in.d_q[r * in.stride + p] * t.q[p * d + c];
    const float pk = in.d_k[r * in.stride + p] * t.k[p * d + c];
    const float pv = in.d_v[r * in.stride + p] * t.v[p * d + c];
    q = q + pq;
    k = k + pk;
    v = v + pv;
  }
  return (q + k) + v;
}

// MR rows × NV vectors of columns, three sums each, in registers.
template <int W, int MR, int NV>
ATTENTION_INLINE void tile(const head_gradients_in& in, const transposed_weights& t, std::size_t r0, std::size_t c0,
                           std::size_t d, std::size_t hs, float* d_read) {
  vec<W> q[MR][NV] = {}, k[MR][NV] = {}, v[MR][NV] = {};
  for (std::size_t p = 0; p < hs; ++p) {
    vec<W> wq[NV], wk[NV], wv[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      wq[j] = load<W>(t.q.data() + p * d + c0 + j * W);
      wk[j] = load<W>(t.k.data() + p * d + c0 + j * W);
      wv[j] = load<W>(t.v.data() + p * d + c0 + j * W);
    }
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const std::size_t at = (r0 + i) * in.stride + p;
      const float aq = in.d_q[at], ak = in.d_k[at], av = in.d_v[at];
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        q[i][j] = q[i][j] + aq * wq[j];
        k[i][j] = k[i][j] + ak * wk[j];
        v[i][j] = v[i][j] + av * wv[j];
      }
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      float* out = d_read + (r0 + i) * d + c0 + j * W;
      store<W>(out, load<W>(out) + ((q[i][j] + k[i][j]) + v[i][j]));
    }
}

// 4 rows × 2 vectors (24 sums of AVX-512's 32 registers), 2 × 1 at AVX2's
// and SSE's or SIMD128's 16.
template <int W>
ATTENTION_INLINE void through_kernel(const head_gradients_in& in, std::size_t n, std::size_t d, std::size_t hs,
                                     float* d_read) {
  constexpr int MR = W == 16 ? 4 : 2, NV = W == 16 ? 2 : 1;
  constexpr std::size_t cols = NV * W;
  const transposed_weights t(in, d, hs);
  const std::size_t whole_rows = n / MR * MR, whole_cols = d / cols * cols;
  for (std::size_t r0 = 0; r0 < whole_rows; r0 += MR)
    for (std::size_t c0 = 0; c0 < whole_cols; c0 += cols) tile<W, MR, NV>(in, t, r0, c0, d, hs, d_read);
  // the last columns and rows, one output at a time
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = r < whole_rows ? whole_cols : 0; c < d; ++c) d_read[r * d + c] += one_through(in, t, r, c, d, hs);
}

ATTENTION_SIMD_DISPATCH(through_widest, through_kernel,
                        (const head_gradients_in& in, std::size_t n, std::size_t d, std::size_t hs, float* d_read),
                        (in, n, d, hs, d_read))

}  // namespace

void add_through_head(const head_gradients_in& in, std::size_t n, std::size_t d, std::size_t hs, float* d_read) {
  through_widest(in, n, d, hs, d_read);
}

}  // namespace attention
