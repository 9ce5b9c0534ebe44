#include "training/layer_norm.hpp"

#include <algorithm>
#include <cmath>

namespace attention {

namespace {
constexpr float eps = 1e-5f;
}

layer_norm_weights layer_norm_init(std::size_t d) {
  return {xt::ones<float>({std::size_t{1}, d}), xt::zeros<float>({std::size_t{1}, d})};
}

norm_pass layer_norm(const tensor3& x, const layer_norm_weights& w) {
  const std::size_t d = x.shape(2), rows = x.shape(0) * x.shape(1);
  norm_pass p;
  p.out = tensor3(x.shape());
  p.mean.resize(rows);
  p.rstd.resize(rows);
  const float* g = w.weight.data();
  const float* b = w.bias.size() != 0 ? w.bias.data() : nullptr;  // nanoGPT's bias=False: a weight only
  // Each row's moments are sums in order over its d entries: chains of
  // dependent adds. Eight rows at a time run eight chains side by side.
  constexpr std::size_t group = 8;
  for (std::size_t r0 = 0; r0 < rows; r0 += group) {
    const std::size_t n = std::min(group, rows - r0);
    const float* x0 = x.data() + r0 * d;
    // the moments in double, rounded once: PyTorch's Welford in float32 differs by an ulp at most
    double sum[group] = {}, mean[group], squares[group] = {};
    for (std::size_t c = 0; c < d; ++c)
      for (std::size_t k = 0; k < n; ++k) sum[k] += x0[k * d + c];
    for (std::size_t k = 0; k < n; ++k) mean[k] = sum[k] / static_cast<double>(d);
    for (std::size_t c = 0; c < d; ++c)
      for (std::size_t k = 0; k < n; ++k) squares[k] += (x0[k * d + c] - mean[k]) * (x0[k * d + c] - mean[k]);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t r = r0 + k;
      const float* xr = x0 + k * d;
      const auto m = static_cast<float>(mean[k]);
      const float variance = static_cast<float>(squares[k] / static_cast<double>(d));  // biased, as PyTorch's
      const float rstd = 1.0f / std::sqrt(variance + eps);
      const float shift = -rstd * m;
      float* out = p.out.data() + r * d;
      if (b != nullptr)
        for (std::size_t c = 0; c < d; ++c) out[c] = (xr[c] * rstd + shift) * g[c] + b[c];
      else
        for (std::size_t c = 0; c < d; ++c) out[c] = (xr[c] * rstd + shift) * g[c];
      p.mean[r] = m;
      p.rstd[r] = rstd;
    }
  }
  return p;
}

tensor3 layer_norm_backward(const tensor3& d_out, const tensor3& x, const norm_pass& pass, const layer_norm_weights& w,
                            layer_norm_weights& grads) {
  const std::size_t d = x.shape(2), rows = x.shape(0) * x.shape(1);
  if (grads.weight.size() == 0) grads = {xt::zeros<float>({std::size_t{1}, d}), xt::zeros<float>({std::size_t{1}, d})};
  tensor3 dx(x.shape());
  const float* g = w.weight.data();
  const float scale = 1.0f / static_cast<float>(d);
  constexpr std::size_t group = 8;  // eight rows' sums side by side, as in layer_norm
  for (std::size_t r0 = 0; r0 < rows; r0 += group) {
    const std::size_t n = std::min(group, rows - r0);
    const float* x0 = x.data() + r0 * d;
    const float* dy0 = d_out.data() + r0 * d;
    // PyTorch's arrangement: dx = rstd·dy·γ + b·x + c
    float ds[group] = {}, db[group] = {};  // Σ dy·γ·x, Σ dy·γ
    for (std::size_t c = 0; c < d; ++c)
      for (std::size_t k = 0; k < n; ++k) {
        ds[k] += dy0[k * d + c] * g[c] * x0[k * d + c];
        db[k] += dy0[k * d + c] * g[c];
      }
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t r = r0 + k;
      const float* xr = x0 + k * d;
      const float* dy = dy0 + k * d;
      const float mean = pass.mean[r], rstd = pass.rstd[r];
      const float b = (db[k] * mean - ds[k]) * rstd * rstd * rstd * scale;
      const float c0 = -b * mean - db[k] * rstd * scale;
      float* out = dx.data() + r * d;
      for (std::size_t c = 0; c < d; ++c) out[c] = rstd * dy[c] * g[c] + b * xr[c] + c0;
      // pointers that cannot alias, so these become whole vectors (each
      // gradient entry still sums its rows in order)
      float* __restrict d_weight = grads.weight.data();
      float* __restrict d_bias = grads.bias.data();
      for (std::size_t c = 0; c < d; ++c) {
        d_weight[c] += dy[c] * (xr[c] - mean) * rstd;
        d_bias[c] += dy[c];
      }
    }
  }
  return dx;
}

}  // namespace attention
