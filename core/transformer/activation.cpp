#include "transformer/activation.hpp"

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
template <int W, typename Fma>
ATTENTION_INLINE vec<W> erf_with(const vec<W>& x, const Fma& fma) {
  const vec_int<W> sign = bits_of<W>(x) & static_cast<int>(0x80000000u);
  const vec<W> a = floats_of<W>(bits_of<W>(x) & 0x7fffffff);
  const vec<W> one = splat<W>(1.0f);
  const vec<W> t = one / fma(splat<W>(0.3275911f), a, one);
  vec<W> r = fma(splat<W>(1.061405429f), t, splat<W>(-1.453152027f));
  r = fma(r, t, splat<W>(1.421413741f));
  r = fma(r, t, splat<W>(-0.284496736f));
  r = fma(r, t, splat<W>(0.254829592f));
  const vec<W> e = -exp_lanes<W>(-(x * x));
  const vec<W> y = fma(e * t, r, one);
  return floats_of<W>((bits_of<W>(y) & 0x7fffffff) | sign);  // copysign(y, x)
}

// The erf's fused steps: exact, or (wasm) rounded through double with the
// lanes where that may differ marked.
template <int W>
struct exact_fma {
  ATTENTION_INLINE vec<W> operator()(const vec<W>& a, const vec<W>& b, const vec<W>& c) const {
    return fma_lanes<W>(a, b, c);
  }
};
template <int W>
struct fma_marking_doubt {
  vec_bits<W>& doubtful;
  ATTENTION_INLINE vec<W> operator()(const vec<W>& a, const vec<W>& b, const vec<W>& c) const {
    return fma_rounded_twice<W>(a, b, c, doubtful);
  }
};

template <int W>
ATTENTION_INLINE vec<W> erf_lanes(const vec<W>& x) {
#if !ATTENTION_X86
  // wasm: the six steps rounded through double, checked once; a vector with
  // a doubtful lane (rare) is computed again with exact steps
  vec_bits<W> doubtful{};
  const vec<W> quick = erf_with<W>(x, fma_marking_doubt<W>{doubtful});
  if (!any_lane<W>(doubtful)) return quick;
#endif
  return erf_with<W>(x, exact_fma<W>{});
}

// out[i] = F::of(a[i], b[i], c[i]) W floats at a time; the last few
// through zero-padded vectors.
template <int W, typename F>
ATTENTION_INLINE void each_vector(std::size_t n, const float* a, const float* b, const float* c, float* out) {
  std::size_t i = 0;
  for (; i + W <= n; i += W) store<W>(out + i, F::template of<W>(load<W>(a + i), load<W>(b + i), load<W>(c + i)));
  if (i == n) return;
  float rest[4][W] = {};
  for (std::size_t k = i; k < n; ++k) {
    rest[0][k - i] = a[k];
    rest[1][k - i] = b[k];
    rest[2][k - i] = c[k];
  }
  store<W>(rest[3], F::template of<W>(load<W>(rest[0]), load<W>(rest[1]), load<W>(rest[2])));
  for (std::size_t k = i; k < n; ++k) out[k] = rest[3][k - i];
}

// GELU is x·½(1 + erf(x/√2)); its derivative times d y is
// d y·(½(1 + erf(x/√2)) + x·e^(−x²/2)/√(2π)). The forward keeps
// u = 1 + erf(x/√2), the costly part, for the backward.
struct erf_plus_one_of {
  template <int W>
  static ATTENTION_INLINE vec<W> of(const vec<W>& x, const vec<W>&, const vec<W>&) {
    return 1.0f + erf_lanes<W>(x * sqrt1_2);
  }
};
struct gelu_of {  // from x and u
  template <int W>
  static ATTENTION_INLINE vec<W> of(const vec<W>& x, const vec<W>& u, const vec<W>&) {
    return x * 0.5f * u;
  }
};
struct gelu_backward_of {  // from d y, x and u
  template <int W>
  static ATTENTION_INLINE vec<W> of(const vec<W>& d_y, const vec<W>& x, const vec<W>& u) {
    const vec<W> cdf = 0.5f * u;
    const vec<W> pdf = gelu_beta * exp_lanes<W>(-0.5f * x * x);
    return d_y * (cdf + x * pdf);
  }
};
template <int W>
ATTENTION_INLINE void gelu_kernel(const float* x, float* y, float* u, std::size_t n) {
  std::size_t i = 0;
  for (; i + W <= n; i += W) {  // u and y of a vector at once: x read once, u never read back
    const vec<W> xi = load<W>(x + i);
    const vec<W> ui = erf_plus_one_of::of<W>(xi, xi, xi);
    store<W>(u + i, ui);
    store<W>(y + i, gelu_of::of<W>(xi, ui, ui));
  }
  each_vector<W, erf_plus_one_of>(n - i, x + i, x + i, x + i, u + i);  // the last few
  each_vector<W, gelu_of>(n - i, x + i, u + i, u + i, y + i);
}
template <int W>
ATTENTION_INLINE void gelu_backward_kernel(const float* d_y, const float* x, const float* u, float* d_x, std::size_t n) {
  each_vector<W, gelu_backward_of>(n, d_y, x, u, d_x);
}
// SiLU x · sigmoid(x) as PyTorch's kernel writes it, x / (1 + e^(−x)): a
// division, not a product with a rounded sigmoid; e^(−x) the core's exp
// (exp_lanes), so the same bits natively and in wasm.
struct silu_of {
  template <int W>
  static ATTENTION_INLINE vec<W> of(const vec<W>& x, const vec<W>&, const vec<W>&) {
    return x / (1.0f + exp_lanes<W>(-x));
  }
};
template <int W>
ATTENTION_INLINE void silu_kernel(const float* x, float* y, std::size_t n) {
  each_vector<W, silu_of>(n, x, x, x, y);
}
// GELU's tanh approximation as PyTorch's kernel writes it:
// ½x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), x³ as x·x·x, with the core's
// tanh (tanh_lanes: within 0.51 ulp of the true tanh, the same bits in wasm).
struct gelu_tanh_of {
  template <int W>
  static ATTENTION_INLINE vec<W> of(const vec<W>& x, const vec<W>&, const vec<W>&) {
    const vec<W> cube = x * x * x;
    const vec<W> inner = tanh_beta * (x + kappa * cube);
    return 0.5f * x * (1.0f + tanh_lanes<W>(inner));
  }
};
// Its derivative times d y, as PyTorch's backward kernel writes it:
// d y·(½(1 + t) + ½x·(1 − t²)·√(2/π)·(1 + 3·0.044715·x²)), t the tanh above.
struct gelu_tanh_backward_of {  // from d y and x
  template <int W>
  static ATTENTION_INLINE vec<W> of(const vec<W>& d_y, const vec<W>& x, const vec<W>&) {
    const vec<W> x_sq = x * x;
    const vec<W> cube = x * x * x;
    const vec<W> t = tanh_lanes<W>(tanh_beta * (x + kappa * cube));
    const vec<W> left = 0.5f * x, right = 1.0f + t;
    const vec<W> inner_derivative = tanh_beta * (1.0f + 3.0f * kappa * x_sq);
    return d_y * (0.5f * right + left * (1.0f - t * t) * inner_derivative);
  }
};
template <int W>
ATTENTION_INLINE void gelu_tanh_kernel(const float* x, float* y, std::size_t n) {
  each_vector<W, gelu_tanh_of>(n, x, x, x, y);
}
template <int W>
ATTENTION_INLINE void gelu_tanh_backward_kernel(const float* d_y, const float* x, float* d_x, std::size_t n) {
  each_vector<W, gelu_tanh_backward_of>(n, d_y, x, x, d_x);
}
ATTENTION_SIMD_DISPATCH(silu_lanes, silu_kernel, (const float* x, float* y, std::size_t n), (x, y, n))
ATTENTION_SIMD_DISPATCH(gelu_tanh_lanes, gelu_tanh_kernel, (const float* x, float* y, std::size_t n), (x, y, n))
ATTENTION_SIMD_DISPATCH(gelu_tanh_backward_lanes, gelu_tanh_backward_kernel,
                        (const float* d_y, const float* x, float* d_x, std::size_t n), (d_y, x, d_x, n))
ATTENTION_SIMD_DISPATCH(gelu_lanes, gelu_kernel, (const float* x, float* y, float* u, std::size_t n), (x, y, u, n))
ATTENTION_SIMD_DISPATCH(gelu_backward_lanes, gelu_backward_kernel,
                        (const float* d_y, const float* x, const float* u, float* d_x, std::size_t n),
                        (d_y, x, u, d_x, n))

// ReLU one float at a time (the GELUs and SiLU run on vectors, above)
float relu_one(float x) { return x > 0.0f ? x : 0.0f; }

float derivative(float x, activation_kind kind) {
  switch (kind) {
    case activation_kind::relu: return x > 0.0f ? 1.0f : 0.0f;
    case activation_kind::gelu:
    case activation_kind::gelu_tanh: break;
    case activation_kind::silu: {  // σ(x)·(1 + x·(1 − σ(x)))
      const float sigmoid = 1.0f / (1.0f + exp_one(-x));
      return sigmoid * (1.0f + x * (1.0f - sigmoid));
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
    case activation_kind::silu: return "silu";
  }
  return "relu";
}

tensor3 activate(const tensor3& x, activation_kind kind, tensor3* kept) {
  tensor3 y(x.shape());
  if (kind == activation_kind::gelu) {
    tensor3 u(x.shape());
    gelu_lanes(x.data(), y.data(), u.data(), x.size());
    if (kept != nullptr) *kept = std::move(u);
    return y;
  }
  if (kept != nullptr) *kept = tensor3();
  if (kind == activation_kind::silu) {
    silu_lanes(x.data(), y.data(), x.size());
    return y;
  }
  if (kind == activation_kind::gelu_tanh) {
    gelu_tanh_lanes(x.data(), y.data(), x.size());
    return y;
  }
  for (std::size_t i = 0; i < x.size(); ++i) y.data()[i] = relu_one(x.data()[i]);
  return y;
}

tensor3 activation_backward(const tensor3& d_y, const tensor3& x, activation_kind kind, const tensor3* kept) {
  tensor3 dx(x.shape());
  if (kind == activation_kind::gelu) {
    tensor3 computed;
    if (kept == nullptr || kept->size() != x.size()) {  // not kept: computed again
      computed = tensor3(x.shape());
      tensor3 unused(x.shape());
      gelu_lanes(x.data(), unused.data(), computed.data(), x.size());
      kept = &computed;
    }
    gelu_backward_lanes(d_y.data(), x.data(), kept->data(), dx.data(), x.size());
    return dx;
  }
  if (kind == activation_kind::gelu_tanh) {
    gelu_tanh_backward_lanes(d_y.data(), x.data(), dx.data(), x.size());
    return dx;
  }
  for (std::size_t i = 0; i < x.size(); ++i) dx.data()[i] = d_y.data()[i] * derivative(x.data()[i], kind);
  return dx;
}

}  // namespace attention
