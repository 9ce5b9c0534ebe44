#include "lessons/induction.hpp"

#include <algorithm>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "models/work_plan.hpp"
#include "random/sampling.hpp"
#include "transformer/model.hpp"

namespace attention {

std::vector<std::int64_t> induction_lesson_text(std::size_t vocab, std::size_t half, std::size_t batch,
                                                std::uint64_t seed) {
  ATTENTION_CHECK(vocab >= 1 && half >= 2 && batch >= 1, "induction: expected a vocabulary, two tokens a half or more, one sequence or more");
  generator gen(seed);
  std::vector<std::int64_t> text;
  text.reserve(batch * 2 * half);
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<std::int64_t> ids = randint_ids(gen, 0, static_cast<std::int64_t>(vocab), half);
    text.insert(text.end(), ids.begin(), ids.end());
    text.insert(text.end(), ids.begin(), ids.end());  // the repeat an induction head can copy from
  }
  return text;
}

halves_accuracy induction_accuracy(const loaded_model& model, const std::vector<std::int64_t>& text, std::size_t batch,
                                   const std::vector<std::pair<std::size_t, std::size_t>>& ablated) {
  ATTENTION_CHECK(model.spec.causal() && model.spec.vocab >= 1, "induction: the lesson needs a decoder (a GPT)");
  ATTENTION_CHECK(batch >= 1 && batch <= induction_most_sequences, "induction: ", batch, " sequences; the lesson reads 1 to ",
                  induction_most_sequences);
  ATTENTION_CHECK(text.size() % batch == 0 && (text.size() / batch) % 2 == 0 && text.size() / batch >= 4,
                  "induction: ", text.size(), " ids are not ", batch, " sequences of two equal halves");
  const std::size_t T = text.size() / batch, half = T / 2, V = model.config.vocab;
  ATTENTION_CHECK(T <= model.config.length, "induction: sequences of ", T, " tokens, the model reads at most ",
                  model.config.length);
  for (std::size_t i = 0; i < text.size(); ++i)
    ATTENTION_CHECK(text[i] >= 0 && static_cast<std::uint64_t>(text[i]) < V, "induction: sequence ", i / T,
                    ", position ", i % T, ": ", text[i], " is outside [0, ", V, ")");
  for (const auto& [layer, head] : ablated)
    ATTENTION_CHECK(layer < model.config.layers && head < model.config.heads, "induction: ", layer, ".", head,
                    " is not a head of this model (", model.config.layers, " layers of ", model.config.heads, " heads)");
  ATTENTION_CHECK(has_unembedding(model.spec), "induction: the model has no unembedding");

  // each sequence is one run's work (checked as the page's runs are), the batch that many
  const work_plan one = check_work(model.config, model.spec, {work_kind::run, T, 0}, "induction");
  ATTENTION_CHECK(one.multiply_adds <= limits::models::request_multiply_adds / batch, "induction: ", batch,
                  " sequences of ", T, " tokens are more work than one request may be (",
                  limits::models::request_multiply_adds, " multiply-adds)");

  // zeros, as lens-v1's ablate (lens/ablate.cpp) asks of forward()
  const head_ablation ablation{ablated, false};
  forward_options options{kept::logits, false, true};
  if (!ablated.empty()) options.ablation = &ablation;
  // sequences a forward at a time: whole (n, T, V) logits within the logits' block and the request's bytes
  const std::size_t chunk = std::max<std::size_t>(
      1, std::min<std::uint64_t>(limits::models::logits_block / (T * V),
                                 limits::models::request_bytes / std::max<std::uint64_t>(1, one.bytes.total())));
  std::size_t right_first = 0, right_repeated = 0;
  for (std::size_t first = 0; first < batch; first += chunk) {
    const std::size_t n = std::min(chunk, batch - first);
    const std::vector<std::int64_t> rows(text.begin() + first * T, text.begin() + (first + n) * T);
    const forward_pass pass = forward(model.weights, model.spec, rows, n, options);
    const float* logits = pass.logits.data();  // (n, T, V)
    for (std::size_t b = 0; b < n; ++b)
      for (std::size_t t = 0; t + 1 < T; ++t) {
        if (t + 1 == half) continue;  // the repeat's first token: nothing before says what it is
        const float* row = logits + (b * T + t) * V;
        const auto guess = static_cast<std::int64_t>(std::max_element(row, row + V) - row);  // ties: the lower id
        if (guess == rows[b * T + t + 1]) (t + 1 < half ? right_first : right_repeated) += 1;
      }
  }
  const double per_half = static_cast<double>(batch * (half - 1));
  return {static_cast<double>(right_first) / per_half, static_cast<double>(right_repeated) / per_half,
          1.0 / static_cast<double>(V)};
}

}  // namespace attention
