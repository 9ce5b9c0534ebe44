// A loaded model continuing a sequence: the training room's sampling, so
// the same seed gives the same tokens, and a trained model's file continues
// as the training run that wrote it would; and the guesses at a temperature
// are the very distribution that sampling draws from.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "folder_support.hpp"
#include "model_support.hpp"
#include "models/generate.hpp"
#include "models/model_run.hpp"
#include "models/vocabulary.hpp"
#include "random/generator.hpp"
#include "random/sampling.hpp"
#include "tensor/softmax.hpp"
#include "transformer/samples.hpp"

using namespace attention;

TEST_CASE("generate is the spec's sampling: the same seed, the same tokens", "[generate]") {
  const loaded_model model = read_model_file(model_support::model_path("text-gpt"));
  const std::vector<std::int64_t> prompt = encode_text(model.config, "To be", "--text");
  const std::vector<std::int64_t> a = generate_tokens(model, prompt, 40, 0.8, 7);
  CHECK(a.size() == 40);
  CHECK(a == generate_tokens(model, prompt, 40, 0.8, 7));
  CHECK(a != generate_tokens(model, prompt, 40, 0.8, 8));
  sample_spec s;
  s.length = 40;
  s.temperature = 0.8;
  s.seed = 7;
  s.prompt = prompt;
  CHECK(a == sample_ids(model.weights, model.spec, s));
  // past Tmax (32) the window slides: the last 32 tokens
  CHECK(generate_tokens(model, prompt, 60, 1.0, 1).size() == 60);
  for (std::int64_t id : a) CHECK((id >= 0 && id < 81));
  CHECK_FALSE(decode_ids(model.config, a).empty());
}

TEST_CASE("generate keeps keys and values: the tokens and every step's logits of recomputing the window",
          "[generate][kv_cache]") {
  // every shipped model, the GPT-2-shaped test models and the Llama-family
  // folders, at a window that slides past the context (prompt + count > T)
  std::vector<std::pair<std::string, loaded_model>> models;
  models.emplace_back("shipped text-gpt",
                      read_model_file(test_support::tests_dir() + "/../web/models/text-gpt.safetensors"));
  for (const std::string& name : model_support::golden_models())
    models.emplace_back(name, read_model_file(model_support::model_path(name)));
  for (const std::string name : {"llama-gqa", "llama-mha-sharded", "qwen2-bias-bf16"})
    models.emplace_back(name, folder_support::read(folder_support::golden_folder(name)));
  for (const auto& [name, model] : models) {
    INFO(name);
    const std::size_t T = model.spec.length, V = model.spec.vocab;
    REQUIRE(model.spec.causal());
    sample_spec s;
    for (std::size_t t = 0; t < 5; ++t) s.prompt.push_back(static_cast<std::int64_t>((t * 13 + 1) % V));
    s.length = T + 6;  // the window slides 10 times
    s.temperature = 0.8;
    s.seed = 11;
    std::vector<float> cached_steps, recomputed_steps;
    const std::vector<std::int64_t> cached = sample_ids(model.weights, model.spec, s, &cached_steps);
    CHECK(cached == generate_tokens(model, s.prompt, s.length, s.temperature, s.seed));
    s.cached = false;  // the path before the cache: forward() over the window at every step
    const std::vector<std::int64_t> recomputed = sample_ids(model.weights, model.spec, s, &recomputed_steps);
    CHECK(cached == recomputed);
    REQUIRE(cached_steps.size() == s.length * V);
    REQUIRE(recomputed_steps.size() == s.length * V);
    float most = 0;
    for (std::size_t i = 0; i < cached_steps.size(); ++i)
      most = std::max(most, std::abs(cached_steps[i] - recomputed_steps[i]));
    CHECK(most <= 1e-5f);
    CHECK(cached_steps == recomputed_steps);  // bit for bit: the same sums in the same order
  }
}

TEST_CASE("generate past the context gives the tokens the wasm module must give", "[generate][kv_cache]") {
  // tests/fixtures/generate_windows.json: the native tokens that
  // tests/wasm/generate.test.mjs checks the wasm's against; both paths here
  const nlohmann::json fixture = test_support::read_json(test_support::tests_dir() + "/fixtures/generate_windows.json");
  REQUIRE(fixture.at("cases").size() >= 3);
  for (const nlohmann::json& c : fixture.at("cases")) {
    const std::string path = c.at("model").get<std::string>();
    INFO(path);
    const std::string at = test_support::tests_dir() + "/../" + path;
    const loaded_model model = path.size() > 12 && path.substr(path.size() - 12) == ".safetensors"
                                ? read_model_file(at)
                                : folder_support::read(at);
    sample_spec s;
    s.prompt = c.at("prompt").get<std::vector<std::int64_t>>();
    s.length = c.at("count").get<std::size_t>();
    s.temperature = c.at("temperature").get<double>();
    s.seed = c.at("seed").get<std::uint64_t>();
    s.warp = warpers{c.at("top_k").get<std::size_t>(), c.at("top_p").get<double>()};
    REQUIRE(s.prompt.size() + s.length > model.spec.length);
    const auto want = c.at("tokens").get<std::vector<std::int64_t>>();
    CHECK(generate_tokens(model, s.prompt, s.length, s.temperature, s.seed, s.warp) == want);
    s.cached = false;
    CHECK(sample_ids(model.weights, model.spec, s) == want);
  }
}

TEST_CASE("generate refuses a bad temperature, count or prompt", "[generate]") {
  const loaded_model model = read_model_file(model_support::model_path("hf-f32"));
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 0.0, 0), "temperature: expected a number > 0 that fits in float32, got 0");
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1e39, 0), Catch::StartsWith("temperature: expected a number > 0"));
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1e-50, 0), Catch::StartsWith("temperature: expected a number > 0"));
  // below the floor (limits::sampling) the logits could overflow: refused up front, naming the field
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1e-38, 0), Catch::StartsWith("temperature: 1e-38 is below the floor of 0.001"));
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1e-40, 0), Catch::StartsWith("temperature: 1e-40 is below the floor of 0.001"));
  CHECK(generate_tokens(model, {1}, 1, 1e-3, 0).size() == 1);
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 5000, 1.0, 0), "count: 5000 is beyond the limit of 4096 tokens");
  CHECK_THROWS_WITH(generate_tokens(model, {}, 1, 1.0, 0), "tokens: empty");
  CHECK(generate_tokens(model, {1}, 0, 1.0, 0).empty());
}

TEST_CASE("tempered guesses: at temperature 1 the run's own, else what generate draws its next token from", "[generate]") {
  const loaded_model model = read_model_file(model_support::model_path("text-gpt"));
  const std::vector<std::int64_t> prompt = encode_text(model.config, "To be, or not", "--text");
  const model_run run = run_model(model, prompt, 10);
  const std::size_t T = prompt.size(), V = model.config.vocab;
  // temperature 1: the ids and probabilities of run.top, bit for bit; own the same
  const std::vector<tempered_guess> one = tempered_guesses(model, run, 1.0, 10);
  REQUIRE(one.size() == T * 10);
  for (std::size_t n = 0; n < one.size(); ++n) {
    CHECK(one[n].id == run.top[n].id);
    CHECK(one[n].probability == run.top[n].probability);
    CHECK(one[n].own == run.top[n].probability);
  }
  // k is at most V: the whole distribution, each id once
  for (const double temperature : {0.3, 0.8, 2.5}) {
    const std::vector<tempered_guess> all = tempered_guesses(model, run, temperature, 1000);
    REQUIRE(all.size() == T * V);
    // after the last position: sampling_distribution's numbers, most probable first
    const std::vector<float> want = sampling_distribution(run.last_logits.data(), V, temperature);
    const std::vector<float> own = softmax(run.last_logits);
    std::vector<float> drawn(V, -1.0f);  // the distribution in id order, as the sampler sums it
    for (std::size_t n = 0; n < V; ++n) {
      const tempered_guess& g = all[(T - 1) * V + n];
      CHECK(g.probability == want[static_cast<std::size_t>(g.id)]);
      CHECK(g.own == own[static_cast<std::size_t>(g.id)]);
      if (n > 0) CHECK(all[(T - 1) * V + n - 1].probability >= g.probability);
      drawn[static_cast<std::size_t>(g.id)] = g.probability;
    }
    CHECK(std::count(drawn.begin(), drawn.end(), -1.0f) == 0);
    // generate's first token is the sampler's pick from exactly these numbers
    for (const std::uint64_t seed : {1, 7, 42, 1234}) {
      generator gen(seed);
      const float u = rand(gen, {1})(0);
      std::int64_t next = static_cast<std::int64_t>(V) - 1;
      double sum = 0;
      for (std::size_t c = 0; c < V; ++c) {
        sum += drawn[c];
        if (static_cast<float>(sum) > u) {
          next = static_cast<std::int64_t>(c);
          break;
        }
      }
      CHECK(generate_tokens(model, prompt, 1, temperature, seed) == std::vector<std::int64_t>{next});
    }
  }
  // below 1 the likeliest token gains, above 1 it loses; the order stays the logits'
  const float first = tempered_guesses(model, run, 1.0, 1).back().probability;
  CHECK(tempered_guesses(model, run, 0.5, 1).back().probability > first);
  CHECK(tempered_guesses(model, run, 2.0, 1).back().probability < first);
  CHECK(tempered_guesses(model, run, 0.5, 1).back().id == tempered_guesses(model, run, 2.0, 1).back().id);
}

TEST_CASE("top-k and top-p: the very tokens PyTorch samples with transformers' warpers", "[generate]") {
  // tests/fixtures/sampling.json, by make_sampling.py: text-gpt, gpt-v1's draw
  // on a seeded torch.Generator, temperature then TopK then TopP
  const nlohmann::json fixture = test_support::read_json(test_support::tests_dir() + "/fixtures/sampling.json");
  const loaded_model model = read_model_file(model_support::model_path("text-gpt"));
  const std::size_t V = model.config.vocab;
  REQUIRE(fixture.at("cases").size() >= 8);
  for (const nlohmann::json& c : fixture.at("cases")) {
    const warpers warp{c.at("top_k").get<std::size_t>(), c.at("top_p").get<double>()};
    const double temperature = c.at("temperature").get<double>();
    const std::vector<std::int64_t> prompt = encode_text(model.config, c.at("prompt").get<std::string>(), "--text");
    INFO("T " << temperature << ", top_k " << warp.top_k << ", top_p " << warp.top_p);
    CHECK(generate_tokens(model, prompt, c.at("count").get<std::size_t>(), temperature, c.at("seed").get<std::uint64_t>(),
                          warp) == c.at("tokens").get<std::vector<std::int64_t>>());
    // the bars after the prompt mark kept exactly the tokens PyTorch kept
    const model_run run = run_model(model, prompt, 10);
    const std::vector<tempered_guess> all = tempered_guesses(model, run, temperature, V, warp);
    const auto want = c.at("first_kept").get<std::vector<std::int64_t>>();
    const auto p = c.at("first_probabilities").get<std::vector<float>>();  // (V) PyTorch's softmax after the cut
    std::vector<std::int64_t> kept;
    float sum = 0;
    for (std::size_t n = (prompt.size() - 1) * V; n < all.size(); ++n) {
      CHECK(all[n].remaining == want.size());
      CHECK(all[n].drawn == Approx(p[static_cast<std::size_t>(all[n].id)]).margin(1e-7));
      if (all[n].kept) kept.push_back(all[n].id);
      else CHECK(all[n].drawn == 0.0f);
      sum += all[n].drawn;
    }
    std::sort(kept.begin(), kept.end());
    CHECK(kept == want);
    CHECK(sum == Approx(1.0f).epsilon(1e-5));
  }
}

TEST_CASE("generate and the guesses refuse a bad top_k or top_p, naming it", "[generate]") {
  const loaded_model model = read_model_file(model_support::model_path("text-gpt"));
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1.0, 0, {82, 1.0}), "top_k: 82 is more than the vocabulary's 81 tokens (0 turns it off)");
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1.0, 0, {0, 0.0}), "top_p: expected a number in (0, 1], got 0 (1 turns it off)");
  const model_run run = run_model(model, {1, 2}, 10);
  CHECK_THROWS_WITH(tempered_guesses(model, run, 1.0, 10, {0, 2.0}), "top_p: expected a number in (0, 1], got 2 (1 turns it off)");
  // off: the guesses all kept, drawn as they show
  for (const tempered_guess& g : tempered_guesses(model, run, 0.8, 10)) {
    CHECK(g.kept);
    CHECK(g.drawn == g.probability);
    CHECK(g.remaining == 81);
  }
}

TEST_CASE("tempered guesses refuse the temperatures generate refuses", "[generate]") {
  const loaded_model model = read_model_file(model_support::model_path("hf-f32"));
  const model_run run = run_model(model, {1, 2}, 10);
  CHECK_THROWS_WITH(tempered_guesses(model, run, 0.0, 10), "temperature: expected a number > 0 that fits in float32, got 0");
  CHECK_THROWS_WITH(tempered_guesses(model, run, -1.0, 10), Catch::StartsWith("temperature: expected a number > 0"));
  CHECK_THROWS_WITH(tempered_guesses(model, run, std::nan(""), 10), Catch::StartsWith("temperature: expected a number > 0"));
  CHECK_THROWS_WITH(tempered_guesses(model, run, 1e39, 10), Catch::StartsWith("temperature: expected a number > 0"));
  CHECK_THROWS_WITH(tempered_guesses(model, model_run{}, 1.0, 10), "model: nothing run");
}

TEST_CASE("a run with a tempering makes the very guesses tempered_guesses makes, in its one pass", "[generate]") {
  // the Model view's run: the bars from the logits run_model makes anyway,
  // never made a second time; bit for bit what tempered_guesses makes again
  const auto same_bits = [](float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  for (const std::string name : {"text-gpt", "hf-f32"}) {
    const loaded_model model = read_model_file(model_support::model_path(name));
    const std::vector<std::int64_t> tokens =
        name == "text-gpt" ? encode_text(model.config, "To be, or not to be", "--text") : std::vector<std::int64_t>{1, 5, 2, 5, 1};
    const model_run plain = run_model(model, tokens, 10);
    CHECK(plain.tempered.empty());
    for (const tempering at : {tempering{1.0, {}}, tempering{0.7, {}}, tempering{1.6, {3, 1.0}}, tempering{0.9, {0, 0.8}},
                               tempering{1.2, {5, 0.6}}}) {
      INFO(name << ": T " << at.temperature << ", top_k " << at.warp.top_k << ", top_p " << at.warp.top_p);
      const model_run run = run_model(model, tokens, 10, at);
      const std::vector<tempered_guess> want = tempered_guesses(model, run, at.temperature, run.top_k, at.warp);
      REQUIRE(run.tempered.size() == want.size());
      REQUIRE(want.size() == tokens.size() * run.top_k);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < want.size(); ++i) {
        const tempered_guess &a = run.tempered[i], &b = want[i];
        wrong += a.id != b.id || !same_bits(a.probability, b.probability) || !same_bits(a.own, b.own) ||
                 a.kept != b.kept || !same_bits(a.drawn, b.drawn) || a.remaining != b.remaining;
      }
      CHECK(wrong == 0);
      // and the rest of the run is the run without it
      CHECK(run.last_logits == plain.last_logits);
      CHECK(run.loss == plain.loss);
      REQUIRE(run.top.size() == plain.top.size());
      for (std::size_t i = 0; i < run.top.size(); ++i) {
        CHECK(run.top[i].id == plain.top[i].id);
        CHECK(same_bits(run.top[i].probability, plain.top[i].probability));
      }
    }
    // a bad tempering is refused before the forward, as tempered_guesses refuses it
    CHECK_THROWS_WITH(run_model(model, tokens, 10, tempering{0.0, {}}),
                      "temperature: expected a number > 0 that fits in float32, got 0");
    CHECK_THROWS_WITH(run_model(model, tokens, 10, tempering{1.0, {0, 2.0}}),
                      "top_p: expected a number in (0, 1], got 2 (1 turns it off)");
  }
}
