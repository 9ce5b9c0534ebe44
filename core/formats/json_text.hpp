// Reading a JSON document from user text, safely: a size limit, no NUL byte,
// a nesting limit, nothing but white space after the document, and numbers
// that fit a double. Every problem becomes one attention::error naming the
// line and column, with any quoted input made safe by quote().
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace attention {

// `what` names the document in messages ("scenario", "training"); with
// `under_name` a key's place is written under it too ("config.n_head"), as
// a document whose fields are named that way (a Hugging Face config.json).
nlohmann::json read_json(std::string_view text, std::string_view what, std::size_t max_bytes,
                         std::size_t max_depth, bool under_name = false);

// The keys of the top-level object as far as the text parses, whatever its
// size and whatever follows: enough to tell which kind of document a
// malformed or oversized file meant to be, so its message names the right one.
std::set<std::string> top_level_keys(std::string_view text);

}  // namespace attention
