#include "models/model_run.hpp"

#include <algorithm>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "tensor/tensor.hpp"

namespace attention {

void check_tokens(const model_config& c, const std::vector<std::int64_t>& tokens, const std::string& place) {
  ATTENTION_CHECK(!tokens.empty(), place, ": empty");
  ATTENTION_CHECK(tokens.size() <= c.length, place, ": ", tokens.size(), " tokens, the model's wpe.weight holds ",
                  c.length, " positions");
  for (std::size_t i = 0; i < tokens.size(); ++i)
    ATTENTION_CHECK(tokens[i] >= 0 && static_cast<std::uint64_t>(tokens[i]) < c.vocab, place, "[", i, "]: ", tokens[i],
                    " is outside [0, ", c.vocab, ")");
  const std::uint64_t T = tokens.size();
  const std::uint64_t attention = saturating_times(saturating_times(c.layers, c.heads), T * T);
  ATTENTION_CHECK(attention <= limits::models::request_attention, place, ": ", T, " tokens ask for ", attention,
                  " attention weights (layers · heads · T²), beyond the limit of ", limits::models::request_attention);
}

model_run run_model(const gpt_model& model, const std::vector<std::int64_t>& tokens, std::size_t top_k) {
  check_tokens(model.config, tokens, "tokens");
  model_run run;
  run.tokens = tokens;
  run.pass = forward(model.weights, model.spec, tokens, 1, {kept::attention, false});
  const std::size_t T = tokens.size(), V = model.config.vocab;
  const float* logits = run.pass.logits.data();  // (1, T, V)
  run.top_k = std::min(top_k, V);
  run.top.reserve(T * run.top_k);
  for (std::size_t t = 0; t < T; ++t) {
    const std::vector<token_probability> top = top_probabilities(logits + t * V, V, run.top_k);
    run.top.insert(run.top.end(), top.begin(), top.end());
  }
  run.last_logits.assign(logits + (T - 1) * V, logits + T * V);
  if (T >= 2) {  // position t predicts token t + 1; the last predicts nothing
    std::vector<std::int64_t> targets(tokens.begin() + 1, tokens.end());
    targets.push_back(-100);
    run.loss = cross_entropy(run.pass.logits, targets).loss;
  }
  // the logits stay (26 MB for GPT-2 on 128 tokens): a new temperature's
  // guesses are read from them (models/generate.hpp) without another forward.
  // The peak is the same: they were there at the forward's end, and the next
  // run frees this one before it starts.
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
