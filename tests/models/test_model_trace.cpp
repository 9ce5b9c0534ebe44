// What the model trace and a head's scenario say, against torch_model.py's
// files: the head as a scenario (same tensors, names, order and numbers as
// the golden *.head.json), whose own trace's weights are the model trace's
// attention of that head within 1e-4 and PyTorch's trace of it.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <streambuf>

#include "attention/run.hpp"
#include "formats/scenario_file.hpp"
#include "model_support.hpp"
#include "models/model_run.hpp"
#include "models/model_trace.hpp"

using namespace attention;
using nlohmann::json;

namespace {

// The golden head's command: torch_model.py head … --layer L --head H (golden-models/README.md)
struct golden_head {
  std::string name;
  std::size_t layer, head;
};
const std::vector<golden_head> heads = {
    {"hf-bf16-3-layers", 2, 7}, {"hf-f32", 1, 2}, {"nano-f16-nobias", 1, 1}, {"nano-tied-bias", 1, 3}, {"text-gpt", 1, 2}};

double largest_difference(const json& a, const json& b) {
  if (a.is_number()) return std::fabs(a.get<double>() - b.get<double>());
  double d = 0;
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, largest_difference(a[i], b[i]));
  return d;
}

}  // namespace

TEST_CASE("a head as a scenario is torch_model.py's, and its trace is the model's attention", "[model-trace]") {
  for (const golden_head& g : heads) {
    INFO(g.name);
    const json want = model_support::golden(g.name + ".head.json");
    const loaded_model model = read_model_file(model_support::model_path(g.name));
    const model_run run = run_model(model, model_support::golden_tokens(g.name));
    const std::string text = model_head_scenario(model, run, g.layer, g.head, model_name(model_support::model_path(g.name)));
    const json got = json::parse(text);
    // structure: the same keys, ids, title, token labels, tensor names in order, attention entry
    for (const char* key : {"version", "id", "title", "attention"}) CHECK(got.at(key) == want.at(key));
    CHECK(got.contains("tokens") == want.contains("tokens"));
    if (want.contains("tokens")) CHECK(got.at("tokens") == want.at("tokens"));
    REQUIRE(got.at("tensors").size() == want.at("tensors").size());
    for (std::size_t i = 0; i < want.at("tensors").size(); ++i) {
      const json &a = got["tensors"][i], &e = want["tensors"][i];
      CHECK(a.at("name") == e.at("name"));
      CHECK(largest_difference(a.at("values"), e.at("values")) <= 1e-5);  // x is the forward's: float32 sums differ
    }
    // its trace: the core's attention layer on the scenario
    const trace t = attention::run(parse_scenario(text));
    const tensor3& weights = t.layer.heads[0].weights;  // (1, T, T)
    const std::size_t T = run.length();
    double against_model = 0, against_torch = 0;
    const json torch_trace = model_support::golden(g.name + ".head.trace.json");
    const json& torch_weights = torch_trace.at("heads")[0].at("weights");
    for (std::size_t i = 0; i < T * T; ++i) {
      against_model = std::max(against_model, std::fabs(double(weights.data()[i]) - run.attention(g.layer, g.head)[i]));
      against_torch = std::max(against_torch, std::fabs(weights.data()[i] - torch_weights.at("data")[i].get<double>()));
    }
    CHECK(against_model <= 1e-4);
    CHECK(against_torch <= 1e-4);
  }
}

TEST_CASE("a head's tokens are labelled by the page's labels, or the character vocabulary", "[model-trace]") {
  const loaded_model model = read_model_file(model_support::model_path("hf-f32"));  // ids only
  const model_run run = run_model(model, {1, 2});
  CHECK_FALSE(json::parse(model_head_scenario(model, run, 0, 0, "m")).contains("tokens"));
  const json labelled = json::parse(model_head_scenario(model, run, 0, 0, "m", {" the", " cat"}));
  CHECK(labelled.at("tokens") == json({" the", " cat"}));
  CHECK_THROWS_WITH(model_head_scenario(model, run, 0, 0, "m", {"one"}), "labels: 1 for 2 tokens");
  CHECK_THROWS_WITH(model_head_scenario(model, run, 2, 0, "m"), "--layer: 2 is outside [0, 2)");
  CHECK_THROWS_WITH(model_head_scenario(model, run, 0, 3, "m"), "--head: 3 is outside [0, 3)");
  // a labelled head parses as a scenario
  CHECK_NOTHROW(parse_scenario(model_head_scenario(model, run, 1, 2, "m", {"a", "b"})));
}

TEST_CASE("the model trace's config counts parameters as the spec says", "[model-trace]") {
  // nano-tied-bias: tied, counted once; text-gpt: its zero key biases counted
  const loaded_model tied = read_model_file(model_support::model_path("nano-tied-bias"));
  CHECK(tied.config.tied);
  CHECK(model_config_json(tied.config).at("parameters") == 26912);
  const loaded_model trained = read_model_file(model_support::model_path("text-gpt"));
  CHECK(trained.config.parameters == 112593);
  CHECK(model_config_json(trained.config).dump() ==
        R"({"vocab":81,"length":32,"embed":64,"heads":4,"layers":2,"mlp":4,"activation":"gelu","bias":true,"parameters":112593})");
}

TEST_CASE("a model's name comes from its file name", "[model-trace]") {
  CHECK(model_name("tests/models/hf-bf16-3-layers.safetensors") == "hf-bf16-3-layers");
  CHECK(model_name("GPT2 Small.safetensors") == "gpt2-small");
  CHECK(model_name("/x/__.safetensors") == "model");
  CHECK(model_name("model") == "model");
  CHECK(model_name(std::string(200, 'a')).size() == 64);
}

TEST_CASE("validate's line says what the file holds", "[model-trace]") {
  CHECK(model_summary(read_model_file(model_support::model_path("text-gpt")).config, "text-gpt") ==
        "valid: text-gpt (layout=nanogpt, V=81, T=32, embed=64, heads=4, layers=2, mlp=4, parameters=112593, "
        "tokenizer=characters)");
  CHECK(model_summary(read_model_file(model_support::model_path("hf-f32")).config, "hf-f32") ==
        "valid: hf-f32 (layout=hf, V=31, T=24, embed=24, heads=3, layers=2, mlp=4, parameters=16560, tokenizer=ids)");
}

TEST_CASE("the model trace stops at the first head once the stream has failed (a full disk)", "[model-trace]") {
  struct full_disk : std::streambuf {
    int overflow(int) override { return traits_type::eof(); }
    std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
  };
  const loaded_model model = read_model_file(model_support::model_path("nano-tied-bias"));
  model_run run = run_model(model, {1, 2, 3});
  // a NaN in the last head, which formatting refuses: reached only by a writer
  // that goes on after the stream failed
  run.pass.layers.back().heads.back().weights.data()[0] = std::nanf("");
  std::ostringstream good;
  CHECK_THROWS_WITH(write_model_trace(good, model, run), Catch::Contains("a non-finite value"));
  full_disk disk;
  std::ostream out(&disk);
  CHECK_NOTHROW(write_model_trace(out, model, run));
  CHECK_FALSE(out.good());
}
