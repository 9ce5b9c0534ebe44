// Softmax over the last axis, numerically stable: the row max is subtracted
// before exp, so no finite input overflows and -inf entries become exactly 0.
#pragma once

#include "tensor/tensor.hpp"

namespace attention {

// (B, Tq, Tkv) -> (B, Tq, Tkv), every row sums to 1. A row with no finite
// entry has no distribution: that throws (scenario validation rules it out).
tensor3 softmax(const tensor3& masked);

// One row, for the lessons: softmax(values) over a plain vector.
std::vector<float> softmax(const std::vector<float>& values);

}  // namespace attention
