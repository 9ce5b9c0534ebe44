#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "attention/scenario.hpp"
#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "formats/scenario_cost.hpp"
#include "formats/scenario_file.hpp"

using namespace attention;
using nlohmann::json;

namespace {

// x [B?, T, C], `heads` heads with query/key [C, d] and value [C, dv].
json layer(json x_shape, std::size_t C, std::size_t heads, std::size_t d, std::size_t dv) {
  json j = {{"version", 1}, {"id", "cost"}, {"tensors", {{{"name", "x"}, {"randn", x_shape}},
                                                         {{"name", "wq"}, {"linear", {C, d}}},
                                                         {{"name", "wk"}, {"linear", {C, d}}},
                                                         {{"name", "wv"}, {"linear", {C, dv}}}}}};
  json list = json::array();
  for (std::size_t h = 0; h < heads; ++h) list.push_back({{"query", "wq"}, {"key", "wk"}, {"value", "wv"}});
  j["attention"] = {{"x", "x"}, {"heads", list}};
  return j;
}

std::string message_of(const json& j) {
  try {
    parse_scenario(j.dump());
  } catch (const error& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("the cost of a layer counts draws, multiply-adds and trace numbers", "[cost]") {
  // x (2, 4, 8); one head, d = 4, dv = 3
  const scenario s = parse_scenario(layer({2, 4, 8}, 8, 1, 4, 3).dump());
  const scenario_cost c = cost_of(s);
  CHECK(c.draws == 64 + 32 + 32 + 24);
  // q, k: 2·4·8·4 each; scores 2·4·4·4; v 2·4·8·3; out 2·4·4·3
  CHECK(c.multiply_adds == 256 + 256 + 128 + 192 + 96);
  // tensors 152; 4 steps of 32; q, k 32 each; v 24; out 24; concatenated 24
  CHECK(c.trace_numbers == 152 + 128 + 64 + 24 + 24 + 24);
}

TEST_CASE("the largest documented case fits: T = 512, C = 128, 8 heads of 16", "[cost]") {
  CHECK(message_of(layer({512, 128}, 128, 8, 16, 16)) == "(accepted)");
}

TEST_CASE("scenarios of a few hundred bytes cannot ask for minutes of work", "[cost]") {
  // 64 heads over x [256, 16384]: 68 s and 1.3 GB before these bounds
  CHECK(message_of(layer({256, 16384}, 16384, 64, 16, 16)) ==
        "attention.heads[1]: the layer so far needs 406847488 multiply-adds; the limit is 268435456");
  // a value projection [1, 4194304] over 8 rows: a trace of 0.6 GB of text
  CHECK(message_of(layer({8, 1}, 1, 1, 1, 4194304)) ==
        "attention.heads[0]: the layer so far needs 301989968 multiply-adds; the limit is 268435456");
  // ... and over 2 rows, little work but a trace of 21 million numbers
  CHECK(message_of(layer({2, 1}, 1, 1, 1, 4194304)) ==
        "attention.heads[0]: the trace so far holds 20971544 numbers; the limit is 16777216");
  // 1025 rows of the same: v alone has more elements than a 32-bit size_t counts
  CHECK_THAT(message_of(layer({1025, 1}, 1, 1, 1, 4194304)),
             Catch::StartsWith("attention.heads[0]: the layer so far needs"));
}

TEST_CASE("random draws are bounded, an embedding drawing its whole table", "[cost]") {
  json j = {{"version", 1}, {"id", "tables"}, {"tensors", json::array()}};
  for (int i = 0; i < 255; ++i)
    j["tensors"].push_back({{"name", "e" + std::to_string(i)}, {"embedding", {4194304, 1}}, {"ids", {0}}});
  j["tensors"].push_back({{"name", "x"}, {"ones", {2, 2}}});
  j["attention"] = {{"x", "x"}, {"heads", {json::object()}}};
  CHECK(message_of(j) == "tensors[2]: the tensors so far draw 12582912 random numbers; the limit is 8388608");
  // wide randint ranges draw two 32-bit numbers each
  json wide = layer({4, 2}, 2, 1, 1, 1);
  wide["tensors"].push_back({{"name", "r"}, {"randint", {0, 1LL << 40}}, {"shape", {4194304}}});
  wide["tensors"].push_back({{"name", "r2"}, {"randint", {0, 1LL << 40}}, {"shape", {4194304}}});
  CHECK(message_of(wide) == "tensors[4]: the tensors so far draw 8388622 random numbers; the limit is 8388608");
}

TEST_CASE("costs saturate instead of wrapping", "[cost]") {
  scenario s = parse_scenario(layer({2, 2}, 2, 1, 2, 2).dump());
  s.tensors[0].shape = {std::size_t{1} << 31, std::size_t{1} << 31};  // as if a check had been skipped
  s.query_length = s.context_length = std::size_t{1} << 31;
  const scenario_cost c = cost_of(s);
  CHECK(c.trace_numbers > limits::trace_numbers);
  CHECK(c.multiply_adds > limits::multiply_adds);
}

TEST_CASE("rotary positions cost two products a number of q and k, and q_rotated and k_rotated in the trace", "[cost][rotary]") {
  json j = layer({2, 5, 8}, 8, 3, 4, 6);  // B 2, T 5, three heads of d_k 4
  const scenario_cost plain = cost_of(parse_scenario(j.dump()));
  j["attention"]["rotary"] = {{"theta", 10000}, {"offset", 5}};
  const scenario_cost turned = cost_of(parse_scenario(j.dump()));
  const std::uint64_t rows = 3 * 2 * (5 + 5), numbers = rows * 4;  // heads · B · (Tq + Tkv) rows of d_k
  CHECK(turned.multiply_adds == plain.multiply_adds + 2 * numbers);
  CHECK(turned.trace_numbers == plain.trace_numbers + numbers);
  CHECK(turned.draws == plain.draws);
}
