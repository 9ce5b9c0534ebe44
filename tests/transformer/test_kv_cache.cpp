// Generation with a key/value cache (lens-v1.md section 5): one position a
// token through the one forward(), its logits forward()'s last row over
// the whole window, the cache holding what forward() computes of the keys
// and values (key/value heads only), and past the model's length a window
// that slides, rebuilt with the new window's positions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "forward_fixture.hpp"
#include "random/generator.hpp"
#include "training/init_weights.hpp"
#include "transformer/kv_cache.hpp"
#include "transformer/model.hpp"
#include "transformer/samples.hpp"

using namespace attention;

namespace {

struct named_model {
  const char* name;
  model_spec spec;
  model_weights weights;
};

// The lecture's GPT with every option on: pre-LayerNorm, a GELU MLP,
// biases, learned positions (T = 8), drawn from the generator.
named_model gpt() {
  const model_spec s = gpt_block(11, 8, 12, 3, 2, 2 * 12, true, true, activation_kind::gelu_tanh);
  generator gen(5);
  return {"gpt", s, init_weights(gen, s)};
}

// torch_hf.py's tiny Llama: grouped-query heads, rotary positions, SwiGLU, RMSNorm.
named_model llama() {
  forward_fixture::model m = forward_fixture::llama();
  return {"llama", m.spec, std::move(m.weights)};
}

// The bigram with positions: no blocks, only the positions the cache counts.
named_model bigram() {
  named_model m = gpt();
  m.name = "bigram";
  m.spec.layers = 0;
  m.weights.layers.clear();
  return m;
}

std::vector<std::int64_t> tokens_of(std::size_t n, std::size_t V) {
  std::vector<std::int64_t> ids(n);
  for (std::size_t t = 0; t < n; ++t) ids[t] = static_cast<std::int64_t>((t * 7 + 3) % V);
  return ids;
}

float largest_difference(const float* a, const float* b, std::size_t n) {
  float most = 0;
  for (std::size_t i = 0; i < n; ++i) most = std::max(most, std::abs(a[i] - b[i]));
  return most;
}

}  // namespace

TEST_CASE("a step through the cache is forward()'s last row over the window, bit for bit", "[kv_cache]") {
  for (const named_model& m : {gpt(), llama(), bigram()}) {
    INFO(m.name);
    const std::size_t T = m.spec.length, V = m.spec.vocab;
    const std::vector<std::int64_t> ids = tokens_of(T, V);
    kv_cache cache(m.spec, T);
    // a prompt of 3 in one forward(), then one position a token
    for (std::size_t n = 3; n <= T; ++n) {
      INFO("positions " << n);
      const std::vector<std::int64_t> prefix(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n));
      const std::vector<float> step = next_logits(m.weights, m.spec, cache, prefix);
      CHECK(cache.length() == n);
      const forward_pass whole = forward(m.weights, m.spec, prefix, 1);  // (1, n, V)
      REQUIRE(step.size() == V);
      const float* last = whole.logits.data() + (n - 1) * V;
      CHECK(largest_difference(step.data(), last, V) <= 1e-5f);
      CHECK(std::equal(step.begin(), step.end(), last));
    }
  }
}

TEST_CASE("the cache holds forward()'s keys and values, once per key/value head", "[kv_cache]") {
  const named_model m = llama();
  REQUIRE(m.spec.kv_heads < m.spec.heads);
  const std::size_t T = 19, hs = m.spec.head_size;  // past one panel of 16 positions
  const std::vector<std::int64_t> ids = tokens_of(T, m.spec.vocab);
  kv_cache cache(m.spec, T);
  next_logits(m.weights, m.spec, cache, std::vector<std::int64_t>(ids.begin(), ids.begin() + 4));
  for (std::size_t n = 5; n <= T; ++n)
    next_logits(m.weights, m.spec, cache, std::vector<std::int64_t>(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n)));
  const forward_pass whole = forward(m.weights, m.spec, ids, 1);
  for (std::size_t l = 0; l < m.spec.layers; ++l)
    for (std::size_t g = 0; g < m.spec.kv_heads; ++g) {
      INFO("layer " << l << ", key/value head " << g);
      const head_pass& hp = whole.layers[l].heads[g];  // (1, T, hs), k turned at positions 0 … T − 1
      std::size_t unequal = 0;  // the keys kept as Kᵀ in panels of 16 positions, the values in panels of 16 numbers
      for (std::size_t j = 0; j < T; ++j)
        for (std::size_t c = 0; c < hs; ++c) unequal += hp.k(0, j, c) != cache.key(l, g, j, c);
      CHECK(unequal == 0);
      for (std::size_t j = 0; j < T; ++j)
        for (std::size_t c = 0; c < hs; ++c) unequal += hp.v(0, j, c) != cache.value(l, g, j, c);
      CHECK(unequal == 0);
    }
}

TEST_CASE("warming reads only within the cache: every layer, positions past a panel and past the capacity", "[kv_cache]") {
  // what fails here is the sanitizers' run (make test-sanitize): a read past
  // the keys' or the values' storage, the last layer's last key/value head
  // the nearest to it; warm() is const, so it cannot change what it reads
  const named_model m = llama();
  const std::size_t T = 19;  // a last panel of 3 positions; the head size under 16: a panel's padding
  kv_cache cache(m.spec, T);
  next_logits(m.weights, m.spec, cache, tokens_of(T, m.spec.vocab));
  for (std::size_t l = 0; l < m.spec.layers; ++l)
    for (const std::size_t n : {std::size_t{1}, std::size_t{16}, std::size_t{17}, T, T + 40}) CHECK_NOTHROW(cache.warm(l, n));
  CHECK(cache.length() == T);
}

TEST_CASE("past the model's length the window slides: the cache is rebuilt at the new window's positions",
          "[kv_cache]") {
  for (const named_model& m : {gpt(), llama(), bigram()}) {
    INFO(m.name);
    const std::size_t T = m.spec.length, V = m.spec.vocab;
    sample_spec s;
    s.prompt = tokens_of(5, V);
    s.length = 2 * T + 3;  // prompt + length > T: the window slides T + 8 times
    s.temperature = 0.9;
    s.seed = 3;
    std::vector<float> cached_steps, recomputed_steps;
    const std::vector<std::int64_t> cached = sample_ids(m.weights, m.spec, s, &cached_steps);
    s.cached = false;
    const std::vector<std::int64_t> recomputed = sample_ids(m.weights, m.spec, s, &recomputed_steps);
    CHECK(cached == recomputed);
    REQUIRE(cached_steps.size() == s.length * V);
    REQUIRE(recomputed_steps.size() == s.length * V);
    for (std::size_t n = 0; n < s.length; ++n) {
      INFO("step " << n);
      CHECK(largest_difference(cached_steps.data() + n * V, recomputed_steps.data() + n * V, V) <= 1e-5f);
    }
    // bit for bit: a rotation at the whole sequence's positions instead of the
    // window's moves q·k only by rounding (it depends on i − j), which this sees
    CHECK(cached_steps == recomputed_steps);
    // the window after sliding: positions 0 … T − 1 of its own, the cache full
    kv_cache cache(m.spec, T);
    std::vector<std::int64_t> ids = tokens_of(T + 4, V);
    next_logits(m.weights, m.spec, cache, ids);
    CHECK(cache.start() == 4);
    CHECK(cache.length() == T);
    // a window whose tokens differ from those held is rebuilt, not continued
    cache.clear();
    std::vector<std::int64_t> other = tokens_of(5, V);
    next_logits(m.weights, m.spec, cache, other);
    other[2] = (other[2] + 1) % static_cast<std::int64_t>(V);
    other.push_back(1);
    const std::vector<float> again = next_logits(m.weights, m.spec, cache, other);
    CHECK(cache.length() == 6);
    const forward_pass whole = forward(m.weights, m.spec, other, 1);
    CHECK(std::equal(again.begin(), again.end(), whole.logits.data() + 5 * V));
  }
}

TEST_CASE("a cache is refused for an encoder, a batch, or more positions than it holds", "[kv_cache]") {
  const forward_fixture::model bert = forward_fixture::bert();
  CHECK_THROWS_WITH(kv_cache(bert.spec, 4),
                    "generate: an encoder sees both ways; it keeps no keys for the next token");
  const named_model m = gpt();
  CHECK_THROWS_WITH(kv_cache(m.spec, 9), "generate: a cache of 9 positions, the model's length is 8");
  CHECK_THROWS_WITH(kv_cache(m.spec, 0), "generate: a cache of 0 positions, the model's length is 8");
  kv_cache cache(m.spec, 4);
  forward_options options;
  options.cache = &cache;
  CHECK_THROWS_WITH(forward(m.weights, m.spec, tokens_of(4, m.spec.vocab), 2, options),
                    "forward: a key/value cache holds one causal sequence");
  CHECK_THROWS_WITH(forward(m.weights, m.spec, tokens_of(5, m.spec.vocab), 1, options),
                    "forward: 5 positions, the key/value cache holds 4");
  CHECK(cache.length() == 0);
  CHECK_THROWS_WITH(next_logits(m.weights, m.spec, cache, tokens_of(6, m.spec.vocab)),
                    "generate: a window of 6 positions, the cache holds 4");
}
