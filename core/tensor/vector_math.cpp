#include "tensor/vector_math.hpp"

namespace attention {
namespace {

// y = F::of(x) W lanes at a time, the last few through a zero-padded vector
template <int W, typename F>
ATTENTION_INLINE void each_kernel(const float* x, float* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + W <= n; i += W) store<W>(y + i, F::template of<W>(load<W>(x + i)));
  if (i == n) return;
  float rest[W] = {};
  for (std::size_t k = i; k < n; ++k) rest[k - i] = x[k];
  store<W>(rest, F::template of<W>(load<W>(rest)));
  for (std::size_t k = i; k < n; ++k) y[k] = rest[k - i];
}
struct exp_of {
  template <int W>
  static ATTENTION_INLINE vec<W> of(const vec<W>& x) { return exp_lanes<W>(x); }
};
struct tanh_of {
  template <int W>
  static ATTENTION_INLINE vec<W> of(const vec<W>& x) { return tanh_lanes<W>(x); }
};
template <int W>
ATTENTION_INLINE void exp_kernel(const float* x, float* y, std::size_t n) {
  each_kernel<W, exp_of>(x, y, n);
}
template <int W>
ATTENTION_INLINE void tanh_kernel(const float* x, float* y, std::size_t n) {
  each_kernel<W, tanh_of>(x, y, n);
}

ATTENTION_SIMD_DISPATCH(exp_widest, exp_kernel, (const float* x, float* y, std::size_t n), (x, y, n))
ATTENTION_SIMD_DISPATCH(tanh_widest, tanh_kernel, (const float* x, float* y, std::size_t n), (x, y, n))

}  // namespace

void exp_each(const float* x, float* y, std::size_t n) { exp_widest(x, y, n); }

float exp_one(float x) { return exp_lanes<4>(splat<4>(x))[0]; }

void tanh_each(const float* x, float* y, std::size_t n) { tanh_widest(x, y, n); }

float tanh_one(float x) {
  const float lanes[4] = {x};  // not splat: 0 + (−0) would be +0
  return tanh_lanes<4>(load<4>(lanes))[0];
}

}  // namespace attention
