#include <catch2/catch.hpp>

#include <sstream>

#include "cli.hpp"
#include "support.hpp"

using namespace attention;

namespace {
struct result {
  int code;
  std::string out, err;
};
result cli(std::vector<const char*> args, const std::string& input = "") {
  args.insert(args.begin(), "attention-cli");
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = run_cli(static_cast<int>(args.size()), args.data(), in, out, err);
  return {code, out.str(), err.str()};
}
const std::string valid = R"({"version": 1, "id": "tiny", "tensors": [{"name": "x", "ones": [2, 2]}],
                              "attention": {"x": "x", "heads": [{}]}})";
}  // namespace

TEST_CASE("trace of a preset file writes its trace and exits 0", "[cli]") {
  const std::string path = test_support::presets_dir() + "/bank-raw.json";
  const result r = cli({"trace", path.c_str()});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(nlohmann::json::parse(r.out)["id"] == "bank-raw");
}

TEST_CASE("a dash reads the scenario from standard input", "[cli]") {
  const result r = cli({"trace", "-"}, valid);
  CHECK(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["out"]["shape"] == nlohmann::json({2, 2}));
}

TEST_CASE("an invalid scenario: nothing on stdout, one line on stderr, exit 2", "[cli]") {
  const result r = cli({"trace", "-"}, R"({"version": 1, "id": "bad", "tensors": [], "attention": {"x": "x", "heads": [{}]}})");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "attention.x: no tensor named \"x\"\n");
}

TEST_CASE("validate says valid with the sizes, or the error", "[cli]") {
  const result ok = cli({"validate", "-"}, valid);
  CHECK(ok.code == 0);
  CHECK(ok.out == "valid: tiny (B=1, Tq=2, Tkv=2, heads=1, mask=causal)\n");
  const result bad = cli({"validate", "-"}, "not json");
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK_THAT(bad.err, Catch::StartsWith("scenario: not valid JSON: parse error at line 1, column 2"));
}

TEST_CASE("a missing file is one line and exit 2", "[cli]") {
  const result r = cli({"trace", "/nonexistent/scenario.json"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "/nonexistent/scenario.json: cannot open\n");
}

TEST_CASE("usage errors exit 64 with the usage text", "[cli]") {
  CHECK(cli({}).code == 64);
  const result r = cli({"explain", "x.json"});
  CHECK(r.code == 64);
  CHECK_THAT(r.err, Catch::Contains("unknown command 'explain'"));
}
