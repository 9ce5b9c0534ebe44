#include "transformer/layer_norm.hpp"

#include <algorithm>
#include <cmath>

#include "errors/check.hpp"
#include "tensor/simd.hpp"
#include "tensor/transpose.hpp"

namespace attention {

namespace {

// Each row's sums run in order over its d entries: chains of dependent
// adds. Eight rows at a time are copied side by side (a (d, 8) block, zeros
// past the last row), so that one vector of eight holds the eight rows'
// sums and each step adds a whole vector: each lane is still its row's
// sum in order, the same bits as one row at a time.
constexpr std::size_t group = 8;
typedef double doubles8 __attribute__((vector_size(64)));

// n ≤ 8 rows of d floats into a (d, 8) block, zeros past the last row.
ATTENTION_INLINE void side_by_side(const float* x0, std::size_t n, std::size_t d, float* block) {
  if (n == group && d % group == 0) {  // 8×8 blocks at a time
    for (std::size_t c = 0; c < d; c += group) {
      floats8 rows[8], columns[8];
      for (std::size_t k = 0; k < group; ++k) rows[k] = load8(x0 + k * d + c);
      transpose8(rows, columns);
      for (std::size_t q = 0; q < group; ++q) store8(block + (c + q) * group, columns[q]);
    }
    return;
  }
  for (std::size_t c = 0; c < d; ++c)
    for (std::size_t k = 0; k < group; ++k) block[c * group + k] = k < n ? x0[k * d + c] : 0.0f;
}

// The moments in double, rounded once: PyTorch's Welford in float32 differs
// by an ulp at most. sums and squares: (rows,) each.
template <int W>
ATTENTION_INLINE void moments_kernel(const float* x, std::size_t rows, std::size_t d, float* block, double* means,
                                     double* squares) {
  for (std::size_t r0 = 0; r0 < rows; r0 += group) {
    const std::size_t n = rows - r0 < group ? rows - r0 : group;
    side_by_side(x + r0 * d, n, d, block);
    doubles8 sum{};
    for (std::size_t c = 0; c < d; ++c) sum += __builtin_convertvector(load8(block + c * group), doubles8);
    const doubles8 mean = sum / static_cast<double>(d);
    doubles8 square{};
    for (std::size_t c = 0; c < d; ++c) {
      const doubles8 centred = __builtin_convertvector(load8(block + c * group), doubles8) - mean;
      square += centred * centred;
    }
    for (std::size_t k = 0; k < n; ++k) {
      means[r0 + k] = mean[k];
      squares[r0 + k] = square[k];
    }
  }
}

// Σ dy·γ·x and Σ dy·γ of each row, in float, eight rows side by side.
template <int W>
ATTENTION_INLINE void backward_sums_kernel(const float* d_out, const float* x, const float* g, std::size_t rows,
                                           std::size_t d, float* block, float* ds, float* db) {
  float* dy_block = block + d * group;
  for (std::size_t r0 = 0; r0 < rows; r0 += group) {
    const std::size_t n = rows - r0 < group ? rows - r0 : group;
    side_by_side(x + r0 * d, n, d, block);
    side_by_side(d_out + r0 * d, n, d, dy_block);
    floats8 s{}, b{};
    for (std::size_t c = 0; c < d; ++c) {
      const floats8 dy_g = load8(dy_block + c * group) * g[c];
      s += dy_g * load8(block + c * group);
      b += dy_g;
    }
    for (std::size_t k = 0; k < n; ++k) {
      ds[r0 + k] = s[k];
      db[r0 + k] = b[k];
    }
  }
}

ATTENTION_SIMD_DISPATCH(moments_of, moments_kernel,
                        (const float* x, std::size_t rows, std::size_t d, float* block, double* means, double* squares),
                        (x, rows, d, block, means, squares))
ATTENTION_SIMD_DISPATCH(backward_sums_of, backward_sums_kernel,
                        (const float* d_out, const float* x, const float* g, std::size_t rows, std::size_t d,
                         float* block, float* ds, float* db),
                        (d_out, x, g, rows, d, block, ds, db))
}  // namespace

layer_norm_weights layer_norm_init(std::size_t d) {
  return {xt::ones<float>({std::size_t{1}, d}), xt::zeros<float>({std::size_t{1}, d})};
}

norm_pass layer_norm(const tensor3& x, const layer_norm_weights& w, float eps, bool biased) {
  const std::size_t d = x.shape(2), rows = x.shape(0) * x.shape(1);
  norm_pass p;
  p.out = tensor3(x.shape());
  p.mean.resize(rows);
  p.rstd.resize(rows);
  const float* g = w.weight.data();
  ATTENTION_CHECK(w.weight.size() == d && (!biased || w.bias.size() == d), "forward: a LayerNorm of ", w.weight.size(),
                  " weights for ", d, " numbers");
  const float* b = biased ? w.bias.data() : nullptr;
  std::vector<float> block(d * group);
  std::vector<double> means(rows), squares(rows);
  moments_of(x.data(), rows, d, block.data(), means.data(), squares.data());
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x.data() + r * d;
    const auto m = static_cast<float>(means[r]);
    const float variance = static_cast<float>(squares[r] / static_cast<double>(d));  // biased, as PyTorch's
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
  // PyTorch's arrangement: dx = rstd·dy·γ + b·x + c
  std::vector<float> block(2 * d * group), ds(rows), db(rows);  // Σ dy·γ·x, Σ dy·γ
  backward_sums_of(d_out.data(), x.data(), g, rows, d, block.data(), ds.data(), db.data());
  // pointers that cannot alias, so these become whole vectors (each
  // gradient entry still sums its rows in order)
  float* __restrict d_weight = grads.weight.data();
  float* __restrict d_bias = grads.bias.data();
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x.data() + r * d;
    const float* dy = d_out.data() + r * d;
    const float mean = pass.mean[r], rstd = pass.rstd[r];
    const float b = (db[r] * mean - ds[r]) * rstd * rstd * rstd * scale;
    const float c0 = -b * mean - db[r] * rstd * scale;
    float* out = dx.data() + r * d;
    for (std::size_t c = 0; c < d; ++c) out[c] = rstd * dy[c] * g[c] + b * xr[c] + c0;
    for (std::size_t c = 0; c < d; ++c) {
      d_weight[c] += dy[c] * (xr[c] - mean) * rstd;
      d_bias[c] += dy[c];
    }
  }
  return dx;
}

}  // namespace attention
