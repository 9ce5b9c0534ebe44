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

#include "tensor/gemm.hpp"
#include "transformer/model.hpp"

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

  // layer l's key/value head g over positions 0 … n − 1 (n ≤ length + the
  // positions forward() stores now): Kᵀ (hs, n) and V (n, hs), each kept in
  // panels of 16 columns (gemm.hpp's matrix_ref): Kᵀ's columns are
  // positions, V's the head's numbers, so q kᵀ and w v for a new token each
  // read them in one stream with 16 sums in registers (row_product.hpp).
  matrix_ref keys(std::size_t l, std::size_t g, std::size_t n) const;
  matrix_ref values(std::size_t l, std::size_t g, std::size_t n) const;
  // number c of position j's key and value
  float key(std::size_t l, std::size_t g, std::size_t j, std::size_t c) const;
  float value(std::size_t l, std::size_t g, std::size_t j, std::size_t c) const;
  // forward()'s new positions at … at + T − 1 of layer l's key/value head g: k and v (T, hs) each
  void store(std::size_t l, std::size_t g, std::size_t at, const float* k, const float* v, std::size_t T);

  // Layer l's keys and values over positions 0 … n − 1, every key/value
  // head, read once, a load per 64 bytes, so that the heads' products find
  // them in cache. The weights a token streams push them out to memory, and
  // from there the products' chains of adds keep few loads in flight:
  // SmolLM2's shape at 145 positions, natively, 0.24 ms a token when they
  // are in cache, 0.64 from memory, 0.46 read first this way (0.25 of it the
  // read). The bits are not touched.
  void warm(std::size_t l, std::size_t n) const;

  // forward()'s last act: the tokens it ran are now held
  void hold(const std::vector<std::int64_t>& tokens);

 private:
  // C and hs rounded up to whole panels of 16
  std::size_t capacity_ = 0, positions_ = 0, kv_ = 0, hs_ = 0, numbers_ = 0;
  std::vector<float> keys_;    // (L, KV, C / 16, hs, 16): Kᵀ in panels of 16 positions
  std::vector<float> values_;  // (L, KV, hs / 16, C, 16): V in panels of 16 of its numbers
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
