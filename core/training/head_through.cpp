#include "training/head_through.hpp"

#include <vector>

#include "tensor/simd.hpp"

namespace attention {
namespace {

// The three weights transposed, (hs, width) each, width d rounded up to
// whole tiles with zero columns, so that a tile's W neighbouring columns of
// d_read are one vector load at each step of the sums.
struct transposed_weights {
  std::size_t width;
  std::vector<float> q, k, v;
  transposed_weights(const head_gradients_in& in, std::size_t d, std::size_t width, std::size_t hs)
      : width(width), q(hs * width), k(hs * width), v(hs * width) {
    for (std::size_t c = 0; c < d; ++c)
      for (std::size_t p = 0; p < hs; ++p) {
        q[p * width + c] = in.w_q[c * hs + p];
        k[p * width + c] = in.w_k[c * hs + p];
        v[p * width + c] = in.w_v[c * hs + p];
      }
  }
};

// MR rows × NV vectors of columns from c0, three sums each in registers,
// each from +0 a multiply then an add per step; (q + k) + v added to the
// `cols` columns of d_read that exist (a last tile past d computes zeros
// and adds none of them).
template <int W, int MR, int NV>
ATTENTION_INLINE void tile(const head_gradients_in& in, const transposed_weights& t, std::size_t r0, std::size_t c0,
                           std::size_t cols, std::size_t d, std::size_t hs, float* d_read) {
  vec<W> q[MR][NV] = {}, k[MR][NV] = {}, v[MR][NV] = {};
  for (std::size_t p = 0; p < hs; ++p) {
    vec<W> wq[NV], wk[NV], wv[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      wq[j] = load<W>(t.q.data() + p * t.width + c0 + j * W);
      wk[j] = load<W>(t.k.data() + p * t.width + c0 + j * W);
      wv[j] = load<W>(t.v.data() + p * t.width + c0 + j * W);
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
  for (int i = 0; i < MR; ++i) {
    float* out = d_read + (r0 + i) * d + c0;
    if (cols == NV * W) {
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) store<W>(out + j * W, load<W>(out + j * W) + ((q[i][j] + k[i][j]) + v[i][j]));
      continue;
    }
    for (std::size_t c = 0; c < cols; ++c) {
      const std::size_t j = c / W, l = c % W;
      out[c] += (q[i][j][l] + k[i][j][l]) + v[i][j][l];
    }
  }
}

// Tiles of MR rows × NV vectors: 4 × 2 (24 sums of AVX-512's 32 registers;
// one vector wide when d is 16 or less), 2 × 1 at AVX2's and SSE's or
// SIMD128's 16; the last rows one at a time.
template <int W, int MR, int NV>
ATTENTION_INLINE void tiles(const head_gradients_in& in, std::size_t n, std::size_t d, std::size_t hs, float* d_read) {
  constexpr std::size_t cols = NV * W;
  const transposed_weights t(in, d, (d + cols - 1) / cols * cols, hs);
  std::size_t r0 = 0;
  for (; r0 + MR <= n; r0 += MR)
    for (std::size_t c0 = 0; c0 < d; c0 += cols) tile<W, MR, NV>(in, t, r0, c0, d - c0 < cols ? d - c0 : cols, d, hs, d_read);
  for (; r0 < n; ++r0)
    for (std::size_t c0 = 0; c0 < d; c0 += cols) tile<W, 1, NV>(in, t, r0, c0, d - c0 < cols ? d - c0 : cols, d, hs, d_read);
}

template <int W>
ATTENTION_INLINE void through_kernel(const head_gradients_in& in, std::size_t n, std::size_t d, std::size_t hs,
                                     float* d_read) {
  if constexpr (W == 16) {
    if (d <= 16) return tiles<16, 4, 1>(in, n, d, hs, d_read);
    tiles<16, 4, 2>(in, n, d, hs, d_read);
  } else {
    tiles<W, 2, 1>(in, n, d, hs, d_read);
  }
}

ATTENTION_SIMD_DISPATCH(through_widest, through_kernel,
                        (const head_gradients_in& in, std::size_t n, std::size_t d, std::size_t hs, float* d_read),
                        (in, n, d, hs, d_read))

}  // namespace

void add_through_head(const head_gradients_in& in, std::size_t n, std::size_t d, std::size_t hs, float* d_read) {
  through_widest(in, n, d, hs, d_read);
}

}  // namespace attention
