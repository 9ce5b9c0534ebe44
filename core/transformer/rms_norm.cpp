#include "transformer/rms_norm.hpp"

#include <cmath>

#include "errors/check.hpp"

namespace attention {

norm_pass rms_norm(const tensor3& x, const layer_norm_weights& w, float eps) {
  const std::size_t d = x.shape(2), rows = x.shape(0) * x.shape(1);
  ATTENTION_CHECK(w.weight.size() == d, "rms_norm: a weight of ", w.weight.size(), " for rows of ", d);
  norm_pass p;
  p.out = tensor3(x.shape());
  p.rstd.resize(rows);
  // pointers that cannot alias: the products below become whole vectors
  const float* __restrict g = w.weight.data();
  for (std::size_t r = 0; r < rows; ++r) {
    const float* __restrict xr = x.data() + r * d;
    // h.pow(2).mean(-1): the squares are float32, their sum taken in double
    // and rounded once (PyTorch's float32 cascade sum differs by an ulp at
    // most), then divided by d in float32 as mean() divides its sum. Eight
    // running sums (column c in sum c mod 8), not one chain of dependent
    // adds: the same order on every machine, so the same bits natively and in wasm.
    double sums[8] = {};
    std::size_t c = 0;
    for (; c + 8 <= d; c += 8)
      for (std::size_t k = 0; k < 8; ++k) sums[k] += static_cast<double>(xr[c + k] * xr[c + k]);
    for (; c < d; ++c) sums[c % 8] += static_cast<double>(xr[c] * xr[c]);
    const double sum = ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5]) + (sums[6] + sums[7]));
    const float variance = static_cast<float>(sum) / static_cast<float>(d);
    // torch.rsqrt on float32 vectors: 1 / sqrt, each rounded
    const float rstd = 1.0f / std::sqrt(variance + eps);
    float* __restrict out = p.out.data() + r * d;
    for (c = 0; c < d; ++c) {
      const float normed = xr[c] * rstd;  // h · rsqrt(…), then weight · that
      out[c] = g[c] * normed;
    }
    p.rstd[r] = rstd;
  }
  return p;
}

}  // namespace attention
