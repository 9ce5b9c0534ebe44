#include "tensor/mask.hpp"

#include <limits>

#include "errors/check.hpp"

namespace attention {

tensor2 causal_mask(std::size_t Tq, std::size_t Tkv) {
  tensor2 keep({Tq, Tkv});
  for (std::size_t i = 0; i < Tq; ++i)
    for (std::size_t j = 0; j < Tkv; ++j) keep(i, j) = j <= i ? 1.0f : 0.0f;
  return keep;
}

tensor2 keep_matrix(const mask_spec& spec, std::size_t Tq, std::size_t Tkv) {
  switch (spec.type) {
    case mask_spec::kind::causal: return causal_mask(Tq, Tkv);
    case mask_spec::kind::none: return tensor2({Tq, Tkv}, 1.0f);
    case mask_spec::kind::custom: break;
  }
  ATTENTION_CHECK(spec.custom.shape(0) == Tq && spec.custom.shape(1) == Tkv,
                  "attention.mask: expected ", Tq, " × ", Tkv, ", got ", spec.custom.shape(0),
                  " × ", spec.custom.shape(1));
  return spec.custom;
}

tensor3 mask_fill(const tensor3& scaled, const tensor2& keep) {
  const std::size_t B = scaled.shape(0), plane = scaled.shape(1) * scaled.shape(2);
  const float minus_inf = -std::numeric_limits<float>::infinity();
  tensor3 masked(scaled.shape());
  const float* k = keep.data();
  for (std::size_t b = 0; b < B; ++b) {  // (Tq, Tkv) planes, flat: no index arithmetic per cell
    const float* in = scaled.data() + b * plane;
    float* out = masked.data() + b * plane;
    for (std::size_t n = 0; n < plane; ++n) out[n] = k[n] != 0.0f ? in[n] : minus_inf;
  }
  return masked;
}

tensor3 mask_after_softmax(const tensor3& weights, const tensor2& keep) {
  const std::size_t B = weights.shape(0), Tq = weights.shape(1), Tkv = weights.shape(2);
  tensor3 renormalized(weights.shape());
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t i = 0; i < Tq; ++i) {
      float row_sum = 0.0f;  // a concrete sum, not a lazy keep_dims reducer
      for (std::size_t j = 0; j < Tkv; ++j) row_sum += weights(b, i, j) * keep(i, j);
      ATTENTION_CHECK(row_sum > 0.0f, "mask: row ", i, " allows no position");
      for (std::size_t j = 0; j < Tkv; ++j)
        renormalized(b, i, j) = weights(b, i, j) * keep(i, j) / row_sum;
    }
  return renormalized;
}

}  // namespace attention
