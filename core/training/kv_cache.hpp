// Generation with a key/value cache (lens-v1.md section 5): the keys and
// values of a window's earlier positions kept, layer by layer and key/value
// head by key/value head (a grouped-query model keeps kv_heads, not heads),
// so that each new token computes one position. There is no second engine:
// the one forward() runs the new positions, given the cache
// (forward_options::cache), with positions (the learned table's rows, the
// Llama family's rotation) counted from the window's first token;
// self_attention writes each layer's new keys and values here and reads the
// earlier ones back. Past the model's length the window slides, every
// position moves, and the cache is rebuilt for the new window.
//
// Letters: L layers, KV key/value heads, hs the head size, C the capacity
// (positions the cache has room for, at most the model's length T).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "training/model.hpp"

namespace attention {

class kv_cache {
 public:
  // room for `capacity` positions (1 ≤ capacity ≤ spec.length) of a causal model
  kv_cache(const model_spec& spec, std::size_t capacity);

  std::size_t capacity() const { return capacity_; }
  // the tokens whose keys and values are held: positions 0 … length − 1 of the window
  const std::vector<std::int64_t>& tokens() const { return tokens_; }
  std::size_t length() const { return tokens_.size(); }
  // where the window starts in the whole sequence (what next_logits was given)
  std::size_t start() const { return start_; }

  // nothing held; the next forward() starts a window at `start`
  void clear(std::size_t start = 0);

  // layer l's key/value head g: positions 0 … length − 1 held. Its values
  // (C, hs) row-major; its keys as Kᵀ (hs, C) in panels of 16 positions
  // (gemm.hpp's in_panels(keys, hs, n)): position j's number c at
  // (j / 16)·16·hs + c·16 + j % 16, so q kᵀ for a new token reads them in
  // one stream, 16 scores' sums in registers (row_product.hpp).
  const float* keys(std::size_t l, std::size_t g) const { return keys_.data() + (l * kv_ + g) * panelled_ * hs_; }
  const float* values(std::size_t l, std::size_t g) const { return values_.data() + (l * kv_ + g) * capacity_ * hs_; }
  // key number c of position j
  float key(std::size_t l, std::size_t g, std::size_t j, std::size_t c) const {
    return keys(l, g)[j / 16 * 16 * hs_ + c * 16 + j % 16];
  }
  // forward()'s new positions at … at + T − 1 of layer l's key/value head g: k and v (T, hs) each
  void store(std::size_t l, std::size_t g, std::size_t at, const float* k, const float* v, std::size_t T);

  // forward()'s last act: the tokens it ran are now held
  void hold(const std::vector<std::int64_t>& tokens);

 private:
  std::size_t capacity_ = 0, panelled_ = 0, kv_ = 0, hs_ = 0;  // panelled_: C rounded up to 16
  std::vector<float> keys_;    // (L, KV, C / 16, hs, 16)
  std::vector<float> values_;  // (L, KV, C, hs)
  std::vector<std::int64_t> tokens_;  // (length)
  std::size_t start_ = 0;
};

// (V): the logits after the last of `ids` (the whole sequence so far), those
// forward() gives for the last position of the window ids[-T:] (gpt-v1's
// samples), bit for bit. Only the positions the cache does not hold yet are
// computed: the whole window the first time, then one a token; a window
// that starts elsewhere than the cache's (past T it slides by one a token),
// or whose tokens differ from those held, is rebuilt from its first position.
std::vector<float> next_logits(const model_weights& w, const model_spec& spec, kv_cache& cache,
                               const std::vector<std::int64_t>& ids);

}  // namespace attention
