#include "models/model_run.hpp"

#include <algorithm>
#include <cmath>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "tensor/tensor.hpp"

namespace attention {

void check_token_ids(const model_config& c, const std::vector<std::int64_t>& tokens, const std::string& place) {
  ATTENTION_CHECK(!tokens.empty(), place, ": empty");
  ATTENTION_CHECK(tokens.size() <= c.length, place, ": ", tokens.size(), " tokens, the model's wpe.weight holds ",
                  c.length, " positions");
  for (std::size_t i = 0; i < tokens.size(); ++i)
    ATTENTION_CHECK(tokens[i] >= 0 && static_cast<std::uint64_t>(tokens[i]) < c.vocab, place, "[", i, "]: ", tokens[i],
                    " is outside [0, ", c.vocab, ")");
}

void check_tokens(const loaded_model& model, const std::vector<std::int64_t>& tokens, const std::string& place,
                  work_kind kind) {
  check_token_ids(model.config, tokens, place);
  check_work(model.config, model.spec, {kind, tokens.size(), 0}, place);
}

void check_tokens(const model_config& c, const std::vector<std::int64_t>& tokens, const std::string& place) {
  check_token_ids(c, tokens, place);
  check_work(c, spec_of(c), {work_kind::run, tokens.size(), 0}, place);
}

namespace {

// Rows [first, first + n) of x, (1, T, d) -> (1, n, d)
tensor3 rows_of(const tensor3& x, std::size_t first, std::size_t n) {
  const std::size_t d = x.shape(2);
  tensor3 rows({1, n, d});
  std::copy_n(x.data() + first * d, n * d, rows.data());
  return rows;
}

}  // namespace

tensor3 logits_of(const loaded_model& model, const model_run& run, std::size_t first, std::size_t n) {
  return unembed(rows_of(run.pass.unembedded(), first, n), model.weights, model.spec);
}

model_run run_model(const loaded_model& model, const std::vector<std::int64_t>& tokens, std::size_t top_k,
                    const std::optional<tempering>& at) {
  check_tokens(model, tokens, "tokens");
  if (at) {
    check_temperature(at->temperature);
    check_warpers(at->warp, model.config.vocab);
  }
  model_run run;
  run.tokens = tokens;
  run.pass = forward(model.weights, model.spec, tokens, 1, {kept::attention, false, false});
  const std::size_t T = tokens.size(), V = model.config.vocab;
  run.top_k = std::min(top_k, V);
  run.top.reserve(T * run.top_k);
  if (at) run.tempered.reserve(T * run.top_k);
  // The (T, V) logits a block of whole rows at a time, never all at once:
  // GPT-2's vocabulary on 1,024 tokens would be 206 MB.
  const std::size_t block = std::max<std::size_t>(1, limits::models::logits_block / V);
  double total = 0;  // Σ −log p(next token), as cross_entropy sums it
  for (std::size_t first = 0; first < T; first += block) {
    const std::size_t n = std::min(block, T - first);
    const tensor3 logits = logits_of(model, run, first, n);  // (1, n, V)
    for (std::size_t r = 0; r < n; ++r) {
      const float* row = logits.data() + r * V;
      ATTENTION_CHECK(std::all_of(row, row + V, [](float x) { return std::isfinite(x); }),
                      "overflow: the logits after position ", first + r,
                      " are not finite in float32 (inf or nan); the weights or inputs are too large");
      const std::vector<token_probability> top = top_probabilities(row, V, run.top_k);
      run.top.insert(run.top.end(), top.begin(), top.end());
      if (at) append_tempered(row, V, *at, run.top_k, run.tempered);
    }
    if (first + n == T) run.last_logits.assign(logits.data() + (n - 1) * V, logits.data() + n * V);
    // position t predicts token t + 1; the last predicts nothing
    const logit_exps exps = exps_of(logits);
    for (std::size_t r = 0; r < n && first + r + 1 < T; ++r) {
      const auto target = static_cast<std::size_t>(tokens[first + r + 1]);
      const float log_p = logits.data()[r * V + target] - exps.maxima[r] - std::log(exps.sums[r]);
      total += -static_cast<double>(log_p);
    }
  }
  if (T >= 2) run.loss = static_cast<float>(total / static_cast<double>(T - 1));
  // what the unembedding reads stays, (1, T, d), small beside the logits:
  // another temperature's guesses make the logits again from it, a block at
  // a time (models/generate.hpp), without another forward
  return run;
}

std::vector<head_score> run_head_scores(const model_run& run) {
  const std::size_t L = run.pass.layers.size(), H = L ? run.pass.layers[0].heads.size() : 0, T = run.length();
  tensor attention = xt::zeros<float>(std::vector<std::size_t>{L, H, T, T});  // (layers, heads, T, T)
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t h = 0; h < H; ++h) std::copy_n(run.attention(l, h), T * T, &attention(l, h, 0, 0));
  return head_scores(attention, patterns_of(run.tokens));
}

}  // namespace attention
