// The training tasks draw what PyTorch draws: tests/fixtures/tasks.json holds
// torch_train.py's batches for each task (make_tasks.py), and the first
// sequences of the presets' validation sets are the probes of their golden
// training traces.
#include <catch2/catch.hpp>

#include "random/sampling.hpp"
#include "support.hpp"
#include "training/tasks.hpp"

using namespace attention;
using nlohmann::json;

namespace {

std::vector<std::int64_t> flat(const json& rows) {
  std::vector<std::int64_t> out;
  for (const json& row : rows)
    for (const json& v : row) out.push_back(v.get<std::int64_t>());
  return out;
}

}  // namespace

TEST_CASE("randperm is torch.randperm bit for bit, and leaves the stream where PyTorch does", "[tasks]") {
  const json fixtures = test_support::read_json(test_support::tests_dir() + "/fixtures/tasks.json");
  REQUIRE(fixtures.at("randperm").size() >= 8);
  for (const json& c : fixtures.at("randperm")) {
    generator gen(c.at("seed").get<std::uint64_t>());
    INFO("n = " << c.at("n"));
    CHECK(randperm(gen, c.at("n").get<std::size_t>()) == c.at("perm").get<std::vector<std::int64_t>>());
    CHECK(randint_ids(gen, 0, 1000, 4) == c.at("after").get<std::vector<std::int64_t>>());
  }
}

TEST_CASE("every task draws torch_train.py's batch, and consumes the same draws", "[tasks]") {
  const json fixtures = test_support::read_json(test_support::tests_dir() + "/fixtures/tasks.json");
  REQUIRE(fixtures.at("tasks").size() >= 5);
  for (const json& c : fixtures.at("tasks")) {
    const task_spec task = test_support::task_of(c.at("task"));
    INFO(c.at("task").dump());
    generator gen(c.at("seed").get<std::uint64_t>());
    const task_batch b = draw_task(gen, task, c.at("batch").get<std::size_t>());
    CHECK(b.x == flat(c.at("x")));
    CHECK(b.y == flat(c.at("y")));
    CHECK(randint_ids(gen, 0, 1000, 4) == c.at("after").get<std::vector<std::int64_t>>());
  }
}

TEST_CASE("the presets' validation probes are the golden traces' probes", "[tasks]") {
  for (const char* id : {"previous-token", "reverse", "induction"}) {
    const training_spec spec = test_support::training_preset(id).spec;
    const json trace = test_support::read_json(test_support::tests_dir() + "/golden-training/" + id + ".trace.json");
    const task_spec& task = spec.task;
    INFO(id);
    CHECK(task_vocab(task) == trace.at("vocab").get<std::size_t>());
    CHECK(task_length(task) == trace.at("length").get<std::size_t>());
    generator gen(spec.eval_seed);
    const task_batch validation = draw_task(gen, task, spec.eval_batch);
    const std::size_t T = validation.length;
    CHECK(std::vector<std::int64_t>(validation.x.begin(), validation.x.begin() + T) == trace.at("probe").at("tokens").get<std::vector<std::int64_t>>());
    CHECK(std::vector<std::int64_t>(validation.y.begin(), validation.y.begin() + T) == trace.at("probe").at("targets").get<std::vector<std::int64_t>>());
  }
}
