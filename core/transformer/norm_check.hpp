// Whether a norm's rows overflowed float32. A norm divides each row by
// √(statistic + eps), the mean of squares (RMSNorm) or the variance
// (LayerNorm): past float32's largest that statistic is inf, 1/√ of it 0,
// and the norm's output silently zeros (or LayerNorm's bias); an input
// already inf or nan makes it nan. The check reads the one number per row
// the norm kept (norm_pass::rstd), never the activations again.
#pragma once

#include <cstddef>

#include "transformer/block.hpp"
#include "transformer/layer_norm.hpp"

namespace attention {

inline constexpr std::size_t no_layer = static_cast<std::size_t>(-1);

// Refuses `pass` if a row's rstd is not a positive finite number, one line
// naming the layer (no_layer: none), the norm `name` and the statistic:
// "overflow: layer 3's ln_1 (RMSNorm): the mean of squares is not finite in float32 (row 0); …".
void check_norm_rows(const norm_pass& pass, bool rms, std::size_t layer, const char* name);

// LayerNorm or RMSNorm, as the spec says, with its eps; then each row's
// 1/√(statistic + eps) checked, which the norm computed anyway (above).
// Refused naming layer `layer` (no_layer: none) and the norm; O(rows), no
// pass over the numbers. The forward's every norm and the lenses' ln_f.
norm_pass norm_of(const tensor3& x, const layer_norm_weights& w, const model_spec& spec, std::size_t layer,
                  const char* name);

}  // namespace attention
