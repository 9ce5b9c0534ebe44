// Why scores are scaled by 1/sqrt(head_size): for unit-variance q and k the
// variance of q·k grows like head_size, and a softmax of large-variance
// scores turns peaky, towards one-hot (notebooks 000 and 003).
#pragma once

#include <cstddef>
#include <vector>

#include "random/generator.hpp"

namespace attention {

// torch.var: the unbiased variance (divides by n - 1).
double variance(const std::vector<float>& values);

struct score_variance {
  std::size_t head_size = 0;
  double k = 0, q = 0;      // var of k = randn(B, T, hs), then q = randn(B, T, hs)
  double scores = 0;        // var of q @ kᵀ: near head_size
  double scaled = 0;        // var of q @ kᵀ · head_size**-0.5: near 1
};

// Draws k then q, as the notebooks do, from `gen`.
score_variance measure_score_variance(generator& gen, std::size_t B, std::size_t T, std::size_t head_size);

// softmax(values · factor): factor 8 on [0.1, -0.2, 0.3, -0.2, 0.5] is peaky.
std::vector<float> softmax_with_factor(const std::vector<float>& values, float factor);

}  // namespace attention
