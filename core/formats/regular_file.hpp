// Whether a path a folder names is a regular file, asked with stat() before
// any open: opening a FIFO blocks until a writer comes (forever), and a
// device or socket has no size to bound a read by. Symlinks are followed,
// so a link to /dev/zero is named as the device it is.
#pragma once

#include <cstdint>
#include <string>

namespace attention {

// The file's size in bytes. Missing, a directory, a FIFO, a socket or a
// device is one line: `place` and what it is instead of `expected`.
std::uint64_t regular_file_size(const std::string& path, const std::string& place, const std::string& expected);

}  // namespace attention
