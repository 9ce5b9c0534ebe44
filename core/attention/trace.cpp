#include "attention/trace.hpp"

namespace attention {

const tensor* trace::find_tensor(const std::string& name) const {
  for (const named_tensor& t : tensors)
    if (t.name == name) return &t.value;
  return nullptr;
}

}  // namespace attention
