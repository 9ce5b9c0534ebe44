// The trace: everything the core computed for a scenario, step by step. The
// page plays it; formats/trace_json.hpp writes it (format v1); tests compare
// it to PyTorch.
#pragma once

#include <string>
#include <vector>

#include "attention/attention.hpp"
#include "tensor/tensor.hpp"

namespace attention {

struct trace {
  std::string id;
  bool batched = false;  // x had a batch axis; if not, steps are written without it
  std::vector<named_tensor> tensors;  // every named tensor, in scenario order
  layer_trace layer;                  // heads and out, always (B, ·, ·)

  const tensor* find_tensor(const std::string& name) const;
};

}  // namespace attention
