#include "lessons/lessons.hpp"

#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "lessons/averaging.hpp"
#include "lessons/renormalize.hpp"
#include "lessons/scaling.hpp"
#include "lessons/space.hpp"
#include "random/sampling.hpp"

namespace attention {
namespace {

using nlohmann::json;

template <typename T>
json tensor_json(const T& t) {
  return {{"shape", std::vector<std::size_t>(t.shape().begin(), t.shape().end())},
          {"data", std::vector<float>(t.begin(), t.end())}};
}

}  // namespace

std::string averaging_lesson_json(std::uint64_t seed, std::size_t B, std::size_t T, std::size_t C) {
  ATTENTION_CHECK(B >= 1 && B <= 8 && T >= 1 && T <= 64 && C >= 1 && C <= 16,
                  "averaging lesson: B, T, C must be 1-8, 1-64, 1-16");
  generator gen(seed);
  tensor3 x({B, T, C});
  fill_uniform(gen, x.data(), x.size(), 0.0f, 1.0f);  // torch.rand(B, T, C)
  const averaging_lesson lesson = average_three_ways(x);
  json demos = json::array();
  for (const matmul_demo& d : tril_matmul_demos(gen))
    demos.push_back({{"name", d.name}, {"a", tensor_json(d.a)}, {"b", tensor_json(d.b)}, {"c", tensor_json(d.c)}});
  return json{{"x", tensor_json(x)},
              {"loop", tensor_json(lesson.loop)},
              {"tril", tensor_json(lesson.tril)},
              {"softmax", tensor_json(lesson.softmax)},
              {"tril_agrees", lesson.tril_agrees},
              {"softmax_agrees", lesson.softmax_agrees},
              {"tril_weights", tensor_json(tril_average_weights(T))},
              {"softmax_weights", tensor_json(softmax_average_weights(T))},
              {"demos", demos}}
      .dump();
}

std::string scaling_lesson_json(std::uint64_t seed, std::size_t B, std::size_t T,
                                const std::vector<std::size_t>& head_sizes, const std::vector<float>& values,
                                const std::vector<float>& factors) {
  // Each size on its own first: B · T must not wrap on a 32-bit size_t.
  ATTENTION_CHECK(B >= 1 && T >= 1 && B <= 4096 && T <= 4096 && B * T <= 4096 && !head_sizes.empty() &&
                      head_sizes.size() <= 16,
                  "scaling lesson: at most 4096 positions (B · T) and 16 head sizes");
  std::uint64_t work = 0;  // q @ kᵀ for every head size: B · T · T · head_size
  for (std::size_t hs : head_sizes) {
    ATTENTION_CHECK(hs >= 1 && hs <= 1024, "scaling lesson: head sizes must be 1-1024");
    work += static_cast<std::uint64_t>(B) * T * T * hs;
  }
  ATTENTION_CHECK(work <= limits::multiply_adds, "scaling lesson: B · T · T · head sizes = ", work,
                  " multiply-adds; the limit is ", limits::multiply_adds);
  ATTENTION_CHECK(values.size() >= 1 && values.size() <= 64 && factors.size() <= 16,
                  "scaling lesson: 1 to 64 values and at most 16 factors");
  for (float factor : factors)
    for (float v : values)
      ATTENTION_CHECK(std::isfinite(v) && std::isfinite(factor) && std::isfinite(v * factor),
                      "scaling lesson: values and factors must be finite, and so must their products");
  json variances = json::array();
  generator gen(seed);
  for (std::size_t hs : head_sizes) {
    const score_variance v = measure_score_variance(gen, B, T, hs);
    variances.push_back({{"head_size", hs}, {"k", v.k}, {"q", v.q}, {"scores", v.scores}, {"scaled", v.scaled}});
  }
  json softmaxes = json::array();
  for (float factor : factors) {
    std::vector<float> times(values);
    for (float& v : times) v *= factor;
    softmaxes.push_back({{"factor", factor},
                         {"weights", softmax_with_factor(values, factor)},
                         {"variance", values.size() >= 2 ? variance(times) : 0.0}});
  }
  return json{{"variances", variances}, {"values", values}, {"softmax", softmaxes}}.dump();
}

std::string space_lesson_json(const scenario& s, const trace& t, const std::vector<std::size_t>& permutation,
                              bool add_positions) {
  const space_lesson lesson = permute_tokens(s, t, permutation, add_positions);
  return json{{"permutation", lesson.permutation},
              {"positions", add_positions},
              {"out", tensor_json(lesson.out)},
              {"permuted_out", tensor_json(lesson.permuted_out)},
              {"equivariant", lesson.equivariant},
              {"largest_difference", lesson.largest_difference}}
      .dump();
}

std::string renormalize_lesson_json(const trace& t, std::size_t head, const tensor2& keep) {
  const renormalize_lesson lesson = mask_after_softmax_lesson(t, head, keep);
  json row_sums = tensor_json(lesson.row_sums);
  row_sums["shape"] = {lesson.row_sums.shape(0), lesson.row_sums.shape(1)};  // (B, Tq): one sum a row
  return json{{"head", head},
              {"unmasked", tensor_json(lesson.unmasked)},
              {"zeroed", tensor_json(lesson.zeroed)},
              {"row_sums", row_sums},
              {"renormalized", tensor_json(lesson.renormalized)},
              {"agrees", lesson.agrees},
              {"largest_difference", lesson.largest_difference}}
      .dump();
}

}  // namespace attention
