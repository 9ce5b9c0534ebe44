#include "training/activation.hpp"

#include <cmath>

namespace attention {
namespace {

constexpr float sqrt1_2 = 0.70710678118654752440f;            // M_SQRT1_2
constexpr float gelu_beta = 0.39894228040143267794f;          // M_2_SQRTPI · M_SQRT1_2 · 0.5 = 1/√(2π)
constexpr float tanh_beta = 0.79788456080286535588f;          // M_SQRT2 · M_2_SQRTPI · 0.5 = √(2/π)
constexpr float kappa = 0.044715f;

// erf as PyTorch's AVX2 kernels compute it for GELU (Vectorized<float>::erf,
// Abramowitz and Stegun 7.1.26, |error| < 1.5e-7) with its fused
// multiply-adds written out: the same bits natively and in wasm, where the
// libms' erff differ (glibc, musl), and closer to PyTorch than either.
float erf_like_pytorch(float x) {
  const float a = std::fabs(x);
  const float t = 1.0f / std::fma(0.3275911f, a, 1.0f);
  float r = std::fma(1.061405429f, t, -1.453152027f);
  r = std::fma(r, t, 1.421413741f);
  r = std::fma(r, t, -0.284496736f);
  r = std::fma(r, t, 0.254829592f);
  const float e = -std::exp(-(x * x));
  return std::copysign(std::fma(e * t, r, 1.0f), x);
}

float forward_one(float x, activation_kind kind) {
  switch (kind) {
    case activation_kind::relu: return x > 0.0f ? x : 0.0f;
    case activation_kind::gelu: return x * 0.5f * (1.0f + erf_like_pytorch(x * sqrt1_2));
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
    case activation_kind::gelu: {
      const float cdf = 0.5f * (1.0f + erf_like_pytorch(x * sqrt1_2));
      const float pdf = gelu_beta * std::exp(-0.5f * x * x);
      return cdf + x * pdf;
    }
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
  for (std::size_t i = 0; i < x.size(); ++i) y.data()[i] = forward_one(x.data()[i], kind);
  return y;
}

tensor3 activation_backward(const tensor3& d_y, const tensor3& x, activation_kind kind) {
  tensor3 dx(x.shape());
  for (std::size_t i = 0; i < x.size(); ++i) dx.data()[i] = d_y.data()[i] * derivative(x.data()[i], kind);
  return dx;
}

}  // namespace attention
