// A folder on disk: config.json first (missing, a directory or over 1 MiB
// named before anything else is read), then model.safetensors or the index
// and its shards, a missing shard named with a tensor the index puts in it.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>

#include "folder_support.hpp"

using namespace attention;
using folder_support::refusal;
using folder_support::temp_dir;

TEST_CASE("config.json missing, a directory or too large is named", "[folder-read]") {
  temp_dir dir;
  CHECK(refusal(dir.path) == "\"" + dir.path + "/config.json\": missing (a model folder's config.json)");
  std::filesystem::create_directory(dir / "config.json");
  CHECK(refusal(dir.path) == "\"" + dir.path + "/config.json\": a directory, not a model folder's config.json");
  std::filesystem::remove(dir / "config.json");
  // over 1 MiB: refused from its size, before it is read
  folder_support::write(dir / "config.json", "{\"model_type\": \"llama\"" + std::string(1u << 20, ' ') + "}");
  CHECK(refusal(dir.path) == "\"" + dir.path + "/config.json\": 1048599 bytes, beyond the limit of 1048576");
  folder_support::write(dir / "config.json", "{\"model_type\": ");
  CHECK_THROWS_WITH(folder_support::read(dir.path), Catch::StartsWith("config: "));
}

TEST_CASE("no weights, or a missing shard, is named", "[folder-read]") {
  temp_dir dir;
  auto f = folder_support::small_llama();
  folder_support::write(dir / "config.json", f.config.dump());
  CHECK(refusal(dir.path) == "\"" + dir.path + "\": neither model.safetensors nor model.safetensors.index.json");
  f.write_sharded(dir.path, 2);
  std::filesystem::remove(dir / "model-00002-of-00002.safetensors");
  CHECK(refusal(dir.path) == "\"" + dir.path + "/model-00002-of-00002.safetensors\": missing "
                             "(model.safetensors.index.json puts lm_head.weight in it)");
}

TEST_CASE("a shard's broken header and a truncated shard are named with the file", "[folder-read]") {
  temp_dir dir;
  auto f = folder_support::small_llama();
  f.write_sharded(dir.path, 2);
  folder_support::write(dir / "model-00001-of-00002.safetensors", std::string("\x02\0\0\0\0\0\0\0{}", 10) + "x");
  CHECK(refusal(dir.path) == "\"model-00001-of-00002.safetensors\": header: the last 1 bytes of the file belong to no "
                             "tensor");
  f.write_to(dir.path);
  std::filesystem::remove(dir / "model.safetensors.index.json");
  const std::string bytes = f.tensors.bytes();
  std::filesystem::resize_file(dir / "model.safetensors", bytes.size() - 4);
  CHECK_THAT(refusal(dir.path), Catch::Contains("data_offsets of lm_head.weight run past the end of the file"));
}

TEST_CASE("the shared folders are read", "[folder-read]") {
  for (const std::string& name : folder_support::golden_folders()) {
    INFO(name);
    CHECK(refusal(folder_support::golden_folder(name)) == "");
  }
}

TEST_CASE("a skipped buffer declaring gigabytes is refused from the header, before its bytes", "[folder-read]") {
  // the audit's folder: inv_freq declared [2^31 - 1] F32 in a sparse file
  // that claims 8 GiB; it was streamed whole and answered valid
  temp_dir dir;
  auto f = folder_support::small_llama();
  nlohmann::ordered_json header = f.tensors.header();
  std::uint64_t data = 0;
  for (const auto& t : f.tensors.tensors) data += t.bytes.size();
  const std::uint64_t declared = ((std::uint64_t{1} << 31) - 1) * 4;
  header["model.layers.0.self_attn.rotary_emb.inv_freq"] = {
      {"dtype", "F32"}, {"shape", {(std::uint64_t{1} << 31) - 1}}, {"data_offsets", {data, data + declared}}};
  const std::string text = header.dump();
  folder_support::write(dir / "config.json", f.config.dump());
  folder_support::write(dir / "model.safetensors", f.tensors.bytes(text));
  std::filesystem::resize_file(dir / "model.safetensors", 8 + text.size() + data + declared);  // sparse
  CHECK(refusal(dir.path) == "model.layers.0.self_attn.rotary_emb.inv_freq: 2147483647 numbers, beyond the 4 this "
                             "skipped buffer may hold (config's head_dim 4)");
}

TEST_CASE("a FIFO, a device or a socket among a folder's files is named before it is opened", "[folder-read]") {
  // the open of a FIFO blocks until a writer comes: before the check, each of these hung
  const auto fifo = [](const std::string& path) {
    std::filesystem::remove(path);
    REQUIRE(mkfifo(path.c_str(), 0600) == 0);
  };
  temp_dir dir;
  auto f = folder_support::small_llama();
  f.write_to(dir.path);
  fifo(dir / "config.json");
  CHECK(refusal(dir.path) == "\"" + dir.path + "/config.json\": a FIFO (named pipe), not a model folder's config.json");
  std::filesystem::remove(dir / "config.json");  // writing into the FIFO would block this test
  f.write_to(dir.path);
  fifo(dir / "model.safetensors");
  CHECK(refusal(dir.path) == "\"" + dir.path + "/model.safetensors\": a FIFO (named pipe), not a safetensors file");
  std::filesystem::remove(dir / "model.safetensors");
  std::filesystem::create_symlink("/dev/zero", dir / "model.safetensors");
  CHECK(refusal(dir.path) == "\"" + dir.path + "/model.safetensors\": a character device, not a safetensors file");

  temp_dir sharded;
  f.write_sharded(sharded.path, 2);
  fifo(sharded / "model.safetensors.index.json");
  CHECK(refusal(sharded.path) == "\"" + sharded.path + "/model.safetensors.index.json\": a FIFO (named pipe), not an index");
  std::filesystem::remove(sharded / "model.safetensors.index.json");
  f.write_sharded(sharded.path, 2);
  fifo(sharded / "model-00002-of-00002.safetensors");
  CHECK(refusal(sharded.path) == "\"" + sharded.path + "/model-00002-of-00002.safetensors\": a FIFO (named pipe), not a "
                                 "safetensors file (model.safetensors.index.json puts lm_head.weight in it)");
}
