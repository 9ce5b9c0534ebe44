// One fuzz_folder input as a folder on disk, for the fuzz target and for
// the Catch2 test that replays its seeds: the input split at each
// "\n@@file@@\n" into config.json, the index (absent when empty) and one
// to four shards. With an index the shards are s0.safetensors,
// s1.safetensors, … (the index names them); without one the first is
// model.safetensors and a second extra.safetensors. A shard that starts
// with "#pad N\n" (N ≤ 2^36) is extended by N zero bytes with truncate():
// a sparse file that claims far more than the input holds.
#pragma once

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace fuzz {

inline const std::string folder_separator = "\n@@file@@\n";
inline constexpr std::size_t folder_most_shards = 4;
inline constexpr std::uint64_t folder_most_padding = std::uint64_t{1} << 36;  // 64 GiB of holes, no disk

inline std::vector<std::string> folder_parts(const std::string& input) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t at; (at = input.find(folder_separator, from)) != std::string::npos; from = at + folder_separator.size())
    parts.push_back(input.substr(from, at - from));
  parts.push_back(input.substr(from));
  return parts;
}

// `dir` emptied of its files (created if missing).
inline void empty_folder(const std::string& dir) {
  mkdir(dir.c_str(), 0700);
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d))
      if (e->d_name[0] != '.') unlink((dir + "/" + e->d_name).c_str());
    closedir(d);
  }
}

// A shard's bytes, then the holes a "#pad N\n" line asks for. False when truncate() fails.
inline bool write_shard(const std::string& path, const std::string& part) {
  std::string bytes = part;
  std::uint64_t padding = 0;
  const std::size_t end = part.compare(0, 5, "#pad ") == 0 ? part.find('\n') : std::string::npos;
  if (end != std::string::npos && end > 5 && end - 5 <= 11) {
    std::uint64_t n = 0;
    bool digits = true;
    for (std::size_t i = 5; i < end && digits; ++i) {
      digits = part[i] >= '0' && part[i] <= '9';
      n = n * 10 + static_cast<std::uint64_t>(part[i] - '0');
    }
    if (digits && n <= folder_most_padding) {
      padding = n;
      bytes = part.substr(end + 1);
    }
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return padding == 0 || truncate(path.c_str(), static_cast<off_t>(bytes.size() + padding)) == 0;
}

// The input written into `dir` (emptied first); false when it is not a
// folder's input (fewer than three parts or more than four shards).
inline bool write_folder(const std::string& dir, const std::string& input) {
  const std::vector<std::string> parts = folder_parts(input);
  if (parts.size() < 3 || parts.size() > 2 + folder_most_shards) return false;
  empty_folder(dir);
  std::ofstream(dir + "/config.json", std::ios::binary | std::ios::trunc) << parts[0];
  const bool indexed = !parts[1].empty();
  if (indexed) std::ofstream(dir + "/model.safetensors.index.json", std::ios::binary | std::ios::trunc) << parts[1];
  for (std::size_t s = 2; s < parts.size(); ++s) {
    const std::string name = indexed ? "s" + std::to_string(s - 2) + ".safetensors"
                             : s == 2 ? "model.safetensors"
                                      : "extra.safetensors";
    if (!write_shard(dir + "/" + name, parts[s])) return false;
  }
  return true;
}

}  // namespace fuzz
