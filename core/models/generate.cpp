#include "models/generate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "transformer/samples.hpp"

namespace attention {

std::vector<std::int64_t> generate_tokens(const loaded_model& model, const std::vector<std::int64_t>& prompt,
                                          std::size_t count, double temperature, std::uint64_t seed,
                                          const warpers& warp) {
  check_token_ids(model.config, prompt, "tokens");
  ATTENTION_CHECK(count <= limits::models::generated, "count: ", count, " is beyond the limit of ",
                  limits::models::generated, " tokens");
  // the whole run, the generated tokens' forwards too (a sliding window's every step)
  check_work(model.config, model.spec, {work_kind::generate, prompt.size(), count}, "tokens", "count");
  check_temperature(temperature);
  check_warpers(warp, model.config.vocab);
  sample_spec sample;
  sample.length = count;
  sample.temperature = temperature;
  sample.seed = seed;
  sample.prompt = prompt;
  sample.warp = warp;
  return sample_ids(model.weights, model.spec, sample);
}

std::vector<tempered_guess> tempered_guesses(const loaded_model& model, const model_run& run, double temperature,
                                            std::size_t k, const warpers& warp) {
  check_temperature(temperature);
  check_warpers(warp, model.config.vocab);
  const std::size_t T = run.length(), V = model.config.vocab;
  ATTENTION_CHECK(T > 0 && run.pass.unembedded().size() == T * model.config.embed, "model: nothing run");
  k = std::min(k, V);
  std::vector<tempered_guess> guesses;
  guesses.reserve(T * k);
  // the logits made again as run_model made them, a block of rows at a time
  const std::size_t block = std::max<std::size_t>(1, limits::models::logits_block / V);
  for (std::size_t first = 0; first < T; first += block) {
    const std::size_t n = std::min(block, T - first);
    const tensor3 logits = logits_of(model, run, first, n);  // (1, n, V)
    for (std::size_t r = 0; r < n; ++r) append_tempered(logits.data() + r * V, V, {temperature, warp}, k, guesses);
  }
  return guesses;
}

}  // namespace attention
