// A Hugging Face config.json dropped beside a model file (GPT-2's): its
// n_head and activation_function override the file's metadata, its sizes
// (vocab_size, n_positions, n_embd, n_layer, n_inner) must agree with the
// file's tensors, and what the core does not compute is refused in one line:
// another model_type, a layer_norm_epsilon other than the spec's 1e-5, or
// unscaled attention. Other keys are Hugging Face's own business: ignored.
#pragma once

#include <string_view>

#include "models/model_config.hpp"

namespace attention {

model_overrides read_hf_config(std::string_view text);

}  // namespace attention
