// attention-cli lens --what logit-lens|attribution prints exactly the JSON of
// torch_lens.py (and, for the Llama family's folders, of
// tests/fixtures/make_lens_families_resid.py) within lens-v1's tolerances,
// and refuses a bad --position or --token, and BERT, in one line, exit 2.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "lens/lens_resid_support.hpp"

using cli_support::cli;
using cli_support::result;

namespace {

std::vector<std::string> words_of(const resid_support::lens_case& c) {
  std::string tokens;
  for (std::int64_t t : c.tokens) tokens += (tokens.empty() ? "" : ",") + std::to_string(t);
  std::vector<std::string> words{"lens", resid_support::root() + "/" + c.model, "--tokens", tokens, "--what", c.lens};
  if (c.position) words.insert(words.end(), {"--position", std::to_string(*c.position)});
  if (c.token) words.insert(words.end(), {"--token", std::to_string(*c.token)});
  return words;
}

}  // namespace

TEST_CASE("lens --what logit-lens and attribution print torch_lens.py's JSON, every expected case", "[lens-resid]") {
  for (const char* lens : {"logit-lens", "attribution"})
    for (const auto& c : resid_support::cases_of(lens)) {
      INFO(c.expected);
      const result r = cli(words_of(c));
      REQUIRE(r.err == "");
      REQUIRE(r.code == 0);
      CHECK(resid_support::difference(nlohmann::ordered_json::parse(r.out), resid_support::expected_of(c)) == "");
    }
}

TEST_CASE("lens: a bad --position or --token, and BERT, are one line naming the argument, exit 2", "[lens-resid]") {
  const std::string file = resid_support::root() + "/tests/models/hf-f32.safetensors";
  const auto refused = [](const std::vector<std::string>& words, const std::string& line) {
    const result r = cli(words);
    CHECK(r.code == 2);
    CHECK(r.out == "");
    CHECK(r.err == line + "\n");
  };
  refused({"lens", file, "--tokens", "5,1,3", "--what", "attribution", "--position", "3"},
          "--position: 3 is outside [0, 3)");
  refused({"lens", file, "--tokens", "5,1,3", "--what", "attribution", "--token", "31"}, "--token: 31 is outside [0, 31)");
  refused({"lens", resid_support::root() + "/tests/models-v2/bert-mlm", "--tokens", "2,17,33", "--what", "logit-lens"},
          "--what: logit-lens reads a decoder's next-token logits; BERT supports scores and ablate (lens-v1.md)");
}
