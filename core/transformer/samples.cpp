#include "transformer/samples.hpp"

#include <algorithm>
#include <optional>

#include "random/generator.hpp"
#include "random/sampling.hpp"
#include "tensor/softmax.hpp"
#include "transformer/kv_cache.hpp"

namespace attention {

namespace {

// (V): forward() over the window ids[-T:], only its last position's logits
// and nothing of the layers kept: without GPT-2's 50,257-wide unembedding at
// every position. What every step computed before the cache.
std::vector<float> recomputed_logits(const model_weights& w, const model_spec& spec, const std::vector<std::int64_t>& ids) {
  const std::size_t start = ids.size() > spec.length ? ids.size() - spec.length : 0;
  const std::vector<std::int64_t> window(ids.begin() + static_cast<std::ptrdiff_t>(start), ids.end());
  const forward_pass pass = forward(w, spec, window, 1, {kept::logits, true});
  return std::vector<float>(pass.logits.data(), pass.logits.data() + pass.logits.size());  // (1, 1, V)
}

}  // namespace

std::vector<std::int64_t> sample_ids(const model_weights& w, const model_spec& spec, const sample_spec& sample,
                                     std::vector<float>* steps) {
  generator gen(sample.seed);  // the saved-and-restored global generator of torch_train.py: a fresh one here
  std::vector<std::int64_t> ids = sample.prompt;
  const std::size_t V = spec.vocab;
  // room for the longest window a step reads (the last step's ids but the one it draws)
  std::optional<kv_cache> cache;
  if (sample.cached && spec.causal() && sample.length > 0)
    cache.emplace(spec, std::min(spec.length, std::max<std::size_t>(1, ids.size() + sample.length - 1)));
  for (std::size_t n = 0; n < sample.length; ++n) {
    const std::vector<float> last = cache ? next_logits(w, spec, *cache, ids) : recomputed_logits(w, spec, ids);  // (V)
    if (steps != nullptr) steps->insert(steps->end(), last.begin(), last.end());
    const std::vector<float> p = sampling_distribution(last.data(), V, sample.temperature, sample.warp);
    const float u = rand(gen, {1})(0);
    // none above u (the float32 sum fell short of 1): the last token kept
    std::int64_t next = static_cast<std::int64_t>(V) - 1;
    if (!sample.warp.off())
      while (next > 0 && p[static_cast<std::size_t>(next)] == 0.0f) --next;
    double sum = 0;  // PyTorch's CPU cumsum accumulates float32 in double
    for (std::size_t c = 0; c < V; ++c) {
      sum += p[c];
      if (static_cast<float>(sum) > u) {
        next = static_cast<std::int64_t>(c);
        break;
      }
    }
    ids.push_back(next);
  }
  return {ids.begin() + static_cast<std::ptrdiff_t>(sample.prompt.size()), ids.end()};
}

std::vector<float> sampling_distribution(const float* logits, std::size_t V, double temperature,
                                         const warpers& warp) {
  return softmax(warped_logits(logits, V, temperature, warp));
}

std::vector<float> warped_logits(const float* logits, std::size_t V, double temperature, const warpers& warp) {
  const auto t = static_cast<float>(temperature);
  std::vector<float> scaled(V);
  for (std::size_t c = 0; c < V; ++c) scaled[c] = logits[c] / t;
  apply_warpers(scaled, warp);  // transformers' order: temperature, top-k, top-p
  return scaled;
}

}  // namespace attention
