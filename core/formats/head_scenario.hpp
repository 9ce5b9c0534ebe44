// One head of a GPT on a token sequence as a scenario (scenario-v1.md and
// gpt-v1.md's biases), so that the playground plays it on its real numbers:
// x is the layer's attention input, the head's W_query, W_key, W_value
// ([d, hs]) and the biases it has as values, causal, scaled. Written for a
// trained model (training_trace.hpp) and a model file (models/) alike.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "training/model.hpp"

namespace attention {

struct head_scenario_parts {
  std::string id, title;
  std::vector<std::string> labels;  // one per token, or none (the page labels them by id)
  const float* x = nullptr;          // (T, d): what the layer's heads read
  std::size_t length = 0, embed = 0;
  const model_head* head = nullptr;  // its biases are written when present
};

std::string head_scenario_text(const head_scenario_parts& parts);

}  // namespace attention
