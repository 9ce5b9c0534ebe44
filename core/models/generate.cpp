#include "models/generate.hpp"

#include <cmath>
#include <limits>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "models/model_run.hpp"
#include "training/samples.hpp"

namespace attention {

std::vector<std::int64_t> generate_tokens(const gpt_model& model, const std::vector<std::int64_t>& prompt,
                                          std::size_t count, double temperature, std::uint64_t seed) {
  check_tokens(model.config, prompt, "tokens");
  ATTENTION_CHECK(count <= limits::models::generated, "count: ", count, " is beyond the limit of ",
                  limits::models::generated, " tokens");
  // divided into float32 logits: it must be a positive float32, never 0 or infinite there
  const bool positive = std::isfinite(temperature) && temperature > 0 &&
                        static_cast<float>(temperature) > 0 &&
                        temperature <= std::numeric_limits<float>::max();
  ATTENTION_CHECK(positive, "temperature: expected a number > 0 that fits in float32, got ", temperature);
  ATTENTION_CHECK(temperature >= limits::sampling::temperature_floor, "temperature: ", temperature,
                  " is below the floor of ", limits::sampling::temperature_floor,
                  " (the logits divided by it could overflow float32)");
  sample_spec sample;
  sample.length = count;
  sample.temperature = temperature;
  sample.seed = seed;
  sample.prompt = prompt;
  return sample_ids(model.weights, model.spec, sample);
}

}  // namespace attention
