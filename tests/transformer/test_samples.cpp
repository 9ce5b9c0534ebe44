// Samples: the untrained and the trained model continue the prompt exactly
// as torch_train.py's did, character for character, off the training stream.
#include <catch2/catch.hpp>

#include "support.hpp"
#include "training/training.hpp"

using namespace attention;
using nlohmann::json;

TEST_CASE("step 0's sample is PyTorch's, for a bigram and for one head", "[samples]") {
  for (const char* id : {"text-bigram", "text-one-head"}) {
    INFO(id);
    const training_file f = test_support::training_preset(id);
    const json golden = test_support::read_json(test_support::tests_dir() + "/golden-training/" + id + ".trace.json");
    training_run run(f.spec);
    const evaluation e = run.evaluate();
    REQUIRE(e.sample.has_value());
    CHECK(*e.sample == golden.at("evals").at(0).at("sample").get<std::string>());
    CHECK(code_points(*e.sample, "sample").size() == 120);
  }
}

TEST_CASE("a sample leaves the training stream as it was, and depends on its own seed only", "[samples]") {
  const training_file f = test_support::training_preset("text-bigram");
  training_run a(f.spec), b(f.spec);
  a.evaluate();  // samples
  CHECK(a.step() == b.step());
  sample_spec other = *f.spec.sample;
  other.seed = 7;
  CHECK(sample_ids(a.weights(), a.model(), other) != sample_ids(a.weights(), a.model(), *f.spec.sample));
  CHECK(sample_ids(a.weights(), a.model(), other) == sample_ids(a.weights(), a.model(), other));
  // a prompt longer than T: only its last T characters condition the next
  other.prompt.assign(40, f.spec.sample->prompt[0]);
  other.length = 3;
  CHECK(sample_ids(a.weights(), a.model(), other).size() == 3);
}
