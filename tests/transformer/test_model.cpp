// The model's forward pass: causal attention whose rows sum to one; and
// the same forward running models-v2.md's families, a tiny Llama and a tiny
// BERT, as shared/tools/torch_hf.py runs them (tests/fixtures/forward_families.json).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "forward_fixture.hpp"
#include "random/generator.hpp"
#include "training/init_weights.hpp"
#include "transformer/model.hpp"

using namespace attention;

TEST_CASE("forward: every head attends to the past only, each row summing to one", "[model]") {
  const model_spec spec = gpt_block(8, 6, 8, 2, 2);  // V, T, d, heads, layers
  generator gen(1);
  const model_weights w = init_weights(gen, spec);
  const std::vector<std::int64_t> tokens = {1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4};  // B = 2, T = 6
  const forward_pass pass = forward(w, spec, tokens, 2);
  REQUIRE(pass.layers.size() == 2);
  CHECK(pass.logits.shape(2) == 8);
  for (const layer_pass& layer : pass.layers)
    for (const head_pass& head : layer.heads)
      for (std::size_t b = 0; b < 2; ++b)
        for (std::size_t i = 0; i < 6; ++i) {
          float sum = 0;
          for (std::size_t j = 0; j < 6; ++j) {
            if (j > i) CHECK(head.weights(b, i, j) == 0.0f);
            sum += head.weights(b, i, j);
          }
          CHECK(sum == Approx(1.0f).epsilon(1e-6));
        }
}

TEST_CASE("what forward keeps changes no number: the last position's logits alone are the full ones' last row", "[model]") {
  const model_spec spec = gpt_block(9, 5, 8, 2, 2, 2 * 8, true, true);
  generator gen(3);
  const model_weights w = init_weights(gen, spec);
  const std::vector<std::int64_t> tokens = {1, 4, 2, 8, 0, 3, 3, 7, 5, 6};  // B = 2, T = 5
  const forward_pass full = forward(w, spec, tokens, 2);
  const forward_pass attention = forward(w, spec, tokens, 2, {kept::attention, false});
  const forward_pass last = forward(w, spec, tokens, 2, {kept::logits, true});
  REQUIRE(last.logits.shape() == std::array<std::size_t, 3>{2, 1, 9});
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t v = 0; v < 9; ++v) CHECK(last.logits(b, 0, v) == full.logits(b, 4, v));
  CHECK((attention.logits == full.logits));
  for (std::size_t l = 0; l < 2; ++l) {
    CHECK((attention.layers[l].attended() == full.layers[l].attended()));
    CHECK((attention.layers[l].heads[1].weights == full.layers[l].heads[1].weights));
    CHECK(attention.layers[l].hidden.size() == 0);
    CHECK(last.layers[l].heads[0].weights.size() == 0);
  }
}

TEST_CASE("a model file's unembedding: tied to tok, or lm_head rows, as x @ Wᵀ", "[model]") {
  const model_spec spec = gpt_block(7, 4, 6, 2, 1);
  generator gen(5);
  model_weights w = init_weights(gen, spec);
  const std::vector<std::int64_t> tokens = {1, 2, 6, 0};
  // unembed (d, V) as lm_head (V, d) rows gives the same logits
  model_weights rows = w;
  tensor2 lm_head({7, 6});
  for (std::size_t v = 0; v < 7; ++v)
    for (std::size_t c = 0; c < 6; ++c) lm_head(v, c) = w.unembed.floats()(c, v);
  rows.unembed = weight::turned(lm_head);
  CHECK((forward(rows, spec, tokens, 1).logits == forward(w, spec, tokens, 1).logits));
  // tied: the logits are x @ tokᵀ, tok read in place
  model_weights tied = w;
  tied.tied = true;
  tied.unembed = weight();
  model_weights copied = w;
  for (std::size_t v = 0; v < 7; ++v)
    for (std::size_t c = 0; c < 6; ++c) copied.unembed.floats()(c, v) = w.tok.floats()(v, c);
  CHECK((forward(tied, spec, tokens, 1).logits == forward(copied, spec, tokens, 1).logits));
}

TEST_CASE("a key bias adds q·b to a whole row of scores: the attention does not move", "[model]") {
  const model_spec spec = gpt_block(7, 5, 8, 2, 1);
  generator gen(7);
  model_weights w = init_weights(gen, spec);
  model_weights biased = w;
  for (model_head& head : biased.layers[0].heads) head.key_bias = tensor2({{0.5f, -1.0f, 2.0f, 0.25f}});
  model_spec keyed = spec;  // a model file's c_attn has one
  keyed.biases.key = true;
  const std::vector<std::int64_t> tokens = {1, 2, 3, 4, 5};
  const forward_pass a = forward(w, spec, tokens, 1), b = forward(biased, keyed, tokens, 1);
  CHECK((b.layers[0].heads[0].k != a.layers[0].heads[0].k));  // the keys moved
  for (std::size_t i = 0; i < 25; ++i)
    CHECK(b.layers[0].heads[1].weights.data()[i] == Approx(a.layers[0].heads[1].weights.data()[i]).margin(1e-6));
}

// ---- the families of models-v2.md, against shared/tools/torch_hf.py's forward ----

namespace {

// attention within 1e-4 of PyTorch's, [L, H, T, T]
void check_attention(const forward_pass& pass, const nlohmann::json& expected) {
  const std::vector<float> want = forward_fixture::values(expected);
  const std::size_t L = pass.layers.size(), H = pass.layers[0].heads.size(), T = pass.length;
  REQUIRE(want.size() == L * H * T * T);
  double worst = 0;
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t n = 0; n < T * T; ++n)
        worst = std::max(worst, std::fabs(static_cast<double>(pass.layers[l].heads[h].weights.data()[n]) -
                                          want[(l * H + h) * T * T + n]));
  INFO("largest difference " << worst);
  CHECK(worst <= 1e-4);
}

// every entry within 1e-4 + 1e-4·|x| of PyTorch's (the spec's tolerance for logits)
void check_close(const float* got, const nlohmann::json& expected, std::size_t n) {
  const std::vector<float> want = forward_fixture::values(expected);
  REQUIRE(want.size() == n);
  std::size_t wrong = 0;
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double diff = std::fabs(static_cast<double>(got[i]) - want[i]);
    worst = std::max(worst, diff);
    wrong += diff > 1e-4 + 1e-4 * std::fabs(want[i]);
  }
  INFO("largest difference " << worst);
  CHECK(wrong == 0);
}

void check_family(const forward_fixture::model& m) {
  const forward_pass pass = forward(m.weights, m.spec, m.tokens, 1);
  check_attention(pass, m.expected->at("attention"));
  check_close(pass.logits.data(), m.expected->at("logits"), pass.logits.size());
  // what each layer's heads read: a model trace's head starts from it
  const std::size_t T = m.tokens.size(), d = m.spec.embed;
  tensor3 attended({pass.layers.size(), T, d});
  for (std::size_t l = 0; l < pass.layers.size(); ++l)
    std::copy_n(pass.layers[l].attended().data(), T * d, attended.data() + l * T * d);
  check_close(attended.data(), m.expected->at("attended"), attended.size());

  // the kept modes give the same numbers: a model trace's, then sampling's
  const forward_pass trace = forward(m.weights, m.spec, m.tokens, 1, {kept::attention, false, false});
  const forward_pass last = forward(m.weights, m.spec, m.tokens, 1, {kept::logits, true});
  CHECK((unembed(trace.unembedded(), m.weights, m.spec) == pass.logits));
  for (std::size_t l = 0; l < pass.layers.size(); ++l) {
    CHECK((trace.layers[l].attended() == pass.layers[l].attended()));
    for (std::size_t h = 0; h < m.spec.heads; ++h)
      CHECK((trace.layers[l].heads[h].weights == pass.layers[l].heads[h].weights));
    CHECK(trace.layers[l].hidden.size() == 0);
    CHECK(trace.layers[l].up.size() == 0);
  }
  REQUIRE(last.logits.shape() == std::array<std::size_t, 3>{1, 1, m.spec.vocab});
  for (std::size_t v = 0; v < m.spec.vocab; ++v) CHECK(last.logits(0, 0, v) == pass.logits(0, T - 1, v));
}

}  // namespace

TEST_CASE("a tiny Llama (grouped-query heads, rotary, SwiGLU, q/k/v biases, head_dim ≠ d/H) is torch_hf.py's",
          "[model][llama]") {
  const forward_fixture::model m = forward_fixture::llama();
  REQUIRE(m.spec.head_size * m.spec.heads != m.spec.embed);
  REQUIRE(m.spec.kv_heads < m.spec.heads);
  check_family(m);
  // k and v once per key/value head, where the weights are: none in the heads that share them
  const forward_pass pass = forward(m.weights, m.spec, m.tokens, 1);
  CHECK(pass.layers[0].heads[1].k.size() != 0);
  CHECK(pass.layers[0].heads[2].k.size() == 0);
  CHECK(pass.layers[0].heads[3].v.size() == 0);
  CHECK(pass.layers[0].concat.shape(2) == m.spec.heads * m.spec.head_size);
}

TEST_CASE("a tiny BERT with its masked-LM head (post-norm, no mask, token type 0, tied decoder) is torch_hf.py's",
          "[model][bert]") {
  const forward_fixture::model m = forward_fixture::bert();
  check_family(m);
  // every position sees every position: weight above the diagonal
  const forward_pass pass = forward(m.weights, m.spec, m.tokens, 1, {kept::attention, false, false});
  CHECK(pass.layers[1].heads[2].weights(0, 0, 6) > 0.0f);
}

TEST_CASE("a BERT without its masked-LM head has attention and no logits", "[model][bert]") {
  forward_fixture::model m = forward_fixture::bert();
  m.weights.transform = weight();
  m.weights.transform_bias = tensor2();
  m.weights.transform_ln = {};
  m.weights.tied = false;
  m.weights.unembed_bias = tensor2();
  m.spec.output = output_head::none;  // as a folder without the head's tensors is described
  CHECK_FALSE(has_unembedding(m.spec));
  const forward_pass pass = forward(m.weights, m.spec, m.tokens, 1);
  CHECK(pass.logits.size() == 0);
  check_attention(pass, m.expected->at("attention"));
  CHECK((pass.unembedded() == pass.last));  // the encoder's output, no transform
}
