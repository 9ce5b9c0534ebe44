#include "lens/scores.hpp"

#include <algorithm>
#include <cstddef>

#include "random/generator.hpp"
#include "random/sampling.hpp"
#include "transformer/model.hpp"

namespace attention {
namespace {

// JSON's null for a score that has no rows to average
nlohmann::ordered_json or_null(double total, std::size_t rows) {
  if (rows == 0) return nullptr;
  return total / static_cast<double>(rows);
}

// head h of layer l's weights, (T, T): row i the weights of query i
const float* weights_of(const forward_pass& pass, std::size_t layer, std::size_t head) {
  return pass.layers[layer].heads[head].weights.data();
}

}  // namespace

std::vector<std::int64_t> induction_tokens(const loaded_model& model) {
  const std::size_t n = std::min<std::size_t>(50, model.config.length / 2);
  generator gen(0);
  std::vector<std::int64_t> half = randint_ids(gen, 0, static_cast<std::int64_t>(model.config.vocab), n);
  std::vector<std::int64_t> twice = half;
  twice.insert(twice.end(), half.begin(), half.end());
  return twice;
}

nlohmann::ordered_json head_scores_lens(const loaded_model& model, const std::vector<std::int64_t>& tokens) {
  const std::vector<std::int64_t> repeated = induction_tokens(model);
  const forward_options attention_only{kept::attention, false, false};  // each head's weights; no logits
  const forward_pass pass = forward(model.weights, model.spec, tokens, 1, attention_only);
  const std::size_t T = tokens.size(), n = repeated.size() / 2;
  forward_pass induced;
  if (n > 0) induced = forward(model.weights, model.spec, repeated, 1, attention_only);
  nlohmann::ordered_json heads = nlohmann::ordered_json::array();
  for (std::size_t l = 0; l < pass.layers.size(); ++l)
    for (std::size_t h = 0; h < pass.layers[l].heads.size(); ++h) {
      const float* A = weights_of(pass, l, h);  // (T, T)
      double previous = 0, first = 0, duplicate = 0;
      std::size_t duplicated = 0;
      for (std::size_t i = 1; i < T; ++i) {
        previous += A[i * T + i - 1];
        first += A[i * T];
      }
      for (std::size_t i = 0; i < T; ++i) {
        bool repeats = false;
        double sum = 0;  // the row's weight on earlier copies of its token
        for (std::size_t j = 0; j < i; ++j)
          if (tokens[j] == tokens[i]) {
            repeats = true;
            sum += A[i * T + j];
          }
        if (repeats) {
          duplicate += sum;
          duplicated += 1;
        }
      }
      double induction = 0;
      if (n > 0) {
        const float* B = weights_of(induced, l, h);  // (2n, 2n)
        for (std::size_t i = n; i < 2 * n; ++i) induction += B[i * 2 * n + i - n + 1];
      }
      nlohmann::ordered_json head;
      head["layer"] = l;
      head["head"] = h;
      head["previous_token"] = or_null(previous, T - 1);
      head["first_token"] = or_null(first, T - 1);
      head["duplicate_token"] = or_null(duplicate, duplicated);
      head["induction"] = or_null(induction, n);
      heads.push_back(std::move(head));
    }
  nlohmann::ordered_json out;
  out["version"] = 1;
  out["lens"] = "scores";
  out["tokens"] = tokens;
  out["induction_tokens"] = repeated;
  out["heads"] = std::move(heads);
  return out;
}

}  // namespace attention
