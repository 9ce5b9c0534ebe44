// A model file's weights as forward() reads them when they are kept narrow
// (model_layer::narrow, model_weights::tok_narrow …): a Linear's product on
// the narrow matrix in the file's layout, or on training's float tensor,
// the same bits either way (tensor/narrow_matmul.hpp); and one head's
// weights widened as training holds them, for a head as a scenario.
#pragma once

#include <cstddef>

#include "tensor/narrow.hpp"
#include "tensor/tensor.hpp"
#include "transformer/model.hpp"

namespace attention {

// x @ W, (B, T, in) -> (B, T, out): the narrow W when it is there ([in, out]
// with conv1d, else [out, in]), else training's float W (in, out). No bias.
tensor3 product_of(const tensor3& x, const tensor2& w, const narrow_matrix& narrow, bool conv1d);

// out += bias on every row, (B, T, n) + (1, n): a Linear's bias after its
// product; nothing when the model has none (an empty bias).
void add_bias(tensor3& out, const tensor2& bias);

// Where head j's query, and key/value head g's key and value, sit among the
// outputs of a layer's narrow qkv: all H queries, the KV keys, the KV values.
struct qkv_columns {
  std::size_t heads, kv_heads, hs;
  std::size_t query(std::size_t j) const { return j * hs; }
  std::size_t key(std::size_t g) const { return (heads + g) * hs; }
  std::size_t value(std::size_t g) const { return (heads + kv_heads + g) * hs; }
  std::size_t width() const { return (heads + 2 * kv_heads) * hs; }
};

// Query head j of a layer with its key/value head's key and value (spec's
// kv_head(j)) and the biases, each weight (d, hs) as [in, out]: the float
// tensors, or widened from the layer's narrow qkv. What a head scenario writes.
model_head head_weights(const model_layer& layer, const model_spec& spec, std::size_t j);

// The bytes the weights take: floats and narrow numbers alike (what a model costs).
std::size_t weight_bytes(const model_weights& w);

}  // namespace attention
