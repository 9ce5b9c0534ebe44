#include "training/loss.hpp"

#include <cmath>

namespace attention {

loss_value cross_entropy(const tensor3& logits, const std::vector<std::int64_t>& targets) {
  return cross_entropy(logits, exps_of(logits), targets);
}

loss_value cross_entropy(const tensor3& logits, const logit_exps& exps, const std::vector<std::int64_t>& targets) {
  const std::size_t rows = logits.shape(0) * logits.shape(1), V = logits.shape(2);
  const float* data = logits.data();
  const std::vector<float>&maxima = exps.maxima, &sums = exps.sums;
  const std::vector<std::size_t>& best = exps.best;
  double total = 0;
  loss_value result;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::int64_t target = targets[r];
    if (target < 0) continue;
    // log_softmax: x - max - log(Σ exp(x - max))
    const float log_p = data[r * V + static_cast<std::size_t>(target)] - maxima[r] - std::log(sums[r]);
    total += -static_cast<double>(log_p);
    result.counted += 1;
    if (best[r] == static_cast<std::size_t>(target)) result.correct += 1;
  }
  result.loss = result.counted ? static_cast<float>(total / static_cast<double>(result.counted)) : 0.0f;
  return result;
}

std::vector<std::int64_t> predictions(const tensor3& logits) {
  const std::size_t rows = logits.shape(0) * logits.shape(1), V = logits.shape(2);
  std::vector<std::int64_t> out(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = logits.data() + r * V;
    std::size_t best = 0;
    for (std::size_t c = 1; c < V; ++c)
      if (row[c] > row[best]) best = c;
    out[r] = static_cast<std::int64_t>(best);
  }
  return out;
}

}  // namespace attention
