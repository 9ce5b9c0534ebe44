#include "tensor/top.hpp"

#include <algorithm>

#include "tensor/softmax.hpp"

namespace attention {

std::vector<token_probability> top_probabilities(const float* logits, std::size_t V, std::size_t k) {
  // the probabilities are softmax's own, so they agree with every other view of them
  return most_probable(softmax(std::vector<float>(logits, logits + V)), k);
}

std::vector<token_probability> most_probable(const std::vector<float>& p, std::size_t k) {
  const std::size_t V = p.size();
  std::vector<std::int64_t> ids(V);
  for (std::size_t i = 0; i < V; ++i) ids[i] = static_cast<std::int64_t>(i);
  k = std::min(k, V);
  const auto more_probable = [&p](std::int64_t a, std::int64_t b) {
    return p[a] != p[b] ? p[a] > p[b] : a < b;
  };
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(k), ids.end(), more_probable);
  std::vector<token_probability> top(k);
  for (std::size_t n = 0; n < k; ++n) top[n] = {ids[n], p[static_cast<std::size_t>(ids[n])]};
  return top;
}

}  // namespace attention
