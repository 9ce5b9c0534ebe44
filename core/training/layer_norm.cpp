#include "training/layer_norm.hpp"

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
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x.data() + r * d;
    // the moments in double, rounded once: PyTorch's Welford in float32 differs by an ulp at most
    double sum = 0;
    for (std::size_t c = 0; c < d; ++c) sum += xr[c];
    const double mean = sum / static_cast<double>(d);
    double squares = 0;
    for (std::size_t c = 0; c < d; ++c) squares += (xr[c] - mean) * (xr[c] - mean);
    const auto m = static_cast<float>(mean);
    const float variance = static_cast<float>(squares / static_cast<double>(d));  // biased, as PyTorch's
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
  return p;
}

tensor3 layer_norm_backward(const tensor3& d_out, const tensor3& x, const norm_pass& pass, const layer_norm_weights& w,
                            layer_norm_weights& grads) {
  const std::size_t d = x.shape(2), rows = x.shape(0) * x.shape(1);
  if (grads.weight.size() == 0) grads = {xt::zeros<float>({std::size_t{1}, d}), xt::zeros<float>({std::size_t{1}, d})};
  tensor3 dx(x.shape());
  const float* g = w.weight.data();
  const float scale = 1.0f / static_cast<float>(d);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x.data() + r * d;
    const float* dy = d_out.data() + r * d;
    const float mean = pass.mean[r], rstd = pass.rstd[r];
    // PyTorch's arrangement: dx = rstd·dy·γ + b·x + c
    float ds = 0, db = 0;  // Σ dy·γ·x, Σ dy·γ
    for (std::size_t c = 0; c < d; ++c) {
      ds += dy[c] * g[c] * xr[c];
      db += dy[c] * g[c];
    }
    const float b = (db * mean - ds) * rstd * rstd * rstd * scale;
    const float c0 = -b * mean - db * rstd * scale;
    float* out = dx.data() + r * d;
    for (std::size_t c = 0; c < d; ++c) out[c] = rstd * dy[c] * g[c] + b * xr[c] + c0;
    for (std::size_t c = 0; c < d; ++c) {
      grads.weight.data()[c] += dy[c] * (xr[c] - mean) * rstd;
      grads.bias.data()[c] += dy[c];
    }
  }
  return dx;
}

}  // namespace attention
