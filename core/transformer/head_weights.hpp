// A layer's heads as one matrix and one at a time: every head's query, key
// and value projections side by side as the file lays them out (a model
// file's qkv as it is; training's heads placed so), and one head's
// weights as a head scenario writes them. With a Linear's bias and the
// bytes a model's weights take.
#pragma once

#include <cstddef>

#include "tensor/tensor.hpp"
#include "transformer/model.hpp"
#include "transformer/weight.hpp"

namespace attention {

// out += bias on every row, (B, T, n) + (1, n): a Linear's bias after its
// product, called where the spec gives the part a bias (spec.biases).
void add_bias(tensor3& out, const tensor2& bias);

// Where head j's query, and key/value head g's key and value, sit among the
// outputs of a layer's qkv: all H queries, the KV keys, the KV values.
struct qkv_columns {
  std::size_t heads, kv_heads, hs;
  std::size_t query(std::size_t j) const { return j * hs; }
  std::size_t key(std::size_t g) const { return (heads + g) * hs; }
  std::size_t value(std::size_t g) const { return (heads + kv_heads + g) * hs; }
  std::size_t width() const { return (heads + 2 * kv_heads) * hs; }
};

// The layer's qkv, (d, width): a model file's, or training's float heads
// placed into `placed` in qkv_columns' order and returned.
const weight& qkv_of(const model_layer& layer, const model_spec& spec, weight& placed);

// Query head j of a layer with its key/value head's key and value (spec's
// kv_head(j)) and the biases, each weight (d, hs) as [in, out], widened
// from the layer's qkv. What a head scenario writes.
model_head head_weights(const model_layer& layer, const model_spec& spec, std::size_t j);

// The bytes the weights take: floats and narrow numbers alike (what a model costs).
std::size_t weight_bytes(const model_weights& w);

}  // namespace attention
