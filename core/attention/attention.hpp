// One attention layer, step by step, keeping every intermediate: the trace is
// the result, so what the page animates is what the layer computed.
//
// Letters: B batch, Tq query length, Tkv context length, C channels,
// d_k = head_size of queries and keys, d_v of values.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "tensor/rotary.hpp"
#include "tensor/tensor.hpp"

namespace attention {

// A head's projections and their biases (gpt-v1.md section 3: a GPT's head
// as a scenario); a null pointer is a tensor the scenario did not name.
struct head_weights {
  const tensor2* query = nullptr;  // (C, d_k)
  const tensor2* key = nullptr;    // (C, d_k)
  const tensor2* value = nullptr;  // (C, d_v)
  const tensor1* query_bias = nullptr;  // (d_k), added after x @ W_query
  const tensor1* key_bias = nullptr;    // (d_k)
  const tensor1* value_bias = nullptr;  // (d_v)
};

struct layer_options {
  bool scale = true;         // divide scores by sqrt(d_k)
  float temperature = 1.0f;  // a further divisor, > 0
  // rotary positions on q and k (needs self-attention, every head's q and k, even d_k)
  std::optional<rotary_options> rotary;
};

struct head_trace {
  std::optional<tensor3> q;  // (B, Tq, d_k)   only with query and key
  std::optional<tensor3> k;  // (B, Tkv, d_k)
  std::optional<tensor3> q_rotated;  // (B, Tq, d_k)   only with rotary: q turned by its positions
  std::optional<tensor3> k_rotated;  // (B, Tkv, d_k)
  std::optional<tensor3> v;  // (B, Tkv, d_v)  only with value
  tensor3 scores;            // (B, Tq, Tkv)   q @ kᵀ (rotated with rotary), or zeros
  tensor3 scaled;            // (B, Tq, Tkv)
  tensor3 masked;            // (B, Tq, Tkv)   -inf where the mask is 0
  tensor3 weights;           // (B, Tq, Tkv)   rows sum to 1
  tensor3 out;               // (B, Tq, d_v)

  // The step called `name` ("q" … "out"), or null when this head has none.
  const tensor3* step(std::string_view name) const;
};

// Step names in the order the player shows them.
inline constexpr std::array<std::string_view, 10> step_names = {
    "q", "k", "q_rotated", "k_rotated", "v", "scores", "scaled", "masked", "weights", "out"};

struct layer_trace {
  std::vector<head_trace> heads;
  tensor3 out;  // (B, Tq, Σ d_v), or (B, Tq, C_out) after the output projection
};

// One head: x (B, Tq, C) attends over context (B, Tkv, C) where keep
// (Tq, Tkv) allows it. `head_index` names the head in error messages.
head_trace attend(const tensor3& x, const tensor3& context, const head_weights& weights,
                  const tensor2& keep, const layer_options& options, std::size_t head_index = 0);

// Every head, their outputs concatenated on the last axis, then `@ output`
// (+ output_bias).
layer_trace attend_layer(const tensor3& x, const tensor3& context,
                         const std::vector<head_weights>& heads, const tensor2& keep,
                         const layer_options& options, const tensor2* output = nullptr,
                         const tensor1* output_bias = nullptr);

}  // namespace attention
