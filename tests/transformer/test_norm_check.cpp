// A norm whose row statistic overflows float32 is refused naming the layer
// and the norm, never a silent row of zeros: RMSNorm's mean of squares,
// LayerNorm's variance, BERT's LayerNorm on the embeddings.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "errors/check.hpp"
#include "random/generator.hpp"
#include "training/init_weights.hpp"
#include "transformer/model.hpp"
#include "transformer/norm_check.hpp"

using namespace attention;

namespace {

// V 5, T 4, d 8, 2 heads, 1 layer, an MLP, norms of `kind`; the embedding times `scale`
model_weights scaled_model(model_spec& s, norm_kind kind, float scale) {
  s.vocab = 5;
  s.length = 4;
  s.embed = 8;
  s.heads = 2;
  s.layers = 1;
  s.kv_heads = 2;
  s.head_size = 4;
  s.mlp = {mlp_kind::plain, activation_kind::relu, 4 * 8};
  s.norm.kind = kind;
  generator gen(0);
  model_weights w = init_weights(gen, s);
  if (s.post_norm()) w.ln_e = layer_norm_init(8);
  w.tok.floats() *= scale;  // 1e30 is finite in float32; its square is not
  return w;
}

std::string refusal(const model_weights& w, const model_spec& s) {
  try {
    forward(w, s, {1, 2, 3}, 1);
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("RMSNorm's mean of squares past float32 is refused naming the layer, not all-zero logits", "[norm-check]") {
  model_spec s;
  const model_weights w = scaled_model(s, norm_kind::rms, 1e30f);
  CHECK(refusal(w, s) ==
        "overflow: layer 0's ln_1 (RMSNorm): the mean of squares is not finite in float32 (row 0); the weights or "
        "inputs are too large");
  // 1e15: squares of 1e30 fit float32, the run is as before
  model_spec fine;
  CHECK(refusal(scaled_model(fine, norm_kind::rms, 1e15f), fine).empty());
}

TEST_CASE("LayerNorm's variance past float32 is refused naming the layer", "[norm-check]") {
  model_spec s;
  const model_weights w = scaled_model(s, norm_kind::layer, 1e30f);
  CHECK(refusal(w, s) ==
        "overflow: layer 0's ln_1 (LayerNorm): the variance is not finite in float32 (row 0); the weights or inputs "
        "are too large");
}

TEST_CASE("BERT's LayerNorm on the embeddings overflowing is refused, not run silently", "[norm-check]") {
  model_spec s;
  s.norm.placement = norm_placement::post;
  s.direction = attention_direction::bidirectional;
  s.scaling = score_scaling::divide_by_root;
  const model_weights w = scaled_model(s, norm_kind::layer, 1e30f);
  CHECK(refusal(w, s) ==
        "overflow: embeddings.LayerNorm (LayerNorm): the variance is not finite in float32 (row 0); the weights or "
        "inputs are too large");
}

TEST_CASE("check_norm_rows: a zero or nan rstd is refused at its row; positive finite ones pass", "[norm-check]") {
  norm_pass p;
  p.rstd = {1.0f, 1e-19f, std::numeric_limits<float>::max()};
  CHECK_NOTHROW(check_norm_rows(p, true, 2, "ln_2"));
  p.rstd.push_back(0.0f);
  CHECK_THROWS_WITH(check_norm_rows(p, true, 2, "ln_2"),
                    "overflow: layer 2's ln_2 (RMSNorm): the mean of squares is not finite in float32 (row 3); the "
                    "weights or inputs are too large");
  p.rstd = {std::nanf("")};
  CHECK_THROWS_WITH(check_norm_rows(p, false, no_layer, "ln_f"),
                    Catch::StartsWith("overflow: ln_f (LayerNorm): the variance is not finite in float32 (row 0)"));
}
