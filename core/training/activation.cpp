#include "training/activation.hpp"

#include <cmath>

#include "tensor/simd.hpp"
#include "tensor/vector_math.hpp"

namespace attention {
namespace {

constexpr float sqrt1_2 = 0.70710678118654752440f;            // M_SQRT1_2
constexpr float gelu_beta = 0.39894228040143267794f;          // M_2_SQRTPI · M_SQRT1_2 · 0.5 = 1/√(2π)
constexpr float tanh_beta = 0.79788456080286535588f;          // M_SQRT2 · M_2_SQRTPI · 0.5 = √(2/π)
constexpr float kappa = 0.044715f;

// erf as PyTorch's AVX2 kernels compute it for GELU (Vectorized<float>::erf,
// Abramowitz and Stegun 7.1.26, |error| < 1.5e-7), with its fused
// multiply-adds exact (fma_lanes) and the core's own exp (exp_lanes): the
// same bits natively and in wasm, where the libms' erff differ (glibc,
// musl), and closer to PyTorch than either. W lanes at a time.
template <int W>
ATTENTION_INLINE vec<W> erf_lanes(const vec<W>& x) {
  const vec_int<W> sign = bits_of<W>(x) & static_cast<int>(0x80000000u);
  const vec<W> a = floats_of<W>(bits_of<W>(x) & 0x7fffffff);
  const vec<W> one = splat<W>(1.0f);
  const vec<W> t = one / fma_lanes<W>(splat<W>(0.3275911f), a, one);
  vec<W> r = fma_lanes<W>(splat<W>(1.061405429f), t, splat<W>(-1.453152027f));
  r = fma_lanes<W>(r, t, splat<W>(1.421413741f));
  r = fma_lanes<W>(r, t, splat<W>(-0.284496736f));
  r = fma_lanes<W>(r, t, splat<W>(0.254829592f));
  const vec<W> e = -exp_lanes<W>(-(x * x));
  const vec<W> y = fma_lanes<W>(e * t, r, one);
  return floats_of<W>((bits_of<W>(y) & 0x7fffffff) | sign);  // copysign(y, x)
}

// Runs f on W floats at a time; the last few through a zero-padded vector.
template <int W, typename F>
ATTENTION_INLINE void each_vector(std::size_t n, const float* a, const float* b, float* out, const F& f) {
  std::size_t i = 0;
  for (; i + W <= n; i += W) store<W>(out + i, f(load<W>(a + i), load<W>(b + i)));
  if (i == n) return;
  float a_rest[W] = {}, b_rest[W] = {}, out_rest[W];
  for (std::size_t k = i; k < n; ++k) {
    a_rest[k - i] = a[k];
    b_rest[k - i] = b[k];
  }
  store<W>(out_rest, f(load<W>(a_rest), load<W>(b_rest)));
  for (std::size_t k = i; k < n; ++k) out[k] = out_rest[k - i];
}

// GELU, x·½(1 + erf(x/√2)), and its derivative times d y,
// d y·(½(1 + erf(x/√2)) + x·e^(−x²/2)/√(2π)).
template <int W>
ATTENTION_INLINE void gelu_kernel(const float* x, float* y, std::size_t n) {
  each_vector<W>(n, x, x, y, [](const vec<W>& v, const vec<W>&) {
    return v * 0.5f * (1.0f + erf_lanes<W>(v * sqrt1_2));
  });
}
template <int W>
ATTENTION_INLINE void gelu_backward_kernel(const float* d_y, const float* x, float* d_x, std::size_t n) {
  each_vector<W>(n, d_y, x, d_x, [](const vec<W>& dy, const vec<W>& v) {
    const vec<W> cdf = 0.5f * (1.0f + erf_lanes<W>(v * sqrt1_2));
    const vec<W> pdf = gelu_beta * exp_lanes<W>(-0.5f * v * v);
    return dy * (cdf + v * pdf);
  });
}
ATTENTION_SIMD_DISPATCH(gelu_lanes, gelu_kernel, (const float* x, float* y, std::size_t n), (x, y, n))
ATTENTION_SIMD_DISPATCH(gelu_backward_lanes, gelu_backward_kernel,
                        (const float* d_y, const float* x, float* d_x, std::size_t n), (d_y, x, d_x, n))

// ReLU and tanh-GELU one float at a time (GELU runs on vectors, above)
float forward_one(float x, activation_kind kind) {
  switch (kind) {
    case activation_kind::relu: return x > 0.0f ? x : 0.0f;
    case activation_kind::gelu: break;
    case activation_kind::gelu_tanh: {
      const float inner = tanh_beta * (x + kappa * x * x * x);
      return 0.5f * x * (1.0f + std::tanh(inner));
    }
  }
  return x;
}

float derivative(float x, activation_kind kind) {
  switch (kind) {
    case activation_kind::relu: return x > 0.0f ? 1.0f : 0.0f;
    case activation_kind::gelu: break;
    case activation_kind::gelu_tanh: {
      const float x_sq = x * x;
      const float inner = tanh_beta * (x + kappa * x_sq * x);
      const float t = std::tanh(inner);
      const float left = 0.5f * x, right = 1.0f + t;
      const float inner_derivative = tanh_beta * (1.0f + 3.0f * kappa * x_sq);
      return 0.5f * right + left * (1.0f - t * t) * inner_derivative;
    }
  }
  return 1.0f;
}

}  // namespace

const char* activation_name(activation_kind kind) {
  switch (kind) {
    case activation_kind::relu: return "relu";
    case activation_kind::gelu: return "gelu";
    case activation_kind::gelu_tanh: return "gelu_tanh";
  }
  return "relu";
}

tensor3 activate(const tensor3& x, activation_kind kind) {
  tensor3 y(x.shape());
  if (kind == activation_kind::gelu) {
    gelu_lanes(x.data(), y.data(), x.size());
    return y;
  }
  for (std::size_t i = 0; i < x.size(); ++i) y.data()[i] = forward_one(x.data()[i], kind);
  return y;
}

tensor3 activation_backward(const tensor3& d_y, const tensor3& x, activation_kind kind) {
  tensor3 dx(x.shape());
  if (kind == activation_kind::gelu) {
    gelu_backward_lanes(d_y.data(), x.data(), dx.data(), x.size());
    return dx;
  }
  for (std::size_t i = 0; i < x.size(); ++i) dx.data()[i] = d_y.data()[i] * derivative(x.data()[i], kind);
  return dx;
}

}  // namespace attention
