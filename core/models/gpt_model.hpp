// A GPT read from a model file: what its file says (config) and its weights
// in the training room's own form, so that the one forward() runs it.
#pragma once

#include "models/model_plan.hpp"
#include "transformer/model.hpp"

namespace attention {

struct gpt_model {
  model_config config;
  model_spec spec;        // what forward() reads of the config
  model_weights weights;  // per head (d, hs) as [in, out]; lm_head (V, d) or tied to tok
};

// forward()'s block description of a file's config: gpt-v1's block
// (transformer/model.hpp's gpt_block), its MLP as wide as c_fc's outputs.
inline model_spec spec_of(const model_config& c) {
  return gpt_block(c.vocab, c.length, c.embed, c.heads, c.layers, c.mlp_width, c.norm, c.bias, c.activation);
}

}  // namespace attention
