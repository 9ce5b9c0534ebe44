#include "transformer/norm_check.hpp"

#include <limits>
#include <string>

#include "errors/check.hpp"
#include "transformer/rms_norm.hpp"

namespace attention {

void check_norm_rows(const norm_pass& p, bool rms, std::size_t layer, const char* name) {
  for (std::size_t r = 0; r < p.rstd.size(); ++r) {
    const float rstd = p.rstd[r];
    if (rstd > 0 && rstd <= std::numeric_limits<float>::max()) continue;  // false for nan
    const std::string where = layer == no_layer ? name : "layer " + std::to_string(layer) + "'s " + name;
    detail::fail("overflow: ", where, rms ? " (RMSNorm): the mean of squares" : " (LayerNorm): the variance",
                 " is not finite in float32 (row ", r, "); the weights or inputs are too large");
  }
}

norm_pass norm_of(const tensor3& x, const layer_norm_weights& w, const model_spec& spec, std::size_t layer,
                  const char* name) {
  const bool rms = spec.norm.kind == norm_kind::rms;
  norm_pass p = rms ? rms_norm(x, w, spec.norm.eps) : layer_norm(x, w, spec.norm.eps, spec.biases.norm);
  check_norm_rows(p, rms, layer, name);
  return p;
}

}  // namespace attention
