// Replays tests/fixtures/random.json, made by PyTorch (make_random_fixtures.py).
#include <catch2/catch.hpp>

#include <cmath>

#include "random/sampling.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

namespace {

shape_t shape_of(const json& j) { return j.get<shape_t>(); }

// Runs one PyTorch call on our generator; returns false for manual_seed.
bool replay(const json& op, generator& gen, tensor& result) {
  const std::string kind = op.at("op");
  if (kind == "manual_seed") {
    gen.manual_seed(op.at("seed").is_number_unsigned() ? op.at("seed").get<std::uint64_t>()
                                                       : static_cast<std::uint64_t>(op.at("seed").get<std::int64_t>()));
    return false;
  }
  if (kind == "rand") result = rand(gen, shape_of(op.at("shape")));
  else if (kind == "randn") result = randn(gen, shape_of(op.at("shape")));
  else if (kind == "randint") result = randint(gen, op.at("low"), op.at("high"), shape_of(op.at("shape")));
  else if (kind == "linear") result = linear(gen, op.at("in"), op.at("out"));
  else if (kind == "embedding")
    result = embedding(gen, op.at("num"), op.at("dim"), op.at("ids").get<std::vector<std::int64_t>>());
  else FAIL("unknown op " << kind);
  return true;
}

bool uses_normal(const std::string& kind) { return kind == "randn" || kind == "embedding"; }

}  // namespace

TEST_CASE("every sampler reproduces PyTorch's CPU generator", "[sampling]") {
  const json fixtures = test_support::read_json(test_support::tests_dir() + "/fixtures/random.json");
  REQUIRE(fixtures.at("cases").size() >= 30);
  for (const json& c : fixtures.at("cases")) {
    SECTION(c.at("name").get<std::string>()) {
      generator gen;
      std::size_t produced = 0;
      for (const json& op : c.at("calls")) {
        tensor result;
        if (!replay(op, gen, result)) continue;
        const json& expected = c.at("expected").at(produced++);
        const std::string kind = op.at("op");
        INFO("call " << produced << ": " << op.dump());
        REQUIRE(shape_t(result.shape().begin(), result.shape().end()) == shape_of(expected.at("shape")));
        const auto& data = expected.at("data");
        double largest = 0;
        std::size_t unequal = 0;
        for (std::size_t i = 0; i < data.size(); ++i) {
          const float want = static_cast<float>(data[i].get<double>());
          largest = std::max(largest, std::fabs(double(result.data()[i]) - double(want)));
          unequal += result.data()[i] != want;
        }
        INFO("largest difference " << largest << ", " << unequal << " of " << data.size() << " not bit-equal");
        if (uses_normal(kind)) CHECK(largest <= 1e-6);  // randn: within 1e-6
        else CHECK(unequal == 0);                        // rand, randint, linear: bit-exact
      }
      CHECK(produced == c.at("expected").size());
    }
  }
}

TEST_CASE("randn below 16 elements uses and keeps the cached second sample", "[sampling]") {
  generator a(10), b(10);
  const tensor three = randn(a, {3});  // cos0, sin0, cos1; sin1 stays cached
  REQUIRE(a.next_double_normal_sample.has_value());
  const tensor four = randn(b, {4});
  for (std::size_t i = 0; i < 3; ++i) CHECK(three.data()[i] == four.data()[i]);
  CHECK(static_cast<float>(*a.next_double_normal_sample) == four.data()[3]);
}

TEST_CASE("randn at 16 or more elements leaves no cached sample", "[sampling]") {
  generator gen(10);
  const tensor t = randn(gen, {16});
  CHECK_FALSE(gen.next_double_normal_sample.has_value());
  for (float v : t) CHECK(std::isfinite(v));
}

TEST_CASE("linear draws within ±1/sqrt(in) and returns (in, out)", "[sampling]") {
  generator gen(1);
  const tensor2 w = linear(gen, 25, 4);
  REQUIRE(w.shape(0) == 25);
  REQUIRE(w.shape(1) == 4);
  for (float v : w) CHECK(std::fabs(v) <= 0.2f);
}

TEST_CASE("randint stays between low and high, high excluded", "[sampling]") {
  generator gen(4);
  const tensor t = randint(gen, -3, 4, {1000});
  for (float v : t) {
    CHECK(v >= -3.0f);
    CHECK(v < 4.0f);
    CHECK(v == std::floor(v));
  }
}
