// Training's starting weights: every parameter drawn in the spec's order
// from the PyTorch-exact generator, so a run starts where torch_train.py's
// does. A model file's weights are read instead (models/).
#pragma once

#include "random/generator.hpp"
#include "transformer/model.hpp"

namespace attention {

// nn.Embedding, nn.Embedding, then per layer per head key, query, value,
// then proj, fc, fc2 (each nn.Linear its weight, then its bias), then the
// unembedding; LayerNorms draw nothing.
model_weights init_weights(generator& gen, const model_spec& spec);

}  // namespace attention
