#include "lens/attribution.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>

#include "errors/check.hpp"
#include "lens/decoder.hpp"
#include "models/model_run.hpp"
#include "transformer/head_weights.hpp"

namespace attention {

namespace {

struct part {
  std::string name;
  std::vector<float> c;  // (d,): what it wrote into the stream at the position
};

// Row t of x (1, T, n) as a (1, 1, n) tensor.
tensor3 row_of(const tensor3& x, std::size_t t) {
  const std::size_t n = x.shape(2);
  tensor3 row({1, 1, n});
  std::copy_n(x.data() + t * n, n, row.data());
  return row;
}

std::vector<float> values_of(const float* data, std::size_t n) { return std::vector<float>(data, data + n); }

// One layer's parts at position t: each head's out through its slice of the
// output projection, the projection's bias, the MLP's output (with its bias).
void layer_parts(const model_layer& layer, const layer_pass& lp, const model_spec& spec, std::size_t l, std::size_t t,
                 std::vector<part>& parts) {
  const std::size_t H = lp.heads.size(), hs = lp.heads.empty() ? 0 : lp.heads[0].out.shape(2);
  // (1, H, H·hs): row j holds head j's out in its own columns, zeros elsewhere,
  // so one product gives every head's out @ proj[j·hs : (j+1)·hs], (1, H, d)
  tensor3 apart = xt::zeros<float>(std::vector<std::size_t>{1, H, H * hs});
  for (std::size_t j = 0; j < H; ++j) std::copy_n(lp.heads[j].out.data() + t * hs, hs, apart.data() + (j * H + j) * hs);
  const tensor3 through = layer.proj.product(apart);
  const std::size_t d = through.shape(2);
  const std::string layer_name = std::to_string(l) + ".";
  for (std::size_t j = 0; j < H; ++j) parts.push_back({layer_name + std::to_string(j), values_of(through.data() + j * d, d)});
  if (spec.biases.proj) parts.push_back({layer_name + "attn_bias", values_of(layer.proj_bias.data(), d)});
  if (spec.mlp.kind != mlp_kind::none) {  // fc2 of the activation (gated: silu(gate) · up) at t, with its bias
    tensor3 out = layer.fc2.product(row_of(lp.active, t));
    if (spec.biases.fc2) add_bias(out, layer.fc2_bias);
    parts.push_back({layer_name + "mlp", values_of(out.data(), d)});
  }
}

}  // namespace

nlohmann::ordered_json attribution(const loaded_model& model, const std::vector<std::int64_t>& tokens,
                                   std::optional<std::int64_t> position, std::optional<std::int64_t> token) {
  check_decoder(model, "attribution");
  check_tokens(model, tokens, "tokens", work_kind::attribution);
  const auto T = static_cast<std::int64_t>(tokens.size()), V = static_cast<std::int64_t>(model.config.vocab);
  const std::int64_t pos = position.value_or(T - 1);
  ATTENTION_CHECK(pos >= 0 && pos < T, "--position: ", pos, " is outside [0, ", T, ")");
  ATTENTION_CHECK(!token || (*token >= 0 && *token < V), "--token: ", token.value_or(0), " is outside [0, ", V, ")");
  const auto t = static_cast<std::size_t>(pos);
  const std::size_t d = model.spec.embed;

  std::vector<part> parts;
  forward_options options;
  options.keep = kept::logits;  // what each layer wrote is read as it ends
  options.logits = false;       // the one row of logits it reads is made below
  options.on_layer = [&](std::size_t l, const layer_pass& lp) {
    if (l == 0) parts.push_back({"embed", values_of(lp.input.data() + t * d, d)});
    layer_parts(model.weights.layers[l], lp, model.spec, l, t, parts);
  };
  const forward_pass pass = forward(model.weights, model.spec, tokens, 1, options);
  if (parts.empty()) parts.push_back({"embed", values_of(pass.last.data() + t * d, d)});  // no blocks: x is the embedding

  // the logits at the position, as the model makes them
  const tensor3 logits = unembed(row_of(pass.unembedded(), t), model.weights, model.spec);  // (1, 1, V)
  const float* row = logits.data();
  // a logit past float32 has no parts that sum to it: refused, never printed
  ATTENTION_CHECK(std::all_of(row, row + V, [](float v) { return std::isfinite(v); }), "overflow: the logits after position ",
                  pos, " are not finite in float32 (inf or nan); the weights or inputs are too large");
  const auto u_id = static_cast<std::size_t>(token ? *token : std::max_element(row, row + V) - row);
  const std::vector<float> u = unembedding_row(model, u_id);

  // the final norm's scale, frozen at the full run's x: LayerNorm's √(var(x) + eps),
  // RMSNorm's √(mean(x²) + eps); each part then centred (LayerNorm only), divided, times γ
  const bool normed = has_final_norm(model), rms = model.spec.norm.kind == norm_kind::rms;
  const float* x = pass.last.data() + t * d;
  double mean = 0, squares = 0;
  for (std::size_t c = 0; c < d; ++c) mean += x[c];
  mean /= static_cast<double>(d);
  for (std::size_t c = 0; c < d; ++c) squares += rms ? double(x[c]) * x[c] : (x[c] - mean) * (x[c] - mean);
  const double sigma = std::sqrt(squares / static_cast<double>(d) + model.spec.norm.eps);
  const tensor2& gamma = model.weights.ln_f.weight;
  const auto value_of = [&](const std::vector<float>& c) {
    double centre = 0;
    if (normed && !rms) {
      for (float v : c) centre += v;
      centre /= static_cast<double>(d);
    }
    double sum = 0;
    for (std::size_t k = 0; k < d; ++k) {
      double v = c[k];
      if (normed) v = (v - centre) / sigma * gamma.data()[k];
      sum += v * u[k];
    }
    return sum;
  };

  nlohmann::ordered_json out_parts = nlohmann::ordered_json::array();
  double total = 0;
  for (const part& p : parts) {
    const double v = value_of(p.c);
    total += v;
    out_parts.push_back({{"name", p.name}, {"value", v}});
  }
  double constant = 0;  // β · u (LayerNorm's) + the unembedding's bias
  const tensor2& beta = model.weights.ln_f.bias;
  if (normed && model.spec.biases.norm)
    for (std::size_t k = 0; k < d; ++k) constant += double(beta.data()[k]) * u[k];
  if (model.spec.biases.unembed) constant += model.weights.unembed_bias.data()[u_id];
  total += constant;
  ATTENTION_CHECK(std::isfinite(total), "overflow: the parts of the logit after position ", pos,
                  " do not sum to a finite number; the weights or inputs are too large");
  out_parts.push_back({{"name", "constant"}, {"value", constant}});
  return {{"version", 1},          {"lens", "attribution"}, {"tokens", tokens},
          {"position", pos},       {"token", u_id},         {"logit", row[u_id]},
          {"sum", total},          {"parts", std::move(out_parts)}};
}

}  // namespace attention
