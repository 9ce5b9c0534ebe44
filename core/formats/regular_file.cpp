#include "formats/regular_file.hpp"

#include <sys/stat.h>  // POSIX rather than <filesystem>: this file is built for wasm too

#include "errors/check.hpp"

namespace attention {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

}  // namespace

std::uint64_t regular_file_size(const std::string& path, const std::string& place, const std::string& expected) {
  struct stat status {};
  ATTENTION_CHECK(stat(path.c_str(), &status) == 0, place, ": missing (", expected, ")");
  ATTENTION_CHECK(S_ISREG(status.st_mode), place, ": ", kind_of(status.st_mode), ", not ", expected);
  return static_cast<std::uint64_t>(status.st_size);
}

}  // namespace attention
