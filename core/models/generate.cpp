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
                                          std::size_t count, double temperature, std::uint64_t seed) {
  check_tokens(model.config, prompt, "tokens");
  ATTENTION_CHECK(count <= limits::models::generated, "count: ", count, " is beyond the limit of ",
                  limits::models::generated, " tokens");
  check_temperature(temperature);
  sample_spec sample;
  sample.length = count;
  sample.temperature = temperature;
  sample.seed = seed;
  sample.prompt = prompt;
  return sample_ids(model.weights, model.spec, sample);
}

std::vector<tempered_guess> tempered_guesses(const model_run& run, double temperature, std::size_t k) {
  check_temperature(temperature);
  const std::size_t T = run.length(), V = run.pass.logits.shape(2);
  ATTENTION_CHECK(run.pass.logits.size() == T * V && T > 0, "model: the run kept no logits");
  k = std::min(k, V);
  std::vector<tempered_guess> guesses;
  guesses.reserve(T * k);
  for (std::size_t t = 0; t < T; ++t) {
    const float* logits = run.pass.logits.data() + t * V;  // (V) after position t
    const std::vector<float> own = softmax(std::vector<float>(logits, logits + V));
    for (const token_probability& p : most_probable(sampling_distribution(logits, V, temperature), k))
      guesses.push_back({p.id, p.probability, own[static_cast<std::size_t>(p.id)]});
  }
  return guesses;
}

}  // namespace attention
