#include "lessons/scaling.hpp"

#include <cmath>

#include "errors/check.hpp"
#include "random/sampling.hpp"
#include "tensor/matmul.hpp"
#include "tensor/softmax.hpp"

namespace attention {

double variance(const std::vector<float>& values) {
  ATTENTION_CHECK(values.size() >= 2, "variance: needs at least two values");
  double mean = 0.0;  // double accumulators: a variance of millions of floats
  for (float v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double squares = 0.0;
  for (float v : values) squares += (v - mean) * (v - mean);
  return squares / static_cast<double>(values.size() - 1);
}

score_variance measure_score_variance(generator& gen, std::size_t B, std::size_t T, std::size_t head_size) {
  ATTENTION_CHECK(B * T * head_size >= 2, "score variance: needs at least two samples");
  tensor3 k({B, T, head_size}), q({B, T, head_size});
  fill_normal(gen, k.data(), k.size());  // k first, as in the notebooks
  fill_normal(gen, q.data(), q.size());
  const tensor3 scores = scores_of(q, k);  // (B, T, T)
  const float factor = static_cast<float>(std::pow(static_cast<double>(head_size), -0.5));

  score_variance result;
  result.head_size = head_size;
  result.k = variance({k.begin(), k.end()});
  result.q = variance({q.begin(), q.end()});
  std::vector<float> values(scores.begin(), scores.end());
  result.scores = variance(values);
  for (float& v : values) v *= factor;
  result.scaled = variance(values);
  return result;
}

std::vector<float> softmax_with_factor(const std::vector<float>& values, float factor) {
  std::vector<float> scaled(values);
  for (float& v : scaled) v *= factor;
  return softmax(scaled);
}

}  // namespace attention
