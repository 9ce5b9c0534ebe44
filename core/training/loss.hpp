// What training minimizes and reports: PyTorch's cross-entropy over the
// targets that count, and the accuracy of the argmax, from the logits'
// exponentials the forward's caller computes once (transformer/model.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tensor/tensor.hpp"
#include "transformer/model.hpp"

namespace attention {

struct loss_value {
  float loss = 0;          // mean cross-entropy over targets ≠ -100
  std::size_t counted = 0;  // how many targets
  std::size_t correct = 0;  // argmax(logits) (first on ties) == target
};

// F.cross_entropy(logits.view(-1, V), y.view(-1), ignore_index=-100), with accuracy.
loss_value cross_entropy(const tensor3& logits, const std::vector<std::int64_t>& targets);
loss_value cross_entropy(const tensor3& logits, const logit_exps& exps, const std::vector<std::int64_t>& targets);

// argmax over the last axis, the first index on ties: (B, T).
std::vector<std::int64_t> predictions(const tensor3& logits);

}  // namespace attention
