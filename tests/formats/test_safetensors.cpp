// The safetensors container: its header checked against the file's size,
// each problem one line naming the tensor or "header".
#include <catch2/catch.hpp>

#include "errors/check.hpp"
#include "formats/safetensors.hpp"
#include "tensor/tensor.hpp"

using namespace attention;

namespace {

std::string refusal(const std::string& header, std::uint64_t data_bytes) {
  try {
    read_safetensors_header(header, 8 + header.size() + data_bytes);
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a header's tensors come back in file order, with their metadata", "[safetensors]") {
  const std::string header =
      R"({"b": {"dtype": "F16", "shape": [2, 3], "data_offsets": [8, 20]}, "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
          "__metadata__": {"n_head": "2", "format": "pt"}}   )";
  const safetensors_header h = read_safetensors_header(header, 8 + header.size() + 20);
  REQUIRE(h.tensors.size() == 2);
  CHECK(h.tensors[0].name == "a");
  CHECK(h.tensors[1].name == "b");
  CHECK(h.tensors[1].elements == 6);
  CHECK(h.tensors[1].item_bytes == 2);
  CHECK(h.tensors[1].shape == std::vector<std::uint64_t>{2, 3});
  CHECK(h.metadata.at("n_head") == "2");
  CHECK(h.data_bytes == 20);
  CHECK(h.header_bytes == header.size());
}

TEST_CASE("the 8-byte length against the file", "[safetensors]") {
  const unsigned char length[8] = {0x10, 0, 0, 0, 0, 0, 0, 0};
  CHECK(safetensors_header_length(length, 8, 100) == 16);
  CHECK_THROWS_WITH(safetensors_header_length(length, 7, 7), "header: the file is shorter than the 8-byte header length");
  CHECK_THROWS_WITH(safetensors_header_length(length, 8, 20), "header: length 16 does not fit a file of 20 bytes");
  const unsigned char huge[8] = {0, 0, 0, 0, 0, 0, 0, 0x80};
  CHECK_THROWS_WITH(safetensors_header_length(huge, 8, 1000), "header: length 9223372036854775808 does not fit a file of 1000 bytes");
  const unsigned char big[8] = {0, 0, 0, 0x10, 0, 0, 0, 0};  // 256 MiB of header in a 1 GB file
  CHECK_THROWS_WITH(safetensors_header_length(big, 8, 1u << 30), "header: length 268435456 is beyond the limit of 8388608 bytes");
}

TEST_CASE("each entry: dtype, shape, data_offsets, and sizes that agree", "[safetensors]") {
  CHECK(refusal("[]", 0) == "header: not a JSON object");
  CHECK_THAT(refusal("{\"a\": ", 0), Catch::StartsWith("header: not valid JSON at line 1"));
  CHECK(refusal(R"({"a": {"dtype": "F32", "shape": [1]}})", 4) == "a: needs exactly dtype, shape and data_offsets");
  CHECK(refusal(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4], "x": 1}})", 4) ==
        "a: needs exactly dtype, shape and data_offsets");
  CHECK(refusal(R"({"a": {"dtype": "Q7", "shape": [1], "data_offsets": [0, 4]}})", 4) ==
        "a: dtype \"Q7\", expected F32, F16 or BF16");
  CHECK(refusal(R"({"a": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}})", 4) ==
        "a: shape \"[-1]\" is not a list of sizes");
  CHECK(refusal(R"({"a": {"dtype": "F32", "shape": [1.5], "data_offsets": [0, 4]}})", 4) ==
        "a: shape \"[1.5]\" is not a list of sizes");
  CHECK(refusal(R"({"a": {"dtype": "F32", "shape": [1,1,1,1,1,1,1,1,1], "data_offsets": [0, 4]}})", 4) ==
        "a: shape has 9 dimensions, beyond the limit of 8");
  CHECK(refusal(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}})", 4) ==
        "a: shape [2] in F32 needs 8 bytes, data_offsets give 4");
  CHECK(refusal(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 0]}})", 4) ==
        "a: data_offsets \"[4,0]\" is not [begin, end]");
  // 2147483647³ elements: past 2⁶⁴, never wrapped into a small count
  CHECK(refusal(R"({"a": {"dtype": "F32", "shape": [2147483647, 2147483647, 2147483647], "data_offsets": [0, 4]}})", 4) ==
        "a: shape [2147483647, 2147483647, 2147483647] holds more numbers than any file can");
  CHECK(refusal(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}, "a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}})", 4) ==
        "a: duplicate key; each key may appear once");
  CHECK(refusal(R"({"__metadata__": {"n": 1}})", 0) == "__metadata__.n: expected a string (metadata maps strings to strings)");
  CHECK(refusal(R"({"__metadata__": [1]})", 0) == "__metadata__: must map strings to strings");
}

TEST_CASE("the byte ranges tile the data: inside the file, no overlap, no gap, nothing after", "[safetensors]") {
  const std::string a = R"("a": {"dtype": "F32", "shape": [2], "data_offsets": )";
  const std::string b = R"("b": {"dtype": "F32", "shape": [1], "data_offsets": )";
  CHECK(refusal("{" + a + "[0, 8]}}", 4) == "header: data_offsets of a run past the end of the file");
  CHECK(refusal("{" + a + "[0, 8]}, " + b + "[4, 8]}}", 8) == "header: data_offsets of b overlap those of a");
  CHECK(refusal("{" + a + "[4, 12]}, " + b + "[12, 16]}}", 16) ==
        "header: bytes 0 to 4 of the data belong to no tensor (a gap before a)");
  CHECK(refusal("{" + a + "[0, 8]}, " + b + "[12, 16]}}", 16) ==
        "header: bytes 8 to 12 of the data belong to no tensor (a gap before b)");
  CHECK(refusal("{" + a + "[0, 8]}}", 10) == "header: the last 2 bytes of the file belong to no tensor");
  CHECK(refusal("{" + a + "[0, 8]}, " + b + "[8, 12]}}", 12).empty());
}

TEST_CASE("names in messages: as they are when plain, quoted otherwise", "[safetensors]") {
  CHECK(tensor_place("h.3.attn.c_attn.weight") == "h.3.attn.c_attn.weight");
  CHECK(tensor_place("evil\n\x1b[2J") == "\"evil\\n\\u001B[2J\"");
  CHECK(tensor_place("") == "\"\"");
  CHECK(shape_text(std::vector<std::uint64_t>{96, 32}) == "[96, 32]");
  CHECK(shape_text(shape_t{}) == "[]");
}
