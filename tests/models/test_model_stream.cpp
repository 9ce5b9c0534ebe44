// A model file from a stream: the header checked against the stream's size
// before anything is allocated, then the data in chunks.
#include <catch2/catch.hpp>

#include "formats/limits.hpp"
#include "model_support.hpp"
#include "tensor/narrow.hpp"

using namespace attention;

TEST_CASE("a model file streams from its path or any stream of known size", "[model-stream]") {
  const std::string bytes = test_support::read_text(model_support::model_path("nano-f16-nobias"));
  const loaded_model from_memory = model_support::model_of(bytes);
  const loaded_model from_disk = read_model_file(model_support::model_path("nano-f16-nobias"));
  CHECK(from_memory.config.parameters == from_disk.config.parameters);
  CHECK((widened(from_memory.weights.tok.numbers()) == widened(from_disk.weights.tok.numbers())));
  CHECK_THROWS_WITH(read_model_file("/nonexistent/m.safetensors"), "\"/nonexistent/m.safetensors\": missing (a model file)");
}

TEST_CASE("a truncated file is named before any weight is allocated", "[model-stream]") {
  const std::string bytes = test_support::read_text(model_support::model_path("nano-f16-nobias"));
  CHECK(model_support::refusal(bytes.substr(0, 5)) == "header: the file is shorter than the 8-byte header length");
  CHECK_THAT(model_support::refusal(bytes.substr(0, 100)), Catch::Matches("header: length \\d+ does not fit a file of 100 bytes"));
  CHECK_THAT(model_support::refusal(bytes.substr(0, bytes.size() - 1)),
             Catch::Matches("header: data_offsets of .* run past the end of the file"));
  CHECK(model_support::refusal(bytes + "!") == "header: the last 1 bytes of the file belong to no tensor");
}

namespace {
// A stream that is endless: the byte `fill` for ever, after `prefix`; it counts what was read of it.
struct endless_buffer : std::streambuf {
  std::string prefix;
  char fill;
  std::size_t served = 0;
  char chunk[4096];
  endless_buffer(std::string p, char f) : prefix(std::move(p)), fill(f) {}
  int_type underflow() override {
    std::size_t n = 0;
    for (; n < sizeof chunk && served + n < prefix.size(); ++n) chunk[n] = prefix[served + n];
    for (; n < sizeof chunk; ++n) chunk[n] = fill;
    served += n;
    setg(chunk, chunk, chunk + n);
    return traits_type::to_int_type(chunk[0]);
  }
};
std::string refusal_of_stream(endless_buffer& buffer, std::string_view first = "") {
  std::istream in(&buffer);
  try {
    read_model_stream(in, first, limits::models::standard_input);
  } catch (const error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a stream of unknown size is read only as far as its header says", "[model-stream]") {
  // endless zeros: a header length of 0, refused after 8 bytes (one 4 KiB chunk of the stream)
  endless_buffer zeros("", '\0');
  CHECK(refusal_of_stream(zeros) == "header: length 0 is not within [2, 8388608] bytes, the limit of a model file's header");
  CHECK(zeros.served <= 4096);
  // endless 'y\n': a header length past the limit, refused at once
  endless_buffer yes("", 'y');
  CHECK(refusal_of_stream(yes) ==
        "header: length 8753160913407277433 is not within [2, 8388608] bytes, the limit of a model file's header");
  // a whole model, then endless bytes: refused after the model's own bytes and one more chunk
  const std::string bytes = test_support::read_text(model_support::model_path("nano-f16-nobias"));
  endless_buffer after(bytes, '\0');
  CHECK(refusal_of_stream(after) == "model: standard input goes on after the header's last tensor (a model file ends there)");
  CHECK(after.served <= bytes.size() + 4096 + (1u << 20));
  // the model alone reads as from a file; the first bytes may already have been taken
  std::istringstream whole(bytes.substr(8));
  const loaded_model model = read_model_stream(whole, std::string_view(bytes).substr(0, 8), limits::models::standard_input);
  CHECK((widened(model.weights.tok.numbers()) == widened(model_support::model_of(bytes).weights.tok.numbers())));
  std::istringstream cut(bytes.substr(0, bytes.size() - 1));
  CHECK_THROWS_WITH(read_model_stream(cut, "", limits::models::standard_input), Catch::StartsWith("model: "));
  // a tensor beyond the stream's limit: named from the header
  std::istringstream small(bytes);
  CHECK_THROWS_WITH(read_model_stream(small, "", 3000),
                    Catch::Matches("header: data_offsets of .* run past the limit of \\d+ data bytes of standard input"));
}

TEST_CASE("a path that is a directory is named as one", "[model-stream]") {
  const std::string folder = test_support::tests_dir() + "/models";
  CHECK_THROWS_WITH(read_model_file(folder), "\"" + folder + "\": a directory, not a model file");
}
