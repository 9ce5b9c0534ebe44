#include "lens/ablate.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "tensor/top.hpp"
#include "transformer/model.hpp"

namespace attention {
namespace {

// One run's view at the read position: its logits, the ten most probable
// tokens (ties by the lower id) and the mean next-token cross-entropy
// (decoders with two tokens or more; else null).
nlohmann::ordered_json view_of(const loaded_model& model, const forward_pass& pass, const std::vector<std::int64_t>& tokens,
                               std::size_t position, bool decoder) {
  const tensor3& x = pass.unembedded();  // (1, T, d)
  const std::size_t T = tokens.size(), d = x.shape(2), V = model.config.vocab;
  // the logits a block of rows at a time (never (T, V) whole), as run_model makes them
  const std::size_t block = std::max<std::size_t>(1, limits::models::logits_block / V);
  const std::size_t first_row = decoder ? 0 : position, rows = decoder ? T : position + 1;
  double total = 0;  // Σ −log p(next token)
  std::vector<float> read(V);
  for (std::size_t first = first_row; first < rows; first += block) {
    const std::size_t n = std::min(block, rows - first);
    tensor3 part({1, n, d});
    std::copy_n(x.data() + first * d, n * d, part.data());
    const tensor3 logits = unembed(part, model.weights, model.spec);  // (1, n, V)
    for (std::size_t r = 0; r < n; ++r) {
      const float* row = logits.data() + r * V;
      ATTENTION_CHECK(std::all_of(row, row + V, [](float v) { return std::isfinite(v); }),
                      "overflow: the logits after position ", first + r,
                      " are not finite in float32 (inf or nan); the weights or inputs are too large");
      if (first + r == position) read.assign(row, row + V);
    }
    if (!decoder) continue;
    const logit_exps exps = exps_of(logits);
    for (std::size_t r = 0; r < n && first + r + 1 < T; ++r) {
      const auto target = static_cast<std::size_t>(tokens[first + r + 1]);
      total += -static_cast<double>(logits.data()[r * V + target] - exps.maxima[r] - std::log(exps.sums[r]));
    }
  }
  nlohmann::ordered_json top = nlohmann::ordered_json::array();
  for (const token_probability& t : top_probabilities(read.data(), V, 10))
    top.push_back({t.id, static_cast<double>(t.probability)});
  nlohmann::ordered_json view;
  view["logits"] = {{"shape", {V}}, {"data", read}};
  view["top"] = std::move(top);
  if (decoder && T >= 2)
    view["loss"] = static_cast<double>(static_cast<float>(total / static_cast<double>(T - 1)));
  else
    view["loss"] = nullptr;
  return view;
}

}  // namespace

void check_ablated_heads(const loaded_model& model, const lens_request& request, const std::string& prefix) {
  const std::string name = argument_name(prefix, "heads");
  ATTENTION_CHECK(!request.heads.empty(), name, ": empty; ablate needs at least one head, as L.H (layer.head)");
  for (const auto& [layer, head] : request.heads)
    ATTENTION_CHECK(layer < model.config.layers && head < model.config.heads, name, ": ", layer, ".", head,
                    " is not a head of this model (", model.config.layers, " layers of ", model.config.heads,
                    " heads)");
}

nlohmann::ordered_json ablate_lens(const loaded_model& model, const lens_request& request, const std::string& prefix) {
  check_ablated_heads(model, request, prefix);
  const bool decoder = !is_encoder(model);
  ATTENTION_CHECK(has_unembedding(model.spec), argument_name(prefix, "what"),
                  ": ablate compares next-token guesses, and this ", model.facts.name, " has no masked-LM head");
  const std::size_t T = request.tokens.size();
  // decoders read the last position; BERT's masked-LM head the one asked for
  const std::size_t at = lens_position(request.position, T, prefix);
  const std::size_t position = decoder ? T - 1 : at;
  head_ablation ablation{request.heads, request.mean};
  forward_options plain{kept::logits, false, false};  // what the unembedding reads, no logits yet
  forward_options cut = plain;
  cut.ablation = &ablation;
  const forward_pass before = forward(model.weights, model.spec, request.tokens, 1, plain);
  const forward_pass after = forward(model.weights, model.spec, request.tokens, 1, cut);
  nlohmann::ordered_json heads = nlohmann::ordered_json::array();
  for (const auto& [layer, head] : request.heads) heads.push_back({layer, head});
  nlohmann::ordered_json out;
  out["version"] = 1;
  out["lens"] = "ablate";
  out["tokens"] = request.tokens;
  out["heads"] = std::move(heads);
  out["mode"] = request.mean ? "mean" : "zero";
  out["before"] = view_of(model, before, request.tokens, position, decoder);
  out["after"] = view_of(model, after, request.tokens, position, decoder);
  return out;
}

}  // namespace attention
