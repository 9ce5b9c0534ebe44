#include "training/adamw.hpp"

#include <cmath>

#include "tensor/simd.hpp"
#include "tensor/vector_math.hpp"

namespace attention {
namespace {

struct adamw_scalars {
  float decay, beta1, one_minus_beta1, beta2, one_minus_beta2, step_size, correction2_sqrt, eps;
};

// One update of every lane, each the scalar update of PyTorch's kernel:
//   p *= decay; m = fma(g, 1 − β1, β1·m); v = fma(g·g, 1 − β2, β2·v);
//   p = p − step_size · (m / (sqrt(v) / sqrt(bc2) + eps))
template <int W>
ATTENTION_INLINE vec<W> adamw_update(const adamw_scalars& s, const vec<W>& p_in, const vec<W>& g, vec<W>& m, vec<W>& v) {
  vec<W> p = p_in * s.decay;
  m = fma_lanes<W>(g, splat<W>(s.one_minus_beta1), m * s.beta1);   // mul_(β1).add_(g, alpha=1−β1)
  v = fma_lanes<W>(g * g, splat<W>(s.one_minus_beta2), v * s.beta2);  // mul_(β2).addcmul_(g, g, value=1−β2)
  vec<W> root;
#pragma GCC unroll 16
  for (int l = 0; l < W; ++l) root[l] = __builtin_sqrtf(v[l]);
  const vec<W> denom = root / s.correction2_sqrt + s.eps;
  return p - s.step_size * (m / denom);  // addcdiv_(m, denom, value=−step_size)
}

template <int W>
ATTENTION_INLINE void adamw_kernel(const adamw_scalars& s, float* p, const float* g, float* m, float* v, std::size_t n) {
  std::size_t i = 0;
  for (; i + W <= n; i += W) {
    vec<W> mi = load<W>(m + i), vi = load<W>(v + i);
    store<W>(p + i, adamw_update<W>(s, load<W>(p + i), load<W>(g + i), mi, vi));
    store<W>(m + i, mi);
    store<W>(v + i, vi);
  }
  if (i == n) return;
  float rest[4][W] = {};  // p, g, m, v of the last few, zero-padded
  for (std::size_t k = i; k < n; ++k) {
    rest[0][k - i] = p[k];
    rest[1][k - i] = g[k];
    rest[2][k - i] = m[k];
    rest[3][k - i] = v[k];
  }
  vec<W> mi = load<W>(rest[2]), vi = load<W>(rest[3]);
  store<W>(rest[0], adamw_update<W>(s, load<W>(rest[0]), load<W>(rest[1]), mi, vi));
  store<W>(rest[2], mi);
  store<W>(rest[3], vi);
  for (std::size_t k = i; k < n; ++k) {
    p[k] = rest[0][k - i];
    m[k] = rest[2][k - i];
    v[k] = rest[3][k - i];
  }
}

ATTENTION_SIMD_DISPATCH(adamw_lanes, adamw_kernel,
                        (const adamw_scalars& s, float* p, const float* g, float* m, float* v, std::size_t n),
                        (s, p, g, m, v, n))

}  // namespace

void adamw_step(const adamw_settings& s, adamw_state& state, const std::vector<tensor2*>& params,
                const std::vector<const tensor2*>& grads) {
  if (state.m.empty())
    for (const tensor2* p : params) {
      state.m.push_back(xt::zeros<float>(p->shape()));
      state.v.push_back(xt::zeros<float>(p->shape()));
    }
  state.step += 1;
  const double t = static_cast<double>(state.step);
  // Python floats, then the float32 scalars the tensor ops use
  const auto decay = static_cast<float>(1.0 - s.lr * s.weight_decay);
  const auto beta1 = static_cast<float>(s.beta1), one_minus_beta1 = static_cast<float>(1.0 - s.beta1);
  const auto beta2 = static_cast<float>(s.beta2), one_minus_beta2 = static_cast<float>(1.0 - s.beta2);
  const double bias_correction1 = 1.0 - std::pow(s.beta1, t);
  const double bias_correction2 = 1.0 - std::pow(s.beta2, t);
  const auto step_size = static_cast<float>(s.lr / bias_correction1);
  const auto correction2_sqrt = static_cast<float>(std::sqrt(bias_correction2));
  const auto eps = static_cast<float>(s.eps);
  const adamw_scalars c{decay, beta1, one_minus_beta1, beta2, one_minus_beta2, step_size, correction2_sqrt, eps};
  for (std::size_t k = 0; k < params.size(); ++k)
    adamw_lanes(c, params[k]->data(), grads[k]->data(), state.m[k].data(), state.v[k].data(), params[k]->size());
}

}  // namespace attention
