// What a model file's parameter count holds. A nanoGPT export of the
// training room's GPT keeps a key bias in c_attn.bias for every head, all
// zeros: a key bias adds q·b to a whole row of scores, which softmax ignores,
// so training never moves it (gpt-v1.md, sections 1 and 2). The file counts
// those numbers; the training room's count of its weights does not.
#pragma once

#include <cstdint>

#include "models/loaded_model.hpp"

namespace attention {

struct parameter_counts {
  std::uint64_t file = 0;             // config.parameters: every distinct number of the file
  std::uint64_t zero_key_biases = 0;  // the key biases of c_attn.bias that are exactly 0
  std::uint64_t others() const { return file - zero_key_biases; }
};

parameter_counts count_parameters(const loaded_model& model);

}  // namespace attention
