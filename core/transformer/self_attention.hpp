// The attention part of a block, for every family forward() runs: each
// head's q, k and v projected at once (a key/value head once for the query
// heads that share it), their biases, rotary positions on q and k, the
// scaled scores (causal, or every position seeing every position), softmax,
// the weighted sum of v, and the heads' outs side by side.
#pragma once

#include <cstddef>

#include "tensor/rotary.hpp"
#include "tensor/tensor.hpp"
#include "transformer/model.hpp"

namespace attention {

// a: (B, T, d), what the heads read. Fills lp.heads (q, k, v, weights, out;
// k and v in the key/value heads only) and lp.concat (B, T, H·hs). rotary:
// the cos and sin of positions 0..T−1 with rotary positions, else null.
// layer: its index, for the message when a score overflows float32.
// cache (B = 1): a's rows are the window's positions cache->length() onward
// (rotary's too); their keys and values are written into the cache and the
// heads attend to every position it then holds: weights (1, T, length + T).
// ablation: heads of this layer whose out is replaced before the concat (lens-v1.md section 2).
void self_attention(const tensor3& a, const model_layer& layer, const model_spec& spec, const rotary_table* rotary,
                    std::size_t layer_index, layer_pass& lp, kv_cache* cache = nullptr,
                    const head_ablation* ablation = nullptr);

}  // namespace attention
