#include "lessons/averaging.hpp"

#include <cmath>

#include "random/sampling.hpp"
#include "tensor/mask.hpp"
#include "tensor/matmul.hpp"
#include "tensor/softmax.hpp"

namespace attention {
namespace {

// wei (T, T) @ x (B, T, C), the same wei for every batch element
tensor3 apply_to_batch(const tensor2& wei, const tensor3& x) {
  const std::size_t B = x.shape(0), T = x.shape(1);
  tensor3 weights({B, T, T});
  for (std::size_t b = 0; b < B; ++b)
    std::copy(wei.begin(), wei.end(), weights.begin() + static_cast<std::ptrdiff_t>(b * T * T));
  return weighted_sum(weights, x);
}

}  // namespace

tensor3 average_loop(const tensor3& x) {
  const std::size_t B = x.shape(0), T = x.shape(1), C = x.shape(2);
  tensor3 xbow({B, T, C});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < C; ++c) {
        float sum = 0.0f;
        for (std::size_t s = 0; s <= t; ++s) sum += x(b, s, c);
        xbow(b, t, c) = sum / static_cast<float>(t + 1);
      }
  return xbow;
}

tensor2 tril_average_weights(std::size_t T) {
  tensor2 wei = causal_mask(T, T);
  for (std::size_t i = 0; i < T; ++i) {
    const float row_sum = static_cast<float>(i + 1);  // ones on and below the diagonal
    for (std::size_t j = 0; j < T; ++j) wei(i, j) /= row_sum;
  }
  return wei;
}

tensor3 average_tril(const tensor3& x) { return apply_to_batch(tril_average_weights(x.shape(1)), x); }

tensor2 softmax_average_weights(std::size_t T) {
  const tensor3 zeros({1, T, T}, 0.0f);
  const tensor3 weights = softmax(mask_fill(zeros, causal_mask(T, T)));
  tensor2 wei({T, T});
  std::copy(weights.begin(), weights.end(), wei.begin());
  return wei;
}

tensor3 average_softmax(const tensor3& x) { return apply_to_batch(softmax_average_weights(x.shape(1)), x); }

bool all_close(const tensor3& a, const tensor3& b, float rtol, float atol) {
  if (a.shape() != b.shape()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(std::fabs(a.data()[i] - b.data()[i]) <= atol + rtol * std::fabs(b.data()[i]))) return false;
  return true;
}

averaging_lesson average_three_ways(const tensor3& x) {
  averaging_lesson lesson{average_loop(x), average_tril(x), average_softmax(x)};
  lesson.tril_agrees = all_close(lesson.tril, lesson.loop);
  lesson.softmax_agrees = all_close(lesson.softmax, lesson.loop);
  return lesson;
}

std::vector<matmul_demo> tril_matmul_demos(generator& gen) {
  const tensor2 ones({3, 3}, 1.0f);
  const tensor2 tril = causal_mask(3, 3);
  const tensor2 mean = tril_average_weights(3);
  std::vector<matmul_demo> demos;
  for (const auto& [name, a] : {std::pair{"ones", ones}, std::pair{"tril", tril}, std::pair{"tril / row sums", mean}}) {
    const tensor drawn = randint(gen, 0, 10, {3, 2});
    tensor2 b({3, 2});
    std::copy(drawn.begin(), drawn.end(), b.begin());
    demos.push_back({name, a, b, matmul(a, b)});
  }
  return demos;
}

}  // namespace attention
