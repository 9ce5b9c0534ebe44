// Runs a validated scenario: draws its tensors in order from PyTorch's
// generator, then runs the attention layer, recording every step.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "attention/scenario.hpp"
#include "attention/trace.hpp"

namespace attention {

trace run(const scenario& s);

// The layer's weights as the scenario names them, as matrices taken from a
// trace's tensors: what attend_layer needs. The matrices live in this struct
// (std::map keeps their addresses), so it moves but never copies.
struct layer_weights {
  std::map<std::string, tensor2> matrices;
  std::map<std::string, tensor1> biases;
  std::vector<head_weights> heads;
  const tensor2* output = nullptr;
  const tensor1* output_bias = nullptr;

  layer_weights() = default;
  layer_weights(layer_weights&&) = default;
  layer_weights(const layer_weights&) = delete;
  layer_weights& operator=(const layer_weights&) = delete;
};

layer_weights layer_weights_of(const scenario& s, const trace& t);

}  // namespace attention
