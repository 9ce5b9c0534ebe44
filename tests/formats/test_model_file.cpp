// A trained model as a model file: the core writes what torch_train.py
// --model writes for the same training file (tests/fixtures/model-file/):
// the same tensors in the same order, shapes, offsets and metadata, values
// within float32 training's drift, the header 8-byte aligned.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <sstream>

#include "formats/model_file.hpp"
#include "formats/training_trace.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

namespace {

struct safetensors {
  json header;
  std::string data;
};

safetensors read_safetensors(const std::string& bytes) {
  REQUIRE(bytes.size() >= 8);
  std::uint64_t n = 0;
  for (int byte = 7; byte >= 0; --byte) n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(byte)]);
  REQUIRE(8 + n <= bytes.size());
  return {json::parse(bytes.substr(8, n)), bytes.substr(8 + n)};
}

std::vector<float> floats(const safetensors& file, const json& entry) {
  const std::size_t begin = entry.at("data_offsets")[0], end = entry.at("data_offsets")[1];
  std::vector<float> out((end - begin) / 4);
  std::memcpy(out.data(), file.data.data() + begin, end - begin);
  return out;
}

}  // namespace

TEST_CASE("train --model writes what torch_train.py --model writes", "[model-file]") {
  const std::string folder = test_support::tests_dir() + "/fixtures/model-file/";
  const training_file file = parse_training(test_support::read_text(folder + "small-gpt.json"));
  training_run run(file.spec);
  train_all(run, file.spec);
  std::ostringstream out;
  write_model_file(out, file, run);
  const std::string bytes = out.str();
  const safetensors got = read_safetensors(bytes);
  const safetensors want = read_safetensors(test_support::read_text(folder + "small-gpt.safetensors"));
  CHECK((bytes.size() - got.data.size()) % 8 == 0);  // the data starts 8-byte aligned

  std::vector<std::string> got_names, want_names;
  for (const auto& item : got.header.items()) got_names.push_back(item.key());
  for (const auto& item : want.header.items()) want_names.push_back(item.key());
  CHECK(got_names == want_names);  // nlohmann sorts both: the same set of names
  const json& meta = got.header.at("__metadata__");
  const json& want_meta = want.header.at("__metadata__");
  CHECK(meta.at("n_head") == want_meta.at("n_head"));
  CHECK(meta.at("activation") == "gelu_tanh");
  CHECK(meta.at("source") == "small-gpt");
  CHECK(json::parse(meta.at("vocab").get<std::string>()) == json::parse(want_meta.at("vocab").get<std::string>()));
  double worst = 0;
  for (const auto& item : want.header.items()) {
    if (item.key() == "__metadata__") continue;
    INFO(item.key());
    const json& entry = got.header.at(item.key());
    CHECK(entry.at("dtype") == "F32");
    CHECK(entry.at("shape") == item.value().at("shape"));
    CHECK(entry.at("data_offsets") == item.value().at("data_offsets"));  // the same order of tensors
    const std::vector<float> a = floats(got, entry), b = floats(want, item.value());
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, double(std::abs(a[i] - b[i])));
  }
  CHECK(worst <= 1e-5);
}

TEST_CASE("the file holds the trained weights in nn.Linear's layout, heads fused as [q | k | v]", "[model-file]") {
  const training_file file = parse_training(test_support::read_text(test_support::tests_dir() + "/fixtures/model-file/small-gpt.json"));
  const training_run run(file.spec);
  std::ostringstream out;
  write_model_file(out, file, run);
  const safetensors got = read_safetensors(out.str());
  const model_weights& w = run.weights();
  const std::vector<float> attn = floats(got, got.header.at("transformer.h.1.attn.c_attn.weight"));  // [3d, d]
  const std::size_t d = 8, hs = 4;
  // row r of c_attn: head h's query unit (r < d), key unit (d ≤ r < 2d) or value unit
  CHECK(attn[(0 * d + 1 * hs + 2) * d + 5] == w.layers[1].heads[1].query(5, 2));
  CHECK(attn[(1 * d + 0 * hs + 3) * d + 7] == w.layers[1].heads[0].key(7, 3));
  CHECK(attn[(2 * d + 1 * hs + 0) * d + 0] == w.layers[1].heads[1].value(0, 0));
  const std::vector<float> bias = floats(got, got.header.at("transformer.h.1.attn.c_attn.bias"));
  CHECK(bias[d + 2] == 0.0f);  // no key bias
  CHECK(bias[2 * d + 1] == w.layers[1].heads[0].value_bias(0, 1));
  const std::vector<float> head = floats(got, got.header.at("lm_head.weight"));  // [V, d]
  CHECK(head[3 * d + 2] == w.unembed.floats()(2, 3));
}
