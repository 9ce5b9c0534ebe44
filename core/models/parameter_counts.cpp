#include "models/parameter_counts.hpp"

namespace attention {

parameter_counts count_parameters(const loaded_model& model) {
  parameter_counts counts;
  counts.file = model.config.parameters;
  // a file without c_attn.bias leaves every key_bias empty
  for (const model_layer& layer : model.weights.layers)
    for (const model_head& head : layer.heads)
      for (const float b : head.key_bias)
        if (b == 0.0f) ++counts.zero_key_biases;
  return counts;
}

}  // namespace attention
