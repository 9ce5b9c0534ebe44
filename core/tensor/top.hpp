// What a model predicts next: the most probable entries of softmax(logits),
// most probable first, ties by the lower id (as `sorted(range(V), key=lambda
// i: (-p[i], i))` orders them in the PyTorch references).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attention {

struct token_probability {
  std::int64_t id = 0;
  float probability = 0;
};

// logits: one row of V finite numbers; k: how many to keep (at most V).
std::vector<token_probability> top_probabilities(const float* logits, std::size_t V, std::size_t k);

// The k most probable entries of p (a distribution over V ids), in that order.
std::vector<token_probability> most_probable(const std::vector<float>& p, std::size_t k);

}  // namespace attention
