// libFuzzer over a whole Hugging Face folder: an input is a config.json,
// an index and up to four shards (folder_input.hpp: how it is split, and
// the "#pad N" line that makes a sparse shard claiming gigabytes, as the
// over-declared seeds of tests/fuzz/folder/ do). Then the CLI on the folder
// under its contract (contract.hpp): validate, and model and lens where
// validate passed. A reader that streamed what a header declares past the
// limits would run into libFuzzer's time and memory limits (tests/fuzz/run).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "contract.hpp"
#include "folder_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string dir = "/tmp/fuzz-folder-" + std::to_string(getpid());
  if (!fuzz::write_folder(dir, std::string(reinterpret_cast<const char*>(data), size)))
    return -1;  // not a folder: not kept in the corpus
  if (fuzz::run_cli_checked({"validate", dir.c_str()}, "") == 0) {
    fuzz::run_cli_checked({"model", dir.c_str(), "--tokens", "0,1,2"}, "");
    fuzz::run_cli_checked({"lens", dir.c_str(), "--tokens", "0,1,2", "--what", "attribution"}, "");
  }
  return 0;
}
