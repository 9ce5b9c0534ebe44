// A model file from a stream: the header checked against the stream's size
// before anything is allocated, then the data in chunks.
#include <catch2/catch.hpp>

#include "model_support.hpp"

using namespace attention;

TEST_CASE("a model file streams from its path or any stream of known size", "[model-stream]") {
  const std::string bytes = test_support::read_text(model_support::model_path("nano-f16-nobias"));
  const gpt_model from_memory = model_support::model_of(bytes);
  const gpt_model from_disk = read_model_file(model_support::model_path("nano-f16-nobias"));
  CHECK(from_memory.config.parameters == from_disk.config.parameters);
  CHECK(from_memory.weights.tok == from_disk.weights.tok);
  CHECK_THROWS_WITH(read_model_file("/nonexistent/m.safetensors"), "\"/nonexistent/m.safetensors\": cannot open");
}

TEST_CASE("a truncated file is named before any weight is allocated", "[model-stream]") {
  const std::string bytes = test_support::read_text(model_support::model_path("nano-f16-nobias"));
  CHECK(model_support::refusal(bytes.substr(0, 5)) == "header: the file is shorter than the 8-byte header length");
  CHECK_THAT(model_support::refusal(bytes.substr(0, 100)), Catch::Matches("header: length \\d+ does not fit a file of 100 bytes"));
  CHECK_THAT(model_support::refusal(bytes.substr(0, bytes.size() - 1)),
             Catch::Matches("header: data_offsets of .* run past the end of the file"));
  CHECK(model_support::refusal(bytes + "!") == "header: the last 1 bytes of the file belong to no tensor");
}
