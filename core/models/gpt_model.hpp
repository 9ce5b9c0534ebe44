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

// forward()'s view of a file's config. The MLP's presence is its weights';
// `mlp` is only its width over d, rounded up.
inline model_spec spec_of(const model_config& c) {
  model_spec s;
  s.vocab = c.vocab;
  s.length = c.length;
  s.embed = c.embed;
  s.heads = c.heads;
  s.layers = c.layers;
  s.mlp = (c.mlp_width + c.embed - 1) / c.embed;
  s.norm = c.norm;
  s.bias = c.bias;
  s.activation = c.activation;
  return s;
}

}  // namespace attention
