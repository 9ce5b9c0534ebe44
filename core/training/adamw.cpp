#include "training/adamw.hpp"

#include <cmath>

namespace attention {

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
  for (std::size_t k = 0; k < params.size(); ++k) {
    float* p = params[k]->data();
    const float* g = grads[k]->data();
    float* m = state.m[k].data();
    float* v = state.v[k].data();
    for (std::size_t i = 0; i < params[k]->size(); ++i) {
      p[i] *= decay;
      m[i] = std::fma(g[i], one_minus_beta1, m[i] * beta1);            // mul_(β1).add_(g, alpha=1−β1)
      v[i] = std::fma(g[i] * g[i], one_minus_beta2, v[i] * beta2);     // mul_(β2).addcmul_(g, g, value=1−β2)
      const float denom = std::sqrt(v[i]) / correction2_sqrt + eps;
      p[i] = p[i] - step_size * (m[i] / denom);                       // addcdiv_(m, denom, value=−step_size)
    }
  }
}

}  // namespace attention
