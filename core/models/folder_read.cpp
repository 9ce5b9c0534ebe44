#include "models/folder_read.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <vector>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/regular_file.hpp"
#include "formats/safetensors_index.hpp"
#include "models/folder_plan.hpp"
#include "models/model_loader.hpp"
#include "models/model_stream.hpp"

namespace attention {
namespace {

constexpr std::uint64_t config_limit = 1u << 20;  // config.json: 1 MiB
constexpr std::uint64_t index_limit = 4u << 20;   // model.safetensors.index.json: 4 MiB
constexpr std::size_t shard_limit = 256;          // files open at once (Llama 3 405B has 191 shards)

// POSIX rather than <filesystem>: this file is built for wasm too.
bool exists(const std::string& path, struct stat& status) { return stat(path.c_str(), &status) == 0; }

// A small file of the folder, whole: named when missing, a directory, unreadable or too large.
std::string read_small(const std::string& path, std::uint64_t limit, const char* what) {
  const std::uint64_t size = regular_file_size(path, quote(path, 200), what);
  ATTENTION_CHECK(size <= limit, quote(path, 200), ": ", size, " bytes, beyond the limit of ", limit);
  std::ifstream file(path, std::ios::binary);
  ATTENTION_CHECK(file.is_open(), quote(path, 200), ": cannot open");
  std::string text;
  char buffer[1 << 16];
  while (file.read(buffer, sizeof buffer) || file.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(file.gcount()));
    ATTENTION_CHECK(text.size() <= limit, quote(path, 200), ": more than ", limit, " bytes");  // it grew
  }
  ATTENTION_CHECK(!file.bad(), quote(path, 200), ": cannot read");
  return text;
}

struct open_shard {
  std::string file;
  std::unique_ptr<std::ifstream> in;  // at the data once its header is read
};

}  // namespace

bool is_folder(const std::string& path) {
  struct stat status {};
  return exists(path, status) && S_ISDIR(status.st_mode);
}

std::string read_folder_config(const std::string& folder) {
  return read_small(folder + "/config.json", config_limit, "a model folder's config.json");
}

loaded_model read_folder(const std::string& folder, const family_config& config) {
  const std::string index_path = folder + "/model.safetensors.index.json";
  struct stat status {};
  std::unique_ptr<safetensors_index> index;
  std::vector<std::string> files = {"model.safetensors"};
  if (exists(index_path, status)) {
    index = std::make_unique<safetensors_index>(read_safetensors_index(read_small(index_path, index_limit, "an index")));
    files = index->shards;
    ATTENTION_CHECK(files.size() <= shard_limit, quote(index_path, 200), ": ", files.size(), " shards, beyond the limit of ",
                    shard_limit);
  } else {
    ATTENTION_CHECK(exists(folder + "/model.safetensors", status), quote(folder, 200),
                    ": neither model.safetensors nor model.safetensors.index.json");
  }
  // every file opened once, its header read; the data waits until the plan has checked them all
  std::vector<open_shard> shards;
  std::vector<std::pair<std::string, safetensors_header>> headers;
  for (const std::string& file : files) {
    const std::string path = folder + "/" + file;
    const auto holder = [&]() -> std::string {  // a shard named with a tensor the index puts in it
      if (!index) return "";
      const auto it = std::find_if(index->weight_map.begin(), index->weight_map.end(),
                                   [&](const auto& entry) { return entry.second == file; });
      return " (model.safetensors.index.json puts " + tensor_place(it->first) + " in it)";
    };
    ATTENTION_CHECK(exists(path, status), quote(path, 200), ": missing", holder());
    const std::uint64_t size = regular_file_size(path, quote(path, 200), "a safetensors file" + holder());
    auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
    ATTENTION_CHECK(in->is_open(), quote(path, 200), ": cannot open", holder());
    try {
      headers.emplace_back(file, read_header_of(*in, size));
    } catch (const error& e) {
      detail::fail(quote(file, 200), ": ", e.what());
    }
    shards.push_back({file, std::move(in)});
  }
  model_loader loader(plan_folder(config, std::move(headers), index.get()));
  std::vector<char> chunk(1u << 20);
  for (std::size_t s = 0; s < shards.size(); ++s) {
    std::ifstream& in = *shards[s].in;
    while (loader.received(s) < loader.expected(s)) {
      const std::uint64_t left = loader.expected(s) - loader.received(s);
      in.read(chunk.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(chunk.size(), left)));
      const auto got = static_cast<std::size_t>(in.gcount());
      if (got == 0) break;
      loader.feed(s, reinterpret_cast<const unsigned char*>(chunk.data()), got);
    }
    ATTENTION_CHECK(!in.bad(), quote(shards[s].file, 200), ": cannot read");
  }
  return loader.finish();
}

}  // namespace attention
