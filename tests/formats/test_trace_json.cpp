#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <streambuf>
#include <vector>

#include "attention/run.hpp"
#include "formats/scenario_file.hpp"
#include "formats/trace_json.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

TEST_CASE("a trace reads back bit for bit, with -inf as null", "[trace]") {
  const std::string text = R"({"version": 1, "id": "round-trip", "seed": 3,
    "tensors": [{"name": "x", "randn": [2, 5, 4]}, {"name": "w", "linear": [4, 3]}],
    "attention": {"x": "x", "heads": [{"query": "w", "key": "w", "value": "w"}]}})";
  const trace t = run_json(text);
  const json j = json::parse(trace_json(t));

  const auto& masked = j["heads"][0]["masked"];
  CHECK(masked["shape"] == json({2, 5, 5}));
  CHECK(masked["data"][1].is_null());  // row 0 may not see position 1
  CHECK_FALSE(masked["data"][0].is_null());

  const auto& weights = j["heads"][0]["weights"]["data"];
  for (std::size_t i = 0; i < weights.size(); ++i)
    REQUIRE(static_cast<float>(weights[i].get<double>()) == t.layer.heads[0].weights.data()[i]);
  const auto& x = j["tensors"]["x"]["data"];
  for (std::size_t i = 0; i < x.size(); ++i) REQUIRE(static_cast<float>(x[i].get<double>()) == t.tensors[0].value.data()[i]);
}

TEST_CASE("a trace has the spec's keys, in its order, and q/k/v only when named", "[trace]") {
  const std::string text = R"({"version": 1, "id": "keys",
    "tensors": [{"name": "x", "ones": [3, 2]}, {"name": "v", "ones": [2, 2]}],
    "attention": {"x": "x", "heads": [{"value": "v"}, {}]}})";
  const std::string out = trace_json(run_json(text));
  const json j = json::parse(out);
  CHECK(out.rfind("{\"version\": 1, \"id\": \"keys\", \"tensors\": {", 0) == 0);
  CHECK(j["heads"][0].contains("v"));
  CHECK_FALSE(j["heads"][0].contains("q"));
  CHECK_FALSE(j["heads"][1].contains("v"));
  // no batch axis in x: none in the steps
  CHECK(j["heads"][0]["scores"]["shape"] == json({3, 3}));
  CHECK(j["out"]["shape"] == json({3, 4}));
}

namespace {

// A stream that takes nothing, as a full disk does: its first write fails.
struct full_disk : std::streambuf {
  int overflow(int) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

}  // namespace

TEST_CASE("numbers stop being formatted once the stream has failed (a full disk)", "[trace]") {
  // 100,000 numbers, the last one a NaN that formatting it would refuse:
  // only a writer that stops at the failed stream never reaches it
  std::vector<float> data(100000, 0.5f);
  data.back() = std::nanf("");
  std::ostringstream good;
  CHECK_THROWS_WITH(write_floats_json(good, data.data(), data.size()),
                    "trace: internal error: a non-finite value other than -inf");
  full_disk disk;
  std::ostream out(&disk);
  CHECK_NOTHROW(write_floats_json(out, data.data(), data.size()));
  CHECK_FALSE(out.good());
  CHECK_FALSE(write_floats(out, data.data(), 3, ",", false));
}
