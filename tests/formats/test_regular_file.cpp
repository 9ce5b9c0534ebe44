// A path a folder names is a regular file, asked before any open: a FIFO
// (whose open blocks for ever), a socket, a device, a directory, missing.
#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "formats/regular_file.hpp"
#include "errors/check.hpp"

using namespace attention;

namespace {

std::string refusal(const std::string& path) {
  try {
    regular_file_size(path, "X", "a config");
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

struct temp_dir {
  std::string path;
  temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "regular-file-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

TEST_CASE("a regular file gives its size; anything else is named", "[regular-file]") {
  temp_dir dir;
  const std::string file = dir.path + "/file";
  std::ofstream(file) << "12345";
  CHECK(regular_file_size(file, "X", "a config") == 5);
  CHECK(refusal(dir.path + "/none") == "X: missing (a config)");
  CHECK(refusal(dir.path) == "X: a directory, not a config");
  const std::string fifo = dir.path + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(refusal(fifo) == "X: a FIFO (named pipe), not a config");
  CHECK(refusal("/dev/null") == "X: a character device, not a config");
  const std::string link = dir.path + "/zero";
  std::filesystem::create_symlink("/dev/zero", link);
  CHECK(refusal(link) == "X: a character device, not a config");  // the link followed
}

TEST_CASE("a socket is named", "[regular-file]") {
  temp_dir dir;
  const std::string path = dir.path + "/socket";
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  REQUIRE(path.size() < sizeof address.sun_path);
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  REQUIRE(bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  CHECK(refusal(path) == "X: a socket, not a config");
  close(fd);
}
