#include <catch2/catch.hpp>

#include <fstream>
#include <functional>

#include "attention/scenario.hpp"
#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "formats/scenario_file.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

namespace {

// A small valid scenario that each invalid case breaks in one place.
json base() {
  return json::parse(R"({
    "version": 1, "id": "base", "seed": 1,
    "tokens": ["a", "b", "c", "d"],
    "tensors": [
      {"name": "x", "randn": [2, 4, 8]},
      {"name": "wq", "linear": [8, 4]},
      {"name": "wk", "linear": [8, 4]},
      {"name": "wv", "linear": [8, 3]}
    ],
    "attention": {"x": "x", "heads": [{"query": "wq", "key": "wk", "value": "wv"}], "mask": "causal"}
  })");
}

struct invalid_case {
  const char* what;
  std::function<void(json&)> change;
  std::string message;
};

std::string message_of(const std::string& text) {
  try {
    parse_scenario(text);
  } catch (const error& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("the base scenario used below is valid", "[scenario]") {
  const scenario s = parse_scenario(base().dump());
  CHECK(s.id == "base");
  CHECK(s.batched);
  CHECK(s.batch == 2);
  CHECK(s.query_length == 4);
  CHECK(s.context_length == 4);
}

namespace {
std::vector<invalid_case> invalid_cases();
}

TEST_CASE("every invalid scenario is rejected with a message naming its place", "[scenario]") {
  const std::vector<invalid_case> cases = invalid_cases();
  REQUIRE(cases.size() >= 25);
  for (const invalid_case& c : cases) {
    SECTION(c.what) {
      json j = base();
      c.change(j);
      CHECK(message_of(j.dump()) == c.message);
    }
  }
}

// Not run by ctest ([.]): `tests_formats "[.corpus]"` writes every invalid case
// into tests/fuzz/corpus, seeds for the fuzzer (tests/fuzz/README.md).
TEST_CASE("write the invalid scenarios as fuzzing seeds", "[.corpus]") {
  const std::vector<invalid_case> cases = invalid_cases();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    json j = base();
    cases[i].change(j);
    std::ofstream(test_support::tests_dir() + "/fuzz/corpus/invalid-" + std::to_string(i) + ".json") << j.dump();
  }
}

namespace {
std::vector<invalid_case> invalid_cases() {
  return {
      {"version missing", [](json& j) { j.erase("version"); }, "version: required (1)"},
      {"version 2", [](json& j) { j["version"] = 2; }, "version: expected 1, got 2"},
      {"id not a slug", [](json& j) { j["id"] = "Bad Id"; }, "id: \"Bad Id\" is not a slug ([a-z0-9-]+)"},
      {"id missing", [](json& j) { j.erase("id"); }, "id: required"},
      {"title not text", [](json& j) { j["title"] = 5; }, "title: expected a string"},
      {"seed not an integer", [](json& j) { j["seed"] = 1.5; }, "seed: expected an integer"},
      {"unknown top-level field", [](json& j) { j["maks"] = "none"; }, "maks: unknown field"},
      {"tensors missing", [](json& j) { j.erase("tensors"); }, "tensors: required"},
      {"tensors not a list", [](json& j) { j["tensors"] = json::object(); }, "tensors: expected a list"},
      {"entry not an object", [](json& j) { j["tensors"][1] = 3; }, "tensors[1]: expected an object"},
      {"entry without name", [](json& j) { j["tensors"][1].erase("name"); }, "tensors[1].name: required"},
      {"name not an identifier", [](json& j) { j["tensors"][1]["name"] = "1x"; },
       "tensors[1].name: \"1x\" is not a name ([A-Za-z_][A-Za-z0-9_]*)"},
      {"duplicate name", [](json& j) { j["tensors"][2]["name"] = "wq"; },
       "tensors[2].name: \"wq\" is already defined by tensors[1]"},
      {"no source", [](json& j) { j["tensors"][1].erase("linear"); },
       "tensors[1]: needs a source: one of values, zeros, ones, rand, randn, randint, linear, embedding"},
      {"two sources", [](json& j) { j["tensors"][1]["rand"] = {8, 4}; },
       "tensors[1]: has two sources, linear and rand; keep exactly one"},
      {"a zero in a shape", [](json& j) { j["tensors"][0]["randn"] = {2, 0}; },
       "tensors[0].randn: expected a shape, a list of 1 to 3 positive integers"},
      {"a shape of rank 4", [](json& j) { j["tensors"][0]["randn"] = {1, 2, 4, 8}; },
       "tensors[0].randn: expected a shape, a list of 1 to 3 positive integers"},
      {"ragged values", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "m", "values": [[1, 2], [3]]})")); },
       "tensors[4].values[1]: ragged: expected 2 elements, got 1"},
      {"a string among values", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "m", "values": [[1, "a"]]})")); },
       "tensors[4].values[0][1]: expected a number"},
      {"a value beyond float32", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "m", "values": [1e39]})")); },
       "tensors[4].values[0]: 1e+39 does not fit in float32"},
      {"empty values", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "m", "values": []})")); },
       "tensors[4].values: expected a non-empty list of numbers"},
      {"values of rank 4", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "m", "values": [[[[1]]]]})")); },
       "tensors[4].values: nested deeper than 3 levels; tensors have rank 1 to 3"},
      {"randint without shape", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "r", "randint": [0, 10]})")); },
       "tensors[4].shape: required with randint"},
      {"randint with low = high", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "r", "randint": [5, 5], "shape": [2]})")); },
       "tensors[4].randint: expected [low, high], two integers with low < high"},
      {"linear with one number", [](json& j) { j["tensors"][1]["linear"] = {8}; },
       "tensors[1].linear: expected [in, out], two positive integers"},
      {"a shape on randn", [](json& j) { j["tensors"][0]["shape"] = {2}; }, "tensors[0].shape: only randint takes a shape"},
      {"unknown field in an entry", [](json& j) { j["tensors"][0]["std"] = 2; }, "tensors[0].std: unknown field"},
      {"embedding id out of range", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "e", "embedding": [8, 4], "ids": [1, 2, 9]})")); },
       "tensors[4].ids[2]: 9 is out of range [0, 8)"},
      {"embedding without ids", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "e", "embedding": [8, 4]})")); },
       "tensors[4].ids: required with embedding"},
      {"ids on linear", [](json& j) { j["tensors"][1]["ids"] = {1}; }, "tensors[1].ids: only embedding takes ids"},
      {"manual_seed not an integer", [](json& j) { j["tensors"].insert(j["tensors"].begin() + 1, json{{"manual_seed", "x"}}); },
       "tensors[1].manual_seed: expected an integer"},
      {"manual_seed with a name", [](json& j) { j["tensors"].insert(j["tensors"].begin() + 1, json{{"manual_seed", 3}, {"name", "s"}}); },
       "tensors[1].name: unknown field"},
      {"attention missing", [](json& j) { j.erase("attention"); }, "attention: required"},
      {"unknown field in attention", [](json& j) { j["attention"]["maks"] = "none"; }, "attention.maks: unknown field"},
      {"x names no tensor", [](json& j) { j["attention"]["x"] = "y"; }, "attention.x: no tensor named \"y\""},
      {"x of rank 1", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "v1", "randn": [5]})")); j["attention"]["x"] = "v1"; },
       "attention.x: \"v1\" is [5]; expected [T, C] or [B, T, C]"},
      {"heads empty", [](json& j) { j["attention"]["heads"] = json::array(); },
       "attention.heads: expected a list of at least one head"},
      {"head not an object", [](json& j) { j["attention"]["heads"][0] = "wq"; },
       "attention.heads[0]: expected an object {query, key, value}"},
      {"head with query only", [](json& j) { j["attention"]["heads"][0].erase("key"); },
       "attention.heads[0]: names query but not key; name both, or neither for uniform weights"},
      {"a misspelt key", [](json& j) { j["attention"]["heads"][0]["key"] = "kee"; },
       "attention.heads[0].key: no tensor named \"kee\""},
      {"unknown field in a head", [](json& j) { j["attention"]["heads"][0]["vlaue"] = "wv"; },
       "attention.heads[0].vlaue: unknown field"},
      {"query rows against C", [](json& j) { j["tensors"][1]["linear"] = {6, 4}; },
       "attention.heads[0].query: \"wq\" has 6 rows but x has C = 8"},
      {"key columns against query columns", [](json& j) { j["tensors"][2]["linear"] = {8, 5}; },
       "attention.heads[0].key: \"wk\" has 5 columns but the query has 4; q and k need the same head_size"},
      {"a weight of rank 3", [](json& j) { j["tensors"][3] = json::parse(R"({"name": "wv", "randn": [2, 8, 3]})"); },
       "attention.heads[0].value: \"wv\" is [2, 8, 3]; expected a weight [C, d]"},
      {"an unknown mask", [](json& j) { j["attention"]["mask"] = "diagonal"; },
       "attention.mask: \"diagonal\" is not a mask: expected \"causal\", \"none\" or a 4 × 4 list of 0/1"},
      {"a mask with too few rows", [](json& j) { j["attention"]["mask"] = json::parse("[[1,0,0,0],[1,1,0,0],[1,1,1,0]]"); },
       "attention.mask: expected 4 rows (Tq), got 3"},
      {"a mask row that allows nothing", [](json& j) { j["attention"]["mask"] = json::parse("[[1,0,0,0],[1,1,0,0],[1,1,1,0],[0,0,0,0]]"); },
       "attention.mask: row 3 allows no position"},
      {"a mask cell of 2", [](json& j) { j["attention"]["mask"] = json::parse("[[1,0,0,0],[2,1,0,0],[1,1,1,0],[1,1,1,1]]"); },
       "attention.mask[1][0]: expected 0 or 1, got 2"},
      {"a short mask row", [](json& j) { j["attention"]["mask"] = json::parse("[[1,0,0],[1,1,0,0],[1,1,1,0],[1,1,1,1]]"); },
       "attention.mask[0]: expected 4 entries (Tkv) of 0 or 1"},
      {"scale not a boolean", [](json& j) { j["attention"]["scale"] = "yes"; }, "attention.scale: expected true or false"},
      {"temperature 0", [](json& j) { j["attention"]["temperature"] = 0; }, "attention.temperature: expected a number > 0 that fits in float32, got 0"},
      {"output rows against heads · d_v", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "wo", "linear": [4, 8]})")); j["attention"]["output"] = "wo"; },
       "attention.output: \"wo\" is [4, 8]; expected [3, C_out] (heads · d_v rows)"},
      {"a bias of the wrong width", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "bq", "zeros": [3]})")); j["attention"]["heads"][0]["query_bias"] = "bq"; },
       "attention.heads[0].query_bias: \"bq\" is [3]; expected [4], one number per column of query"},
      {"a bias of rank 2", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "bv", "zeros": [1, 3]})")); j["attention"]["heads"][0]["value_bias"] = "bv"; },
       "attention.heads[0].value_bias: \"bv\" is [1, 3]; expected [3], one number per column of value"},
      {"a bias naming no tensor", [](json& j) { j["attention"]["heads"][0]["key_bias"] = "bk"; },
       "attention.heads[0].key_bias: no tensor named \"bk\""},
      {"a value bias without a value", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "bv", "zeros": [8]})")); j["attention"]["heads"][0].erase("value"); j["attention"]["heads"][0]["value_bias"] = "bv"; },
       "attention.heads[0].value_bias: a bias is added after its product, and this head names no value"},
      {"an output bias without an output", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "bo", "zeros": [3]})")); j["attention"]["output_bias"] = "bo"; },
       "attention.output_bias: a bias is added after its product, and there is no output projection"},
      {"an output bias of the wrong width", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "wo", "linear": [3, 8]})")); j["tensors"].push_back(json::parse(R"({"name": "bo", "zeros": [5]})")); j["attention"]["output"] = "wo"; j["attention"]["output_bias"] = "bo"; },
       "attention.output_bias: \"bo\" is [5]; expected [8], one number per column of output"},
      {"context of another batch", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "c", "randn": [3, 5, 8]})")); j["attention"]["context"] = "c"; },
       "attention.context: batch 3 does not match x's batch 2"},
      {"context of another rank", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "c", "randn": [5, 8]})")); j["attention"]["context"] = "c"; },
       "attention.context: \"c\" is [5, 8]; expected the rank of x [2, 4, 8]"},
      {"tokens of the wrong length", [](json& j) { j["tokens"] = {"a", "b", "c"}; },
       "tokens: expected 4 labels, one per position, got 3"},
      {"a token that is not text", [](json& j) { j["tokens"][1] = 7; }, "tokens[1]: expected a string"},
      {"token lists for the wrong batch", [](json& j) { j["tokens"] = json::parse(R"([["a","b","c","d"],["a","b","c","d"],["a","b","c","d"]])"); },
       "tokens: expected 2 lists, one per batch element, got 3"},
      {"context tokens of the wrong length", [](json& j) { j["context_tokens"] = {"a"}; },
       "context_tokens: expected 4 labels, one per position, got 1"},
      {"a tensor over the element limit", [](json& j) { j["tensors"][0]["randn"] = {4096, 4096}; },
       "tensors[0].randn: [4096, 4096] has 16777216 elements; the limit is 4194304"},
      {"a shape whose size overflows 64 bits is still caught", [](json& j) { j["tensors"][0]["zeros"] = {10000000, 10000000, 10000000}; j["tensors"][0].erase("randn"); },
       "tensors[0].zeros: [10000000, 10000000, 10000000] has 18446744073709551615 elements; the limit is 4194304"},
      // sizes are named as written: in wasm a size_t would clamp them to 4294967295
      {"a size beyond 32 bits", [](json& j) { j["tensors"][0]["zeros"] = {4294967304ull}; j["tensors"][0].erase("randn"); },
       "tensors[0].zeros: [4294967304] has 4294967304 elements; the limit is 4194304"},
      {"a linear layer beyond 32 bits", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "w", "linear": [4294967304, 1]})")); },
       "tensors[4].linear: [4294967304, 1] has 4294967304 elements; the limit is 4194304"},
      {"an embedding id beyond 32 bits", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "e", "embedding": [5, 3], "ids": [4294967299]})")); },
       "tensors[4].ids[0]: 4294967299 is out of range [0, 5)"},
      {"an embedding table over the limit", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "e", "embedding": [5000000, 3], "ids": [0]})")); },
       "tensors[4].embedding: a table of 5000000 × 3 exceeds the limit of 4194304 elements"},
      {"a sequence over the length limit", [](json& j) { j["tensors"][0] = json::parse(R"({"name": "x", "zeros": [4096, 8]})"); j.erase("tokens"); },
       "attention.x: length 4096 exceeds the limit of 2048"},
      {"rotary not an object", [](json& j) { j["attention"]["rotary"] = 10000; },
       "attention.rotary: expected an object {\"theta\": θ, \"offset\": n}"},
      {"rotary without theta", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"offset": 2})"); },
       "attention.rotary.theta: required (10000 in Llama 2, 500000 in Llama 3)"},
      {"rotary with an unknown field", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"theta": 10000, "base": 2})"); },
       "attention.rotary.base: unknown field"},
      {"rotary theta 0", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"theta": 0})"); },
       "attention.rotary.theta: expected a number > 0 that fits in float32, got 0"},
      {"rotary theta negative", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"theta": -10000})"); },
       "attention.rotary.theta: expected a number > 0 that fits in float32, got -10000"},
      {"rotary theta beyond float32", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"theta": 1e39})"); },
       "attention.rotary.theta: expected a number > 0 that fits in float32, got 1e+39"},
      {"rotary theta as text", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"theta": "10000"})"); },
       "attention.rotary.theta: expected a number > 0 that fits in float32, got \"10000\""},
      {"rotary theta so small the angles overflow", [](json& j) { j["tensors"][1]["linear"] = {8, 16}; j["tensors"][2]["linear"] = {8, 16}; j["attention"]["rotary"] = json::parse(R"({"theta": 1e-44, "offset": 1000})"); },
       "attention.rotary.theta: 1e-44 turns position 1003 of attention.heads[0] by an angle beyond float32"},
      {"rotary offset negative", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"theta": 10000, "offset": -1})"); },
       "attention.rotary.offset: expected a whole number from 0 to 1048576, got -1"},
      {"rotary offset a fraction", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"theta": 10000, "offset": 2.5})"); },
       "attention.rotary.offset: expected a whole number from 0 to 1048576, got 2.5"},
      {"rotary offset past the limit", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"theta": 10000, "offset": 1048577})"); },
       "attention.rotary.offset: expected a whole number from 0 to 1048576, got 1048577"},
      {"rotary offset beyond 64 bits", [](json& j) { j["attention"]["rotary"] = json::parse(R"({"theta": 10000, "offset": 18446744073709551615})"); },
       "attention.rotary.offset: expected a whole number from 0 to 1048576, got 18446744073709551615"},
      {"rotary with a context", [](json& j) { j["tensors"].push_back(json::parse(R"({"name": "c", "randn": [2, 5, 8]})")); j["attention"]["context"] = "c"; j["attention"]["rotary"] = json::parse(R"({"theta": 10000})"); },
       "attention.rotary: needs self-attention, and this layer names a context \"c\"; queries and keys must share their positions"},
      {"rotary with a head without query and key", [](json& j) { j["attention"]["heads"].push_back(json::parse(R"({"value": "wv"})")); j["attention"]["rotary"] = json::parse(R"({"theta": 10000})"); },
       "attention.rotary: attention.heads[1] names no query and key; rotary turns q and k, so every head needs both"},
      {"rotary with an odd d_k", [](json& j) { j["tensors"][1]["linear"] = {8, 3}; j["tensors"][2]["linear"] = {8, 3}; j["attention"]["rotary"] = json::parse(R"({"theta": 10000})"); },
       "attention.rotary: attention.heads[0] has d_k = 3, odd; rotary turns pairs of numbers, so d_k must be even"},
      {"attention matrices over the limit", [](json& j) { j["tensors"][0] = json::parse(R"({"name": "x", "zeros": [32, 512, 8]})"); j.erase("tokens"); },
       "attention: B · heads · Tq · Tkv = 32 · 1 · 512 · 512 = 8388608 exceeds the limit of 4194304"},
  };
}
}  // namespace

TEST_CASE("text that is not a scenario object is rejected before parsing goes deep", "[scenario]") {
  CHECK_THAT(message_of("{\"version\": 1,"), Catch::StartsWith("scenario: not valid JSON at line 1, column 15: syntax error"));
  CHECK(message_of("[1, 2]") == "scenario: expected a JSON object");
  CHECK(message_of(std::string(100000, '[')) == "scenario: nested deeper than 16 levels at line 1, column 17");
  CHECK(message_of(std::string(limits::scenario_bytes + 1, ' ')) ==
        "scenario: 16777217 bytes exceed the limit of 16777216");
}

TEST_CASE("too many tensor entries or elements in total are rejected", "[scenario]") {
  json many = base();
  for (int i = 0; i < 260; ++i) many["tensors"].push_back({{"name", "z" + std::to_string(i)}, {"zeros", {1}}});
  CHECK(message_of(many.dump()) == "tensors: 264 entries exceed the limit of 256");

  json heavy = base();
  for (int i = 0; i < 5; ++i) heavy["tensors"].push_back({{"name", "h" + std::to_string(i)}, {"zeros", {4194304}}});
  CHECK(message_of(heavy.dump()) == "tensors[7]: the tensors so far hold 16777368 elements; the limit is 16777216");
}

TEST_CASE("defaults: causal mask, scale on, temperature 1, context = x", "[scenario]") {
  json j = base();
  j["attention"].erase("mask");
  const scenario s = parse_scenario(j.dump());
  CHECK(s.attention.mask.type == mask_spec::kind::causal);
  CHECK(s.attention.options.scale);
  CHECK(s.attention.options.temperature == 1.0f);
  CHECK(s.attention.context == "x");
  CHECK_FALSE(s.is_cross());
  CHECK(s.attention.output.empty());
}

TEST_CASE("tokens given once label every batch element, lists label each", "[scenario]") {
  json shared = base();
  const scenario s = parse_scenario(shared.dump());
  CHECK(s.labels(1) == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(s.labels(0, true).empty());

  json per_batch = base();
  per_batch["tokens"] = json::parse(R"([["a","b","c","d"],["e","f","g","h"]])");
  CHECK(parse_scenario(per_batch.dump()).labels(1)[0] == "e");
}

TEST_CASE("a negative seed is taken as PyTorch does, wrapped to 64 bits", "[scenario]") {
  json j = base();
  j["seed"] = -1;
  CHECK(*parse_scenario(j.dump()).seed == 0xffffffffffffffffULL);
}

TEST_CASE("cross-attention takes a context of its own length and a rectangular mask", "[scenario]") {
  json j = base();
  j["tensors"].push_back(json::parse(R"({"name": "c", "randn": [2, 6, 8]})"));
  j["attention"]["context"] = "c";
  j["attention"]["mask"] = json::parse("[[1,1,1,1,1,1],[1,0,0,0,0,0],[0,0,0,0,0,1],[1,1,0,0,0,0]]");
  const scenario s = parse_scenario(j.dump());
  CHECK(s.is_cross());
  CHECK(s.context_length == 6);
  CHECK(s.attention.mask.custom(2, 5) == 1.0f);
}

TEST_CASE("every preset in web/scenarios parses", "[scenario]") {
  for (const char* id : {"bank-module", "bank-projected", "bank-raw", "karpathy-affinities", "karpathy-value",
                         "market-apples", "math-trick", "scaled-attention", "single-head-42", "sun-rises-causal",
                         "sun-rises-cross", "sun-rises-multihead", "sun-rises", "tril-matmul", "uniform-value-42"}) {
    INFO(id);
    const scenario s = parse_scenario(test_support::read_text(test_support::presets_dir() + "/" + id + ".json"));
    CHECK(s.id == id);
  }
}

TEST_CASE("attention.self: a context drawn apart that holds x's positions is self-attention", "[scenario]") {
  json j = base();
  j["tensors"].push_back(json::parse(R"({"name": "k", "randn": [2, 4, 8]})"));
  j["attention"]["context"] = "k";
  CHECK(parse_scenario(j.dump()).is_cross());
  j["attention"]["self"] = true;
  const scenario s = parse_scenario(j.dump());
  CHECK_FALSE(s.is_cross());
  CHECK(s.attention.context == "k");
  j["attention"]["self"] = "yes";
  CHECK(message_of(j.dump()) == "attention.self: expected true or false");
  j["tensors"].back()["randn"] = {2, 5, 8};
  j["attention"]["self"] = true;
  j["attention"]["mask"] = "none";
  CHECK(message_of(j.dump()) == "attention.self: the context has 5 positions and x has 4; self-attention needs the same positions");
}
