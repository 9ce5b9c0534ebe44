// The text task's corpus: the sorted vocabulary,
// the splits, and Karpathy's get_batch drawing torch_train.py's windows.
#include <catch2/catch.hpp>

#include "errors/check.hpp"
#include "support.hpp"
#include "training/text.hpp"

using namespace attention;
using nlohmann::json;

TEST_CASE("the vocabulary is the sorted set of characters; the split is int(split · n)", "[text]") {
  const text_corpus c = make_corpus(code_points("hello, world", "t"), 0.9);
  CHECK(c.chars == std::vector<char32_t>{U' ', U',', U'd', U'e', U'h', U'l', U'o', U'r', U'w'});
  CHECK(c.train.size() == 10);  // int(0.9 · 12) = 10
  CHECK(c.val.size() == 2);
  CHECK(c.first == c.id_of(U'h'));
  CHECK(c.id_of(U'z') == -1);
  CHECK(c.decode(c.train) == "hello, wor");
  CHECK(c.encode(code_points("world", "t"), "t") == std::vector<std::int64_t>{8, 6, 7, 5, 2});
  CHECK(c.decode(c.encode(code_points("hello, world", "t"), "t")) == "hello, world");
  CHECK_THROWS_WITH(c.encode(code_points("wow!", "t"), "text"), "text: character 3 (\"!\") is not in the corpus's vocabulary");
  CHECK_THROWS_WITH(c.encode({U'h', U'\n'}, "text"), "text: character 1 (\"\\n\") is not in the corpus's vocabulary");
}

TEST_CASE("the ladder's corpus: 81 characters, and the probe torch_train.py drew", "[text]") {
  const training_file f = test_support::training_preset("text-one-head");
  const json golden = test_support::read_json(test_support::tests_dir() + "/golden-training/text-one-head.trace.json");
  const text_corpus& c = *f.spec.task.text;
  CHECK(c.vocab() == golden.at("vocab").get<std::size_t>());
  for (std::size_t i = 0; i < c.vocab(); ++i) CHECK(utf8_of(c.chars[i]) == golden.at("vocab_chars").at(i).get<std::string>());
  // the validation set: eval.batch windows of val after manual_seed(eval.seed); its first is the probe
  generator gen(f.spec.eval_seed);
  std::vector<std::int64_t> x(256 * 32), y(256 * 32);
  draw_text(gen, c.val, 32, 256, x, y);
  CHECK(std::vector<std::int64_t>(x.begin(), x.begin() + 32) == golden.at("probe").at("tokens").get<std::vector<std::int64_t>>());
  CHECK(std::vector<std::int64_t>(y.begin(), y.begin() + 32) == golden.at("probe").at("targets").get<std::vector<std::int64_t>>());
  for (std::size_t t = 0; t + 1 < 32; ++t) CHECK(y[t] == x[t + 1]);  // every position is a target
}
