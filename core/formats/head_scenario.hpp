// One head of a GPT on a token sequence as a scenario (scenario-v1.md and
// gpt-v1.md's biases), so that the playground plays it on its real numbers:
// x is the layer's attention input, the head's W_query, W_key, W_value
// ([d, hs]) and the biases it has as values, causal (or not: BERT), scaled,
// rotated as the Llama family rotates (its grouped key/value head's weights). Written for a
// trained model (training_trace.hpp) and a model file (models/) alike.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "transformer/model.hpp"

namespace attention {

struct head_scenario_parts {
  std::string id, title;
  std::vector<std::string> labels;  // one per token, or none (the page labels them by id)
  const float* x = nullptr;          // (T, d): what the layer's heads read
  std::size_t length = 0, embed = 0;
  const model_head* head = nullptr;  // its biases are written when present
  // grouped-query attention: the head whose key and value (and biases) it reads; null: `head`'s own
  const model_head* kv = nullptr;
  std::optional<float> rotary_theta;  // rotary positions: "rotary": {"theta": θ, "offset": 0} (the Llama family)
  bool causal = true;    // false: "mask": "none" (BERT)
};

std::string head_scenario_text(const head_scenario_parts& parts);

}  // namespace attention
