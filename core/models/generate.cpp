#include "models/generate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "tensor/softmax.hpp"
#include "tensor/top.hpp"
#include "training/samples.hpp"

namespace attention {

void check_temperature(double temperature) {
  // divided into float32 logits: it must be a positive float32, never 0 or infinite there
  const bool positive = std::isfinite(temperature) && temperature > 0 &&
                        static_cast<float>(temperature) > 0 &&
                        temperature <= std::numeric_limits<float>::max();
  ATTENTION_CHECK(positive, "temperature: expected a number > 0 that fits in float32, got ", temperature);
  ATTENTION_CHECK(temperature >= limits::sampling::temperature_floor, "temperature: ", temperature,
                  " is below the floor of ", limits::sampling::temperature_floor,
                  " (the logits divided by it could overflow float32)");
}

std::vector<std::int64_t> generate_tokens(const gpt_model& model, const std::vector<std::int64_t>& prompt,
                                          std::size_t count, double temperature, std::uint64_t seed,
                                          const warpers& warp) {
  check_tokens(model.config, prompt, "tokens");
  ATTENTION_CHECK(count <= limits::models::generated, "count: ", count, " is beyond the limit of ",
                  limits::models::generated, " tokens");
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

std::vector<tempered_guess> tempered_guesses(const gpt_model& model, const model_run& run, double temperature,
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
    for (std::size_t r = 0; r < n; ++r) {
      const float* row = logits.data() + r * V;  // (V) after position first + r
      const std::vector<float> own = softmax(std::vector<float>(row, row + V));
      const std::vector<float> warped = warped_logits(row, V, temperature, warp);  // (V), -inf: removed
      const std::vector<float> drawn = warp.off() ? std::vector<float>() : softmax(warped);
      const auto remaining = static_cast<std::size_t>(
          std::count_if(warped.begin(), warped.end(), [](float x) { return x != -std::numeric_limits<float>::infinity(); }));
      for (const token_probability& p : most_probable(sampling_distribution(row, V, temperature), k)) {
        const auto id = static_cast<std::size_t>(p.id);
        const bool kept = warped[id] != -std::numeric_limits<float>::infinity();
        guesses.push_back({p.id, p.probability, own[id], kept, warp.off() ? p.probability : drawn[id], remaining});
      }
    }
  }
  return guesses;
}

}  // namespace attention
