// A forward's multiply-adds, counted from the block's shapes (model_spec),
// for every family the one forward() runs: what make bench divides by the
// time to give GFLOP/s. Per token and layer: q (d · H·hs), k and v (2 · d ·
// KV·hs: grouped-query attention makes only the KV shared heads' keys and
// values), the projection (H·hs · d) and the MLP (2 · d · I, SwiGLU's
// gate, up and down 3 · d · I); per layer and query head the T × T scores
// and weighted sums (hs each, every cell, masked or not: a query head reads
// its shared key/value head, it still does its own products); the
// unembedding once (T · d · V), BERT's masked-LM transform (T · d²) before
// it. Not counted, as products of matrices are the work: the norms, the
// rotation of q and k, softmax, the activations and SwiGLU's product.
// For GPT-2 (H·hs = d, KV = H, I = 4d) this is
// T·L·(4d² + 2·d·I) + L·2·T²·d + T·d·V, bench_model.cpp's count.
#pragma once

#include <cstdint>

#include "transformer/model.hpp"

namespace attention {

inline std::uint64_t forward_multiply_adds(const model_spec& s, const model_weights& w, std::uint64_t T) {
  const std::uint64_t d = s.embed, hs = s.head_size, H = s.heads, KV = s.kv_heads, I = s.mlp.width;
  const std::uint64_t per_token_layer = d * H * hs + 2 * d * KV * hs + H * hs * d + (s.mlp.kind == attention::mlp_kind::gated ? 3 : 2) * d * I;
  const std::uint64_t attention = 2 * T * T * H * hs;
  const std::uint64_t transform = !w.transform.empty() ? T * d * d : 0;
  return s.layers * (T * per_token_layer + attention) + transform + T * d * s.vocab;
}

}  // namespace attention
