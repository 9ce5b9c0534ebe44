// The biases a plan's tensors hold, read into the block description
// (transformer/block.hpp's bias_spec) once, where the model is planned: a
// GPT file's Linears and LayerNorms may each lack their bias (nanoGPT's
// bias=False), and a family's optional ones may be given. A part's bias is
// then every layer's or none, so that forward() and the lenses read a flag
// per part, never a tensor's presence.
#pragma once

#include "models/model_plan.hpp"
#include "transformer/block.hpp"

namespace attention {

// One flag per part. A weight without the bias its part has elsewhere is
// refused in one line naming it ("h.1.attn.c_proj.weight: no bias beside it,
// where h.0.attn.c_proj.bias is given; ...").
bias_spec biases_of(const model_plan& plan);

}  // namespace attention
