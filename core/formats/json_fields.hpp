// Reading the fields of a checked JSON document (a scenario, a training
// file): places named as the specs print them (tensors[2].linear), values
// shown safely inside messages, unknown fields refused, integers read
// without wrapping.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace attention {

std::string at(const std::string& parent, const std::string& key);
std::string at(const std::string& parent, std::size_t index);

// A JSON value inside a message: strings quoted and shortened, numbers as
// written, lists and objects by kind (they may be megabytes long).
std::string shown(const nlohmann::json& value);

// Whether a key can stand in a place as it is: [A-Za-z_][A-Za-z0-9_]*, at
// most 40 characters. Any other key is quoted where it is shown.
bool plain_name(const std::string& key);

// "tensors[0].std: what", or `place: what "odd key"` when the key is not a
// plain name; `root` names the document's top level.
std::string field_problem(const std::string& place, const std::string& key, const char* root, const char* what);

// "tensors[0].std: unknown field", or `place: unknown field "odd key"`.
std::string unknown_field(const std::string& place, const std::string& key, const char* root = "scenario");

// Throws for the first key of `object` not in `allowed`; `root` names the
// document when the place is its top level.
void only_fields(const nlohmann::json& object, const std::string& place, const std::set<std::string>& allowed,
                 const char* root = "scenario");

std::string string_field(const nlohmann::json& object, const std::string& key, const std::string& place);

// A positive integer at its full 64-bit width (never clamped to size_t, which
// is 32 bits in wasm, so messages show the number as written); 0 for anything
// else. Check it against a limit before narrowing it to size_t.
std::uint64_t positive_integer(const nlohmann::json& value);

// A positive integer no larger than `most`, narrowed to size_t: "place:
// expected a positive integer" or "place: N is beyond the limit of most".
std::size_t size_at_most(const nlohmann::json& value, const std::string& place, std::size_t most);

// Any JSON integer that PyTorch would take as a seed: negative ones wrap as
// int64 -> uint64, as torch.manual_seed does.
std::uint64_t parse_seed(const nlohmann::json& value, const std::string& place);

}  // namespace attention
