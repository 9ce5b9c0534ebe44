#include "transformer/warpers.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "errors/check.hpp"
#include "tensor/softmax.hpp"

namespace attention {

namespace {
constexpr float removed = -std::numeric_limits<float>::infinity();  // transformers' filter_value
}

void check_warpers(const warpers& w, std::size_t V) {
  ATTENTION_CHECK(w.top_k <= V, "top_k: ", w.top_k, " is more than the vocabulary's ", V, " tokens (0 turns it off)");
  ATTENTION_CHECK(std::isfinite(w.top_p) && w.top_p > 0 && w.top_p <= 1, "top_p: expected a number in (0, 1], got ",
                  w.top_p, " (1 turns it off)");
}

void top_k_filter(std::vector<float>& logits, std::size_t k) {
  if (k == 0 || k >= logits.size()) return;
  // scores < torch.topk(scores, k)[0][..., -1]: the k-th largest, ties kept
  std::vector<float> sorted = logits;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k - 1), sorted.end(), std::greater<float>());
  const float kth = sorted[k - 1];
  for (float& x : logits)
    if (x < kth) x = removed;
}

void top_p_filter(std::vector<float>& logits, double p) {
  if (p >= 1.0) return;  // transformers adds the warper only for top_p < 1
  const std::size_t V = logits.size();
  // torch.sort(scores, descending=False): ascending. Its order of equal
  // logits is unspecified (not stable on the CPU); here the higher id comes
  // first, so a tie at the edge keeps the lower id, as the bars list it first.
  std::vector<std::size_t> order(V);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return logits[a] < logits[b] || (logits[a] == logits[b] && a > b); });
  std::vector<float> sorted(V);  // (V) ascending
  for (std::size_t n = 0; n < V; ++n) sorted[n] = logits[order[n]];
  const std::vector<float> probabilities = softmax(sorted);
  // cumulative_probs <= (1 - top_p): the Python double compared with a
  // float32 tensor is rounded to float32 first
  const auto limit = static_cast<float>(1.0 - p);
  double sum = 0;  // PyTorch's CPU cumsum: in double, each partial rounded to float32
  for (std::size_t n = 0; n + 1 < V; ++n) {  // the last (min_tokens_to_keep = 1) always stays
    sum += probabilities[n];
    if (static_cast<float>(sum) <= limit) logits[order[n]] = removed;
  }
}

void apply_warpers(std::vector<float>& logits, const warpers& w) {
  top_k_filter(logits, w.top_k);
  top_p_filter(logits, w.top_p);
}

}  // namespace attention
