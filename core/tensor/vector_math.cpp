#include "tensor/vector_math.hpp"

namespace attention {
namespace {

template <int W>
ATTENTION_INLINE void exp_kernel(const float* x, float* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + W <= n; i += W) store<W>(y + i, exp_lanes<W>(load<W>(x + i)));
  if (i == n) return;
  float rest[W] = {};  // the last few lanes, zero-padded
  for (std::size_t k = i; k < n; ++k) rest[k - i] = x[k];
  store<W>(rest, exp_lanes<W>(load<W>(rest)));
  for (std::size_t k = i; k < n; ++k) y[k] = rest[k - i];
}

ATTENTION_SIMD_DISPATCH(exp_widest, exp_kernel, (const float* x, float* y, std::size_t n), (x, y, n))

}  // namespace

void exp_each(const float* x, float* y, std::size_t n) { exp_widest(x, y, n); }

float exp_one(float x) { return exp_lanes<4>(splat<4>(x))[0]; }

}  // namespace attention
