// model.safetensors.index.json: the weight_map read, its shards listed once
// each, a file name that is not a name in the folder refused.
#include <catch2/catch.hpp>

#include "errors/check.hpp"
#include "formats/safetensors_index.hpp"

using namespace attention;

TEST_CASE("an index lists each shard once, sorted", "[safetensors-index]") {
  const safetensors_index i = read_safetensors_index(R"({"metadata": {"total_size": 96},
    "weight_map": {"b": "model-00002-of-00002.safetensors", "a": "model-00001-of-00002.safetensors",
                   "c": "model-00001-of-00002.safetensors"}})");
  CHECK(i.shards == std::vector<std::string>{"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"});
  CHECK(i.weight_map.at("b") == "model-00002-of-00002.safetensors");
  CHECK(i.weight_map.size() == 3);
}

TEST_CASE("a bad index is one line naming its place", "[safetensors-index]") {
  CHECK_THROWS_WITH(read_safetensors_index("[]"), "model.safetensors.index.json: not a JSON object");
  CHECK_THROWS_WITH(read_safetensors_index("{}"),
                    "model.safetensors.index.json: no weight_map (tensor name -> shard file)");
  CHECK_THROWS_WITH(read_safetensors_index(R"({"weight_map": {}})"),
                    "model.safetensors.index.json.weight_map: expected an object naming each tensor's shard");
  CHECK_THROWS_WITH(read_safetensors_index(R"({"weight_map": {"a": 3}})"),
                    "model.safetensors.index.json.weight_map.a: expected a shard's file name, got 3");
  CHECK_THROWS_WITH(read_safetensors_index(R"({"weight_map": {"a": "../secret.safetensors"}})"),
                    "model.safetensors.index.json.weight_map.a: \"../secret.safetensors\" is not a file name in the "
                    "folder");
  CHECK_THROWS_WITH(read_safetensors_index(R"({"weight_map": {"a": "/etc/passwd"}})"),
                    "model.safetensors.index.json.weight_map.a: \"/etc/passwd\" is not a file name in the folder");
  CHECK_THROWS_WITH(read_safetensors_index(R"({"weight_map": {"a": "x", "a": "y"}})"),
                    Catch::Contains("duplicate key"));
  CHECK_THROWS_WITH(read_safetensors_index(R"({"weight_map": {"a b\u001b": 3}})"),
                    Catch::Contains("weight_map.\"a b"));
  CHECK_THROWS_WITH(read_safetensors_index(std::string((4u << 20) + 1, ' ')),
                    "model.safetensors.index.json: 4194305 bytes, beyond the limit of 4194304");
}
