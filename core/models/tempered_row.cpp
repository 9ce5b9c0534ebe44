#include "models/tempered_row.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "tensor/softmax.hpp"
#include "tensor/top.hpp"
#include "transformer/samples.hpp"

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

void append_tempered(const float* row, std::size_t V, const tempering& at, std::size_t k,
                     std::vector<tempered_guess>& guesses) {
  const warpers& warp = at.warp;
  const std::vector<float> own = softmax(std::vector<float>(row, row + V));
  const std::vector<float> warped = warped_logits(row, V, at.temperature, warp);  // (V), -inf: removed
  const std::vector<float> drawn = warp.off() ? std::vector<float>() : softmax(warped);
  const auto remaining = static_cast<std::size_t>(std::count_if(
      warped.begin(), warped.end(), [](float x) { return x != -std::numeric_limits<float>::infinity(); }));
  for (const token_probability& p : most_probable(sampling_distribution(row, V, at.temperature), k)) {
    const auto id = static_cast<std::size_t>(p.id);
    const bool kept = warped[id] != -std::numeric_limits<float>::infinity();
    guesses.push_back({p.id, p.probability, own[id], kept, warp.off() ? p.probability : drawn[id], remaining});
  }
}

}  // namespace attention
