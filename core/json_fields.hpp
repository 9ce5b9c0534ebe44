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

// "tensors[0].std: unknown field", or `place: unknown field "odd key"` when
// the key is not a plain name; `root` names the document's top level.
std::string unknown_field(const std::string& place, const std::string& key, const char* root = "scenario");

// Throws for the first key of `object` not in `allowed`; `root` names the
// document when the place is its top level.
void only_fields(const nlohmann::json& object, const std::string& place, const std::set<std::string>& allowed,
                 const char* root = "scenario");

std::string string_field(const nlohmann::json& object, const std::string& key, const std::string& place);

// A positive integer, clamped to size_t; 0 for anything else.
std::size_t positive_integer(const nlohmann::json& value);

// Any JSON integer that PyTorch would take as a seed: negative ones wrap as
// int64 -> uint64, as torch.manual_seed does.
std::uint64_t parse_seed(const nlohmann::json& value, const std::string& place);

}  // namespace attention
